package org.sievecrawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_PER;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_RESPECT_ROBOTS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_MAX_IN_MEMORY_URLS;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.politeness.HostCounts;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.profile.PolitenessUnit;
import org.sievecrawler.profile.SieveConfig;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.sieve.BloomFilter;
import org.sievecrawler.sieve.FilterLayer;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.SpillPosition;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/**
 * The {@link Frontier} without HTTP: a synthetic web of pages on a few hosts, crawled by threads that lease URLs and
 * close the leases (complete with links, retry, put back). Checks that every lease is closed exactly once, that the
 * end of the crawl is exact, and that a snapshot plus the journal after it replays to the state the straight run
 * reached (same Bloom filter bits, same pending URLs).
 */
class FrontierTest {
    /** Few URLs in memory, so the spill takes part. */
    private static final CrawlProfile PROFILE = CrawlProfile.defaults().with(SIEVE_EXPECTED_URLS, 100_000L)
            .with(SIEVE_FALSE_POSITIVE_RATE, 1e-4).with(SIEVE_MAX_IN_MEMORY_URLS, 64)
            .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4);
    private static final SieveConfig SIEVE = PROFILE.sieve();
    private static final PolitenessConfig POLITE = PROFILE.politeness();
    private static final PolitenessConfig NO_ROBOTS = PROFILE.with(POLITENESS_RESPECT_ROBOTS, false).politeness();

    @TempDir
    Path dir;

    /** Up to 1,000 leases open: the property test holds many at once. */
    private static Frontier.Settings settings(Path folder) {
        return new Frontier.Settings(SIEVE, POLITE, 1_000, folder);
    }

    /** A web of {@code pages} pages on 8 hosts: page i links to page i+1 and to 5 pages picked by a seeded Random. */
    private record Web(int pages) {
        String url(int page) {
            return "http://host" + (page % 8) + ".test/page/" + page;
        }

        int page(String url) {
            return Integer.parseInt(url.substring(url.lastIndexOf('/') + 1));
        }

        List<PendingUrl> links(PendingUrl from) {
            int page = page(from.url());
            Random random = new Random(page);
            List<PendingUrl> links = new ArrayList<>();
            if (page + 1 < pages) {
                links.add(PendingUrl.link(url(page + 1), from));
            }
            for (int i = 0; i < 5; i++) {
                links.add(PendingUrl.link(url(random.nextInt(pages)), from));
            }
            return links;
        }
    }

    private static PageRecord record(PendingUrl task) {
        return PageRecord.refused(task.url(), Outcome.FETCHED, task.depth(), task.referrer(), null);
    }

    @Test
    void fourThreadsCloseEveryLeaseOnceEndExactlyAndASnapshotReplaysToALaterOne() throws Exception {
        Web web = new Web(3_000);
        Map<String, Integer> recorded = new ConcurrentHashMap<>();
        Path run = dir.resolve("run");
        Frontier frontier = Frontier.create(settings(run), Clock.systemUTC(),
                record -> recorded.merge(record.url(), 1, Integer::sum));
        frontier.offerSeeds(List.of(web.url(0)));
        Set<String> putBack = ConcurrentHashMap.newKeySet();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger completions = new AtomicInteger();
        AtomicReference<Taken> first = new AtomicReference<>();
        CountDownLatch firstTaken = new CountDownLatch(1);
        CountDownLatch secondTaken = new CountDownLatch(1);
        AtomicReference<Taken> second = new AtomicReference<>();
        List<PageLease> closed = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                try {
                    crawl(frontier, web, putBack, closed, () -> { // snapshots taken mid-run, by a fetcher
                        int completed = completions.incrementAndGet();
                        if (completed == 500) {
                            first.set(take(frontier, run, dir.resolve("at-first")));
                            firstTaken.countDown();
                        } else if (completed == 1_800) {
                            second.set(take(frontier, run, dir.resolve("at-second")));
                            secondTaken.countDown();
                        }
                        // in order, whatever the scheduler does: no completion passes a snapshot not yet taken
                        await(completed > 500 ? firstTaken : null);
                        await(completed > 1_800 ? secondTaken : null);
                    });
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "fetcher-" + t));
        }
        threads.forEach(Thread::start);

        for (Thread thread : threads) {
            thread.join(60_000);
            assertThat(thread.isAlive()).as("a fetcher still runs after 60 s").isFalse();
        }
        assertThat(failure.get()).isNull();

        assertThat(recorded).hasSize(web.pages());
        assertThat(recorded.values()).as("each page recorded exactly once").containsOnly(1);
        assertThat(frontier.exhausted()).isTrue();
        assertThat(frontier.size()).isZero();
        assertThat(frontier.leasedPages()).isZero();
        assertThat(frontier.requestsInFlight()).isZero();
        assertThat(closed).isNotEmpty();
        assertThatThrownBy(() -> closed.get(0).complete(record(closed.get(0).task())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed exactly once");
        assertThatThrownBy(() -> closed.get(0).retry(Duration.ZERO)).isInstanceOf(IllegalStateException.class);
        frontier.close();

        // The first snapshot and the journal written up to the second replay to the second.
        assertThat(second.get().state().pending()).isNotEmpty();
        Path replayed = copy(second.get().folder(), dir.resolve("replay-first"));
        Path direct = copy(second.get().folder(), dir.resolve("resume-second"));
        Drained fromFirst = drain(replayed, first.get().state());
        Drained fromSecond = drain(direct, second.get().state());
        assertThat(fromFirst.filters()).isEqualTo(bytes(second.get().state().filters()));
        assertThat(fromSecond.filters()).isEqualTo(bytes(second.get().state().filters()));
        assertThat(fromFirst.urls()).isEqualTo(fromSecond.urls());
    }

    @Test
    void handsOutNoMoreThanMaxLeasesAtOnceAndHandsAWaiterTheOneClosed() throws Exception {
        Web web = new Web(100);
        try (Frontier frontier = Frontier.create(new Frontier.Settings(SIEVE, NO_ROBOTS, 3,
                dir.resolve("capped")), Clock.systemUTC(), record -> { })) {
            frontier.offerSeeds(List.of(web.url(0), web.url(1), web.url(2), web.url(3), web.url(4)));
            List<PageLease> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                held.add((PageLease) frontier.next());
            }
            assertThat(frontier.next()).as("a fourth lease while three are open").isNull();
            assertThat(frontier.size()).isEqualTo(2);

            Thread closer = new Thread(() -> held.get(0).putBack());
            closer.start();
            assertThat(frontier.next(Duration.ofSeconds(30))).as("a lease once the put-back frees one").isNotNull();
            closer.join();
            assertThat(frontier.next()).isNull();
        }
    }

    /**
     * Politeness per IP: a host's address is looked up by a fetcher outside the checkpoint lock, so a lookup that
     * hangs (a slow DNS server) holds up no checkpoint; the host is leased once its address is known.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSlowLookupOfAHostsAddressHoldsUpNoCheckpoint() throws Exception {
        PolitenessConfig perIp = PROFILE.with(POLITENESS_RESPECT_ROBOTS, false).with(POLITENESS_PER, PolitenessUnit.IP)
                .politeness();
        CountDownLatch lookingUp = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        Frontier.Settings settings = new Frontier.Settings(SIEVE, perIp, 4, dir.resolve("per-ip"))
                .withAddresses(name -> {
                    lookingUp.countDown();
                    try {
                        answer.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return "192.0.2.7";
                });
        try (Frontier frontier = Frontier.create(settings, Clock.systemUTC(), record -> { })) {
            frontier.offerSeeds(List.of("http://slow.test/1"));
            assertThat(frontier.next()).as("its address is not known yet").isNull();
            AtomicReference<Lease> leased = new AtomicReference<>();
            Thread fetcher = new Thread(() -> leased.set(frontier.next()), "fetcher-1");
            fetcher.start();
            assertThat(lookingUp.await(30, TimeUnit.SECONDS)).as("the fetcher looks the address up").isTrue();

            FrontierState state = java.util.concurrent.CompletableFuture.supplyAsync(() -> frontier.snapshot(s -> s))
                    .get(30, TimeUnit.SECONDS);

            assertThat(state.pending()).extracting(PendingUrl::url).containsExactly("http://slow.test/1");
            answer.countDown();
            fetcher.join();
            assertThat(leased.get().url()).as("leased once its address is known").isEqualTo("http://slow.test/1");
        }
    }

    @Test
    void aBigHostTakesOnlyItsShareOfTheMemorySoHostsInTheSpillAreLeasedToo() throws Exception {
        // 64 URLs in memory, 100 leases: a host's share is the least, 16 URLs (SchedulerLimits.of)
        try (Frontier frontier = Frontier.create(new Frontier.Settings(SIEVE, NO_ROBOTS, 100, dir.resolve("shares")),
                Clock.systemUTC(), record -> { })) {
            List<String> seeds = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                seeds.add("http://big.test/page/" + i);
            }
            for (int h = 0; h < 20; h++) {
                seeds.add("http://small" + h + ".test/");
            }
            frontier.offerSeeds(seeds);
            assertThat(frontier.spilled()).as("all but the big host's share").isEqualTo(520 - 16);

            List<String> leased = new ArrayList<>();
            for (Lease lease = frontier.next(); lease != null && leased.size() < 100; lease = frontier.next()) {
                leased.add(lease.url()); // held open: the big host stays at its 4 connections
            }
            assertThat(leased).as("4 of the big host, then every small host from the spill").hasSize(24)
                    .filteredOn(url -> url.contains("small")).hasSize(20);
        }
    }

    @Test
    void resumesACheckpointWrittenBeforeTheJournalWithNothingToReplayAndJournalsFromThen() throws Exception {
        Web web = new Web(10);
        Path folder = dir.resolve("old");
        FrontierState old = new FrontierState(List.of(BloomFilter.create(SIEVE.expectedUrls(),
                SIEVE.falsePositiveRate())), List.of(PendingUrl.seed(web.url(0))), SpillPosition.empty(),
                FrontierState.NO_JOURNAL);
        try (Frontier resumed = Frontier.resume(new Frontier.Settings(SIEVE, NO_ROBOTS, 4,
                folder), Clock.systemUTC(), record -> { }, old, url -> true)) {
            assertThat(resumed.size()).isEqualTo(1);
            PageLease lease = (PageLease) resumed.next();
            lease.complete(record(lease.task()), web.links(lease.task()));
            FrontierState now = resumed.snapshot(s -> s);
            assertThat(now.journalSegment()).isGreaterThan(0);
        }
        Drained after = drain(copy(folder, dir.resolve("old-copy")), old);
        assertThat(after.urls()).as("nothing replayed: the checkpoint's own pending URL").containsExactly(web.url(0));
    }

    @Test
    void aPageCompletedSinceTheSnapshotWhoseRecordWasLostIsHandedOutAgainOnResume() throws Exception {
        Web web = new Web(3);
        Path folder = dir.resolve("lost");
        FrontierState state;
        try (Frontier frontier = Frontier.create(settings(folder), Clock.systemUTC(), record -> { })) {
            frontier.offerSeeds(List.of(web.url(0)));
            state = frontier.snapshot(s -> s);
            while (!frontier.exhausted()) {
                Lease lease = frontier.next();
                if (lease instanceof RobotsLease robots) {
                    robots.rules(RobotsRules.allowAll("none"));
                } else if (lease instanceof PageLease page) {
                    page.complete(record(page.task()), web.links(page.task()));
                } else {
                    frontier.awaitWork(Duration.ofMillis(10));
                }
            }
        }

        Drained whole = drain(copy(folder, dir.resolve("whole")), state);
        Drained lost = drain(copy(folder, dir.resolve("cut")), state, url -> !url.equals(web.url(1)));

        assertThat(whole.urls()).as("every page completed since the snapshot has its record").isEmpty();
        assertThat(lost.urls()).as("the page whose record was lost").containsExactly(web.url(1));
    }

    /** Records the pages completed and the URLs counted over their host's budget. */
    private static final class BudgetRecorder implements Frontier.Recorder {
        final List<String> recorded = new CopyOnWriteArrayList<>();
        final List<String> overBudget = new CopyOnWriteArrayList<>();

        @Override
        public void record(PageRecord record) {
            recorded.add(record.url());
        }

        @Override
        public void overHostBudget(PendingUrl url) {
            overBudget.add(url.url());
        }
    }

    /** Leases and completes (without links) until the frontier is out of work. */
    private static void completeAll(Frontier frontier) throws Exception {
        while (!frontier.exhausted()) {
            Lease lease = frontier.next();
            if (lease instanceof RobotsLease robots) {
                robots.rules(RobotsRules.allowAll("none"));
            } else if (lease instanceof PageLease page) {
                page.complete(record(page.task()));
            } else {
                frontier.awaitWork(Duration.ofMillis(10));
            }
        }
    }

    @Test
    void admitsAHostsUrlsUpToItsBudgetAndCountsTheRestWithoutQueueingOrRecordingThem() throws Exception {
        BudgetRecorder recorder = new BudgetRecorder();
        try (Frontier frontier = Frontier.create(new Frontier.Settings(SIEVE, NO_ROBOTS, 4, dir.resolve("budget"), 2),
                Clock.systemUTC(), recorder)) {
            PendingUrl seed = PendingUrl.seed("http://a.test/1");
            frontier.offerSeeds(List.of(seed.url(), "http://b.test/1", "http://a.test/2", "http://a.test/3"));
            frontier.offer(List.of(PendingUrl.link("http://a.test/3", seed), PendingUrl.link("http://a.test/4", seed),
                    PendingUrl.redirect("http://a.test/5", seed), PendingUrl.sitemap("http://a.test/map.xml", 1,
                            seed.url()), PendingUrl.link("http://b.test/2", seed)));

            assertThat(recorder.overBudget).as("each once: a.test/3 found again is seen, not counted again")
                    .containsExactly("http://a.test/3", "http://a.test/4", "http://a.test/5");
            assertThat(frontier.size()).as("a.test/1, /2, its sitemap (a budget of its own), b.test/1, /2")
                    .isEqualTo(5);
            completeAll(frontier);
            assertThat(recorder.recorded).containsExactlyInAnyOrder("http://a.test/1", "http://a.test/2",
                    "http://a.test/map.xml", "http://b.test/1", "http://b.test/2");
        }
    }

    @Test
    void aHostsBudgetSpentBeforeACheckpointStaysSpentOnResumeAndTheJournalSpendsItAgain() throws Exception {
        Path folder = dir.resolve("spent");
        Frontier.Settings settings = new Frontier.Settings(SIEVE, NO_ROBOTS, 4, folder, 2);
        BudgetRecorder before = new BudgetRecorder();
        FrontierState state;
        try (Frontier frontier = Frontier.create(settings, Clock.systemUTC(), before)) {
            frontier.offerSeeds(List.of("http://a.test/1", "http://b.test/1"));
            state = frontier.snapshot(s -> s);
            frontier.offerSeeds(List.of("http://a.test/2", "http://a.test/3")); // after the checkpoint: journaled
        }
        assertThat(state.admittedPerHost().size()).isEqualTo(2);
        assertThat(state.admittedPerHost().count(HostKey.of("http://a.test/1"))).isEqualTo(1);
        assertThat(state.admittedPerHost().count(HostKey.of("http://b.test/1"))).isEqualTo(1);
        assertThat(before.overBudget).containsExactly("http://a.test/3");

        BudgetRecorder after = new BudgetRecorder();
        try (Frontier resumed = Frontier.resume(settings, Clock.systemUTC(), after, state, url -> true)) {
            assertThat(after.overBudget).as("the journal's admission over the budget, counted again on replay")
                    .containsExactly("http://a.test/3");
            resumed.offerSeeds(List.of("http://a.test/4", "http://b.test/2"));
            assertThat(after.overBudget).containsExactly("http://a.test/3", "http://a.test/4");
            assertThat(resumed.size()).as("a.test/1, /2, b.test/1, /2").isEqualTo(4);
            HostCounts now = resumed.snapshot(FrontierState::admittedPerHost);
            assertThat(now.count(HostKey.of("http://a.test/1"))).isEqualTo(2);
            assertThat(now.count(HostKey.of("http://b.test/1"))).isEqualTo(2);
        }
    }

    /**
     * Snapshot + replay = straight run, as a property: 40 random sequences (fixed seeds) of leases taken and closed in
     * every way, on one thread, a snapshot taken at a random step (and another later, so the replay crosses journal
     * segments); at the end, the frontier resumed from the first snapshot with the journal written since holds the
     * same filter bits and the same pending URLs as the straight run's final state.
     */
    @Test
    void snapshotPlusReplayEqualsTheStraightRun() throws Exception {
        for (int seed = 0; seed < 40; seed++) {
            Random random = new Random(seed);
            Web web = new Web(400);
            Path run = dir.resolve(seed + "/run");
            Frontier frontier = Frontier.create(settings(run), Clock.systemUTC(), record -> { });
            frontier.offerSeeds(List.of(web.url(0), web.url(200)));
            List<PageLease> held = new ArrayList<>();
            int steps = 600;
            int snapshotAt = 50 + random.nextInt(steps - 100);
            int laterAt = snapshotAt + random.nextInt(steps - snapshotAt);
            FrontierState first = null;
            for (int step = 0; step < steps; step++) {
                if (step == snapshotAt) {
                    first = frontier.snapshot(s -> s);
                } else if (step == laterAt) {
                    frontier.snapshot(s -> s);
                }
                if (held.isEmpty() || random.nextInt(100) < 45) {
                    Lease lease = frontier.next();
                    if (lease instanceof RobotsLease robots) {
                        robots.rules(RobotsRules.allowAll("none"));
                    } else if (lease != null) {
                        held.add((PageLease) lease);
                    }
                    continue;
                }
                PageLease lease = held.remove(random.nextInt(held.size()));
                int close = random.nextInt(100);
                if (close < 70) {
                    if (random.nextBoolean()) {
                        lease.requestEnded();
                    }
                    lease.complete(record(lease.task()), web.links(lease.task()));
                } else if (close < 85) {
                    lease.retry(Duration.ZERO);
                } else {
                    lease.putBack();
                }
            }
            Taken last = take(frontier, run, dir.resolve(seed + "/at-end"));
            frontier.close();

            Drained replayed = drain(copy(last.folder(), dir.resolve(seed + "/replay")), first);
            Drained straight = drain(copy(last.folder(), dir.resolve(seed + "/straight")), last.state());
            assertThat(replayed.filters()).as("seed %d: filter bits", seed).isEqualTo(bytes(last.state().filters()));
            assertThat(replayed.urls()).as("seed %d: pending URLs", seed).isEqualTo(straight.urls());
        }
    }

    /** Leases until the frontier is exhausted: a tenth of first attempts retried, some put back, the rest done. */
    private static void crawl(Frontier frontier, Web web, Set<String> putBack, List<PageLease> closed,
            Runnable afterCompletion)
            throws IOException, InterruptedException {
        while (true) {
            Lease lease = frontier.next();
            if (lease == null) {
                if (frontier.exhausted()) {
                    return;
                }
                frontier.awaitWork(Duration.ofMillis(50));
                continue;
            }
            if (lease instanceof RobotsLease robots) {
                robots.rules(RobotsRules.allowAll("none"));
                continue;
            }
            PageLease page = (PageLease) lease;
            PendingUrl task = page.task();
            int page_ = web.page(task.url());
            if (task.attempt() == 0 && page_ % 10 == 3) {
                page.retry(Duration.ZERO);
            } else if (page_ % 17 == 5 && putBack.add(task.url())) {
                page.putBack();
            } else {
                page.requestEnded();
                page.complete(record(task), web.links(task));
                if (closed.size() < 3) {
                    closed.add(page);
                }
                afterCompletion.run();
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (latch != null && !latch.await(60, TimeUnit.SECONDS)) {
                throw new AssertionError("a snapshot was not taken within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A snapshot and a copy of the frontier's folder, made in the same moment. */
    private record Taken(FrontierState state, Path folder) {
    }

    /**
     * Takes a snapshot and, while nothing changes, copies the frontier's {@code folder} (journal and spill) to
     * {@code copy}.
     */
    private static Taken take(Frontier frontier, Path folder, Path copy) {
        FrontierState state = frontier.snapshot(s -> {
            copy(folder, copy);
            return s;
        });
        return new Taken(state, copy);
    }

    /** The URLs a resumed frontier hands out until it is empty, and its filter bits after the replay. */
    private record Drained(Set<String> urls, byte[] filters) {
    }

    private static Drained drain(Path folder, FrontierState state) throws Exception {
        return drain(folder, state, url -> true);
    }

    /** {@link #drain(Path, FrontierState)}, the journal's completions checked against {@code recorded}. */
    private static Drained drain(Path folder, FrontierState state, Predicate<String> recorded) throws Exception {
        Set<String> urls = new HashSet<>();
        try (Frontier resumed = Frontier.resume(settings(folder), Clock.systemUTC(), record -> {
            assertThat(urls.add(record.url())).as("handed out once: " + record.url()).isTrue();
        }, state, recorded)) {
            byte[] filters = bytes(resumed.snapshot(FrontierState::filters));
            while (true) {
                Lease lease = resumed.next();
                if (lease == null) {
                    if (resumed.exhausted()) {
                        break;
                    }
                    resumed.awaitWork(Duration.ofMillis(10));
                } else if (lease instanceof RobotsLease robots) {
                    robots.rules(RobotsRules.allowAll("none"));
                } else {
                    PageLease page = (PageLease) lease;
                    page.complete(record(page.task()));
                }
            }
            return new Drained(urls, filters);
        }
    }

    private static byte[] bytes(List<FilterLayer> filters) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            for (FilterLayer filter : filters) {
                filter.writeTo(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static Path copy(Path from, Path to) {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
