package org.sievecrawler.profile;

import java.math.BigDecimal;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import okhttp3.HttpUrl;
import org.sievecrawler.trust.TrustStore;
import org.sievecrawler.trust.TrustStoreException;

/**
 * The type of a profile key: how its value is read from text, the rule it must keep, and how it is written back
 * as YAML. Immutable. A reader throws {@link IllegalArgumentException} with a "must be ..." message naming the
 * accepted forms (it gets null for a missing, list or map value); a rule returns such a message, or null when the
 * value keeps it. Neither names the key nor the value: callers add both.
 */
sealed interface KeyType<T> permits KeyType.Scalar, KeyType.ListOf {

    /** What is wrong with {@code value}, "must be ...", or null when it keeps the rule. */
    String problem(T value);

    /** The value as YAML text: lists in flow form, {@code [a, b]}. */
    String write(T value);

    /** One value written as text. */
    record Scalar<T>(Reader<T> reader, Function<T, String> rule, Function<T, String> writer) implements KeyType<T> {
        /** The value {@code text} (null for none) stands for, checked against the rule. */
        T read(String text) {
            T value = reader.read(text);
            String problem = problem(value);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            return value;
        }

        @Override
        public String problem(T value) {
            return rule.apply(value);
        }

        @Override
        public String write(T value) {
            return writer.apply(value);
        }
    }

    /**
     * A list of values of one type; a single value counts as a list of one.
     *
     * @param pairsAsText whether an item written {@code Name: value} (which YAML reads as a map of one key) is
     *     taken as the text {@code "Name: value"}, as request headers are
     */
    record ListOf<E>(Scalar<E> item, boolean nonEmpty, boolean pairsAsText) implements KeyType<List<E>> {
        static final String EMPTY = "must not be empty";

        /** Whether the list as a whole keeps the rule (its items are checked one by one, {@link #itemProblem}). */
        @Override
        public String problem(List<E> values) {
            return nonEmpty && values.isEmpty() ? EMPTY : null;
        }

        /** The index of the first item that breaks the item rule, and what is wrong with it; or null. */
        String itemProblem(List<?> values, int[] index) {
            for (int i = 0; i < values.size(); i++) {
                @SuppressWarnings("unchecked")
                String problem = values.get(i) == null ? "must be given" : item.problem((E) values.get(i));
                if (problem != null) {
                    index[0] = i;
                    return problem;
                }
            }
            return null;
        }

        @Override
        public String write(List<E> values) {
            StringBuilder out = new StringBuilder("[");
            for (E value : values) {
                out.append(out.length() > 1 ? ", " : "").append(item.write(value));
            }
            return out.append(']').toString();
        }
    }

    /** Converts a value's text; throws IllegalArgumentException("must be ...") naming the forms, not the value. */
    @FunctionalInterface
    interface Reader<T> {
        T read(String text);
    }

    // The types of the profile's keys.

    static <T> Function<T, String> none() {
        return value -> null;
    }

