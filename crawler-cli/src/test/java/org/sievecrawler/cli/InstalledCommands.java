package org.sievecrawler.cli;

import java.io.IOException;

/**
 * The commands of the machine a test needs beside the JVM (tmux, perl): whether one runs here, for a test to skip
 * without it, saying so.
 *
 * <p>Stateless; thread-safe.
 */
final class InstalledCommands {
    private InstalledCommands() {
    }

    /** Whether {@code command} runs here and exits 0 (its output discarded). */
    static boolean runs(String... command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
