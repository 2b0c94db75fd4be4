package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.shell.Program;

class InstallCommandTest {
    @TempDir
    Path dir;

    private Path script;
    private CrawlerCommand root;

    @BeforeEach
    void launcher() throws IOException {
        script = Files.writeString(dir.resolve("crawler-script"), "#!/bin/sh\n").toRealPath();
        root = started(new Launch(Program.of("crawler-cli/target/crawler"), Optional.of(script)));
    }

    private static CrawlerCommand started(Launch launch) {
        return new CrawlerCommand(ProfileSource.YAML, onStop -> () -> { }, ClusterConnector.KAFKA, Ticker.SYSTEM,
                launch);
    }

    @Test
    void linksTheLauncherIntoTheFolderGivenMakingItAndLeavesTheLinkAsItIsTheNextTime() throws IOException {
        Path bin = dir.resolve("home/bin");

        CommandRun first = CommandRun.execute(root, "install", bin.toString());
        CommandRun again = CommandRun.execute(root, "install", bin.toString());

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).startsWith("linked " + bin.resolve("crawler") + " -> " + script);
        assertThat(Files.readSymbolicLink(bin.resolve("crawler"))).isEqualTo(script);
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out()).startsWith(bin.resolve("crawler") + " links to " + script + " already");
    }

    @Test
    void neverOverwritesAFileOfThatName() throws IOException {
        Path mine = Files.writeString(Files.createDirectories(dir.resolve("bin")).resolve("crawler"), "mine\n");

        CommandRun run = CommandRun.execute(root, "install", dir.resolve("bin").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("install: " + mine + " exists and is not a link to this launcher (it"
                + " is a file of 5 bytes); it is left as it is: remove it yourself and install again, or give"
                + " install another folder (install DIR)");
        assertThat(mine).hasContent("mine");
    }

    @Test
    void neverReplacesALinkToAnotherFile() throws IOException {
        Path other = Files.writeString(dir.resolve("other-crawler"), "#!/bin/sh\n");
        Path link = Files.createSymbolicLink(Files.createDirectories(dir.resolve("bin")).resolve("crawler"), other);

        CommandRun run = CommandRun.execute(root, "install", dir.resolve("bin").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("install: " + link + " is a link to " + other + ", not to this"
                + " launcher (" + script + "); it is left as it is: remove it yourself and install again, or give"
                + " install another folder (install DIR)");
        assertThat(Files.readSymbolicLink(link)).isEqualTo(other);
    }

    /** A link left by a build that is gone: the rm it suggests, pasted into sh, makes room for the install. */
    @Test
    void aLinkToNothingIsLeftAloneWithTheRmThatRemovesIt() throws Exception {
        Path link = Files.createSymbolicLink(Files.createDirectories(dir.resolve("bin")).resolve("crawler"),
                dir.resolve("gone/crawler"));

        CommandRun run = CommandRun.execute(root, "install", dir.resolve("bin").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).startsWith("install: " + link + " is a link to " + dir.resolve("gone/crawler")
                + ", which does not exist (an earlier build's launcher?); it is left as it is: remove it, then"
                + " install again: rm " + link);
        String rm = run.err().strip().substring(run.err().strip().lastIndexOf(": ") + 2);
        assertThat(new ProcessBuilder("sh", "-c", rm).start().waitFor()).isZero();
        CommandRun again = CommandRun.execute(root, "install", dir.resolve("bin").toString());
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(Files.readSymbolicLink(link)).isEqualTo(script);
    }

    @Test
    void withoutTheLauncherItSaysToRunTheLauncher() {
        CommandRun run = CommandRun.execute(started(Launch.UNKNOWN), "install", dir.resolve("bin").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("install: links the launcher script").endsWith(
                "run the launcher instead, e.g. crawler-cli/target/crawler install" + System.lineSeparator());
        assertThat(dir.resolve("bin")).doesNotExist();
    }

    @Test
    void aFolderNotOnPathGetsTheExportLineThatPutsItThere() {
        Path bin = dir.resolve("bin");

        assertThat(InstallCommand.pathAdvice(bin, "/usr/bin:/bin")).containsExactly(bin + " is not on PATH; put it"
                + " there for this shell: export PATH=\"" + bin + ":$PATH\"", "(to keep it, add that line to your"
                + " shell's start file: ~/.profile, ~/.bashrc or ~/.zshrc)");
        assertThat(InstallCommand.pathAdvice(Path.of("/opt/my tools"), "/usr/bin").get(0))
                .endsWith("export PATH='/opt/my tools':\"$PATH\"");
    }

    @Test
    void aFolderOnPathIsSaidToBeSoUnlessAnotherCrawlerComesFirst() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path early = Files.createDirectories(dir.resolve("early"));
        Path shadow = Files.writeString(early.resolve("crawler"), "#!/bin/sh\n");
        shadow.toFile().setExecutable(true);

        assertThat(InstallCommand.pathAdvice(bin, "/usr/bin:" + bin + ":" + early)).containsExactly(bin + " is on"
                + " PATH: crawler runs from any folder now, e.g. crawler --version");
        assertThat(InstallCommand.pathAdvice(bin, early + ":" + bin)).containsExactly(bin + " is on PATH, but"
                + " another crawler comes before it: " + shadow + "; move " + bin + " to the front of PATH, or"
                + " remove that one");
    }
}
