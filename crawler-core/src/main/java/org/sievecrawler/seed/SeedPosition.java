package org.sievecrawler.seed;

/**
 * A crawl's seed file and how far it was offered to the frontier: what a checkpoint keeps of it, so a resume checks
 * the crawl folder's copy and reads on from there. Every line before {@code offset} was offered (a seed offered
 * again on resume is one the Sieve has seen: not admitted twice).
 *
 * @param fileBytes the copy's length in bytes; 0 for a crawl without a seed file ({@link #NONE})
 * @param fileCrc32c the copy's CRC-32C
 * @param offset the byte where the first line not yet offered starts
 * @param lines the lines before {@code offset}
 */
public record SeedPosition(long fileBytes, long fileCrc32c, long offset, long lines) {
    /** A crawl without a seed file: its seeds are the profile's. */
    public static final SeedPosition NONE = new SeedPosition(0, 0, 0, 0);

    public SeedPosition {
        if (fileBytes < 0 || offset < 0 || lines < 0 || offset > fileBytes || lines > offset) {
            throw new IllegalArgumentException("a seed file position needs 0 <= lines <= offset <= bytes, was "
                    + lines + " lines, offset " + offset + ", " + fileBytes + " bytes");
        }
    }

    /** Whether the crawl has a seed file. */
    public boolean hasFile() {
        return fileBytes > 0;
    }

    /** Whether every line of the file was offered. */
    public boolean atEnd() {
        return offset == fileBytes;
    }

    /** This file at {@code offset}, after {@code lines} lines. */
    public SeedPosition at(long offset, long lines) {
        return new SeedPosition(fileBytes, fileCrc32c, offset, lines);
    }
}
