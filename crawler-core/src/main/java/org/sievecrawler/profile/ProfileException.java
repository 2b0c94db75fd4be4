package org.sievecrawler.profile;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A profile that cannot be used, with every mistake found in it (not only the first). The message is one
 * {@link ProfileProblem} line per mistake, ready to print without a stack trace.
 */
public final class ProfileException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<ProfileProblem> problems;

    public ProfileException(List<ProfileProblem> problems) {
        super(problems.stream().map(ProfileProblem::toString).collect(Collectors.joining("\n")));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ProfileException needs at least one problem, got none");
        }
        this.problems = List.copyOf(problems);
    }

    /** The mistakes, in file order. */
    public List<ProfileProblem> problems() {
        return problems;
    }
}
