package org.sievecrawler.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputFileTest {
    private static final InputFile.Bound TEN = new InputFile.Bound("a test file", 10);

    @TempDir
    Path dir;

    @Test
    void readsARegularFileOfExactlyItsBound() throws Exception {
        Path file = Files.writeString(dir.resolve("ten"), "0123456789");

        assertThat(InputFile.readText(file, TEN)).isEqualTo("0123456789");
    }

    @Test
    void refusesAFileOneByteOverItsBoundNamingTheFileTheBoundAndTheSize() throws Exception {
        Path file = Files.writeString(dir.resolve("eleven"), "0123456789A");

        assertThatThrownBy(() -> InputFile.read(file, TEN)).isInstanceOf(InputFileException.class)
                .hasMessage(file + ": larger than 10 bytes, the most a test file may have (11 bytes)");
    }

    @Test
    void refusesAFileWhoseContentGoesOnPastTheSizeItsFileSystemGives() {
        Path status = Path.of("/proc/self/status"); // size 0, content some hundred bytes
        Assumptions.assumeTrue(Files.isReadable(status), "no /proc/self/status on this machine");

        assertThatThrownBy(() -> InputFile.read(status, TEN)).isInstanceOf(InputFileException.class)
                .hasMessage(status + ": larger than 10 bytes, the most a test file may have (its size said 0"
                        + " bytes, but it went on)");
    }

    @Test
    void refusesADirectoryByItsTypeBeforeOpeningIt() {
        assertThatThrownBy(() -> InputFile.read(dir, TEN)).isInstanceOf(InputFileException.class)
                .hasMessage(dir + ": not a regular file (a directory); a test file must be one");
    }

    @Test
    void refusesTheZeroDeviceByItsTypeWithoutReadingIt() {
        Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero on this machine");

        assertThatThrownBy(() -> InputFile.read(zero, InputFile.PROFILE)).isInstanceOf(InputFileException.class)
                .hasMessage("/dev/zero: not a regular file (a character device, such as /dev/zero); a profile must"
                        + " be one");
    }

    @Test
    void namesAMissingFile() {
        InputFileException e = (InputFileException) org.assertj.core.api.Assertions.catchThrowable(
                () -> InputFile.read(dir.resolve("gone"), TEN));

        assertThat(e.file()).isEqualTo(dir.resolve("gone"));
        assertThat(e.reason()).isEqualTo("no such file");
    }

    @Test
    void refusesTextThatIsNotUtf8NamingTheOffsetOfTheFirstBadByte() throws Exception {
        Path file = Files.write(dir.resolve("latin1"), "caf\u00e9!".getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> InputFile.readText(file, TEN))
                .hasMessage(file + ": not UTF-8 text (a malformed byte sequence at byte 3)");
    }

    @Test
    void decodesUtf8PastTheCheckersChunk() throws Exception {
        String text = "\u00e9\u20ac\ud83d\ude00".repeat(5_000); // 2-, 3- and 4-byte sequences across 8 K chunks
        Path file = Files.writeString(dir.resolve("utf8"), text);

        assertThat(InputFile.readText(file, InputFile.PROFILE)).isEqualTo(text);
    }

    @Test
    void aCheckpointsProfileHoldsAProfileAndASeedFileFourTimesOver() {
        assertThat(InputFile.SAVED_PROFILE.maxBytes())
                .isEqualTo(InputFile.PROFILE.maxBytes() + 4 * InputFile.SEED_FILE.maxBytes());
    }

    @Test
    void readsEachLineOnItsOwnSoALineThatIsNotUtf8IsToldApartFromTheOthers() throws Exception {
        Path file = Files.write(dir.resolve("seeds.txt"), bytes("\u00ef\u00bb\u00bfhttps://a.example/\r\n"
                + "https://b.example/\u00ff\u00fe\n\rhttps://c.example/caf\u00c3\u00a9\rlast"));

        assertThat(InputFile.readLines(file, InputFile.SEED_FILE)).containsExactly(
                new TextLine.Text(1, "https://a.example/"),
                new TextLine.NotUtf8(2, 19, "https://b.example/\\xff\\xfe"),
                new TextLine.Text(3, ""),
                new TextLine.Text(4, "https://c.example/caf\u00e9"),
                new TextLine.Text(5, "last"));
    }

    @Test
    void findsNoLineInAnEmptyFileAndNoneAfterTheLastLineEnd() throws Exception {
        Path empty = Files.write(dir.resolve("empty"), new byte[0]);
        Path one = Files.writeString(dir.resolve("one"), "a\n");

        assertThat(InputFile.readLines(empty, TEN)).isEmpty();
        assertThat(InputFile.readLines(one, TEN)).containsExactly(new TextLine.Text(1, "a"));
    }

    @Test
    void showsAByteSequenceCutAtTheEndOfALineAsItsBytes() throws Exception {
        Path file = Files.write(dir.resolve("cut"), bytes("caf\u00c3\nok"));

        assertThat(InputFile.readLines(file, TEN)).containsExactly(new TextLine.NotUtf8(1, 4, "caf\\xc3"),
                new TextLine.Text(2, "ok"));
    }

    /** Each char of {@code latin1} as the byte of its value. */
    private static byte[] bytes(String latin1) {
        return latin1.getBytes(StandardCharsets.ISO_8859_1);
    }
}
