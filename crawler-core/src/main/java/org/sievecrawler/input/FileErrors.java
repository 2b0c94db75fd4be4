package org.sievecrawler.input;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What went wrong with a file or folder, in the words a user reads: the reason an {@link IOException} about a path
 * carries, without the Java class name its {@code toString()} shows and without the path its message repeats
 * ({@link NoSuchFileException}'s message is the path alone, {@link FileSystemException}'s "PATH: Not a directory"),
 * and which part of a path is at fault ("a-file is a file, not a folder" for {@code a-file/sub}). The one place the
 * crawler turns a file system's refusal into words: for the files and folders the user names ({@code --out},
 * {@code --seeds}, {@code --profile}, {@code --resume}, a report's folder, a WARC file) and the files a crawl writes.
 *
 * <p>The table of words is {@link #SYSTEM_REASONS}, keyed by the operating system's own text (strerror, as the JDK
 * passes it in {@link FileSystemException#getReason()}); a reason not in it is shown lower-cased as the system gives
 * it. Stateless and thread-safe; it reads a path's attributes to find the part at fault. Out of scope: whether the
 * mistake is the user's or the crawl failed (the caller's exit code).
 */
public final class FileErrors {
    /** The words for the operating system's reasons that read better otherwise; lower-cased in any case. */
    private static final Map<String, String> SYSTEM_REASONS = Map.of(
            "Not a directory", "not a folder",
            "Is a directory", "a folder, not a file",
            "No space left on device", "no space left on the device",
            "Too many levels of symbolic links or unable to access attributes of symbolic link",
            "a loop of symbolic links",
            "Directory not empty", "the folder is not empty",
            "File name too long", "the name is too long",
            "Input/output error", "an input/output error of the device");

    /** The words for the JDK's exceptions that carry no reason text, by their class. */
    private static final Map<Class<? extends FileSystemException>, String> TYPE_WORDS = Map.of(
            NoSuchFileException.class, "no such file or folder",
            AccessDeniedException.class, "permission denied",
            FileAlreadyExistsException.class, "already exists",
            NotDirectoryException.class, "not a folder",
            DirectoryNotEmptyException.class, "the folder is not empty",
            FileSystemLoopException.class, "a loop of symbolic links");

    /** A Java class name in a message, as {@code toString()} of an exception puts it: removed from the words. */
    private static final Pattern CLASS_NAME = Pattern.compile(
            "\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)(?::\\s*|\\b)");

    private FileErrors() {
    }

    /**
     * Why {@code e} happened, in words, without the path: "no such file or folder", "permission denied",
     * "read-only file system", "no space left on the device"; the path the exception names is added in parentheses
     * when it is not {@code named} (a parent, or the other file of a move).
     *
     * @param named the path the caller names in its own message, e.g. the file it tried to write
     */
    public static String reason(Path named, IOException e) {
        IOException cause = unwrap(e);
        if (cause instanceof FileSystemException fs) {
            Optional<String> notAFolder = named == null ? Optional.empty() : notAFolderOnTheWay(named);
            if (notAFolder.isPresent()) {
                return notAFolder.get();
            }
            String words = systemWords(fs);
            String file = fs.getFile();
            return file == null || named == null || Path.of(file).equals(named)
                    || Path.of(file).toAbsolutePath().normalize().equals(named.toAbsolutePath().normalize())
                    ? words : words + " (" + file + ")";
        }
        return otherWords(cause);
    }

    /** {@link #reason(Path, IOException)} for a caller that names the path in its own message. */
    public static String reason(IOException e) {
        return reason(null, e);
    }

    /**
     * {@code e} as a whole message for a caller that has not named the file: "FILE: reason" when it is about a
     * file ("crawl-out/pages.jsonl: permission denied"), else its reason (a message of the crawler's own is kept).
     */
    public static String message(IOException e) {
        IOException cause = unwrap(e);
        if (cause instanceof FileSystemException fs && fs.getFile() != null) {
            return fs.getFile() + ": " + reason(Path.of(fs.getFile()), fs);
        }
        return reason(null, cause);
    }

    /**
     * Where a part of {@code path} that must be a folder (one of its parents) is something else: "a-file is a file,
     * not a folder", naming that part as {@code path} writes it; empty when every parent there is is a folder.
     */
    public static Optional<String> notAFolderOnTheWay(Path path) {
        Path parent = path.getParent();
        if (parent == null) {
            return Optional.empty();
        }
        Optional<String> above = notAFolderOnTheWay(parent);
        if (above.isPresent()) {
            return above;
        }
        Optional<BasicFileAttributes> attributes = attributes(parent);
        return attributes.isPresent() && !attributes.get().isDirectory()
                ? Optional.of(parent + " is " + InputFile.kind(parent, attributes.get()) + ", not a folder")
                : Optional.empty();
    }

    /** The attributes of {@code path} (its link followed), if it exists and they can be read. */
    static Optional<BasicFileAttributes> attributes(Path path) {
        try {
            return Optional.of(Files.readAttributes(path, BasicFileAttributes.class));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The exception an {@code IOException(cause)} was made of: its message is only the cause's toString(). */
    private static IOException unwrap(IOException e) {
        IOException at = e;
        while (at.getCause() instanceof IOException cause && String.valueOf(cause).equals(at.getMessage())) {
            at = cause;
        }
        return at;
    }

    private static String systemWords(FileSystemException e) {
        String reason = e.getReason();
        if (reason == null || reason.isBlank()) {
            return TYPE_WORDS.getOrDefault(e.getClass(), "the file system refused it");
        }
        String words = SYSTEM_REASONS.get(reason);
        return words != null ? words : lowerFirst(withoutClassNames(reason));
    }

    private static String otherWords(IOException e) {
        String message = e.getMessage() == null ? "" : withoutClassNames(e.getMessage()).strip();
        if (e instanceof EOFException) {
            return message.isEmpty() ? "it ends early" : "it ends early: " + message;
        }
        if (e instanceof CharacterCodingException) {
            return "not UTF-8 text"; // its message is "Input length = 1"
        }
        return message.isEmpty() ? "an input/output error" : message;
    }

    /** {@code text} without the Java class names an exception's {@code toString()} put in it. */
    static String withoutClassNames(String text) {
        return CLASS_NAME.matcher(text).replaceAll("");
    }

    private static String lowerFirst(String text) {
        return text.length() > 1 && Character.isUpperCase(text.charAt(0)) && !Character.isUpperCase(text.charAt(1))
                ? text.substring(0, 1).toLowerCase(Locale.ROOT) + text.substring(1) : text;
    }
}
