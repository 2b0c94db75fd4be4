package org.sievecrawler.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a cluster crawl stands, per partition of {@code <crawl>.frontier}, as {@link ClusterAdmin#status} reads it
 * from the cluster: how many records were ever sent to the partition (its end offset), the offset the crawl's
 * consumer group ({@link ClusterTopics#group}) has committed, the {@link CheckpointMark} committed with it (the owner's
 * live counters: records consumed, URLs pending, leases in flight, and when it committed), which group member owns the
 * partition now, how many URLs the co-partitioned {@code <crawl>.fetched} marks done (its end offset) and how many
 * bad records the crawl's processes refused there and copied to {@code <crawl>.rejected} (its end offset); and
 * whether the crawl has {@linkplain #drained drained}.
 *
 * <p>Offsets count records, not distinct URLs: a URL sent twice (seeded again, linked from two pages) counts twice
 * in "sent"; the owner's Sieve drops the second. A mark's counters are as old as the mark: up to one commit interval
 * (about 2 s) behind the owner. Immutable and thread-safe. Out of scope: reading the cluster, and waiting for the
 * crawl to drain (the caller polls).
 *
 * @param crawl the crawl
 * @param group its consumer group id
 * @param readAt when the status was read (after its last answer): a mark's age is measured to it
 * @param partitions one line per frontier partition, by partition number
 */
public record ClusterStatus(CrawlName crawl, String group, Instant readAt, List<Partition> partitions) {
    /**
     * How old the youngest mark of a partition may be for {@link #drained} to believe it: owners re-commit every
     * ~2 s, so a mark older than this comes from a process that stopped committing (dead, or no longer in the group).
     */
    public static final Duration DEFAULT_MARK_STALENESS = Duration.ofSeconds(15);

    public ClusterStatus {
        Objects.requireNonNull(crawl, "crawl");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(readAt, "readAt");
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
     * @param rejected the end offset of the same partition of {@code <crawl>.rejected}: bad records refused (a record
     *     refused again by a new owner that had not been told, after a crash, counts twice)
     * @param mark the checkpoint mark committed with the offset; empty when none was committed, when the commit's
     *     metadata is not a mark (another tool's) and when it could not be read ({@code unreadable})
     * @param unreadable why the commit's metadata looked like a mark and could not be read, naming the partition and
     *     the text; empty otherwise (never present with {@code mark})
     */
    public record Partition(int partition, Optional<String> owner, long sent, OptionalLong committed, long done,
            long rejected, Optional<CheckpointMark> mark, Optional<String> unreadable) {
        public Partition {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(committed, "committed");
            Objects.requireNonNull(mark, "mark");
            Objects.requireNonNull(unreadable, "unreadable");
            if (mark.isPresent() && unreadable.isPresent()) {
                throw new IllegalArgumentException("partition " + partition + " has a mark and an unreadable one: "
                        + mark.get() + " / " + unreadable.get());
            }
        }

        /** A partition without a checkpoint mark or bad records. */
        public Partition(int partition, Optional<String> owner, long sent, OptionalLong committed, long done) {
            this(partition, owner, sent, committed, done, 0, Optional.empty(), Optional.empty());
        }

        /**
         * Records consumed: the owner's consumer position from its mark ({@link CheckpointMark#consumed}), else the
         * committed offset, else 0.
         */
        public long consumed() {
            return mark.map(CheckpointMark::consumed).orElse(committed.orElse(0));
        }

        /** Records sent and not yet consumed (never negative). */
        public long lag() {
            return Math.max(0, sent - consumed());
        }

        /** URLs admitted and not fetched, from the mark; 0 without one. */
        public long pending() {
            return mark.map(CheckpointMark::pending).orElse(0L);
        }

        /** Leases open (pages being fetched, or fetched and not yet marked done), from the mark; 0 without one. */
        public long inFlight() {
            return mark.map(CheckpointMark::leases).orElse(0);
        }

        /** How old the mark is at {@code now} (negative when the committer's clock is ahead); empty without one. */
        public Optional<Duration> markAge(Instant now) {
            return mark.map(m -> Duration.between(Instant.ofEpochMilli(m.at()), now));
        }
    }

    /**
     * The status from what the cluster answered, keyed by partition number: the frontier's end offsets (which
     * partitions there are), the group's committed offsets and their metadata (a partition missing: none), each
     * partition's owner (a partition missing: none) and the end offsets of the done-log and of the dead letters
     * (a partition missing: 0). Metadata
     * that starts as a {@link CheckpointMark} and does not decode makes that partition's mark unreadable, not the
     * whole status.
     */
    public static ClusterStatus of(CrawlName crawl, Instant readAt, Map<Integer, Long> sent,
            Map<Integer, Long> committed, Map<Integer, String> metadata, Map<Integer, String> owners,
            Map<Integer, Long> done, Map<Integer, Long> rejected) {
        List<Partition> partitions = new ArrayList<>();
        for (int p : sent.keySet().stream().sorted().toList()) {
            Optional<CheckpointMark> mark = Optional.empty();
            Optional<String> unreadable = Optional.empty();
            try {
                mark = CheckpointMark.decode(metadata.get(p));
            } catch (IllegalArgumentException e) {
                unreadable = Optional.of("partition " + p + " of " + crawl.topic(ClusterTopics.FRONTIER)
                        + ": unreadable checkpoint mark: " + e.getMessage());
            }
            partitions.add(new Partition(p, Optional.ofNullable(owners.get(p)), sent.get(p),
                    committed.get(p) == null ? OptionalLong.empty() : OptionalLong.of(committed.get(p)),
                    done.getOrDefault(p, 0L), rejected.getOrDefault(p, 0L), mark, unreadable));
        }
        return new ClusterStatus(crawl, ClusterTopics.group(crawl), readAt, partitions);
    }

    /** Records sent to the frontier, all partitions. */
    public long sent() {
        return partitions.stream().mapToLong(Partition::sent).sum();
    }

    /** Records consumed ({@link Partition#consumed}), all partitions. */
    public long consumed() {
        return partitions.stream().mapToLong(Partition::consumed).sum();
    }

    /** Records not yet consumed, all partitions. */
    public long lag() {
        return partitions.stream().mapToLong(Partition::lag).sum();
    }

    /** URLs admitted and not fetched, all partitions with a mark. */
    public long pending() {
        return partitions.stream().mapToLong(Partition::pending).sum();
    }

    /** Leases open, all partitions with a mark. */
    public long inFlight() {
        return partitions.stream().mapToLong(Partition::inFlight).sum();
    }

    /** URLs marked done, all partitions. */
    public long done() {
        return partitions.stream().mapToLong(Partition::done).sum();
    }

    /** Bad records refused by the crawl's processes and copied to {@code <crawl>.rejected}, all partitions. */
    public long rejected() {
        return partitions.stream().mapToLong(Partition::rejected).sum();
    }

    /** The distinct owners, in partition order. */
    public List<String> owners() {
        return partitions.stream().flatMap(p -> p.owner().stream()).distinct().toList();
    }

    /**
     * Whether the crawl has drained: nothing is left to fetch and nothing can add to it any more. True when
     * {@link #notDrained} names no reason.
     *
     * @param staleness how old a mark may be and still count (e.g. {@link #DEFAULT_MARK_STALENESS})
     */
    public boolean drained(Duration staleness) {
        return notDrained(staleness).isEmpty();
    }

    /**
     * Why the crawl has not drained, one reason per partition that holds it back (or one for the whole frontier);
     * empty when it has. The crawl has drained when at least one record exists in the whole frontier (a crawl never
     * seeded has not even started) and, for EVERY frontier partition:
     * <ul>
     *   <li>it has no record at all (nothing was ever sent to it: drained, mark or none), or
     *   <li>it has records, and a readable mark that is recent (younger than {@code staleness} at {@link #readAt}:
     *       a dead owner's last mark, or one of a process that left the group, does not count; the next owner has
     *       not reported yet), whose {@code pending} and {@code leases} are 0 (nothing admitted waits, nothing is
     *       being fetched, and every fetched page's outlinks were acknowledged, since a lease closes only after its
     *       done marker, which goes after the outlinks), and whose {@code consumed} equals the partition's end offset.
     * </ul>
     *
     * <p>Why this cannot say "drained" while a link is still on its way: {@link ClusterAdmin#status} reads the
     * committed marks first and the end offsets after. Suppose a page of partition P links to a URL of partition Q.
     * P's owner holds the page's lease until the link is acknowledged by the broker (in Q's log), so a mark of P with
     * {@code leases == 0} was committed after the link entered Q's log, and Q's end offset, read after P's mark,
     * counts it. Then either Q's mark was committed after Q's owner consumed the link (and then it is pending, or
     * leased, or already done), or Q's {@code consumed} is below Q's end offset: either way not drained. Had the end
     * offsets been read first, the link could be produced between the two reads: Q's old end offset would equal its
     * mark's {@code consumed} while P's fresh mark already shows 0 leases, a false "drained".
     *
     * <p>What it relies on: a mark's counters taken together at one moment by its owner ({@code consumed} counting
     * only records already admitted or dropped by the Sieve, so a record polled but not yet offered shows as pending
     * or as not consumed), and clocks of the committers and of the reader within a fraction of {@code staleness}.
     */
    public List<String> notDrained(Duration staleness) {
        Objects.requireNonNull(staleness, "staleness");
        List<String> reasons = new ArrayList<>();
        if (sent() == 0) {
            reasons.add("nothing was ever sent to " + crawl.topic(ClusterTopics.FRONTIER) + " (seed the crawl)");
        }
        for (Partition p : partitions) {
            if (p.sent() == 0) {
                continue;
            }
            String name = "partition " + p.partition() + ": ";
            if (p.unreadable().isPresent()) {
                reasons.add(name + "its checkpoint mark is unreadable");
                continue;
            }
            if (p.mark().isEmpty()) {
                reasons.add(name + p.sent() + " records sent, no checkpoint mark (no owner has reported)");
                continue;
            }
            CheckpointMark mark = p.mark().get();
            Duration age = p.markAge(readAt).orElseThrow();
            List<String> why = new ArrayList<>();
            if (age.compareTo(staleness) >= 0) {
                why.add("its mark is " + age(age) + " old (stale after " + age(staleness) + ")");
            }
            if (mark.consumed() != p.sent()) {
                why.add("consumed " + mark.consumed() + " of " + p.sent() + " records");
            }
            if (mark.pending() != 0) {
                why.add(mark.pending() + " pending");
            }
            if (mark.leases() != 0) {
                why.add(mark.leases() + " in flight");
            }
            if (!why.isEmpty()) {
                reasons.add(name + String.join(", ", why));
            }
        }
        return reasons;
    }

    /**
     * The status as a table: one row per partition and a row of totals. Columns: partition; owner ("-" for none);
     * sent; committed (the group's offset, "-" for none); consumed ({@link Partition#consumed}, "not started" with
     * neither a mark nor a committed offset); lag; pending and in flight (from the mark, "-" without one); done;
     * bad (bad records refused); member (the process that committed the mark) and mark age ("unreadable" for a mark
     * that could not be read). After the totals, {@code bad-records=N} with where their copies are, then one line per
     * unreadable mark saying why.
     */
    public List<String> table() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"partition", "owner", "sent", "committed", "consumed", "lag", "pending", "in flight",
            "done", "bad", "member", "mark age"});
        for (Partition p : partitions) {
            boolean started = p.mark().isPresent() || p.committed().isPresent();
            rows.add(new String[] {Integer.toString(p.partition()), p.owner().orElse("-"), Long.toString(p.sent()),
                p.committed().isPresent() ? Long.toString(p.committed().getAsLong()) : "-",
                started ? Long.toString(p.consumed()) : "not started", Long.toString(p.lag()),
                p.mark().map(m -> Long.toString(m.pending())).orElse("-"),
                p.mark().map(m -> Integer.toString(m.leases())).orElse("-"), Long.toString(p.done()),
                Long.toString(p.rejected()), p.mark().map(CheckpointMark::member).orElse("-"),
                p.unreadable().isPresent() ? "unreadable" : p.markAge(readAt).map(ClusterStatus::age).orElse("-")});
        }
        List<String> owners = owners();
        long marks = partitions.stream().filter(p -> p.mark().isPresent()).count();
        rows.add(new String[] {"total", owners.size() + (owners.size() == 1 ? " owner" : " owners"),
            Long.toString(sent()), "", Long.toString(consumed()), Long.toString(lag()), Long.toString(pending()),
            Long.toString(inFlight()), Long.toString(done()), Long.toString(rejected()),
            marks + (marks == 1 ? " mark" : " marks"), ""});
        int[] widths = new int[rows.get(0).length];
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
                // the partition, the owner and the member to the left, the counts and the age to the right
                boolean left = i < 2 || i == 10;
                String padded = left ? cell + " ".repeat(widths[i] - cell.length())
                        : " ".repeat(widths[i] - cell.length()) + cell;
                line.append(i == 0 ? "" : "  ").append(padded);
            }
            lines.add(line.toString().stripTrailing());
        }
        lines.add("bad-records=" + rejected() + " (records of the crawl's topics refused and skipped; copies in "
                + crawl.topic(ClusterTopics.REJECTED) + ")");
        partitions.forEach(p -> p.unreadable().ifPresent(lines::add));
        return lines;
    }

    /**
     * One short line of the totals: {@code sent 123, consumed 120, pending 5, in flight 2, done 97}.
     */
    public String progress() {
        return "sent " + sent() + ", consumed " + consumed() + ", pending " + pending() + ", in flight " + inFlight()
                + ", done " + done();
    }

    /** An age as the table shows it: {@code 1.2s} under a minute, {@code 3m05s} under an hour, {@code 2h07m}. */
    static String age(Duration age) {
        long millis = Math.max(0, age.toMillis());
        if (millis < 60_000) {
            return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
        }
        long seconds = millis / 1000;
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds % 3600 / 60);
    }
}
