package org.sievecrawler.changes;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.sievecrawler.escape.Json;
import org.sievecrawler.input.LineReader;
import org.sievecrawler.input.TextLine;

/**
 * One line of changes.jsonl ({@link ChangeSet}) as read back, for the report.
 *
 * @param url the URL
 * @param change what changed
 * @param status the new record's status, null when the new crawl has none
 * @param previousStatus the earlier record's, null when the earlier crawl has none
 * @param outcome the new record's outcome label, null when none
 * @param previousReferrer the earlier record's referrer, or null
 * @param unlinked whether no page links to the URL any more
 */
public record ChangeLine(String url, Change change, Integer status, Integer previousStatus, String outcome,
        String previousReferrer, boolean unlinked) {
    /** The longest line read; a longer one (a line holds a URL and a referrer, each at most a few KB) is skipped. */
    static final int MAX_LINE_BYTES = 1 << 20;

    /**
     * Reads every line of {@code file} in order, passing over those that are no change line (not UTF-8, too long,
     * not JSON, without a url or a known change): a file of another build or damaged on disk is read for what it
     * holds.
     *
     * @return the lines passed over
     * @throws IOException naming the file when it cannot be read
     */
    public static long read(Path file, Consumer<ChangeLine> each) throws IOException {
        long skipped = 0;
        try (LineReader lines = LineReader.open(file, 0, 0, MAX_LINE_BYTES)) {
            for (TextLine line = lines.next(); line != null; line = lines.next()) {
                ChangeLine change = line instanceof TextLine.Text text ? parse(text.text()) : null;
                if (change == null) {
                    skipped++;
                } else {
                    each.accept(change);
                }
            }
        }
        return skipped;
    }

    /** The change of {@code line}, or null when it is none. */
    static ChangeLine parse(String line) {
        String url = null;
        Change change = null;
        Integer status = null;
        Integer previousStatus = null;
        String outcome = null;
        String previousReferrer = null;
        boolean unlinked = false;
        try (JsonParser json = Json.parser(line)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (JsonToken t = json.nextToken(); t == JsonToken.FIELD_NAME; t = json.nextToken()) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                switch (name) {
                    case "url" -> url = value == JsonToken.VALUE_STRING ? json.getText() : null;
                    case "change" -> change = value == JsonToken.VALUE_STRING ? label(json.getText()) : null;
                    case "status" -> status = value == JsonToken.VALUE_NUMBER_INT ? json.getIntValue() : null;
                    case "previousStatus" -> previousStatus = value == JsonToken.VALUE_NUMBER_INT
                            ? json.getIntValue() : null;
                    case "outcome" -> outcome = value == JsonToken.VALUE_STRING ? json.getText() : null;
                    case "previousReferrer" -> previousReferrer = value == JsonToken.VALUE_STRING
                            ? json.getText() : null;
                    case "unlinked" -> unlinked = value == JsonToken.VALUE_TRUE;
                    default -> json.skipChildren();
                }
            }
        } catch (JsonProcessingException e) {
            return null;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a String does not fail
        }
        return url == null || change == null ? null
                : new ChangeLine(url, change, status, previousStatus, outcome, previousReferrer, unlinked);
    }

    private static Change label(String text) {
        try {
            return Change.fromLabel(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
