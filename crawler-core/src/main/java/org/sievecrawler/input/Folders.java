package org.sievecrawler.input;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * A folder the user names for the crawler to write in (a crawl's output folder: {@code --out}, {@code output.dir}),
 * checked or made with its parents; a refusal names the part of the path at fault in words ({@link FileErrors}):
 * "is a file, not a folder", "cannot be created: a-file is a file, not a folder", "cannot be created: permission
 * denied in /srv", "cannot be created: /srv is on a read-only file system", "cannot be created: /proc does not
 * take new folders". The rules are the same whether the folder is checked before a command asks anyone else
 * ({@link #problem}) or made ({@link #make}).
 *
 * <p>Stateless and thread-safe. Out of scope: what is in the folder (an earlier crawl's output: the crawl's own
 * check), and another process changing it between the check and its use.
 */
public final class Folders {
    private Folders() {
    }

    /**
     * Why {@code dir} cannot be a folder to write in, as far as can be told without making it: something else
     * stands at its path or at one of its parents', or the nearest folder there is cannot be written.
     */
    public static Optional<String> problem(Path dir) {
        Optional<BasicFileAttributes> itself = FileErrors.attributes(dir);
        if (itself.isPresent()) {
            if (!itself.get().isDirectory()) {
                return Optional.of("is " + InputFile.kind(dir, itself.get()) + ", not a folder");
            }
            return notWritable(dir, dir).map(why -> "cannot be written: " + why);
        }
        Optional<String> onTheWay = FileErrors.notAFolderOnTheWay(dir);
        if (onTheWay.isPresent()) {
            return Optional.of("cannot be created: " + onTheWay.get());
        }
        Path existing = nearestExisting(dir);
        return existing == null ? Optional.empty() : notWritable(existing, dir).map(why -> "cannot be created: " + why);
    }

    /**
     * Makes {@code dir} and its missing parents, unless it is a folder that can be written already.
     *
     * @throws InputFileException naming {@code dir} and, in words, why it cannot be made or written
     */
    public static void make(Path dir) throws InputFileException {
        Optional<String> problem = problem(dir);
        if (problem.isPresent()) {
            throw new InputFileException(dir, problem.get(), null);
        }
        try {
            Files.createDirectories(dir);
        } catch (NoSuchFileException e) {
            // every parent there is is a folder (problem() said so), yet the file system says there is none: a file
            // system that makes no folders on request, such as /proc
            Path parent = nearestExisting(dir);
            throw new InputFileException(dir, "cannot be created: " + (parent == null ? FileErrors.reason(dir, e)
                    : parent + " does not take new folders"), e);
        } catch (IOException e) {
            throw new InputFileException(dir, "cannot be created: " + FileErrors.reason(dir, e), e);
        }
        Optional<String> notWritable = notWritable(dir, dir);
        if (notWritable.isPresent()) {
            throw new InputFileException(dir, "cannot be written: " + notWritable.get(), null);
        }
    }

    /**
     * Why the folder {@code at} cannot be written in, if it cannot: permission denied, or a read-only file system;
     * {@code at} is named unless it is {@code dir} itself.
     */
    private static Optional<String> notWritable(Path at, Path dir) {
        if (Files.isWritable(at)) {
            return Optional.empty();
        }
        boolean itself = at.equals(dir);
        if (readOnly(at)) {
            return Optional.of((itself ? "it" : at.toString()) + " is on a read-only file system");
        }
        return Optional.of(itself ? "permission denied" : "permission denied in " + at);
    }

    private static boolean readOnly(Path dir) {
        try {
            FileStore store = Files.getFileStore(dir);
            return store.isReadOnly();
        } catch (IOException e) {
            return false;
        }
    }

    /** The nearest of {@code dir}'s parents that exists (as written, or made absolute for a relative path), or null. */
    private static Path nearestExisting(Path dir) {
        for (Path at = dir.toAbsolutePath().getParent(); at != null; at = at.getParent()) {
            if (Files.exists(at)) {
                return relativeAsGiven(dir, at);
            }
        }
        return null;
    }

    /** {@code parent} as {@code dir} names it: relative if {@code dir} is, and {@code dir} has it among its parts. */
    private static Path relativeAsGiven(Path dir, Path parent) {
        if (dir.isAbsolute()) {
            return parent;
        }
        for (Path at = dir.getParent(); at != null; at = at.getParent()) {
            if (at.toAbsolutePath().equals(parent)) {
                return at;
            }
        }
        return parent;
    }
}
