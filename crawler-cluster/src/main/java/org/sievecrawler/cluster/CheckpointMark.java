package org.sievecrawler.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a process commits with a frontier partition's offset, as the commit's metadata: the snapshot of the
 * partition's Sieve taken at that offset (none before the first: a new owner then starts from an empty Sieve at
 * offset 0), where the done-log must be read from to drop what was fetched after the snapshot, and the partition's
 * live counters, for {@code cluster status}.
 *
 * <p>A process commits the same offset and snapshot again, with fresh counters, every few seconds: a successful
 * commit is also its proof that it still owns the partition (a member that lost it cannot commit).
 *
 * <p>Written as {@code v1;snapshot=ID@OFFSET/CHUNKS;fetched=F;consumed=C;pending=N;leases=L;member=NAME;at=MILLIS}
 * (snapshot {@code -} when none), well under Kafka's 4,096-character limit on commit metadata. Immutable.
 *
 * @param snapshot the snapshot the committed offset goes with, empty before the first
 * @param fetchedFrom the offset in the co-partitioned {@code <crawl>.fetched} from which done markers are not in the
 *     snapshot: a new owner reads them from there to the end
 * @param consumed the owner's consumer position when it committed: frontier records its Sieve had taken in
 * @param pending URLs admitted and not yet fetched (waiting or leased) when it committed
 * @param leases leases open when it committed, pages whose done marker is not yet acknowledged included
 * @param member the committing process's name
 * @param at when it committed, epoch milliseconds
 */
public record CheckpointMark(Optional<SnapshotRef> snapshot, long fetchedFrom, long consumed, long pending,
        int leases, String member, long at) {
    static final String VERSION = "v1";

    public CheckpointMark {
        Objects.requireNonNull(snapshot, "snapshot");
        Objects.requireNonNull(member, "member");
        if (fetchedFrom < 0 || consumed < 0 || pending < 0 || leases < 0) {
            throw new IllegalArgumentException("a checkpoint mark's offsets and counts are >= 0: fetched="
                    + fetchedFrom + " consumed=" + consumed + " pending=" + pending + " leases=" + leases);
        }
        checkMember(member);
    }

    /**
     * Checks a process's name ({@code cluster run --name}), which every mark it commits carries.
     *
     * @throws IllegalArgumentException naming the rule and the name when it is empty or holds ';' or '='
     */
    public static void checkMember(String member) {
        if (member.isEmpty() || member.contains(";") || member.contains("=")) {
            throw new IllegalArgumentException("a member name is not empty and has no ';' or '=', was \"" + member
                    + "\"");
        }
    }

    /** The metadata text, as committed. */
    public String encode() {
        return VERSION + ";snapshot=" + snapshot.map(SnapshotRef::toString).orElse("-") + ";fetched=" + fetchedFrom
                + ";consumed=" + consumed + ";pending=" + pending + ";leases=" + leases + ";member=" + member
                + ";at=" + at;
    }

    /**
     * The mark {@link #encode()} wrote; empty for metadata this crawler did not write (empty, or another tool's).
     *
     * @throws IllegalArgumentException naming the text and the field when it starts as a mark but a field is
     *     missing or wrong
     */
    public static Optional<CheckpointMark> decode(String metadata) {
        if (metadata == null || !metadata.startsWith(VERSION + ";")) {
            return Optional.empty();
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String part : metadata.substring(VERSION.length() + 1).split(";")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("checkpoint metadata \"" + metadata + "\": \"" + part
                        + "\" is not name=value");
            }
            fields.put(part.substring(0, eq), part.substring(eq + 1));
        }
        try {
            String snapshot = field(fields, "snapshot", metadata);
            return Optional.of(new CheckpointMark(
                    snapshot.equals("-") ? Optional.empty() : Optional.of(SnapshotRef.parse(snapshot)),
                    Long.parseLong(field(fields, "fetched", metadata)),
                    Long.parseLong(field(fields, "consumed", metadata)),
                    Long.parseLong(field(fields, "pending", metadata)),
                    Integer.parseInt(field(fields, "leases", metadata)),
                    field(fields, "member", metadata), Long.parseLong(field(fields, "at", metadata))));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("checkpoint metadata \"" + metadata + "\": a number is wrong: "
                    + e.getMessage(), e);
        }
    }

    private static String field(Map<String, String> fields, String name, String metadata) {
        String value = fields.get(name);
        if (value == null) {
            throw new IllegalArgumentException("checkpoint metadata \"" + metadata + "\" has no " + name);
        }
        return value;
    }
}
