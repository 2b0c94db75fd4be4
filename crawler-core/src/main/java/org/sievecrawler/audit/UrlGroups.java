package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Groups of URLs found by a section (pages of one content, pages of one title), each with a label (its kind, its
 * title), kept sorted by their first URL (then label) in a temporary file until written: a section holds none of
 * them in memory. A group is one line: first URL, label, then the URLs, tab-separated.
 *
 * <p>Not thread-safe while adding; once {@link #sorted} it can be written any number of times.
 */
final class UrlGroups implements AutoCloseable {
    private final ExternalSort lines;
    private Path file;
    private long count;

    /** Groups sorted in a folder of their own inside {@code dir} (the crawl's folder). */
    UrlGroups(Path dir) throws IOException {
        this.lines = new ExternalSort(dir, ExternalSort.DEFAULT_MAX_BYTES);
    }

    /** Adds a group of two or more distinct {@code urls}, sorted, with its {@code label}. */
    void add(String label, List<String> urls) {
        StringBuilder line = new StringBuilder(urls.get(0)).append('\t').append(ExternalSort.oneLine(label));
        for (String url : urls) {
            line.append('\t').append(url);
        }
        lines.add(line.toString());
        count++;
    }

    /** Sorts the groups into a file of their own (deleted when the JVM exits); call once, after the last add. */
    UrlGroups sorted() throws IOException {
        file = Files.createTempFile("sieve-audit-groups-", ".tsv");
        file.toFile().deleteOnExit();
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            lines.sorted(line -> {
                out.write(line);
                out.write('\n');
            });
        } finally {
            lines.close();
        }
        return this;
    }

    long count() {
        return count;
    }

    /** Writes the groups as an array of {@code {labelField: label, "urls": [...]}}. */
    void write(JsonGenerator json, String labelField) throws IOException {
        json.writeStartArray();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] fields = line.split("\t", -1);
                json.writeStartObject();
                json.writeStringField(labelField, fields[1]);
                json.writeArrayFieldStart("urls");
                for (int i = 2; i < fields.length; i++) {
                    json.writeString(fields[i]);
                }
                json.writeEndArray();
                json.writeEndObject();
            }
        }
        json.writeEndArray();
    }

    @Override
    public void close() throws IOException {
        lines.close();
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Collects the runs of sorted {@code key \t url ...} lines that share a key into groups of distinct URLs:
     * feed lines in order, then {@link #flush}.
     */
    static final class Runs {
        private final Group each;
        private String key;
        private final List<String> urls = new ArrayList<>();

        Runs(Group each) {
            this.each = each;
        }

        /** Adds {@code url} under {@code key}; keys come in sorted order, URLs sorted within a key. */
        void add(String key, String url) throws IOException {
            if (!key.equals(this.key)) {
                flush();
                this.key = key;
            }
            if (urls.isEmpty() || !urls.get(urls.size() - 1).equals(url)) {
                urls.add(url);
            }
        }

        void flush() throws IOException {
            if (urls.size() > 1) {
                each.of(key, urls);
            }
            urls.clear();
        }
    }

    /** What {@link Runs} hands a key's distinct URLs (two or more) to. */
    @FunctionalInterface
    interface Group {
        void of(String key, List<String> urls) throws IOException;
    }
}
