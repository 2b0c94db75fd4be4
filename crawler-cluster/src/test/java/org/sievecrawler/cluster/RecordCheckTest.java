package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileOverrides;
import org.sievecrawler.sieve.PendingUrl;

/**
 * {@link RecordCheck}: every bad record of the table {@code /cluster/poison-records.tsv} (src-test-fixtures) is
 * refused as the kind the table says, and the records a crawler writes are taken, a URL not in normal form in its
 * normal form. The crawl: seed {@code http://127.0.0.1:8080/}, its default scope (same-as-seeds, no private address
 * but the seed's host and port), 3 partitions.
 */
class RecordCheckTest {
    static final String SITE = "http://127.0.0.1:8080";
    static final int PARTITIONS = 3;
    static final CrawlName DOCS = new CrawlName("docs");
    /** The partition of the site's host. */
    static final int OWN = FrontierRecords.partition("127.0.0.1", PARTITIONS);

    /** The crawl's profile, {@code sets} applied. */
    static CrawlProfile profile(String... sets) {
        ProfileOverrides overrides = new ProfileOverrides().set("seeds=[" + SITE + "/]");
        for (String set : sets) {
            overrides.set(set);
        }
        return overrides.applyTo(CrawlProfile.defaults());
    }

    private final RecordCheck check = new RecordCheck(profile(), PARTITIONS);

    static List<PoisonRecords.Poison> frontierPoison() throws Exception {
        return PoisonRecords.of(ClusterTopics.FRONTIER, SITE, PARTITIONS);
    }

