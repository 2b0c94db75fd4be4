package org.sievecrawler.sitemap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.SitemapBombs;
import org.sievecrawler.fixtures.TsvTable;

class SitemapReaderTest {
    private static final String AT = "http://example.org/sitemap.xml";
    private final SitemapReader reader = new SitemapReader(10_000);

    @Test
    void readsAnXmlSitemapWhateverItsContentTypeWouldHaveSaid() throws Exception {
        SitemapContent content = read(reader, "\uFEFF  <?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/"
                + "schemas/sitemap/0.9\"><url><loc>http://example.org/a</loc></url>"
                + "<url><loc>http://other.example/b</loc></url></urlset>");
        assertThat(content.pages()).containsExactly("http://example.org/a", "http://other.example/b");
        assertThat(content.sitemaps()).isEmpty();
        assertThat(content.found()).isEqualTo(2);
    }

    @Test
    void readsAnIndexAsItsSitemaps() throws Exception {
        SitemapContent content = read(reader, "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
                + "<sitemap><loc>http://example.org/s1.xml.gz</loc></sitemap></sitemapindex>");
        assertThat(content.sitemaps()).containsExactly("http://example.org/s1.xml.gz");
        assertThat(content.pages()).isEmpty();
    }

    @Test
    void readsATextSitemapGzippedOrNot() throws Exception {
        String text = "http://example.org/a\nhttp://example.org/b\n";
        assertThat(read(reader, text).pages()).containsExactly("http://example.org/a", "http://example.org/b");
        byte[] gzipped = gzip(text.getBytes(StandardCharsets.UTF_8));
        assertThat(reader.read(AT, gzipped, gzipped.length, false).pages()).hasSize(2);
    }

    @Test
    void stopsInflatingAtTheLimitSoAGzipBombIsRefused() throws Exception {
        byte[] bomb = gzip(new byte[10_001]);
        assertThat(bomb.length).isLessThan(1_000);
        assertThatThrownBy(() -> reader.read(AT, bomb, bomb.length, false)).isInstanceOf(SitemapException.class)
                .hasMessage("sitemap " + AT + " has more than scope.max-sitemap-bytes 10000 bytes once inflated");
    }

    @Test
    void refusesWhatIsNoSitemapNamingIt() {
        assertThatThrownBy(() -> read(reader, "<html><body>not found</body></html>"))
                .isInstanceOf(SitemapException.class).hasMessageStartingWith("sitemap " + AT + " could not be read: ");
        assertThatThrownBy(() -> read(reader, "<urlset><url><loc>http://127.0.0.1/x"))
                .as("the XML parser's reason, not only crawler-commons' \"Failed to parse\"")
                .isInstanceOf(SitemapException.class)
                .hasMessageStartingWith("sitemap " + AT + " could not be read: ")
                .hasMessageNotContaining("Failed to parse"); // the parser's words depend on the JVM's locale
        byte[] broken = {0x1f, (byte) 0x8b, 1, 2, 3};
        assertThatThrownBy(() -> reader.read(AT, broken, broken.length, false)).isInstanceOf(SitemapException.class)
                .hasMessageStartingWith("sitemap " + AT + " starts as gzip but could not be inflated");
    }

    static Stream<Arguments> bombs() throws IOException {
        return TsvTable.rows("/bounds/sitemap-bombs.tsv", 5).stream().map(row -> Arguments.of(row.cell(0), row));
    }

    /**
     * The payload table {@code /bounds/sitemap-bombs.tsv} (src-test-fixtures) at a 4 MiB limit: each bomb is read
     * keeping at most {@link SitemapReader#MAX_URLS} URLs, or refused as the row says.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("bombs")
    void readsEachSitemapBombWithinItsBoundsOrRefusesIt(String name, TsvTable.Row row) throws Exception {
        long limit = 4 << 20;
        String url = "http://example.org/bomb/" + name;
        byte[] body = SitemapBombs.bytes(name, "http://example.org", limit);
        SitemapReader bounded = new SitemapReader(limit);
        String error = row.cell(4).replace("{url}", url).replace("{limit}", Long.toString(limit));

        if (row.cell(2).equals("error")) {
            assertThatThrownBy(() -> bounded.read(url, body, body.length, false)).as(row.where())
                    .isInstanceOf(SitemapException.class).hasMessage(error);
        } else {
            SitemapContent content = bounded.read(url, body, body.length, false);
            assertThat(content.found()).as(row.where()).isEqualTo(Integer.parseInt(row.cell(3)));
            assertThat(content.cut()).as(row.where()).isEqualTo(!error.isEmpty());
            assertThat(content.listed()).as(row.where()).isGreaterThanOrEqualTo(content.found());
            assertThat(name.startsWith("index") ? content.sitemaps() : content.pages()).as(row.where())
                    .hasSize(content.found());
        }
    }

    @Test
    void countsEachEntryOnceThoughTheParserAsksAgainForAnEntryDropped() throws Exception {
        StringBuilder xml = new StringBuilder("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">");
        for (int i = 0; i < SitemapReader.MAX_URLS + 7; i++) {
            xml.append("<url><loc>http://example.org/").append(i).append("</loc><lastmod>2024-01-01</lastmod></url>");
        }
        SitemapContent content = read(new SitemapReader(10 << 20), xml.append("</urlset>").toString());

        assertThat(content.listed()).isEqualTo(SitemapReader.MAX_URLS + 7);
        assertThat(content.pages()).hasSize(SitemapReader.MAX_URLS).doesNotHaveDuplicates()
                .startsWith("http://example.org/0", "http://example.org/1")
                .endsWith("http://example.org/" + (SitemapReader.MAX_URLS - 1));
    }

    @Test
    void cutsARunOfTextLongerThanAnyUrlWithoutGatheringItWhole() throws Exception {
        String loc = "http://example.org/" + "a".repeat(3 * SitemapReader.MAX_TEXT_CHARS);
        SitemapContent content = read(new SitemapReader(10 << 20), "<urlset xmlns=\"http://www.sitemaps.org/schemas/"
                + "sitemap/0.9\"><url><loc>" + loc + "</loc></url><url><loc>http://example.org/b</loc></url>"
                + "</urlset>");

        assertThat(content.pages()).containsExactly(loc.substring(0, SitemapReader.MAX_TEXT_CHARS),
                "http://example.org/b");
    }

    @Test
    void tellsXmlFromTextPastAByteOrderMarkAndWhiteSpaceOnly() throws Exception {
        assertThat(read(reader, "\uFEFF \n http://example.org/a\n").pages()).containsExactly("http://example.org/a");
        byte[] notBom = {(byte) 0xEF, 'x', '\n', 'h', 't', 't', 'p', ':', '/', '/', 'a', '.', 't', 'e', 's', 't', '/'};
        assertThat(reader.read(AT, notBom, notBom.length, false).pages()).as("EF and no BB BF: text, no byte lost")
                .containsExactly("\ufffdx", "http://a.test/");
        assertThat(read(reader, " \n\t").found()).isZero();
    }

    private static SitemapContent read(SitemapReader reader, String body) throws SitemapException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return reader.read(AT, bytes, bytes.length, false);
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            gzip.write(data);
        }
        return bytes.toByteArray();
    }
}
