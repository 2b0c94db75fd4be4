package org.sievecrawler.bench;

import org.sievecrawler.fixtures.UrlCorpus;

/** The URL sets the benchmarks share within one JVM: generated once, reused by every trial in a fork. */
final class Corpus {
    static final int N = Integer.getInteger("bench.n", 10_000_000);
    static final int ABSENT = Integer.getInteger("bench.absent", 2_000_000);
    private static final UrlCorpus URLS = new UrlCorpus(20261121L);
    private static String[] present;
    private static String[] absent;

    private Corpus() {
    }

    /** N distinct URL-like strings (corpus indexes [0, N)). */
    static synchronized String[] present() {
        if (present == null) {
            present = URLS.urls(0, N);
        }
        return present;
    }

    /** ABSENT URLs disjoint from {@link #present()} (corpus indexes from 1e9). */
    static synchronized String[] absent() {
        if (absent == null) {
            absent = URLS.urls(1_000_000_000L, 1_000_000_000L + ABSENT);
        }
        return absent;
    }
}
