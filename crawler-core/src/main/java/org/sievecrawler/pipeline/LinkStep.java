package org.sievecrawler.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import okhttp3.HttpUrl;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.learn.Learner;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.LinkResolver;
import org.sievecrawler.link.RedirectTarget;
import org.sievecrawler.link.RejectReason;
import org.sievecrawler.parse.Outlink;
import org.sievecrawler.parse.ParsedPage;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The link step: which URLs a page links to, a sitemap lists or a robots.txt names the crawl may follow, decided by
 * the {@link LinkResolver} (resolved, normalized, scoped), honouring {@code rel=nofollow} and {@code <meta robots
 * nofollow>} unless {@code parse.follow-nofollow} is on; the accepted ones become tasks for the frontier, one batch,
 * and the refused ones are counted by reason. A redirect's target goes through the same decision. With
 * {@code scope.check-external}, a link to another host (refused as out of scope) is a check task instead, nofollow
 * or not: fetched once, never parsed.
 *
 * <p>Thread-safe, as the resolver is; called from the fetcher and parse threads.
 *
 * <p>Out of scope: offering the links to the Sieve (the frontier's, when the lease is closed).
 */
final class LinkStep {
    private final LinkResolver links;
    private final boolean followNofollow;
    private final PageOutput output;
    private final boolean graph;
    /** {@code scope.check-external}: links to other hosts become checks. */
    private final boolean checkExternal;
    /** The rules learned from the pages fetched ({@code scope.learn-duplicates}), applied to accepted links. */
    private final Learner learner;

    LinkStep(LinkResolver links, CrawlProfile profile, PageOutput output) {
        this(links, profile, output, Learner.off());
    }

    /** A link step that applies the rules {@code learner} learned to the links it accepts. */
    LinkStep(LinkResolver links, CrawlProfile profile, PageOutput output, Learner learner) {
        this.links = links;
        this.learner = learner;
        this.followNofollow = profile.parse().followNofollow();
        this.output = output;
        this.graph = profile.output().links();
        this.checkExternal = profile.scope().checkExternal();
    }

    /**
     * The links of {@code task}'s page that it may follow, in document order, as links found there: none when the
     * page says nofollow, and not those marked nofollow (unless {@code parse.follow-nofollow}); never images,
     * scripts, stylesheets and icons ({@link Outlink.Kind#followed()}).
     */
    List<PendingUrl> ofPage(PendingUrl task, ParsedPage parsed) {
        boolean follow = followNofollow || !parsed.nofollow();
        if (!follow && !graph) {
            return new ArrayList<>();
        }
        LinkResolver.PageLinks pageLinks = links.forPage(parsed.base(), task.url());
        List<LinkDecision> decisions = new ArrayList<>(parsed.links().size());
        List<PendingUrl> checks = new ArrayList<>();
        List<Edge> edges = graph ? new ArrayList<>(parsed.links().size()) : null;
        for (Outlink link : parsed.links()) {
            boolean followed = follow && link.kind().followed() && (followNofollow || !link.nofollow());
            boolean checked = checkExternal && link.kind().followed();
            if (followed || graph || checked) {
                LinkDecision decision = learned(pageLinks.decide(link.href(), task.depth() + 1));
                String external = checked && decision instanceof LinkDecision.Reject reject
                        && reject.reason() == RejectReason.OFF_HOST ? pageLinks.target(link.href()) : null;
                if (external != null) {
                    checks.add(PendingUrl.check(external, task));
                } else if (followed) {
                    decisions.add(decision);
                }
                if (graph) {
                    edge(edges, task, pageLinks, link, decision);
                }
            }
        }
        link(edges);
        List<PendingUrl> tasks = accepted(decisions, url -> PendingUrl.link(url, task));
        tasks.addAll(checks);
        return tasks;
    }

    /**
     * Adds a link of the page to its edges: normalized (one that gives no crawlable URL, like {@code mailto:}, is
     * left out), in scope when the link decision accepts it.
     */
    private static void edge(List<Edge> edges, PendingUrl task, LinkResolver.PageLinks pageLinks, Outlink link,
            LinkDecision decision) {
        String to = decision instanceof LinkDecision.Accept accept ? accept.url() : pageLinks.target(link.href());
        if (to != null) {
            edges.add(new Edge(task.url(), to, Edge.Kind.of(link.kind()), link.nofollow(),
                    decision instanceof LinkDecision.Accept, link.text()));
        }
    }

    /** Adds {@code edges} to the link graph. */
    void link(List<Edge> edges) {
        if (graph && edges != null && !edges.isEmpty()) {
            try {
                output.linked(edges);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * The {@code urls} listed in the sitemap (or named in the robots.txt) at {@code at} that the crawl may follow, as
     * links found there {@code depth} from the seeds (resolved against it, normalized and scoped like a page's
     * links), each made a task by {@code task}.
     */
    List<PendingUrl> listed(String at, List<String> urls, int depth, Function<String, PendingUrl> task) {
        LinkResolver.PageLinks pageLinks = links.forPage(HttpUrl.get(at), at);
        List<LinkDecision> decisions = new ArrayList<>(urls.size());
        for (String url : urls) {
            decisions.add(learned(pageLinks.decide(url, depth)));
        }
        return accepted(decisions, task);
    }

    /**
     * The pages the sitemap at {@code at} lists, as edges of the link graph (in scope or not; those that give no
     * crawlable URL left out).
     */
    void sitemapEdges(String at, List<String> urls, int depth) {
        if (!graph) {
            return;
        }
        LinkResolver.PageLinks pageLinks = links.forPage(HttpUrl.get(at), at);
        List<Edge> edges = new ArrayList<>(urls.size());
        for (String url : urls) {
            LinkDecision decision = pageLinks.decide(url, depth);
            String to = decision instanceof LinkDecision.Accept accept ? accept.url() : pageLinks.target(url);
            if (to != null) {
                edges.add(new Edge(at, to, Edge.Kind.SITEMAP, false, decision instanceof LinkDecision.Accept, ""));
            }
        }
        link(edges);
    }

    /**
     * {@code decision} with an accepted URL rewritten by the rules learned ({@link Learner#rewrite}: a parameter
     * that does not change the page dropped, an alias rewritten), so the Sieve and the link graph see the rewrite.
     */
    private LinkDecision learned(LinkDecision decision) {
        if (decision instanceof LinkDecision.Accept accept && learner.learns()) {
            String rewritten = learner.rewrite(accept.url());
            return rewritten == accept.url() ? decision : new LinkDecision.Accept(rewritten, accept.paramsIgnored());
        }
        return decision;
    }

    /** Where a redirect from {@code task} to {@code location} leads (see {@link LinkResolver#decideRedirect}). */
    RedirectTarget redirect(PendingUrl task, String location) {
        RedirectTarget target = links.decideRedirect(task.url(), location, task.depth());
        if (target instanceof RedirectTarget.Resolved resolved && resolved.scope() instanceof LinkDecision.Accept accept
                && accept.paramsIgnored()) {
            output.paramsIgnored();
        }
        return target;
    }

    /**
     * The accepted links as tasks, one batch for the frontier; rejected ones are counted, and accepted ones the
     * normalizer removed {@code scope.ignore-params} from.
     */
    private List<PendingUrl> accepted(List<LinkDecision> decisions, Function<String, PendingUrl> task) {
        List<PendingUrl> urls = new ArrayList<>(decisions.size());
        for (LinkDecision decision : decisions) {
            if (decision instanceof LinkDecision.Accept accept) {
                if (accept.paramsIgnored()) {
                    output.paramsIgnored();
                }
                urls.add(task.apply(accept.url()));
            } else {
                output.linkRejected(((LinkDecision.Reject) decision).reason().label());
            }
        }
        return urls;
    }
}
