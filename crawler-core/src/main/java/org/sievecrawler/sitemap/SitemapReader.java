package org.sievecrawler.sitemap;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.UnknownFormatException;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackInputStream;
import java.io.Reader;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.xml.sax.InputSource;

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
 * <p>Memory: the body is parsed as a stream (a gzipped one inflated as it is parsed, never whole), and the parse
 * keeps only the URLs' texts, the first {@link #MAX_URLS} of them (the protocol's limit; the rest are counted, not
 * kept: {@link SitemapContent#listed()}). crawler-commons would keep each URL as a {@code SiteMapURL} holding a
 * {@code java.net.URL}, some hundreds of bytes each; a 50 MB sitemap of short entries lists about a million. A run of more than {@link #MAX_TEXT_CHARS} characters without markup (in XML; a line in
 * text) is cut there, since the parser would gather it whole and no URL is that long. So a sitemap costs its body
 * and at most {@code MAX_URLS} URLs, whatever it holds.
 *
 * <p>Stateless and thread-safe: a parser is made per call. Out of scope: fetching, and what becomes of the URLs.
 */
public final class SitemapReader {
    /** The most URLs a sitemap or sitemap index may list (sitemaps.org); only the first so many are kept. */
    public static final int MAX_URLS = 50_000;
    /** The longest run of text without markup kept (a URL, the longest text a sitemap needs, has at most 2,048). */
    static final int MAX_TEXT_CHARS = 64 * 1024;

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
        if (cut || length > maxBytes) {
            throw new SitemapException(tooLarge(url));
        }
        URL at;
        try {
            at = URI.create(url).toURL();
        } catch (IllegalArgumentException | MalformedURLException e) {
            throw new SitemapException("sitemap " + url + " is not a URL: " + e.getMessage(), e);
        }
        boolean gzip = length >= 2 && (body[0] & 0xFF) == 0x1F && (body[1] & 0xFF) == 0x8B;
        InputStream content = new ByteArrayInputStream(body, 0, length);
        Inflated inflated = null;
        Listed listed = new Listed();
        try {
            if (gzip) {
                try {
                    content = inflated = new Inflated(new GZIPInputStream(content, 8192), maxBytes);
                } catch (IOException e) { // not a gzip header after all
                    throw new SitemapException(notGzip(url, e), e);
                }
            }
            PushbackInputStream in = new PushbackInputStream(content, 3);
            int first = firstSignificantByte(in);
            if (first != '<') { // nothing but white space is a text sitemap of no URL
                if (first >= 0) {
                    in.unread(first);
                    readText(new InputStreamReader(in, StandardCharsets.UTF_8), listed);
                }
                return listed.content(false);
            }
            in.unread(first);
            AbstractSiteMap sitemap = new Parser(listed).parse(at, new TextRuns(new InputStreamReader(in,
                    StandardCharsets.UTF_8)));
            return listed.content(sitemap instanceof SiteMapIndex);
        } catch (UnknownFormatException | IOException | RuntimeException e) {
            if (inflated != null && inflated.over) {
                throw new SitemapException(tooLarge(url) + " once inflated", e);
            }
            if (inflated != null && inflated.failure != null) {
                throw new SitemapException(notGzip(url, inflated.failure), e);
            }
            throw new SitemapException("sitemap " + url + " could not be read: " + reason(e), e);
        }
    }

    /** The lines of a text sitemap, each trimmed; a blank one is skipped, a line past the longest URL is cut. */
    private static void readText(Reader text, Listed listed) throws IOException {
        StringBuilder line = new StringBuilder();
        char[] chunk = new char[8192];
        for (int n = text.read(chunk); n >= 0; n = text.read(chunk)) {
            for (int i = 0; i < n; i++) {
                char c = chunk[i];
                if (c == '\n' || c == '\r') {
                    listed.addLine(line);
                    line.setLength(0);
                } else if (line.length() < MAX_TEXT_CHARS) {
                    line.append(c);
                }
            }
        }
        listed.addLine(line);
    }

    /**
     * The first byte that is not a UTF-8 byte order mark or white space, or -1 at the end; bytes read after it are
     * pushed back ({@code in} holds 3), it is not.
     */
    private static int firstSignificantByte(PushbackInputStream in) throws IOException {
        int b = in.read();
        if (b == 0xEF) { // a byte order mark is EF BB BF; EF followed by anything else is significant
            int second = in.read();
            int third = second == 0xBB ? in.read() : -1;
            if (second != 0xBB || third != 0xBF) {
                if (third >= 0) {
                    in.unread(third);
                }
                if (second >= 0) {
                    in.unread(second);
                }
                return b;
            }
            b = in.read();
        }
        while (b == ' ' || b == '\t' || b == '\r' || b == '\n') {
            b = in.read();
        }
        return b;
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

    private static String notGzip(String url, IOException e) {
        return "sitemap " + url + " starts as gzip but could not be inflated: " + e;
    }

    private String tooLarge(String url) {
        return "sitemap " + url + " has more than scope.max-sitemap-bytes " + maxBytes + " bytes";
    }

    /**
     * crawler-commons' XML parsing from a stream ({@code processXml} is protected), its URL filter handing each URL
     * to {@code listed} as text: the filter answers null, so crawler-commons keeps none of them itself.
     */
    private static final class Parser extends SiteMapParser {
        Parser(Listed listed) {
            super(false);
            setURLFilter(listed::take);
        }

        AbstractSiteMap parse(URL url, Reader xml) throws UnknownFormatException {
            return processXml(url, new InputSource(xml));
        }
    }

    /**
     * The URLs a sitemap lists, in order, the first {@link #MAX_URLS} of them kept, and how many it lists in all.
     * Not thread-safe: one read.
     */
    private static final class Listed {
        private final List<String> urls = new ArrayList<>();
        private int all;
        private String last;

        /**
         * As crawler-commons' URL filter: keeps {@code url} and answers null, so crawler-commons drops it. It then
         * keeps the dropped text until the next entry and asks again with it at the next element, so a URL equal to
         * the one before is that same entry (two equal entries in a row are one URL to the crawl anyway).
         */
        String take(String url) {
            if (!url.equals(last)) {
                last = url;
                if (all++ < MAX_URLS) {
                    urls.add(url);
                }
            }
            return null;
        }

        void addLine(CharSequence line) {
            String url = line.toString().strip();
            if (!url.isEmpty()) {
                take(url);
            }
        }

        SitemapContent content(boolean index) {
            return index ? new SitemapContent(List.of(), urls, all) : new SitemapContent(urls, List.of(), all);
        }
    }

    /**
     * The inflated bytes of a gzipped sitemap, at most {@code maxBytes}: one more is an error, and {@link #over}
     * says so; {@link #failure} is why inflating failed (a corrupt stream), if it did. Not thread-safe.
     */
    private static final class Inflated extends FilterInputStream {
        private final long maxBytes;
        private long count;
        boolean over;
        IOException failure;

        Inflated(InputStream gzip, long maxBytes) {
            super(gzip);
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n;
            try {
                n = super.read(buffer, offset, length);
            } catch (IOException e) {
                failure = e;
                throw e;
            }
            if (n > 0) {
                count += n;
                if (count > maxBytes) {
                    over = true;
                    throw new IOException("more than " + maxBytes + " bytes once inflated");
                }
            }
            return n;
        }
    }

    /**
     * The XML text with every run of more than {@link #MAX_TEXT_CHARS} characters between two markup characters
     * ({@code <} and {@code >}) cut there: the parser's handler would gather such a run whole. Not thread-safe.
     */
    private static final class TextRuns extends Reader {
        private final Reader in;
        private int run;

        TextRuns(Reader in) {
            this.in = in;
        }

        @Override
        public int read(char[] buffer, int offset, int length) throws IOException {
            while (true) {
                int n = in.read(buffer, offset, length);
                if (n <= 0) {
                    return n;
                }
                int kept = offset;
                for (int i = offset; i < offset + n; i++) {
                    char c = buffer[i];
                    run = c == '<' || c == '>' ? 0 : run + 1;
                    if (run <= MAX_TEXT_CHARS) {
                        buffer[kept++] = c;
                    }
                }
                if (kept > offset) {
                    return kept - offset;
                }
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
