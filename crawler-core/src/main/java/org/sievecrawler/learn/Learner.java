package org.sievecrawler.learn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The frontier's learning (issue 30): it watches the pages the crawl fetched ({@link #observe}), learns
 * {@link Rule}s from what their URLs and fingerprints have in common, and applies them: to a link before the Sieve
 * sees it ({@link #rewrite}) and to a URL taken from the frontier before it is fetched ({@link #atLease}), so a URL
 * admitted before its rule was learned is not fetched either.
 *
 * <p>What it learns, from {@link TemplateStats} and {@link Aliases}:
 * <ul>
 * <li>{@link Rule.Kind#DROP_PARAM}: a parameter of a template with {@value #MIN_PAIRS} pairs of pages that differ
 *     only in its value, all near-duplicates, none not ({@code ?sid=}, {@code ;jsessionid=}, a calendar's
 *     {@code ?date=}, a shop's {@code ?sort=}): dropped from the template's URLs;
 * <li>{@link Rule.Kind#SKIP_TEMPLATE}: a template with a variable part and {@value #MIN_PAGES} pages fetched, at least
 *     nine in ten of them (after the first) near-duplicates of an earlier one ({@code /cal/{n}/{n}/{n}/}): its URLs
 *     are not fetched;
 * <li>{@link Rule.Kind#ALIAS_PARAM}, {@link Rule.Kind#ALIAS_SEGMENT}: a parameter or a path segment with
 *     {@value #MIN_PAIRS} pages that are near-duplicates of the page without it and none that is not
 *     ({@code ?print=1}, {@code /print/...}): dropped from the host's URLs.
 * </ul>
 * A template whose pages differ, or a parameter or segment one of whose pairs differs, gives no rule.
 *
 * <p>The safety net: of the URLs each rule would rewrite or refuse, the 1st, 2nd, 4th, ... {@value #FIRST_SAMPLES}th and
 * then one in {@value #SAMPLE_EVERY} are fetched anyway (samples), and every page fetched that a rule in force covers (a sample, or one leased before its rule) is a
 * test of the rule: a page of a skipped template that is no near-duplicate of the template's pages, a parameter's
 * pair whose pages differ, an alias's pair whose pages differ, undoes the rule. An undone rule is not learned again
 * in the crawl.
 *
 * <p>Thread-safe: {@link #observe} from the parse threads, {@link #rewrite} and {@link #atLease} from any thread.
 * Learning and undoing take one lock; applying rules takes none.
 */
public final class Learner {
    /** Pages a template needs before it may be skipped. */
    public static final int MIN_PAGES = 20;
    /** Pairs a parameter or an alias needs before it may be dropped. */
    public static final int MIN_PAIRS = 8;
    /** One in this many URLs a rule would rewrite or refuse is fetched, as a sample. */
    public static final int SAMPLE_EVERY = 50;
    private static final int SAMPLE_SLOTS = 4096;
    /** The URLs a rule applies to up to this one are sampled at each power of two. */
    public static final int FIRST_SAMPLES = 16;
    /** Rules learned in a crawl at most (in force or undone, ~300 bytes each); past it, none is learned. */
    public static final int MAX_RULES = 10_000;
    /** Rules learned for one host at most, so that one host cannot take every other's. */
    public static final int MAX_RULES_PER_HOST = 100;

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

    /** A rule learned, in force or undone, and its counts. */
    private static final class State {
        final Rule rule;
        volatile boolean undone;
        final AtomicLong applied = new AtomicLong();
        final AtomicLong refused = new AtomicLong();
        final AtomicLong rewritten = new AtomicLong();
        final AtomicLong sampled = new AtomicLong();

        State(Rule rule) {
            this.rule = rule;
        }

        /**
         * Counts one more URL the rule applies to; whether it is to be a sample: the 1st, 2nd, 4th, 8th and 16th (a
         * rule is tested most while it is young, when a wrong one would cost most), then one in {@value
         * #SAMPLE_EVERY}.
         */
        boolean sample() {
            long n = applied.incrementAndGet();
            if (n <= FIRST_SAMPLES && Long.bitCount(n) == 1 || n % SAMPLE_EVERY == 0) {
                sampled.incrementAndGet();
                return true;
            }
            return false;
        }
    }

    private final boolean on;
    private final RuleListener listener;
    private final TemplateStats stats;
    private final Aliases aliases;
    private final RuleBook book = new RuleBook();
    /** Every rule learned, by its key; added to under {@code this}. */
    private final Map<String, State> states = new ConcurrentHashMap<>();
    /** The templates ("host\tpattern") a parameter was dropped from: not skipped as well. Guarded by {@code this}. */
    private final Set<String> dropped = new HashSet<>();
    /** Rules learned per host. Guarded by {@code this}. */
    private final Map<String, Integer> perHost = new HashMap<>();
    /** The same, in the order learned. Guarded by {@code this}. */
    private final List<State> order = new ArrayList<>();
    /** URL hashes of the links let through as samples, so their lease fetches them. Guarded by itself. */
    private final long[] samples = new long[SAMPLE_SLOTS];

    private Learner(boolean on, TemplateStats.Caps caps, RuleListener listener) {
        this.on = on;
        this.listener = listener;
        this.stats = new TemplateStats(caps);
        this.aliases = on ? new Aliases() : null;
    }

    /** A learner with the default bounds, telling {@code listener} of the rules it learns and undoes. */
    public static Learner learning(RuleListener listener) {
        return new Learner(true, TemplateStats.Caps.DEFAULTS, listener);
    }

    /** A learner with the given bounds. */
    public static Learner learning(TemplateStats.Caps caps, RuleListener listener) {
        return new Learner(true, caps, listener);
    }

    /** A learner that learns nothing and applies nothing ({@code scope.learn-duplicates: false}). */
    public static Learner off() {
        return new Learner(false, new TemplateStats.Caps(1, 1), RuleListener.NONE);
    }

    /** Whether it learns at all. */
    public boolean learns() {
        return on;
    }

    /**
     * {@code url} (normalized) as the rules in force rewrite it, or {@code url} itself (the same instance) when none
     * does, or when it is let through as a sample.
     */
    public String rewrite(String url) {
        if (!on) {
            return url;
        }
        RuleBook.Applied applied = book.rewrite(url);
        if (applied == null) {
            return url;
        }
        State state = state(applied.rule());
        if (state != null && state.sample()) {
            synchronized (samples) {
                long key = Aliases.hash(url);
                samples[slot(key)] = key;
            }
            return url;
        }
        if (state != null) {
            state.rewritten.incrementAndGet();
        }
        return applied.url();
    }

    /** What to do with {@code url}, a page's URL taken from the frontier. */
    public Verdict atLease(String url) {
        if (!on) {
            return Verdict.ADMIT;
        }
        RuleBook.Applied applied = book.apply(url);
        if (applied == null) {
            return Verdict.ADMIT;
        }
        Rule rule = applied.rule();
        State state = state(rule);
        if (state == null) {
            return Verdict.ADMIT;
        }
        if (takeSample(url)) {
            return new Verdict.Sample(rule);
        }
        if (state.sample()) {
            return new Verdict.Sample(rule);
        }
        if (!rule.refuses()) {
            state.rewritten.incrementAndGet();
            return new Verdict.Rewrite(applied.url(), rule);
        }
        state.refused.incrementAndGet();
        return new Verdict.Refuse(rule);
    }

    /**
     * A page fetched from {@code url} (2xx, HTML, parsed) whose visible text has SimHash {@code fingerprint}; a page
     * without words (0) teaches nothing.
     */
    public void observe(String url, long fingerprint) {
        if (!on || fingerprint == 0) {
            return;
        }
        TemplateStats.Seen seen = stats.record(url, fingerprint, MIN_PAIRS);
        String host = seen.template().host();
        Aliases.Found found = aliases.record(host, url, fingerprint, MIN_PAIRS);
        if (book.has(host)) {
            test(url, seen, found);
        }
        if (!seen.quietParams().isEmpty() || !found.quiet().isEmpty() || seen.pages() >= MIN_PAGES) {
            learn(seen, found);
        }
    }

    /**
     * Puts back a rule an earlier run of the crawl learned (a resume reads them from rules.jsonl): in force, or
     * {@code undone} (then never learned again), without telling the listener. A rule already known is left as it is.
     */
    public synchronized void restore(Rule rule, boolean undone) {
        if (!on) {
            return;
        }
        String key = key(rule.kind(), rule.host(), rule.template(), rule.name(), rule.position());
        State state = states.get(key);
        if (state == null) {
            if (!learn(rule, false)) {
                return;
            }
            state = states.get(key);
            if (rule.kind() == Rule.Kind.DROP_PARAM) {
                dropped.add(rule.host() + "\t" + rule.template());
            }
        }
        if (undone && !state.undone) {
            state.undone = true;
            book.remove(rule);
        }
    }

    /** URL templates it keeps evidence for now (bounded: see {@link TemplateStats.Caps}). */
    public int templates() {
        return stats.templates();
    }

    /** The estimated bytes of the evidence it keeps: templates, parameters, aliases and recent fingerprints. */
    public long estimatedBytes() {
        return on ? stats.estimatedBytes() + aliases.estimatedBytes() + 8L * SAMPLE_SLOTS + 300L * rules() : 0;
    }

    private synchronized int rules() {
        return order.size();
    }

    /** Every rule learned so far, undone ones too, in the order learned, with what each did. */
    public synchronized List<Tally> tally() {
        List<Tally> tally = new ArrayList<>(order.size());
        for (State s : order) {
            tally.add(new Tally(s.rule, s.undone, s.refused.get(), s.rewritten.get(), s.sampled.get()));
        }
        return tally;
    }

    /** Undoes the rules in force that the page at {@code url} contradicts. */
    private void test(String url, TemplateStats.Seen seen, Aliases.Found found) {
        String host = seen.template().host();
        String pattern = seen.template().pattern();
        if (!seen.nearDuplicate()) {
            undo(key(Rule.Kind.SKIP_TEMPLATE, host, pattern, "", -1), url,
                    "its text is no near-duplicate of the template's earlier pages");
        }
        for (String param : seen.changedParams()) {
            undo(key(Rule.Kind.DROP_PARAM, host, pattern, param, -1), url,
                    "a page that differs from it only in " + param + " has other text");
        }
        for (Aliases.Candidate c : found.contradicted()) {
            undo(key(c.kind(), host, "", c.name(), c.position()), url,
                    "its text differs from the page's without " + c.name());
        }
    }

    private synchronized void undo(String key, String url, String why) {
        State state = states.get(key);
        if (state != null && !state.undone) {
            state.undone = true;
            book.remove(state.rule);
            listener.undone(state.rule, url, why);
        }
    }

    private synchronized void learn(TemplateStats.Seen seen, Aliases.Found found) {
        String host = seen.template().host();
        String pattern = seen.template().pattern();
        for (int i = 0; i < seen.quietParams().size(); i++) {
            String param = seen.quietParams().get(i);
            int pairs = seen.quietPairs().get(i);
            if (learn(new Rule(Rule.Kind.DROP_PARAM, host, pattern, param, -1, pairs, pairs))) {
                dropped.add(host + "\t" + pattern);
            }
        }
        if (!dropped.contains(host + "\t" + pattern) && seen.pages() >= MIN_PAGES && 10L * seen.nearDuplicates() >= 9L * (seen.pages() - 1)
                && (pattern.indexOf('{') >= 0 || pattern.indexOf('*') >= 0)) {
            learn(new Rule(Rule.Kind.SKIP_TEMPLATE, host, pattern, "", -1, seen.pages(), seen.nearDuplicates()));
        }
        for (Aliases.Candidate c : found.quiet()) {
            learn(new Rule(c.kind(), host, "", c.name(), c.position(), c.same(), c.same()));
        }
    }

    /** Puts a new rule in force and tells the listener; false when it was learned (or undone) before. */
    private boolean learn(Rule rule) {
        return learn(rule, true);
    }

    private boolean learn(Rule rule, boolean tell) {
        String key = key(rule.kind(), rule.host(), rule.template(), rule.name(), rule.position());
        if (states.containsKey(key) || order.size() >= MAX_RULES
                || perHost.getOrDefault(rule.host(), 0) >= MAX_RULES_PER_HOST) {
            return false;
        }
        perHost.merge(rule.host(), 1, Integer::sum);
        State state = new State(rule);
        states.put(key, state);
        order.add(state);
        book.add(rule);
        if (tell) {
            listener.learned(rule);
        }
        return true;
    }

    private State state(Rule rule) {
        return states.get(key(rule.kind(), rule.host(), rule.template(), rule.name(), rule.position()));
    }

    private boolean takeSample(String url) {
        long key = Aliases.hash(url);
        synchronized (samples) {
            int slot = slot(key);
            if (samples[slot] == key && key != 0) {
                samples[slot] = 0;
                return true;
            }
            return false;
        }
    }

    private static int slot(long key) {
        return (int) (key ^ (key >>> 31)) & (SAMPLE_SLOTS - 1);
    }

    private static String key(Rule.Kind kind, String host, String template, String name, int position) {
        return kind.ordinal() + "\t" + host + "\t" + template + "\t" + name + "\t" + position;
    }
}
