package org.sievecrawler.learn;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.sievecrawler.parse.SimHash;

/**
 * What the pages fetched of each URL template had in common: per host and {@link UrlTemplate}, how many pages
 * were recorded and how many were near-duplicates (SimHash within {@link SimHash#NEAR_BITS} bits) of an earlier
 * page of the same template, and per parameter of the template whether changing only its value ever
 * changed the page: the evidence for issue 30's rules ("{@code ?sid=} does not change content", "this calendar
 * template yields only duplicates"), not the rules themselves.
 *
 * <p>A page is a near-duplicate when its fingerprint is within {@value SimHash#NEAR_BITS} bits of one of the
 * {@value #RECENT} most recent <em>distinct</em> fingerprints of its template (a page that is no near-duplicate
 * becomes one of them, the oldest leaves). A trap's pages all look alike, so after its first page every page
 * counts; distinct pages (articles, the pages of a real list) never do, but for the chance that two
 * fingerprints are within 3 bits, for random ones (1 + 64 + C(64,2) + C(64,3)) / 2^64 = 43,745 / 2^64 ~ 2.4e-15 per
 * comparison (real pages of one site share words and so bits: the trap site's 221 real pages are all more than 3
 * bits apart, CrawlerDuplicateTrapsTest).
 *
 * <p>Parameters: for each of a URL's first {@value #MAX_PARAMS} parameters, path parameters first (named with
 * their {@code ;}: {@code ;jsessionid}) then query parameters, the URL with that parameter's
 * value left out is hashed (64 bits) into a pair key. The {@value #PAIR_SLOTS} most recent keys of each (template,
 * parameter) are kept with the value's hash and the page's fingerprint; a URL whose key is kept with another
 * value is a pair of URLs equal but for that parameter, and the pair is counted {@code same} (near-duplicate
 * pages) or {@code changed}. A parameter with many {@code same} pairs and no {@code changed} one is a
 * parameter that does not change content ({@code sid}, {@code utm_campaign}, {@code sort}); one {@code changed}
 * pair (a real list's {@code page}) marks it as one that does. A pair is only found while its partner is among
 * the kept keys: a parameter whose URLs never come back with the rest equal gives no evidence either way.
 *
 * <p>Memory, bounded by {@link Caps}: at most {@code templatesPerHost} templates per host and
 * {@code templates} in all (least recently recorded first out: the host recorded least recently gives up its
 * least recently recorded template), at most {@value #MAX_PARAMS} parameters per template, names cut to
 * {@value #MAX_NAME} characters. {@link #estimatedBytes()} counts {@value #TEMPLATE_BYTES} bytes per template
 * plus its host and pattern's characters, and {@value #PARAM_BYTES} per parameter followed. Measured
 * (TemplateStatsTest, 1,000,000 random URLs over 10,000 hosts, caps 20,000 and 200, 0 to 3 parameters a URL): the
 * heap held after GC was 15.6 MB, 781 bytes a template, against an estimate of 18.6 MB. The defaults,
 * {@link Caps#DEFAULTS}, 20,000 templates and 1,000 a host, hold ~16 MB on such URLs and at most 20,000 x (400 +
 * 8 x 352 + the strings) ~ 70 MB if every template had eight parameters. A doc site names every page by words,
 * so every page is a template of its own (rust-doc: 21,738 pages, 21,738 templates): past the per-host cap the
 * oldest are forgotten, which costs nothing there, as a template of one page teaches nothing.
 *
 * <p>Thread-safe: every method takes the one lock of the structure (one short critical section per fetched page;
 * it is meant to be called from the parse threads; the template is computed before the lock is taken). Out of
 * scope: computing fingerprints ({@link SimHash}), comparing pages across templates ({@code /print/a/1} against
 * {@code /a/1}), and deciding or applying rules.
 */
public final class TemplateStats {
    /** Distinct fingerprints kept per template. */
    public static final int RECENT = 4;
    /** Parameters (path parameters, then query parameters) followed per template. */
    public static final int MAX_PARAMS = 8;
    /** Pair keys kept per (template, parameter). */
    public static final int PAIR_SLOTS = 8;
    /** Characters of a parameter name kept. */
    public static final int MAX_NAME = 64;
    /** Estimated bytes of a template without its strings and parameters (see the class comment). */
    public static final int TEMPLATE_BYTES = 400;
    /** Estimated bytes of a followed parameter with its name of up to ~16 characters. */
    public static final int PARAM_BYTES = 352;

    /** The bounds of a {@code TemplateStats}. */
    public record Caps(int templates, int templatesPerHost) {
        public static final Caps DEFAULTS = new Caps(20_000, 1_000);

        public Caps {
            if (templates < 1 || templatesPerHost < 1 || templatesPerHost > templates) {
                throw new IllegalArgumentException("template caps must be >= 1 and templatesPerHost <= templates:"
                        + " templates " + templates + ", templatesPerHost " + templatesPerHost);
            }
        }
    }

    /** The counts of one template: pages, near-duplicates, and per parameter name its pairs. */
    public record Counts(int pages, int nearDuplicates, Map<String, ParamCounts> params) {
    }

