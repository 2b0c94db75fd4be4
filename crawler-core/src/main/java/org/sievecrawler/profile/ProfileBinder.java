package org.sievecrawler.profile;

import java.math.BigDecimal;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import okhttp3.HttpUrl;
import org.sievecrawler.profile.YamlNode.Entry;
import org.sievecrawler.profile.YamlNode.Kind;
import org.sievecrawler.profile.YamlNode.Mapping;
import org.sievecrawler.profile.YamlNode.Mark;
import org.sievecrawler.profile.YamlNode.Scalar;
import org.sievecrawler.profile.YamlNode.Sequence;
import org.sievecrawler.sieve.OverflowPolicy;

/**
 * Binds a merged profile tree to a {@link CrawlProfile}: every key absent from the tree takes its value from
 * {@link CrawlProfile#defaults()}, every key present is converted and checked, and every mistake becomes a
 * {@link ProfileProblem} at that key's position; binding goes on after a mistake so that all are reported. Not
 * thread-safe: one binder per load. Reading files and merging {@code extends} are out of scope
 * ({@link ProfileLoader}).
 *
 * <p>The range rules here repeat the records' own checks so that each is reported at its key with the value as
 * written; a record constructor that still refuses (a rule spanning keys, such as a Sieve too large for memory)
 * is reported at its group's key.
 */
final class ProfileBinder {
    private final List<ProfileProblem> problems;
    private final List<Group> groups = new ArrayList<>();

    ProfileBinder(List<ProfileProblem> problems) {
        this.problems = problems;
    }

    /** The profile, or null when a problem was reported. */
    CrawlProfile bind(Mapping root, String defaultName) {
        int before = problems.size();
        CrawlProfile d = CrawlProfile.defaults();
        Group top = new Group("", root, root.mark());
        top.known.add("extends");
        String name = top.get("name", defaultName, text());
        List<String> seeds = top.list("seeds", d.seeds(), ProfileBinder::seed, false);

        Group s = top.group("scope");
        ScopeConfig ds = d.scope();
        ScopeConfig scope = s.build(() -> new ScopeConfig(
                s.list("hosts", ds.hosts(), ProfileBinder::hostPattern, true),
                s.list("include", ds.include(), ProfileBinder::regex, false),
                s.list("exclude", ds.exclude(), ProfileBinder::regex, false),
                s.get("max-depth", ds.maxDepth(), integer(-1, "must be >= 0, or -1 for no limit"))), ds);

        Group l = top.group("limits");
        LimitsConfig dl = d.limits();
        LimitsConfig limits = l.build(() -> new LimitsConfig(
                l.get("max-pages", dl.maxPages(), longInteger(0, "must be >= 0 (0 = no limit)")),
                l.get("max-duration", dl.maxDuration(), duration(false)),
                l.get("max-page-bytes", dl.maxPageBytes(), size(1))), dl);

        Group f = top.group("fetch");
        FetchConfig df = d.fetch();
        FetchConfig fetch = f.build(() -> new FetchConfig(
                f.get("threads", df.threads(), integer(1, 1024, "must be in [1, 1024]")),
                f.get("user-agent", df.userAgent(), text()),
                f.get("connect-timeout", df.connectTimeout(), duration(true)),
                f.get("read-timeout", df.readTimeout(), duration(true)),
                f.get("call-timeout", df.callTimeout(), duration(true)),
                f.get("max-redirects", df.maxRedirects(), integer(0, "must be >= 0")),
                f.get("retries", df.retries(), integer(0, "must be >= 0")),
                f.list("accept", df.accept(), ProfileBinder::mediaType, false),
                f.get("allow-private-addresses", df.allowPrivateAddresses(), bool())), df);

        Group p = top.group("politeness");
        PolitenessConfig dp = d.politeness();
        PolitenessConfig politeness = p.build(() -> new PolitenessConfig(
                p.get("delay", dp.delay(), duration(false)),
                p.get("max-connections-per-host", dp.maxConnectionsPerHost(), integer(1, "must be >= 1")),
                p.get("respect-robots", dp.respectRobots(), bool()),
                p.get("max-crawl-delay", dp.maxCrawlDelay(), duration(false)),
                p.get("robots-retry", dp.robotsRetry(), duration(false))), dp);

        Group pa = top.group("parse");
        ParseConfig parse = pa.build(() -> new ParseConfig(
                pa.get("follow-nofollow", d.parse().followNofollow(), bool())), d.parse());

        Group si = top.group("sieve");
        SieveConfig dsi = d.sieve();
        SieveConfig sieve = si.build(() -> sieve(
                si.get("expected-urls", dsi.expectedUrls(), longInteger(1, "must be >= 1")),
                si.get("false-positive-rate", dsi.falsePositiveRate(), rate()),
                si.get("on-overflow", dsi.onOverflow(), overflow()),
                si.get("max-in-memory-urls", dsi.maxInMemoryUrls(), integer(1, "must be >= 1"))), dsi);

        Group o = top.group("output");
        OutputConfig d0 = d.output();
        OutputConfig output = o.build(() -> new OutputConfig(
                o.get("dir", d0.dir(), folder()),
                o.get("warc", d0.warc(), bool()),
                o.get("warc-prefix", d0.warcPrefix(), warcPrefix()),
                o.get("warc-max-size", d0.warcMaxSize(), size(1)),
                o.get("warc-metadata", d0.warcMetadata(), bool())), d0);

        Group pr = top.group("progress");
        ProgressConfig progress = pr.build(() -> new ProgressConfig(
                pr.get("interval", d.progress().interval(), duration(true))), d.progress());

        Group c = top.group("checkpoint");
        CheckpointConfig checkpoint = c.build(() -> new CheckpointConfig(
                c.get("interval", d.checkpoint().interval(), duration(false))), d.checkpoint());

        reportUnknownKeys();
        if (problems.size() > before) {
            return null;
        }
        return new CrawlProfile(name, seeds, scope, limits, fetch, politeness, parse, sieve, output, progress,
                checkpoint);
    }

