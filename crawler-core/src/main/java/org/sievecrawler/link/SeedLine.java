package org.sievecrawler.link;

/**
 * A line of a seed file, read: blank (or a comment alone), one URL, or a line that cannot be one. A seed file has
 * one URL per line. Blank lines are skipped, and so is a comment: from a {@code #} at the start of a line, or after
 * a space or tab ({@code https://example.org/ # the home page} is the URL alone: a URL holds no space, so a
 * {@code #} after one cannot be its fragment, and {@code https://example.org/#top} keeps its fragment). A line
 * holding a space within its URL, or more than one word before a comment, is {@link Bad}. Whether the URL is a
 * usable seed is its normalizer's to say. Values; pure.
 */
public sealed interface SeedLine permits SeedLine.Blank, SeedLine.Url, SeedLine.Bad {

    /** A blank line, or a comment alone. */
    record Blank() implements SeedLine {
    }

    /** A line holding one URL, as written (not yet normalized). */
    record Url(String url) implements SeedLine {
    }

    /**
     * A line that cannot be a seed.
     *
     * @param problem what is wrong, e.g. "a space within the line: ..."
     * @param value the line as shown in the message (stripped)
     */
    record Bad(String problem, String value) implements SeedLine {
    }

    /** {@code line} read as a seed file's line. */
    static SeedLine of(String line) {
        String text = withoutComment(line).strip();
        if (text.isEmpty()) {
            return new Blank();
        }
        if (text.chars().anyMatch(ch -> Character.isWhitespace(ch) || Character.isSpaceChar(ch))) {
            return new Bad("a space within the line: a line holds one URL (a space in it written %20), then may end"
                    + " with \" # comment\"", line.strip());
        }
        return new Url(text);
    }

    /** {@code line} without its comment: from a # at its start or after a space or tab, to its end. */
    private static String withoutComment(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }
}
