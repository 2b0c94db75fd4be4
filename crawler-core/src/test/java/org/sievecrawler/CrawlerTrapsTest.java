package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.profile.CrawlProfile;

/**
 * Crawler traps end-to-end, with the default profile's trap limits (scope.max-path-segments 32,
 * scope.max-repeated-segments 3, limits.max-pages-per-host 10000): only the seeds, the output folder, timeouts,
 * and the pace (politeness.delay 0, 4 connections and 4 threads, so 10,000 pages take seconds, not 3 hours)
 * differ. A tiny server on 127.0.0.1 answers every path: a calendar whose every day links to the next seven,
 * forever; a page linking "a/" relative to itself (/a/a/a/...), one linking "x/y/" (/x/y/x/y/...), and one
 * linking a deeper numbered segment (/deep/1/2/3/...).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CrawlerTrapsTest {
    @TempDir
    java.nio.file.Path out;
    private final ExecutorService serverThreads = Executors.newFixedThreadPool(4);
    private final HttpServer server = start();

    @AfterEach
    void stop() {
        server.stop(0);
        serverThreads.shutdownNow();
    }

    @Test
    void theDefaultProfileStopsRelativeLinkTrapsAtTheirFourthRepeatAndDeepPathsAt33Segments() throws Exception {
        CrawlOutput crawl = crawl(url("/"));
        assertThat(crawl.record(url("/a/a/a/")).get("outcome").asText()).isEqualTo("fetched");
        JsonNode a = crawl.record(url("/a/a/a/a/"));
        assertThat(a.get("outcome").asText()).isEqualTo("trap");
        assertThat(a.get("status").asInt()).isZero();
        assertThat(a.get("error").asText()).isEqualTo(
                "path repeats segment \"a\" 4 times in a row, more than scope.max-repeated-segments 3");
        assertThat(crawl.record(url("/x/y/x/y/x/y/x/y/")).get("error").asText()).isEqualTo(
                "path repeats 2 segments \"x/y\" 4 times in a row, more than scope.max-repeated-segments 3");
        StringBuilder deep = new StringBuilder("/deep");
        for (int i = 1; i <= 31; i++) {
            deep.append('/').append(i);
        }
        assertThat(crawl.record(url(deep + "/")).get("outcome").asText()).isEqualTo("fetched");
        JsonNode tooDeep = crawl.record(url(deep + "/32/"));
        assertThat(tooDeep.get("outcome").asText()).isEqualTo("trap");
        assertThat(tooDeep.get("error").asText()).isEqualTo("path has 33 segments, more than scope.max-path-segments 32");
        assertThat(crawl.summaryCount("outcomes", "trap")).isEqualTo(3);
        assertThat(crawl.records).as("/, 3 + 3 + 31 fetched, 3 traps").hasSize(1 + 3 + 3 + 31 + 3);
    }

    /**
     * Issue 27: the budget is spent as URLs are admitted, so the days past the 10,000th are counted
     * (over-host-budget), not queued, and get no record (before, each got a trap record).
     */
    @Test
    void theDefaultProfileStopsACalendarAtTenThousandPagesOfItsHost() throws Exception {
        CrawlOutput crawl = crawl(url("/cal/0"));
        assertThat(crawl.records).hasSize(10_000).allMatch(r -> r.get("outcome").asText().equals("fetched"));
        assertThat(crawl.summaryCount("linkRejections", "over-host-budget"))
                .as("days 10,000 to 10,006, each counted once: found again, they are seen").isEqualTo(7);
        assertThat(crawl.summaryCount("outcomes", "trap")).isZero();
    }

    private CrawlOutput crawl(String seed) throws CrawlException {
        CrawlProfile defaults = CrawlProfile.defaults();
        CrawlProfile profile = defaults.with(SEEDS, List.of(seed))
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofSeconds(5))
                .with(FETCH_READ_TIMEOUT, Duration.ofSeconds(10)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(20))
                .with(OUTPUT_DIR, out);
        assertThat(profile.scope()).isEqualTo(defaults.scope());
        assertThat(profile.limits()).isEqualTo(defaults.limits());
        Crawler.newCrawl(profile).run();
        return CrawlOutput.read(out);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private HttpServer start() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            http.createContext("/", this::answer);
            http.setExecutor(serverThreads);
            http.start();
            return http;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        StringBuilder links = new StringBuilder();
        if (path.equals("/robots.txt")) {
            send(exchange, 404, "");
            return;
        } else if (path.equals("/")) {
            links.append(link("a/")).append(link("x/y/")).append(link("deep/1/"));
        } else if (path.startsWith("/cal/")) {
            long day = Long.parseLong(path.substring("/cal/".length()));
            for (int next = 1; next <= 7; next++) {
                links.append(link("/cal/" + (day + next)));
            }
        } else if (path.startsWith("/a/")) {
            links.append(link("a/"));
        } else if (path.startsWith("/x/")) {
            links.append(link("x/y/"));
        } else if (path.startsWith("/deep/")) {
            String[] segments = path.split("/");
            links.append(link((Integer.parseInt(segments[segments.length - 1]) + 1) + "/"));
        }
        send(exchange, 200, "<!doctype html><title>" + path + "</title>" + links);
    }

    private static String link(String href) {
        return "<a href=\"" + href + "\">" + href + "</a>\n";
    }

    private static void send(HttpExchange exchange, int status, String html) throws IOException {
        byte[] body = html.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream stream = exchange.getResponseBody()) {
            stream.write(body);
        }
    }
}
