package org.sievecrawler.learn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.DuplicateTraps;
import org.sievecrawler.fixtures.TsvTable;

class UrlTemplateTest {
    static Stream<Arguments> templates() throws IOException {
        return TsvTable.rows("/learn/url-templates.tsv", 2).stream().map(row -> Arguments.of(row.cell(0), row));
    }

    /** The table {@code /learn/url-templates.tsv}: the trap URLs of issue 30 and names that must stay names. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("templates")
    void generalizesWhatLooksVariableAsTheTableSays(String url, TsvTable.Row row) {
        assertThat(UrlTemplate.of(url).toString()).as(row.where()).isEqualTo(row.cell(1));
    }

    /** Differential: the template of an OkHttp {@code HttpUrl} is the template of its string. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("templates")
    void anHttpUrlHasTheTemplateOfItsString(String url, TsvTable.Row row) {
        HttpUrl parsed = HttpUrl.get(url);
        assertThat(UrlTemplate.of(parsed)).as(row.where()).isEqualTo(UrlTemplate.of(url));
        assertThat(UrlTemplate.of(parsed.toString())).as(row.where()).isEqualTo(UrlTemplate.of(url));
    }

    @Test
    void eachTrapOfTheTrapSiteHasOneTemplateAndTheRealSectionsOneEach() {
        String[][] trapUrls = {
            {"/cal?date=2026-11-29", "/cal?date=2026-11-30", "/cal?date=2026-12-29"},
            {"/cal/2026/11/29/", "/cal/2026/10/29/"},
            {"/s/home;jsessionid=00000000DEADBEEF", "/s/home;jsessionid=ABCDEF0123456789"},
            {"/s/home?sid=00000000DEADBEEF", "/s/home?sid=ABCDEF0123456789"},
            {"/shop?sort=price&view=grid&page=1", "/shop?sort=name&view=compact&page=99"},
            {"/t/news?utm_source=x&utm_campaign=1", "/t/news?utm_source=x&utm_campaign=77"},
            {"/list?page=1", "/list?page=20"},
            {"/a/12345", "/a/13738"},
        };
        Set<UrlTemplate> all = new HashSet<>();
        for (String[] urls : trapUrls) {
            Set<UrlTemplate> templates = new HashSet<>();
            for (String url : urls) {
                templates.add(UrlTemplate.of("http://127.0.0.1:8080" + url));
            }
            assertThat(templates).as(List.of(urls).toString()).hasSize(1);
            all.addAll(templates);
        }
        assertThat(all).hasSize(trapUrls.length);
    }

    @Test
    void aPatternIsBoundedWhateverTheUrl() {
        String longPath = "http://h.test" + "/segment".repeat(1000) + "?" + "p=1&".repeat(1000)
                + "x".repeat(100_000);
        UrlTemplate template = UrlTemplate.of(longPath);
        assertThat(template.pattern().length()).isLessThanOrEqualTo(UrlTemplate.MAX_LENGTH);
        assertThat(UrlTemplate.of("http://" + "h".repeat(10_000) + "/").host()).hasSize(UrlTemplate.MAX_HOST);
        assertThat(UrlTemplate.of(longPath)).isEqualTo(template);
        assertThat(UrlTemplate.of(longPath + "y")).as("past the 32nd parameter").isEqualTo(template);
        String longNames = "http://h.test" + ("/" + "s".repeat(60)).repeat(20);
        assertThat(UrlTemplate.of(longNames + "/x").pattern()).hasSize(UrlTemplate.MAX_LENGTH).contains("~");
        assertThat(UrlTemplate.of(longNames + "/x")).as("cut, but the hash tells them apart")
                .isNotEqualTo(UrlTemplate.of(longNames + "/y"));
        assertThat(UrlTemplate.of("http://h.test/" + "w".repeat(65)).pattern()).isEqualTo("/{long}");
        assertThat(UrlTemplate.of("http://h.test/" + "a/".repeat(40)).pattern()).startsWith("/a/a/").endsWith("/…");
    }

    /**
     * Real pages of three Debian doc packages (929 URLs sampled from crawls of rust-doc, apache2-doc and
     * python-django-doc, {@code /learn/debian-doc-urls.tsv}): named by words, every page keeps a template of its
     * own (434, 265 and 230 templates). The whole crawls the sample comes from (/tmp/rbr2/c1, /tmp/rc/c2, /tmp/rc/d1
     * on the build machine) have as many templates as pages: rust-doc 21,738, apache2-doc 2,657, django 692.
     */
    @Test
    void realDocPagesKeepTemplatesOfTheirOwn() throws IOException {
        Map<String, Set<String>> urlsPerHost = new TreeMap<>();
        Map<String, Set<UrlTemplate>> templatesPerHost = new TreeMap<>();
        Map<UrlTemplate, List<String>> urlsPerTemplate = new TreeMap<>(
                (a, b) -> a.toString().compareTo(b.toString()));
        for (String[] row : TsvTable.cells("/learn/debian-doc-urls.tsv", 2)) {
            UrlTemplate template = UrlTemplate.of(row[0]);
            urlsPerHost.computeIfAbsent(template.host(), h -> new HashSet<>()).add(row[0]);
            templatesPerHost.computeIfAbsent(template.host(), h -> new HashSet<>()).add(template);
            urlsPerTemplate.computeIfAbsent(template, t -> new ArrayList<>()).add(row[0]);
        }
        List<String> shared = urlsPerTemplate.entrySet().stream().filter(e -> e.getValue().size() > 1)
                .map(e -> e.getKey() + " " + e.getValue().size()).toList();
        for (String host : urlsPerHost.keySet()) {
            System.out.println(host + ": " + urlsPerHost.get(host).size() + " URLs, "
                    + templatesPerHost.get(host).size() + " templates");
        }
        assertThat(shared).as("templates shared by more than one URL").isEmpty();
        assertThat(templatesPerHost.keySet()).containsExactly("apache2-doc.test", "django-doc.test", "rust-doc.test");
    }

    @Test
    void classifiesSegments() {
        assertThat(UrlTemplate.kind("2026", 0, 4)).isEqualTo("{n}");
        assertThat(UrlTemplate.kind("2026-11-29", 0, 10)).isEqualTo("{date}");
        assertThat(UrlTemplate.kind("2026-1-129", 0, 10)).isNull();
        assertThat(UrlTemplate.kind("deadbeef", 0, 8)).as("a word of hex letters").isNull();
        assertThat(UrlTemplate.kind("ch10-00-generics", 0, 16)).isNull();
        assertThat(UrlTemplate.kind("Utf8Error", 0, 9)).isNull();
        assertThat(UrlTemplate.kind("x", 0, 0)).isNull();
    }

    @Test
    void theTrapSiteIsCoveredByItsOwnPredicates() {
        assertThat(DuplicateTraps.Trap.of("http://h/cal?date=2026-11-29")).contains(DuplicateTraps.Trap.CALENDAR_QUERY);
        assertThat(DuplicateTraps.Trap.of("http://h/cal?date=2026-11-29&print=1"))
                .contains(DuplicateTraps.Trap.PRINT_VIEW);
        assertThat(DuplicateTraps.Trap.of("http://h/a/12345")).isEmpty();
    }
}