    static List<PoisonRecords.Poison> fetchedPoison() throws Exception {
        return PoisonRecords.of(ClusterTopics.FETCHED, SITE, PARTITIONS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frontierPoison")
    void aBadFrontierRecordIsRefusedAsItsKind(PoisonRecords.Poison poison) {
        RecordVerdict<PendingUrl> verdict = check.frontier(poison.record(DOCS, 41));

        assertThat(verdict).as(poison.where()).isInstanceOfSatisfying(RecordVerdict.Bad.class,
                bad -> assertThat(bad.kind()).as(poison.where() + ": " + bad).isEqualTo(poison.kind()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fetchedPoison")
    void aBadDoneMarkerIsRefusedAsItsKind(PoisonRecords.Poison poison) {
        RecordVerdict<String> verdict = check.doneMarker(poison.record(DOCS, 41));

        assertThat(verdict).as(poison.where()).isInstanceOfSatisfying(RecordVerdict.Bad.class,
                bad -> assertThat(bad.kind()).as(poison.where() + ": " + bad).isEqualTo(poison.kind()));
    }

    @Test
    void theDetailNamesTheValueNotTheWholeRecord() {
        assertThat(check.frontier(frontier(OWN, new PendingUrl("file:///etc/passwd", 1, null, 0, 0,
                PendingUrl.Purpose.PAGE)))).hasToString("unsupported-scheme: scheme \"file\" is not http or https");
        assertThat(check.frontier(record(OWN, new byte[5 * 1024 * 1024]))).hasToString("too-large: a frontier"
                + " record of 5242889 bytes (key and value), more than the 16384 a crawler writes; not read");
        assertThat(check.frontier(record(OWN, new byte[] {0, 0, 0, 9, 'h'}))).hasToString("unreadable: topic"
                + " docs.frontier: a frontier record's value of 5 bytes is not a pending URL: cut short");
        assertThat(check.frontier(frontier((OWN + 1) % PARTITIONS, PendingUrl.seed(SITE + "/a"))))
                .hasToString("misrouted: the host \"127.0.0.1\" of \"http://127.0.0.1:8080/a\" belongs to partition "
                        + OWN + " of 3, not " + (OWN + 1) % PARTITIONS);
        assertThat(check.frontier(frontier(OWN, new PendingUrl(SITE + "/a", Integer.MAX_VALUE, null, 0, 0,
                PendingUrl.Purpose.PAGE)))).hasToString("too-deep: depth 2147483647 leaves no room for its links'"
                        + " depth, one more");
    }

    @Test
    void whatACrawlerSendsIsTaken() {
        PendingUrl seed = PendingUrl.seed(SITE + "/");
        PendingUrl link = PendingUrl.link(SITE + "/a?b=c", seed);
        PendingUrl redirect = PendingUrl.redirect(SITE + "/b", PendingUrl.redirect(SITE + "/c", link));
        PendingUrl sitemap = PendingUrl.sitemap(SITE + "/sitemap.xml", 0, null);

        for (PendingUrl url : List.of(seed, link, redirect, sitemap)) {
            assertThat(check.frontier(frontier(OWN, url))).isEqualTo(new RecordVerdict.Good<>(url));
        }
        assertThat(check.doneMarker(new ConsumerRecord<>("docs.fetched", OWN, 0, null,
                (SITE + "/a?b=c").getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(new RecordVerdict.Good<>(SITE + "/a?b=c"));
    }

    @Test
    void aUrlNotInNormalFormIsTakenInItsNormalForm() {
        PendingUrl written = new PendingUrl("HTTP://127.0.0.1:8080/a/../b#top", 2, SITE + "/", 0, 0,
                PendingUrl.Purpose.PAGE);

        assertThat(check.frontier(frontier(OWN, written))).isEqualTo(new RecordVerdict.Good<>(
                new PendingUrl(SITE + "/b", 2, SITE + "/", 0, 0, PendingUrl.Purpose.PAGE)));
    }

    @Test
    void theProfilesIgnoredParametersGoAsFromALink() {
        RecordCheck sessions = new RecordCheck(profile("scope.ignore-params=[sid, utm_*]"), PARTITIONS);
        PendingUrl written = new PendingUrl(SITE + "/b?utm_source=x&page=2&sid=9f", 2, SITE + "/", 0, 0,
                PendingUrl.Purpose.PAGE);

        assertThat(sessions.frontier(frontier(OWN, written))).isEqualTo(new RecordVerdict.Good<>(
                new PendingUrl(SITE + "/b?page=2", 2, SITE + "/", 0, 0, PendingUrl.Purpose.PAGE)));
    }

    @Test
    void theProfilesMaxDepthAndPatternsApplyAsToALink() {
        RecordCheck scoped = new RecordCheck(profile("scope.max-depth=3", "scope.exclude=[/private/]"), PARTITIONS);

        assertThat(scoped.frontier(frontier(OWN, new PendingUrl(SITE + "/a", 3, null, 0, 0,
                PendingUrl.Purpose.PAGE)))).isInstanceOf(RecordVerdict.Good.class);
        assertThat(scoped.frontier(frontier(OWN, new PendingUrl(SITE + "/a", 4, null, 0, 0,
                PendingUrl.Purpose.PAGE)))).hasToString("too-deep: depth 4 is more than scope.max-depth 3");
        assertThat(scoped.frontier(frontier(OWN, PendingUrl.seed(SITE + "/private/x"))))
                .isInstanceOfSatisfying(RecordVerdict.Bad.class, bad -> assertThat(bad.kind()).isEqualTo("excluded"));
    }

    @Test
    void privateAddressesAllowedLetAnyPortOfAnAllowedHostIn() {
        RecordCheck open = new RecordCheck(profile("fetch.allow-private-addresses=true"), PARTITIONS);

        assertThat(open.frontier(frontier(OWN, PendingUrl.seed("http://127.0.0.1:6379/"))))
                .isInstanceOf(RecordVerdict.Good.class);
        assertThat(check.frontier(frontier(OWN, PendingUrl.seed("http://127.0.0.1:6379/"))))
                .isInstanceOfSatisfying(RecordVerdict.Bad.class,
                        bad -> assertThat(bad.kind()).isEqualTo("private-address"));
    }

    @Test
    void aSnapshotsPendingUrlMeetsTheRulesOfItsPartition() {
        assertThat(check.pending(OWN, PendingUrl.seed(SITE + "/a"))).isInstanceOf(RecordVerdict.Good.class);
        assertThat(check.pending(OWN, PendingUrl.seed("file:///etc/passwd")))
                .isInstanceOfSatisfying(RecordVerdict.Bad.class,
                        bad -> assertThat(bad.kind()).isEqualTo("unsupported-scheme"));
        assertThat(check.pending((OWN + 1) % PARTITIONS, PendingUrl.seed(SITE + "/a")))
                .isInstanceOfSatisfying(RecordVerdict.Bad.class, bad -> assertThat(bad.kind()).isEqualTo("misrouted"));
    }

    private static ConsumerRecord<byte[], byte[]> frontier(int partition, PendingUrl url) {
        return record(partition, new PendingUrlSerializer().serialize("docs.frontier", url));
    }

    private static ConsumerRecord<byte[], byte[]> record(int partition, byte[] value) {
        return new ConsumerRecord<>("docs.frontier", partition, 41, "127.0.0.1".getBytes(StandardCharsets.UTF_8),
                value);
    }
}
