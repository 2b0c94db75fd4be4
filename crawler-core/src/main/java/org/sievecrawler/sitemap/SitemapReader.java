package org.sievecrawler.sitemap;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import crawlercommons.sitemaps.UnknownFormatException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Reads a fetched sitemap with crawler-commons' {@link SiteMapParser}: an XML sitemap or sitemap index (RSS and
 * Atom feeds too, as crawler-commons reads them), or a text sitemap (one URL a line), gzipped or not.
 *
 * <p>The format is told from the content, not from the Content-Type (servers often send sitemaps as
 * {@code application/octet-stream}): a gzip body ({@code 1f 8b}) is inflated here, at most {@code maxBytes}
 * inflated bytes (a gzip bomb stops there), and then a body whose first character other than a byte order mark
 * or white space is {@code <} is XML, any other text. The parser is not strict: a sitemap may list any URL,
 * as the crawl's scope decides which are followed (the protocol's rule that a sitemap lists only URLs under its own
 * folder does not hold for sitemaps named in robots.txt either). DOCTYPE declarations are refused (no external
 * entities).
 *
 * <p>Stateless and thread-safe: a parser is made per call. Out of scope: fetching, and what becomes of the URLs.
 */
public final class SitemapReader {
    private final long maxBytes;

    /** @param maxBytes the most bytes a sitemap may have, after inflating a gzipped one ({@code scope.max-sitemap-bytes}) */
    public SitemapReader(long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be >= 1, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /**
     * The URLs the sitemap at {@code url} lists, read from its {@code length} first bytes of {@code body}; a body the
     * fetch {@code cut} at the size limit (the rest not read) is too large.
     *
     * @throws SitemapException naming the URL when it is too large, not gzip after all, or in no sitemap format
     */
    public SitemapContent read(String url, byte[] body, int length, boolean cut) throws SitemapException {
        byte[] content = length == body.length ? body : Arrays.copyOf(body, length);
        if (cut || content.length > maxBytes) {
            throw new SitemapException(tooLarge(url));
        }
        if (content.length >= 2 && (content[0] & 0xFF) == 0x1F && (content[1] & 0xFF) == 0x8B) {
            content = inflate(url, content);
        }
        URL at;
        try {
            at = URI.create(url).toURL();
        } catch (IllegalArgumentException | MalformedURLException e) {
            throw new SitemapException("sitemap URL " + url + " is not a URL: " + e.getMessage(), e);
        }
        SiteMapParser parser = new SiteMapParser(false);
        AbstractSiteMap sitemap;
        try {
            sitemap = parser.parseSiteMap(looksLikeXml(content) ? "text/xml" : "text/plain", content, at);
        } catch (UnknownFormatException | IOException | RuntimeException e) {
            throw new SitemapException("sitemap " + url + " could not be read: " + reason(e), e);
        }
        List<String> pages = new ArrayList<>();
        List<String> sitemaps = new ArrayList<>();
        if (sitemap instanceof SiteMapIndex index) {
            for (AbstractSiteMap child : index.getSitemaps()) {
                sitemaps.add(child.getUrl().toString());
            }
        } else if (sitemap instanceof SiteMap map) {
            for (SiteMapURL page : map.getSiteMapUrls()) {
                pages.add(page.getUrl().toString());
            }
        }
        return new SitemapContent(pages, sitemaps);
    }

    private byte[] inflate(String url, byte[] gzipped) throws SitemapException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(gzipped.length * 4, 1 << 20));
        byte[] buffer = new byte[8192];
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            long total = 0;
            int n;
            while ((n = in.read(buffer)) > 0) {
                total += n;
                if (total > maxBytes) {
                    throw new SitemapException(tooLarge(url) + " once inflated");
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new SitemapException("sitemap " + url + " starts as gzip but could not be inflated: " + e, e);
        }
        return out.toByteArray();
    }

    /**
     * What went wrong, in the words of the deepest cause: crawler-commons wraps the XML parser's message (line and
     * column) in its own "Failed to parse URL", which says less.
     */
    private static String reason(Throwable failure) {
        Throwable deepest = failure;
        while (deepest.getCause() != null && deepest.getCause() != deepest) {
            deepest = deepest.getCause();
        }
        String message = deepest.getMessage();
        return message == null ? deepest.getClass().getSimpleName() : message;
    }

    private String tooLarge(String url) {
        return "sitemap " + url + " has more than scope.max-sitemap-bytes " + maxBytes + " bytes";
    }

    /** Whether the first character other than a UTF-8 byte order mark or white space is {@code <}. */
    static boolean looksLikeXml(byte[] content) {
        int i = content.length >= 3 && (content[0] & 0xFF) == 0xEF && (content[1] & 0xFF) == 0xBB
                && (content[2] & 0xFF) == 0xBF ? 3 : 0;
        while (i < content.length && (content[i] == ' ' || content[i] == '\t' || content[i] == '\r'
                || content[i] == '\n')) {
            i++;
        }
        return i < content.length && content[i] == '<';
    }
}
