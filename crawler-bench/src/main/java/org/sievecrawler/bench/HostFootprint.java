package org.sievecrawler.bench;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.politeness.HostBudget;
import org.sievecrawler.politeness.HostScheduler;
import org.sievecrawler.politeness.SchedulerLimits;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.robots.RobotsPolicy;
import org.sievecrawler.sieve.PendingUrl;

/**
 * What the politeness scheduler's state costs on the heap, measured as heap used after GC (several {@code System.gc()}
 * rounds, {@code MemoryMXBean}) before and after: bytes per host known with one URL queued (its queue, politeness
 * clock and robots.txt state, the rules parsed from a 3-line robots.txt), bytes per further queued URL (one host, N
 * URLs of ~60 characters), and bytes per host parked (nothing queued or in flight, its delay passed: what the robots
 * cache keeps of it). Time is a fake clock; robots.txt is answered at once. First, on its own, bytes per host counted in
 * the budget of {@code limits.max-pages-per-host} ({@link HostBudget}: one URL admitted per host); with {@code budget}
 * after the count, that alone (it uses only the budget's constructor and {@code take}, so an older build's jar put
 * first on the class path measures that build's budget).
 *
 * <pre>
 * java -Xmx2g -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.HostFootprint [HOSTS=200000] [budget]
 * </pre>
 */
public final class HostFootprint {
    private static final byte[] ROBOTS = "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n"
            .getBytes(StandardCharsets.UTF_8);

    private HostFootprint() {
    }

    public static void main(String[] args) throws InterruptedException {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        budget(hosts);
        if (args.length > 1 && args[1].equals("budget")) {
            return;
        }
        PolitenessConfig config = PolitenessConfig.defaults();
        RobotsPolicy policy = new RobotsPolicy("sievecrawler", Duration.ofSeconds(30));
        FakeClock clock = new FakeClock();
        HostScheduler scheduler = new HostScheduler(config, clock, SchedulerLimits.of(100_000, 256));

        long empty = heapAfterGc();
        for (int h = 0; h < hosts; h++) {
            scheduler.add(PendingUrl.seed(url(h, 0)));
        }
        for (PendingUrl task = scheduler.poll(); task != null; task = scheduler.poll()) {
            scheduler.robotsFetched(task, policy.interpret(task.url(), 200, ROBOTS, null));
        }
        long known = heapAfterGc();
        report("host known, robots.txt fetched, 1 URL queued", known - empty, hosts);

        for (int i = 1; i <= hosts; i++) {
            scheduler.add(PendingUrl.seed(url(0, i)));
        }
        long queuedMore = heapAfterGc();
        report("further URL queued (one host)", queuedMore - known, hosts);

        clock.advance(config.delay());
        drain(scheduler, clock, config.delay(), policy);
        long parked = heapAfterGc();
        System.out.printf(Locale.ROOT, "hosts held after all drained: %d of %d; robots cache %s%n",
                scheduler.activeHosts(), scheduler.hostCount(), scheduler.robotsCounts());
        report("host parked (its robots.txt state in the cache)", parked - empty, hosts);
    }

    /** Bytes per host in the budget of {@code limits.max-pages-per-host}, each host having one URL admitted. */
    private static void budget(int hosts) throws InterruptedException {
        long empty = heapAfterGc();
        HostBudget budget = new HostBudget(10_000);
        for (int h = 0; h < hosts; h++) {
            if (budget.take(url(h, 0)).isPresent()) {
                throw new IllegalStateException("host " + h + " refused its first URL");
            }
        }
        long counted = heapAfterGc();
        report("host counted in limits.max-pages-per-host's budget", counted - empty, hosts);
        Reference.reachabilityFence(budget);
    }

    /** Hands out and finishes every URL, the clock moving a delay at a time, until all hosts are parked. */
    private static void drain(HostScheduler scheduler, FakeClock clock, Duration delay, RobotsPolicy policy) {
        while (scheduler.size() > 0 || scheduler.activeHosts() > 0) {
            for (PendingUrl task = scheduler.poll(); task != null; task = scheduler.poll()) {
                if (task.isRobots()) { // the one big host's rules expire after a day of fake time
                    scheduler.robotsFetched(task, policy.interpret(task.url(), 200, ROBOTS, null));
                } else {
                    scheduler.finished(task);
                }
            }
            clock.advance(delay); // the next poll parks the hosts idle since their delay
        }
    }

    private static String url(int host, int page) {
        return "https://www.host-" + host + ".example.org/docs/section/page-" + page + ".html";
    }

    private static void report(String what, long bytes, int count) {
        System.out.printf(Locale.ROOT, "%-50s %,12d bytes / %,d = %,.0f bytes each%n", what, bytes, count,
                (double) bytes / count);
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
