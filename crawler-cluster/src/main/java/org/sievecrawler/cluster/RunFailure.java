package org.sievecrawler.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.KafkaException;
import org.sievecrawler.profile.ProfileUnits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failure that ends a cluster process ({@link ClusterRun}): the first {@link ClusterException} any of its threads
 * meets (a send not acknowledged, a read or a commit not answered within the timeout, a takeover that failed), kept
 * once. The first one stops the process: no lease is handed out any more ({@link OwnedPartitions#fail}), the
 * partitions owned then are kept for the message the process ends with ({@link #ending}), and the process is asked
 * to stop. It also words what the cluster at {@code bootstrap} failed to do ({@link #noAnswer}, {@link #unavailable}).
 *
 * <p>Thread-safe: a producer's I/O thread, a fetcher and the poll thread may report a failure at once; the first
 * wins, the others are dropped. Out of scope: what becomes of the partitions (dropped without a checkpoint, by
 * {@link ClusterRun}).
 */
final class RunFailure {
    private static final Logger LOG = LoggerFactory.getLogger(RunFailure.class);

    private final CrawlName crawl;
    private final String bootstrap;
    private final Duration timeout;
    private final OwnedPartitions owned;
    private final Runnable stop;
    private final AtomicReference<ClusterException> first = new AtomicReference<>();
    /** The partitions owned when the cluster failed, for the message: they are dropped at once. */
    private volatile List<Integer> partitionsAtFailure = List.of();

    /**
     * The failure of a process of {@code crawl} on the cluster at {@code bootstrap}, whose requests wait up to
     * {@code timeout}; the first one stops the fetchers' {@code owned} partitions and runs {@code stop}.
     */
    RunFailure(CrawlName crawl, String bootstrap, Duration timeout, OwnedPartitions owned, Runnable stop) {
        this.crawl = Objects.requireNonNull(crawl, "crawl");
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.owned = Objects.requireNonNull(owned, "owned");
        this.stop = Objects.requireNonNull(stop, "stop");
    }

    /** Reports {@code e}: the first report stops the process (logged once); a later one changes nothing. */
    void fail(ClusterException e) {
        if (first.compareAndSet(null, e)) {
            owned.fail();
            partitionsAtFailure = List.copyOf(owned.frontiers().keySet());
            LOG.error("cluster crawl {}: {}; stopping", crawl, e.getMessage());
            stop.run();
        }
    }

    /** Whether a failure was reported. */
    boolean happened() {
        return first.get() != null;
    }

    /** The failure reported first; empty while there is none. */
    Optional<ClusterException> first() {
        return Optional.ofNullable(first.get());
    }

    /** Throws (a copy of, thrown from here) the failure reported first, if any. */
    void throwIfFailed() throws ClusterException {
        ClusterException e = first.get();
        if (e != null) {
            throw new ClusterException(e.kind(), e.getMessage());
        }
    }

    /** The cluster did not answer {@code to} (what was asked of it) within the timeout. */
    ClusterException noAnswer(String to) {
        return new ClusterException(ClusterException.Kind.UNAVAILABLE, "no answer from the Kafka cluster at "
                + bootstrap + " within " + ProfileUnits.formatDuration(timeout) + " (--timeout) to " + to
                + ": is a broker running there and reachable from here?");
    }

    /** A failure of the Kafka client while doing {@code what}, as the user reads it. */
    ClusterException unavailable(String what, KafkaException e) {
        return new ClusterException(ClusterException.Kind.UNAVAILABLE, "the Kafka cluster at " + bootstrap
                + " failed while " + what + ": " + ClusterClients.rootMessage(e));
    }

    /**
     * What process {@code member} ends with after the failure reported first: the failure, naming the cluster, and
     * what becomes of the partitions it owned when it failed.
     *
     * @throws IllegalStateException when no failure was reported
     */
    ClusterException ending(String member) {
        ClusterException failedWith = first().orElseThrow(() -> new IllegalStateException("no failure reported"));
        String why = failedWith.getMessage().contains(bootstrap) ? failedWith.getMessage()
                : "the Kafka cluster at " + bootstrap + " failed: " + failedWith.getMessage();
        String process = (why.endsWith("?") ? " Process " : ". Process ") + member;
        return new ClusterException(failedWith.kind(), why + process + (partitionsAtFailure.isEmpty()
                ? " stopped; it owned no partition" : " stopped without handing its partitions "
                + Assignment.numbers(partitionsAtFailure) + " back: they go on from their last checkpoint once a"
                + " process takes them (this one started again, when the cluster answers), fetching again what was"
                + " fetched since"));
    }
}