    /** The Sieve's record, its sizing error (too large for memory) told in the profile's key names. */
    private static SieveConfig sieve(long expectedUrls, double falsePositiveRate, OverflowPolicy onOverflow,
            int maxInMemoryUrls) {
        try {
            return new SieveConfig(expectedUrls, falsePositiveRate, onOverflow, maxInMemoryUrls);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().replace("expectedInsertions", "expected-urls")
                    .replace("falsePositiveRate", "false-positive-rate"), e);
        }
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

    /** Converts a scalar's text; throws IllegalArgumentException("must be ...") naming the rule, not the value. */
    @FunctionalInterface
    private interface Reader<T> {
        T read(String text);
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
            if (entry == null || isNull(entry.value())) {
                return new Group(path(key), null, entry == null ? mark : entry.keyMark());
            }
            if (entry.value() instanceof Mapping child) {
                return new Group(path(key), child, entry.keyMark());
            }
            problem(entry.keyMark(), path(key), "must be a map of keys (" + YamlNode.describe(entry.value()) + ")");
            return new Group(path(key), null, entry.keyMark());
        }

        <T> T build(Supplier<T> make, T fallback) {
            try {
                return make.get();
            } catch (IllegalArgumentException e) {
                problem(mark, prefix, e.getMessage());
                return fallback;
            }
        }

        <T> T get(String key, T fallback, Reader<T> reader) {
            known.add(key);
            Entry entry = entry(key);
            if (entry == null) {
                return fallback;
            }
            T value = convert(entry.value(), entry.keyMark(), path(key), reader);
            return value == null ? fallback : value;
        }

        /** A list; a single scalar counts as a list of one. */
        <T> List<T> list(String key, List<T> fallback, Reader<T> reader, boolean nonEmpty) {
            known.add(key);
            Entry entry = entry(key);
            if (entry == null) {
                return fallback;
            }
            YamlNode node = entry.value();
            List<YamlNode> items;
            if (node instanceof Sequence sequence) {
                items = sequence.items();
            } else if (node instanceof Scalar && !isNull(node)) {
                items = List.of(node);
            } else {
                problem(entry.keyMark(), path(key), "must be a list (" + YamlNode.describe(node) + ")");
                return fallback;
            }
            if (nonEmpty && items.isEmpty()) {
                problem(entry.keyMark(), path(key), "must not be empty ([])");
                return fallback;
            }
            List<T> values = new ArrayList<>();
            boolean ok = true;
            for (int i = 0; i < items.size(); i++) {
                YamlNode item = items.get(i);
                Mark at = node instanceof Sequence ? item.mark() : entry.keyMark();
                String itemPath = node instanceof Sequence ? path(key) + "[" + i + "]" : path(key);
                T value = convert(item, at, itemPath, reader);
                ok &= value != null;
                values.add(value);
            }
            return ok ? values : fallback;
        }

