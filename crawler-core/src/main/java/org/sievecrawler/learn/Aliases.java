package org.sievecrawler.learn;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sievecrawler.parse.SimHash;

/**
 * Evidence for aliases across templates (the DUST rules of Bar-Yossef et al.): a parameter or a path segment whose
 * presence does not change a page. For each fetched page it looks up, among the recently fetched pages, the URL
 * without each of its query parameters ({@code /list?page=3&print=1} without {@code print}) and without each of its
 * first {@value #MAX_POSITION} path segments but the last ({@code /print/a/1} without {@code print}); each one found
 * is a pair, counted {@code same} when the two pages are near-duplicates and {@code changed} when not, per host and
 * candidate ({@code print} as a parameter; {@code print} as segment 1).
 *
 * <p>Only literal segments are candidates (not a number, date, id or token: {@link UrlTemplate}), of at most
 * {@value #MAX_SEGMENT} characters without {@code ;params}; a page's last segment never is (a file name: dropping
 * {@code index.html} would rewrite a doc site's pages), nor is a segment next to its double ({@code /test/test/}:
 * rustdoc's re-exported module {@code test::test} has the pages of {@code test}, which are real pages of the
 * package; a path that repeats itself is {@code scope.max-repeated-segments}' trap, not an alias).
 *
 * <p>Memory: the recent pages are a direct-mapped table of {@value #SLOTS} (URL hash, fingerprint) slots, 16 bytes
 * each (1 MB), in which a newer page replaces an older one on its slot (a pair is only found while its partner is
 * there); the counts are kept for at most {@value #PER_HOST} candidates a host and {@value #TOTAL} in all, least
 * recently counted first out, ~{@value #CANDIDATE_BYTES} bytes each with its strings.
 *
 * <p>Thread-safe: one lock.
 */
final class Aliases {
    static final int SLOTS = 1 << 16;
    static final int MAX_POSITION = 4;
    static final int MAX_SEGMENT = 32;
    static final int PER_HOST = 64;
    static final int TOTAL = 20_000;
    static final int CANDIDATE_BYTES = 160;
    private static final int MAX_PARAMS = 8;

    /** A parameter or segment of a host and its pairs. */
    record Candidate(Rule.Kind kind, String host, String name, int position, int same, int changed) {
    }

    /** What recording one page showed: candidates now quiet (enough pairs, all same), and ones it contradicted. */
    record Found(List<Candidate> quiet, List<Candidate> contradicted) {
        static final Found NONE = new Found(List.of(), List.of());
    }

    private final long[] keys = new long[SLOTS];
    private final long[] prints = new long[SLOTS];
    private final LinkedHashMap<String, LinkedHashMap<String, int[]>> hosts = new LinkedHashMap<>(16, 0.75f, true);
    private int candidates;

