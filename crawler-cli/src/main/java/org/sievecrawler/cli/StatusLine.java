package org.sievecrawler.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.sievecrawler.escape.ControlCharacters;

/**
 * The last line of a terminal, kept for a status that is redrawn in place, with the log lines scrolling above it:
 * {@link #show} replaces the status; what is written to {@link #above()} (the console log appender's stream, the
 * command's messages) erases the status, is written, and the status is drawn again under it once a line ends.
 *
 * <p>Drawn with two control codes, carriage return and ANSI "erase in line" ({@code ESC [ K}, which every terminal
 * emulator in use and the Windows 10+ console know), and "cursor up" ({@code ESC [ A}) after a resize: a few lines,
 * so no terminal library (JLine's {@code Status} keeps a block at the bottom with a scroll region, which is more than
 * one line needs, and takes over the terminal and its signals). The status must fit the width (the caller cuts it):
 * a wrapped line would not be erased whole. When the window gets narrower than a status already drawn, a terminal
 * that reflows its lines (tmux, GNOME Terminal and the other VTE ones, Konsole, iTerm2, Terminal.app, Windows
 * Terminal, kitty, Alacritty) wraps it onto more rows, the cursor at its end: {@link #resized} says so, and the next
 * erase clears those rows too. Those three codes are the only control characters this class writes of its own: the
 * status is drawn with its control characters escaped ({@link ControlCharacters}), so no text in it can move the
 * cursor, clear the screen or retitle the window; the lines written above are the log's, escaped by its layout
 * ({@link EscapedPatternLayout}), and the command's own messages.
 *
 * <p>Thread-safe: every write and redraw holds this object's lock, so a log line is never cut by a redraw.
 */
final class StatusLine {
    private static final byte[] ERASE = "\r\033[K".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UP_AND_ERASE = "\033[A\033[K".getBytes(StandardCharsets.US_ASCII);

    private final PrintStream terminal;
    private final OutputStream above = new Above();
    private String status = "";
    private boolean drawn;
    private boolean midLine;
    private int rows = 1; // the rows the status drawn takes: more than one once a narrower window wrapped it

    /** A status line at the bottom of {@code terminal} (standard error). */
    StatusLine(PrintStream terminal) {
        this.terminal = terminal;
    }

    /**
     * Shows {@code text}, its control characters escaped, as the status now, or once a line written above ends;
     * "" shows none.
     */
    synchronized void show(String text) {
        status = ControlCharacters.escape(text);
        if (!midLine) {
            erase();
            draw();
        }
    }

    /**
     * The window is now {@code columns} wide, and the terminal reflows its lines: a status drawn wider now takes
     * more rows, all erased at the next redraw. Not for a terminal that cuts its lines at the new width (xterm, the
     * Linux console): the rows above the status would be erased.
     */
    synchronized void resized(int columns) {
        if (columns <= 0) {
            throw new IllegalArgumentException("terminal width must be > 0, got " + columns);
        }
        rows = drawn ? Math.max(1, (status.length() + columns - 1) / columns) : 1;
    }

    /**
     * Erases the status and shows none from now on; the cursor is left at the start of an empty line (a line
     * written above in part is ended first), where whatever is written next begins.
     */
    synchronized void clear() {
        status = "";
        erase();
        if (midLine) {
            terminal.write('\n');
            terminal.flush();
            midLine = false;
        }
    }

    /** A stream whose bytes are written above the status. */
    OutputStream above() {
        return above;
    }

    private void erase() {
        if (drawn) {
            terminal.write(ERASE, 0, ERASE.length);
            for (int row = 1; row < rows; row++) {
                terminal.write(UP_AND_ERASE, 0, UP_AND_ERASE.length);
            }
            terminal.flush();
            drawn = false;
            rows = 1;
        }
    }

    private void draw() {
        if (!status.isEmpty()) {
            terminal.print(status);
            terminal.flush();
            drawn = true;
        }
    }

    /** Writes above the status: erases it first, draws it again after a line ended. */
    private final class Above extends OutputStream {
        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            if (length == 0) {
                return;
            }
            synchronized (StatusLine.this) {
                erase();
                terminal.write(bytes, offset, length);
                midLine = bytes[offset + length - 1] != '\n';
                if (!midLine) {
                    draw();
                }
                terminal.flush();
            }
        }

        @Override
        public void flush() {
            terminal.flush();
        }

        @Override
        public void close() {
            flush(); // the terminal stays open
        }
    }
}
