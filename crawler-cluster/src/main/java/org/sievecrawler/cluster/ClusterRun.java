package org.sievecrawler.cluster;

import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.sievecrawler.CrawlException;
import org.sievecrawler.Fetching;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ScopeConfig;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.shell.Program;
import org.sievecrawler.sieve.PendingUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One process of a cluster crawl ({@code crawler cluster run}): a member of the crawl's consumer group that owns
 * some partitions of {@code <crawl>.frontier}, keeps one {@link Frontier} (a Sieve and per-host politeness) per
 * owned partition, and fetches their URLs. The composition root of cluster mode ({@link #connect}) and its poll loop
 * ({@link #run}):
 *
 * <pre>
 *   <crawl>.frontier partition p --poll--> RecordGate --> Frontier p: Sieve (drops seen URLs) --> host queues
 *   fetchers (Fetching) <--lease-- OwnedPartitions <-- Frontier p ...
 *   page done --> links --> <crawl>.frontier (any partition, this one too) --acked--> done marker --> <crawl>.fetched p
 *   every checkpoint.interval: Frontier p's snapshot --> <crawl>.sieve-state, then commit p's offset naming it
 * </pre>
 *
 * <p><b>Decisions are a function of the log.</b> A partition's Sieve takes in the partition's records in offset order
 * and nothing else (links to this process's own hosts go through the log too), so its snapshot at offset O plus the
 * records after O rebuild it exactly. A new owner (after a rebalance or a crash) loads the snapshot the committed
 * {@link CheckpointMark} names, drops the URLs the done-log marks done after it, replays the partition from O (the
 * committed offset), and waits one politeness delay before its first request to any of the partition's hosts.
 * Without a readable snapshot it replays the partition from offset 0, which gives the same state, only slower.
 *
 * <p><b>Its parts.</b> The partitions owned ({@link Assignment}) are taken over and given up by the rebalance
 * callbacks ({@link Rebalance}: a partition given up is quiesced, checkpointed and committed first), checkpointed and
 * committed on a cadence ({@link PartitionCheckpoints}: a commit is also the member's proof it still owns them), and
 * paused while their frontiers hold more than their share ({@link BackPressure}: the poll loop never waits for
 * fetchers). A partition's snapshots and done markers are read at a takeover and written at a checkpoint by the
 * {@link PartitionStore}. The first failure of the cluster ({@link RunFailure}) ends the process.
 *
 * <p><b>Untrusted records.</b> Every record read, from any of the crawl's topics, passes the {@link RecordGate}: one
 * that cannot be decoded, or whose URL fails the normalization and scope rules a link meets, or whose host belongs
 * to another partition ({@link RecordCheck}), is skipped, counted (the progress line's {@code bad-records}), logged
 * once per kind and copied to {@code <crawl>.rejected} ({@link RejectedRecords}); no record can stop the loop. The
 * check is a function of the record and the profile, so every owner of a partition skips the same records, and the
 * decisions stay a function of the log. A new owner replaying what an earlier one read skips its bad records without
 * counting or copying them again.
 *
 * <p>Thread-safe: {@link #stop()} may be called from any thread (a signal handler). The Kafka consumer is used on the
 * thread that calls {@link #run()} only; the fetchers run on their own threads.
 */
public final class ClusterRun implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterRun.class);
    /** The group's session timeout: a crashed member's partitions move after this long. */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(100);
    /** What the progress log says once when the process has nothing left to do, before it goes quiet. */
    static final String IDLE_NOTE = "drained: nothing to fetch in the partitions this process owns; waiting for work"
            + " (no progress line until some comes)";
    /** How long a process that failed waits to tell the group it leaves (the cluster may be gone). */
    private static final Duration LEAVE_AFTER_FAILURE = Duration.ofSeconds(5);

    private final String bootstrap;
    private final CrawlProfile profile;
    private final GroupMember member;
    private final RunClients clients;
    private final Fetching fetching;
    private final int partitionCount;
    private final RecordGate gate;
    private final OwnedPartitions owned;
    private final RunFailure failure;
    private final Assignment assignment;
    private final PartitionCheckpoints checkpoints;
    private final Rebalance rebalance;
    private final BackPressure pressure;
    private final Program program;
    private volatile boolean stopping;
    private boolean consumerClosed;
    /** The process's summary once {@link #run()} ended without a failure, written at {@link #close()}. */
    private CrawlSummary summary;

    /**
     * The crawl a process works on.
     *
     * @param bootstrap the cluster's address, as given
     * @param crawl the crawl
     * @param routes the partitions of its topics, and of its seed hosts
     * @param timeout how long to wait for the cluster ({@code --timeout})
     */
    private record Target(String bootstrap, CrawlName crawl, HostRoutes routes, Duration timeout) {
        int partitions() {
            return routes.partitions();
        }
    }

    private ClusterRun(Target target, CrawlProfile profile, String name, Clock clock, RunClients clients,
            Fetching fetching, Program program) {
        this.bootstrap = target.bootstrap();
        this.program = program;
        this.profile = profile;
        this.member = new GroupMember(target.crawl(), name, clients.consumer(), clock, target.timeout());
        this.clients = clients;
        this.fetching = fetching;
        this.partitionCount = target.partitions();
        this.gate = new RecordGate(new RecordCheck(profile, target.routes()), clients.rejected());
        this.owned = new OwnedPartitions(profile.fetch().threads(), SESSION_TIMEOUT.dividedBy(2));
        this.failure = new RunFailure(target.crawl(), bootstrap, target.timeout(), owned, this::stop);
        this.assignment = new Assignment(owned);
        PartitionStore.Frontiers frontiers = new PartitionStore.Frontiers(profile, partitionCount, clock,
                fetching.recorder(), owned, p -> new PartitionOutbox(p, clients.links(), clients.markers(),
                        failure::fail));
        PartitionStore store = new PartitionStore(clients.done(), clients.states(), clients.links(), frontiers, gate,
                name, target.timeout());
        this.checkpoints = new PartitionCheckpoints(member, store, assignment, failure,
                profile.checkpoint().interval());
        this.rebalance = new Rebalance(member, store, assignment, checkpoints, failure);
        this.pressure = new BackPressure(clients.consumer(), assignment, profile.sieve().maxInMemoryUrls());
    }

    /**
     * Connects process {@code member} to the crawl on the cluster at {@code bootstrap} (the crawl's topics must
     * exist: {@code cluster init}) and opens its output in {@code profile.output().dir()}. Nothing is consumed or
     * fetched before {@link #run()}.
     *
     * @throws ClusterException when the cluster does not answer within {@code timeout} or the crawl's topics are not
     *     there (refused)
     * @throws CrawlException when the output folder cannot be opened or is held by another process
     */
    public static ClusterRun connect(String bootstrap, CrawlName crawl, CrawlProfile profile, String member,
            Duration timeout) throws ClusterException, CrawlException {
        return connect(bootstrap, crawl, profile, member, timeout, Program.CRAWLER);
    }

    /**
     * As {@link #connect(String, CrawlName, CrawlProfile, String, Duration)}, the commands a refusal suggests started
     * by {@code program}, this program as the user started it.
     */
    public static ClusterRun connect(String bootstrap, CrawlName crawl, CrawlProfile profile, String member,
            Duration timeout, Program program) throws ClusterException, CrawlException {
        int partitionCount;
        try (ClusterAdmin admin = ClusterAdmin.connect(bootstrap, timeout)) {
            partitionCount = admin.requireCrawl(crawl, program);
        }
        SeedStore.Seeds stored;
        try (SeedStore seeds = SeedStore.connect(bootstrap, crawl, timeout)) {
            stored = seeds.read(partitionCount);
        }
        CrawlProfile crawling = withSeeds(profile, stored.urls());
        if (crawling.scope().sameAsSeeds() && crawling.seeds().isEmpty()) {
            throw new ClusterException(ClusterException.Kind.REFUSED, "crawl " + crawl + " has no seeds yet, and the"
                    + " profile's scope.hosts is " + ScopeConfig.SAME_AS_SEEDS + ": the seeds set the scope of every"
                    + " process; send them first (they are stored in the cluster, in "
                    + crawl.topic(ClusterTopics.SEEDS) + "): " + program.command("cluster", "seed", "--bootstrap",
                    bootstrap, "--crawl", crawl.toString(), "--seeds", "FILE"));
        }
        LOG.info("cluster crawl {}: {} seeds stored in {}; seed hosts placed on partitions {}", crawl,
                stored.urls().size(), crawl.topic(ClusterTopics.SEEDS), stored.routes().placed());
        HostRoutes routes = stored.routes();
        RunClients clients = RunClients.open(bootstrap, crawl, member, timeout, routes, SESSION_TIMEOUT);
        try {
            Fetching fetching = Fetching.open(crawling, Clock.systemUTC(),
                    "start the process again: its partitions go on from their last checkpoint");
            return new ClusterRun(new Target(bootstrap, crawl, routes, timeout), crawling, member,
                    Clock.systemUTC(), clients, fetching, program);
        } catch (CrawlException | RuntimeException e) {
            clients.discard();
            throw e;
        }
    }

    /**
     * {@code profile} with the crawl's stored seeds after its own (each once): they set the scope's seed hosts and
     * the origins whose private addresses may be fetched, as a single-node crawl's seeds do.
     */
    static CrawlProfile withSeeds(CrawlProfile profile, List<String> stored) {
        if (stored.isEmpty()) {
            return profile;
        }
        LinkedHashSet<String> seeds = new LinkedHashSet<>(profile.seeds());
        seeds.addAll(stored);
        return profile.with(SEEDS, List.copyOf(seeds));
    }

    /**
     * Joins the group and crawls until {@link #stop()} (or a limit of the profile, or a failure); then gives up
     * every partition as a revoked one (quiesced, checkpointed, committed) and leaves the group. Returns why it
     * ended.
     *
     * <p>A cluster that fails (a send not acknowledged, a read or a commit not answered within the timeout) ends the
     * run: the fetchers stop (they fetch nothing new once the last commit is older than half the session timeout
     * anyway), every partition is dropped without a checkpoint (its next owner goes on from the last one, fetching
     * again the pages done since, whose done markers may not be in the log), and the member leaves the group if the
     * cluster still answers within {@link #LEAVE_AFTER_FAILURE}. So a dead cluster ends the process within about
     * twice the timeout, never hangs it.
     *
     * @throws ClusterException when the cluster failed: a send not acknowledged, a commit or read that failed; the
     *     message names the cluster, what failed and what becomes of the partitions
     * @throws CrawlException when the fetchers failed (the output, a bug)
     */
    public String run() throws ClusterException, CrawlException {
        AtomicReference<Object> ended = new AtomicReference<>();
        Thread fetchers = new Thread(() -> {
            try {
                ended.set(fetching.run(owned, () -> owned.gauges(gate.refused()), IDLE_NOTE));
            } catch (CrawlException | RuntimeException e) {
                ended.set(e);
            }
        }, "cluster-fetchers");
        member.consumer().subscribe(List.of(member.frontier()), rebalance);
        LOG.info("cluster crawl {}: member {} joining group {} ({} partitions), output {}", member.crawl(),
                member.name(), ClusterTopics.group(member.crawl()), partitionCount, profile.output().dir());
        profile.fetch().placeholderContact().ifPresent(LOG::warn); // as a single-node crawl says at its start
        Instant startedAt = Instant.now();
        long fetchedBefore = fetching.stats().fetched();
        fetchers.start();
        checkpoints.start(System.nanoTime());
        try {
            while (!stopping && fetchers.isAlive()) {
                failure.throwIfFailed();
                take(poll());
                pressure.adjust();
                checkpoints.keepUp(System.nanoTime());
            }
        } catch (ClusterException e) {
            failure.fail(e);
        } catch (KafkaException e) {
            failure.fail(failure.unavailable("reading the frontier", e));
        } finally {
            fetching.stop();
            join(fetchers);
        }
        Fetching.FrontierFigures figures = Fetching.FrontierFigures.of(List.copyOf(owned.frontiers().values()));
        if (!failure.happened()) {
            try {
                rebalance.handBack(() -> take(poll()));
                closeConsumer(Duration.ofSeconds(30)); // leaves; what it still owned was checkpointed by handBack
            } catch (ClusterException e) {
                failure.fail(e);
            } catch (KafkaException e) {
                failure.fail(failure.unavailable("handing the partitions back", e));
            }
        }
        if (failure.happened()) {
            abandon();
            throw failure.ending(member.name());
        }
        Object end = ended.get();
        if (end instanceof CrawlException e) {
            throw e;
        }
        if (end instanceof RuntimeException e) {
            throw e;
        }
        String reason = stopping ? "stopped" : String.valueOf(end);
        summary = fetching.summary(startedAt, reason, fetchedBefore, figures);
        return reason;
    }

    /** Asks the process to stop: fetchers finish their requests, partitions are checkpointed, the member leaves. */
    public void stop() {
        stopping = true;
        member.consumer().wakeup();
    }

    private ConsumerRecords<byte[], byte[]> poll() {
        try {
            return member.consumer().poll(POLL);
        } catch (WakeupException e) {
            return ConsumerRecords.empty();
        }
    }

    /**
     * Offers each partition's records to its Sieve, in order, each through the gate: a bad one is skipped (and
     * counted, logged and copied unless an earlier owner read it).
     */
    private void take(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition topic : records.partitions()) {
            Optional<OwnedPartition> owning = assignment.get(topic.partition());
            if (owning.isEmpty()) {
                continue; // revoked in this very poll
            }
            OwnedPartition partition = owning.get();
            List<ConsumerRecord<byte[], byte[]>> batch = records.records(topic);
            List<PendingUrl> urls = new ArrayList<>(batch.size());
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                if (record.offset() >= partition.position) {
                    gate.frontier(record, record.offset() >= partition.readBefore).ifPresent(urls::add);
                }
            }
            partition.frontier.offer(urls);
            partition.position = batch.get(batch.size() - 1).offset() + 1;
        }
    }

    /**
     * After a failure: every partition dropped without a checkpoint (the cluster may be gone, or the process's
     * records lost), then the consumer closed, waiting at most {@link #LEAVE_AFTER_FAILURE} to leave the group.
     */
    private void abandon() {
        for (OwnedPartition partition : new ArrayList<>(assignment.all())) {
            partition.frontier.seal();
            assignment.drop(partition);
        }
        Duration timeout = member.timeout();
        try {
            closeConsumer(timeout.compareTo(LEAVE_AFTER_FAILURE) < 0 ? timeout : LEAVE_AFTER_FAILURE);
        } catch (KafkaException e) {
            LOG.debug("member {} left the group without a word: {}", member.name(), ClusterClients.rootMessage(e));
        }
    }

    /** Closes the consumer (once): the member leaves the group, giving up (revoked) what it still owns. */
    private void closeConsumer(Duration wait) {
        if (!consumerClosed) {
            consumerClosed = true;
            member.consumer().close(CloseOptions.timeout(wait));
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Flushes and closes the producers (waiting up to the timeout for their records; not at all after the cluster
     * failed to answer: the pages whose records are dropped were not marked done, and are fetched again) and the
     * output; then, after a run that ended without a failure, writes the process's summary.json, audit.json and
     * report.html in its output folder, as a single-node crawl does (the Sieve's figures are those of the
     * partitions it owned at its end). The consumer is closed by {@link #run()}.
     */
    @Override
    public void close() throws IOException {
        boolean unanswered = failure.first().filter(e -> e.kind() == ClusterException.Kind.UNAVAILABLE).isPresent();
        try {
            clients.close(unanswered ? Duration.ZERO : member.timeout());
        } finally {
            fetching.close();
        }
        if (summary != null) {
            fetching.writeSummary(summary, program);
        }
    }
}
