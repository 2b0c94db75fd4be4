package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CrawlerCommandTest {

    @Test
    void helpListsTheExitCodes() {
        StringWriter out = new StringWriter();
        CommandLine commandLine = CrawlerCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));

        int exit = commandLine.execute("--help");

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("Usage: crawler", "Exit codes:", "usage or profile error");
    }

    @Test
    void anUnknownOptionIsAUsageErrorWithExitCodeTwo() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = CrawlerCommand.commandLine();
        commandLine.setErr(new PrintWriter(err));

        int exit = commandLine.execute("--no-such-option");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown option: '--no-such-option'");
    }
}
