package org.sievecrawler.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --fail-on's lists, and audit.json read back for it and for Markdown, on an audit.json written here by hand. */
class AuditGateTest {
    @TempDir
    Path dir;

    /** Two broken links (one linked from 12 pages, its text hostile) and an empty redirects list. */
    private AuditFindings audit() throws Exception {
        StringBuilder from = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            from.append(i == 0 ? "" : ",").append("{\"page\":\"http://a.test/p").append(i)
                    .append("\",\"text\":\"").append(i == 0 ? "<b>|`x`\\u001b[2J" : "t" + i).append("\",\"kind\":\"a\"}");
        }
        Files.writeString(dir.resolve("audit.json"), "{\"brokenLinks\":[{\"url\":\"http://a.test/gone\",\"status\":404,"
                + "\"error\":\"HTTP 404\",\"linkedFrom\":[" + from + "]},{\"url\":\"http://b.test/\",\"status\":0,"
                + "\"error\":\"connection refused\",\"linkedFrom\":[]}],\"redirects\":[],\"titles\":{\"missing\":"
                + "[\"http://a.test/x\"]},\"stats\":{\"pages\":5,\"httpErrors\":1,\"httpErrorsByStatus\":{\"404\":1},"
                + "\"failed\":1,\"redirects\":0,\"responses\":6,\"decided\":7}}", StandardCharsets.UTF_8);
        return AuditFindings.read(dir.resolve("audit.json"), AuditGate.SHOWN);
    }

    @Test
    void failsOnAListWithFindingsPrintingEachWithItsLinkingPagesLycheeStyle() throws Exception {
        AuditGate.Verdict verdict = AuditGate.parse("broken-links, redirects").check(audit());

        assertThat(verdict.fails()).isTrue();
        assertThat(verdict.missing()).isEmpty();
        assertThat(verdict.report()).startsWith("brokenLinks: 2", "  [404] http://a.test/gone",
                "      from http://a.test/p0 \"<b>|`x`\\x1b[2J\" (a)", "      from http://a.test/p1 \"t1\" (a)");
        assertThat(verdict.report()).contains("      ... and 2 more", "  [connection refused] http://b.test/",
                "redirects: none");
    }

    @Test
    void passesOnAnEmptyListAndNamesListsTheFileDoesNotHold() throws Exception {
        assertThat(AuditGate.parse("redirects").check(audit()).fails()).isFalse();

        AuditGate.Verdict verdict = AuditGate.parse("duplicates").check(audit());

        assertThat(verdict.missing()).containsExactly("duplicates");
        assertThat(AuditGate.available(audit())).containsExactly("broken-links", "redirects");
    }

    @Test
    void anUnknownNameIsRefusedWithTheChoices() {
        assertThatThrownBy(() -> AuditGate.parse("broken-links,orphan\u001b"))
                .hasMessage("--fail-on: \"orphan\\x1b\" is not a list of the audit: choose from broken-links,"
                        + " redirects, duplicates (comma-separated)");
    }

    @Test
    void markdownEscapesWhatPagesSaidAndCountsEveryList() throws Exception {
        String markdown = AuditMarkdown.render("site-out", audit());

        assertThat(markdown).startsWith("## Crawl audit: site-out\n\n**5** pages, **1** HTTP errors (404: 1), **1**"
                + " failed, 0 redirects, 6 responses, 7 URLs decided.\n")
                .contains("| brokenLinks | 2 |", "| redirects | 0 |", "| titles.missing | 1 |",
                        "- \\[404\\] http://a.test/gone\n  - from http://a.test/p0 \"\\<b\\>\\|\\`x\\`\\\\x1b\\[2J\" (a)\n")
                .doesNotContain("<b>", "\u001b");
    }
}