    /** Pairs of URLs of a template equal but for one parameter's value: near-duplicate pages, or not. */
    public record ParamCounts(int same, int changed) {
    }

    private final Caps caps;
    /** Hosts, least recently recorded first; each host's templates, least recently recorded first. */
    private final LinkedHashMap<String, LinkedHashMap<String, Template>> hosts = new LinkedHashMap<>(16, 0.75f, true);
    private int templates;
    private long bytes;

    public TemplateStats(Caps caps) {
        this.caps = caps;
    }

    /**
     * What recording one page showed of its template.
     *
     * @param template the page's template
     * @param nearDuplicate whether the page was a near-duplicate of one of its template's recent distinct pages
     * @param pages the template's pages recorded, this one included
     * @param nearDuplicates how many of them were near-duplicates
     * @param quietParams the template's parameters with at least {@code minPairs} pairs, all near-duplicates
     * @param quietPairs for each of {@code quietParams}, its pairs
     * @param changedParams the template's parameters with a pair whose pages differ
     */
    public record Seen(UrlTemplate template, boolean nearDuplicate, int pages, int nearDuplicates,
            List<String> quietParams, List<Integer> quietPairs, List<String> changedParams) {
    }

    /** Records a fetched page: its URL (as the Sieve saw it) and the 64-bit SimHash of its visible text. */
    public void record(String url, long fingerprint) {
        record(url, fingerprint, Integer.MAX_VALUE);
    }

    /**
     * Records a fetched page, as {@link #record(String, long)}, and says what its template's counts are now, a
     * parameter being quiet from {@code minPairs} pairs on.
     */
    public Seen record(String url, long fingerprint, int minPairs) {
        UrlTemplate template = UrlTemplate.of(url);
        synchronized (this) {
            LinkedHashMap<String, Template> host = hosts.computeIfAbsent(template.host(),
                    h -> new LinkedHashMap<>(16, 0.75f, true));
            Template t = host.get(template.pattern());
            if (t == null) {
                if (host.size() >= caps.templatesPerHost()) {
                    evictEldest(template.host(), host);
                }
                while (templates >= caps.templates()) {
                    Map.Entry<String, LinkedHashMap<String, Template>> eldest = hosts.entrySet().iterator().next();
                    evictEldest(eldest.getKey(), eldest.getValue());
                }
                if (!hosts.containsKey(template.host())) { // the host itself was the eldest and was emptied
                    hosts.put(template.host(), host);
                }
                t = new Template();
                host.put(template.pattern(), t);
                templates++;
                bytes += TEMPLATE_BYTES + template.host().length() + template.pattern().length();
            }
            boolean near = t.record(url, fingerprint);
            bytes += t.takeNewBytes();
            return t.seen(template, near, minPairs);
        }
    }

    /** The counts of {@code template}, if it is kept. */
    public synchronized Optional<Counts> counts(UrlTemplate template) {
        LinkedHashMap<String, Template> host = hosts.get(template.host());
        Template t = host == null ? null : host.get(template.pattern());
        return t == null ? Optional.empty() : Optional.of(t.counts());
    }

    /** Templates kept. */
    public synchronized int templates() {
        return templates;
    }

    /** Hosts with a template kept. */
    public synchronized int hosts() {
        return hosts.size();
    }

    /** The estimated bytes of what is kept (see the class comment). */
    public synchronized long estimatedBytes() {
        return bytes;
    }

    private void evictEldest(String hostName, LinkedHashMap<String, Template> host) {
        Iterator<Map.Entry<String, Template>> eldest = host.entrySet().iterator();
        Map.Entry<String, Template> entry = eldest.next();
        bytes -= TEMPLATE_BYTES + hostName.length() + entry.getKey().length() + entry.getValue().paramBytes();
        eldest.remove();
        templates--;
        if (host.isEmpty()) {
            hosts.remove(hostName);
        }
    }

    /** One template's counters. Guarded by the lock of the enclosing {@code TemplateStats}. */
    private static final class Template {
        private int pages;
        private int nearDuplicates;
        private final long[] recent = new long[RECENT];
        private int recentNext;
        private int recentUsed;
        private Param[] params = new Param[0];
        private long newBytes;

        /** Records a page; whether it was a near-duplicate of a recent one. */
        boolean record(String url, long fingerprint) {
            pages++;
            boolean near = false;
            for (int i = 0; i < recentUsed; i++) {
                if (SimHash.distance(recent[i], fingerprint) <= SimHash.NEAR_BITS) {
                    near = true;
                    break;
                }
            }
            if (near) {
                nearDuplicates++;
            } else {
                recent[recentNext] = fingerprint;
                recentNext = (recentNext + 1) % RECENT;
                recentUsed = Math.min(recentUsed + 1, RECENT);
            }
            recordParams(url, fingerprint);
            return near;
        }

