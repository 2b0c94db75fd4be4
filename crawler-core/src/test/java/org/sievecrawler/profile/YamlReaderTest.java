package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sievecrawler.profile.YamlNode.Kind;
import org.sievecrawler.profile.YamlNode.Mapping;
import org.sievecrawler.profile.YamlNode.Mark;
import org.sievecrawler.profile.YamlNode.Scalar;
import org.sievecrawler.profile.YamlNode.Sequence;

class YamlReaderTest {
    private final List<ProfileProblem> problems = new ArrayList<>();

    @Test
    void keepsTheLineAndColumnOfEveryKeyAndListItem() {
        Mapping root = new YamlReader("p.yaml", problems).read("# comment\nfetch:\n  threads: 8\nseeds:\n  - a\n");

        assertThat(root.entries().get("fetch").keyMark()).isEqualTo(new Mark("p.yaml", 2, 1));
        Mapping fetch = (Mapping) root.entries().get("fetch").value();
        assertThat(fetch.entries().get("threads").keyMark()).isEqualTo(new Mark("p.yaml", 3, 3));
        Sequence seeds = (Sequence) root.entries().get("seeds").value();
        assertThat(seeds.items().get(0).mark()).isEqualTo(new Mark("p.yaml", 5, 5));
        assertThat(problems).isEmpty();
    }

    @Test
    void keepsScalarsAsWrittenWithTheParsersKind() {
        Mapping root = new YamlReader("p.yaml", problems).read("a: 10\nb: 10s\nc: true\nd:\ne: '10'\n");

        assertThat(root.entries().values()).extracting(e -> (Scalar) e.value())
                .extracting(Scalar::text, Scalar::kind)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("10", Kind.INTEGER),
                        org.assertj.core.groups.Tuple.tuple("10s", Kind.STRING),
                        org.assertj.core.groups.Tuple.tuple("true", Kind.BOOLEAN),
                        org.assertj.core.groups.Tuple.tuple("", Kind.NULL),
                        org.assertj.core.groups.Tuple.tuple("10", Kind.STRING));
    }

    @Test
    void refusesAnAliasJacksonWouldGiveAsItsBareName() {
        Mapping root = new YamlReader("p.yaml", problems).read("a: [*_id, '*_id']\nb: *x\n");

        assertThat(problems).extracting(ProfileProblem::toString).containsExactly(
                "p.yaml:1:5: a[0]: a YAML alias (*_id), which a profile has no use for: quote a value that starts with"
                        + " *, as '*_id'",
                "p.yaml:2:4: b: a YAML alias (*x), which a profile has no use for: quote a value that starts with *,"
                        + " as '*x'");
        Sequence a = (Sequence) root.entries().get("a").value();
        assertThat(((Scalar) a.items().get(1)).text()).isEqualTo("*_id"); // quoted: the text itself
    }

    @Test
    void readsAnEmptyDocumentAsAnEmptyMap() {
        assertThat(new YamlReader("p.yaml", problems).read("").entries()).isEmpty();
        assertThat(problems).isEmpty();
    }

    @Test
    void reportsADuplicateKeyAndKeepsTheFirst() {
        Mapping root = new YamlReader("p.yaml", problems).read("name: a\nname: b\n");

        assertThat(((Scalar) root.entries().get("name").value()).text()).isEqualTo("a");
        assertThat(problems).singleElement()
                .hasToString("p.yaml:2:1: name: duplicate key, already given at line 1 (name)");
    }

    @Test
    void refusesAValueOverItsBoundAtItsPositionAndBindsNothingFromIt() {
        String text = "name: ok\nscope:\n  include:\n    - " + "x".repeat(YamlReader.MAX_SCALAR_CHARS + 1) + "\n";

        Mapping root = new YamlReader("p.yaml", problems).read(text);

        assertThat(problems).extracting(ProfileProblem::toString).singleElement().asString()
                .startsWith("p.yaml:4:7: scope.include[0]: a value of 65537 characters, longer than 65536, the most a"
                        + " profile value may have (xxxxxxxxxx")
                .endsWith("x... (65537 characters))");
        Sequence include = (Sequence) ((Mapping) root.entries().get("scope").value()).entries().get("include").value();
        assertThat(((Scalar) include.items().get(0)).kind()).isEqualTo(Kind.REFUSED);
        problems.clear();
        new ProfileBinder(problems).bind(root, "p");
        assertThat(problems).isEmpty();
    }

    @Test
    void readsAValueOfExactlyItsBound() {
        Mapping root = new YamlReader("p.yaml", problems).read("name: " + "x".repeat(YamlReader.MAX_SCALAR_CHARS));

        assertThat(((Scalar) root.entries().get("name").value()).text()).hasSize(YamlReader.MAX_SCALAR_CHARS);
        assertThat(problems).isEmpty();
    }

    @Test
    void refusesAKeyOverItsBoundAndSkipsItsValue() {
        String key = "k".repeat(YamlReader.MAX_KEY_CHARS + 1);

        Mapping root = new YamlReader("p.yaml", problems).read("fetch:\n  " + key + ":\n    a: [1, 2]\n  threads: 2\n");

        assertThat(problems).extracting(ProfileProblem::toString).singleElement().asString()
                .startsWith("p.yaml:2:3: fetch: a key of 257 characters, longer than 256, the most a profile key may"
                        + " have (kkkkkkkkkk");
        assertThat(((Mapping) root.entries().get("fetch").value()).entries()).containsOnlyKeys("threads");
    }

    @Test
    void showsALongValueInAMessageByItsStartAndLength() {
        assertThat(YamlNode.shorten("y".repeat(100))).isEqualTo("y".repeat(100));
        assertThat(YamlNode.shorten("y".repeat(101))).isEqualTo("y".repeat(80) + "... (101 characters)");
    }
}
