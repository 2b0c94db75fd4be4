package org.sievecrawler.learn;

import java.util.List;

/**
 * The frontier's learning (issue 30): it watches the pages the crawl fetched ({@link #observe}), learns {@link Rule}s
 * from what their URL templates and fingerprints have in common, and applies them: to a link before the Sieve sees
 * it ({@link #rewrite}) and to a URL taken from the frontier before it is fetched ({@link #atLease}).
 *
 * <p>Thread-safe.
 */
public final class Learner {
    /** What a rule did over the crawl: refused URLs (at lease), rewritten URLs (links and leases), samples fetched. */
    public record Tally(Rule rule, boolean undone, long refused, long rewritten, long sampled) {
    }

    /** What to do with a URL taken from the frontier. */
    public sealed interface Verdict {
        /** Fetch it. */
        record Admit() implements Verdict {
        }

        /** Do not fetch it: record it as a trap, naming the rule. */
        record Refuse(Rule rule) implements Verdict {
        }

        /** Fetch it although {@code rule} would refuse or rewrite it: a sample that may undo the rule. */
        record Sample(Rule rule) implements Verdict {
        }

        /** Do not fetch it: record it as a trap, naming the rule, and follow {@code url} (its rewrite) instead. */
        record Rewrite(String url, Rule rule) implements Verdict {
        }

        Verdict ADMIT = new Admit();
    }

    private final boolean on;
    private final RuleListener listener;

    private Learner(boolean on, RuleListener listener) {
        this.on = on;
        this.listener = listener;
    }

    /** A learner with the default bounds, telling {@code listener} of the rules it learns and undoes. */
    public static Learner learning(RuleListener listener) {
        return new Learner(true, listener);
    }

    /** A learner that learns nothing and applies nothing ({@code scope.learn-duplicates: false}). */
    public static Learner off() {
        return new Learner(false, RuleListener.NONE);
    }

    /** Whether it learns at all. */
    public boolean learns() {
        return on;
    }

    /**
     * {@code url} (normalized) as the rules in force rewrite it, or {@code url} itself (the same instance) when none
     * does.
     */
    public String rewrite(String url) {
        return url;
    }

    /** What to do with {@code url}, a page's URL taken from the frontier. */
    public Verdict atLease(String url) {
        return Verdict.ADMIT;
    }

    /** A page fetched from {@code url} (2xx, HTML) whose visible text has SimHash {@code fingerprint} (0: none). */
    public void observe(String url, long fingerprint) {
    }

    /** URL templates it keeps evidence for now (bounded: see {@link TemplateStats.Caps}). */
    public int templates() {
        return 0;
    }

    /** The estimated bytes of the evidence it keeps: templates, parameters, aliases and recent fingerprints. */
    public long estimatedBytes() {
        return 0;
    }

    /** Every rule learned so far, undone ones too, in the order learned, with what each did. */
    public List<Tally> tally() {
        return List.of();
    }
}
