package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProfileBinderTest {

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource({"threds, threads, 1", "threads, threads, 0", "dealy, delay, 2", "user_agent, user-agent, 1",
            "'', warc, 4", "max-depth, max-pages, 5"})
    void measuresEditDistanceInSingleCharacterEdits(String a, String b, int distance) {
        assertThat(ProfileBinder.editDistance(a, b)).isEqualTo(distance);
        assertThat(ProfileBinder.editDistance(b, a)).isEqualTo(distance);
    }

    @Test
    void bindsAnEmptyTreeToTheDefaultsUnderTheGivenName() {
        List<ProfileProblem> problems = new ArrayList<>();
        YamlNode.Mapping empty = new YamlReader("empty.yaml", problems).read("# nothing but a comment\n");

        CrawlProfile profile = new ProfileBinder(problems).bind(empty, "default");

        assertThat(problems).isEmpty();
        assertThat(profile).isEqualTo(CrawlProfile.defaults());
    }

    @Test
    void listsTheKnownKeysWhenNoneIsClose() {
        List<ProfileProblem> problems = new ArrayList<>();
        YamlNode.Mapping tree = new YamlReader("p.yaml", problems).read("parse:\n  zebra: true\n");

        assertThat(new ProfileBinder(problems).bind(tree, "p")).isNull();
        assertThat(problems).singleElement().hasToString(
                "p.yaml:2:3: parse.zebra: unknown key \"zebra\" (known keys: follow-nofollow)");
    }

    @Test
    void takesASingleTextAsAListOfOne() {
        List<ProfileProblem> problems = new ArrayList<>();
        YamlNode.Mapping tree = new YamlReader("p.yaml", problems).read("scope:\n  hosts: '*.example.org'\n");

        CrawlProfile profile = new ProfileBinder(problems).bind(tree, "p");

        assertThat(problems).isEmpty();
        assertThat(profile.scope().hosts()).containsExactly("*.example.org");
    }
}
