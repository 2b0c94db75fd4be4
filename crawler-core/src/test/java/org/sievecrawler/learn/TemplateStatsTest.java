package org.sievecrawler.learn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.DuplicateTraps;
import org.sievecrawler.learn.TemplateStats.Counts;
import org.sievecrawler.learn.TemplateStats.ParamCounts;
import org.sievecrawler.parse.SimHash;

class TemplateStatsTest {
    private static final String ORIGIN = "http://127.0.0.1:8080";

    /**
     * The trap site's URLs, each with the fingerprint of the page the site serves there, one trap after the
     * other: after 40 pages every trap's template has 39 near-duplicates (each page but the first), at 100 pages
     * 99; the real sections (20 list pages, 200 articles) have none.
     */
    @Test
    void eachTrapsTemplateIsNearlyAllNearDuplicatesWithinFortyPagesAndTheRealSectionsNever() {
        Random random = new Random(30);
        Map<String, IntFunction<String>> traps = Map.of(
                "calendar, query", i -> "/cal?date=" + DuplicateTraps.FIRST_DAY.plusDays(i),
                "calendar, path", i -> "/cal/" + DuplicateTraps.FIRST_DAY.minusDays(i).toString().replace('-', '/') + "/",
                "jsessionid", i -> "/s/cart;jsessionid=" + hex(random),
                "sid", i -> "/s/home?sid=" + hex(random),
                "facets", i -> "/shop?sort=" + DuplicateTraps.SORTS.get(random.nextInt(4)) + "&view="
                        + DuplicateTraps.VIEWS.get(random.nextInt(3)) + "&page=" + (1 + random.nextInt(5)),
                "print", i -> "/cal?date=" + DuplicateTraps.FIRST_DAY.plusDays(i) + "&print=1",
                "tracking", i -> "/t/offers?utm_source=x&utm_campaign=" + (1000 + i));
        TemplateStats stats = new TemplateStats(TemplateStats.Caps.DEFAULTS);
        for (Map.Entry<String, IntFunction<String>> trap : traps.entrySet()) {
            for (int i = 0; i < 100; i++) {
                String path = trap.getValue().apply(i);
                stats.record(ORIGIN + path, fingerprint(path));
                if (i == 39 || i == 99) {
                    Counts counts = stats.counts(UrlTemplate.of(ORIGIN + path)).orElseThrow();
                    assertThat(counts.pages()).as(trap.getKey()).isEqualTo(i + 1);
                    assertThat(counts.nearDuplicates()).as(trap.getKey()).isEqualTo(i);
                }
            }
        }
        for (int page = 1; page <= DuplicateTraps.LIST_PAGES; page++) {
            stats.record(ORIGIN + "/list?page=" + page, fingerprint("/list?page=" + page));
        }
        for (int id : DuplicateTraps.ARTICLE_IDS) {
            stats.record(ORIGIN + "/a/" + id, fingerprint("/a/" + id));
        }
        Counts list = stats.counts(UrlTemplate.of(ORIGIN + "/list?page=1")).orElseThrow();
        assertThat(list.pages()).isEqualTo(20);
        assertThat(list.nearDuplicates()).isZero();
        assertThat(list.params()).containsEntry("page", new ParamCounts(0, 19));
        Counts articles = stats.counts(UrlTemplate.of(ORIGIN + "/a/12345")).orElseThrow();
        assertThat(articles.pages()).isEqualTo(200);
        assertThat(articles.nearDuplicates()).isZero();

        assertThat(params(stats, "/s/home?sid=ABCDEF0123456789")).containsEntry("sid", new ParamCounts(99, 0));
        assertThat(params(stats, "/t/offers?utm_source=x&utm_campaign=1"))
                .containsEntry("utm_campaign", new ParamCounts(99, 0)).containsEntry("utm_source", new ParamCounts(0, 0));
        assertThat(params(stats, "/s/cart;jsessionid=ABCDEF0123456789")).containsEntry(";jsessionid",
                new ParamCounts(99, 0));
        assertThat(params(stats, "/cal?date=2026-11-29")).containsEntry("date", new ParamCounts(99, 0));
        Map<String, ParamCounts> facets = params(stats, "/shop?sort=price&view=grid&page=1");
        assertThat(facets.keySet()).containsExactly("page", "sort", "view");
        assertThat(facets.values()).allSatisfy(p -> {
            assertThat(p.same()).isGreaterThan(0);
            assertThat(p.changed()).isZero();
        });
    }

    @Test
    void aPairIsUrlsEqualButForOneParametersValue() {
        TemplateStats stats = new TemplateStats(TemplateStats.Caps.DEFAULTS);
        long page = 0x0123456789abcdefL;
        stats.record("http://h/p?a=1&b=1", page);
        stats.record("http://h/p?a=2&b=1", page ^ 0b111); // 3 bits: near
        stats.record("http://h/p?a=2&b=2", ~page); // b changed the page
        stats.record("http://h/p?a=2&b=2#x", ~page); // the same URL again: no pair
        Counts counts = stats.counts(UrlTemplate.of("http://h/p?a=1&b=1")).orElseThrow();
        assertThat(counts.pages()).isEqualTo(4);
        assertThat(counts.nearDuplicates()).as("the second and the fourth").isEqualTo(2);
        assertThat(counts.params()).containsEntry("a", new ParamCounts(1, 0)).containsEntry("b", new ParamCounts(0, 1));
        stats.record("http://h/x;s=1;t=1/y;u=1?a=1", page);
        stats.record("http://h/x;s=2;t=1/y;u=1?a=1", page);
        stats.record("http://h/x;s=2;t=1/y;u=2?a=1", ~page);
        assertThat(stats.counts(UrlTemplate.of("http://h/x;s=1;t=1/y;u=1?a=1")).orElseThrow().params())
                .containsExactly(Map.entry(";s", new ParamCounts(1, 0)), Map.entry(";t", new ParamCounts(0, 0)),
                        Map.entry(";u", new ParamCounts(0, 1)), Map.entry("a", new ParamCounts(0, 0)));
    }

