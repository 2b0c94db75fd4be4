package org.sievecrawler.parse;

import java.nio.charset.Charset;
import java.util.List;
import java.util.Objects;
import okhttp3.HttpUrl;

/**
 * What the crawl needs from one HTML page: its title, the base its links resolve against, the links themselves
 * in document order, and the robots directives of its {@code <meta name=robots>}.
 *
 * @param title the text of the first {@code <title>}, whitespace-collapsed and trimmed; null if there is none
 * @param base the first {@code <base href>} resolved against the page URL if present and valid, else the page URL
 * @param links every {@code a[href]}, {@code area[href]}, {@code frame[src]}, {@code iframe[src]},
 *     {@code link[rel=canonical][href]} and {@code link[href]} whose rel names another page (next, prev, alternate,
 *     search, ...), a stylesheet or an icon, {@code img[src]} and {@code script[src]}, in document order
 * @param canonical the raw href of the first {@code link[rel=canonical][href]}, or null
 * @param noindex whether a {@code <meta name=robots>} says {@code noindex} or {@code none}
 * @param nofollow whether a {@code <meta name=robots>} says {@code nofollow} or {@code none}
 * @param charset the charset the page was decoded with
 * @param parsedBy which implementation produced this page
 * @param simhash the {@link SimHash} of the page's visible text, 0 when it has no words: the text of the HTML
 *     elements in document order, each text node a run of its own, without the title and without the content of
 *     {@code script}, {@code style}, {@code noscript} (jsoup parses with scripting off, but a browser with
 *     scripting on, the usual case, hides it), {@code textarea} and {@code select} (form controls' contents),
 *     {@code iframe} (its fallback text), {@code template}, and {@code svg} and {@code math} (drawings and
 *     formulas, not prose), nor navigation boilerplate ({@code nav}, {@code aside} and block elements of role
 *     {@code navigation}: {@link Boilerplate}), which repeats on every page of a site. The title is left out because it is audited on its own and sites often share one
 */
public record ParsedPage(
        String title,
        HttpUrl base,
        List<Outlink> links,
        String canonical,
        boolean noindex,
        boolean nofollow,
        Charset charset,
        ParsedBy parsedBy,
        long simhash) {

    /** The implementation that read a page. */
    public enum ParsedBy {
        /** The byte-level {@link HrefScanner}. */
        SCANNER,
        /** The jsoup DOM parser ({@link JsoupPageParser}). */
        JSOUP
    }

    /** A page without a fingerprint (a page without words). */
    public ParsedPage(String title, HttpUrl base, List<Outlink> links, String canonical, boolean noindex,
            boolean nofollow, Charset charset, ParsedBy parsedBy) {
        this(title, base, links, canonical, noindex, nofollow, charset, parsedBy, 0);
    }

    public ParsedPage {
        Objects.requireNonNull(base, "base");
        links = List.copyOf(links);
        Objects.requireNonNull(charset, "charset");
        Objects.requireNonNull(parsedBy, "parsedBy");
    }

    /** How many of the links lead to pages ({@link Outlink.Kind#followed()}): a record's {@code outlinks}. */
    public int followable() {
        int n = 0;
        for (Outlink link : links) {
            if (link.kind().followed()) {
                n++;
            }
        }
        return n;
    }

    /**
     * The first way this reading of a page differs from {@code reference}'s in what the crawl uses (title, base,
     * links in order with their kind, nofollow and text, canonical, noindex and nofollow, charset, SimHash), or null
     * when they agree: the scanner's differential contract with jsoup, checked by the tests and by the bench's
     * ParserDiff.
     */
    public String differenceFrom(ParsedPage reference) {
        if (!Objects.equals(title, reference.title)) {
            return "title " + quote(title) + " but " + reference.parsedBy + " " + quote(reference.title);
        }
        if (!base.equals(reference.base)) {
            return "base " + base + " but " + reference.parsedBy + " " + reference.base;
        }
        List<Outlink> other = reference.links;
        for (int i = 0; i < Math.max(links.size(), other.size()); i++) {
            Outlink mine = i < links.size() ? links.get(i) : null;
            Outlink theirs = i < other.size() ? other.get(i) : null;
            if (!Objects.equals(mine, theirs)) {
                return "link #" + i + " of " + links.size() + " is " + mine + " but " + reference.parsedBy + "'s of "
                        + other.size() + " is " + theirs;
            }
        }
        if (!Objects.equals(canonical, reference.canonical)) {
            return "canonical " + quote(canonical) + " but " + reference.parsedBy + " " + quote(reference.canonical);
        }
        if (noindex != reference.noindex || nofollow != reference.nofollow) {
            return "noindex/nofollow " + noindex + "/" + nofollow + " but " + reference.parsedBy + " "
                    + reference.noindex + "/" + reference.nofollow;
        }
        if (!charset.equals(reference.charset)) {
            return "charset " + charset + " but " + reference.parsedBy + " " + reference.charset;
        }
        if (simhash != reference.simhash) {
            return "simhash " + SimHash.hex(simhash) + " but " + reference.parsedBy + " "
                    + SimHash.hex(reference.simhash);
        }
        return null;
    }

    private static String quote(String s) {
        return s == null ? "null" : '"' + s + '"';
    }
}
