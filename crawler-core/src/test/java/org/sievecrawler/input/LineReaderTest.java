package org.sievecrawler.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineReaderTest {
    @TempDir
    Path dir;

    @Test
    void readsLinesEndedByLfCrLfOrCrAndDropsTheByteOrderMark() throws IOException {
        Path file = write(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, "a\nb\r\nc\rd");

        assertThat(texts(file, 0, 0)).containsExactly("1:a", "2:b", "3:c", "4:d");
    }

    @Test
    void goesOnFromTheOffsetAndLineNumberItGaveAfterAnyLine() throws IOException {
        Path file = write(new byte[0], "first\r\nsecond\n\nfourth\r\n");
        List<String> all = texts(file, 0, 0);
        try (LineReader reader = LineReader.open(file, 0, 0, 100)) {
            for (int read = 0; read < all.size(); read++) {
                try (LineReader again = LineReader.open(file, reader.offset(), reader.lineNumber(), 100)) {
                    List<String> rest = new ArrayList<>();
                    for (TextLine line = again.next(); line != null; line = again.next()) {
                        rest.add(line.number() + ":" + ((TextLine.Text) line).text());
                    }
                    assertThat(rest).as("after %d lines", read).isEqualTo(all.subList(read, all.size()));
                }
                reader.next();
            }
            assertThat(reader.offset()).isEqualTo(Files.size(file));
        }
    }

    @Test
    void aLineOverTheBoundIsTooLongWithItsStartAndTheNextLineIsRead() throws IOException {
        Path file = write(new byte[0], "x".repeat(5000) + "\nnext\n");

        try (LineReader reader = LineReader.open(file, 0, 0, 64)) {
            TextLine first = reader.next();
            assertThat(first).isInstanceOf(TextLine.TooLong.class);
            assertThat(((TextLine.TooLong) first).bytes()).isEqualTo(5000);
            assertThat(((TextLine.TooLong) first).start()).isEqualTo("x".repeat(64));
            assertThat(reader.next()).isEqualTo(new TextLine.Text(2, "next"));
            assertThat(reader.next()).isNull();
        }
    }

    @Test
    void aLineThatIsNotUtf8IsToldApart() throws IOException {
        Path file = write(new byte[] {'o', 'k', '\n', 'b', (byte) 0xFF, '\n'}, "last");

        try (LineReader reader = LineReader.open(file, 0, 0, 64)) {
            assertThat(reader.next()).isEqualTo(new TextLine.Text(1, "ok"));
            assertThat(reader.next()).isEqualTo(new TextLine.NotUtf8(2, 2, "b\\xff"));
            assertThat(reader.next()).isEqualTo(new TextLine.Text(3, "last"));
        }
    }

    private Path write(byte[] head, String text) throws IOException {
        byte[] tail = text.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[head.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return Files.write(dir.resolve("lines.txt"), all);
    }

    private static List<String> texts(Path file, long offset, long line) throws IOException {
        List<String> lines = new ArrayList<>();
        try (LineReader reader = LineReader.open(file, offset, line, 100)) {
            for (TextLine next = reader.next(); next != null; next = reader.next()) {
                lines.add(next.number() + ":" + ((TextLine.Text) next).text());
            }
        }
        return lines;
    }
}
