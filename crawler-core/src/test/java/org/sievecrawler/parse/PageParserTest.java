package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.nio.charset.StandardCharsets;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

class PageParserTest {
    private static final HttpUrl PAGE = HttpUrl.get("https://example.org/page.html");

    @Test
    void readsOrdinaryPagesWithTheScanner() {
        PageParser parser = new PageParser();
        ParsedPage page = parse(parser, "<title>t</title><a href=/x>x</a>", null);
        assertThat(page.parsedBy()).isEqualTo(ParsedPage.ParsedBy.SCANNER);
        assertThat(page.links()).containsExactly(new Outlink("/x", Outlink.Kind.A, false, "x"));
        assertThat(parser.scannedPages()).isEqualTo(1);
        assertThat(parser.fallbackPages()).isZero();
    }

    @Test
    void fallsBackToJsoupWhenTheScannerIsUnsure() {
        PageParser parser = new PageParser();
        ParsedPage page = parse(parser, "<table><tr><td>c</td></tr><a href=/fostered>f</a></table>", null);
        assertThat(page.parsedBy()).isEqualTo(ParsedPage.ParsedBy.JSOUP);
        assertThat(page.links()).extracting(Outlink::href).containsExactly("/fostered");
        assertThat(parser.fallbackPages()).isEqualTo(1);
        assertThat(parser.scannedPages()).isZero();
    }

    @Test
    void countsFallbacksByReasonTheMostFrequentFirst() {
        PageParser parser = new PageParser();
        parse(parser, "<table><tr><td>c</td></tr><a href=/f>f</a></table>", null);
        parse(parser, "<p><a href=/1>one</a></p>", null);
        parse(parser, "<template><a href=/t></a></template>", null);
        parse(parser, "<table><a href=/g>g</a></table>", null);
        byte[] nul = "<a href=/n>\u0000</a>".getBytes(StandardCharsets.UTF_8);
        parser.parse(nul, nul.length, null, PAGE);
        assertThat(parser.fallbackReasons()).containsExactly(entry("foster-parented <a>", 2L), entry("<template>", 1L),
                entry("NUL byte", 1L));
        assertThat(parser.fallbackPages()).isEqualTo(4);
        assertThat(parser.scannedPages()).isEqualTo(1);
        assertThat(parser.fallbackShare()).isEqualTo(0.8);
    }

    @Test
    void reportsNoFallbackShareBeforeAnyPage() {
        assertThat(new PageParser().fallbackShare()).isZero();
        assertThat(new PageParser().fallbackReasons()).isEmpty();
    }

    @Test
    void fallsBackToJsoupForUtf16Pages() {
        PageParser parser = new PageParser();
        byte[] html = "<a href=/u>u</a>".getBytes(StandardCharsets.UTF_16LE);
        ParsedPage page = parser.parse(html, html.length, "text/html; charset=utf-16le", PAGE);
        assertThat(page.parsedBy()).isEqualTo(ParsedPage.ParsedBy.JSOUP);
        assertThat(page.charset()).isEqualTo(StandardCharsets.UTF_16LE);
        assertThat(page.links()).extracting(Outlink::href).containsExactly("/u");
    }

    @Test
    void letsAUtf8ByteOrderMarkWinOverTheHeaderCharsetOnBothPaths() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] markup = "<title>caf\u00e9 \u65e5\u672c</title><a href=/x>x</a>".getBytes(StandardCharsets.UTF_8);
        byte[] html = new byte[bom.length + markup.length];
        System.arraycopy(bom, 0, html, 0, bom.length);
        System.arraycopy(markup, 0, html, bom.length, markup.length);
        String header = "text/html; charset=windows-1252";

        ParsedPage scanned = new PageParser().parse(html, html.length, header, PAGE);
        ParsedPage reference = new JsoupPageParser().parse(html, html.length, header, PAGE);

        assertThat(scanned.parsedBy()).isEqualTo(ParsedPage.ParsedBy.SCANNER);
        assertThat(scanned.charset()).isEqualTo(StandardCharsets.UTF_8);
        assertThat(scanned.title()).isEqualTo("caf\u00e9 \u65e5\u672c");
        assertThat(scanned.differenceFrom(reference)).isNull();
    }

    @Test
    void neverThrowsOnMalformedMarkup() {
        PageParser parser = new PageParser();
        for (String html : new String[] {"<", "<a", "<a href=\"", "</", "<!--", "<![CDATA[", "<script>",
                "<title>open", "<a href=x><div></a>", "<table><td><a href=1>", "\u0000<a href=/n>"}) {
            assertThat(parse(parser, html, null)).as(html).isNotNull();
        }
    }

    @Test
    void refusesALengthBeyondTheBody() {
        assertThatThrownBy(() -> new PageParser().parse(new byte[4], 5, null, PAGE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("4 bytes but was 5");
    }

    private static ParsedPage parse(PageParser parser, String html, String contentType) {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, bytes.length, contentType, PAGE);
    }
}
