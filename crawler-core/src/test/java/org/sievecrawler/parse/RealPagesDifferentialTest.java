package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import okhttp3.HttpUrl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The byte scanner against jsoup on real pages: 383 pages of four Debian documentation packages (rust-doc,
 * apache2-doc, libboost1.81-doc, python-django-doc; see {@code real-pages/README.md} in src-test-fixtures). On every
 * page the scanner must answer (no fallback, except for the pages listed in {@link #MAY_FALL_BACK}, none today),
 * and its title, base, links (href, kind, nofollow, in document order), canonical, noindex, nofollow and charset
 * must equal {@link JsoupPageParser}'s. Each page is read as served from {@code http://127.0.0.1:8080/} plus its
 * path, as {@code text/html} without a charset, so the sniffer decides. Both must also give the page's visible text
 * the same {@link SimHash}, one that is not 0 (every page has text), navigation left out of it: rust-doc's
 * mdBook and rustdoc pages hold {@code nav} elements, Django's a Sphinx sidebar of role navigation.
 */
class RealPagesDifferentialTest {
    private static final String ROOT = "real-pages/";
    /** Pages (paths as in index.txt, without .gz) the scanner may leave to jsoup: none. */
    private static final Set<String> MAY_FALL_BACK = Set.of();
    /** The pages each package has at least, and the pages holding the constructs the packages are chosen for. */
    private static final Map<String, int[]> EXPECTED = Map.of(
            "rust-doc", new int[] {130, 40}, // noscript in the head
            "apache2-doc", new int[] {80, 80}, // svg in a button
            "libboost1.81-doc", new int[] {90, 90}, // tables
            "python-django-doc", new int[] {60, 1}); // noscript in the body
    private static final Map<String, String> CONSTRUCT = Map.of("rust-doc", "<noscript", "apache2-doc", "<svg",
            "libboost1.81-doc", "<table", "python-django-doc", "<noscript");

    /** Navigation the fingerprint leaves out ({@link Boilerplate}), and the pages of a package that hold it at least. */
    private static final Map<String, String> NAVIGATION = Map.of("rust-doc", "<nav", "apache2-doc", "<nav",
            "libboost1.81-doc", "<nav", "python-django-doc", "role=\"navigation\"");
    private static final Map<String, Integer> WITH_NAVIGATION = Map.of("rust-doc", 100, "apache2-doc", 0,
            "libboost1.81-doc", 0, "python-django-doc", 60); // mdBook and rustdoc's nav, Sphinx's sidebar

    private final HrefScanner scanner = new HrefScanner();
    private final JsoupPageParser jsoup = new JsoupPageParser();

    @ParameterizedTest
    @ValueSource(strings = {"rust-doc", "apache2-doc", "libboost1.81-doc", "python-django-doc"})
    void scannerReadsEveryPageAsJsoupDoes(String pkg) throws IOException {
        List<String> pages = index().stream().filter(p -> p.startsWith(pkg + "/")).toList();
        List<String> problems = new ArrayList<>();
        int withConstruct = 0;
        int withNavigation = 0;
        for (String page : pages) {
            byte[] body = readGzipped(ROOT + page);
            String path = page.substring(0, page.length() - ".gz".length());
            HttpUrl url = HttpUrl.get("http://127.0.0.1:8080/").newBuilder().addPathSegments(path).build();
            String lower = new String(body, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
            if (lower.contains(CONSTRUCT.get(pkg))) {
                withConstruct++;
            }
            if (lower.contains(NAVIGATION.get(pkg))) {
                withNavigation++;
            }
            ScanResult result = scanner.scan(body, body.length, "text/html", url);
            if (result instanceof ScanResult.Unsure unsure) {
                if (!MAY_FALL_BACK.contains(path)) {
                    problems.add(path + ": the scanner is unsure: " + unsure.detail());
                }
                continue;
            }
            ParsedPage scanned = ((ScanResult.Scanned) result).page();
            String difference = scanned.differenceFrom(jsoup.parse(body, body.length, "text/html", url));
            if (difference != null) {
                problems.add(path + ": " + difference);
            } else if (scanned.simhash() == 0) {
                problems.add(path + ": no visible text read");
            }
        }
        assertThat(pages).as("pages of %s", pkg).hasSizeGreaterThanOrEqualTo(EXPECTED.get(pkg)[0]);
        assertThat(withConstruct).as("pages of %s holding %s", pkg, CONSTRUCT.get(pkg))
                .isGreaterThanOrEqualTo(EXPECTED.get(pkg)[1]);
        assertThat(withNavigation).as("pages of %s holding %s", pkg, NAVIGATION.get(pkg))
                .isGreaterThanOrEqualTo(WITH_NAVIGATION.get(pkg));
        assertThat(problems).as("pages of %s the scanner did not read as jsoup does", pkg).isEmpty();
    }

    private static List<String> index() throws IOException {
        return List.of(new String(readPlain(ROOT + "index.txt"), StandardCharsets.UTF_8).split("\n"));
    }

    private static byte[] readGzipped(String resource) throws IOException {
        try (InputStream in = new GZIPInputStream(open(resource))) {
            return in.readAllBytes();
        }
    }

    private static byte[] readPlain(String resource) throws IOException {
        try (InputStream in = open(resource)) {
            return in.readAllBytes();
        }
    }

    private static InputStream open(String resource) {
        InputStream in = RealPagesDifferentialTest.class.getClassLoader().getResourceAsStream(resource);
        assertThat(in).as("test resource %s (src-test-fixtures)", resource).isNotNull();
        return in;
    }
}
