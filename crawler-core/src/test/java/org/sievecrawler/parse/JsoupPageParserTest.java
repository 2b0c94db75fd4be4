package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

class JsoupPageParserTest {
    private static final HttpUrl PAGE = HttpUrl.get("https://example.org/dir/page.html");
    private final JsoupPageParser parser = new JsoupPageParser();

    @Test
    void readsEveryLinkSourceInDocumentOrder() {
        ParsedPage page = parse("<link rel=canonical href=/c><a href=/a>a</a><map><area href=/m></map>"
                + "<iframe src=/i></iframe><a name=anchor>no href</a>");
        assertThat(page.links()).containsExactly(
                new Outlink("/c", Outlink.Kind.CANONICAL, false),
                new Outlink("/a", Outlink.Kind.A, false, "a"),
                new Outlink("/m", Outlink.Kind.AREA, false),
                new Outlink("/i", Outlink.Kind.IFRAME, false));
        assertThat(page.parsedBy()).isEqualTo(ParsedPage.ParsedBy.JSOUP);
    }

    @Test
    void readsFramesOfAFrameset() {
        ParsedPage page = parse("<html><frameset><frame src=/left><frame src=/right></frameset></html>");
        assertThat(page.links()).extracting(Outlink::href, Outlink::kind).containsExactly(
                org.assertj.core.groups.Tuple.tuple("/left", Outlink.Kind.FRAME),
                org.assertj.core.groups.Tuple.tuple("/right", Outlink.Kind.FRAME));
    }

    @Test
    void returnsHrefsRawButEntityDecoded() {
        ParsedPage page = parse("<a href=\" ../x?a=1&amp;b=&eacute; \">x</a>");
        assertThat(page.links()).extracting(Outlink::href).containsExactly(" ../x?a=1&b=\u00e9 ");
    }

    @Test
    void marksNofollowByRelToken() {
        ParsedPage page = parse("<a href=/1 rel=\"external NOFOLLOW\">1</a><a href=/2 rel=nofollowed>2</a>");
        assertThat(page.links()).extracting(Outlink::nofollow).containsExactly(true, false);
    }

    @Test
    void collapsesTheTitle() {
        assertThat(parse("<title>\n A \t &amp;  B </title>").title()).isEqualTo("A & B");
        assertThat(parse("<p>none</p>").title()).isNull();
    }

    @Test
    void resolvesTheFirstBaseHref() {
        assertThat(parse("<base href=/b/><base href=/c/>").base()).isEqualTo(HttpUrl.get("https://example.org/b/"));
        assertThat(parse("<base href=\"http://[x\">").base()).isEqualTo(PAGE);
        assertThat(parse("<base target=_top>").base()).isEqualTo(PAGE);
    }

    @Test
    void readsTheFirstCanonical() {
        assertThat(parse("<link rel=canonical href=/one><link rel=canonical href=/two>").canonical())
                .isEqualTo("/one");
        assertThat(parse("<link rel=alternate href=/alt>").canonical()).isNull();
    }

    @Test
    void readsMetaRobots() {
        ParsedPage page = parse("<meta name=ROBOTS content=\"NOFOLLOW\">");
        assertThat(page.nofollow()).isTrue();
        assertThat(page.noindex()).isFalse();
        ParsedPage none = parse("<meta name=robots content=none>");
        assertThat(none.noindex()).isTrue();
        assertThat(none.nofollow()).isTrue();
    }

    @Test
    void prefersTheHeaderCharsetThenTheBomThenTheMeta() {
        byte[] latin = "<meta charset=utf-8><title>\u00e9</title>".getBytes(StandardCharsets.ISO_8859_1);
        ParsedPage byHeader = parser.parse(latin, latin.length, "text/html; charset=windows-1252", PAGE);
        assertThat(byHeader.title()).isEqualTo("\u00e9");
        byte[] meta = "<meta http-equiv=Content-Type content=\"text/html; charset=windows-1252\"><title>\u20ac</title>"
                .getBytes(Charset.forName("windows-1252"));
        assertThat(parser.parse(meta, meta.length, "text/html", PAGE).title()).isEqualTo("\u20ac");
        byte[] utf16 = "\uFEFF<title>\u65e5</title>".getBytes(StandardCharsets.UTF_16BE);
        ParsedPage byBom = parser.parse(utf16, utf16.length, null, PAGE);
        assertThat(byBom.charset()).isEqualTo(StandardCharsets.UTF_16BE);
        assertThat(byBom.title()).isEqualTo("\u65e5");
    }

    @Test
    void ignoresLinksInsideSvg() {
        assertThat(parse("<svg><a href=/svg></a></svg><a href=/html>h</a>").links())
                .extracting(Outlink::href).containsExactly("/html");
    }

    private ParsedPage parse(String html) {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, bytes.length, null, PAGE);
    }
}
