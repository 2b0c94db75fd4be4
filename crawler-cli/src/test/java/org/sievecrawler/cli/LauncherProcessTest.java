package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The launcher script run as a newcomer runs it, in a {@link LauncherCheckout}, and every command it suggests
 * pasted into a shell as printed and run: the resume after a stop, after a refused crawl into the same folder, and
 * after limits.max-pages; the {@code export} line of {@code crawler install}; named as typed
 * ({@code crawler-cli/target/crawler}), as on PATH ({@code crawler}), or as {@code java -jar FILE}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LauncherProcessTest {
    private LauncherCheckout checkout;
    private LinkedPagesSite site;

    @BeforeEach
    void createCheckoutAndSite() throws Exception {
        checkout = LauncherCheckout.create();
        site = LinkedPagesSite.start(30, 0);
    }

    @AfterEach
    void deleteCheckoutAndStopSite() throws Exception {
        site.close();
        checkout.close();
    }

    /** The command a line of {@code output} suggests: from {@code program}, the program as typed, to the line's end. */
    private static String suggested(String output, String program) {
        return output.lines().filter(line -> line.contains(": " + program + " ")).reduce((a, b) -> b)
                .map(line -> line.substring(line.lastIndexOf(": " + program + " ") + 2))
                .orElseThrow(() -> new AssertionError("no command of " + program + " suggested in: " + output));
    }

    @Test
    void theMaxPagesStopSuggestsAResumeWithAHigherLimitThatRunsWhenPasted() throws Exception {
        LauncherCheckout.Result stopped = checkout.sh(LauncherCheckout.LAUNCHER + " crawl " + site.url("/")
                + " --delay 0 --max-pages 3 --out out");

        assertThat(stopped.exit()).as(stopped.output()).isZero();
        String resume = suggested(stopped.output(), LauncherCheckout.LAUNCHER);
        assertThat(resume).isEqualTo(LauncherCheckout.LAUNCHER + " crawl --resume out --max-pages 6");
        assertThat(stopped.output()).contains("stopped at limits.max-pages 3 with ", " URLs pending; go on with a"
                + " higher limit (0 for none): " + resume);

        LauncherCheckout.Result resumed = checkout.sh(resume);

        assertThat(resumed.exit()).as(resumed.output()).isZero();
        assertThat(resumed.output()).contains("crawl max-pages: decided=6");
        List<String> log = Files.readAllLines(checkout.root().resolve("out/crawl.log"));
        assertThat(log.get(log.size() - 1)).as("crawl.log's last line").endsWith("go on with a higher limit (0 for"
                + " none): " + LauncherCheckout.LAUNCHER + " crawl --resume out --max-pages 12");
    }

    @Test
    void theResumeHintsOfAStoppedCrawlAndOfTheFolderItLeftRunWhenPasted() throws Exception {
        site.delayPages(100);
        Path log = checkout.root().resolve("first.log");
        Process first = checkout.start("exec " + LauncherCheckout.LAUNCHER + " crawl " + site.url("/")
                + " --delay 0 --threads 1 --out 'my crawl'", log);
        for (int i = 0; i < 3000 && site.requestCount() < 4; i++) {
            assertThat(first.isAlive()).as(Files.readString(log)).isTrue();
            Thread.sleep(10);
        }
        first.destroy(); // SIGTERM: a graceful stop, as Ctrl-C
        assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String stopping = Files.readString(log);
        assertThat(first.exitValue()).as(stopping).isEqualTo(143);
        assertThat(stopping).contains("resume with: " + LauncherCheckout.LAUNCHER + " crawl --resume 'my crawl'");
        assertThat(Files.readAllLines(checkout.root().resolve("my crawl/checkpoint/manifest.properties")).get(0))
                .isEqualTo("# Sieve Crawler checkpoint: resume with: " + LauncherCheckout.LAUNCHER
                        + " crawl --resume 'my crawl'");

        LauncherCheckout.Result refused = checkout.sh(LauncherCheckout.LAUNCHER + " crawl " + site.url("/")
                + " --out 'my crawl'");

        assertThat(refused.exit()).as(refused.output()).isEqualTo(2);
        assertThat(refused.output()).contains("my crawl holds a crawl that did not finish (stopped, ");
        String resume = suggested(refused.output(), LauncherCheckout.LAUNCHER);
        assertThat(resume).isEqualTo(suggested(stopping, LauncherCheckout.LAUNCHER));

        site.delayPages(0);
        LauncherCheckout.Result resumed = checkout.sh(resume);

        assertThat(resumed.exit()).as(resumed.output()).isZero();
        assertThat(resumed.output()).contains("crawl finished: decided=" + site.allUrls().size());
    }

    @Test
    void aFailedCrawlSaysSoOnceOnTheConsoleAndAsTheLastLineOfItsLog() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }

        LauncherCheckout.Result failed = checkout.sh(LauncherCheckout.LAUNCHER + " crawl http://127.0.0.1:" + port
                + "/ --set fetch.retries=0 --out out");

        assertThat(failed.exit()).as(failed.output()).isEqualTo(1);
        String why = "crawl failed: no page could be fetched: http://127.0.0.1:" + port
                + " unreachable (connection refused)";
        assertThat(failed.output().lines().filter(line -> line.contains("crawl failed"))).containsExactly(why);
        List<String> log = Files.readAllLines(checkout.root().resolve("out/crawl.log"));
        assertThat(log.get(log.size() - 1)).as("crawl.log's last line").contains(" ERROR ").endsWith(" - " + why);
    }

    @Test
    void installPrintsTheExportLineThatPutsCrawlerOnPathAndThenHintsNameCrawler() throws Exception {
        LauncherCheckout.Result installed = checkout.sh(LauncherCheckout.LAUNCHER + " install");

        Path bin = checkout.home().resolve(".local/bin");
        assertThat(installed.exit()).as(installed.output()).isZero();
        assertThat(installed.output()).contains("linked " + bin.resolve("crawler") + " -> "
                + checkout.root().resolve(LauncherCheckout.LAUNCHER));
        String export = installed.output().lines().filter(line -> line.contains("for this shell: "))
                .map(line -> line.substring(line.indexOf("for this shell: ") + "for this shell: ".length()))
                .findFirst().orElseThrow(() -> new AssertionError(installed.output()));
        assertThat(export).isEqualTo("export PATH=\"" + bin + ":$PATH\"");

        LauncherCheckout.Result onPath = checkout.sh("set -e\n" + export + "\ncrawler --version\ncrawler install");

        assertThat(onPath.exit()).as(onPath.output()).isZero();
        assertThat(onPath.output()).startsWith("crawler ")
                .contains(bin.resolve("crawler") + " links to " + checkout.root().resolve(LauncherCheckout.LAUNCHER)
                        + " already", bin + " is on PATH: crawler runs from any folder now, e.g. crawler --version");

        Files.createDirectories(checkout.home().resolve("elsewhere"));
        Map<String, String> path = Map.of("PATH", bin + ":/usr/local/bin:/usr/bin:/bin");
        LauncherCheckout.Result stopped = checkout.sh("cd home/elsewhere && crawler crawl " + site.url("/")
                + " --delay 0 --max-pages 2 --out out", path);

        assertThat(stopped.exit()).as(stopped.output()).isZero();
        String resume = suggested(stopped.output(), "crawler");
        assertThat(resume).isEqualTo("crawler crawl --resume out --max-pages 4");
        LauncherCheckout.Result resumed = checkout.sh("cd home/elsewhere && " + resume, path);
        assertThat(resumed.exit()).as(resumed.output()).isZero();
        assertThat(resumed.output()).contains("crawl max-pages: decided=4");
    }

    @Test
    void javaDashJarNamesItselfAsTypedInItsHints() throws Exception {
        Map<String, String> path = Map.of("PATH", Path.of(System.getProperty("java.home"), "bin")
                + ":/usr/local/bin:/usr/bin:/bin");
        LauncherCheckout.Result stopped = checkout.sh("java -jar crawler-cli/target/crawler.jar crawl "
                + site.url("/") + " --delay 0 --max-pages 2 --out out", path);

        assertThat(stopped.exit()).as(stopped.output()).isZero();
        String resume = suggested(stopped.output(), "java -jar crawler-cli/target/crawler.jar");
        assertThat(resume).isEqualTo("java -jar crawler-cli/target/crawler.jar crawl --resume out --max-pages 4");
        LauncherCheckout.Result resumed = checkout.sh(resume, path);
        assertThat(resumed.exit()).as(resumed.output()).isZero();
        assertThat(resumed.output()).contains("crawl max-pages: decided=4");
    }
}
