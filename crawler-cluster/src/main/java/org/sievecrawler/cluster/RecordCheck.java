package org.sievecrawler.cluster;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.LinkScope;
import org.sievecrawler.link.RejectReason;
import org.sievecrawler.link.Seeds;
import org.sievecrawler.link.UrlNormalizer;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The rules every record a cluster process reads from the crawl's topics must pass before it changes anything: a
 * record is untrusted input (any client with write access can send one, and another version of the crawler may write
 * what this one cannot read), so each is decoded defensively and its URL meets the rules a link found on a page
 * meets. A frontier record, in this order (the first rule it fails is its {@link RecordVerdict.Bad#kind()}):
 * <ol>
 *   <li>{@code no-value}: it has a value; {@code too-large}: key and value take at most
 *       {@link FrontierRecords#MAX_RECORD_BYTES} (a larger one is not decoded at all);
 *   <li>{@code unreadable}: the value is exactly one pending URL ({@link PendingUrlDeserializer}: a negative depth,
 *       attempt or redirect count, such as a depth of 2^31 written as an int, is unreadable there);
 *   <li>{@code unexpected-field}: its purpose is a page or a sitemap (a robots.txt is made by its host's owner, never
 *       sent), its attempt is 0 (a retry stays with the owner; an attempt above 0 would pass {@code limits.max-pages}
 *       and the per-host budget) and its redirects are at most {@code fetch.max-redirects};
 *   <li>the URL is normalized as a link is ({@link UrlNormalizer}: {@code malformed}, {@code unsupported-scheme} for
 *       {@code file:} and the like, {@code too-long}); a URL not in normal form is taken in its normal form;
 *   <li>the URL and depth pass the profile's scope as a link does ({@link LinkScope#decide}: {@code private-address}
 *       for a special-purpose address that is not a seed's host and port, {@code out-of-scope-host},
 *       {@code excluded}, {@code not-included}, {@code too-deep} past {@code scope.max-depth}); with no max depth,
 *       a depth of {@link Integer#MAX_VALUE} is {@code too-deep} too: its links' depth, one more, would not fit;
 *   <li>{@code misrouted}: the URL's host belongs to the record's partition ({@link HostRoutes}: a seed host's
 *       placement, else Kafka's default partitioner of the host), so one process owns each host; the key itself is
 *       not read.
 * </ol>
 * A done marker ({@code <crawl>.fetched}) has a value within the bound that is UTF-8, a URL that normalizes, and a
 * host of its partition; its scope is not checked (a marker of a URL the profile does not crawl marks nothing). A
 * snapshot's pending URLs ({@link #pending}) meet the rules from 3 on.
 *
 * <p>Cost per frontier record: one decode, one parse of the URL by OkHttp's {@code HttpUrl} (the normalizer), the
 * scope's string rules and a murmur2 of the host: 3-4 microseconds on a 2-core machine (100,000 URLs of
 * {@code UrlCorpus}, measured by hand), against the page fetch it may lead to; the poll loop takes some thousands of
 * records a second at most.
 *
 * <p>Immutable and thread-safe. Out of scope: what happens to a refused record ({@link RejectedRecords}), which
 * records are read ({@link ClusterRun}, {@link DoneLog}, {@link PartitionStore}).
 */
final class RecordCheck {
    private final PendingUrlDeserializer values = new PendingUrlDeserializer();
    private final UrlNormalizer normalizer;
    private final LinkScope scope;
    private final int maxRedirects;
    private final HostRoutes routes;

    /**
     * The rules of a crawl with {@code profile} (its scope, seeds, private addresses and {@code fetch.max-redirects},
     * as its fetchers apply them to links) on topics of {@code partitions} partitions.
     *
     * @throws IllegalArgumentException as {@link LinkScope}: a scope of {@code same-as-seeds} without seeds
     */
    RecordCheck(CrawlProfile profile, int partitions) {
        this(profile, HostRoutes.hashed(partitions));
    }

    /**
     * The rules of a crawl with {@code profile} whose hosts go to the partitions {@code routes} says (the seed hosts
     * placed by {@code cluster seed}, the others by Kafka's default partitioner).
     *
     * @throws IllegalArgumentException as {@link LinkScope}: a scope of {@code same-as-seeds} without seeds
     */
    RecordCheck(CrawlProfile profile, HostRoutes routes) {
        this.normalizer = new UrlNormalizer(profile.scope().ignoreParams()); // as a single node's links: one URL
        this.scope = new LinkScope(profile.scope(), Seeds.normalize(profile.seeds(), normalizer).urls(),
                profile.fetch().allowPrivateAddresses());
        this.maxRedirects = profile.fetch().maxRedirects();
        this.routes = routes;
    }

    /** What the frontier record {@code record} carries, or why it is refused (see the class comment). */
    RecordVerdict<PendingUrl> frontier(ConsumerRecord<byte[], byte[]> record) {
        Optional<RecordVerdict.Bad<PendingUrl>> unread = unread(record, "frontier record", "a pending URL");
        if (unread.isPresent()) {
            return unread.get();
        }
        PendingUrl url;
        try {
            url = values.deserialize(record.topic(), record.value());
        } catch (SerializationException e) {
            return RecordFault.UNREADABLE.bad(e.getMessage());
        }
        return pending(record.partition(), url);
    }

    /**
     * What the pending URL {@code url}, read from a record of partition {@code partition} (a frontier record, or a
     * snapshot of the partition's Sieve), is once it meets the rules from the fields on; refused, why.
     */
    RecordVerdict<PendingUrl> pending(int partition, PendingUrl url) {
        Objects.requireNonNull(url, "url");
        if (url.isRobots()) {
            return RecordFault.UNEXPECTED_FIELD.bad("purpose robots.txt for " + FrontierRecords.quote(url.url())
                    + ": a host's robots.txt is fetched by its owner, never sent through the frontier");
        }
        if (url.attempt() != 0) {
            return RecordFault.UNEXPECTED_FIELD.bad("attempt " + url.attempt() + " for "
                    + FrontierRecords.quote(url.url()) + ": a retry stays with its owner, a URL is sent at attempt 0");
        }
        if (url.redirects() > maxRedirects) {
            return RecordFault.UNEXPECTED_FIELD.bad(url.redirects() + " redirects for "
                    + FrontierRecords.quote(url.url()) + ", more than fetch.max-redirects " + maxRedirects);
        }
        LinkDecision normalized = normalizer.normalize(url.url());
        if (normalized instanceof LinkDecision.Reject reject) {
            return bad(reject);
        }
        String canonical = ((LinkDecision.Accept) normalized).url();
        if (scope.decide(canonical, url.depth()) instanceof LinkDecision.Reject reject) {
            return bad(reject);
        }
        if (url.depth() == Integer.MAX_VALUE) {
            return new RecordVerdict.Bad<>(RejectReason.TOO_DEEP.label(), "depth " + url.depth()
                    + " leaves no room for its links' depth, one more");
        }
        Optional<RecordVerdict.Bad<PendingUrl>> misrouted = misrouted(partition, canonical);
        if (misrouted.isPresent()) {
            return misrouted.get();
        }
        return new RecordVerdict.Good<>(canonical.equals(url.url()) ? url : new PendingUrl(canonical, url.depth(),
                url.referrer(), url.attempt(), url.redirects(), url.purpose()));
    }

    /** The URL the done marker {@code record} marks done, normalized, or why it is refused (see the class comment). */
    RecordVerdict<String> doneMarker(ConsumerRecord<byte[], byte[]> record) {
        Optional<RecordVerdict.Bad<String>> unread = unread(record, "done marker", "the URL fetched");
        if (unread.isPresent()) {
            return unread.get();
        }
        byte[] value = record.value();
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(value)).toString();
        } catch (CharacterCodingException e) {
            return RecordFault.UNREADABLE.bad("a done marker's value of " + value.length + " bytes is not UTF-8");
        }
        LinkDecision normalized = normalizer.normalize(text);
        if (normalized instanceof LinkDecision.Reject reject) {
            return bad(reject);
        }
        String canonical = ((LinkDecision.Accept) normalized).url();
        Optional<RecordVerdict.Bad<String>> misrouted = misrouted(record.partition(), canonical);
        if (misrouted.isPresent()) {
            return misrouted.get();
        }
        return new RecordVerdict.Good<>(canonical);
    }

    /**
     * The refusal of {@code record} (a {@code what}, whose value is {@code expected}) before its value is read: as
     * {@code no-value} when it has none, as {@code too-large} when key and value take more than the bound.
     */
    private static <T> Optional<RecordVerdict.Bad<T>> unread(ConsumerRecord<byte[], byte[]> record, String what,
            String expected) {
        if (record.value() == null) {
            return Optional.of(RecordFault.NO_VALUE.bad("a " + what + " has no value; expected " + expected));
        }
        long size = (long) record.value().length + (record.key() == null ? 0 : record.key().length);
        if (size <= FrontierRecords.MAX_RECORD_BYTES) {
            return Optional.empty();
        }
        return Optional.of(RecordFault.TOO_LARGE.bad("a " + what + " of " + size + " bytes (key and value), more"
                + " than the " + FrontierRecords.MAX_RECORD_BYTES + " a crawler writes; not read"));
    }

    /** The refusal as {@code misrouted} when {@code url}'s host is not one of {@code partition}'s. */
    private <T> Optional<RecordVerdict.Bad<T>> misrouted(int partition, String url) {
        String host = HostKey.host(url);
        int owner = routes.partition(host);
        if (owner == partition) {
            return Optional.empty();
        }
        return Optional.of(RecordFault.MISROUTED.bad("the host \"" + host + "\" of " + FrontierRecords.quote(url)
                + " belongs to partition " + owner + " of " + routes.partitions() + ", not " + partition));
    }

    private static <T> RecordVerdict.Bad<T> bad(LinkDecision.Reject reject) {
        return new RecordVerdict.Bad<>(reject.reason().label(), reject.detail());
    }
}
