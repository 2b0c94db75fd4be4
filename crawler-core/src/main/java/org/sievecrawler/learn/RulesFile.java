package org.sievecrawler.learn;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.escape.ControlCharacters;
import org.sievecrawler.escape.Json;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.InputFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * rules.jsonl, the rules a crawl learned and undid, as the {@link RuleListener} of its {@link Learner}: each event
 * is one line logged at INFO ({@code learned: <rule>}, {@code undone: <rule>: <url> <why>}, the network's text with
 * its control characters escaped) and one JSON line appended to the file, e.g.
 * <pre>
 * {"event":"learned","time":"2026-11-29T03:40:00Z","kind":"drop-param","host":"shop.example",
 *  "template":"/cart?sid={hex}","param":"sid","pages":12,"nearDuplicates":12,"rule":"?sid= does not change ..."}
 * </pre>
 * with {@code "segment"} and {@code "position"} for an {@code alias-segment} rule, neither for {@code skip-template},
 * and for {@code "undone"} also {@code "url"} and {@code "why"}. A resumed crawl appends to the file; {@link #read}
 * reads it back, passing over the lines it cannot use.
 *
 * <p>The file is opened at the first event (a crawl that learns nothing has none), appended to, each line written at
 * once with one write straight to the file (rules are rare: a few a host). A line cut by a crash is left as it is and
 * the next line starts on a line of its own. A failure to write is the crawl's output failing, as pages.jsonl's is:
 * an {@link UncheckedIOException} naming the file, which ends the crawl from the parse thread that met it.
 *
 * <p>Thread-safe: a line is serialized outside the lock and appended under it. Out of scope: learning and applying
 * the rules ({@link Learner}).
 */
public final class RulesFile implements RuleListener, AutoCloseable {
    /** The file's name in the crawl's output folder. */
    public static final String FILE = CrawlFolder.RULES;
    /** The most bytes of the file {@link #read} reads: a rule's line is well under 8 KB, a crawl has few. */
    public static final InputFile.Bound BOUND = new InputFile.Bound("a rules file", 64L << 20);
    /** Lines of a file read at most: more are passed over, counted. */
    public static final int MAX_LINES = 100_000;
    private static final Logger LOG = LoggerFactory.getLogger(RulesFile.class);

    private final Path path;
    private final Clock clock;
    private FileChannel channel;
    private boolean closed;

    /** rules.jsonl at {@code path}, opened (created, or appended to) at its first event; {@code clock} dates them. */
    public RulesFile(Path path, Clock clock) {
        this.path = path;
        this.clock = clock;
    }

    /** The file's path. */
    public Path path() {
        return path;
    }

    /**
     * Logs {@code learned: <rule>} and appends its line.
     *
     * @throws UncheckedIOException naming the file when it cannot be written
     */
    @Override
    public void learned(Rule rule) {
        LOG.info("learned: {}", rule.describe());
        append(Entry.learned(clock.instant(), rule));
    }

    /**
     * Logs {@code undone: <rule>: <url> <why>} and appends its line.
     *
     * @throws UncheckedIOException naming the file when it cannot be written
     */
    @Override
    public void undone(Rule rule, String url, String why) {
        LOG.info("undone: {}: {} {}", rule.describe(), ControlCharacters.escape(url), ControlCharacters.escape(why));
        append(Entry.undone(clock.instant(), rule, url, why));
    }

    private void append(Entry entry) {
        byte[] line = serialize(entry);
        synchronized (this) {
            try {
                if (closed) {
                    throw new IOException(path + " is closed");
                }
                if (channel == null) {
                    channel = open(path);
                }
                ByteBuffer bytes = ByteBuffer.wrap(line);
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(new IOException("cannot write to " + path + ": "
                        + FileErrors.reason(path, e), e));
            }
        }
    }

    /** Opens {@code path} to append to, a line break first when it ends in a line cut by a crash. */
    private static FileChannel open(Path path) throws IOException {
        boolean cutLine = false;
        if (Files.isRegularFile(path) && Files.size(path) > 0) {
            try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
                ByteBuffer last = ByteBuffer.allocate(1);
                file.read(last, file.size() - 1);
                cutLine = last.get(0) != '\n';
            }
        }
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        if (cutLine) {
            try {
                channel.write(ByteBuffer.wrap(new byte[] {'\n'}));
            } catch (IOException e) {
                channel.close();
                throw e;
            }
        }
        return channel;
    }

    /** Forces the lines written to disk and closes the file; later events fail. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (channel != null) {
            try (FileChannel file = channel) {
                file.force(false);
            } catch (IOException e) {
                throw new IOException("cannot close " + path + ": " + FileErrors.reason(path, e), e);
            }
        }
    }

    /**
     * One line of rules.jsonl: a rule learned, or undone for {@code url} ({@code why}).
     *
     * @param undone whether the rule was undone (else learned)
     * @param time when
     * @param rule the rule
     * @param url for an undone rule, the sampled URL whose page was new; null for a learned one
     * @param why for an undone rule, how its page was new; null for a learned one
     */
    public record Entry(boolean undone, Instant time, Rule rule, String url, String why) {
        static Entry learned(Instant time, Rule rule) {
            return new Entry(false, time, rule, null, null);
        }

        static Entry undone(Instant time, Rule rule, String url, String why) {
            return new Entry(true, time, rule, url, why);
        }

        /** {@code "learned"} or {@code "undone"}, as the line's {@code event}. */
        public String event() {
            return undone ? "undone" : "learned";
        }
    }

    /**
     * The lines of a rules.jsonl read back.
     *
     * @param entries the lines read, in the file's order
     * @param skipped lines passed over: not JSON, not a rule (an unknown kind, a field missing or out of range),
     *     longer than 64 KB, or past {@link #MAX_LINES}
     */
    public record Read(List<Entry> entries, long skipped) {
        public Read {
            entries = List.copyOf(entries);
        }

        /**
         * The rules learned and not undone since, in the order learned, each once: what a resumed crawl applies
         * again.
         */
        public List<Rule> inForce() {
            Map<Rule, Boolean> rules = new LinkedHashMap<>();
            for (Entry entry : entries) {
                if (entry.undone()) {
                    rules.put(entry.rule(), false);
                } else {
                    rules.putIfAbsent(entry.rule(), true);
                }
            }
            List<Rule> inForce = new ArrayList<>();
            rules.forEach((rule, on) -> {
                if (on) {
                    inForce.add(rule);
                }
            });
            return Collections.unmodifiableList(inForce);
        }
    }

    /**
     * Writes what names {@code rule} in a JSON object (rules.jsonl's lines, summary.json's list): {@code kind},
     * {@code host}, {@code template}, and {@code param}, or {@code segment} and {@code position}.
     */
    static void writeRule(JsonGenerator json, Rule rule) throws IOException {
        json.writeStringField("kind", rule.kind().label());
        json.writeStringField("host", rule.host());
        json.writeStringField("template", rule.template());
        switch (rule.kind()) {
            case DROP_PARAM, ALIAS_PARAM -> json.writeStringField("param", rule.name());
            case ALIAS_SEGMENT -> {
                json.writeStringField("segment", rule.name());
                json.writeNumberField("position", rule.position());
            }
            case SKIP_TEMPLATE -> {
            }
        }
    }

    /** Longest line read; a rule's line is a few hundred bytes. */
    static final int MAX_LINE_CHARS = 64 * 1024;

    /**
     * Reads the file at {@code path}: its lines that are rules learned or undone, passing over (and counting) every
     * other line. Nothing when there is no such file.
     *
     * @throws IOException naming the file when it cannot be read, is not a regular file or is larger than
     *     {@link #BOUND}
     */
    public static Read read(Path path) throws IOException {
        if (!Files.exists(path)) {
            return new Read(List.of(), 0);
        }
        String text = new String(InputFile.read(path, BOUND), StandardCharsets.UTF_8); // bad bytes as U+FFFD
        List<Entry> entries = new ArrayList<>();
        long skipped = 0;
        int from = 0;
        while (from < text.length()) {
            int end = text.indexOf('\n', from);
            end = end < 0 ? text.length() : end;
            if (end > from) {
                Entry entry = entries.size() < MAX_LINES && end - from <= MAX_LINE_CHARS
                        ? parse(text.substring(from, end)) : null;
                if (entry == null) {
                    skipped++;
                } else {
                    entries.add(entry);
                }
            }
            from = end + 1;
        }
        return new Read(entries, skipped);
    }

    /** The entry of {@code line}, or null when it is none. */
    static Entry parse(String line) {
        Map<String, Object> fields = new LinkedHashMap<>();
        try (JsonParser json = Json.parser(line)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.getCurrentName();
                JsonToken value = json.nextToken();
                if (value == JsonToken.VALUE_STRING) {
                    fields.put(name, json.getText());
                } else if (value == JsonToken.VALUE_NUMBER_INT && json.getNumberType() == JsonParser.NumberType.INT) {
                    fields.put(name, json.getIntValue());
                } else {
                    json.skipChildren();
                }
            }
            if (json.currentToken() != JsonToken.END_OBJECT || json.nextToken() != null) {
                return null;
            }
        } catch (IOException e) {
            return null;
        }
        return entry(fields);
    }

    private static Entry entry(Map<String, Object> fields) {
        String event = string(fields, "event");
        Rule.Kind kind = kind(string(fields, "kind"));
        String host = string(fields, "host");
        String template = string(fields, "template");
        Integer pages = integer(fields, "pages");
        Integer nearDuplicates = integer(fields, "nearDuplicates");
        Instant time = instant(string(fields, "time"));
        if (time == null || kind == null || host == null || host.isEmpty() || template == null || pages == null
                || nearDuplicates == null || pages < 0 || nearDuplicates < 0 || nearDuplicates > pages) {
            return null;
        }
        String name = "";
        int position = -1;
        switch (kind) {
            case DROP_PARAM, ALIAS_PARAM -> name = string(fields, "param");
            case ALIAS_SEGMENT -> {
                name = string(fields, "segment");
                Integer at = integer(fields, "position");
                if (at == null || at < 0) {
                    return null;
                }
                position = at;
            }
            case SKIP_TEMPLATE -> {
            }
        }
        if (name == null || kind != Rule.Kind.SKIP_TEMPLATE && name.isEmpty()) {
            return null;
        }
        Rule rule = new Rule(kind, host, template, name, position, pages, nearDuplicates);
        if ("learned".equals(event)) {
            return Entry.learned(time, rule);
        }
        String url = string(fields, "url");
        String why = string(fields, "why");
        return "undone".equals(event) && url != null && why != null ? Entry.undone(time, rule, url, why) : null;
    }

    private static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static String string(Map<String, Object> fields, String name) {
        return fields.get(name) instanceof String s ? s : null;
    }

    private static Integer integer(Map<String, Object> fields, String name) {
        return fields.get(name) instanceof Integer i ? i : null;
    }

    private static Rule.Kind kind(String label) {
        for (Rule.Kind kind : Rule.Kind.values()) {
            if (kind.label().equals(label)) {
                return kind;
            }
        }
        return null;
    }

    /** {@code entry} as one line of rules.jsonl, UTF-8 JSON in the crawler's one configuration, {@code \n} last. */
    static byte[] serialize(Entry entry) {
        Rule rule = entry.rule();
        ByteArrayBuilder bytes = new ByteArrayBuilder(512);
        try (JsonGenerator json = Json.writer(bytes)) {
            json.writeStartObject();
            json.writeStringField("event", entry.event());
            json.writeStringField("time", entry.time().toString());
            writeRule(json, rule);
            json.writeNumberField("pages", rule.pages());
            json.writeNumberField("nearDuplicates", rule.nearDuplicates());
            json.writeStringField("rule", rule.describe());
            if (entry.undone()) {
                json.writeStringField("url", entry.url());
                json.writeStringField("why", entry.why());
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        bytes.write('\n');
        return bytes.toByteArray();
    }
}
