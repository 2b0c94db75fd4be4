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
}
