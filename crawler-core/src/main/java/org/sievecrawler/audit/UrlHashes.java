package org.sievecrawler.audit;

import org.sievecrawler.graph.LinksFile;

/**
 * A set of URLs held as 32-bit hashes, to keep the link graph's edges that cannot be part of a finding out of the
 * audit's sorts (brokenLinks: edges into URLs that are not broken; orphans: edges into URLs no sitemap lists). A
 * prefilter, never the answer: {@link #mightContain} may say yes for a URL not added (two URLs with one hash), never
 * no for one added; the join that follows compares the URLs themselves, so a false yes costs one line in a sort, not
 * a wrong finding. With n URLs held, a URL not added is let through with a chance of about n / 2^32 (7 x 10^-9 at
 * 28, the broken URLs of rust-doc; 5 x 10^-4 at 2 M: ~1,100 lines more to sort out of 2.35 M edges).
 *
 * <p>An open-addressing table of the URLs' {@link LinksFile#hash}es (what a filtered read of links.tsv.zst tells of
 * each target without decoding it), mixed, at most half full: 8 to 16 bytes a URL, at most {@link #MAX} URLs (16 MB,
 * a table of 4 M ints; 24 MB while it grows to it); past that it holds none and lets every URL through (the sort
 * then takes every edge, in bounded memory, as without a prefilter). Not thread-safe: {@link #add} all, then
 * {@link #mightContain}.
 */
public final class UrlHashes {
    /** URLs held at most. */
    static final int MAX = 1 << 21;

    private final int max;
    private int[] table = new int[64];
    private int size;
    private boolean hasZero;
    private boolean everything;

    public UrlHashes() {
        this(MAX);
    }

    /** A set holding at most {@code max} URLs (tests pass a small one). */
    UrlHashes(int max) {
        this.max = max;
    }

    public void add(String url) {
        if (everything) {
            return;
        }
        int h = mix(LinksFile.hash(url));
        if (h == 0) { // 0 marks an empty slot
            hasZero = true;
            return;
        }
        if (size == max) {
            everything = true;
            table = null;
            return;
        }
        if (2 * (size + 1) > table.length) {
            grow();
        }
        if (put(table, h)) {
            size++;
        }
    }

    private void grow() {
        int[] bigger = new int[2 * table.length];
        for (int h : table) {
            if (h != 0) {
                put(bigger, h);
            }
        }
        table = bigger;
    }

    private static boolean put(int[] table, int h) {
        int mask = table.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            if (table[i] == h) {
                return false;
            }
            if (table[i] == 0) {
                table[i] = h;
                return true;
            }
        }
    }

    /** Whether nothing was added. */
    public boolean isEmpty() {
        return !everything && !hasZero && size == 0;
    }

    /** Whether {@code url} may have been added: always true for one that was, and past {@link #MAX}. */
    public boolean mightContain(String url) {
        return mightContain(LinksFile.hash(url));
    }

    /** Whether a URL of {@link LinksFile#hash} {@code urlHash} may have been added. */
    public boolean mightContain(int urlHash) {
        if (everything) {
            return true;
        }
        int h = mix(urlHash);
        if (h == 0) {
            return hasZero;
        }
        int mask = table.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            if (table[i] == h) {
                return true;
            }
            if (table[i] == 0) {
                return false;
            }
        }
    }

    /** {@code hash} mixed so that its low bits vary with all of its bits. */
    private static int mix(int hash) {
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
