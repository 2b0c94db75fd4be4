package org.sievecrawler.profile;

/**
 * Whether a resumed crawl ({@code crawler crawl --resume DIR}) may run with another value of a profile key than the
 * one its checkpoint saved, and if not, why: the column of {@link ProfileKeys} that {@link ProfileChange} reads.
 * Immutable.
 *
 * <p>The line between the two: how fast and how gently the crawl fetches, when it stops and how often it reports
 * may change; what decides which URLs the crawl takes, the Sieve's sizing and the form of its output may not, since
 * the part already crawled was done with the old value and would not be done again.
 */
public enum OnResume {
    /** A resume may give another value: the rest of the crawl runs with it, and its checkpoints record it. */
    MAY_CHANGE(null),
    /** Decides which URLs the crawl takes: seeds, scope, robots.txt, which pages are read for links. */
    FIXED_SCOPE("the keys that decide which URLs the crawl takes are fixed, as the URLs already decided stay decided by"
            + " the old values"),
    /** Sizes the Sieve, whose Bloom filters and pending URLs the checkpoint holds as they were built. */
    FIXED_SIEVE("the keys that size the Sieve are fixed, as the checkpoint holds its filters and pending URLs as they"
            + " were built"),
    /** Where and in what form the crawl writes its output, one form for the whole crawl. */
    FIXED_OUTPUT("the keys of the output are fixed, as a crawl's output keeps one place and form from start to end");

    private final String why;

    OnResume(String why) {
        this.why = why;
    }

    /** Whether a resume may change a key of this kind. */
    public boolean mayChange() {
        return why == null;
    }

    /**
     * Why a resume may not change a key of this kind, as a clause ("the keys that ... are fixed, as ..."); null for
     * {@link #MAY_CHANGE}.
     */
    public String why() {
        return why;
    }
}
