package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * robots-disallowed (issue 24).
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
