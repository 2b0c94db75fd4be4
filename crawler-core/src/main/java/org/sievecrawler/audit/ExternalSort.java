package org.sievecrawler.audit;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Sorts lines (without line breaks) in bounded memory: lines are held until they take about {@code maxBytes}, then
 * sorted and written to a run file in a temporary folder; {@link #sorted} merges the runs (a k-way merge over a
 * heap, one buffered reader a run) and the lines still held. Order: {@link String#compareTo}; equal lines all kept.
 * Memory: {@code maxBytes} plus 64 KB a run while merging; disk: the lines once.
 *
 * <p>Not thread-safe. Closing deletes the run files.
 */
public final class ExternalSort implements AutoCloseable {
    /** What the audit gives a sort by default: 64 MB of lines. */
    public static final long DEFAULT_MAX_BYTES = 64L << 20;

    /** What a line costs in memory beyond its chars: the String, its array and the list's slot. */
    private static final int LINE_OVERHEAD = 64;

    private final Path temp;
    private final long maxBytes;
    private final List<String> held = new ArrayList<>();
    private final List<Path> runs = new ArrayList<>();
    private long heldBytes;

    /** A sort spilling to a new folder in {@code parent} once it holds more than {@code maxBytes}. */
    public ExternalSort(Path parent, long maxBytes) throws IOException {
        this.temp = Files.createTempDirectory(parent, "sort-");
        this.maxBytes = maxBytes;
    }

    /**
     * Adds {@code line}, which holds no line break (see {@link #oneLine}).
     *
     * @throws UncheckedIOException naming the run file when a run cannot be written
     */
    public void add(String line) {
        held.add(line);
        heldBytes += 2L * line.length() + LINE_OVERHEAD;
        if (heldBytes > maxBytes) {
            spill();
        }
    }

    /** How many run files the sort has written so far. */
    public int runs() {
        return runs.size();
    }

    private void spill() {
        Collections.sort(held);
        Path run = temp.resolve("run-" + runs.size());
        try (BufferedWriter out = Files.newBufferedWriter(run, StandardCharsets.UTF_8)) {
            for (String line : held) {
                out.write(line);
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the audit's sort run " + run + ": " + e.getMessage(), e);
        }
        runs.add(run);
        held.clear();
        heldBytes = 0;
    }

    /** {@code text} with its control characters (line breaks and tabs included) replaced by spaces: one line. */
    static String oneLine(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < 0x20) {
                StringBuilder sb = new StringBuilder(text);
                for (int j = i; j < sb.length(); j++) {
                    if (sb.charAt(j) < 0x20) {
                        sb.setCharAt(j, ' ');
                    }
                }
                return sb.toString();
            }
        }
        return text;
    }

    /** What receives the sorted lines. */
    @FunctionalInterface
    public interface Lines {
        void accept(String line) throws IOException;
    }

    /** Passes every line added, in order, to {@code each}. Call once, after the last {@link #add}. */
    public void sorted(Lines each) throws IOException {
        if (runs.isEmpty()) {
            Collections.sort(held);
            for (String line : held) {
                each.accept(line);
            }
            return;
        }
        if (!held.isEmpty()) {
            spill();
        }
        List<BufferedReader> readers = new ArrayList<>();
        try {
            PriorityQueue<Head> heads = new PriorityQueue<>();
            for (Path run : runs) {
                BufferedReader in = Files.newBufferedReader(run, StandardCharsets.UTF_8);
                readers.add(in);
                String first = in.readLine();
                if (first != null) {
                    heads.add(new Head(first, in));
                }
            }
            while (!heads.isEmpty()) {
                Head head = heads.poll();
                each.accept(head.line);
                String next = head.in.readLine();
                if (next != null) {
                    heads.add(new Head(next, head.in));
                }
            }
        } finally {
            for (BufferedReader in : readers) {
                in.close();
            }
        }
    }

    private record Head(String line, BufferedReader in) implements Comparable<Head> {
        @Override
        public int compareTo(Head o) {
            return line.compareTo(o.line);
        }
    }

    /** Frees the memory and deletes the files of the sort; closing it again does nothing. */
    @Override
    public void close() throws IOException {
        held.clear();
        if (!Files.exists(temp)) {
            return;
        }
        try (var files = Files.list(temp)) {
            files.forEach(f -> {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        Files.deleteIfExists(temp);
    }
}