    static Scalar<String> text() {
        return new Scalar<>(text -> {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("must be a non-empty text");
            }
            return text;
        }, text -> text == null || text.isBlank() ? "must be a non-empty text" : null, KeyType::yamlText);
    }

    /** A User-Agent header whose first product token can be the robots.txt agent name. */
    static Scalar<String> userAgent() {
        return new Scalar<>(text().reader(), KeyType::userAgentProblem, KeyType::yamlText);
    }

    private static String userAgentProblem(String userAgent) {
        if (userAgent == null || userAgent.isBlank()) {
            return "must be a non-empty text";
        }
        String name = FetchConfig.robotsAgentName(userAgent);
        String problem = FetchConfig.robotsAgentNameProblem(name);
        return problem == null ? null : "the first product token, \"" + name + "\", is the name looked up in"
                + " robots.txt and " + problem + "; e.g. " + FetchConfig.DEFAULT_USER_AGENT.split(" ")[0];
    }

    static Scalar<Boolean> bool() {
        return new Scalar<>(text -> {
            if ("true".equalsIgnoreCase(text)) {
                return true;
            }
            if ("false".equalsIgnoreCase(text)) {
                return false;
            }
            throw new IllegalArgumentException("must be true or false");
        }, none(), String::valueOf);
    }

    static Scalar<Long> longInteger(long min, String rule) {
        return new Scalar<>(KeyType::parseInteger, value -> value < min ? rule : null, String::valueOf);
    }

    static Scalar<Integer> integer(long min, long max, String rule) {
        return new Scalar<>(text -> {
            long value = parseInteger(text);
            if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(rule);
            }
            return (int) value;
        }, value -> value < min || value > max ? rule : null, String::valueOf);
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

    /** A duration, {@link ProfileUnits}; > 0 when {@code positive}, else >= 0. */
    static Scalar<Duration> duration(boolean positive) {
        return new Scalar<>(text -> {
            Duration value = text == null ? null : ProfileUnits.parseDuration(text);
            if (value == null) {
                throw new IllegalArgumentException("must be " + ProfileUnits.DURATION_FORMS);
            }
            return value;
        }, value -> value.isNegative() || (positive && value.isZero()) ? (positive ? "must be > 0" : "must be >= 0")
                : null, ProfileUnits::formatDuration);
    }

    /** A size in bytes, {@link ProfileUnits}, at least {@code min}. */
    static Scalar<Long> size(long min) {
        return new Scalar<>(text -> {
            Long value = text == null ? null : ProfileUnits.parseSize(text);
            if (value == null) {
                throw new IllegalArgumentException("must be " + ProfileUnits.SIZE_FORMS);
            }
            return value;
        }, value -> value < min ? "must be >= " + min : null, ProfileUnits::formatSize);
    }

    /** A probability strictly between 0 and 1, written without an exponent. */
    static Scalar<Double> rate() {
        return new Scalar<>(text -> {
            try {
                return Double.parseDouble(text == null ? "" : text.strip().replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be a number in (0, 1), such as 0.01");
            }
        }, value -> value > 0 && value < 1 ? null : "must be in (0, 1), exclusive",
                value -> BigDecimal.valueOf(value).stripTrailingZeros().toPlainString());
    }

    /**
     * One of {@code type}'s constants, by its lower-case name (any case accepted), written as its {@code toString}:
     * "must be warn or grow" names them all when the text is none of them.
     */
    static <E extends Enum<E>> Scalar<E> oneOf(Class<E> type) {
        List<E> constants = List.of(type.getEnumConstants());
        String rule = "must be " + constants.stream().map(E::toString).collect(Collectors.joining(" or "));
        return new Scalar<>(text -> {
            String name = text == null ? "" : text.strip();
            for (E constant : constants) {
                if (constant.name().equalsIgnoreCase(name)) {
                    return constant;
                }
            }
            throw new IllegalArgumentException(rule);
        }, none(), E::toString);
    }

    static Scalar<Path> folder() {
        return new Scalar<>(text -> {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("must be a folder path");
            }
            try {
                return Path.of(text);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("must be a folder path: " + e.getReason());
            }
        }, none(), path -> yamlText(path.toString()));
    }

    /** Text matching {@code pattern}, else {@code rule}. */
    static Scalar<String> matching(Pattern pattern, String rule) {
        return new Scalar<>(text -> text == null ? "" : text,
                text -> pattern.matcher(text).matches() ? null : rule, KeyType::yamlText);
    }

    static Scalar<String> seed() {
        return new Scalar<>(text -> {
            if (text == null || HttpUrl.parse(text.strip()) == null) {
                throw new IllegalArgumentException("must be an http or https URL");
            }
            return text.strip();
        }, none(), KeyType::yamlText);
    }

    static Scalar<String> hostPattern() {
        String rule = "must be a host name such as example.org or *.example.org, " + ScopeConfig.SAME_AS_SEEDS
                + " or " + ScopeConfig.ANY + " (no scheme, port or path)";
        return new Scalar<>(text -> text == null ? "" : text, text -> {
            if (ScopeConfig.SAME_AS_SEEDS.equals(text) || ScopeConfig.ANY.equals(text)) {
                return null;
            }
            String host = text.startsWith("*.") ? text.substring(2) : text;
            boolean plain = !host.isEmpty() && host.chars().noneMatch(c -> "/@?#*\\ ".indexOf(c) >= 0)
                    && (host.indexOf(':') < 0 || host.startsWith("["));
            return plain && HttpUrl.parse("http://" + host + "/") != null ? null : rule;
        }, KeyType::yamlText);
    }

    /**
     * A query parameter name, or a prefix of names ending in {@code *}: not empty, no {@code =}, {@code &},
     * {@code #}, whitespace or control character, and a {@code *} only at the end after at least one character.
     */
    static Scalar<String> queryParamName() {
        String rule = "must be a query parameter name such as sid, or a prefix ending in * such as utm_* (no =, &, #,"
                + " whitespace, or * but at the end)";
        return new Scalar<>(text -> text == null ? "" : text, text -> {
            int star = text.indexOf('*');
            boolean plain = !text.isEmpty() && (star < 0 || star == text.length() - 1 && star > 0)
                    && text.chars().noneMatch(c -> c <= ' ' || c == 0x7f || c == '=' || c == '&' || c == '#'
                            || Character.isWhitespace(c) || Character.isISOControl(c));
            return plain ? null : rule;
        }, KeyType::yamlText);
    }

    static Scalar<Pattern> regex() {
        return new Scalar<>(text -> {
            if (text == null) {
                throw new IllegalArgumentException("must be a regular expression");
            }
            try {
                return Pattern.compile(text);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("must be a regular expression: " + e.getDescription()
                        + " near index " + e.getIndex());
            }
        }, none(), pattern -> yamlText(pattern.pattern()));
    }

    static Scalar<String> mediaType() {
        return new Scalar<>(text -> {
            if (text == null || !text.strip().matches("[\\w.+-]+/[\\w.+*-]+")) {
                throw new IllegalArgumentException("must be a media type such as text/html");
            }
            return text.strip();
        }, none(), KeyType::yamlText);
    }

    /** A request header, {@code Name: value}, normalized to one space after the colon. */
    static Scalar<String> header() {
        return new Scalar<>(text -> {
            int colon = text == null ? -1 : text.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("must be a header written Name: value");
            }
            return text.substring(0, colon).strip() + ": " + text.substring(colon + 1).strip();
        }, KeyType::headerProblem, KeyType::yamlText);
    }

    /**
     * {@code none} (the environment's proxy variables decide), {@code direct} (no proxy whatever the environment
     * says), or a proxy URL {@code http://host:port}, written back with its port.
     */
    static Scalar<String> proxy() {
        return new Scalar<>(text -> {
            String value = text == null ? "" : text.strip();
            if (value.isEmpty() || value.equalsIgnoreCase(FetchConfig.PROXY_NONE)) {
                return FetchConfig.PROXY_NONE;
            }
            if (value.equalsIgnoreCase(FetchConfig.PROXY_DIRECT)) {
                return FetchConfig.PROXY_DIRECT;
            }
            HttpUrl url = HttpUrl.parse(value);
            if (url == null || !url.scheme().equals("http") || !url.encodedPath().equals("/") || url.query() != null
                    || !url.username().isEmpty() || url.fragment() != null) {
                throw new IllegalArgumentException(PROXY_RULE);
            }
            return "http://" + (url.host().contains(":") ? "[" + url.host() + "]" : url.host()) + ":" + url.port();
        }, value -> value.equals(FetchConfig.PROXY_NONE) || value.equals(FetchConfig.PROXY_DIRECT)
                || value.startsWith("http://") ? null : PROXY_RULE, KeyType::yamlText);
    }

    /**
     * {@code none} (the system's certificate authorities only) or the path of a trust store file, read and checked
     * now ({@link TrustStore#read}): a PEM file of certificates, or a PKCS12 or JKS keystore readable without a
     * password; relative to the working directory. Written back as {@code none} or the path as given.
     */
    static Scalar<TrustStore> trustStore() {
        return new Scalar<>(text -> {
            String value = text == null ? "" : text.strip();
            if (value.equalsIgnoreCase(FetchConfig.TRUST_STORE_NONE)) {
                return TrustStore.SYSTEM;
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException(TRUST_STORE_RULE);
            }
            try {
                return TrustStore.read(Path.of(value));
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException(TRUST_STORE_RULE + ": " + e.getReason());
            } catch (TrustStoreException e) {
                throw new IllegalArgumentException(e.getMessage() + "; " + TRUST_STORE_RULE);
            }
        }, none(), store -> store.isSystem() ? FetchConfig.TRUST_STORE_NONE : yamlText(store.file().toString()));
    }

    String TRUST_STORE_RULE = "must be none or a PEM, PKCS12 or JKS file of CA certificates";

    /** What is wrong with a request header {@code Name: value}, or null. */
    private static String headerProblem(String header) {
        int colon = header.indexOf(':');
        String name = colon < 0 ? "" : header.substring(0, colon).strip();
        if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
            return "must be a header written Name: value, its name letters, digits and !#$%&'*+.^_`|~-";
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("user-agent")) {
            return "must not set User-Agent: use fetch.user-agent";
        }
        if (lower.equals("accept-encoding")) {
            return "must not set Accept-Encoding: the crawler asks for gzip and decodes it itself";
        }
        if (Set.of("host", "content-length", "transfer-encoding", "connection").contains(lower)) {
            return "must not set " + name + ": the HTTP client sets it for each request";
        }
        String value = header.substring(colon + 1);
        if (!value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c < 0x7f))) {
            return "must have a value of printable ASCII characters";
        }
        return null;
    }

    String PROXY_RULE = "must be none (the environment variables http_proxy, https_proxy and no_proxy decide), direct"
            + " (no proxy), or a proxy URL like http://proxy.example:3128";

    /** Words YAML would read as something other than text when written plain. */
    Set<String> YAML_WORDS = Set.of("null", "~", "true", "false", "yes", "no", "on", "off", "y", "n");

    /** Text as a YAML scalar: plain when that reads back the same, else double-quoted (JSON escapes). */
    static String yamlText(String text) {
        boolean plain = text.matches("[A-Za-z0-9_][A-Za-z0-9_./+-]*")
                && !YAML_WORDS.contains(text.toLowerCase(Locale.ROOT));
        return plain ? text : ProfileYaml.quote(text);
    }
}
