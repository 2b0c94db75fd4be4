package org.sievecrawler.cluster;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.sievecrawler.CrawlException;
import org.sievecrawler.Fetching;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ScopeConfig;
import org.sievecrawler.profile.ProfileUnits;
import org.sievecrawler.shell.Program;
import org.sievecrawler.sieve.PendingUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One process of a cluster crawl ({@code crawler cluster run}): a member of the crawl's consumer group that owns
 * some partitions of {@code <crawl>.frontier}, keeps one {@link Frontier} (a Sieve and per-host politeness) per
 * owned partition, and fetches their URLs. The composition root of cluster mode:
 *
 * <pre>
 *   <crawl>.frontier partition p --poll--> Frontier p: Sieve (drops seen URLs) --> host queues
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
 * <p><b>Checkpoints.</b> For each partition: the done-log's end F is read, then the frontier's state copied (under
 * its lock) at the consumer's position O, then the links sent so far are flushed (so every page the snapshot counts
 * as done has its links in the log), then the snapshot written and the offset O committed with a mark naming it and
 * F. A partition still replaying what its last owner read is not snapshot (the done markers before F it dropped would
 * be lost to the next owner); its last mark is committed again instead. A partition that settled (drained: read past
 * its committed offset, nothing waiting or leased) is checkpointed at the next commit rather than at the next
 * interval (at most every {@link #SETTLED_CHECKPOINT_EVERY}), so the committed offset follows a crawl that drains
 * (before, it stayed at 0 until the first checkpoint, 60 s by default). Between checkpoints the marks are committed
 * again every {@link #COMMIT_EVERY} with fresh counters: a successful commit is the member's proof it still owns its
 * partitions ({@link OwnedPartitions}), and what {@code cluster status} reads. A partition's snapshots and done
 * markers are read at a takeover and written at a checkpoint by the {@link PartitionStore}.
 *
 * <p><b>Giving partitions up.</b> A partition revoked (a member joined, or this one stops) is quiesced: no new lease,
 * the open ones finish and their links and done markers are acknowledged (up to {@link #QUIESCE}); then it is
 * checkpointed and committed before the rebalance completes, so its next owner fetches none of its pages again.
 * A partition lost (this member was thrown out of the group) is dropped without a commit: it cannot commit.
 *
 * <p><b>Untrusted records.</b> Every record read, from any of the crawl's topics, passes the {@link RecordGate}: one
 * that cannot be decoded, or whose URL fails the normalization and scope rules a link meets, or whose host belongs
 * to another partition ({@link RecordCheck}), is skipped, counted (the progress line's {@code bad-records}), logged
 * once per kind and copied to {@code <crawl>.rejected} ({@link RejectedRecords}); no record can stop the loop. The
 * check is a function of the record and the profile, so every owner of a partition skips the same records, and the
 * decisions stay a function of the log. A new owner replaying what an earlier one read skips its bad records without
 * counting or copying them again.
 *
 * <p><b>Back-pressure.</b> The poll loop never waits for fetchers: a partition with more than its share of
 * {@code sieve.max-in-memory-urls} URLs waiting is paused, and resumed below half of it; the log holds the rest.
 *
 * <p>Thread-safe: {@link #stop()} may be called from any thread (a signal handler). The Kafka consumer is used on the
 * thread that calls {@link #run()} only; the fetchers run on their own threads.
 */
public final class ClusterRun implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterRun.class);
    /** The group's session timeout: a crashed member's partitions move after this long. */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** How often the marks are committed again between checkpoints: the membership proof. */
    static final Duration COMMIT_EVERY = Duration.ofSeconds(2);
    /**
     * How often at most a partition that settled (drained since its last checkpoint) is checkpointed between the
     * periodic checkpoints: so that the committed offset follows a crawl that drains, at a bounded cost (a partition
     * that drains and fills again and again is snapshot at most this often).
     */
    static final Duration SETTLED_CHECKPOINT_EVERY = Duration.ofSeconds(10);
    /** How long a partition given up waits for its open leases. */
    static final Duration QUIESCE = Duration.ofSeconds(15);
    private static final Duration POLL = Duration.ofMillis(100);
    /** What the progress log says once when the process has nothing left to do, before it goes quiet. */
    static final String IDLE_NOTE = "drained: nothing to fetch in the partitions this process owns; waiting for work"
            + " (no progress line until some comes)";
    /** How often a quiesce looks whether the cluster failed meanwhile. */
    private static final Duration QUIESCE_SLICE = Duration.ofMillis(200);
    /** Commits tried at the stop before the process leaves without one. */
    private static final int HAND_BACK_ATTEMPTS = 50;
    /** How long a process that failed waits to tell the group it leaves (the cluster may be gone). */
    private static final Duration LEAVE_AFTER_FAILURE = Duration.ofSeconds(5);

    private final String bootstrap;
    private final CrawlName crawl;
    private final CrawlProfile profile;
    private final String member;
    private final Clock clock;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final FrontierProducer links;
    private final DoneMarkers markers;
    private final DoneLog done;
    private final SieveStateStore states;
    private final RejectedRecords rejected;
    private final RecordGate gate;
    private final Fetching fetching;
    private final OwnedPartitions owned;
    private final int partitionCount;
    private final Duration timeout;
    private final PartitionStore store;
    private final Map<Integer, OwnedPartition> partitions = new HashMap<>();
    private final AtomicReference<ClusterException> failure = new AtomicReference<>();
    private volatile boolean stopping;
    private boolean consumerClosed;
    /** The partitions owned when the cluster failed, for the message: they are dropped at once. */
    private volatile List<Integer> partitionsAtFailure = List.of();

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

    /** The process's Kafka clients: the group's consumer of the frontier, and the producers and readers. */
    private record Clients(KafkaConsumer<byte[], byte[]> consumer, FrontierProducer links, DoneMarkers markers,
            DoneLog done, SieveStateStore states, RejectedRecords rejected) {
    }

    private ClusterRun(Target target, CrawlProfile profile, String member, Clock clock, Clients clients,
            Fetching fetching) {
        this.bootstrap = target.bootstrap();
        this.crawl = target.crawl();
        this.profile = profile;
        this.member = member;
        this.clock = clock;
        this.consumer = clients.consumer();
        this.links = clients.links();
        this.markers = clients.markers();
        this.done = clients.done();
        this.states = clients.states();
        this.rejected = clients.rejected();
        this.fetching = fetching;
        this.partitionCount = target.partitions();
        this.gate = new RecordGate(new RecordCheck(profile, target.routes()), rejected);
        this.timeout = target.timeout();
        this.owned = new OwnedPartitions(profile.fetch().threads(), SESSION_TIMEOUT.dividedBy(2));
        PartitionStore.Frontiers frontiers = new PartitionStore.Frontiers(profile, partitionCount, clock,
                fetching.recorder(), owned, p -> new PartitionOutbox(p, links, markers, this::failed));
        this.store = new PartitionStore(done, states, links, frontiers, gate, member, timeout);
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
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            FrontierProducer links = keep(opened, FrontierProducer.connect(bootstrap, crawl, timeout, routes));
            DoneMarkers markers = keep(opened, DoneMarkers.connect(bootstrap, crawl, timeout));
            DoneLog done = keep(opened, DoneLog.connect(bootstrap, crawl, timeout));
            SieveStateStore states = keep(opened, SieveStateStore.connect(bootstrap, crawl, timeout));
            RejectedRecords rejected = keep(opened, RejectedRecords.connect(bootstrap, crawl, member, timeout));
            KafkaConsumer<byte[], byte[]> consumer = keep(opened, consumer(bootstrap, crawl, member));
            Fetching fetching = Fetching.open(crawling, Clock.systemUTC());
            return new ClusterRun(new Target(bootstrap, crawl, routes, timeout), crawling, member,
                    Clock.systemUTC(), new Clients(consumer, links, markers, done, states, rejected), fetching);
        } catch (ClusterException | CrawlException | RuntimeException e) {
            closeAll(opened);
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
        java.util.LinkedHashSet<String> seeds = new java.util.LinkedHashSet<>(profile.seeds());
        seeds.addAll(stored);
        return profile.withSeeds(List.copyOf(seeds));
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, CrawlName crawl, String member)
            throws ClusterException {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, ClusterClients.bootstrapServers(bootstrap));
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, ClusterTopics.group(crawl));
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, member);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        properties.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) SESSION_TIMEOUT.toMillis());
        properties.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) SESSION_TIMEOUT.toMillis() / 5);
        // links trickle in: a fetch waits up to 50 ms for 64 KB rather than answering each record on its own
        properties.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 64 * 1024);
        properties.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        try {
            // bytes: every record is decoded by the gate, where a bad one is skipped, not thrown out of poll()
            return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        } catch (KafkaException e) {
            throw ClusterClients.cannotConnect(bootstrap, e);
        }
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
        consumer.subscribe(List.of(crawl.topic(ClusterTopics.FRONTIER)), new Rebalance());
        LOG.info("cluster crawl {}: member {} joining group {} ({} partitions), output {}", crawl, member,
                ClusterTopics.group(crawl), partitionCount, profile.output().dir());
        profile.fetch().placeholderContact().ifPresent(LOG::warn); // as a single-node crawl says at its start
        fetchers.start();
        long lastCheckpoint = System.nanoTime();
        long lastCommit = System.nanoTime();
        long checkpointEvery = profile.checkpoint().interval().isZero() ? Long.MAX_VALUE
                : profile.checkpoint().interval().toNanos();
        try {
            while (!stopping && fetchers.isAlive()) {
                throwIfFailed();
                take(poll());
                backPressure();
                long now = System.nanoTime();
                if (now - lastCheckpoint >= checkpointEvery) {
                    checkpoint(partitions.values(), partitions.values());
                    lastCheckpoint = now;
                    lastCommit = now;
                } else if (now - lastCommit >= COMMIT_EVERY.toNanos()) {
                    List<OwnedPartition> settled = settled(now);
                    if (settled.isEmpty()) {
                        commitMarks();
                    } else {
                        checkpoint(settled, partitions.values());
                    }
                    lastCommit = now;
                }
            }
        } catch (ClusterException e) {
            failed(e);
        } catch (KafkaException e) {
            failed(unavailable("reading the frontier", e));
        } finally {
            fetching.stop();
            join(fetchers);
        }
        if (failure.get() == null) {
            try {
                handBack();
                closeConsumer(Duration.ofSeconds(30)); // leaves; what it still owned was checkpointed by handBack
            } catch (ClusterException e) {
                failed(e);
            } catch (KafkaException e) {
                failed(unavailable("handing the partitions back", e));
            }
        }
        ClusterException failedWith = failure.get();
        if (failedWith != null) {
            abandon();
            String why = failedWith.getMessage().contains(bootstrap) ? failedWith.getMessage()
                    : "the Kafka cluster at " + bootstrap + " failed: " + failedWith.getMessage();
            String process = (why.endsWith("?") ? " Process " : ". Process ") + member;
            throw new ClusterException(failedWith.kind(), why + process + (partitionsAtFailure.isEmpty()
                    ? " stopped; it owned no partition" : " stopped without handing its partitions "
                    + numbers(partitionsAtFailure) + " back: they go on from their last checkpoint once a process"
                    + " takes them (this one started again, when the cluster answers), fetching again what was"
                    + " fetched since"));
        }
        Object end = ended.get();
        if (end instanceof CrawlException e) {
            throw e;
        }
        if (end instanceof RuntimeException e) {
            throw e;
        }
        return stopping ? "stopped" : String.valueOf(end);
    }

    /**
     * The final checkpoint of every partition still owned, the fetchers stopped: each is quiesced (its last pages'
     * links and done markers acknowledged), snapshot and committed. A commit refused because a rebalance is under way
     * is tried again after a poll, which completes the rebalance (giving up or taking partitions as it goes).
     */
    private void handBack() throws ClusterException {
        for (int attempt = 1; !partitions.isEmpty(); attempt++) {
            List<OwnedPartition> owning = new ArrayList<>(partitions.values());
            quiesce(owning);
            throwIfFailed(); // links not acknowledged: a checkpoint would count their pages as done
            if (checkpoint(owning)) {
                owning.forEach(partition -> partition.handedBack = true);
                return;
            }
            if (attempt == HAND_BACK_ATTEMPTS) {
                LOG.warn("partitions {} could not be committed at the stop; their next owner goes on from their last"
                        + " checkpoint, fetching again what they fetched since", owning.stream()
                        .map(p -> p.topic.partition()).toList());
                return;
            }
            take(poll());
            throwIfFailed();
        }
    }

    /** Asks the process to stop: fetchers finish their requests, partitions are checkpointed, the member leaves. */
    public void stop() {
        stopping = true;
        consumer.wakeup();
    }

    private ConsumerRecords<byte[], byte[]> poll() {
        try {
            return consumer.poll(POLL);
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
            OwnedPartition partition = partitions.get(topic.partition());
            if (partition == null) {
                continue; // revoked in this very poll
            }
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

    private void backPressure() {
        int share = Math.max(1_000, profile.sieve().maxInMemoryUrls() / Math.max(1, partitions.size()));
        for (OwnedPartition partition : partitions.values()) {
            int waiting = partition.frontier.size();
            if (!partition.paused && waiting > share) {
                consumer.pause(List.of(partition.topic));
                partition.paused = true;
            } else if (partition.paused && waiting < share / 2) {
                consumer.resume(List.of(partition.topic));
                partition.paused = false;
            }
        }
    }

    /**
     * The partitions that have settled since their last checkpoint: read beyond the offset last committed, and
     * drained (nothing waiting, nothing leased, no lease open). Checkpointed early, so that the committed offset
     * follows the crawl ({@code cluster status}'s "committed") and a new owner replays nothing, rather than staying
     * at the last periodic checkpoint (or at 0 before the first) while the process waits for work.
     */
    private List<OwnedPartition> settled(long now) {
        List<OwnedPartition> settled = new ArrayList<>();
        for (OwnedPartition partition : partitions.values()) {
            Frontier frontier = partition.frontier;
            boolean due = partition.checkpointedAt.isEmpty()
                    || now - partition.checkpointedAt.getAsLong() >= SETTLED_CHECKPOINT_EVERY.toNanos();
            if (due && partition.position > partition.committedOffset && partition.position >= partition.replayUntil
                    && frontier.size() == 0 && frontier.leasedPages() == 0 && frontier.openLeases() == 0) {
                settled.add(partition);
            }
        }
        return settled;
    }

    /**
     * Checkpoints {@code which} (see the class comment) and commits them with {@code committing} (their marks again,
     * with fresh counters) in one request; snapshots replaced are deleted once the commit succeeded.
     */
    private boolean checkpoint(Collection<OwnedPartition> which) throws ClusterException {
        return checkpoint(which, which);
    }

    private boolean checkpoint(Collection<OwnedPartition> which, Collection<OwnedPartition> committing)
            throws ClusterException {
        PartitionStore.Written written = store.write(which);
        Map<OwnedPartition, CheckpointMark> marks = written.marks();
        Map<OwnedPartition, Long> offsets = written.offsets();
        Map<OwnedPartition, Optional<SnapshotRef>> replaced = new HashMap<>();
        marks.forEach((partition, mark) -> replaced.put(partition, partition.mark.snapshot()));
        if (!commit(committing, marks, offsets)) {
            marks.forEach((partition, mark) -> mark.snapshot().ifPresent(ref -> store.delete(partition, ref)));
            return false;
        }
        replaced.forEach((partition, old) -> old.ifPresent(ref -> store.delete(partition, ref)));
        long now = System.nanoTime();
        marks.keySet().forEach(partition -> partition.checkpointedAt = java.util.OptionalLong.of(now));
        return true;
    }

    /**
     * Commits every owned partition's mark again with fresh counters; a member that owns none asks the group's
     * coordinator for a committed offset instead, so that it too learns within the timeout that the cluster is gone.
     */
    private void commitMarks() {
        if (!partitions.isEmpty()) {
            commit(partitions.values(), Map.of(), Map.of());
            return;
        }
        try {
            consumer.committed(Set.of(new TopicPartition(crawl.topic(ClusterTopics.FRONTIER), 0)), timeout);
            owned.proven();
        } catch (WakeupException e) {
            // a stop, or the failure: the loop ends
        } catch (TimeoutException e) {
            failed(noAnswer("member " + member + " of " + ClusterTopics.group(crawl)));
        } catch (KafkaException e) {
            LOG.warn("cluster crawl {}: member {} could not read a committed offset ({})", crawl, member,
                    ClusterClients.rootMessage(e));
        }
    }

    /**
     * Commits {@code which}: the new marks and offsets given, the others' last ones with fresh counters. Returns
     * whether the commit succeeded (and proved the membership); a commit refused (a rebalance under way, the member
     * no longer in the group) is logged, and changes nothing.
     */
    private boolean commit(Collection<OwnedPartition> which, Map<OwnedPartition, CheckpointMark> marks,
            Map<OwnedPartition, Long> offsets) {
        if (which.isEmpty()) {
            owned.proven();
            return true;
        }
        Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
        Map<OwnedPartition, CheckpointMark> fresh = new HashMap<>();
        for (OwnedPartition partition : which) {
            CheckpointMark mark = marks.getOrDefault(partition,
                    partition.mark(partition.mark.snapshot(), partition.mark.fetchedFrom(), member, clock));
            long offset = offsets.getOrDefault(partition, partition.committedOffset);
            commits.put(partition.topic, new OffsetAndMetadata(offset, mark.encode()));
            fresh.put(partition, mark);
        }
        try {
            try {
                consumer.commitSync(commits, timeout);
            } catch (WakeupException e) {
                if (failure.get() != null) {
                    return false; // woken by the failure: the cluster does not answer, or this process is stopping
                }
                consumer.commitSync(commits, timeout); // a stop asked during the commit: finish it
            }
        } catch (RebalanceInProgressException e) {
            LOG.debug("member {}: commit of {} deferred, a rebalance is under way", member, commits.keySet());
            return false;
        } catch (TimeoutException e) {
            // its message lists every offset and mark: too long to read, and says no more than this
            failed(noAnswer("the commit of partitions " + numbers(which.stream().map(p -> p.topic.partition())
                    .toList()) + " of " + crawl.topic(ClusterTopics.FRONTIER)));
            return false;
        } catch (KafkaException e) {
            LOG.warn("cluster crawl {}: member {} could not commit its partitions {} ({}); it fetches nothing new"
                    + " until a commit succeeds", crawl, member, numbers(which.stream()
                    .map(p -> p.topic.partition()).toList()), ClusterClients.rootMessage(e));
            return false;
        }
        owned.proven();
        fresh.forEach((partition, mark) -> {
            partition.mark = mark;
            partition.committedOffset = offsets.getOrDefault(partition, partition.committedOffset);
        });
        return true;
    }

    /** Takes over {@code topics}: each partition's frontier from its committed snapshot and done-log. */
    private void assigned(Collection<TopicPartition> topics) throws ClusterException {
        if (topics.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(topics), timeout);
        Map<TopicPartition, Long> ends = consumer.endOffsets(topics, timeout);
        List<OwnedPartition> taken = new ArrayList<>();
        for (TopicPartition topic : topics) {
            OwnedPartition partition = store.load(topic, Optional.ofNullable(committed.get(topic)), ends.get(topic));
            consumer.seek(topic, partition.position);
            partitions.put(topic.partition(), partition);
            owned.add(topic.partition(), partition.frontier);
            taken.add(partition);
        }
        commit(taken, Map.of(), Map.of()); // proves membership at once, and shows the new owner in status
    }

    /** Gives up {@code topics}: quiesced, checkpointed and committed, then dropped. */
    private void revoked(Collection<TopicPartition> topics) throws ClusterException {
        List<OwnedPartition> leaving = new ArrayList<>();
        for (TopicPartition topic : topics) {
            OwnedPartition partition = partitions.get(topic.partition());
            if (partition != null) {
                leaving.add(partition);
            }
        }
        if (leaving.isEmpty()) {
            return;
        }
        List<OwnedPartition> changed = leaving.stream().filter(p -> !p.handedBack).toList();
        quiesce(changed);
        try {
            if (!checkpoint(changed)) {
                LOG.warn("partitions {} given up without a checkpoint: their next owner goes on from their last one",
                        changed.stream().map(p -> p.topic.partition()).toList());
            }
        } finally {
            for (OwnedPartition partition : leaving) {
                dropped(partition);
            }
        }
        LOG.info("partitions {} given up by {}", leaving.stream().map(p -> p.topic.partition()).toList(), member);
    }

    /**
     * Hands out no new lease from {@code which} and waits for the open ones (up to {@link #QUIESCE} in all, less if
     * the cluster fails meanwhile: their links would never be acknowledged), then seals them: a lease closed after
     * that changes nothing, so the snapshot holds it and its next owner fetches it.
     */
    private void quiesce(Collection<OwnedPartition> which) {
        long deadline = System.nanoTime() + QUIESCE.toNanos();
        try {
            for (OwnedPartition partition : which) {
                partition.frontier.quiesce(Duration.ZERO); // no new lease from any of them from now on
            }
            for (OwnedPartition partition : which) {
                boolean closed = partition.frontier.quiesce(Duration.ZERO);
                while (!closed && failure.get() == null && System.nanoTime() < deadline) {
                    closed = partition.frontier.quiesce(QUIESCE_SLICE);
                }
                if (!closed) {
                    LOG.warn("partition {}: {} leases still open after {}; its next owner fetches them again",
                            partition.topic.partition(), partition.frontier.openLeases(),
                            failure.get() == null ? QUIESCE : "the cluster's failure");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (OwnedPartition partition : which) {
            partition.frontier.seal();
        }
    }

    /** Drops {@code topics} without a commit: this member lost them, another may own them already. */
    private void lost(Collection<TopicPartition> topics) {
        for (TopicPartition topic : topics) {
            OwnedPartition partition = partitions.get(topic.partition());
            if (partition != null) {
                partition.frontier.seal();
                dropped(partition);
            }
        }
        LOG.warn("partitions {} lost by {} (not a member any more): dropped without a checkpoint", topics, member);
    }

    private void dropped(OwnedPartition partition) {
        partitions.remove(partition.topic.partition());
        owned.remove(partition.topic.partition());
        try {
            partition.frontier.discard();
        } catch (IOException e) {
            LOG.warn("partition {}: {}", partition.topic.partition(), e.getMessage());
        }
    }

    private void failed(ClusterException e) {
        if (failure.compareAndSet(null, e)) {
            owned.fail();
            partitionsAtFailure = List.copyOf(owned.frontiers().keySet());
            LOG.error("cluster crawl {}: {}; stopping", crawl, e.getMessage());
            stopping = true;
            consumer.wakeup();
        }
    }

    /**
     * After a failure: every partition dropped without a checkpoint (the cluster may be gone, or the process's
     * records lost), then the consumer closed, waiting at most {@link #LEAVE_AFTER_FAILURE} to leave the group.
     */
    private void abandon() {
        for (OwnedPartition partition : new ArrayList<>(partitions.values())) {
            partition.frontier.seal();
            dropped(partition);
        }
        try {
            closeConsumer(timeout.compareTo(LEAVE_AFTER_FAILURE) < 0 ? timeout : LEAVE_AFTER_FAILURE);
        } catch (KafkaException e) {
            LOG.debug("member {} left the group without a word: {}", member, ClusterClients.rootMessage(e));
        }
    }

    /** Closes the consumer (once): the member leaves the group, giving up (revoked) what it still owns. */
    private void closeConsumer(Duration wait) {
        if (!consumerClosed) {
            consumerClosed = true;
            consumer.close(CloseOptions.timeout(wait));
        }
    }

    /** The cluster did not answer {@code to} (what was asked of it) within the timeout. */
    private ClusterException noAnswer(String to) {
        return new ClusterException(ClusterException.Kind.UNAVAILABLE, "no answer from the Kafka cluster at "
                + bootstrap + " within " + ProfileUnits.formatDuration(timeout) + " (--timeout) to " + to
                + ": is a broker running there and reachable from here?");
    }

    /** A failure of the Kafka client while doing {@code what}, as the user reads it. */
    private ClusterException unavailable(String what, KafkaException e) {
        return new ClusterException(ClusterException.Kind.UNAVAILABLE, "the Kafka cluster at " + bootstrap
                + " failed while " + what + ": " + ClusterClients.rootMessage(e));
    }

    private static String numbers(Collection<Integer> partitions) {
        return partitions.stream().sorted().toList().toString();
    }

    private void throwIfFailed() throws ClusterException {
        ClusterException e = failure.get();
        if (e != null) {
            throw new ClusterException(e.kind(), e.getMessage());
        }
    }

    /** The rebalance callbacks, on the poll thread inside poll() or close(). */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> topics) {
            try {
                assigned(topics);
            } catch (ClusterException e) {
                failed(e);
            } catch (KafkaException e) { // a read of the committed marks or end offsets not answered in time
                failed(unavailable("taking over partitions " + numbers(topics.stream()
                        .map(TopicPartition::partition).toList()), e));
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> topics) {
            try {
                revoked(topics);
            } catch (ClusterException e) {
                failed(e);
            } catch (KafkaException e) {
                failed(unavailable("giving up partitions " + numbers(topics.stream()
                        .map(TopicPartition::partition).toList()), e));
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> topics) {
            lost(topics);
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static <T extends AutoCloseable> T keep(List<AutoCloseable> opened, T resource) {
        opened.add(resource);
        return resource;
    }

    private static void closeAll(List<AutoCloseable> opened) {
        for (AutoCloseable resource : opened) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.debug("closing {} after a failed start: {}", resource, e.toString());
            }
        }
    }

    /**
     * Flushes and closes the producers (waiting up to the timeout for their records; not at all after the cluster
     * failed to answer: the pages whose records are dropped were not marked done, and are fetched again) and the
     * output. The consumer is closed by {@link #run()}.
     */
    @Override
    public void close() throws IOException {
        ClusterException failedWith = failure.get();
        Duration wait = failedWith != null && failedWith.kind() == ClusterException.Kind.UNAVAILABLE ? Duration.ZERO
                : timeout;
        try {
            links.close(wait);
            markers.close(wait);
            done.close();
            states.close();
            rejected.close(wait);
        } finally {
            fetching.close();
        }
    }
}