    @Test
    void keepsAtMostTheCapsLeastRecentlyRecordedOut() {
        TemplateStats stats = new TemplateStats(new TemplateStats.Caps(5, 3));
        for (String path : List.of("/a", "/b", "/c", "/a", "/d")) { // /b is the eldest of host one when /d comes
            stats.record("http://one" + path, 1);
        }
        assertThat(stats.counts(UrlTemplate.of("http://one/b"))).isEmpty();
        assertThat(stats.counts(UrlTemplate.of("http://one/a")).orElseThrow().pages()).isEqualTo(2);
        stats.record("http://two/x", 1);
        stats.record("http://two/y", 1);
        stats.record("http://two/z", 1); // six templates: host one, recorded least recently, gives up /c
        assertThat(stats.templates()).isEqualTo(5);
        assertThat(stats.counts(UrlTemplate.of("http://one/c"))).isEmpty();
        assertThat(stats.hosts()).isEqualTo(2);
        assertThatThrownBy(() -> new TemplateStats.Caps(10, 11)).hasMessage(
                "template caps must be >= 1 and templatesPerHost <= templates: templates 10, templatesPerHost 11");
    }

    /**
     * 1,000,000 random URLs (seed 30) over 10,000 hosts, each a random mix of word paths, numeric ids and query
     * parameters: never more templates than the caps, the estimate never past the caps' bytes, and the heap the
     * structure holds (measured after GC) within 1.5 x the estimate.
     */
    @Test
    void aMillionRandomUrlsOverTenThousandHostsStayWithinTheCaps() {
        TemplateStats.Caps caps = new TemplateStats.Caps(20_000, 200);
        long before = usedHeap();
        TemplateStats stats = new TemplateStats(caps);
        Random random = new Random(30);
        String[] words = {"docs", "news", "item", "list", "view", "user", "tag", "search", "api", "blog"};
        String[] params = {"page", "sort", "q", "sid", "utm_source", "id", "lang", "view"};
        for (int i = 0; i < 1_000_000; i++) {
            StringBuilder url = new StringBuilder("http://host").append(random.nextInt(10_000)).append(".test");
            for (int s = random.nextInt(4); s >= 0; s--) {
                url.append('/').append(random.nextBoolean() ? words[random.nextInt(words.length)]
                        + random.nextInt(1000) : Integer.toString(random.nextInt(1_000_000)));
            }
            for (int p = random.nextInt(4); p > 0; p--) {
                url.append(p == 1 && url.indexOf("?") < 0 ? '?' : url.indexOf("?") < 0 ? '?' : '&')
                        .append(params[random.nextInt(params.length)]).append('=').append(random.nextInt(100));
            }
            stats.record(url.toString(), random.nextLong());
            assertThat(stats.templates()).isLessThanOrEqualTo(caps.templates());
        }
        long maxBytes = (long) caps.templates() * (TemplateStats.TEMPLATE_BYTES + 64
                + TemplateStats.MAX_PARAMS * TemplateStats.PARAM_BYTES);
        assertThat(stats.estimatedBytes()).isLessThanOrEqualTo(maxBytes);
        long measured = usedHeap() - before;
        System.out.println("1M random URLs, 10,000 hosts, caps " + caps + ": " + stats.templates() + " templates, "
                + stats.hosts() + " hosts, estimated " + stats.estimatedBytes() + " B, measured " + measured + " B ("
                + measured / stats.templates() + " B a template)");
        assertThat(measured).isLessThan(stats.estimatedBytes() * 3 / 2);
        assertThat(stats.templates()).isEqualTo(caps.templates());
    }

    /** Four threads recording the same 100 templates: every page is counted once. */
    @Test
    void isSafeForParseThreads() throws Exception {
        TemplateStats stats = new TemplateStats(TemplateStats.Caps.DEFAULTS);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 20_000; i++) {
                        stats.record("http://h/t" + (i % 100) + "/x?sid=" + i, 42);
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            threads.shutdownNow();
        }
        int pages = 0;
        int near = 0;
        for (int t = 0; t < 100; t++) {
            Counts counts = stats.counts(UrlTemplate.of("http://h/t" + t + "/x?sid=1")).orElseThrow();
            pages += counts.pages();
            near += counts.nearDuplicates();
        }
        assertThat(pages).isEqualTo(80_000);
        assertThat(near).isEqualTo(80_000 - 100);
    }

    private static Map<String, ParamCounts> params(TemplateStats stats, String path) {
        return stats.counts(UrlTemplate.of(ORIGIN + path)).orElseThrow().params();
    }

    private static long fingerprint(String path) {
        return SimHash.of(DuplicateTraps.visibleText(path).orElseThrow(() -> new AssertionError("404: " + path)));
    }

    private static String hex(Random random) {
        return String.format("%016X", random.nextLong());
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
