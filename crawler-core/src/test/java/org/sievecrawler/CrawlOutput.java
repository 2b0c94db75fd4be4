package org.sievecrawler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** A crawl's output folder as the tests read it: pages.jsonl records and summary.json. */
final class CrawlOutput {
    private static final ObjectMapper JSON = new ObjectMapper();
    final List<JsonNode> records;
    final JsonNode summary;

    private CrawlOutput(List<JsonNode> records, JsonNode summary) {
        this.records = records;
        this.summary = summary;
    }

    static CrawlOutput read(Path dir) {
        try {
            List<JsonNode> records = new ArrayList<>();
            for (String line : Files.readAllLines(dir.resolve("pages.jsonl"))) {
                records.add(JSON.readTree(line));
            }
            return new CrawlOutput(records, JSON.readTree(dir.resolve("summary.json").toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The one record of {@code url}; fails if there is none or more than one. */
    JsonNode record(String url) {
        List<JsonNode> matches = records.stream().filter(r -> r.get("url").asText().equals(url)).toList();
        if (matches.size() != 1) {
            throw new AssertionError(matches.size() + " records for " + url + " in " + urls());
        }
        return matches.get(0);
    }

    List<String> urls() {
        return records.stream().map(r -> r.get("url").asText()).collect(Collectors.toList());
    }

    /** URL → outcome label. */
    Map<String, String> outcomes() {
        return records.stream().collect(Collectors.toMap(r -> r.get("url").asText(),
                r -> r.get("outcome").asText(), (a, b) -> a + "," + b, java.util.TreeMap::new));
    }

    long summaryCount(String group, String key) {
        JsonNode node = summary.get(group).get(key);
        return node == null ? 0 : node.asLong();
    }
}
