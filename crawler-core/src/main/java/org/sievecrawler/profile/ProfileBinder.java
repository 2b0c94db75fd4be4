package org.sievecrawler.profile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sievecrawler.profile.YamlNode.Entry;
import org.sievecrawler.profile.YamlNode.Kind;
import org.sievecrawler.profile.YamlNode.Mapping;
import org.sievecrawler.profile.YamlNode.Mark;
import org.sievecrawler.profile.YamlNode.Scalar;
import org.sievecrawler.profile.YamlNode.Sequence;

/**
 * Binds a merged profile tree to a {@link CrawlProfile} by the table of {@link ProfileKeys}: every key absent from
 * the tree keeps its value from the base (the defaults, or a profile being overridden), every key present is
 * converted and checked against its key's rule, and every mistake becomes a {@link ProfileProblem} at that key's
 * position; binding goes on after a mistake so that all are reported. Not thread-safe: one binder per load.
 * Reading files and merging {@code extends} are out of scope ({@link ProfileLoader}).
 *
 * <p>A record constructor that still refuses (a rule spanning keys, such as a Sieve too large for memory) is
 * reported at its group's key.
 */
final class ProfileBinder {
    private final List<ProfileProblem> problems;
    private final List<Group> groups = new ArrayList<>();

    ProfileBinder(List<ProfileProblem> problems) {
        this.problems = problems;
    }

    /** The profile, or null when a problem was reported; absent keys take their defaults. */
    CrawlProfile bind(Mapping root, String defaultName) {
        ProfileKeys.Values values = ProfileKeys.Values.defaults();
        values.put(ProfileKeys.NAME, defaultName);
        return bind(root, values);
    }

    /** The profile, or null when a problem was reported; absent keys keep their value in {@code base}. */
    CrawlProfile bind(Mapping root, ProfileKeys.Values base) {
        int before = problems.size();
        Group top = new Group("", root, root.mark());
        top.known.add("extends");
        Map<String, Group> byName = new LinkedHashMap<>();
        for (ProfileKey<?> key : ProfileKeys.all()) {
            Group group = key.group().isEmpty() ? top : byName.computeIfAbsent(key.group(), top::group);
            group.read(key, base);
        }
        reportUnknownKeys();
        CrawlProfile profile = ProfileKeys.assemble(base,
                (name, e) -> problem(byName.get(name).mark, name, e.getMessage()));
        return problems.size() > before ? null : profile;
    }

    private void reportUnknownKeys() {
        for (Group group : groups) {
            if (group.mapping == null) {
                continue;
            }
            for (Entry entry : group.mapping.entries().values()) {
                if (!group.known.contains(entry.key())) {
                    problem(entry.keyMark(), group.path(entry.key()),
                            "unknown key \"" + entry.key() + "\" (" + suggestion(group, entry.key()) + ")");
                }
            }
        }
    }

