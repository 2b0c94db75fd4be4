package org.sievecrawler.profile;

import java.util.ArrayList;
import java.util.List;
import org.sievecrawler.profile.YamlNode.Kind;
import org.sievecrawler.profile.YamlNode.Mapping;
import org.sievecrawler.profile.YamlNode.Scalar;
import org.sievecrawler.profile.YamlNode.Sequence;

/**
 * Values given on the command line for profile keys, {@code --set politeness.delay=2s} or a shorthand such as
 * {@code --delay 2s}, applied over a profile by the table of {@link ProfileKeys}: the same types, rules and
 * messages as a profile file. Not thread-safe: one per command line.
 *
 * <p>A value is read as it would be written after {@code key: } in a profile, except that it is never YAML
 * unless it is a list in flow form: {@code [a, b]} (quote an item holding a comma or a bracket, {@code ["a,b"]};
 * {@code []} is the empty list). A single value for a list key is a list of one.
 */
public final class ProfileOverrides {
    private final List<Setting> settings = new ArrayList<>();

    /** One value given: how it was given (for messages, e.g. {@code --set fetch.threads=0}), the key, the text. */
    private record Setting(String given, String key, String value) {
    }

    /** {@code assignment} as {@code --set} takes it, {@code KEY=VALUE}. */
    public ProfileOverrides set(String assignment) {
        int equals = assignment.indexOf('=');
        String given = "--set " + assignment;
        if (equals < 0) {
            settings.add(new Setting(given, null, "must be KEY=VALUE, e.g. politeness.delay=2s"));
        } else {
            settings.add(new Setting(given, assignment.substring(0, equals).strip(),
                    assignment.substring(equals + 1)));
        }
        return this;
    }

    /** {@code value} for {@code key} from the option {@code option}, e.g. ("--threads", "fetch.threads", "4"). */
    public ProfileOverrides set(String option, String key, String value) {
        settings.add(new Setting(option + " " + value + " (" + key + ")", key, value));
        return this;
    }

    public boolean isEmpty() {
        return settings.isEmpty();
    }

    /**
     * {@code profile} with every value set, later ones winning.
     *
     * @throws IllegalArgumentException listing every mistake, one line each: how the value was given, then what is
     *     wrong, e.g. {@code --set politeness.delay=-3s: must be >= 0}
     */
    public CrawlProfile applyTo(CrawlProfile profile) {
        List<String> problems = new ArrayList<>();
        ProfileKeys.Values values = ProfileKeys.Values.of(profile);
        for (Setting setting : settings) {
            if (setting.key() == null) {
                problems.add(setting.given() + ": " + setting.value());
                continue;
            }
            ProfileKey<?> key = ProfileKeys.named(setting.key());
            if (key == null) {
                problems.add(setting.given() + ": unknown key \"" + setting.key() + "\" ("
                        + ProfileKeys.suggestion(setting.key()) + ")");
                continue;
            }
            try {
                setText(values, key, setting.value());
            } catch (IllegalArgumentException e) {
                problems.add(setting.given() + ": " + e.getMessage());
            }
        }
        CrawlProfile result = ProfileKeys.assemble(values, (group, e) -> problems.add(group + ": " + e.getMessage()));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private static <T> void setText(ProfileKeys.Values values, ProfileKey<T> key, String text) {
        if (key.type() instanceof KeyType.ListOf<?> list) {
            values.set(key, (T) readList(list, text));
        } else {
            values.set(key, ((KeyType.Scalar<T>) key.type()).read(text));
        }
    }

    private static <E> List<E> readList(KeyType.ListOf<E> type, String text) {
        List<String> items = text.strip().startsWith("[") ? flowItems(text, type.pairsAsText()) : List.of(text);
        if (type.nonEmpty() && items.isEmpty()) {
            throw new IllegalArgumentException(KeyType.ListOf.EMPTY);
        }
        List<E> values = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            try {
                values.add(type.item().read(items.get(i)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        items.size() == 1 ? e.getMessage() : "item " + (i + 1) + ": " + e.getMessage() + " ("
                                + items.get(i) + ")");
            }
        }
        return values;
    }

    /** The items of a YAML flow list, {@code [a, "b,c"]}, as texts. */
    private static List<String> flowItems(String text, boolean pairsAsText) {
        List<ProfileProblem> problems = new ArrayList<>();
        Mapping tree = new YamlReader("--set", problems).read("list: " + text.strip());
        String rule = "must be a list like [a, b] (quote an item holding a comma or a bracket: [\"a,b\"])";
        if (!problems.isEmpty() && problems.get(0).message().startsWith("a YAML alias")) {
            throw new IllegalArgumentException(problems.get(0).message()); // *_id: say why, not only the rule
        }
        if (tree == null || !problems.isEmpty() || !(tree.entries().get("list").value() instanceof Sequence list)) {
            throw new IllegalArgumentException(rule);
        }
        List<String> items = new ArrayList<>();
        for (YamlNode item : list.items()) {
            YamlNode node = pairsAsText ? ProfileBinder.pairAsText(item) : item;
            if (!(node instanceof Scalar scalar)) {
                throw new IllegalArgumentException(rule);
            }
            items.add(scalar.kind() == Kind.NULL ? null : scalar.text());
        }
        return items;
    }
}
