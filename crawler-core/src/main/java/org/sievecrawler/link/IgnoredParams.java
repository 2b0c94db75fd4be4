package org.sievecrawler.link;

import java.util.ArrayList;
import java.util.List;

/**
 * The query parameters {@code scope.ignore-params} names, removed from every URL before the Sieve sees it: each
 * name exact ({@code sid}) or a prefix ending in {@code *} ({@code utm_*}), compared case-sensitively (as URLs
 * are) with a parameter's name as the normalized query writes it, so {@code utm%5Fsource} (an escaped unreserved
 * character, decoded by the normalizer) is {@code utm_source}. A parameter is what lies between two {@code &};
 * its name what comes before its first {@code =}, all of it when there is none.
 *
 * <p>Immutable and thread-safe. A query none of whose parameters starts with a first character of a name costs
 * one table lookup per parameter; a URL without a query costs nothing.
 *
 * <p>Out of scope: checking the names (the profile does, {@code KeyType.queryParamName}); learning which
 * parameters change nothing (issue 30's learned rules).
 */
final class IgnoredParams {
    static final IgnoredParams NONE = new IgnoredParams(List.of());

    /** The names' exact forms and prefixes, normalized as a query is; a prefix has its {@code *} removed. */
    private final String[] exact;
    private final String[] prefixes;
    /** Whether some name or prefix starts with this ASCII character; a non-ASCII first character never does. */
    private final boolean[] firstChars = new boolean[128];

    private IgnoredParams(List<String> names) {
        List<String> exactNames = new ArrayList<>();
        List<String> prefixNames = new ArrayList<>();
        for (String name : names) {
            boolean prefix = name.endsWith("*");
            String normal = UrlNormalizer.normalizeEncoding(prefix ? name.substring(0, name.length() - 1) : name,
                    UrlNormalizer.QUERY_ALLOWED);
            if (normal.isEmpty() || normal.indexOf('&') >= 0 || normal.indexOf('=') >= 0) {
                throw new IllegalArgumentException("scope.ignore-params: \"" + name + "\" is not a query parameter"
                        + " name");
            }
            (prefix ? prefixNames : exactNames).add(normal);
            firstChars[normal.charAt(0)] = true; // normalized: ASCII only
        }
        this.exact = exactNames.toArray(new String[0]);
        this.prefixes = prefixNames.toArray(new String[0]);
    }

    /** The rule for {@code names} (as {@code scope.ignore-params} holds them, already checked). */
    static IgnoredParams of(List<String> names) {
        return names.isEmpty() ? NONE : new IgnoredParams(names);
    }

    boolean isEmpty() {
        return exact.length == 0 && prefixes.length == 0;
    }

    /**
     * {@code query} (normalized, without its {@code ?}) without the named parameters: {@code query} itself when
     * none is named, null when every parameter is, else the others in their order, as written.
     */
    String strip(String query) {
        int n = query.length();
        int start = 0;
        StringBuilder kept = null;
        boolean anyKept = false;
        while (start <= n) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = n;
            }
            boolean drop = matches(query, start, end);
            if (drop && kept == null) {
                kept = new StringBuilder(n).append(query, 0, Math.max(0, start - 1));
            } else if (!drop && kept != null) {
                if (anyKept) {
                    kept.append('&');
                }
                kept.append(query, start, end);
            }
            anyKept |= !drop;
            start = end + 1;
        }
        if (kept == null) {
            return query;
        }
        return anyKept ? kept.toString() : null;
    }

    /** Whether the parameter {@code query[start, end)} has a named name. */
    private boolean matches(String query, int start, int end) {
        if (start == end) {
            return false; // an empty parameter ("a=1&&b=2") has no name to match
        }
        char first = query.charAt(start);
        if (first >= 128 || !firstChars[first]) {
            return false;
        }
        int eq = query.indexOf('=', start);
        int nameEnd = eq < 0 || eq > end ? end : eq;
        int length = nameEnd - start;
        for (String name : exact) {
            if (name.length() == length && query.startsWith(name, start)) {
                return true;
            }
        }
        for (String prefix : prefixes) {
            if (prefix.length() <= length && query.startsWith(prefix, start)) {
                return true;
            }
        }
        return false;
    }
}
