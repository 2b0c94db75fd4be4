package org.sievecrawler.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import crawlercommons.filters.basic.BasicURLNormalizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.UrlCorpus;
import org.sievecrawler.link.LinkDecision.Accept;
import org.sievecrawler.link.LinkDecision.Reject;

class UrlNormalizerTest {
    private static final HttpUrl PAGE = HttpUrl.get("http://example.com/dir/page.html?x=1#top");

    private final UrlNormalizer normalizer = new UrlNormalizer();

    /** One row of link/normalization.tsv; see the file's header. */
    record Case(int line, String base, String input, String expected, String reference, String comment) {
        @Override
        public String toString() {
            return "normalization.tsv:" + line + " " + (base.isEmpty() ? "" : "base " + base + " ") + "\"" + input + "\"";
        }
    }

    @Test
    void normalizesEveryCaseInTheTable() throws IOException {
        List<Case> cases = readCases();
        assertThat(cases).hasSizeGreaterThanOrEqualTo(60);
        for (Case c : cases) {
            assertThat(outcome(decide(c))).as(c.toString()).isEqualTo(c.expected());
        }
    }

    @Test
    void agreesWithBasicUrlNormalizerExceptWhereTheTableDocumentsWhy() throws IOException {
        BasicURLNormalizer reference = new BasicURLNormalizer();
        int agreements = 0;
        for (Case c : readCases()) {
            String actual = referenceOutcome(reference, c);
            if (c.reference().equals("=")) {
                boolean refused = actual.equals("null") || actual.equals("error");
                if (c.expected().startsWith("reject:")) {
                    assertThat(refused).as("%s: the reference refuses too, but returned %s", c, actual).isTrue();
                } else {
                    assertThat(actual).as("%s: the reference agrees", c).isEqualTo(c.expected());
                }
                agreements++;
            } else {
                assertThat(actual).as("%s: the reference's documented output", c).isEqualTo(c.reference());
                assertThat(c.comment()).as("%s: a difference needs a comment saying why", c).isNotBlank();
            }
        }
        assertThat(agreements).as("cases where the reference agrees").isGreaterThanOrEqualTo(60);
    }

    @Test
    void agreesWithBasicUrlNormalizerOnTenThousandCorpusUrls() {
        BasicURLNormalizer reference = new BasicURLNormalizer();
        UrlCorpus corpus = new UrlCorpus(7);
        for (long i = 0; i < 10_000; i++) {
            String url = corpus.url(i);
            assertThat(outcome(normalizer.normalize(url))).as(url).isEqualTo(reference.filter(url));
        }
    }

    @Test
    void normalizedUrlsAreFixedPoints() throws IOException {
        for (Case c : readCases()) {
            if (decide(c) instanceof Accept accept) {
                assertThat(normalizer.normalize(accept.url())).as(c.toString()).isEqualTo(accept);
                assertThat(normalizer.resolve(PAGE, accept.url())).as(c.toString()).isEqualTo(accept);
            }
        }
    }

    @Test
    void resolvesAnEmptyHrefToTheBaseWithoutItsFragment() {
        assertThat(normalizer.resolve(PAGE, "")).isEqualTo(new Accept("http://example.com/dir/page.html?x=1"));
        assertThat(normalizer.resolve(PAGE, " \t\n ")).isEqualTo(new Accept("http://example.com/dir/page.html?x=1"));
    }

    @Test
    void refusesJavascriptUrlsNamingTheScheme() {
        assertThat(normalizer.resolve(PAGE, "  javascript:void(0)"))
                .isEqualTo(new Reject(RejectReason.UNSUPPORTED_SCHEME, "scheme \"javascript\" is not http or https"));
        assertThat(normalizer.normalize("JAVASCRIPT:alert(1)"))
                .isEqualTo(new Reject(RejectReason.UNSUPPORTED_SCHEME, "scheme \"javascript\" is not http or https"));
    }

    @Test
    void refusesMailtoTelAndDataUrls() {
        for (String href : List.of("mailto:a@example.com", "tel:+33123", "data:image/png;base64,AAAA", "ftp://x/",
                "file:///etc/passwd", "about:blank", "urn:isbn:0451450523")) {
            LinkDecision decision = normalizer.resolve(PAGE, href);
            assertThat(decision).as(href).isInstanceOf(Reject.class);
            assertThat(((Reject) decision).reason()).as(href).isEqualTo(RejectReason.UNSUPPORTED_SCHEME);
        }
    }

