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
 * emulator in use and the Windows 10+ console know): a few lines, so no terminal library (JLine's {@code Status}
 * keeps a block at the bottom with a scroll region, which is more than one line needs, and takes over the terminal
 * and its signals). The status must fit the width (the caller cuts it): a wrapped line would not be erased whole.
 * Those two codes are the only control characters this class writes of its own: the status is drawn with its
 * control characters escaped ({@link ControlCharacters}), so no text in it can move the cursor, clear the screen or
 * retitle the window; the lines written above are the log's, escaped by its layout ({@link EscapedPatternLayout}),
 * and the command's own messages.
 *
 * <p>Thread-safe: every write and redraw holds this object's lock, so a log line is never cut by a redraw.
 */
final class StatusLine {
    private static final byte[] ERASE = "\r\033[K".getBytes(StandardCharsets.US_ASCII);

    private final PrintStream terminal;
    private final OutputStream above = new Above();
    private String status = "";
    private boolean drawn;
    private boolean midLine;

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

    /** Erases the status and shows none from now on; the cursor is left at the start of the empty line. */
    synchronized void clear() {
        status = "";
        erase();
    }

    /** A stream whose bytes are written above the status. */
    OutputStream above() {
        return above;
    }

    private void erase() {
        if (drawn) {
            terminal.write(ERASE, 0, ERASE.length);
            terminal.flush();
            drawn = false;
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
