package org.sievecrawler.input;

/**
 * One line of a text file read line by line ({@link InputFile#readLines}): its text, or, when its bytes are not
 * UTF-8, where and how it reads, so the line alone is refused and the file's other lines are read. A value; any
 * number of threads.
 */
public sealed interface TextLine permits TextLine.Text, TextLine.NotUtf8, TextLine.TooLong {
    /** The line's number in its file, from 1. */
    long number();

    /**
     * A line of UTF-8 text.
     *
     * @param number the line's number, from 1
     * @param text the line without its end (LF, CR LF or CR), and without the byte order mark of a first line
     */
    record Text(long number, String text) implements TextLine {
    }

    /**
     * A line whose bytes are not UTF-8.
     *
     * @param number the line's number, from 1
     * @param badByte where in the line its first malformed byte sequence starts, from 1
     * @param shown the line with each malformed byte written {@code \xHH}, for a message to show
     */
    record NotUtf8(long number, int badByte, String shown) implements TextLine {
    }

    /**
     * A line longer than its reader's bound ({@link LineReader}), kept only in part.
     *
     * @param number the line's number, from 1
     * @param bytes the line's length in bytes
     * @param start its first bytes as text, a malformed byte written {@code \xHH}
     */
    record TooLong(long number, long bytes, String start) implements TextLine {
    }
}
