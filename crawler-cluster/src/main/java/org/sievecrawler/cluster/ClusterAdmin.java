package org.sievecrawler.cluster;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.sievecrawler.shell.Program;

/**
 * The administration of a cluster crawl's topics on one Kafka cluster: {@link #init} creates the topics of
 * {@link ClusterTopics} explicitly (the crawl never relies on auto-creation) and is idempotent; {@link #check} and
 * {@link #describe} read what exists; {@link #requireCrawl} refuses a crawl whose topics are not there (for {@code seed}
 * and {@code status}). The {@code cluster} commands' one client of the cluster's Admin API: {@link #status},
 * {@link #untouched} and {@link #processes} read where the crawl stands (offsets, checkpoint marks and the consumer
 * group's members) through {@link ClusterStatusReader}.
 *
 * <p>Every request has the bounded timeout given to {@link #connect} ({@link AdminRequests}), so an unreachable
 * cluster is a {@link ClusterException} of kind {@link ClusterException.Kind#UNAVAILABLE} naming the address, after
 * that timeout, not a hang.
 *
 * <p>For one thread at a time (its Admin client is thread-safe, its use of it is not meant to be shared). Out of
 * scope: producing and consuming, joining or changing a consumer group, deleting a crawl's topics, changing an existing topic.
 */
public final class ClusterAdmin implements AutoCloseable {
    /** How long a request waits for the cluster unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

    private final AdminRequests requests;
    private final ClusterStatusReader reader;
    /** The cluster's address, as messages name it. */
    private final String bootstrap;

    /** Uses {@code admin} (a test passes a MockAdminClient); {@code bootstrap} names the cluster in messages. */
    ClusterAdmin(Admin admin, String bootstrap, Duration timeout) {
        this(admin, bootstrap, timeout, Clock.systemUTC());
    }

    /**
     * As {@link #ClusterAdmin(Admin, String, Duration)};
     * {@code clock} dates a {@link ClusterStatus} (checkpoint marks' ages are measured to it).
     */
    ClusterAdmin(Admin admin, String bootstrap, Duration timeout, Clock clock) {
        this(new AdminRequests(admin, bootstrap, timeout), clock);
    }

    private ClusterAdmin(AdminRequests requests, Clock clock) {
        this.requests = requests;
        this.bootstrap = requests.bootstrap();
        this.reader = new ClusterStatusReader(requests, Objects.requireNonNull(clock, "clock"));
    }

    /**
     * Takes over {@code admin} (closing this closes it); {@code bootstrap} names the cluster in messages. For a caller that has its client already, and for tests (MockAdminClient).
     */
    public static ClusterAdmin using(Admin admin, String bootstrap, Duration timeout) {
        return new ClusterAdmin(admin, bootstrap, timeout);
    }

    /** As {@link #using(Admin, String, Duration)}, a status dated by {@code clock} (a test's fake clock). */
    public static ClusterAdmin using(Admin admin, String bootstrap, Duration timeout, Clock clock) {
        return new ClusterAdmin(admin, bootstrap, timeout, clock);
    }

    /**
     * An Admin client for the cluster at {@code bootstrap} ({@code HOST:PORT}, or several separated by commas).
     * Nothing is sent yet: an unreachable cluster shows at the first request.
     *
     * @throws IllegalArgumentException when {@code bootstrap} is not a list of HOST:PORT, naming the value
     * @throws ClusterException when the client cannot be created (e.g. no address of the hosts resolves)
     */
    public static ClusterAdmin connect(String bootstrap, Duration timeout) throws ClusterException {
        return new ClusterAdmin(AdminRequests.connect(bootstrap, timeout), Clock.systemUTC());
    }

    /** The bootstrap servers this client talks to, as given to {@link #connect}. */
    public String bootstrap() {
        return bootstrap;
    }

