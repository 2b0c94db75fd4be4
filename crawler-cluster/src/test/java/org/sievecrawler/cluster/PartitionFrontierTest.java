package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_RESPECT_ROBOTS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.frontier.CompletedUrls;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.frontier.FrontierGroup;
import org.sievecrawler.frontier.FrontierState;
import org.sievecrawler.frontier.Lease;
import org.sievecrawler.frontier.LinkOutbox;
import org.sievecrawler.frontier.PageLease;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.profile.SieveConfig;
import org.sievecrawler.sieve.FilterLayer;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/**
 * The frontier of a cluster partition (a {@link FrontierGroup}'s, as {@link PartitionStore} opens it) without Kafka: a list stands for the partition's
 * log, an outbox that appends links to it and acknowledges them when the test says stands for the producer. Checks
 * what cluster mode rests on: the frontier's decisions are a function of the log (a snapshot plus the log after it
 * plus the URLs done since rebuild the straight run's state), a lease stays open until its page's links are
 * acknowledged, quiescing waits for that, and a new owner makes no request before its quiet period ends.
 */
class PartitionFrontierTest {
    private static final CrawlProfile PROFILE = CrawlProfile.defaults().with(SIEVE_EXPECTED_URLS, 50_000L)
            .with(SIEVE_FALSE_POSITIVE_RATE, 1e-3).with(POLITENESS_DELAY, Duration.ZERO)
            .with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4).with(POLITENESS_RESPECT_ROBOTS, false);
    private static final SieveConfig SIEVE = PROFILE.sieve();
    private static final PolitenessConfig POLITE = PROFILE.politeness();

    @TempDir
    Path dir;

    /** The partition's log, and the acknowledgements the outbox holds back until {@link #acknowledgeAll}. */
    private static final class Log implements LinkOutbox {
        final List<PendingUrl> records = new ArrayList<>();
        final List<String> done = new ArrayList<>();
        final List<Runnable> unacknowledged = new ArrayList<>();

        @Override
        public synchronized void send(PendingUrl page, List<PendingUrl> links, Runnable durable) {
            records.addAll(links);
            unacknowledged.add(() -> {
                done.add(page.url());
                durable.run();
            });
        }

        synchronized void acknowledgeAll() {
            List<Runnable> acks = new ArrayList<>(unacknowledged);
            unacknowledged.clear();
            acks.forEach(Runnable::run);
        }
    }

    private Frontier partition(Log log, FrontierGroup group, Clock clock, Instant quietUntil,
            Optional<FrontierState> state, CompletedUrls done) throws Exception {
        return group.open(new Frontier.Settings(SIEVE, POLITE, 8, dir.resolve("p0")), clock, record -> { }, log,
                quietUntil, state, done);
    }

    private static List<PendingUrl> links(PendingUrl from, int pages) {
        Random random = new Random(from.url().hashCode());
        List<PendingUrl> links = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            links.add(PendingUrl.link("http://h" + random.nextInt(3) + ".test/" + random.nextInt(pages), from));
        }
        return links;
    }

    private static PageRecord record(PendingUrl task) {
        return PageRecord.refused(task.url(), Outcome.FETCHED, task.depth(), task.referrer(), null);
    }

    /** Takes the log from {@code position} into the frontier; returns the new position. */
    private static int consume(Log log, Frontier frontier, int position) {
        List<PendingUrl> batch = new ArrayList<>(log.records.subList(position, log.records.size()));
        frontier.offer(batch);
        return position + batch.size();
    }

    /** Leases up to {@code count} pages and completes them (links to the log); returns the URLs completed. */
    private static List<String> crawl(Frontier frontier, int count, int pages) throws Exception {
        List<String> completed = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Lease lease = frontier.next();
            if (lease == null) {
                break;
            }
            PageLease page = (PageLease) lease;
            page.requestEnded();
            page.complete(record(page.task()), links(page.task(), pages));
            completed.add(page.url());
        }
        return completed;
    }

    @Test
    void aSnapshotPlusTheLogAfterItAndTheUrlsDoneSinceRebuildTheStraightRun() throws Exception {
        int pages = 2_000;
        Log log = new Log();
        log.records.add(PendingUrl.seed("http://h0.test/0"));
        Frontier straight = partition(log, new FrontierGroup(8), Clock.systemUTC(), Instant.EPOCH, Optional.empty(),
                CompletedUrls.none());
        int position = consume(log, straight, 0);
        FrontierState snapshot = null;
        int snapshotAt = -1;
        Set<String> doneSinceSnapshot = new HashSet<>();
        Set<String> completedOnce = new HashSet<>();
        for (int round = 0; round < 200; round++) {
            for (String url : crawl(straight, 8, pages)) {
                assertThat(completedOnce.add(url)).as("completed once: %s", url).isTrue();
                if (snapshot != null) {
                    doneSinceSnapshot.add(url);
                }
            }
            log.acknowledgeAll();
            position = consume(log, straight, position);
            if (round == 40) { // as a checkpoint takes it: the state at the consumer's position
                snapshot = straight.snapshot(s -> s);
                snapshotAt = position;
            }
        }
        assertThat(snapshotAt).isPositive();
        assertThat(completedOnce).hasSizeGreaterThan(1_000);

        CompletedUrls done = new CompletedUrls(doneSinceSnapshot.size());
        doneSinceSnapshot.forEach(done::add);
        Frontier takenOver = partition(new Log(), new FrontierGroup(8), Clock.systemUTC(), Instant.EPOCH,
                Optional.of(snapshot), done);
        consume(log, takenOver, snapshotAt); // the replay, from the snapshot's offset to the log's end

        FrontierState expected = straight.snapshot(s -> s);
        FrontierState rebuilt = takenOver.snapshot(s -> s);
        assertThat(bits(rebuilt.filters())).isEqualTo(bits(expected.filters()));
        assertThat(urls(rebuilt.pending())).isEqualTo(urls(expected.pending())).isNotEmpty();
    }

    @Test
    void aLeaseStaysOpenAndHoldsItsPermitUntilItsLinksAreAcknowledged() throws Exception {
        Log log = new Log();
        FrontierGroup group = new FrontierGroup(1);
        Semaphore leases = group.leases();
        Frontier frontier = partition(log, group, Clock.systemUTC(), Instant.EPOCH, Optional.empty(),
                CompletedUrls.none());
        frontier.offer(List.of(PendingUrl.seed("http://h0.test/a"), PendingUrl.seed("http://h0.test/b")));
        PageLease page = (PageLease) frontier.next();
        page.requestEnded();
        page.complete(record(page.task()), List.of(PendingUrl.link("http://h1.test/c", page.task())));

        assertThat(log.records).extracting(PendingUrl::url).containsExactly("http://h1.test/c");
        assertThat(frontier.openLeases()).isEqualTo(1);
        assertThat(frontier.leasedPages()).isZero(); // a snapshot now no longer holds it
        assertThat(frontier.snapshot(s -> s).pending()).extracting(PendingUrl::url).containsExactly("http://h0.test/b");
        assertThat(frontier.next()).as("the process's one permit is held").isNull();
        assertThat(frontier.drain(Duration.ofMillis(50))).isFalse();

        log.acknowledgeAll();
        assertThat(log.done).containsExactly("http://h0.test/a");
        assertThat(frontier.openLeases()).isZero();
        assertThat(leases.availablePermits()).isEqualTo(1);
        assertThat(frontier.drain(Duration.ofMillis(50))).isTrue();
        assertThat(frontier.next()).as("a quiesced partition hands out nothing").isNull();
    }

    @Test
    void aNewOwnerMakesNoRequestBeforeItsQuietPeriodEnds() throws Exception {
        FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
        Frontier frontier = partition(new Log(), new FrontierGroup(4), clock, clock.instant().plusMillis(100),
                Optional.empty(), CompletedUrls.none());
        frontier.offer(List.of(PendingUrl.seed("http://h0.test/a")));
        assertThat(frontier.next()).isNull();
        clock.advance(Duration.ofMillis(99));
        assertThat(frontier.next()).isNull();
        clock.advance(Duration.ofMillis(1));
        assertThat(frontier.next()).isNotNull();
    }

    /** Each filter layer as it is written to a snapshot, in Base64 (so lists compare by content). */
    private static List<String> bits(List<FilterLayer> filters) throws Exception {
        List<String> bits = new ArrayList<>();
        for (FilterLayer filter : filters) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            filter.writeTo(out);
            bits.add(Base64.getEncoder().encodeToString(out.toByteArray()));
        }
        return bits;
    }

    private static Set<String> urls(List<PendingUrl> pending) {
        Set<String> urls = new HashSet<>();
        pending.forEach(url -> urls.add(url.url()));
        return urls;
    }
}
