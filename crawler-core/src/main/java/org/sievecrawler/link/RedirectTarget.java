package org.sievecrawler.link;

/**
 * Where a redirect leads, as {@link LinkResolver#decideRedirect} finds it: {@link Unusable} when its Location gives
 * no crawlable URL, else {@link Resolved} with the normalized target and the scope's decision about it (the one the
 * same link on the redirecting page would get). Its fields are never null.
 */
public sealed interface RedirectTarget permits RedirectTarget.Unusable, RedirectTarget.Resolved {

    /**
     * No URL to follow.
     *
     * @param detail what is wrong, e.g. {@code no Location header} or the normalizer's reason
     */
    record Unusable(String detail) implements RedirectTarget {
    }

    /**
     * A normalized target.
     *
     * @param url the normalized absolute URL
     * @param scope {@link LinkDecision.Accept} of {@code url} when the crawl may follow it, else the scope's
     *     {@link LinkDecision.Reject}
     */
    record Resolved(String url, LinkDecision scope) implements RedirectTarget {
    }
}
