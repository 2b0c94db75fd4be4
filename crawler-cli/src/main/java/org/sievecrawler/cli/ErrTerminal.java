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
 * <p>The width is what {@code stty size} says of {@code /dev/tty}, else {@code COLUMNS} when the shell exported it
 * (a number set when the shell started, not updated by a resize), else 80. It is read when detected, and again
 * ({@link #measured()}) when the window changes size: the process in the foreground of a terminal receives SIGWINCH
 * then ({@link #onResize}). Reading it at each redraw instead would start {@code stty} twice a second, 1.6 ms each
 * (measured here with 50 runs from the JVM in a tmux pane, {@code ProcessBuilder} and {@code waitFor}): little, but
 * for nothing while the window keeps its size. Java itself cannot ask (the {@code TIOCGWINSZ} ioctl needs native
 * code: JLine's terminal providers, for one bit again). A terminal that gives no SIGWINCH (a crawl in a background
 * job, Windows) keeps its first width.
 *
 * <p>Immutable; thread-safe.
 *
 * @param width the terminal's columns, > 0
 * @param reflows whether the terminal rewraps its lines to a new width ({@link #reflows(Map)})
 */
record ErrTerminal(int width, boolean reflows) {
    static final int DEFAULT_WIDTH = 80;

    ErrTerminal {
        if (width <= 0) {
            throw new IllegalArgumentException("terminal width must be > 0, got " + width);
        }
    }

    /** A terminal {@code width} columns wide that reflows its lines. */
    ErrTerminal(int width) {
        this(width, true);
    }

    /** Standard error of this process, if it is a terminal ({@code TERM} set and not dumb). */
    static Optional<ErrTerminal> detect() {
        Map<String, String> env = System.getenv();
        String term = env.getOrDefault("TERM", "");
        if (term.isEmpty() || term.equals("dumb") || !stderrIsTerminal()) {
            return Optional.empty();
        }
        return Optional.of(new ErrTerminal(width(env.get("COLUMNS")), reflows(env)));
    }

    /** This terminal with its width read again (after a resize); the width it had where it cannot be read. */
    ErrTerminal measured() {
        return new ErrTerminal(sttyWidth().orElse(width), reflows);
    }

    /**
     * Runs {@code onResize} whenever the window of this process's terminal changes size (SIGWINCH, on a thread of its
     * own), until closed; never where the JVM has no such signal (Windows).
     */
    static StopSignal.Registration onResize(Runnable onResize) {
        return ProcessSignals.handle("WINCH", onResize);
    }

    /**
     * Whether the terminal described by the environment {@code env} rewraps its lines when its window gets narrower
     * (so a line drawn wider takes more rows): most do; xterm itself ({@code XTERM_VERSION} set, and not in tmux or
     * screen run inside it) and the Linux console ({@code TERM=linux}) cut the lines at the new width instead.
     */
    static boolean reflows(Map<String, String> env) {
        String term = env.getOrDefault("TERM", "");
        boolean multiplexer = env.containsKey("TMUX") || env.containsKey("STY");
        return !term.equals("linux") && (multiplexer || !env.containsKey("XTERM_VERSION"));
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
        Optional<Integer> measured = sttyWidth();
        if (measured.isPresent()) {
            return measured.get();
        }
        if (columns != null) {
            try {
                int width = Integer.parseInt(columns.trim());
                if (width > 0) {
                    return width;
                }
            } catch (NumberFormatException e) {
                // not a number: the default
            }
        }
        return DEFAULT_WIDTH;
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
