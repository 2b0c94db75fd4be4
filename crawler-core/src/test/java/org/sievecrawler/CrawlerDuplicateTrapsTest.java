package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_IGNORE_PARAMS;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_LEARN_DUPLICATES;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sievecrawler.fixtures.DuplicateTraps;
import org.sievecrawler.fixtures.DuplicateTraps.Trap;
import org.sievecrawler.learn.TemplateStats;
import org.sievecrawler.learn.UrlTemplate;
import org.sievecrawler.parse.SimHash;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.shell.Program;

/**
 * The duplicate traps of issue 30 ({@link DuplicateTraps}) crawled with the default profile, but for the seeds,
 * the output folder, timeouts, the pace (no delay, 4 connections and threads), {@code limits.max-pages} 3000
 * so the crawl ends in seconds, and {@code scope.ignore-params} empty (no rule given by hand either; its default
 * stops the tracking trap, {@link #theDefaultIgnoredParamsStopTheTrackingTrap}): with scope.learn-duplicates off,
 * the "before" figures; with it on (the default), each trap stopped within the 200 pages by a rule learned.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CrawlerDuplicateTrapsTest {
    private static final long MAX_PAGES = 3000;
    private static final Map<Trap, String> ENTRIES = Map.of(Trap.CALENDAR_QUERY, "/cal?date=2026-11-29",
            Trap.CALENDAR_PATH, "/cal/2026/11/29/", Trap.SESSION_ID, "/s/home?sid=0123456789ABCDEF",
            Trap.FACETS, "/shop?sort=price&view=grid&page=1", Trap.TRACKING, "/t/offers?utm_source=x&utm_campaign=1");

    @TempDir
    Path out;
    private final DuplicateTraps site = DuplicateTraps.start();

    @AfterEach
    void stop() {
        site.close();
    }

    /**
     * Before learning (main at 920bf72, 3000 pages; two runs, the split moves with the order of fetches):
     * pages fetched per trap CALENDAR_QUERY 33 and 44, CALENDAR_PATH 33 and 44, SESSION_ID 1995 and 1927, FACETS
     * 48 and 49, PRINT_VIEW 588 and 617, TRACKING 82 and 98, and the 221 real pages. The frontier goes breadth first, so the trap with the most new links
     * a page (sessions: six) takes most of the budget, and every trap takes some; none stops by itself. With
     * max-pages 10,000 (the default limits.max-pages-per-host; 32 s): CALENDAR_QUERY 66, CALENDAR_PATH 44,
     * SESSION_ID 7769, FACETS 60, PRINT_VIEW 1547, TRACKING 293, real 221. The crawl's pages.jsonl fed to
     * {@link TemplateStats} (the parser's own fingerprints): each trap's entry template is all near-duplicates but
     * its first page, the real list and article templates have none.
     */
    @Test
    void withoutLearningTheTrapsSpendTheBudgetAndTheRealSectionsAreStillComplete() throws Exception {
        CrawlOutput crawl = crawl(site.url("/"), MAX_PAGES);
        List<String> fetched = fetched(crawl);
        Map<Trap, Long> perTrap = new EnumMap<>(Trap.class);
        for (Trap trap : Trap.values()) {
            perTrap.put(trap, fetched.stream().filter(trap::matches).count());
        }
        System.out.println("duplicate traps, default profile, max-pages " + MAX_PAGES + ": fetched " + fetched.size()
                + ", per trap " + perTrap + ", real " + fetched.stream().filter(u -> Trap.of(u).isEmpty()).count());
        assertThat(fetched).containsAll(site.realUrls());
        TemplateStats stats = new TemplateStats(TemplateStats.Caps.DEFAULTS);
        for (JsonNode page : crawl.records) {
            if (page.get("outcome").asText().equals("fetched") && !page.get("simhash").isNull()) {
                stats.record(page.get("url").asText(), SimHash.parseHex(page.get("simhash").asText()));
            }
        }
        for (String real : List.of("/list?page=1", "/a/12345")) {
            assertThat(stats.counts(UrlTemplate.of(site.url(real))).orElseThrow().nearDuplicates()).as(real).isZero();
        }
        for (Map.Entry<Trap, String> entry : ENTRIES.entrySet()) {
            TemplateStats.Counts counts = stats.counts(UrlTemplate.of(site.url(entry.getValue()))).orElseThrow();
            System.out.println("  " + entry.getKey() + " " + UrlTemplate.of(site.url(entry.getValue())).pattern()
                    + ": " + counts);
            assertThat(counts.nearDuplicates()).as(entry.getKey() + ": all near-duplicates but the first")
                    .isEqualTo(counts.pages() - 1);
        }
        assertThat(fetched).as("the traps take all the budget the real pages leave").hasSize((int) MAX_PAGES);
        for (Trap trap : Trap.values()) {
            assertThat(perTrap.get(trap)).as(trap + " is crawled, far past what its text is worth").isGreaterThan(20);
        }
    }

    /**
     * Each trap alone, seeded at the page the home page links (max-pages 400): every page fetched is a page of
     * the trap or a print view of one, and at least 200 are the trap's own, the bound. One run at main
     * 920bf72: calendar (query) 220 + 180 print views, calendar (path) 220 + 180, sessions 350 + 50, facets
     * 208 + 192, tracking 317 + 83.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Trap.class, names = "PRINT_VIEW", mode = EnumSource.Mode.EXCLUDE)
    void aloneEachTrapTakesTheWholeBudget(Trap trap) throws Exception {
        CrawlOutput crawl = crawl(site.url(ENTRIES.get(trap)), 400);
        List<String> fetched = fetched(crawl);
        long own = fetched.stream().filter(trap::matches).count();
        long print = fetched.stream().filter(Trap.PRINT_VIEW::matches).count();
        System.out.println("duplicate traps, " + trap + " alone, max-pages 400: " + own + " + " + print + " print views");
        assertThat(fetched).hasSize(400);
        assertThat(own + print).isEqualTo(400);
        assertThat(own).isGreaterThanOrEqualTo(200);
    }

    /**
     * The default scope.ignore-params (utm_* among them) stops the tracking trap by hand: its links differ from
     * their page only by utm_ parameters, so they are the pages already seen. Seeded at its entry (max-pages 400):
     * 3 pages and their 3 print views (one run, branch params30), against 317 + 83 with the key empty; the issue's
     * bound is 200.
     */
    @Test
    void theDefaultIgnoredParamsStopTheTrackingTrap() throws Exception {
        CrawlOutput crawl = crawl(site.url(ENTRIES.get(Trap.TRACKING)), 400, CrawlProfile.defaults());
        List<String> fetched = fetched(crawl);
        long own = fetched.stream().filter(Trap.TRACKING::matches).count();
        System.out.println("duplicate traps, TRACKING alone, default ignore-params: " + fetched);
        assertThat(own).isBetween(1L, 200L);
        assertThat(fetched).allSatisfy(url -> assertThat(url).doesNotContain("utm_"));
        assertThat(crawl.summaryCount("canonicalized", "ignoreParams")).isPositive();
    }

    /** The rules that stop each trap: what a rules.jsonl line of it says (kind, then template or name). */
    private static final Map<Trap, java.util.function.Predicate<JsonNode>> STOPPED_BY = Map.of(
            Trap.CALENDAR_QUERY, r -> r.get("template").asText().startsWith("/cal?date="),
            Trap.CALENDAR_PATH, r -> r.get("template").asText().equals("/cal/{n}/{n}/{n}/"),
            Trap.SESSION_ID, r -> r.get("template").asText().startsWith("/s/"),
            Trap.FACETS, r -> r.get("template").asText().startsWith("/shop?"),
            Trap.PRINT_VIEW, r -> r.get("kind").asText().startsWith("alias-") && r.path("param").asText(
                    r.path("segment").asText()).equals("print"),
            Trap.TRACKING, r -> r.get("template").asText().startsWith("/t/"));

    /**
     * Issue 30: with the default profile (learning on; scope.ignore-params empty here, so no rule is given by hand),
     * every trap stops after at most 200 of its pages, each by a rule logged and written to rules.jsonl, and every
     * real page is fetched; the crawl ends by itself, far below max-pages. Resumed, the crawl puts its rules back
     * and learns none twice. One run (main e293f50): 866 records, 459 pages fetched: calendar (query) 12, calendar
     * (path) 28, sessions 103, facets 17, print views 31, tracking 47, real 221 of 221; 15 rules.
     */
    @Test
    void learningStopsEveryTrapWithin200PagesByARuleAndKeepsEveryRealPage() throws Exception {
        CrawlOutput crawl = learningCrawl(site.url("/"), MAX_PAGES);
        List<String> fetched = fetched(crawl);
        Map<Trap, Long> perTrap = new EnumMap<>(Trap.class);
        for (Trap trap : Trap.values()) {
            perTrap.put(trap, fetched.stream().filter(trap::matches).count());
        }
        List<JsonNode> rules = rules();
        System.out.println("duplicate traps, learning, max-pages " + MAX_PAGES + ": records " + crawl.records.size()
                + ", fetched " + fetched.size() + ", per trap " + perTrap + ", real "
                + fetched.stream().filter(u -> Trap.of(u).isEmpty()).count() + ", rules " + rules.size());
        rules.forEach(r -> System.out.println("  " + r.get("rule").asText()));
        assertThat(fetched).containsAll(site.realUrls());
        assertThat(crawl.records.size()).as("the crawl ended by itself").isLessThan((int) MAX_PAGES);
        assertThat(rules).allMatch(r -> r.get("event").asText().equals("learned"));
        for (Trap trap : Trap.values()) {
            assertThat(perTrap.get(trap)).as(trap + " pages fetched").isBetween(1L, 200L);
            assertThat(rules).as(trap + " stopped by a rule").anyMatch(STOPPED_BY.get(trap));
        }
        assertThat(crawl.records).filteredOn(r -> r.get("outcome").asText().equals("trap"))
                .as("a URL a rule refused is recorded naming it").isNotEmpty()
                .allMatch(r -> r.get("error").asText().startsWith("learned rule: "));
        assertThat(crawl.records.stream().map(r -> r.get("url").asText()).distinct().count())
                .as("each URL recorded once").isEqualTo(crawl.records.size());
    }

    @Test
    void aResumedCrawlPutsItsRulesBackAndLearnsNoneTwice() throws Exception {
        CrawlProfile profile = profile(site.url("/"), 150, CrawlProfile.defaults().with(SCOPE_IGNORE_PARAMS, List.of()));
        new Crawler(profile, Crawler.Start.NEW, Program.CRAWLER, Duration.ofMillis(300)).run();
        int before = rules().size();
        assertThat(before).isPositive();

        new Crawler(new CheckpointStore(out).readProfile().with(LIMITS_MAX_PAGES, 0L), Crawler.Start.RESUME,
                Program.CRAWLER, Duration.ofMillis(300)).run();

        List<JsonNode> rules = rules();
        System.out.println("duplicate traps, resumed after 150 pages: rules " + before + " then " + rules.size());
        assertThat(rules.stream().map(r -> r.get("rule").asText()).distinct().count()).as("none learned twice")
                .isEqualTo(rules.size());
        CrawlOutput crawl = CrawlOutput.read(out);
        List<String> fetched = fetched(crawl);
        assertThat(fetched).containsAll(site.realUrls());
        for (Trap trap : Trap.values()) {
            assertThat(fetched.stream().filter(trap::matches).count()).as(trap + " pages fetched").isBetween(1L, 200L);
        }
    }

    private List<JsonNode> rules() throws java.io.IOException {
        List<JsonNode> rules = new java.util.ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(out.resolve("rules.jsonl"))) {
            rules.add(new com.fasterxml.jackson.databind.ObjectMapper().readTree(line));
        }
        return rules;
    }

    /** The premise of the traps: every page of a trap has the same fingerprint as the others of its kind. */
    @Test
    void everyPageOfATrapHasTheFingerprintOfTheOthersAndRealPagesDiffer() {
        String first = DuplicateTraps.FIRST_DAY.toString();
        Set<Long> calendar = Set.of(List.of(first, "2027-01-31", "1999-02-28").stream()
                .map(d -> fingerprint("/cal?date=" + d)).collect(Collectors.toSet()).toArray(Long[]::new));
        assertThat(calendar).hasSize(1);
        assertThat(fingerprint("/cal/2027/01/31/")).isEqualTo(calendar.iterator().next());
        assertThat(fingerprint("/shop?sort=name&view=list&page=7")).isEqualTo(
                fingerprint("/shop?sort=price&view=grid&page=1"));
        assertThat(fingerprint("/s/cart;jsessionid=ABCDEF0123456789")).isEqualTo(fingerprint("/s/cart?sid=1"));
        assertThat(fingerprint("/t/deals?utm_source=x&utm_campaign=5")).isEqualTo(fingerprint("/t/deals"));
        assertThat(fingerprint("/print/a/12345")).isEqualTo(fingerprint("/a/12345"));
        assertThat(fingerprint("/list?page=2&print=1")).isEqualTo(fingerprint("/list?page=2"));
        for (String missing : List.of("/print/print/a/12345", "/a/12345?print=1&print=1", "/a/99999",
                "/cal?date=2026-13-01", "/shop?sort=price&view=grid&page=0", "/s/nowhere", "/list?page=21")) {
            assertThat(DuplicateTraps.visibleText(missing)).as(missing + " answers 404").isEmpty();
        }
        Map<Long, String> real = new TreeMap<>();
        for (String url : site.realUrls()) {
            long print = fingerprint(url.substring(site.origin().length()));
            for (Map.Entry<Long, String> earlier : real.entrySet()) {
                assertThat(SimHash.distance(earlier.getKey(), print)).as(url + " vs " + earlier.getValue())
                        .isGreaterThan(SimHash.NEAR_BITS);
            }
            real.put(print, url);
        }
    }

    private static long fingerprint(String pathAndQuery) {
        return SimHash.of(DuplicateTraps.visibleText(pathAndQuery).orElseThrow());
    }

    private static List<String> fetched(CrawlOutput crawl) {
        return crawl.records.stream().filter(r -> r.get("outcome").asText().equals("fetched"))
                .map(r -> r.get("url").asText()).toList();
    }

    /**
     * A crawl with the default scope but no scope.ignore-params and scope.learn-duplicates off (the traps as they
     * are, no rule of any kind).
     */
    private CrawlOutput crawl(String seed, long maxPages) throws CrawlException {
        return crawl(seed, maxPages, CrawlProfile.defaults().with(SCOPE_IGNORE_PARAMS, List.of())
                .with(SCOPE_LEARN_DUPLICATES, false));
    }

    /** A crawl with the default scope (learning on) but no scope.ignore-params (no rule given by hand). */
    private CrawlOutput learningCrawl(String seed, long maxPages) throws CrawlException {
        return crawl(seed, maxPages, CrawlProfile.defaults().with(SCOPE_IGNORE_PARAMS, List.of()));
    }

    private CrawlOutput crawl(String seed, long maxPages, CrawlProfile defaults) throws CrawlException {
        CrawlProfile profile = profile(seed, maxPages, defaults);
        assertThat(profile.scope()).isEqualTo(defaults.scope());
        Crawler.newCrawl(profile).run();
        return CrawlOutput.read(out);
    }

    private CrawlProfile profile(String seed, long maxPages, CrawlProfile defaults) {
        return defaults.with(SEEDS, List.of(seed))
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofSeconds(5))
                .with(FETCH_READ_TIMEOUT, Duration.ofSeconds(10)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(20))
                .with(LIMITS_MAX_PAGES, maxPages).with(OUTPUT_DIR, out);
    }
}
