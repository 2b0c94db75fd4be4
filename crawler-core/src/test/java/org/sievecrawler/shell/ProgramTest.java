package org.sievecrawler.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.HostileText;
import org.sievecrawler.fixtures.TsvTable;

class ProgramTest {
    static Stream<Arguments> words() throws IOException {
        return TsvTable.rows("/shell/words.tsv", 3).stream().map(row -> Arguments.of(row.cell(0),
                HostileText.decode(row.cell(1)), HostileText.decode(row.cell(2))));
    }

    /** The payload table {@code /shell/words.tsv} (src-test-fixtures): each word quoted as the row says. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("words")
    void quotesEachWordAsTheTableSays(String name, String word, String quoted) {
        assertThat(Program.quote(word)).isEqualTo(quoted);
    }

    /** What matters of the quoting: sh reads the quoted word back as the word, whatever it holds. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("words")
    void shReadsEveryQuotedWordBackUnchanged(String name, String word, String quoted) throws Exception {
        Process sh = new ProcessBuilder("sh", "-c", "printf '%s' " + quoted).redirectErrorStream(true).start();
        String printed = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(sh.exitValue()).as(printed).isZero();
        assertThat(printed).isEqualTo(word);
    }

    @Test
    void aCommandIsTheProgramsWordsThenTheArgumentsEachQuoted() {
        Program program = Program.of("java", "-jar", "/opt/sieve crawler/crawler.jar");

        assertThat(program.command("crawl", "--resume", "my crawl"))
                .isEqualTo("java -jar '/opt/sieve crawler/crawler.jar' crawl --resume 'my crawl'");
        assertThat(program).hasToString("java -jar '/opt/sieve crawler/crawler.jar'");
        assertThat(Program.CRAWLER.command("report", "crawl-out")).isEqualTo("crawler report crawl-out");
    }

    @Test
    void aProgramWithoutAFirstWordIsRefusedNamingTheWords() {
        assertThatThrownBy(() -> new Program(List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a program is started by at least one word, the first not empty: []");
        assertThatThrownBy(() -> Program.of("", "crawl")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a program is started by at least one word, the first not empty: [, crawl]");
    }
}