    /**
     * Creates the topics of {@code topics} that do not exist, after checking that those that exist match (all or
     * nothing: a mismatch creates nothing). Running it again is harmless: every topic then {@link TopicCheck.Matches}.
     *
     * @return each topic and what was done: {@link TopicCheck.Missing} for a topic created now, {@link TopicCheck.Matches}
     *     for one that was there already
     * @throws ClusterException {@link ClusterException.Kind#REFUSED} when a topic exists otherwise (naming the topic,
     *     what it has and what is expected), when the cluster has fewer brokers than the replication factor, or when
     *     Kafka refuses a topic; {@link ClusterException.Kind#UNAVAILABLE} when the cluster does not answer in time
     */
    public List<TopicCheck> init(ClusterTopics topics) throws ClusterException {
        List<TopicCheck> checks = check(topics);
        refuseDifferences(topics, checks);
        List<TopicSpec> missing = checks.stream().filter(c -> c instanceof TopicCheck.Missing)
                .map(TopicCheck::spec).toList();
        if (!missing.isEmpty()) {
            int brokers = requests.await(requests.admin().describeCluster(new DescribeClusterOptions().timeoutMs(requests.millis()))
                    .nodes(),
                    "describe the cluster").size();
            if (brokers < topics.replication()) {
                throw new ClusterException(ClusterException.Kind.REFUSED, "--replication " + topics.replication()
                        + " needs at least " + topics.replication() + " brokers; the Kafka cluster at " + bootstrap
                        + " has " + brokers + ": give --replication " + brokers + " or less");
            }
        }
        List<String> raced = create(missing);
        if (!missing.isEmpty()) {
            awaitVisible(topics.crawl());
        }
        if (raced.isEmpty()) {
            return checks;
        }
        // another init created some of them meanwhile: check those again
        List<TopicCheck> again = check(topics);
        refuseDifferences(topics, again);
        List<TopicCheck> result = new ArrayList<>();
        for (int i = 0; i < checks.size(); i++) {
            result.add(raced.contains(checks.get(i).spec().name()) ? again.get(i) : checks.get(i));
        }
        return result;
    }

