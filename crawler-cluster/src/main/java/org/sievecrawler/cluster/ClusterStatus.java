package org.sievecrawler.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a cluster crawl stands, per partition of {@code <crawl>.frontier}, as {@link ClusterAdmin#status} reads it
 * from the cluster: how many records were ever sent to the partition (its end offset), how many the crawl's consumer
 * group ({@link ClusterTopics#group}) has committed as consumed, the lag between them, which group member owns the
 * partition now, and how many URLs the co-partitioned {@code <crawl>.fetched} marks done (its end offset).
 *
 * <p>Offsets count records, not distinct URLs: a URL sent twice (seeded again, linked from two pages) counts twice
 * in "sent"; the owner's Sieve drops the second. Immutable and thread-safe. Out of scope: URLs in flight in a
 * process, and when the crawl has drained ({@code --wait-done}, later).
 *
 * @param crawl the crawl
 * @param group its consumer group id
 * @param partitions one line per frontier partition, by partition number
 */
public record ClusterStatus(CrawlName crawl, String group, List<Partition> partitions) {
    public ClusterStatus {
        Objects.requireNonNull(crawl, "crawl");
        Objects.requireNonNull(group, "group");
        partitions = List.copyOf(partitions);
    }

    /**
     * One frontier partition.
     *
     * @param partition its number
     * @param owner the group member consuming it now ({@code client-id@host}), empty when none is
     * @param sent the frontier partition's end offset: records ever sent to it
     * @param committed the group's committed offset, empty when the group never committed one (not started)
     * @param done the end offset of the same partition of {@code <crawl>.fetched}: URLs marked done
     */
    public record Partition(int partition, Optional<String> owner, long sent, OptionalLong committed, long done) {
        public Partition {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(committed, "committed");
        }

        /** Records consumed: the committed offset, 0 when none was committed. */
        public long consumed() {
            return committed.orElse(0);
        }

        /** Records sent and not yet consumed (never negative). */
        public long lag() {
            return Math.max(0, sent - consumed());
        }
    }

    /**
     * The status from what the cluster answered, keyed by partition number: the frontier's end offsets (which
     * partitions there are), the group's committed offsets (a partition missing: none), each partition's owner (a
     * partition missing: none) and the done-log's end offsets (a partition missing: 0).
     */
    public static ClusterStatus of(CrawlName crawl, Map<Integer, Long> sent, Map<Integer, Long> committed,
            Map<Integer, String> owners, Map<Integer, Long> done) {
        List<Partition> partitions = new ArrayList<>();
        sent.keySet().stream().sorted().forEach(p -> partitions.add(new Partition(p,
                Optional.ofNullable(owners.get(p)), sent.get(p),
                committed.get(p) == null ? OptionalLong.empty() : OptionalLong.of(committed.get(p)),
                done.getOrDefault(p, 0L))));
        return new ClusterStatus(crawl, ClusterTopics.group(crawl), partitions);
    }

    /** Records sent to the frontier, all partitions. */
    public long sent() {
        return partitions.stream().mapToLong(Partition::sent).sum();
    }

    /** Records the group has committed as consumed, all partitions. */
    public long consumed() {
        return partitions.stream().mapToLong(Partition::consumed).sum();
    }

    /** Records not yet consumed, all partitions. */
    public long lag() {
        return partitions.stream().mapToLong(Partition::lag).sum();
    }

    /** URLs marked done, all partitions. */
    public long done() {
        return partitions.stream().mapToLong(Partition::done).sum();
    }

    /** The distinct owners, in partition order. */
    public List<String> owners() {
        return partitions.stream().flatMap(p -> p.owner().stream()).distinct().toList();
    }

    /**
     * The status as a table: one row per partition (partition, owner, sent, consumed, lag, done; "-" for no owner,
     * "not started" for a partition the group never committed) and a row of totals.
     */
    public List<String> table() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"partition", "owner", "sent", "consumed", "lag", "done"});
        for (Partition p : partitions) {
            rows.add(new String[] {Integer.toString(p.partition()), p.owner().orElse("-"), Long.toString(p.sent()),
                p.committed().isPresent() ? Long.toString(p.consumed()) : "not started", Long.toString(p.lag()),
                Long.toString(p.done())});
        }
        List<String> owners = owners();
        rows.add(new String[] {"total", owners.size() + (owners.size() == 1 ? " owner" : " owners"),
            Long.toString(sent()), Long.toString(consumed()), Long.toString(lag()), Long.toString(done())});
        int[] widths = new int[6];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        List<String> lines = new ArrayList<>();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                String cell = row[i];
                // the partition and the owner to the left, the counts to the right
                String padded = i < 2 ? cell + " ".repeat(widths[i] - cell.length())
                        : " ".repeat(widths[i] - cell.length()) + cell;
                line.append(i == 0 ? "" : "  ").append(padded);
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }
}
