package org.sievecrawler.profile;

import java.util.ArrayList;
import java.util.List;

/**
 * One key whose value differs between two profiles, such as the one a checkpoint saved and the one a resume runs
 * with: the key and both values as a profile writes them. Immutable.
 *
 * @param key the key
 * @param before its value in the first profile, as YAML text ({@code 2s}, {@code [same-as-seeds]})
 * @param after its value in the second profile, as YAML text
 */
public record ProfileChange(ProfileKey<?> key, String before, String after) {

    /**
     * Every key whose value differs between {@code before} and {@code after}, in the order of the table of keys;
     * values are compared as written, so that a regular expression compares by its text.
     */
    public static List<ProfileChange> between(CrawlProfile before, CrawlProfile after) {
        List<ProfileChange> changes = new ArrayList<>();
        for (ProfileKey<?> key : ProfileKeys.all()) {
            String from = text(key, before);
            String to = text(key, after);
            if (!from.equals(to)) {
                changes.add(new ProfileChange(key, from, to));
            }
        }
        return changes;
    }

    /** Whether a resume may make this change ({@link ProfileKey#onResume()}). */
    public boolean mayChangeOnResume() {
        return key.onResume().mayChange();
    }

    /** The change as {@code politeness.delay 2s -> 200ms}. */
    @Override
    public String toString() {
        return key.name() + " " + before + " -> " + after;
    }

    private static <T> String text(ProfileKey<T> key, CrawlProfile profile) {
        return key.write(key.valueIn(profile));
    }
}
