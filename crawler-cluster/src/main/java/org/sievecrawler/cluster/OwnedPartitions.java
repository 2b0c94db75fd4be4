package org.sievecrawler.cluster;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.sievecrawler.Fetching;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.frontier.FrontierGroup;
import org.sievecrawler.frontier.Lease;
import org.sievecrawler.frontier.LeaseSource;

/**
 * The frontier partitions a cluster process owns now, as one {@link LeaseSource} for its fetcher threads: leases
 * come from each partition's {@link Frontier} in turn, at most {@code fetch.threads} open at once in the whole
 * process (the partitions' frontiers are one {@link FrontierGroup}: one {@link Semaphore}, one wait for all).
 *
 * <p><b>Membership.</b> A process hands out no new lease unless it proved, within {@link #proofWindow} (half the
 * group's session timeout), that it still owns its partitions: a successful commit ({@link #proven}). A process cut
 * off from the cluster, whose partitions may already be another's, thus stops fetching before the other starts
 * (the new owner is assigned a partition only after the session timeout, and then waits a politeness delay).
 *
 * <p>Thread-safe: the poll thread adds and removes partitions; fetcher threads take leases. Out of scope: reading the
 * log into the frontiers ({@link ClusterRun}), checkpoints ({@link PartitionCheckpoints}).
 */
final class OwnedPartitions implements LeaseSource {

    /** How long an idle fetcher sleeps while the process may not fetch (no proof, or failed) before it looks again. */
    private static final Duration UNPROVEN_WAIT = Duration.ofMillis(50);

    private final Map<Integer, Frontier> frontiers = new ConcurrentSkipListMap<>();
    /** The frontiers' values, by partition number, made again at each add and remove (not at each lease). */
    private volatile List<Frontier> owned = List.of();
    /** Every partition's frontier is of it: they share the lease cap, and an idle fetcher waits for all at once. */
    private final FrontierGroup group;
    private final Semaphore leases;
    private final long proofWindowNanos;
    private final AtomicLong provenAt = new AtomicLong(Long.MIN_VALUE);
    private final AtomicInteger cursor = new AtomicInteger();
    private volatile boolean failed;

    OwnedPartitions(int maxLeases, Duration proofWindow) {
        this.group = new FrontierGroup(maxLeases);
        this.leases = group.leases();
        this.proofWindowNanos = proofWindow.toNanos();
    }

    /** The group every partition's frontier is opened in ({@link FrontierGroup#open}). */
    FrontierGroup group() {
        return group;
    }

    /** The lease cap every partition's frontier shares. */
    Semaphore leases() {
        return leases;
    }

    synchronized void add(int partition, Frontier frontier) {
        frontiers.put(partition, frontier);
        owned = List.copyOf(frontiers.values());
    }

    synchronized void remove(int partition) {
        frontiers.remove(partition);
        owned = List.copyOf(frontiers.values());
    }

    /** The partitions' frontiers, by partition number. */
    Map<Integer, Frontier> frontiers() {
        return frontiers;
    }

    /** A commit succeeded now: the process is a member of the group, owning what it owns. */
    void proven() {
        provenAt.set(System.nanoTime());
    }

    /** Whether the last successful commit is recent enough for a new fetch. */
    boolean isProven() {
        long at = provenAt.get();
        return at != Long.MIN_VALUE && System.nanoTime() - at <= proofWindowNanos;
    }

    /** The cluster failed (a send was not acknowledged): no lease is handed out any more. */
    void fail() {
        failed = true;
    }

    @Override
    public Lease next(Duration maxWait) throws InterruptedException {
        if (failed || !isProven() || this.owned.isEmpty()) {
            return null;
        }
        if (!leases.tryAcquire(maxWait.toNanos(), TimeUnit.NANOSECONDS)) {
            return null;
        }
        leases.release(); // a frontier's next() takes the permit it hands out a lease with
        List<Frontier> owned = this.owned;
        if (owned.isEmpty()) {
            return null;
        }
        int start = Math.floorMod(cursor.getAndIncrement(), owned.size());
        for (int i = 0; i < owned.size(); i++) {
            Lease lease = owned.get((start + i) % owned.size()).next();
            if (lease != null) {
                return lease;
            }
        }
        return null;
    }

    /** Never: more URLs may come from the log at any time. A cluster process runs until it is stopped. */
    @Override
    public boolean exhausted() {
        return false;
    }

    @Override
    public void awaitWork(Duration maxWait) throws InterruptedException {
        if (failed || !isProven()) { // no lease comes however ready the hosts are: do not spin on them
            Thread.sleep(Math.min(maxWait.toMillis(), UNPROVEN_WAIT.toMillis()));
            return;
        }
        group.awaitWork(owned, maxWait); // no partition: sleeps maxWait
    }

    @Override
    public void wakeAll() {
        group.wakeAll();
    }

    @Override
    public int requestsInFlight() {
        return sum(frontiers.values(), Frontier::requestsInFlight);
    }

    /** What the progress line says of the owned partitions, with the process's {@code badRecords} so far. */
    Fetching.Gauges gauges(long badRecords) {
        Collection<Frontier> owned = frontiers.values();
        double fpr = 0;
        long seen = 0;
        for (Frontier frontier : owned) {
            fpr = Math.max(fpr, frontier.falsePositiveRate());
            seen += Math.round(frontier.estimatedSeen());
        }
        return new Fetching.Gauges(sum(owned, Frontier::size), seen, fpr, sum(owned, Frontier::hostCount),
                OptionalLong.of(badRecords));
    }

    private static int sum(Collection<Frontier> frontiers, java.util.function.ToIntFunction<Frontier> value) {
        int total = 0;
        for (Frontier frontier : frontiers) {
            total += value.applyAsInt(frontier);
        }
        return total;
    }
}