    /** Records a page fetched from {@code url} of {@code host} with {@code fingerprint}; its pairs, if any. */
    synchronized Found record(String host, String url, long fingerprint, int minPairs) {
        Found found = Found.NONE;
        int q = url.indexOf('?');
        if (q >= 0) {
            int end = url.indexOf('#');
            end = end < 0 ? url.length() : end;
            int from = q + 1;
            List<String> names = new ArrayList<>(2);
            while (from < end && names.size() < MAX_PARAMS) {
                int amp = url.indexOf('&', from);
                int to = amp < 0 || amp > end ? end : amp;
                int eq = url.indexOf('=', from);
                int nameEnd = eq < 0 || eq > to ? to : eq;
                if (nameEnd > from && nameEnd - from <= MAX_SEGMENT) {
                    String name = url.substring(from, nameEnd);
                    if (!names.contains(name)) {
                        names.add(name);
                        found = pair(found, host, Rule.Kind.ALIAS_PARAM, name, -1, UrlEdit.withoutParam(url, name),
                                fingerprint, minPairs);
                    }
                }
                from = to + 1;
            }
        }
        int pathStart = UrlEdit.pathStart(url);
        if (pathStart >= 0) {
            int pathEnd = UrlEdit.pathEnd(url, pathStart);
            // the bounds of the first MAX_POSITION + 1 segments: segment i is url[starts[i], ends[i])
            int[] starts = new int[MAX_POSITION + 1];
            int[] ends = new int[MAX_POSITION + 1];
            int segments = 0;
            for (int from = pathStart + 1; segments <= MAX_POSITION && from <= pathEnd; segments++) {
                int slash = url.indexOf('/', from);
                int to = slash < 0 || slash >= pathEnd ? pathEnd : slash;
                starts[segments] = from;
                ends[segments] = to;
                if (to == pathEnd) {
                    segments++;
                    break;
                }
                from = to + 1;
            }
            for (int i = 0; i + 1 < segments && i < MAX_POSITION; i++) { // never the last segment
                int length = ends[i] - starts[i];
                int semicolon = url.indexOf(';', starts[i]);
                if (length > 0 && length <= MAX_SEGMENT && (semicolon < 0 || semicolon >= ends[i])) {
                    String segment = url.substring(starts[i], ends[i]);
                    boolean doubled = i > 0 && ends[i - 1] - starts[i - 1] == length
                            && url.regionMatches(starts[i - 1], segment, 0, length)
                            || ends[i + 1] - starts[i + 1] == length && url.regionMatches(starts[i + 1], segment, 0, length);
                    if (!doubled && UrlTemplate.kind(url, starts[i], ends[i]) == null) {
                        found = pair(found, host, Rule.Kind.ALIAS_SEGMENT, segment, i,
                                url.substring(0, starts[i]) + url.substring(ends[i] + 1), fingerprint, minPairs);
                    }
                }
            }
        }
        long key = hash(url);
        int slot = slot(key);
        keys[slot] = key;
        prints[slot] = fingerprint;
        return found;
    }

    /** The estimated bytes kept: the table and the candidates. */
    synchronized long estimatedBytes() {
        return 16L * SLOTS + (long) CANDIDATE_BYTES * candidates;
    }

    private Found pair(Found found, String host, Rule.Kind kind, String name, int position, String other,
            long fingerprint, int minPairs) {
        if (other == null) {
            return found;
        }
        long key = hash(other);
        int slot = slot(key);
        if (keys[slot] != key || key == 0) {
            return found;
        }
        boolean same = SimHash.distance(prints[slot], fingerprint) <= SimHash.NEAR_BITS;
        int[] count = count(host, (kind == Rule.Kind.ALIAS_PARAM ? "?" : position + "/") + name);
        count[same ? 0 : 1]++;
        Candidate candidate = new Candidate(kind, host, name, position, count[0], count[1]);
        if (!same) {
            List<Candidate> contradicted = new ArrayList<>(found.contradicted());
            contradicted.add(candidate);
            return new Found(found.quiet(), contradicted);
        }
        if (count[1] == 0 && count[0] >= minPairs) {
            List<Candidate> quiet = new ArrayList<>(found.quiet());
            quiet.add(candidate);
            return new Found(quiet, found.contradicted());
        }
        return found;
    }

    private int[] count(String hostName, String candidate) {
        LinkedHashMap<String, int[]> host = hosts.computeIfAbsent(hostName, h -> new LinkedHashMap<>(8, 0.75f, true));
        int[] count = host.get(candidate);
        if (count != null) {
            return count;
        }
        if (host.size() >= PER_HOST) {
            evictEldest(hostName, host);
        }
        while (candidates >= TOTAL) {
            Map.Entry<String, LinkedHashMap<String, int[]>> eldest = hosts.entrySet().iterator().next();
            evictEldest(eldest.getKey(), eldest.getValue());
        }
        if (!hosts.containsKey(hostName)) {
            hosts.put(hostName, host);
        }
        count = new int[2];
        host.put(candidate, count);
        candidates++;
        return count;
    }

    private void evictEldest(String hostName, LinkedHashMap<String, int[]> host) {
        Iterator<Map.Entry<String, int[]>> eldest = host.entrySet().iterator();
        eldest.next();
        eldest.remove();
        candidates--;
        if (host.isEmpty()) {
            hosts.remove(hostName);
        }
    }

    private static int slot(long key) {
        return (int) (key ^ (key >>> 29)) & (SLOTS - 1);
    }

    /** 64-bit FNV-1a of the URL's characters. */
    static long hash(String url) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < url.length(); i++) {
            hash = (hash ^ url.charAt(i)) * 0x100000001b3L;
        }
        return hash;
    }
}
