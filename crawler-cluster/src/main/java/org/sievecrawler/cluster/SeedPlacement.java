package org.sievecrawler.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the seed hosts of a new crawl go among the frontier's partitions, so that a handful of hosts is shared by the
 * processes that crawl them rather than left to chance.
 *
 * <p><b>Why.</b> Kafka assigns partitions, not hosts, to processes. Routed by the default partitioner (murmur2 of the
 * host), 2 hosts among 12 partitions land on the same one of 2 processes about 5 times in 11, and then one process
 * crawls both while the other fetches nothing (seen in the README's quick start). So the seed hosts of a crawl are
 * placed on purpose, once, before anything is sent ({@link HostRoutes}); the hosts their pages link to are routed
 * by the default partitioner as before.
 *
 * <p><b>How.</b> The crawl's consumer group uses Kafka's cooperative-sticky assignor, which gives each process
 * partitions in one of two layouts in practice: processes that join together get every k-th partition (0, 2, 4, ...
 * and 1, 3, 5, ... for 2 of them), processes that join one after another get blocks (0-5 and 6-11: the first keeps
 * the start of what it had). Both layouts are computed here by that very assignor ({@link CooperativeStickyAssignor}),
 * for 2 to {@value #MOST_PROCESSES} processes (fewer when there are fewer partitions or hosts). The hosts are then
 * placed greedily, in the order given: each goes to the partition whose owners have the fewest seed hosts so far
 * with 2 processes (both layouts summed), then with 3, and so on (ties: the partition with the fewest hosts, then the
 * lowest number): fewer processes come first, as a crawl runs more often on few. That is done with the first host on
 * each of the first {@value #FIRST_TRIED} partitions in turn, and the placement kept is the most even (2 processes
 * first, then 3, ...; the first tried wins a tie). With 12 partitions, 2 hosts go to
 * partitions 0 and 7, apart for 2 processes in both layouts; the cases measured are in {@code seed-placement.tsv} of
 * the tests. A layout after processes came and went can be another; the placement then helps less, never more than
 * chance hurts.
 *
 * <p>Only the first {@code partitions} distinct hosts, and at most {@value #MOST_PLACED}, are placed (a broad crawl's
 * thousands of seed hosts are spread well enough by the hash, and the cost here grows with hosts x partitions); the
 * others go by the hash.
 *
 * <p>Pure functions, thread-safe.
 */
final class SeedPlacement {
    /** The most processes whose layouts the placement balances. */
    static final int MOST_PROCESSES = 6;
    /** The most seed hosts placed: a handful is what chance spreads badly; more are spread well by the hash. */
    static final int MOST_PLACED = 64;
    /** The partitions tried for the first host, each followed by the greedy placement of the others. */
    private static final int FIRST_TRIED = 16;
    private static final String TOPIC = "frontier";

    private SeedPlacement() {
    }

    /**
     * The partition of each of the first {@code partitions} (at most {@value #MOST_PLACED}) distinct {@code hosts}
     * (canonical hosts, in the order the seeds gave them), as explained in the class comment.
     */
    static Map<String, Integer> spread(List<String> hosts, int partitions) {
        List<String> distinct = new ArrayList<>(new LinkedHashSet<>(hosts));
        List<String> placing = distinct.subList(0, Math.min(distinct.size(), Math.min(partitions, MOST_PLACED)));
        if (placing.isEmpty()) {
            return new LinkedHashMap<>();
        }
        List<int[]> layouts = layouts(partitions, Math.min(MOST_PROCESSES, Math.min(partitions, placing.size())));
        int[] best = null;
        int[] bestImbalance = null;
        for (int first = 0; first < Math.min(partitions, FIRST_TRIED); first++) {
            int[] at = greedy(placing.size(), partitions, layouts, first);
            int[] imbalance = imbalance(at, layouts);
            if (bestImbalance == null || java.util.Arrays.compare(imbalance, bestImbalance) < 0) {
                best = at;
                bestImbalance = imbalance;
            }
        }
        Map<String, Integer> placed = new LinkedHashMap<>();
        for (int i = 0; i < placing.size(); i++) {
            placed.put(placing.get(i), best[i]);
        }
        return placed;
    }

    /**
     * The partitions of {@code count} hosts placed greedily (see the class comment), the first on {@code first}.
     */
    private static int[] greedy(int count, int partitions, List<int[]> layouts, int first) {
        List<int[]> load = new ArrayList<>(); // per layout, seed hosts per process
        for (int l = 0; l < layouts.size(); l++) {
            load.add(new int[partitions]);
        }
        int[] hostsOn = new int[partitions];
        int[] at = new int[count];
        for (int host = 0; host < count; host++) {
            int best = first;
            int[] bestCost = null;
            for (int p = host == 0 ? first : 0; p < (host == 0 ? first + 1 : partitions); p++) {
                // per number of processes (2, 3, ...), the seed hosts its owners have in both layouts; then p's own
                int[] cost = new int[layouts.size() / 2 + 1];
                for (int l = 0; l < layouts.size(); l++) {
                    cost[l / 2] += load.get(l)[layouts.get(l)[p]];
                }
                cost[cost.length - 1] = hostsOn[p];
                if (bestCost == null || java.util.Arrays.compare(cost, bestCost) < 0) {
                    bestCost = cost;
                    best = p;
                }
            }
            at[host] = best;
            hostsOn[best]++;
            for (int l = 0; l < layouts.size(); l++) {
                load.get(l)[layouts.get(l)[best]]++;
            }
        }
        return at;
    }

    /** Per number of processes (2, 3, ...), how uneven the hosts at {@code at} are: most minus fewest, both layouts. */
    private static int[] imbalance(int[] at, List<int[]> layouts) {
        int[] imbalance = new int[layouts.size() / 2];
        for (int l = 0; l < layouts.size(); l++) {
            int[] owner = layouts.get(l);
            int[] load = new int[l / 2 + 2];
            for (int p : at) {
                load[owner[p]]++;
            }
            imbalance[l / 2] += java.util.stream.IntStream.of(load).max().getAsInt()
                    - java.util.stream.IntStream.of(load).min().getAsInt();
        }
        return imbalance;
    }

    /**
     * The layouts of the cooperative-sticky assignor for 2 to {@code most} processes: for each, the process (0 to
     * k-1) of every partition when the k join together, and when they joined one after another.
     */
    static List<int[]> layouts(int partitions, int most) {
        List<PartitionInfo> infos = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            infos.add(new PartitionInfo(TOPIC, p, null, null, null));
        }
        Cluster cluster = new Cluster("placement", List.of(), infos, Set.of(), Set.of());
        CooperativeStickyAssignor assignor = new CooperativeStickyAssignor();
        List<int[]> layouts = new ArrayList<>();
        Map<String, List<TopicPartition>> oneByOne = new TreeMap<>(Map.of(member(0), List.of()));
        oneByOne = settle(assignor, cluster, oneByOne);
        for (int k = 2; k <= most; k++) {
            Map<String, List<TopicPartition>> together = new TreeMap<>();
            for (int m = 0; m < k; m++) {
                together.put(member(m), List.of());
            }
            layouts.add(owners(settle(assignor, cluster, together), partitions));
            oneByOne.put(member(k - 1), List.of());
            oneByOne = settle(assignor, cluster, oneByOne);
            layouts.add(owners(oneByOne, partitions));
        }
        return layouts;
    }

    /**
     * The assignment the members with {@code owned} partitions end with: a cooperative rebalance first takes away
     * what moves, and a second one gives it to its new owner.
     */
    private static Map<String, List<TopicPartition>> settle(CooperativeStickyAssignor assignor, Cluster cluster,
            Map<String, List<TopicPartition>> owned) {
        Map<String, List<TopicPartition>> now = owned;
        for (int round = 1; round <= 2; round++) {
            Map<String, Subscription> subscriptions = new HashMap<>();
            int generation = round;
            now.forEach((member, partitions) -> subscriptions.put(member,
                    new Subscription(List.of(TOPIC), null, partitions, generation, Optional.empty())));
            Map<String, List<TopicPartition>> next = new TreeMap<>();
            assignor.assign(cluster, new GroupSubscription(subscriptions)).groupAssignment()
                    .forEach((member, assignment) -> next.put(member, assignment.partitions()));
            now = next;
        }
        return now;
    }

    private static int[] owners(Map<String, List<TopicPartition>> assignment, int partitions) {
        int[] owner = new int[partitions];
        int index = 0;
        for (List<TopicPartition> owned : assignment.values()) {
            for (TopicPartition tp : owned) {
                owner[tp.partition()] = index;
            }
            index++;
        }
        return owner;
    }

    /** Member names that sort in joining order. */
    private static String member(int index) {
        return String.format("m%04d", index);
    }
}
