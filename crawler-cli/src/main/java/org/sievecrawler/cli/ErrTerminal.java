package org.sievecrawler.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Standard error when it is a terminal a person watches, and that terminal's width: whether {@code crawler crawl}
 * may draw its live progress line there ({@link LiveProgress}).
 *
 * <p>How stderr is recognized: Java 17's {@code System.console()} says whether stdin and stdout are a terminal,
 * not stderr ({@code crawler crawl > out.txt} at a terminal still has stderr on it; {@code 2> err.log} has stdout
 * on it but not stderr). So on Linux the link {@code /proc/self/fd/2} is read: a terminal is {@code /dev/pts/N},
 * {@code /dev/ttyN} or {@code /dev/tty}. Where there is no {@code /proc} (macOS, Windows) it falls back to
 * {@code System.console() != null}, which is right whenever stderr goes where stdout goes (the usual case). A
 * terminal whose {@code TERM} is {@code dumb} (or unset: a cron job, an IDE's console) has no erase-line
 * sequence, so it is not one here. JLine's detection would answer the same question with native code, for one
 * bit; not worth its weight here.
 *
 * <p>The width is {@code COLUMNS} when the shell exported it, else what {@code stty size} says of
 * {@code /dev/tty}, else 80; read once, when detected (a resized window keeps the first width: the line is
 * cut shorter than the new width, or wraps once on a narrower one).
 *
 * <p>Immutable; thread-safe.
 *
 * @param width the terminal's columns, > 0
 */
record ErrTerminal(int width) {
    static final int DEFAULT_WIDTH = 80;

    ErrTerminal {
        if (width <= 0) {
            throw new IllegalArgumentException("terminal width must be > 0, got " + width);
        }
    }

    /** Standard error of this process, if it is a terminal ({@code TERM} set and not dumb). */
    static Optional<ErrTerminal> detect() {
        Map<String, String> env = System.getenv();
        String term = env.getOrDefault("TERM", "");
        if (term.isEmpty() || term.equals("dumb") || !stderrIsTerminal()) {
            return Optional.empty();
        }
        return Optional.of(new ErrTerminal(width(env.get("COLUMNS"))));
    }

    private static boolean stderrIsTerminal() {
        Path fd = Path.of("/proc/self/fd/2");
        try {
            if (Files.exists(Path.of("/proc/self/fd"))) {
                return isTerminalDevice(Files.readSymbolicLink(fd).toString());
            }
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
        return System.console() != null;
    }

    /** Whether {@code device}, the target of a file descriptor's link, is a terminal. */
    static boolean isTerminalDevice(String device) {
        return device.startsWith("/dev/pts/") || device.matches("/dev/tty[0-9]*");
    }

    private static int width(String columns) {
        if (columns != null) {
            try {
                int width = Integer.parseInt(columns.trim());
                if (width > 0) {
                    return width;
                }
            } catch (NumberFormatException e) {
                // not a number: ask the terminal
            }
        }
        return sttyWidth().orElse(DEFAULT_WIDTH);
    }

    /** The columns {@code stty size} reports for {@code /dev/tty} ("rows columns"), if it runs. */
    private static Optional<Integer> sttyWidth() {
        try {
            Process stty = new ProcessBuilder("stty", "size").redirectInput(new java.io.File("/dev/tty"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String answer;
            try (InputStream in = stty.getInputStream()) {
                answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
            }
            if (!stty.waitFor(2, TimeUnit.SECONDS) || stty.exitValue() != 0) {
                stty.destroy();
                return Optional.empty();
            }
            String[] parts = answer.split("\\s+");
            int width = parts.length == 2 ? Integer.parseInt(parts[1]) : 0;
            return width > 0 ? Optional.of(width) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
