package org.sievecrawler.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/** The change rule's labels and the order its cases apply in (the fixtures of ChangeSetTest hold one of each). */
class ChangeTest {
    private static PageRecord record(int status, Outcome outcome, String digest) {
        return new PageRecord("http://a.test/", status, outcome, null, 0, 0, 0, 0, null, null, null, null, false)
                .withFingerprints(digest, null);
    }

    @Test
    void labelsAreKebabCaseAndKeysCamelCase() {
        assertThat(Arrays.stream(Change.values()).map(Change::label)).containsExactly("new", "changed", "unchanged",
                "not-modified", "gone", "moved", "unreachable", "not-visited");
        assertThat(Arrays.stream(Change.values()).map(Change::key)).containsExactly("new", "changed", "unchanged",
                "notModified", "gone", "moved", "unreachable", "notVisited");
        assertThat(Change.fromLabel("not-visited")).isEqualTo(Change.NOT_VISITED);
        assertThatThrownBy(() -> Change.fromLabel("renamed")).hasMessage("unknown change \"renamed\"");
    }

    @Test
    void theFirstCaseThatAppliesWins() {
        String a = "sha1:" + "A".repeat(32);
        assertThat(Change.of(record(404, Outcome.HTTP_ERROR, null), record(304, Outcome.NOT_MODIFIED, a)))
                .as("a 304 is not-modified whatever came before").isEqualTo(Change.NOT_MODIFIED);
        assertThat(Change.of(record(0, Outcome.ERROR, null), record(404, Outcome.HTTP_ERROR, null)))
                .as("gone before unreachable").isEqualTo(Change.GONE);
        assertThat(Change.of(record(0, Outcome.ERROR, null), record(0, Outcome.UNREACHABLE, null)))
                .as("no answer before either: changed, not unreachable").isEqualTo(Change.CHANGED);
        assertThat(Change.of(record(304, Outcome.NOT_MODIFIED, a), record(200, Outcome.FETCHED, a)))
                .as("a recrawl chain: the carried digest is compared").isEqualTo(Change.UNCHANGED);
        assertThat(Change.of(record(200, Outcome.FETCHED, a), record(200, Outcome.NOT_HTML, a)))
                .as("the same body: unchanged, whatever the outcome").isEqualTo(Change.UNCHANGED);
    }
}
