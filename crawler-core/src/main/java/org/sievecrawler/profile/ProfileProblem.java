package org.sievecrawler.profile;

/**
 * One mistake in a profile, where it is and what is wrong. Immutable.
 *
 * <p>{@link #toString()} is the line printed to the user: {@code FILE:LINE:COL: key.path: what is wrong (value)},
 * e.g. {@code config/site.yaml:14:5: politeness.delay: must be >= 0 (-3s)}. Lines and columns count from 1. A
 * problem about a whole file (unreadable, YAML syntax) has an empty key path and is printed without it.
 *
 * @param file the file as the user named it (or as {@code extends} resolved it)
 * @param line line of the key (or of the list item) in error, from 1
 * @param column column of the key (or of the list item) in error, from 1
 * @param keyPath dotted key path such as {@code fetch.threads} or {@code scope.include[2]}; empty for the file
 * @param message what is wrong, ending with the value as written in parentheses where there is one
 */
public record ProfileProblem(String file, int line, int column, String keyPath, String message) {

    @Override
    public String toString() {
        String where = file + ":" + line + ":" + column + ": ";
        return keyPath.isEmpty() ? where + message : where + keyPath + ": " + message;
    }
}
