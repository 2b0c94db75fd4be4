package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawler crawl} in a real terminal: a child JVM in a detached tmux session (a pane 120 columns wide, on a
 * tmux server of its own), whose screen the test reads with {@code tmux capture-pane} while the crawl runs and
 * after it ended. Skipped when tmux is not installed ({@code apt-get install tmux}); .ci/run installs it where it
 * can.
 */
class LiveProgressTerminalTest {
    private static final Pattern LIVE = Pattern.compile(
            "pages (\\d+) \\| [0-9.]+/s \\| queued \\d+ \\| seen~\\d+ \\| fpr [0-9.]+% \\| errors 0 \\| \\d+KB \\| \\d+:\\d\\d.*");

    @TempDir
    Path folder;

    private final String socket = "sieve-live-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    private LinkedPagesSite site;

    @BeforeEach
    void start() {
        site = LinkedPagesSite.start(120, 30);
    }

    @AfterEach
    void stop() throws IOException, InterruptedException {
        site.close();
        tmux("kill-server"); // this test's own server, on its own socket: the session and the crawl with it
    }

    @Test
    void theLiveLineUpdatesAtTheBottomThenMakesWayForTheSummaryWithNoProgressLogLines() throws Exception {
        assumeThat(tmuxRuns()).as("tmux is installed").isTrue();
        Path out = folder.resolve("crawl");
        List<String> screens = crawlInPane(out);
        String screen = screens.get(screens.size() - 1);
        assertThat(screen).as("the crawl ended in time; its screen:%n%s", screen).contains("exit=0");

        Set<Long> pagesShown = new LinkedHashSet<>();
        for (String shown : screens) {
            List<String> lines = nonEmptyLines(shown);
            assertThat(lines).as("no progress log line on the console:%n%s", shown)
                    .noneMatch(line -> line.contains("rate=") || line.contains("progress - "));
            List<String> live = lines.stream().filter(line -> line.startsWith("pages ")).toList();
            assertThat(live).as("at most one live line, the last one:%n%s", shown).hasSizeLessThanOrEqualTo(1);
            if (!live.isEmpty()) {
                assertThat(lines.get(lines.size() - 1)).isEqualTo(live.get(0));
                assertThat(live.get(0).length()).isLessThan(120);
                Matcher matcher = LIVE.matcher(live.get(0));
                assertThat(matcher.matches()).as("a live line: %s", live.get(0)).isTrue();
                pagesShown.add(Long.parseLong(matcher.group(1)));
            }
        }
        assertThat(pagesShown).as("the live line updated").hasSizeGreaterThanOrEqualTo(2);

        List<String> last = nonEmptyLines(screen);
        assertThat(last).as("the final screen:%n%s", screen).noneMatch(line -> line.startsWith("pages "))
                .anyMatch(line -> line.startsWith("crawl finished: decided=121 fetched=121 "))
                .anyMatch(line -> line.startsWith("wrote "));
        assertThat(Files.readString(out.resolve("crawl.log"))).as("crawl.log keeps the progress lines")
                .containsPattern("org.sievecrawler.progress - fetched=121 rate=");
    }

    @Test
    void textFromTheNetworkNeitherClearsTheScreenNorRetitlesTheWindowNorBreaksTheLiveLine() throws Exception {
        assumeThat(tmuxRuns()).as("tmux is installed").isTrue();
        String esc = "\u001b";
        // the robots.txt: crawler-commons warns of each line it does not know, with the line
        site.robots("User-agent: *\nDisallow: /private\nfirst " + esc + "[2J" + esc + "]0;pwned-title\u0007 line\n"
                + "second " + esc + "]2;pwned-again" + esc + "\\ line \u009b2J\n");
        Path out = folder.resolve("crawl");

        List<String> screens = crawlInPane(out);

        String screen = screens.get(screens.size() - 1);
        assertThat(screen).as("the crawl ended in time; its screen:%n%s", screen).contains("exit=0");
        assertThat(tmuxOutput("display-message", "-p", "#{pane_title}")).doesNotContain("pwned");
        String joined = tmuxOutput("capture-pane", "-p", "-J"); // wrapped lines joined
        assertThat(joined).as("the screen was not cleared after the first lines:%n%s", joined)
                .contains("crawl started", "first \\x1b[2J\\x1b]0;pwned-title\\x07 line",
                        "second \\x1b]2;pwned-again\\x1b\\ line \\u009b2J",
                        "crawl finished: decided=121 fetched=121 ");
        assertThat(screens).as("the live line was drawn").anyMatch(shown -> nonEmptyLines(shown).stream()
                .anyMatch(line -> LIVE.matcher(line).matches()));
    }

    /**
     * Runs {@code crawler crawl} of the site into {@code out} in a tmux pane 120 columns wide, and returns the
     * screens seen while it ran, in order, the last after it ended (or after 90 s).
     */
    private List<String> crawlInPane(Path out) throws IOException, InterruptedException {
        Path script = folder.resolve("crawl.sh");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(script, String.join(" ", quote(java), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", quote(System.getProperty("java.class.path")), "org.sievecrawler.cli.Main", "crawl",
                quote(site.url("/")), "--out", quote(out.toString()), "--delay", "0", "--threads", "2")
                + "\necho \"exit=$?\"\nsleep 600\n");
        assertThat(tmux("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "20",
                "sh " + quote(script.toString()))).isZero();
        Set<String> screens = new LinkedHashSet<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        String screen = "";
        while (!screen.contains("exit=") && System.nanoTime() < deadline) {
            screen = capture();
            screens.add(screen);
            Thread.sleep(100);
        }
        List<String> inOrder = new ArrayList<>(screens);
        inOrder.add(screen);
        return inOrder;
    }

    private String capture() throws IOException, InterruptedException {
        return tmuxOutput("capture-pane", "-p");
    }

    /** What {@code tmux ARGS} printed on this test's server. */
    private String tmuxOutput(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket));
        command.addAll(List.of(args));
        Process tmux = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String printed = new String(tmux.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        tmux.waitFor();
        return printed;
    }

    private static List<String> nonEmptyLines(String screen) {
        return Arrays.stream(screen.split("\n")).map(String::stripTrailing).filter(line -> !line.isEmpty())
                .toList();
    }

    private int tmux(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().remove("TMUX"); // a test run inside tmux starts a server of its own all the same
        builder.environment().put("TERM", "xterm");
        return builder.start().waitFor();
    }

    private static boolean tmuxRuns() {
        try {
            return new ProcessBuilder("tmux", "-V").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