        Seen seen(UrlTemplate template, boolean near, int minPairs) {
            List<String> quiet = List.of();
            List<Integer> quietPairs = List.of();
            List<String> changed = List.of();
            for (Param p : params) {
                if (p.changed > 0) {
                    changed = changed.isEmpty() ? new ArrayList<>(2) : changed;
                    changed.add(p.name);
                } else if (p.same >= minPairs) {
                    quiet = quiet.isEmpty() ? new ArrayList<>(2) : quiet;
                    quietPairs = quietPairs.isEmpty() ? new ArrayList<>(2) : quietPairs;
                    quiet.add(p.name);
                    quietPairs.add(p.same);
                }
            }
            return new Seen(template, near, pages, nearDuplicates, quiet, quietPairs, changed);
        }

        /**
         * For each path parameter ({@code ;jsessionid=...}, named with its {@code ;}) and query parameter: the
         * hash of the URL without its value, and of the value.
         */
        private void recordParams(String url, long fingerprint) {
            int hashMark = url.indexOf('#');
            int end = hashMark < 0 ? url.length() : hashMark;
            int q = url.indexOf('?');
            q = q < 0 || q > end ? end : q;
            int authority = url.indexOf("://");
            int pathStart = url.indexOf('/', authority < 0 ? 0 : authority + 3);
            int seen = 0;
            for (int semicolon = pathStart < 0 ? -1 : url.indexOf(';', pathStart);
                    semicolon >= 0 && semicolon < q && seen < MAX_PARAMS; semicolon = url.indexOf(';', semicolon + 1)) {
                int to = semicolon + 1;
                while (to < q && url.charAt(to) != ';' && url.charAt(to) != '/') {
                    to++;
                }
                seen++;
                param(url, semicolon, semicolon + 1, to, end, fingerprint);
            }
            int from = q + 1;
            while (from < end && seen < MAX_PARAMS) {
                int amp = url.indexOf('&', from);
                int to = amp < 0 || amp > end ? end : amp;
                if (to > from) {
                    seen++;
                    param(url, from, from, to, end, fingerprint);
                }
                if (amp < 0 || amp > end) {
                    break;
                }
                from = amp + 1;
            }
        }

        /** Records parameter {@code url[nameFrom, to)} (named from {@code nameAt}) of a URL ending at {@code end}. */
        private void param(String url, int nameAt, int nameFrom, int to, int end, long fingerprint) {
            int eq = url.indexOf('=', nameFrom);
            int nameEnd = eq < 0 || eq > to ? to : eq;
            int valueFrom = Math.min(nameEnd + 1, to);
            long key = fnv(url, 0, valueFrom, FNV_OFFSET);
            key = fnv(url, to, end, key * 31 + 0x5bd1e995L);
            long value = fnv(url, valueFrom, to, FNV_OFFSET);
            Param param = param(url.substring(nameAt, Math.min(nameEnd, nameAt + MAX_NAME)));
            if (param != null) {
                param.record(key, value, fingerprint);
            }
        }

        private Param param(String name) {
            for (Param p : params) {
                if (p.name.equals(name)) {
                    return p;
                }
            }
            if (params.length >= MAX_PARAMS) {
                return null;
            }
            Param p = new Param(name);
            params = java.util.Arrays.copyOf(params, params.length + 1);
            params[params.length - 1] = p;
            newBytes += PARAM_BYTES + Math.max(0, name.length() - 16);
            return p;
        }

        long takeNewBytes() {
            long taken = newBytes;
            newBytes = 0;
            return taken;
        }

        long paramBytes() {
            long sum = 0;
            for (Param p : params) {
                sum += PARAM_BYTES + Math.max(0, p.name.length() - 16);
            }
            return sum;
        }

        Counts counts() {
            Map<String, ParamCounts> byName = new TreeMap<>();
            for (Param p : params) {
                byName.put(p.name, new ParamCounts(p.same, p.changed));
            }
            return new Counts(pages, nearDuplicates, java.util.Collections.unmodifiableMap(byName));
        }
    }

    /** One (template, parameter): the recent pair keys, with the value and the fingerprint each was seen with. */
    private static final class Param {
        final String name;
        final long[] keys = new long[PAIR_SLOTS];
        final long[] values = new long[PAIR_SLOTS];
        final long[] fingerprints = new long[PAIR_SLOTS];
        int used;
        int next;
        int same;
        int changed;

        Param(String name) {
            this.name = name;
        }

        void record(long key, long value, long fingerprint) {
            for (int i = 0; i < used; i++) {
                if (keys[i] == key) {
                    if (values[i] != value) {
                        if (SimHash.distance(fingerprints[i], fingerprint) <= SimHash.NEAR_BITS) {
                            same++;
                        } else {
                            changed++;
                        }
                        values[i] = value;
                        fingerprints[i] = fingerprint;
                    }
                    return;
                }
            }
            keys[next] = key;
            values[next] = value;
            fingerprints[next] = fingerprint;
            next = (next + 1) % PAIR_SLOTS;
            used = Math.min(used + 1, PAIR_SLOTS);
        }
    }

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;

    private static long fnv(String s, int from, int to, long hash) {
        for (int i = from; i < to; i++) {
            hash = (hash ^ s.charAt(i)) * 0x100000001b3L;
        }
        return hash;
    }
}
