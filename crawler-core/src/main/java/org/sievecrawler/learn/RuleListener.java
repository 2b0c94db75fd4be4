package org.sievecrawler.learn;

/**
 * Told when the crawl learns a rule or undoes one: where rules.jsonl, the log and the counters hear of them.
 * Called from the parse threads, at most once per rule for each event; implementations are thread-safe.
 */
public interface RuleListener {
    /** A listener that does nothing. */
    RuleListener NONE = new RuleListener() {
        @Override
        public void learned(Rule rule) {
        }

        @Override
        public void undone(Rule rule, String url, String why) {
        }
    };

    /** {@code rule} was learned and is applied from now on. */
    void learned(Rule rule);

    /**
     * {@code rule} was undone: {@code url}, a URL it would have refused or rewritten and that was fetched as a sample,
     * turned out to be a page with new content ({@code why} says how). It is not applied, nor learned again, from now on.
     */
    void undone(Rule rule, String url, String why);
}
