package org.sievecrawler.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import okhttp3.HttpUrl;
import org.jsoup.nodes.CDataNode;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.parser.Parser;
import org.jsoup.select.NodeFilter;
import org.jsoup.select.NodeTraversor;

/**
 * The reference page parser: decodes the page with the charset {@link CharsetSniffer} picks, builds jsoup's DOM
 * (the WHATWG tree construction, misnested and foreign content included) and reads links and metadata from the
 * HTML elements in document order. Link values are returned raw; jsoup's {@code absUrl} is not used.
 *
 * <p>Stateless and safe for any number of threads (each call builds its own jsoup parser). Out of scope:
 * resolving and normalizing links, and scripts (a page's DOM is read as served).
 */
public final class JsoupPageParser {
    /** HTML elements whose text is not part of a page's visible text (see {@link ParsedPage#simhash()}). */
    private static final Set<String> HIDDEN_TEXT = Set.of("title", "script", "style", "noscript", "textarea",
            "select", "iframe", "template", "noembed", "noframes", "xmp", "plaintext");

    /**
     * Parses {@code length} bytes of {@code body}. Never throws on malformed markup: it yields what can be read.
     *
     * @param contentType the Content-Type header value, or null
     * @param pageUrl the URL the page was fetched from
     */
    public ParsedPage parse(byte[] body, int length, String contentType, HttpUrl pageUrl) {
        PageParser.checkArguments(body, length, pageUrl);
        CharsetSniffer.Sniffed sniffed = CharsetSniffer.sniff(body, length, contentType);
        String html = new String(body, sniffed.bomLength(), length - sniffed.bomLength(), sniffed.charset());
        if (!html.isEmpty() && html.charAt(0) == '\uFEFF') {
            html = html.substring(1);
        }
        Document doc = Parser.htmlParser().parseInput(html, pageUrl.toString());

        String title = null;
        String baseHref = null;
        String canonical = null;
        int robots = 0;
        List<Outlink> links = new ArrayList<>();
        for (Element el : doc.getAllElements()) {
            if (!Parser.NamespaceHtml.equals(el.tag().namespace())) {
                continue;
            }
            switch (el.normalName()) {
                case "a" -> addLink(links, el, "href", Outlink.Kind.A);
                case "area" -> addLink(links, el, "href", Outlink.Kind.AREA);
                case "img" -> addLink(links, el, "src", Outlink.Kind.IMG);
                case "script" -> addLink(links, el, "src", Outlink.Kind.SCRIPT);
                case "frame" -> addLink(links, el, "src", Outlink.Kind.FRAME);
                case "iframe" -> addLink(links, el, "src", Outlink.Kind.IFRAME);
                case "link" -> {
                    Outlink.Kind kind = el.hasAttr("href") && el.hasAttr("rel") ? PageRules.linkKind(el.attr("rel"))
                            : null;
                    if (kind != null) {
                        addLink(links, el, "href", kind);
                        if (kind == Outlink.Kind.CANONICAL && canonical == null) {
                            canonical = el.attr("href");
                        }
                    }
                }
                case "base" -> {
                    if (baseHref == null && el.hasAttr("href")) {
                        baseHref = el.attr("href");
                    }
                }
                case "meta" -> {
                    if (el.hasAttr("name") && PageRules.isRobotsName(el.attr("name"))) {
                        robots |= PageRules.robotsDirectives(el.attr("content"));
                    }
                }
                case "title" -> {
                    if (title == null) {
                        title = PageRules.title(el.wholeText());
                    }
                }
                default -> { }
            }
        }
        return new ParsedPage(title, PageRules.base(pageUrl, baseHref), links, canonical,
                (robots & PageRules.NOINDEX) != 0, (robots & PageRules.NOFOLLOW) != 0, sniffed.charset(),
                ParsedPage.ParsedBy.JSOUP, visibleText(doc));
    }

    /** The {@link SimHash} of the text nodes {@link ParsedPage#simhash()} counts as visible, one run each. */
    private static long visibleText(Document doc) {
        SimHash simHash = new SimHash();
        doc.filter(new NodeFilter() {
            @Override
            public FilterResult head(Node node, int depth) {
                if (node instanceof Element el) {
                    return Parser.NamespaceHtml.equals(el.tag().namespace()) && !HIDDEN_TEXT.contains(el.normalName())
                            && !Boilerplate.isRoot(el.normalName(), el.hasAttr("role") ? el.attr("role") : null)
                            ? FilterResult.CONTINUE : FilterResult.SKIP_ENTIRELY;
                }
                if (node instanceof TextNode text && !(node instanceof CDataNode)) {
                    String whole = text.getWholeText();
                    simHash.text(whole, 0, whole.length());
                    simHash.endRun();
                }
                return FilterResult.CONTINUE;
            }
        });
        return simHash.fingerprint();
    }

    private static void addLink(List<Outlink> links, Element el, String attribute, Outlink.Kind kind) {
        if (el.hasAttr(attribute)) {
            String text = switch (kind) {
                case A -> anchorText(el);
                case IMG, AREA -> LinkText.of(el.attr("alt"));
                default -> "";
            };
            links.add(new Outlink(Objects.requireNonNull(el.attr(attribute)), kind,
                    PageRules.relHas(el.attr("rel"), "nofollow"), text));
        }
    }

    /** Elements whose text is no link text: raw text and RCDATA, noscript, select, and any non-HTML element. */
    private static final Set<String> NOT_LINK_TEXT = Set.of("textarea", "title", "iframe", "xmp", "noembed",
            "noframes", "noscript", "select", "option", "optgroup", "script", "style", "plaintext", "template");

    /** The text nodes of {@code a}, outside the elements of {@link #NOT_LINK_TEXT} (see {@link Outlink#text()}). */
    private static String anchorText(Element a) {
        LinkText text = new LinkText();
        NodeTraversor.filter(new NodeFilter() {
            @Override
            public FilterResult head(Node node, int depth) {
                if (text.full()) {
                    return FilterResult.STOP;
                }
                if (node instanceof TextNode t) {
                    text.append(t.getWholeText());
                } else if (node != a && node instanceof Element el && (!Parser.NamespaceHtml.equals(
                        el.tag().namespace()) || NOT_LINK_TEXT.contains(el.normalName()))) {
                    return FilterResult.SKIP_ENTIRELY;
                }
                return FilterResult.CONTINUE;
            }
        }, a);
        return text.text();
    }
}