    /**
     * Waits, at most the timeout, until every topic of {@code crawl} is seen by a describe: Kafka answers a creation
     * once its controller has it, and a broker may answer a describe from metadata a moment older (seen in a test:
     * "no such topic" right after the creation), so that {@code cluster init && cluster seed} would be refused.
     */
    private void awaitVisible(CrawlName crawl) throws ClusterException {
        long deadline = System.nanoTime() + requests.timeout().toNanos();
        while (describe(crawl).values().stream().anyMatch(Optional::isEmpty) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Each topic of {@code topics} compared with what exists, in the order of {@link ClusterTopics#all}. */
    public List<TopicCheck> check(ClusterTopics topics) throws ClusterException {
        return check(topics, describe(topics.crawl()));
    }

    private static List<TopicCheck> check(ClusterTopics topics, Map<String, Optional<TopicState>> states) {
        return topics.all().stream().map(spec -> TopicCheck.of(spec, states.get(spec.name()))).toList();
    }

    /**
     * The topics of the crawl {@code crawl} as they exist, by name in the order of {@link ClusterTopics#names}; empty
     * for a topic that does not exist.
     */
    public Map<String, Optional<TopicState>> describe(CrawlName crawl) throws ClusterException {
        List<String> names = ClusterTopics.names(crawl);
        Map<String, KafkaFuture<TopicDescription>> futures = requests.admin().describeTopics(names,
                new DescribeTopicsOptions().timeoutMs(requests.millis())).topicNameValues();
        Map<String, TopicDescription> found = new LinkedHashMap<>();
        for (String name : names) {
            try {
                found.put(name, requests.await(futures.get(name), "describe topic " + name));
            } catch (AdminRequests.UnknownTopic e) {
                // not there: Optional.empty below
            }
        }
        Map<String, String> cleanupPolicies = cleanupPolicies(found.keySet());
        Map<String, Optional<TopicState>> states = new LinkedHashMap<>();
        for (String name : names) {
            TopicDescription description = found.get(name);
            states.put(name, Optional.ofNullable(description).map(d -> new TopicState(name, d.partitions().size(),
                    d.partitions().isEmpty() ? 0 : d.partitions().get(0).replicas().size(),
                    cleanupPolicies.getOrDefault(name, "delete"))));
        }
        return states;
    }

    /**
     * Checks that the crawl's topics exist as {@code cluster init} makes them and returns the frontier's partitions.
     * A crawl made before {@code <crawl>.rejected} existed is refused too, with the {@code cluster init} (and the
     * crawl's {@code --partitions}) that adds it: a process must be able to copy a bad record aside, and creating a
     * topic is {@code init}'s alone.
     *
     * @throws ClusterException {@link ClusterException.Kind#REFUSED} when topics are missing (naming them and the
     *     {@code cluster init} to run) or differ from the design (naming each difference)
     */
    public int requireCrawl(CrawlName crawl) throws ClusterException {
        return requireCrawl(crawl, Program.CRAWLER);
    }

    /**
     * As {@link #requireCrawl(CrawlName)}, the {@code cluster init} a refusal suggests started by {@code program},
     * this program as the user started it.
     */
    public int requireCrawl(CrawlName crawl, Program program) throws ClusterException {
        Map<String, Optional<TopicState>> states = describe(crawl);
        List<String> missing = states.entrySet().stream().filter(e -> e.getValue().isEmpty()).map(Map.Entry::getKey)
                .toList();
        List<String> added = List.of(crawl.topic(ClusterTopics.REJECTED), crawl.topic(ClusterTopics.SEEDS));
        if (!missing.isEmpty() && added.containsAll(missing)) {
            int partitions = states.get(crawl.topic(ClusterTopics.FRONTIER)).orElseThrow().partitions();
            String why = missing.size() == 2 ? "before bad records were copied aside and seeds were stored"
                    : missing.get(0).equals(added.get(0)) ? "before bad records were copied aside"
                    : "before seeds were stored in the cluster";
            throw new ClusterException(ClusterException.Kind.REFUSED, "the crawl " + crawl + " on the Kafka cluster at "
                    + bootstrap + " was made " + why + ": its " + (missing.size() == 1 ? "topic " : "topics ")
                    + String.join(" and ", missing) + (missing.size() == 1 ? " is" : " are") + " missing; create "
                    + (missing.size() == 1 ? "it" : "them") + " (its other topics are left as they are): "
                    + program.command("cluster", "init", "--bootstrap", bootstrap, "--crawl", crawl.toString(),
                    "--partitions", Integer.toString(partitions)));
        }
        if (!missing.isEmpty()) {
            throw new ClusterException(ClusterException.Kind.REFUSED, "no crawl " + crawl + " on the Kafka cluster at "
                    + bootstrap + ": topics missing: " + String.join(", ", missing)
                    + "; create them first: " + program.command("cluster", "init", "--bootstrap", bootstrap, "--crawl",
                    crawl.toString()));
        }
        TopicState frontier = states.get(crawl.topic(ClusterTopics.FRONTIER)).orElseThrow();
        ClusterTopics topics = new ClusterTopics(crawl, frontier.partitions(),
                (short) Math.max(1, frontier.replication()));
        List<String> problems = differences(check(topics, states));
        if (!problems.isEmpty()) {
            throw new ClusterException(ClusterException.Kind.REFUSED, "the crawl " + crawl + " on the Kafka cluster"
                    + " at " + bootstrap + " has topics other than `cluster init` makes:\n  "
                    + String.join("\n  ", problems));
        }
        return frontier.partitions();
    }

    /**
     * Where the crawl stands ({@link ClusterStatus}): per partition of {@code <crawl>.frontier}, the committed offset
     * of the crawl's consumer group ({@link ClusterTopics#group}) with its metadata (the owner's {@link
     * CheckpointMark}), the member it is assigned to, its end offset, and the end offsets of the same partition of
     * {@code <crawl>.fetched} and {@code <crawl>.rejected}; dated by this client's clock after the last answer. A
     * read, changing nothing: the crawl's topics are checked first ({@link #requireCrawl}), then read by
     * {@link ClusterStatusReader#status}, the committed marks before the end offsets (why: there).
     *
     * @throws ClusterException as {@link #requireCrawl} for a crawl that is not there; {@link
     *     ClusterException.Kind#UNAVAILABLE} when the cluster does not answer in time
     */
    public ClusterStatus status(CrawlName crawl) throws ClusterException {
        return status(crawl, Program.CRAWLER);
    }

    /** As {@link #status(CrawlName)}, a refusal's {@code cluster init} started by {@code program}. */
    public ClusterStatus status(CrawlName crawl, Program program) throws ClusterException {
        return reader.status(crawl, requireCrawl(crawl, program));
    }

    /**
     * Whether {@code crawl} is untouched: nothing was ever sent to its frontier of {@code partitions} partitions and no
     * process is in its consumer group. Only then may {@code cluster seed} place the seed hosts ({@link HostRoutes}):
     * no URL of theirs was routed yet, and no running process read the routes before them.
     */
    public boolean untouched(CrawlName crawl, int partitions) throws ClusterException {
        return reader.untouched(crawl, partitions);
    }

    /** How many processes run {@code crawl} now: the members of its consumer group. */
    public int processes(CrawlName crawl) throws ClusterException {
        return reader.processes(crawl);
    }

    private Map<String, String> cleanupPolicies(Collection<String> topics) throws ClusterException {
        if (topics.isEmpty()) {
            return Map.of();
        }
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        Map<ConfigResource, Config> configs = requests.await(requests.admin().describeConfigs(resources,
                new DescribeConfigsOptions().timeoutMs(requests.millis())).all(), "describe the configs of " + topics);
        Map<String, String> policies = new LinkedHashMap<>();
        configs.forEach((resource, config) -> {
            ConfigEntry entry = config.get(TopicSpec.CLEANUP_POLICY);
            if (entry != null && entry.value() != null) {
                policies.put(resource.name(), entry.value());
            }
        });
        return policies;
    }

    /** Creates {@code specs}; returns the names of those another client created first. */
    private List<String> create(List<TopicSpec> specs) throws ClusterException {
        if (specs.isEmpty()) {
            return List.of();
        }
        List<NewTopic> newTopics = specs.stream()
                .map(s -> new NewTopic(s.name(), s.partitions(), s.replication()).configs(s.configs())).toList();
        Map<String, KafkaFuture<Void>> futures = requests.admin().createTopics(newTopics,
                new CreateTopicsOptions().timeoutMs(requests.millis())).values();
        List<String> raced = new ArrayList<>();
        for (TopicSpec spec : specs) {
            try {
                requests.await(futures.get(spec.name()), "create topic " + spec.name());
            } catch (AdminRequests.UnknownTopic e) {
                throw new ClusterException(ClusterException.Kind.UNAVAILABLE, "create topic " + spec.name()
                        + ": the Kafka cluster at " + bootstrap + " answered " + e.getMessage());
            } catch (ClusterException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
                raced.add(spec.name());
            }
        }
        return raced;
    }

    private void refuseDifferences(ClusterTopics topics, List<TopicCheck> checks) throws ClusterException {
        List<String> lines = differences(checks);
        if (!lines.isEmpty()) {
            throw new ClusterException(ClusterException.Kind.REFUSED, "the crawl " + topics.crawl()
                    + " exists on the Kafka cluster at " + bootstrap + " with other topics than asked; nothing was"
                    + " created:\n  " + String.join("\n  ", lines)
                    + "\nGive the crawl's own --partitions, or another --crawl name.");
        }
    }

    /** One line per difference of the topics that {@link TopicCheck.Differs}: "topic NAME has ..., expected ...". */
    private static List<String> differences(List<TopicCheck> checks) {
        List<String> lines = new ArrayList<>();
        for (TopicCheck check : checks) {
            if (check instanceof TopicCheck.Differs differs) {
                differs.problems().forEach(p -> lines.add("topic " + differs.spec().name() + " " + p));
            }
        }
        return lines;
    }

    /** Closes the Admin client, waiting at most the timeout for requests in flight. */
    @Override
    public void close() {
        requests.close();
    }

    @Override
    public String toString() {
        return "ClusterAdmin[" + bootstrap + "]";
    }
}
