package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

class HrefScannerTest {
    private static final HttpUrl PAGE = HttpUrl.get("https://example.org/dir/page.html");
    private final HrefScanner scanner = new HrefScanner();

    @Test
    void readsOrRefusesEachConstructAsListedInTheCaseFile() throws IOException {
        List<String[]> cases = readCases();
        assertThat(cases).hasSizeGreaterThan(40);
        for (String[] c : cases) {
            byte[] html = unescape(c[1]).getBytes(StandardCharsets.UTF_8);
            ScanResult result = scanner.scan(html, html.length, null, PAGE);
            String expected = c.length > 2 ? unescape(c[2]) : "";
            if (expected.equals("UNSURE")) {
                assertThat(result).as("case '%s': %s", c[0], c[1]).isInstanceOf(ScanResult.Unsure.class);
            } else {
                assertThat(result).as("case '%s': %s", c[0], c[1]).isInstanceOf(ScanResult.Scanned.class);
                assertThat(shown(((ScanResult.Scanned) result).page())).as("case '%s': %s", c[0], c[1])
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void jsoupReadsEveryCaseTheScannerReadsAsListed() throws IOException {
        JsoupPageParser jsoup = new JsoupPageParser();
        for (String[] c : readCases()) {
            String expected = c.length > 2 ? unescape(c[2]) : "";
            if (!expected.equals("UNSURE")) {
                byte[] html = unescape(c[1]).getBytes(StandardCharsets.UTF_8);
                assertThat(shown(jsoup.parse(html, html.length, null, PAGE))).as("jsoup on case '%s': %s", c[0], c[1])
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void labelsEveryUnsureCaseWithoutOffsets() throws IOException {
        for (String[] c : readCases()) {
            byte[] html = unescape(c[1]).getBytes(StandardCharsets.UTF_8);
            if (scanner.scan(html, html.length, null, PAGE) instanceof ScanResult.Unsure unsure) {
                assertThat(unsure.reason()).as("case '%s'", c[0]).doesNotContainPattern("[0-9]")
                        .hasSizeLessThan(60);
                assertThat(unsure.detail()).as("case '%s'", c[0]).startsWith(unsure.reason());
            }
        }
    }

    @Test
    void readsLinkTextAsJsoupDoesInEachCaseOfTheTextCaseFile() throws IOException {
        JsoupPageParser jsoup = new JsoupPageParser();
        List<String[]> cases = readCases("parse/link-text-cases.tsv");
        assertThat(cases).hasSizeGreaterThan(15);
        for (String[] c : cases) {
            byte[] html = unescape(c[1]).getBytes(StandardCharsets.UTF_8);
            ScanResult result = scanner.scan(html, html.length, null, PAGE);
            if (c[2].equals("UNSURE")) {
                assertThat(result).as("case '%s': %s", c[0], c[1]).isInstanceOf(ScanResult.Unsure.class);
                continue;
            }
            assertThat(result).as("case '%s': %s", c[0], c[1]).isInstanceOf(ScanResult.Scanned.class);
            assertThat(texts(((ScanResult.Scanned) result).page())).as("case '%s': %s", c[0], c[1])
                    .isEqualTo(c[2]);
            assertThat(texts(jsoup.parse(html, html.length, null, PAGE))).as("jsoup on case '%s': %s", c[0], c[1])
                    .isEqualTo(c[2]);
        }
    }

    private static String texts(ParsedPage page) {
        return page.links().stream()
                .map(l -> l.kind() + ":\"" + l.text() + "\"")
                .collect(Collectors.joining(" | "));
    }

    private static String shown(ParsedPage page) {
        return page.links().stream()
                .map(l -> l.kind() + ":" + l.href() + ":" + l.nofollow())
                .collect(Collectors.joining(" | "));
    }

    @Test
    void readsTheFirstTitleCollapsedAndDecoded() {
        ParsedPage page = scanned("<title>\n  Tom &amp; Jerry\t&#8212; &lt;a&gt; </title><title>second</title>");
        assertThat(page.title()).isEqualTo("Tom & Jerry \u2014 <a>");
    }

    @Test
    void readsAnSvgTitleAsNoPageTitle() {
        assertThat(scanned("<svg><title>icon</title></svg><p>x").title()).isNull();
        assertThat(scanned("<head><svg><title>icon</title></svg><title>page</title>").title()).isEqualTo("page");
    }

    @Test
    void readsTheTitleOfANoscriptIslandLikeJsoup() {
        assertThat(scanned("<noscript><title>ns</title></noscript><title>page</title>").title()).isEqualTo("ns");
        assertThat(scanned("<noscript><title/></noscript><title>page</title>").title()).isEmpty();
        String html = "<noscript><title/></noscript><title>page</title>";
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        assertThat(new JsoupPageParser().parse(bytes, bytes.length, null, PAGE).title()).isEmpty();
    }

    @Test
    void readsNoTitleAsNull() {
        assertThat(scanned("<p>no title</p>").title()).isNull();
    }

    @Test
    void resolvesTheFirstBaseHrefAgainstThePageUrl() {
        ParsedPage page = scanned("<base href=\"/root/\"><base href=\"https://other.example/\"><a href=x>x</a>");
        assertThat(page.base()).isEqualTo(HttpUrl.get("https://example.org/root/"));
        assertThat(page.links()).extracting(Outlink::href).containsExactly("x");
    }

    @Test
    void fallsBackToThePageUrlWhenTheBaseIsInvalid() {
        assertThat(scanned("<base href=\"http://[bad\">").base()).isEqualTo(PAGE);
    }

    @Test
    void readsRobotsDirectivesCaseInsensitively() {
        ParsedPage page = scanned("<META NAME=Robots CONTENT=\"NoIndex, follow\">");
        assertThat(page.noindex()).isTrue();
        assertThat(page.nofollow()).isFalse();
        ParsedPage none = scanned("<meta name=robots content=none>");
        assertThat(none.noindex()).isTrue();
        assertThat(none.nofollow()).isTrue();
    }

    @Test
    void readsRobotsDirectivesOfAMetaThatBreaksOutOfSvgOrSitsInANoscript() {
        assertThat(scanned("<svg><meta name=robots content=noindex></svg>").noindex()).isTrue();
        assertThat(scanned("<noscript><meta name=robots content=nofollow></noscript>").nofollow()).isTrue();
        assertThat(scanned("<math><meta name=robots content=nofollow>").nofollow()).isTrue();
    }

    @Test
    void keepsTheFirstCanonical() {
        ParsedPage page = scanned("<link rel=canonical href=/one><link rel=canonical href=/two>");
        assertThat(page.canonical()).isEqualTo("/one");
        assertThat(page.links()).extracting(Outlink::href).containsExactly("/one", "/two");
    }

    @Test
    void decodesWindows1252DeclaredOnlyInAMeta() {
        byte[] html = "<meta charset=windows-1252><title>caf\u00e9 \u20ac</title><a href=\"/\u00fcber\">u</a>"
                .getBytes(Charset.forName("windows-1252"));
        ParsedPage page = ((ScanResult.Scanned) scanner.scan(html, html.length, null, PAGE)).page();
        assertThat(page.charset()).isEqualTo(Charset.forName("windows-1252"));
        assertThat(page.title()).isEqualTo("caf\u00e9 \u20ac");
        assertThat(page.links()).extracting(Outlink::href).containsExactly("/\u00fcber");
    }

    @Test
    void skipsAUtf8ByteOrderMark() {
        byte[] body = "<title>x</title>".getBytes(StandardCharsets.UTF_8);
        byte[] html = new byte[body.length + 3];
        html[0] = (byte) 0xEF;
        html[1] = (byte) 0xBB;
        html[2] = (byte) 0xBF;
        System.arraycopy(body, 0, html, 3, body.length);
        ParsedPage page = ((ScanResult.Scanned) scanner.scan(html, html.length, null, PAGE)).page();
        assertThat(page.title()).isEqualTo("x");
    }

    @Test
    void isUnsureOfUtf16() {
        byte[] html = "<a href=/x>x</a>".getBytes(StandardCharsets.UTF_16);
        ScanResult result = scanner.scan(html, html.length, null, PAGE);
        assertThat(result).isInstanceOfSatisfying(ScanResult.Unsure.class,
                u -> assertThat(u.reason()).isEqualTo("charset UTF-16BE"));
    }

    @Test
    void readsOnlyTheGivenLength() {
        byte[] html = "<a href=/1>1</a><a href=/2>2</a>".getBytes(StandardCharsets.UTF_8);
        ParsedPage page = ((ScanResult.Scanned) scanner.scan(html, 16, null, PAGE)).page();
        assertThat(page.links()).extracting(Outlink::href).containsExactly("/1");
    }

    @Test
    void neverThrowsOnTruncatedMarkup() {
        byte[] html = "<html><head><title>t</title></head><body><a href=\"/x\" rel=nofollow>x</a><!-- c --><p>"
                .getBytes(StandardCharsets.UTF_8);
        for (int length = 0; length <= html.length; length++) {
            assertThat(scanner.scan(html, length, null, PAGE)).isNotNull();
        }
    }

    private ParsedPage scanned(String html) {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        ScanResult result = scanner.scan(bytes, bytes.length, null, PAGE);
        assertThat(result).as(html).isInstanceOf(ScanResult.Scanned.class);
        ParsedPage page = ((ScanResult.Scanned) result).page();
        assertThat(page.parsedBy()).isEqualTo(ParsedPage.ParsedBy.SCANNER);
        return page;
    }

    private static List<String[]> readCases() throws IOException {
        return readCases("parse/scanner-cases.tsv");
    }

    private static List<String[]> readCases(String resource) throws IOException {
        List<String[]> cases = new ArrayList<>();
        try (InputStream in = HrefScannerTest.class.getResourceAsStream("/" + resource)) {
            assertThat(in).as(resource).isNotNull();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    cases.add(line.split("\t", -1));
                }
            }
        }
        return cases;
    }

    static String unescape(String s) {
        return s.replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r").replace("\\u0000", "\u0000");
    }
}
