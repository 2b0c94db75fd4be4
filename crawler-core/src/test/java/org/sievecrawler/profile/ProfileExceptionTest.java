package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileExceptionTest {

    @Test
    void joinsItsProblemsOnePerLine() {
        ProfileException e = new ProfileException(List.of(
                new ProfileProblem("a.yaml", 2, 3, "fetch.threads", "must be in [1, 1024] (0)"),
                new ProfileProblem("a.yaml", 5, 3, "fetch.threds",
                        "unknown key \"threds\" (did you mean \"threads\"?)")));

        assertThat(e).hasMessage("a.yaml:2:3: fetch.threads: must be in [1, 1024] (0)\n"
                + "a.yaml:5:3: fetch.threds: unknown key \"threds\" (did you mean \"threads\"?)");
        assertThat(e.problems()).hasSize(2);
    }

    @Test
    void needsAtLeastOneProblem() {
        assertThatThrownBy(() -> new ProfileException(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
