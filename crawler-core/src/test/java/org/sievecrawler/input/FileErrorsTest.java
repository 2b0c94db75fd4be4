package org.sievecrawler.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.PathMistakes;
import org.sievecrawler.fixtures.TsvTable;

class FileErrorsTest {
    private static final String TABLE = "/errors/file-system-errors.tsv";

    @TempDir
    Path dir;

    static Stream<Object[]> rows() throws IOException {
        return TsvTable.named(TABLE, 6);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void tellsEachFileSystemErrorInWords(String name, TsvTable.Row row) {
        IOException e = exception(row.cell(1), row.cell(2), row.cell(3));
        Path named = row.cell(4).isEmpty() ? null : Path.of(row.cell(4));

        String words = FileErrors.reason(named, e);

        assertThat(words).as(row.where()).isEqualTo(row.cell(5)).doesNotContainPattern(PathMistakes.JAVA_NAME);
    }

    @Test
    void namesTheFileOfAnErrorWhenTheCallerHasNot() {
        Path file = dir.resolve("pages.jsonl");

        assertThat(FileErrors.message(new AccessDeniedException(file.toString())))
                .isEqualTo(file + ": permission denied");
        assertThat(FileErrors.message(new IOException("cannot write " + file + ": no space left on the device")))
                .isEqualTo("cannot write " + file + ": no space left on the device");
    }

    @Test
    void namesTheFileThatStandsWhereAFolderOfThePathShouldBe() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Path under = file.resolve("sub").resolve("pages.jsonl");

        assertThat(FileErrors.reason(under, new FileSystemException(under.toString(), null, "Not a directory")))
                .isEqualTo(file + " is a file, not a folder");
        assertThat(FileErrors.notAFolderOnTheWay(under)).contains(file + " is a file, not a folder");
        assertThat(FileErrors.notAFolderOnTheWay(dir.resolve("sub").resolve("x"))).isEmpty();
    }

    @Test
    void namesAPartOfARelativePathAsThePathWritesIt() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Path relative = Path.of("").toAbsolutePath().relativize(file.resolve("sub"));

        assertThat(FileErrors.notAFolderOnTheWay(relative)).contains(relative.getParent() + " is a file, not a folder");
    }

    /** The exception a row names: ({@code file}, null, {@code reason}), a message, or one made of another. */
    private static IOException exception(String kind, String file, String text) {
        if (kind.startsWith("IOException(")) {
            return new IOException(exception(kind.substring("IOException(".length(), kind.length() - 1), file, text));
        }
        String reason = text.isEmpty() ? null : text;
        return switch (kind) {
            case "NoSuchFileException" -> new NoSuchFileException(file);
            case "AccessDeniedException" -> new AccessDeniedException(file);
            case "FileAlreadyExistsException" -> new FileAlreadyExistsException(file);
            case "NotDirectoryException" -> new NotDirectoryException(file);
            case "DirectoryNotEmptyException" -> new DirectoryNotEmptyException(file);
            case "FileSystemLoopException" -> new FileSystemLoopException(file);
            case "FileSystemException" -> new FileSystemException(file, null, reason);
            case "EOFException" -> new EOFException(reason);
            case "MalformedInputException" -> new MalformedInputException(Integer.parseInt(text));
            case "IOException" -> new IOException(reason);
            default -> throw new IllegalArgumentException("no exception named " + kind);
        };
    }
}
