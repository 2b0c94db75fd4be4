package org.sievecrawler.frontier;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import org.sievecrawler.politeness.AddressClocks;
import org.sievecrawler.politeness.HostBudget;
import org.sievecrawler.politeness.HostScheduler;
import org.sievecrawler.politeness.Monitor;
import org.sievecrawler.profile.SieveConfig;
import org.sievecrawler.sieve.Sieve;
import org.sievecrawler.sieve.SpillingQueue;

/**
 * Frontiers that one process runs side by side, each fed from outside: its URLs come in through
 * {@link Frontier#offer} from a log another component keeps, in the log's order, so its decisions are a function of
 * that sequence alone; its pages' links go to a {@link LinkOutbox}, not into its own Sieve; it keeps no journal and
 * never spills (the log is both: its reader stops while enough URLs wait). The group's frontiers share one lease cap
 * and one {@link Monitor}, so that an idle fetcher waits for all of them at once ({@link #awaitWork}).
 *
 * <p>Thread-safe. Out of scope: the log, which frontiers a process runs (its caller's), and their snapshots' bytes.
 */
public final class FrontierGroup {
    private final Semaphore leases;
    private final Monitor monitor = new Monitor();

    /** A group with at most {@code maxLeases} leases open at once in all its frontiers ({@code fetch.threads}). */
    public FrontierGroup(int maxLeases) {
        this.leases = new Semaphore(maxLeases);
    }

    /** The lease cap every frontier of the group shares. */
    public Semaphore leases() {
        return leases;
    }

    /**
     * A frontier of this group, its pages' links sent to {@code links}, no request to any host before
     * {@code startAt} (hosts another process may have asked just before). Starts empty, or from {@code state} (a
     * {@link Frontier#snapshot} of such a frontier), the URLs in {@code done} (completed after the snapshot) dropped
     * wherever they wait or come again. {@code settings.dir()} is not written to.
     *
     * @throws IOException never in practice (the spill is not used); declared by the queue's constructor
     */
    public Frontier open(Frontier.Settings settings, Clock clock, Frontier.Recorder recorder, LinkOutbox links,
            Instant startAt, Optional<FrontierState> state, CompletedUrls done) throws IOException {
        Objects.requireNonNull(links, "links");
        Objects.requireNonNull(startAt, "startAt");
        SieveConfig sieve = settings.sieve();
        HostScheduler hosts = new HostScheduler(settings.politeness(), clock, startAt, monitor)
                .perAddress(AddressClocks.of(settings.politeness(), settings.addresses()));
        SpillingQueue queue = SpillingQueue.create(new SkipCompleted(hosts, done), Integer.MAX_VALUE, settings.dir(),
                SpillingQueue.SEGMENT_BYTES);
        HostBudget budget = settings.hostBudget(state);
        AdmissionBudget admitted = new AdmissionBudget(queue, budget, recorder::overHostBudget);
        Sieve filter = state.isPresent()
                ? Sieve.restore(sieve.layout(), sieve.expectedUrls(), sieve.falsePositiveRate(), sieve.onOverflow(),
                        admitted, state.get().filters())
                : Sieve.create(sieve.layout(), sieve.expectedUrls(), sieve.falsePositiveRate(), sieve.onOverflow(),
                        admitted);
        state.ifPresent(s -> queue.addInMemory(s.pending())); // in the filters already: not offered again
        return new Frontier(settings.dir(), filter, hosts, queue, Journal.NONE, recorder, leases,
                Optional.of(links), budget);
    }

    /**
     * Waits until some host of any of {@code frontiers} (of this group) may be ready, work is added or released in
     * any, or {@code maxWait} passes. Those drained or sealed are not waited on (with none left, this sleeps
     * {@code maxWait}).
     *
     * @throws IllegalArgumentException if they are not of one group
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public void awaitWork(Collection<Frontier> frontiers, Duration maxWait) throws InterruptedException {
        // a drained or sealed frontier hands out nothing, though its hosts be ready: waiting on it would not wait
        HostScheduler.awaitAny(frontiers.stream().filter(Frontier::handsOut).map(Frontier::hosts).toList(), maxWait);
    }

    /** Wakes every thread waiting on the group's frontiers, e.g. to stop. */
    public void wakeAll() {
        monitor.wakeAll();
    }
}
