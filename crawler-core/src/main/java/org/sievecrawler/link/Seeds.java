package org.sievecrawler.link;

import java.util.ArrayList;
import java.util.List;

/**
 * The crawl's seeds as the profile lists them, normalized: the URLs the crawl starts from, in the profile's order,
 * and a problem for each seed that is not a crawlable URL ({@code seed "ftp://example.org/": ...}).
 *
 * <p>Immutable and so safe to share between threads.
 *
 * <p>Out of scope: whether the seeds' links are followed ({@link LinkScope}); what the crawl does with the
 * problems (it logs them) and with no usable seed at all (it refuses to start, with {@link #whyNone()}).
 *
 * @param urls the normalized seeds
 * @param problems one line per seed refused, naming it and why
 */
public record Seeds(List<String> urls, List<String> problems) {

    public Seeds {
        urls = List.copyOf(urls);
        problems = List.copyOf(problems);
    }

    /** The seeds {@code raw} (trimmed), each normalized by {@code normalizer}. */
    public static Seeds normalize(List<String> raw, UrlNormalizer normalizer) {
        List<String> urls = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String seed : raw) {
            LinkDecision decision = normalizer.normalize(seed.trim());
            if (decision instanceof LinkDecision.Accept accept) {
                urls.add(accept.url());
            } else {
                LinkDecision.Reject reject = (LinkDecision.Reject) decision;
                problems.add("seed \"" + seed + "\": " + reject.detail());
            }
        }
        return new Seeds(urls, problems);
    }

    /** Why a crawl cannot start from these seeds when none is usable: there are none, or each has a problem. */
    public String whyNone() {
        return problems.isEmpty() ? "no seeds: give at least one URL to start from"
                : "no usable seed: " + String.join("; ", problems);
    }
}
