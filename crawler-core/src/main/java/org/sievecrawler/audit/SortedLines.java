package org.sievecrawler.audit;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A small external sort of text lines, for the audit's sections that group what grows with the crawl: lines are
 * held up to {@link #RUN_CHARS} characters, sorted ({@link String#compareTo}) and written as a run file in a
 * temporary folder, and {@link #merge} reads the runs back merged, in order. Memory: one run's lines while adding,
 * one line and an 8 KiB buffer per run while merging. Lines must not hold line breaks (callers replace control
 * characters, see {@link #clean}).
 *
 * <p>Not thread-safe; {@link #close} deletes its files. Kept small on purpose: the link graph's sort (issue 28's
 * links part) may replace it.
 */
final class SortedLines implements AutoCloseable {
    /** Characters of lines held before a run is written: ~64 MiB of heap with the strings' overhead. */
    static final long RUN_CHARS = 16L << 20;

    private final Path folder;
    private final long runChars;
    private final List<Path> runs = new ArrayList<>();
    private String[] lines = new String[1024];
    private int size;
    private long chars;

    SortedLines(String name) throws IOException {
        this(name, RUN_CHARS);
    }

    SortedLines(String name, long runChars) throws IOException {
        this.folder = Files.createTempDirectory("sieve-audit-" + name + "-");
        this.runChars = runChars;
    }

    void add(String line) {
        if (size == lines.length) {
            lines = Arrays.copyOf(lines, size * 2);
        }
        lines[size++] = line;
        chars += line.length() + 16;
        if (chars >= runChars) {
            spill();
        }
    }

    /** Feeds every line added, in sorted order, to {@code each}. Call once, after the last {@link #add}. */
    void merge(LineConsumer each) throws IOException {
        if (runs.isEmpty()) {
            Arrays.sort(lines, 0, size);
            for (int i = 0; i < size; i++) {
                each.accept(lines[i]);
            }
            return;
        }
        if (size > 0) {
            spill();
        }
        lines = new String[0];
        List<BufferedReader> readers = new ArrayList<>();
        try {
            PriorityQueue<Head> heads = new PriorityQueue<>();
            for (Path run : runs) {
                BufferedReader reader = Files.newBufferedReader(run, StandardCharsets.UTF_8);
                readers.add(reader);
                String first = reader.readLine();
                if (first != null) {
                    heads.add(new Head(first, reader));
                }
            }
            while (!heads.isEmpty()) {
                Head head = heads.poll();
                each.accept(head.line);
                String next = head.reader.readLine();
                if (next != null) {
                    heads.add(new Head(next, head.reader));
                }
            }
        } finally {
            for (BufferedReader reader : readers) {
                reader.close();
            }
        }
    }

    /** {@code text} with its control characters (line breaks and tabs included) replaced by spaces. */
    static String clean(String text) {
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

    private void spill() {
        Arrays.sort(lines, 0, size);
        Path run = folder.resolve("run-" + runs.size());
        try (BufferedWriter out = Files.newBufferedWriter(run, StandardCharsets.UTF_8)) {
            for (int i = 0; i < size; i++) {
                out.write(lines[i]);
                out.write('\n');
                lines[i] = null;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the audit's sort run " + run + ": " + e.getMessage(), e);
        }
        runs.add(run);
        size = 0;
        chars = 0;
    }

    @Override
    public void close() throws IOException {
        for (Path run : runs) {
            Files.deleteIfExists(run);
        }
        Files.deleteIfExists(folder);
    }

    /** What {@link #merge} feeds lines to. */
    @FunctionalInterface
    interface LineConsumer {
        void accept(String line) throws IOException;
    }

    private record Head(String line, BufferedReader reader) implements Comparable<Head> {
        @Override
        public int compareTo(Head other) {
            return line.compareTo(other.line);
        }
    }
}
