package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/**
 * The scanner against jsoup on 327 real pages from Debian's documentation packages (rustdoc and mdBook pages with
 * {@code <noscript>}, Apache's manual with inline {@code <svg>}, BoostBook, Sphinx; see
 * {@code src-test-fixtures/src/main/resources/real-pages/NOTICE.md}): the scanner reads every one, and on every
 * one its reading (title, base, links with kind and nofollow in order, canonical, robots directives, charset)
 * equals {@link JsoupPageParser}'s. The whole of those packages (39,382 pages) is checked the same way by
 * {@code crawler-bench}'s ParserDiff.
 */
class RealPagesDifferentialTest {
    private static final String ROOT = "/real-pages/";

    private final HrefScanner scanner = new HrefScanner();
    private final JsoupPageParser jsoup = new JsoupPageParser();

    @Test
    void theScannerReadsEveryRealPageAsJsoupDoes() {
        List<String> pages = index();
        assertThat(pages).hasSizeGreaterThan(300);
        Map<String, String> unsure = new TreeMap<>();
        int links = 0;
        for (String page : pages) {
            byte[] body = read(page);
            HttpUrl url = HttpUrl.get("http://127.0.0.1:8080/" + page);
            ParsedPage expected = jsoup.parse(body, body.length, "text/html", url);
            ScanResult result = scanner.scan(body, body.length, "text/html", url);
            if (result instanceof ScanResult.Unsure u) {
                unsure.put(page, u.detail());
                continue;
            }
            ParsedPage actual = ((ScanResult.Scanned) result).page();
            assertThat(actual.title()).as("title of %s", page).isEqualTo(expected.title());
            assertThat(actual.base()).as("base of %s", page).isEqualTo(expected.base());
            assertThat(actual.links()).as("links of %s", page).containsExactlyElementsOf(expected.links());
            assertThat(actual.canonical()).as("canonical of %s", page).isEqualTo(expected.canonical());
            assertThat(actual.noindex()).as("noindex of %s", page).isEqualTo(expected.noindex());
            assertThat(actual.nofollow()).as("nofollow of %s", page).isEqualTo(expected.nofollow());
            assertThat(actual.charset()).as("charset of %s", page).isEqualTo(expected.charset());
            links += expected.links().size();
        }
        assertThat(unsure).as("pages the scanner left to jsoup").isEmpty();
        assertThat(links).as("links compared").isGreaterThan(15_000);
    }

    private static List<String> index() {
        List<String> pages = new ArrayList<>();
        for (String line : new String(resource(ROOT + "index.txt"), StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                pages.add(line.trim());
            }
        }
        return pages;
    }

    private static byte[] read(String page) {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(resource(ROOT + page + ".gz")))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(page, e);
        }
    }

    private static byte[] resource(String name) {
        try (InputStream in = RealPagesDifferentialTest.class.getResourceAsStream(name)) {
            assertThat(in).as("test resource %s (from src-test-fixtures)", name).isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(name, e);
        }
    }
}
