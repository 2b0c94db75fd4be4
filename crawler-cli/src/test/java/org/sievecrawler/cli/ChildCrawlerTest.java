package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ChildCrawlerTest {
    @Test
    void sigintIsIgnoredWhenBitOneOfTheSigIgnMaskIsSet() {
        assertThat(ChildCrawler.sigintIgnored("Name:\tjava\nSigIgn:\t0000000000000002\nSigCgt:\t0\n")).isTrue();
        assertThat(ChildCrawler.sigintIgnored("SigIgn:\t0000000000000006\n")).as("SIGINT and SIGQUIT").isTrue();
        assertThat(ChildCrawler.sigintIgnored("SigIgn:\t0000000000001004\n")).as("SIGPIPE and SIGQUIT").isFalse();
        assertThat(ChildCrawler.sigintIgnored("SigIgn:\tffffffffffffffff\n")).isTrue();
        assertThat(ChildCrawler.sigintIgnored("Name:\tjava\n")).as("no SigIgn line: not Linux").isFalse();
    }

    @Test
    void aCommandStartedThroughTheWrapperHearsSigintThatItsParentIgnored() throws Exception {
        assumeThat(Files.isReadable(Path.of("/proc/self/status"))).as("Linux's /proc").isTrue();
        assumeThat(ChildCrawler.perlRuns()).as("perl is installed").isTrue();
        List<String> status = List.of("cat", "/proc/self/status");
        List<String> wrapped = new ArrayList<>(ChildCrawler.RESTORE_SIGINT);
        wrapped.addAll(status);

        assertThat(ChildCrawler.sigintIgnored(underIgnoredSigint(status))).as("the shell's trap ignores SIGINT")
                .isTrue();
        assertThat(ChildCrawler.sigintIgnored(underIgnoredSigint(wrapped))).as("the wrapper restores it").isFalse();
    }

    /** What {@code command} prints, run by a shell that ignores SIGINT first ({@code trap '' INT}), as {@code &} does. */
    private static String underIgnoredSigint(List<String> command) throws IOException, InterruptedException {
        List<String> shell = new ArrayList<>(List.of("sh", "-c", "trap '' INT; exec \"$@\"", "sh"));
        shell.addAll(command);
        Process process = new ProcessBuilder(shell).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(printed).isZero();
        return printed;
    }
}
