package org.sievecrawler.profile;

import java.util.List;
import java.util.function.Function;

/**
 * One key of a crawl profile, declared once in {@link ProfileKeys}: its dotted name, type, rule, default, meaning
 * and whether a resume may change it. Immutable. Binding a YAML profile, writing one back,
 * {@code config/default.yaml}, the records' own checks, the command line's {@code --set} and a resume's checks all
 * read it from here.
 *
 * @param <T> the value's type in the records
 */
public final class ProfileKey<T> {
    private final String name;
    private final KeyType<T> type;
    private final T defaultValue;
    private final String doc;
    private final Function<CrawlProfile, T> read;
    private final OnResume onResume;

    ProfileKey(String name, KeyType<T> type, T defaultValue, String doc, Function<CrawlProfile, T> read,
            OnResume onResume) {
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.doc = doc;
        this.read = read;
        this.onResume = onResume;
    }

    /** The dotted name, e.g. {@code politeness.max-connections-per-host}. */
    public String name() {
        return name;
    }

    /** The group before the dot, e.g. {@code politeness}; empty for the top-level keys name and seeds. */
    public String group() {
        int dot = name.indexOf('.');
        return dot < 0 ? "" : name.substring(0, dot);
    }

    /** The name within its group, e.g. {@code max-connections-per-host}. */
    public String leaf() {
        return name.substring(name.indexOf('.') + 1);
    }

    /** What the key means, its rule and forms, in sentences; the text of its comment in config/default.yaml. */
    public String doc() {
        return doc;
    }

    /** The first sentence of {@link #doc()}, for a line of help. */
    public String summary() {
        int end = doc.indexOf(". ");
        return end < 0 ? doc : doc.substring(0, end + 1);
    }

    public T defaultValue() {
        return defaultValue;
    }

    /** The default as YAML text, lists in flow form: {@code 16}, {@code 1s}, {@code [same-as-seeds]}. */
    public String defaultText() {
        return type.write(defaultValue);
    }

    /** {@code value} as YAML text, lists in flow form. */
    public String write(T value) {
        return type.write(value);
    }

    /** Whether {@code crawler crawl --resume} may give this key another value than the checkpoint saved. */
    public OnResume onResume() {
        return onResume;
    }

    KeyType<T> type() {
        return type;
    }

    /** This key's value in {@code profile}. */
    public T valueIn(CrawlProfile profile) {
        return read.apply(profile);
    }

    /**
     * {@code value} when it keeps this key's rule, for a record's constructor.
     *
     * @throws IllegalArgumentException naming the key, the rule and the value, e.g.
     *     {@code fetch.threads must be in [1, 1024], was 0}
     */
    T require(T value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must be given, was null");
        }
        String problem = type.problem(value);
        if (problem != null) {
            throw new IllegalArgumentException(name + " " + problem + ", was " + type.write(value));
        }
        if (type instanceof KeyType.ListOf<?> list) {
            int[] index = {0};
            String itemProblem = list.itemProblem((List<?>) value, index);
            if (itemProblem != null) {
                throw new IllegalArgumentException(name + "[" + index[0] + "] " + itemProblem + ", was \""
                        + ((List<?>) value).get(index[0]) + "\"");
            }
        }
        return value;
    }

    @Override
    public String toString() {
        return name;
    }
}