        private <T> T convert(YamlNode node, Mark at, String keyPath, Reader<T> reader) {
            String shown = YamlNode.describe(node);
            if (!(node instanceof Scalar scalar) || scalar.kind() == Kind.NULL) {
                try {
                    reader.read(null);
                } catch (IllegalArgumentException e) {
                    problem(at, keyPath, e.getMessage() + " (" + shown + ")");
                }
                return null;
            }
            try {
                return reader.read(scalar.text());
            } catch (IllegalArgumentException e) {
                problem(at, keyPath, e.getMessage() + " (" + shown + ")");
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

    // Readers. Each gets null for a missing, list or map value and must then throw its "must be ..." message.

    private static Reader<String> text() {
        return text -> {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("must be a non-empty text");
            }
            return text;
        };
    }

    private static Reader<Boolean> bool() {
        return text -> {
            if ("true".equalsIgnoreCase(text)) {
                return true;
            }
            if ("false".equalsIgnoreCase(text)) {
                return false;
            }
            throw new IllegalArgumentException("must be true or false");
        };
    }

    private static Reader<Long> longInteger(long min, String rule) {
        return text -> {
            long value = parseInteger(text);
            if (value < min) {
                throw new IllegalArgumentException(rule);
            }
            return value;
        };
    }

    private static Reader<Integer> integer(long min, String rule) {
        return integer(min, Integer.MAX_VALUE, rule);
    }

    private static Reader<Integer> integer(long min, long max, String rule) {
        return text -> {
            long value = parseInteger(text);
            if (value < min || value > max) {
                throw new IllegalArgumentException(rule);
            }
            return (int) value;
        };
    }

    /** A whole number; {@code 10_000_000} and {@code 1e9} are accepted. */
    private static long parseInteger(String text) {
        if (text != null) {
            String digits = text.strip().replace("_", "");
            try {
                return Long.parseLong(digits);
            } catch (NumberFormatException e) {
                try {
                    return new BigDecimal(digits).longValueExact();
                } catch (NumberFormatException | ArithmeticException notWhole) {
                    // reported below
                }
            }
        }
        throw new IllegalArgumentException("must be a whole number");
    }

    private static Reader<Duration> duration(boolean positive) {
        return text -> {
            Duration value = text == null ? null : ProfileUnits.parseDuration(text);
            if (value == null) {
                throw new IllegalArgumentException("must be " + ProfileUnits.DURATION_FORMS);
            }
            if (value.isNegative() || (positive && value.isZero())) {
                throw new IllegalArgumentException(positive ? "must be > 0" : "must be >= 0");
            }
            return value;
        };
    }

    private static Reader<Long> size(long min) {
        return text -> {
            Long value = text == null ? null : ProfileUnits.parseSize(text);
            if (value == null) {
                throw new IllegalArgumentException("must be " + ProfileUnits.SIZE_FORMS);
            }
            if (value < min) {
                throw new IllegalArgumentException("must be >= " + min);
            }
            return value;
        };
    }

    private static Reader<Double> rate() {
        return text -> {
            double value;
            try {
                value = Double.parseDouble(text == null ? "" : text.strip().replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be a number in (0, 1), such as 0.01");
            }
            if (!(value > 0 && value < 1)) {
                throw new IllegalArgumentException("must be in (0, 1), exclusive");
            }
            return value;
        };
    }

    private static Reader<OverflowPolicy> overflow() {
        return text -> {
            try {
                return OverflowPolicy.parse(text == null ? "" : text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("must be warn or grow");
            }
        };
    }

    private static Reader<Path> folder() {
        return text -> {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("must be a folder path");
            }
            try {
                return Path.of(text);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("must be a folder path: " + e.getReason());
            }
        };
    }

    private static Reader<String> warcPrefix() {
        return text -> {
            if (text == null || !OutputConfig.WARC_PREFIX.matcher(text).matches()) {
                throw new IllegalArgumentException("must be letters, digits, '.', '_' and '-', starting with a letter"
                        + " or digit");
            }
            return text;
        };
    }

    private static String seed(String text) {
        if (text == null || HttpUrl.parse(text.strip()) == null) {
            throw new IllegalArgumentException("must be an http or https URL");
        }
        return text.strip();
    }

    private static String hostPattern(String text) {
        if (ScopeConfig.SAME_AS_SEEDS.equals(text)) {
            return text;
        }
        String host = text == null ? "" : text.startsWith("*.") ? text.substring(2) : text;
        boolean plain = !host.isEmpty() && host.chars().noneMatch(c -> "/@?#*\\ ".indexOf(c) >= 0)
                && (host.indexOf(':') < 0 || host.startsWith("["));
        if (!plain || HttpUrl.parse("http://" + host + "/") == null) {
            throw new IllegalArgumentException("must be a host name such as example.org or *.example.org, or "
                    + ScopeConfig.SAME_AS_SEEDS + " (no scheme, port or path)");
        }
        return text;
    }

    private static Pattern regex(String text) {
        if (text == null) {
            throw new IllegalArgumentException("must be a regular expression");
        }
        try {
            return Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("must be a regular expression: " + e.getDescription()
                    + " near index " + e.getIndex());
        }
    }

    private static String mediaType(String text) {
        if (text == null || !text.strip().matches("[\\w.+-]+/[\\w.+*-]+")) {
            throw new IllegalArgumentException("must be a media type such as text/html");
        }
        return text.strip();
    }
}