    @Test
    void refusesAUrlLongerThan2048CharactersAfterNormalization() {
        String prefix = "http://example.com/";
        String fits = prefix + "a".repeat(UrlNormalizer.MAX_LENGTH - prefix.length());
        assertThat(normalizer.normalize(fits)).isEqualTo(new Accept(fits));

        LinkDecision tooLong = normalizer.normalize(fits + "b");
        assertThat(tooLong).isInstanceOf(Reject.class);
        assertThat(((Reject) tooLong).reason()).isEqualTo(RejectReason.TOO_LONG);
        assertThat(((Reject) tooLong).detail()).startsWith("normalized URL is 2049 characters, more than 2048");

        // Percent-encoding counts: 700 raw "é" are 1,400 UTF-8 bytes, 4,200 characters once encoded.
        LinkDecision encoded = normalizer.resolve(PAGE, "\u00e9".repeat(700));
        assertThat(((Reject) encoded).reason()).isEqualTo(RejectReason.TOO_LONG);
    }

    @Test
    void nameTheOffendingValueInMalformedDetails() {
        assertThat(normalizer.normalize("http://example.com:99999/"))
                .isEqualTo(new Reject(RejectReason.MALFORMED,
                        "URL \"http://example.com:99999/\": Invalid URL port: \"99999\""));
        assertThat(normalizer.resolve(PAGE, "//bad host/x"))
                .isEqualTo(new Reject(RejectReason.MALFORMED, "URL \"//bad host/x\": Invalid URL host: \"bad host\""));
        assertThat(normalizer.normalize("/relative/path"))
                .isEqualTo(new Reject(RejectReason.MALFORMED,
                        "URL \"/relative/path\" has no scheme; expected an absolute http or https URL"));
    }

    @Test
    void cutsLongInputsInDetails() {
        LinkDecision decision = normalizer.normalize("http://" + "a b".repeat(1000) + "/");
        assertThat(((Reject) decision).detail()).hasSizeLessThan(400).contains("(3008 characters)");
    }

    @Test
    void returnsAnAlreadyNormalPathOrQueryItself() {
        String path = "/a/b%2F%C3%A9;p=1";
        assertThat(UrlNormalizer.normalizeEncoding(path, UrlNormalizer.PATH_ALLOWED)).isSameAs(path);
    }

    @Test
    void refusesNullArguments() {
        assertThatNullPointerException().isThrownBy(() -> normalizer.normalize(null));
        assertThatNullPointerException().isThrownBy(() -> normalizer.resolve(null, "a"));
        assertThatNullPointerException().isThrownBy(() -> normalizer.resolve(PAGE, null));
    }

    private LinkDecision decide(Case c) {
        return c.base().isEmpty() ? normalizer.normalize(c.input()) : normalizer.resolve(HttpUrl.get(c.base()), c.input());
    }

    private static String outcome(LinkDecision decision) {
        return decision instanceof Accept accept ? accept.url() : "reject:" + ((Reject) decision).reason().label();
    }

    private static String referenceOutcome(BasicURLNormalizer reference, Case c) {
        try {
            String absolute = c.base().isEmpty() ? c.input() : new URL(new URL(c.base()), c.input()).toString();
            return String.valueOf(reference.filter(absolute));
        } catch (Exception e) {
            return "error";
        }
    }

    static List<Case> readCases() throws IOException {
        List<Case> cases = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                UrlNormalizerTest.class.getResourceAsStream("/link/normalization.tsv"), StandardCharsets.UTF_8))) {
            int lineNumber = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                if (f.length != 5) {
                    throw new IllegalStateException("normalization.tsv:" + lineNumber + ": expected 5 tab-separated"
                            + " columns (base, input, expected, reference, comment), found " + f.length);
                }
                cases.add(new Case(lineNumber, f[0], unescape(f[1]), f[2], f[3], f[4]));
            }
        }
        return cases;
    }

    /** Undoes the table's escapes: backslash-t, -n, -backslash and -uXXXX. */
    static String unescape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char next = s.charAt(i + 1);
                switch (next) {
                    case 't' -> sb.append('\t');
                    case 'n' -> sb.append('\n');
                    case '\\' -> sb.append('\\');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
                        i += 4;
                    }
                    default -> throw new IllegalArgumentException("unknown escape \\" + next + " in \"" + s + "\"");
                }
                i++;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
