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
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawler crawl} in a real terminal: a child JVM in a detached tmux session (a pane 120 or 100 columns wide,
 * on a tmux server of its own), whose screen the test reads with {@code tmux capture-pane} while the crawl runs and
 * after it ended; the window resized ({@code resize-window}, which sends the crawl SIGWINCH), Ctrl-C pressed
 * ({@code send-keys C-c}) and SIGTERM sent as a person would. Skipped when tmux is not installed
 * ({@code apt-get install tmux}); .ci/run installs it where it can. A pane's process hears SIGINT even when this
 * JVM inherited it as ignored: the tmux server sets its panes' signals back to their defaults.
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
                .anyMatch(line -> line.startsWith("crawl finished: decided=121 pages=121 "))
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
                        "crawl finished: decided=121 pages=121 ");
        assertThat(screens).as("the live line was drawn").anyMatch(shown -> nonEmptyLines(shown).stream()
                .anyMatch(line -> LIVE.matcher(line).matches()));
    }

    @Test
    void theLiveLineFollowsAResizedWindowAndLeavesNoWrappedCopiesBehind() throws Exception {
        assumeThat(tmuxRuns()).as("tmux is installed").isTrue();
        site.delayPages(250); // a crawl of some 15 s, the time to resize twice
        startCrawlInPane(folder.resolve("crawl"), 100);
        awaitScreen("a live line of more than 50 columns", screen -> liveLine(screen).length() > 50);

        assertThat(tmux("resize-window", "-x", "50")).isZero();
        List<String> narrow = awaitScreen("the live line redrawn to fit 50 columns",
                screen -> !liveLine(screen).isEmpty() && liveLine(screen).length() < 50);
        List<String> afterNarrow = awaitRedraw(narrow);
        assertThat(tmux("resize-window", "-x", "100")).isZero();
        List<String> wide = awaitScreen("the live line wider again", screen -> liveLine(screen).length() > 50);
        List<String> afterWide = awaitRedraw(wide);
        site.delayPages(0);
        List<String> ending = awaitScreen("the crawl's end", screen -> screen.contains("exit="));

        // from the first redraw at each new width on (the screens between a resize and it may show the old line)
        for (List<String> screens : List.of(afterNarrow, afterWide, ending)) {
            for (String screen : screens) {
                List<String> parts = nonEmptyLines(screen).stream().filter(line -> line.contains(" | ")).toList();
                assertThat(parts).as("at most one row of live line, the live line itself:%n%s", screen)
                        .hasSizeLessThanOrEqualTo(1).allMatch(line -> line.equals(liveLine(screen)));
            }
        }
        String last = ending.get(ending.size() - 1);
        assertThat(nonEmptyLines(last)).as("the final screen:%n%s", last).contains("exit=0")
                .noneMatch(line -> line.contains(" | "))
                .anyMatch(line -> line.startsWith("crawl finished: decided=121 pages=121 "));
    }

    @Test
    void aSecondCtrlCErasesTheLiveLineBeforeTheProcessEndsAndNamesCtrlCFirst() throws Exception {
        assumeThat(tmuxRuns()).as("tmux is installed").isTrue();
        startCrawlThatHangs();

        assertThat(tmux("send-keys", "C-c")).isZero();
        awaitScreen("the stop under way", screen -> screen.contains("stopping:"));
        assertThat(tmuxOutput("capture-pane", "-p", "-J")).contains("(Ctrl-C again to stop at once)");
        assertThat(tmux("send-keys", "C-c")).isZero();
        assertEndsAtOnceLeavingNoLiveLine(130);
    }

    @Test
    void aSigtermNamesKillAsTheWayToStopAtOnceAndASecondOneErasesTheLiveLine() throws Exception {
        assumeThat(tmuxRuns()).as("tmux is installed").isTrue();
        startCrawlThatHangs();
        long panePid = Long.parseLong(tmuxOutput("display-message", "-p", "#{pane_pid}").trim());
        ProcessHandle crawler = ProcessHandle.of(panePid).orElseThrow().children()
                .filter(child -> child.info().command().orElse("").endsWith("java")).findFirst().orElseThrow();

        assertThat(crawler.destroy()).as("SIGTERM sent").isTrue();
        awaitScreen("the stop under way", screen -> screen.contains("stopping:"));
        assertThat(tmuxOutput("capture-pane", "-p", "-J")).contains("(kill " + crawler.pid() + " again to stop at once)")
                .doesNotContain("Ctrl-C");
        assertThat(crawler.destroy()).as("SIGTERM sent again").isTrue();
        assertEndsAtOnceLeavingNoLiveLine(143);
    }

    /**
     * Starts a crawl in a pane 100 columns wide and waits for its live line; from then on the site's pages hang, and
     * this returns once one is hanging, so a graceful stop waits for it: the time for a second request to stop.
     */
    private void startCrawlThatHangs() throws IOException, InterruptedException {
        site.delayPages(200);
        startCrawlInPane(folder.resolve("crawl"), 100);
        awaitScreen("a live line", screen -> !liveLine(screen).isEmpty());
        site.delayPages(30_000);
        int answered = site.requestCount();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (site.requestCount() == answered) {
            assertThat(System.nanoTime()).as("a request hanging in time; the screen:%n%s", capture())
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    /** Waits for the crawl's end and checks it stopped at once with {@code exit}, its live line erased. */
    private void assertEndsAtOnceLeavingNoLiveLine(int exit) throws IOException, InterruptedException {
        List<String> ending = awaitScreen("the process's end", screen -> screen.contains("exit="));
        String last = ending.get(ending.size() - 1);
        assertThat(nonEmptyLines(last)).as("the final screen:%n%s", last)
                .contains("exit=" + exit) // the shell's next output starts a line of its own
                .noneMatch(line -> line.contains(" | "))
                .anyMatch(line -> line.startsWith("stopped at once: "));
    }

    /**
     * The screens from the last of {@code screens}, which shows a live line, until one shows another live line: a
     * redraw later (the elapsed time changes every second).
     */
    private List<String> awaitRedraw(List<String> screens) throws IOException, InterruptedException {
        String drawn = liveLine(screens.get(screens.size() - 1));
        List<String> after = new ArrayList<>(List.of(screens.get(screens.size() - 1)));
        after.addAll(awaitScreen("a redraw of " + drawn,
                screen -> !liveLine(screen).isEmpty() && !liveLine(screen).equals(drawn)));
        return after;
    }

    /** The live line on {@code screen}: its last non-empty row if that is one, else "". */
    private static String liveLine(String screen) {
        List<String> lines = nonEmptyLines(screen);
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
        return last.startsWith("pages ") && last.contains(" | ") ? last : "";
    }

    /**
     * Runs {@code crawler crawl} of the site into {@code out} in a tmux pane 120 columns wide, and returns the
     * screens seen while it ran, in order, the last after it ended (or after 90 s).
     */
    private List<String> crawlInPane(Path out) throws IOException, InterruptedException {
        startCrawlInPane(out, 120);
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

    /**
     * Starts {@code crawler crawl} of the site into {@code out} in a tmux pane {@code width} columns wide, run by a
     * shell that then prints {@code exit=STATUS} on a line of its own (as a prompt would) and waits; a Ctrl-C in the
     * pane reaches the crawl, and the shell goes on ({@code trap : INT}: a handler, so the crawl's SIGINT stays at its
     * default).
     */
    private void startCrawlInPane(Path out, int width) throws IOException, InterruptedException {
        Path script = folder.resolve("crawl.sh");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(script, "trap : INT\n" + String.join(" ", quote(java), "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-cp", quote(System.getProperty("java.class.path")), "org.sievecrawler.cli.Main",
                "crawl", quote(site.url("/")), "--out", quote(out.toString()), "--delay", "0", "--threads", "2")
                + "\necho \"exit=$?\"\nsleep 600\n");
        assertThat(tmux("-f", "/dev/null", "new-session", "-d", "-x", Integer.toString(width), "-y", "20",
                "sh " + quote(script.toString()))).isZero();
    }

    /** The screens seen until one shows {@code what} (the last), failing after 60 s with the last screen seen. */
    private List<String> awaitScreen(String what, Predicate<String> shows) throws IOException, InterruptedException {
        List<String> screens = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String screen = capture();
        screens.add(screen);
        while (!shows.test(screen)) {
            assertThat(System.nanoTime()).as("%s in time; the screen:%n%s", what, screen).isLessThan(deadline);
            Thread.sleep(100);
            screen = capture();
            screens.add(screen);
        }
        return screens;
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
        return InstalledCommands.runs("tmux", "-V");
    }

    private static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
