package org.sievecrawler.input;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file the crawler was given that it will not read (missing, unreadable, not a regular file, over its size bound
 * or not UTF-8 text), or a folder it was given that it cannot write in ({@link Folders}). {@link #getMessage()} is {@code FILE: reason}, ready to print; {@link #reason()} is the reason
 * alone, for a caller that names the file its own way (a profile problem's {@code FILE:LINE:COL}).
 */
public final class InputFileException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String reason;

    InputFileException(Path file, String reason, Throwable cause) {
        super(file + ": " + reason, cause);
        this.file = file;
        this.reason = reason;
    }

    /** The file as the caller named it. */
    Path file() {
        return file;
    }

    /** What is wrong with it, without its name: e.g. "larger than 1048576 bytes, the limit of a profile (...)". */
    public String reason() {
        return reason;
    }
}
