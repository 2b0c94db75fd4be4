package org.sievecrawler.profile;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed YAML value that remembers where it was written, so that a mistake found while binding can be
 * reported at its file, line and column. Immutable.
 */
sealed interface YamlNode permits YamlNode.Scalar, YamlNode.Sequence, YamlNode.Mapping {

    Mark mark();

    /** A place in a file; line and column count from 1. */
    record Mark(String file, int line, int column) {
    }

    /**
     * What the YAML parser made of a scalar; an empty one ({@code key:} or {@code key: ''}) is NULL; one the reader
     * refused (too long), its problem reported, is REFUSED, with no text: binding passes over it in silence.
     */
    enum Kind { STRING, INTEGER, FLOAT, BOOLEAN, NULL, REFUSED }

    /** A scalar, kept as written: binding decides what it means. */
    record Scalar(String text, Kind kind, Mark mark) implements YamlNode {
    }

    record Sequence(List<YamlNode> items, Mark mark) implements YamlNode {
        public Sequence {
            items = List.copyOf(items);
        }
    }

    /** A map of keys in the order written; each entry keeps the position of its key. */
    record Mapping(Map<String, Entry> entries, Mark mark) implements YamlNode {
        public Mapping {
            entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }
    }

    record Entry(String key, Mark keyMark, YamlNode value) {
    }

    /** Whether {@code node} is a scalar the reader refused, whose problem is reported already. */
    static boolean isRefused(YamlNode node) {
        return node instanceof Scalar scalar && scalar.kind() == Kind.REFUSED;
    }

    /** How a node is named in messages: its text for a scalar ({@link #shorten}ed), else its shape. */
    static String describe(YamlNode node) {
        if (node instanceof Scalar scalar) {
            return scalar.kind() == Kind.NULL ? "empty" : shorten(scalar.text());
        }
        return node instanceof Sequence ? "a list" : "a map";
    }

    /** {@code text}, or for one longer than 100 characters its first 80, then "..." and its length. */
    static String shorten(String text) {
        if (text.length() <= 100) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(79)) ? 79 : 80; // never half a character
        return text.substring(0, end) + "... (" + text.length() + " characters)";
    }
}
