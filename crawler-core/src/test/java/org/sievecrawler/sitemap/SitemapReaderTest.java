package org.sievecrawler.sitemap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

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
