package org.sievecrawler.profile;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.profile.YamlNode.Entry;
import org.sievecrawler.profile.YamlNode.Kind;
import org.sievecrawler.profile.YamlNode.Mapping;
import org.sievecrawler.profile.YamlNode.Mark;
import org.sievecrawler.profile.YamlNode.Scalar;
import org.sievecrawler.profile.YamlNode.Sequence;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads the first YAML document of a text into a {@link YamlNode} tree that keeps every key's position, using
 * Jackson's streaming YAML parser. Syntax errors, duplicate keys, and a value longer than {@link #MAX_SCALAR_CHARS}
 * or a key longer than {@link #MAX_KEY_CHARS} characters become {@link ProfileProblem}s at their position. Not
 * thread-safe: one reader per text. What the keys mean is out of scope ({@link ProfileBinder}).
 */
final class YamlReader {
    /** The most characters a value may have (a URL has at most 2,048; a pattern or a user agent a few hundred). */
    static final int MAX_SCALAR_CHARS = 64 * 1024;
    /** The most characters a key may have (the longest key of a profile has 30). */
    static final int MAX_KEY_CHARS = 256;
    private static final YAMLFactory FACTORY = YAMLFactory.builder().loaderOptions(loaderOptions()).build();

    private final String file;
    private final List<ProfileProblem> problems;
    private JsonParser parser;

    YamlReader(String file, List<ProfileProblem> problems) {
        this.file = file;
        this.problems = problems;
    }

    /** The document's root map, an empty map for an empty document, or null after reporting a problem. */
    Mapping read(String text) {
        try (JsonParser yaml = FACTORY.createParser(text)) {
            parser = yaml;
            JsonToken first = parser.nextToken();
            if (first == null) {
                return new Mapping(Map.of(), new Mark(file, 1, 1));
            }
            YamlNode root = value(first, "");
            if (root instanceof Mapping mapping) {
                return mapping;
            }
            if (root instanceof Scalar scalar && scalar.kind() == Kind.NULL) {
                return new Mapping(Map.of(), root.mark());
            }
            problems.add(new ProfileProblem(file, root.mark().line(), root.mark().column(), "",
                    "a profile must be a map of keys such as \"fetch:\", not " + YamlNode.describe(root)));
            return null;
        } catch (JsonProcessingException e) {
            problems.add(syntaxError(e));
            return null;
        } catch (IOException e) {
            problems.add(new ProfileProblem(file, 1, 1, "", "cannot read YAML: " + e.getMessage()));
            return null;
        }
    }

    private YamlNode value(JsonToken token, String path) throws IOException {
        Mark mark = mark(parser.currentTokenLocation());
        switch (token) {
            case START_OBJECT:
                return mapping(mark, path);
            case START_ARRAY:
                List<YamlNode> items = new ArrayList<>();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
                    items.add(value(next, path + "[" + items.size() + "]"));
                }
                return new Sequence(items, mark);
            case VALUE_NUMBER_INT:
                return scalar(Kind.INTEGER, mark, path);
            case VALUE_NUMBER_FLOAT:
                return scalar(Kind.FLOAT, mark, path);
            case VALUE_TRUE:
            case VALUE_FALSE:
                return scalar(Kind.BOOLEAN, mark, path);
            case VALUE_NULL:
                return new Scalar("", Kind.NULL, mark);
            default:
                // Jackson reports "key:" with no value as an empty string; an empty text means nothing here either
                return scalar(parser.getTextLength() == 0 ? Kind.NULL : Kind.STRING, mark, path);
        }
    }

    /**
     * The current scalar; one longer than {@link #MAX_SCALAR_CHARS} is a problem at its position and is
     * {@link Kind#REFUSED} (the whole document as a scalar is left to {@link #read}, which says a profile is a map).
     */
    private Scalar scalar(Kind kind, Mark mark, String path) throws IOException {
        String text = parser.getText();
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) { // Jackson gives an alias as its bare name
            problems.add(new ProfileProblem(file, mark.line(), mark.column(), path, "a YAML alias (*"
                    + YamlNode.shorten(text) + "), which a profile has no use for: quote a value that starts with *,"
                    + " as '*" + YamlNode.shorten(text) + "'"));
            return new Scalar("", Kind.REFUSED, mark);
        }
        if (text.length() > MAX_SCALAR_CHARS && !path.isEmpty()) {
            problems.add(new ProfileProblem(file, mark.line(), mark.column(), path, "a value of " + text.length()
                    + " characters, longer than " + MAX_SCALAR_CHARS + ", the most a profile value may have ("
                    + YamlNode.shorten(text) + ")"));
            return new Scalar("", Kind.REFUSED, mark);
        }
        return new Scalar(text, kind, mark);
    }

    private Mapping mapping(Mark mark, String path) throws IOException {
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
            String key = parser.currentName();
            Mark keyMark = mark(parser.currentTokenLocation());
            if (key.length() > MAX_KEY_CHARS) {
                problems.add(new ProfileProblem(file, keyMark.line(), keyMark.column(), path, "a key of "
                        + key.length() + " characters, longer than " + MAX_KEY_CHARS + ", the most a profile key"
                        + " may have (" + YamlNode.shorten(key) + ")"));
                parser.nextToken();
                parser.skipChildren();
                continue;
            }
            String keyPath = path.isEmpty() ? key : path + "." + key;
            YamlNode value = value(parser.nextToken(), keyPath);
            Entry earlier = entries.get(key);
            if (earlier != null) {
                problems.add(new ProfileProblem(file, keyMark.line(), keyMark.column(), keyPath,
                        "duplicate key, already given at line " + earlier.keyMark().line() + " (" + key + ")"));
            } else {
                entries.put(key, new Entry(key, keyMark, value));
            }
        }
        return new Mapping(entries, mark);
    }

    /**
     * SnakeYAML's options: documents as long as the largest file read ({@link InputFile#SAVED_PROFILE}; the file is
     * refused by its size before it is parsed), not its default 3 MiB, which a checkpoint's profile holding many
     * seeds passes.
     */
    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit((int) InputFile.SAVED_PROFILE.maxBytes());
        return options;
    }

    private Mark mark(JsonLocation location) {
        return new Mark(file, Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
    }

    /** SnakeYAML's own problem and mark where it has them (more precise than Jackson's), else Jackson's. */
    private ProfileProblem syntaxError(JsonProcessingException e) {
        if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
            org.yaml.snakeyaml.error.Mark at = marked.getProblemMark();
            String message = marked.getProblem();
            org.yaml.snakeyaml.error.Mark context = marked.getContextMark();
            if (marked.getContext() != null && context != null) {
                message += " (" + marked.getContext() + " at line " + (context.getLine() + 1) + ", column "
                        + (context.getColumn() + 1) + ")";
            }
            return new ProfileProblem(file, at.getLine() + 1, at.getColumn() + 1, "", "YAML syntax error: " + message);
        }
        JsonLocation at = e.getLocation();
        int line = at == null ? 1 : Math.max(1, at.getLineNr());
        int column = at == null ? 1 : Math.max(1, at.getColumnNr());
        return new ProfileProblem(file, line, column, "", "YAML syntax error: " + firstLine(e.getOriginalMessage()));
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable YAML";
        }
        String trimmed = message.strip();
        int newline = trimmed.indexOf('\n');
        return newline < 0 ? trimmed : trimmed.substring(0, newline).strip();
    }
}
