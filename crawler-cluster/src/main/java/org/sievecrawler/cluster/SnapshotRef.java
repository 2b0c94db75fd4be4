package org.sievecrawler.cluster;

import java.util.Objects;

/**
 * Where one snapshot of a frontier partition's Sieve lies in {@code <crawl>.sieve-state}: its id, the offset of its
 * first chunk and how many chunks it has. A checkpoint commit names it in its metadata ({@link CheckpointMark}), so a
 * new owner of the partition reads exactly that snapshot. Immutable.
 *
 * @param id the snapshot's id, unique in the crawl (letters, digits, '-' and '.'): it is part of its chunks' keys
 * @param offset the offset in the sieve-state partition of its first chunk
 * @param chunks how many chunks it was written as, at least 1
 */
public record SnapshotRef(String id, long offset, int chunks) {
    public SnapshotRef {
        Objects.requireNonNull(id, "id");
        if (id.isEmpty() || !id.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '.')) {
            throw new IllegalArgumentException("a snapshot id is letters, digits, '-' and '.', was \"" + id + "\"");
        }
        if (offset < 0) {
            throw new IllegalArgumentException("a snapshot's offset must be >= 0, was " + offset);
        }
        if (chunks < 1) {
            throw new IllegalArgumentException("a snapshot has at least 1 chunk, was " + chunks);
        }
    }

    /** {@code id@offset/chunks}, as {@link CheckpointMark} writes it. */
    @Override
    public String toString() {
        return id + "@" + offset + "/" + chunks;
    }

    /**
     * The reference {@link #toString()} wrote.
     *
     * @throws IllegalArgumentException naming the text when it is not {@code id@offset/chunks}
     */
    public static SnapshotRef parse(String text) {
        int at = text.lastIndexOf('@');
        int slash = text.lastIndexOf('/');
        if (at <= 0 || slash < at) {
            throw new IllegalArgumentException("a snapshot reference is id@offset/chunks, was \"" + text + "\"");
        }
        try {
            return new SnapshotRef(text.substring(0, at), Long.parseLong(text.substring(at + 1, slash)),
                    Integer.parseInt(text.substring(slash + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a snapshot reference is id@offset/chunks, was \"" + text + "\"", e);
        }
    }
}
