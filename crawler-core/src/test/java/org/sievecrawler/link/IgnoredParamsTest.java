package org.sievecrawler.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.UrlCorpus;
import org.sievecrawler.link.LinkDecision.Accept;
import org.sievecrawler.parse.JsoupPageParser;
import org.sievecrawler.parse.Outlink;
import org.sievecrawler.profile.CrawlProfile;

class IgnoredParamsTest {
    private static final List<String> RULE = List.of("utm_*", "sid", "gclid");

    private final UrlNormalizer today = new UrlNormalizer();
    private final UrlNormalizer ignoring = new UrlNormalizer(RULE);

    @Test
    void removesTheNamedParametersAsTheTableSays() throws IOException {
        List<String[]> cases = cases();
        assertThat(cases).hasSizeGreaterThanOrEqualTo(20);
        for (String[] c : cases) {
            LinkDecision decision = ignoring.normalize(c[0]);
            assertThat(decision).as("ignore-params.tsv: %s (%s)", c[0], c[3])
                    .isEqualTo(new Accept(c[1], Boolean.parseBoolean(c[2])));
            assertThat(ignoring.normalize(c[1])).as("%s is a fixed point", c[1]).isEqualTo(new Accept(c[1]));
        }
    }

    @Test
    void removesThemFromResolvedLinksAndAnEmptyHrefToo() {
        HttpUrl page = HttpUrl.get("http://a.test/dir/page.html?x=1&utm_source=feed");
        assertThat(ignoring.resolve(page, "other.html?sid=9&y=2"))
                .isEqualTo(new Accept("http://a.test/dir/other.html?y=2", true));
        assertThat(ignoring.resolve(page, "")).isEqualTo(new Accept("http://a.test/dir/page.html?x=1", true));
        assertThat(ignoring.resolve(page, "?gclid=abc")).isEqualTo(new Accept("http://a.test/dir/page.html", true));
    }

    @Test
    void namesGivenEscapedMatchTheNormalizedName() {
        UrlNormalizer escaped = new UrlNormalizer(List.of("utm%5fsource", "caf\u00e9"));
        assertThat(escaped.normalize("http://a.test/?utm_source=1&caf%C3%A9=2&b=3"))
                .isEqualTo(new Accept("http://a.test/?b=3", true));
    }

    @Test
    void theDefaultRemovesTrackingParametersOnly() {
        UrlNormalizer defaults = new UrlNormalizer(CrawlProfile.defaults().scope().ignoreParams());
        assertThat(defaults.normalize("https://a.test/p?id=7&utm_source=n&utm_medium=e&gclid=x&fbclid=y&msclkid=z"
                + "&mc_cid=1&mc_eid=2&sid=3&page=2")).isEqualTo(new Accept("https://a.test/p?id=7&sid=3&page=2", true));
    }

    /**
     * Differential: with the key empty, or naming parameters no URL has, the normalizer's output is byte for byte
     * what it is without the rule, on 20,000 corpus URLs (a quarter with queries) and every href of the real pages
     * of four Debian documentation packages (src-test-fixtures real-pages), resolved against their pages.
     */
    @Test
    void aRuleThatMatchesNothingChangesNoUrl() throws IOException {
        UrlNormalizer empty = new UrlNormalizer(List.of());
        UrlNormalizer absent = new UrlNormalizer(List.of("no-such-param", "zz_*"));
        UrlCorpus corpus = new UrlCorpus(30);
        for (long i = 0; i < 20_000; i++) {
            String url = corpus.url(i);
            LinkDecision expected = today.normalize(url);
            assertThat(empty.normalize(url)).as(url).isEqualTo(expected);
            assertThat(absent.normalize(url)).as(url).isEqualTo(expected);
        }
        int hrefs = 0;
        int withQuery = 0;
        JsoupPageParser parser = new JsoupPageParser();
        for (String page : realPages()) {
            byte[] body = gunzip("real-pages/" + page);
            HttpUrl base = HttpUrl.get("http://127.0.0.1:8080/").newBuilder()
                    .addPathSegments(page.substring(0, page.length() - ".gz".length())).build();
            for (Outlink link : parser.parse(body, body.length, "text/html", base).links()) {
                LinkDecision expected = today.resolve(base, link.href());
                assertThat(empty.resolve(base, link.href())).as("%s on %s", link.href(), page).isEqualTo(expected);
                assertThat(absent.resolve(base, link.href())).as("%s on %s", link.href(), page).isEqualTo(expected);
                hrefs++;
                withQuery += link.href().indexOf('?') >= 0 ? 1 : 0;
            }
        }
        assertThat(hrefs).as("hrefs of the real pages").isGreaterThan(10_000);
        assertThat(withQuery).as("hrefs with a query").isGreaterThan(0);
    }

    /**
     * Differential: with a rule that matches, the output is today's output with the named parameters cut out by a
     * plain split on {@code &} (a second, simple implementation), on corpus URLs given tracking parameters.
     */
    @Test
    void agreesWithASplitOnAmpersandOnCorpusUrlsWithTrackingParameters() {
        UrlCorpus corpus = new UrlCorpus(31);
        String[] extras = {"utm_source=news", "sid=0F3A", "gclid=x", "utm_medium=", "keep=1", "sidx=2"};
        for (long i = 0; i < 5_000; i++) {
            String url = corpus.url(i);
            StringBuilder query = new StringBuilder();
            for (int e = 0; e < extras.length; e++) {
                if (((i >> e) & 1) == 1) {
                    query.append(query.length() == 0 && url.indexOf('?') < 0 ? '?' : '&').append(extras[e]);
                }
            }
            String input = url + query;
            LinkDecision got = ignoring.normalize(input);
            LinkDecision plain = today.normalize(input);
            if (!(plain instanceof Accept accept)) {
                assertThat(got).as(input).isEqualTo(plain);
                continue;
            }
            String expected = split(accept.url());
            assertThat(got).as(input).isEqualTo(new Accept(expected, !expected.equals(accept.url())));
        }
    }

    /** {@code url} without the parameters named utm_*, sid or gclid: the reference for the test above. */
    private static String split(String url) {
        int q = url.indexOf('?');
        if (q < 0) {
            return url;
        }
        List<String> kept = new ArrayList<>();
        for (String param : url.substring(q + 1).split("&", -1)) {
            String name = param.contains("=") ? param.substring(0, param.indexOf('=')) : param;
            if (!name.startsWith("utm_") && !name.equals("sid") && !name.equals("gclid")) {
                kept.add(param);
            }
        }
        return kept.isEmpty() ? url.substring(0, q) : url.substring(0, q + 1) + String.join("&", kept);
    }

    private static List<String[]> cases() throws IOException {
        List<String[]> cases = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                IgnoredParamsTest.class.getResourceAsStream("/link/ignore-params.tsv"), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    cases.add(line.split("\t", -1));
                }
            }
        }
        return cases;
    }

    private static List<String> realPages() throws IOException {
        try (InputStream in = open("real-pages/index.txt")) {
            return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")).stream()
                    .filter(p -> p.endsWith(".gz")).toList();
        }
    }

    private static byte[] gunzip(String resource) throws IOException {
        try (InputStream in = new GZIPInputStream(open(resource))) {
            return in.readAllBytes();
        }
    }

    private static InputStream open(String resource) {
        InputStream in = IgnoredParamsTest.class.getClassLoader().getResourceAsStream(resource);
        assertThat(in).as("test resource %s (src-test-fixtures)", resource).isNotNull();
        return in;
    }
}
