package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/**
 * On every page where {@link HrefScanner} answers, its reading must equal {@link JsoupPageParser}'s: title, base,
 * links (href, kind, nofollow, order), canonical, noindex, nofollow. Runs over the hand-written corpus in
 * {@code parse/corpus/} and a few hundred generated pages, and reports how often the scanner was unsure.
 */
class PageParserDifferentialTest {
    private static final HttpUrl PAGE_URL = HttpUrl.get("https://www.example.com/dir/page.html");
    private static final long SEED = 20_251_121L;
    private static final int GENERATED = 1000;

    private final HrefScanner scanner = new HrefScanner();
    private final JsoupPageParser jsoup = new JsoupPageParser();

    @Test
    void scannerAgreesWithJsoupOnTheHandWrittenCorpus() throws Exception {
        Map<String, String> headers = readHeaders();
        Map<String, byte[]> pages = new TreeMap<>();
        try (Stream<Path> files = Files.list(resource("parse/corpus"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                pages.put(file.getFileName().toString(), Files.readAllBytes(file));
            }
        }
        assertThat(pages).hasSizeGreaterThanOrEqualTo(30);
        Tally tally = new Tally("hand-written corpus");
        pages.forEach((name, body) -> compare(name, body, headers.get(name), tally));
        tally.report();
        assertThat(tally.unsureShare()).as("share of hand-written pages the scanner is unsure of").isLessThan(0.40);
    }

    @Test
    void scannerAgreesWithJsoupOnGeneratedPages() {
        List<byte[]> pages = new GeneratedPages(SEED).pages(GENERATED);
        Tally tally = new Tally("generated pages");
        for (int i = 0; i < pages.size(); i++) {
            compare("generated #" + i, pages.get(i), null, tally);
        }
        tally.report();
        assertThat(tally.scanned).as("generated pages the scanner answered").isGreaterThan(GENERATED / 2);
    }

    private void compare(String name, byte[] body, String contentType, Tally tally) {
        ParsedPage expected = jsoup.parse(body, body.length, contentType, PAGE_URL);
        ScanResult result = scanner.scan(body, body.length, contentType, PAGE_URL);
        if (result instanceof ScanResult.Unsure unsure) {
            tally.unsure(name, unsure.reason());
            return;
        }
        ParsedPage actual = ((ScanResult.Scanned) result).page();
        tally.scanned++;
        String page = name + ":\n" + new String(body, expected.charset());
        assertThat(actual.title()).as("title of %s", page).isEqualTo(expected.title());
        assertThat(actual.base()).as("base of %s", page).isEqualTo(expected.base());
        assertThat(actual.links()).as("links of %s", page).containsExactlyElementsOf(expected.links());
        assertThat(actual.canonical()).as("canonical of %s", page).isEqualTo(expected.canonical());
        assertThat(actual.noindex()).as("noindex of %s", page).isEqualTo(expected.noindex());
        assertThat(actual.nofollow()).as("nofollow of %s", page).isEqualTo(expected.nofollow());
        assertThat(actual.charset()).as("charset of %s", page).isEqualTo(expected.charset());
        assertThat(SimHash.hex(actual.simhash())).as("simhash of %s", page).isEqualTo(SimHash.hex(expected.simhash()));
    }

    private static Map<String, String> readHeaders() throws IOException, URISyntaxException {
        Map<String, String> headers = new HashMap<>();
        for (String line : Files.readAllLines(resource("parse/corpus-headers.tsv"))) {
            String[] cells = line.split("\t");
            if (!cells[0].equals("file")) {
                headers.put(cells[0], cells[1]);
            }
        }
        return headers;
    }

    private static Path resource(String name) throws URISyntaxException {
        URL url = PageParserDifferentialTest.class.getClassLoader().getResource(name);
        assertThat(url).as("test resource %s", name).isNotNull();
        return Path.of(url.toURI());
    }

    /** Counts answered and unsure pages, with the reasons. */
    private static final class Tally {
        private final String corpus;
        private final List<String> unsure = new ArrayList<>();
        int scanned;

        Tally(String corpus) {
            this.corpus = corpus;
        }

        void unsure(String page, String reason) {
            unsure.add(page + ": " + reason);
        }

        double unsureShare() {
            return unsure.size() / (double) (unsure.size() + scanned);
        }

        void report() {
            System.out.printf("%s: scanner answered %d pages, unsure of %d (%.1f %%)%n", corpus, scanned,
                    unsure.size(), 100 * unsureShare());
            unsure.forEach(u -> System.out.println("  unsure: " + u.replace('\n', ' ')));
        }
    }

}
