package org.sievecrawler.learn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The rules in force, by host, and what they do to a URL: {@link #rewrite} (aliases, then the parameters dropped in
 * the URL's template) and {@link #apply} (a rewrite, else a template not fetched).
 *
 * <p>Thread-safe: each host's rules are an immutable value replaced whole when a rule is added or removed (rare),
 * so applying them takes no lock; a crawl with no rule at all pays one volatile read per URL.
 */
final class RuleBook {
    /** A URL rewritten (or refused: {@code rule.refuses()}), and the first rule that changed it. */
    record Applied(String url, Rule rule) {
    }

    /** One host's rules. */
    private record HostRules(List<Rule> segments, List<Rule> params, Map<String, List<Rule>> drops,
            Map<String, Rule> skips) {
        static final HostRules EMPTY = new HostRules(List.of(), List.of(), Map.of(), Map.of());

        HostRules with(Rule rule, boolean add) {
            List<Rule> segments = new ArrayList<>(this.segments);
            List<Rule> params = new ArrayList<>(this.params);
            Map<String, List<Rule>> drops = new HashMap<>(this.drops);
            Map<String, Rule> skips = new HashMap<>(this.skips);
            switch (rule.kind()) {
                case ALIAS_SEGMENT -> edit(segments, rule, add);
                case ALIAS_PARAM -> edit(params, rule, add);
                case DROP_PARAM -> {
                    List<Rule> list = new ArrayList<>(drops.getOrDefault(rule.template(), List.of()));
                    edit(list, rule, add);
                    if (list.isEmpty()) {
                        drops.remove(rule.template());
                    } else {
                        drops.put(rule.template(), List.copyOf(list));
                    }
                }
                case SKIP_TEMPLATE -> {
                    if (add) {
                        skips.put(rule.template(), rule);
                    } else {
                        skips.remove(rule.template(), rule);
                    }
                }
            }
            return new HostRules(List.copyOf(segments), List.copyOf(params), Map.copyOf(drops), Map.copyOf(skips));
        }

        boolean isEmpty() {
            return segments.isEmpty() && params.isEmpty() && drops.isEmpty() && skips.isEmpty();
        }

        private static void edit(List<Rule> rules, Rule rule, boolean add) {
            rules.remove(rule);
            if (add) {
                rules.add(rule);
            }
        }
    }

    private final ConcurrentHashMap<String, HostRules> hosts = new ConcurrentHashMap<>();
    private volatile boolean any;

    /** Puts {@code rule} in force. */
    synchronized void add(Rule rule) {
        hosts.put(rule.host(), hosts.getOrDefault(rule.host(), HostRules.EMPTY).with(rule, true));
        any = true;
    }

    /** Takes {@code rule} out of force. */
    synchronized void remove(Rule rule) {
        HostRules rules = hosts.get(rule.host());
        if (rules != null) {
            HostRules left = rules.with(rule, false);
            if (left.isEmpty()) {
                hosts.remove(rule.host());
            } else {
                hosts.put(rule.host(), left);
            }
        }
        any = !hosts.isEmpty();
    }

    /** Whether any rule is in force for {@code host}. */
    boolean has(String host) {
        return any && hosts.containsKey(host);
    }

    /**
     * {@code url} rewritten by the rules of its host: its alias segments and parameters dropped, then the parameters
     * dropped in the template it has then; null when no rule changes it.
     */
    Applied rewrite(String url) {
        HostRules rules = any ? hosts.get(UrlTemplate.hostOf(url)) : null;
        return rules == null ? null : rewrite(url, rules);
    }

    /**
     * What the rules of its host do to {@code url}, taken from the frontier: its rewrite ({@link #rewrite}), else
     * the rule that refuses it (its template is not fetched, {@code applied.url()} is then {@code url}); null when
     * no rule applies. One lookup of the host, one template at most.
     */
    Applied apply(String url) {
        HostRules rules = any ? hosts.get(UrlTemplate.hostOf(url)) : null;
        if (rules == null) {
            return null;
        }
        Applied rewritten = rewrite(url, rules);
        if (rewritten != null || rules.skips.isEmpty()) {
            return rewritten;
        }
        Rule skip = rules.skips.get(UrlTemplate.of(url).pattern());
        return skip == null ? null : new Applied(url, skip);
    }

    private static Applied rewrite(String url, HostRules rules) {
        String out = url;
        Rule first = null;
        for (Rule rule : rules.segments) {
            if (rule.name().equals(UrlEdit.segment(out, rule.position()))
                    && UrlEdit.segment(out, rule.position() + 1) != null) {
                String edited = UrlEdit.withoutSegment(out, rule.position());
                if (edited != null) {
                    out = edited;
                    first = first == null ? rule : first;
                }
            }
        }
        for (Rule rule : rules.params) {
            String edited = UrlEdit.withoutParam(out, rule.name());
            if (edited != null) {
                out = edited;
                first = first == null ? rule : first;
            }
        }
        if (!rules.drops.isEmpty()) {
            List<Rule> drops = rules.drops.get(UrlTemplate.of(out).pattern());
            for (Rule rule : drops == null ? List.<Rule>of() : drops) {
                String edited = UrlEdit.withoutParam(out, rule.name());
                if (edited != null) {
                    out = edited;
                    first = first == null ? rule : first;
                }
            }
        }
        return first == null ? null : new Applied(out, first);
    }
}