    /** "did you mean ..." by edit distance within the group, else the same key in another group, else a list. */
    private String suggestion(Group group, String key) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String known : group.known) {
            int distance = editDistance(key, known);
            if (distance < bestDistance) {
                best = known;
                bestDistance = distance;
            }
        }
        if (best != null && bestDistance <= Math.max(2, key.length() / 3)) {
            return "did you mean \"" + best + "\"?";
        }
        for (Group other : groups) {
            if (other != group && other.known.contains(key)) {
                return "did you mean \"" + other.path(key) + "\"?";
            }
        }
        return "known keys: " + String.join(", ", group.known);
    }

    /** Levenshtein distance: insertions, deletions and substitutions, each costing 1. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    private void problem(Mark mark, String keyPath, String message) {
        problems.add(new ProfileProblem(mark.file(), mark.line(), mark.column(), keyPath, message));
    }

    /** One map of keys (the root or a group such as fetch), recording which keys binding asked for. */
    private final class Group {
        final String prefix;
        final Mapping mapping;
        final Mark mark;
        final Set<String> known = new LinkedHashSet<>();

        Group(String prefix, Mapping mapping, Mark mark) {
            this.prefix = prefix;
            this.mapping = mapping;
            this.mark = mark;
            groups.add(this);
        }

        String path(String key) {
            return prefix.isEmpty() ? key : prefix + "." + key;
        }

        Group group(String key) {
            known.add(key);
            Entry entry = entry(key);
            if (entry == null || isNull(entry.value()) || YamlNode.isRefused(entry.value())) {
                return new Group(path(key), null, entry == null ? mark : entry.keyMark());
            }
            if (entry.value() instanceof Mapping child) {
                return new Group(path(key), child, entry.keyMark());
            }
            problem(entry.keyMark(), path(key), "must be a map of keys (" + YamlNode.describe(entry.value()) + ")");
            return new Group(path(key), null, entry.keyMark());
        }

        /** Reads {@code key} into {@code values} when this group's map holds it. */
        @SuppressWarnings("unchecked")
        <T> void read(ProfileKey<T> key, ProfileKeys.Values values) {
            known.add(key.leaf());
            Entry entry = entry(key.leaf());
            if (entry == null) {
                return;
            }
            T value = key.type() instanceof KeyType.ListOf<?> list ? readList(list, entry)
                    : convert(entry.value(), entry.keyMark(), path(key.leaf()), (KeyType.Scalar<T>) key.type());
            if (value != null) {
                values.put(key, value);
            }
        }

        /** A list; a single scalar counts as a list of one. */
        @SuppressWarnings("unchecked")
        private <T, E> T readList(KeyType.ListOf<E> type, Entry entry) {
            String key = entry.key();
            YamlNode node = entry.value();
            List<YamlNode> items;
            if (node instanceof Sequence sequence) {
                items = sequence.items();
            } else if (node instanceof Scalar && !isNull(node)) {
                items = List.of(node);
            } else {
                problem(entry.keyMark(), path(key), "must be a list (" + YamlNode.describe(node) + ")");
                return null;
            }
            if (type.nonEmpty() && items.isEmpty()) {
                problem(entry.keyMark(), path(key), KeyType.ListOf.EMPTY + " ([])");
                return null;
            }
            List<E> values = new ArrayList<>();
            boolean ok = true;
            for (int i = 0; i < items.size(); i++) {
                YamlNode item = type.pairsAsText() ? pairAsText(items.get(i)) : items.get(i);
                Mark at = node instanceof Sequence ? item.mark() : entry.keyMark();
                String itemPath = node instanceof Sequence ? path(key) + "[" + i + "]" : path(key);
                E value = convert(item, at, itemPath, type.item());
                ok &= value != null;
                values.add(value);
            }
            return ok ? (T) values : null;
        }

        private <T> T convert(YamlNode node, Mark at, String keyPath, KeyType.Scalar<T> type) {
            if (YamlNode.isRefused(node)) {
                return null;
            }
            String text = node instanceof Scalar scalar && scalar.kind() != Kind.NULL ? scalar.text() : null;
            try {
                return type.read(text);
            } catch (IllegalArgumentException e) {
                problem(at, keyPath, e.getMessage() + " (" + YamlNode.describe(node) + ")");
                return null;
            }
        }

        private Entry entry(String key) {
            return mapping == null ? null : mapping.entries().get(key);
        }
    }

    private static boolean isNull(YamlNode node) {
        return node instanceof Scalar scalar && scalar.kind() == Kind.NULL;
    }

    /** A list item written {@code Name: value}, which YAML reads as a map of one key, as that text. */
    static YamlNode pairAsText(YamlNode item) {
        if (item instanceof Mapping map && map.entries().size() == 1) {
            Entry pair = map.entries().values().iterator().next();
            if (pair.value() instanceof Scalar value) {
                String text = value.kind() == Kind.NULL ? "" : value.text();
                return new Scalar(pair.key() + ": " + text, Kind.STRING, item.mark());
            }
        }
        return item;
    }
}
