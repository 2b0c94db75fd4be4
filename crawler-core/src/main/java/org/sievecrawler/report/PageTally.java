package org.sievecrawler.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.sievecrawler.learn.Rule;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/**
 * The counts a report draws from pages.jsonl, one record at a time: records by outcome, by HTTP status, by depth,
 * by host, by error, and the traps by the learned rule that refused them ({@link RulesExcerpt}). Its memory grows
 * with the hosts and distinct error texts (the rules' at most {@link #MAX_RULE_TEXTS}), not with the pages.
 *
 * <p>Not thread-safe: one reader feeds it.
 */
final class PageTally {
    /** Seeds named in the report's header, the first in pages.jsonl's order. */
    static final int SEEDS_SHOWN = 3;
    /** Longest error text kept; longer ones are cut, so texts that differ only at their end count together. */
    static final int MAX_ERROR_CHARS = 120;

    /** Rules whose traps are counted each; the records of others are counted together ({@link #otherRuleTraps}). */
    static final int MAX_RULE_TEXTS = 10_000;

    long records;
    final Map<String, Long> outcomes = new TreeMap<>();
    final Map<Integer, Long> statuses = new TreeMap<>();
    final Map<Integer, Long> depths = new TreeMap<>();
    final Map<String, Long> hosts = new HashMap<>();
    final Map<String, Long> errors = new HashMap<>();
    /** Records of depth 0 found on no page: the seeds taken (a seed host's sitemap probe left out). */
    long seeds;
    final List<String> firstSeeds = new ArrayList<>();
    /**
     * Records with outcome trap refused or rewritten by a learned rule, by the rule's text ({@link Rule#namedBy}).
     */
    final Map<String, Long> ruleTraps = new HashMap<>();
    /** Such records of rules past the first {@link #MAX_RULE_TEXTS}. */
    long otherRuleTraps;

    void add(PageRecord page) {
        records++;
        outcomes.merge(page.outcome().label(), 1L, Long::sum);
        if (page.status() > 0) {
            statuses.merge(page.status(), 1L, Long::sum);
        }
        depths.merge(page.depth(), 1L, Long::sum);
        if (page.depth() == 0 && page.referrer() == null && page.outcome() != Outcome.SITEMAP
                && page.outcome() != Outcome.NO_SITEMAP) { // a seed host's sitemap probe is no seed
            seeds++;
            if (firstSeeds.size() < SEEDS_SHOWN) {
                firstSeeds.add(page.url());
            }
        }
        hosts.merge(host(page.url()), 1L, Long::sum);
        Optional<String> named = page.outcome() == Outcome.TRAP ? Rule.namedBy(page.error()) : Optional.empty();
        if (named.isPresent()) {
            String rule = RulesExcerpt.cut(named.get());
            if (ruleTraps.size() < MAX_RULE_TEXTS || ruleTraps.containsKey(rule)) {
                ruleTraps.merge(rule, 1L, Long::sum);
            } else {
                otherRuleTraps++;
            }
        }
        if (page.error() != null) {
            String error = page.outcome().label() + ": " + page.error();
            errors.merge(error.length() > MAX_ERROR_CHARS ? error.substring(0, MAX_ERROR_CHARS) + "…" : error, 1L,
                    Long::sum);
        }
    }

    /** The {@code n} largest counts of {@code counts}, largest first, ties by key. */
    static List<Map.Entry<String, Long>> top(Map<String, Long> counts, int n) {
        List<Map.Entry<String, Long>> entries = new ArrayList<>(counts.entrySet());
        entries.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()));
        return entries.subList(0, Math.min(n, entries.size()));
    }

    private static String host(String url) {
        try {
            return HostKey.of(url);
        } catch (IllegalArgumentException e) {
            return "(no host)";
        }
    }
}
