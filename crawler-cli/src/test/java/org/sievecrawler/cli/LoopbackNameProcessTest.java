package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;

/**
 * A crawl whose seed links to a host name that resolves only to 127.0.0.1 and is not a seed's host, run in a child
 * JVM whose resolver reads the test's hosts file ({@code -Djdk.net.hosts.file}): the name's robots.txt and pages are
 * refused by the address guard before any connection, and its pages are recorded as that refusal, not as
 * robots-disallowed (issue 24). And with {@code politeness.per: ip}, two names of 127.0.0.1 and the address itself are
 * asked as one server: never two requests closer than the delay (issue 27).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopbackNameProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path folder;

    @Test
    void recordsThePagesOfANameResolvingOnlyToLoopbackAsPrivateAddressRefusals() throws Exception {
        try (FixtureSite site = FixtureSite.start()) {
            String intranet = "http://intranet.test:" + site.port() + "/secret";
            site.page("/", FixtureSite.linkPage("home", intranet)).page("/secret", FixtureSite.linkPage("secret"));
            Path hosts = Files.writeString(folder.resolve("hosts"), "127.0.0.1 intranet.test\n");
            Path profile = Files.writeString(folder.resolve("profile.yaml"), String.join("\n",
                    "scope:",
                    "  hosts: [same-as-seeds, intranet.test]",
                    "politeness:",
                    "  delay: 0s",
                    "  robots-retry: 100ms",
                    ""));
            Path out = folder.resolve("crawl");
            ChildCrawler crawler = new ChildCrawler(folder.resolve("child.log"));

            Process crawl = crawler.start(List.of("-Djdk.net.hosts.file=" + hosts), "crawl", site.url("/"),
                    "--profile", profile.toString(), "--out", out.toString());

            assertThat(crawl.waitFor(45, TimeUnit.SECONDS)).as("the crawl ends").isTrue();
            assertThat(crawl.exitValue()).as(crawler.output()).isZero();
            JsonNode secret = record(out, intranet);
            assertThat(secret.get("outcome").asText()).as(secret.toString()).isEqualTo("out-of-scope");
            assertThat(secret.get("error").asText()).isEqualTo("host \"intranet.test\" resolves only to addresses a"
                    + " crawl may not reach: 127.0.0.1 (127.0.0.0/8 loopback); set fetch.allow-private-addresses to"
                    + " crawl them");
            assertThat(record(out, site.url("/")).get("outcome").asText()).isEqualTo("fetched");
            assertThat(site.requests("/secret")).as("no request reached the loopback name's page").isZero();
        }
    }

    @Test
    void withPolitenessPerIpTheNamesOfOneAddressShareItsDelay() throws Exception {
        try (FixtureSite site = FixtureSite.start()) {
            List<String> links = new ArrayList<>();
            for (String host : List.of("a.test", "b.test")) {
                for (int i = 1; i <= 3; i++) {
                    links.add("http://" + host + ":" + site.port() + "/" + host + "/" + i);
                    site.page("/" + host + "/" + i, FixtureSite.linkPage(host + " " + i));
                }
            }
            site.page("/", FixtureSite.linkPage("home", links.toArray(String[]::new)));
            Path hosts = Files.writeString(folder.resolve("hosts"), "127.0.0.1 a.test\n127.0.0.1 b.test\n");
            Path profile = Files.writeString(folder.resolve("profile.yaml"), String.join("\n",
                    "scope:",
                    "  hosts: [same-as-seeds, a.test, b.test]",
                    "fetch:",
                    "  threads: 4",
                    "  allow-private-addresses: true",
                    "politeness:",
                    "  delay: 300ms",
                    "  per: ip",
                    ""));
            Path out = folder.resolve("crawl");
            ChildCrawler crawler = new ChildCrawler(folder.resolve("child.log"));

            Process crawl = crawler.start(List.of("-Djdk.net.hosts.file=" + hosts), "crawl", site.url("/"),
                    "--profile", profile.toString(), "--out", out.toString());

            assertThat(crawl.waitFor(45, TimeUnit.SECONDS)).as("the crawl ends").isTrue();
            assertThat(crawl.exitValue()).as(crawler.output()).isZero();
            List<Long> arrivals = site.requestLog().stream().map(r -> r.getLoggedDate().getTime()).sorted().toList();
            assertThat(arrivals).as("robots.txt of 3 names, the seed and 6 pages").hasSize(10);
            for (int i = 1; i < arrivals.size(); i++) { // the next starts >= 300 ms after the previous ended
                assertThat(arrivals.get(i) - arrivals.get(i - 1)).as("ms between requests %d and %d to 127.0.0.1,"
                        + " whatever their names", i - 1, i).isGreaterThanOrEqualTo(300);
            }
            JsonNode dns = JSON.readTree(out.resolve("summary.json").toFile()).get("dns");
            assertThat(dns.get("failures").asLong()).isZero();
            assertThat(dns.get("lookups").asLong()).as("the names a.test and b.test, from the cache after").isPositive();
        }
    }

    private static JsonNode record(Path out, String url) throws Exception {
        for (String line : Files.readAllLines(out.resolve("pages.jsonl"))) {
            JsonNode record = JSON.readTree(line);
            if (record.get("url").asText().equals(url)) {
                return record;
            }
        }
        throw new AssertionError("no record of " + url + " in " + out.resolve("pages.jsonl"));
    }
}
