package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProfileProblemTest {

    @Test
    void printsFileLineColumnKeyAndMessage() {
        ProfileProblem problem =
                new ProfileProblem("config/site.yaml", 14, 5, "politeness.delay", "must be >= 0 (-3s)");

        assertThat(problem).hasToString("config/site.yaml:14:5: politeness.delay: must be >= 0 (-3s)");
    }

    @Test
    void leavesOutTheKeyForAProblemWithTheWholeFile() {
        ProfileProblem problem = new ProfileProblem("a.yaml", 3, 11, "", "YAML syntax error: mapping values are not"
                + " allowed here");

        assertThat(problem).hasToString("a.yaml:3:11: YAML syntax error: mapping values are not allowed here");
    }
}
