package org.sievecrawler.checkpoint;

import java.nio.file.Path;
import org.sievecrawler.shell.Program;

/**
 * The commands that resume a crawl, as the crawl's messages and its checkpoint manifest suggest them, made here
 * alone: {@code crawler crawl --resume DIR}, and, for a crawl stopped at {@code limits.max-pages}, the same with a
 * higher limit. Stateless and thread-safe.
 *
 * <p>Out of scope: quoting the words for the shell and naming the program as the user started it ({@link Program}).
 */
public final class ResumeCommand {
    private ResumeCommand() {
    }

    /** The command that resumes the crawl in {@code dir}: {@code crawler crawl --resume DIR}. */
    public static String of(Program program, Path dir) {
        return program.command("crawl", "--resume", dir.toString());
    }

    /**
     * The command that resumes the crawl in {@code dir}, stopped at limits.max-pages with {@code decided} URLs
     * decided, with a higher limit: twice that, {@code crawler crawl --resume DIR --max-pages 2N}.
     */
    public static String withHigherLimit(Program program, Path dir, long decided) {
        return program.command("crawl", "--resume", dir.toString(), "--max-pages",
                Long.toString(Math.max(2 * decided, decided + 1)));
    }
}
