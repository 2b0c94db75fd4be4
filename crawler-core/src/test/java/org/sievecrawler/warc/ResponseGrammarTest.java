package org.sievecrawler.warc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.RawHeads;

/** The grammar notes of the hostile heads of {@code /http/raw-heads.tsv}, and where a note says the bytes go wrong. */
class ResponseGrammarTest {

    static List<RawHeads.Row> accepted() throws IOException {
        return RawHeads.rows().stream().filter(RawHeads.Row::accepted).toList();
    }

    /** Whether OkHttp reads the body of {@code head} as chunked: the last Transfer-Encoding value is chunked. */
    private static boolean chunked(byte[] head) {
        String last = null;
        for (String line : new String(head, StandardCharsets.ISO_8859_1).split("\r?\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("transfer-encoding:")) {
                last = line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "chunked".equalsIgnoreCase(last);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void notesWhereEachHeadLeavesTheGrammarOrNothingForACleanOne(RawHeads.Row row) {
        String problem = ResponseGrammar.problem(row.head(), row.body(), chunked(row.head()));

        if (row.note() == null) {
            assertThat(problem).as("%s", row).isNull();
        } else {
            assertThat(problem).as("%s", row).contains(row.note()).matches("byte \\d+ of the (head|body): .*|.*RFC.*");
        }
    }

    @Test
    void namesTheByteWhereTheHeadGoesWrong() {
        byte[] head = "HTTP/1.1 200 OK\r\nX-A: a\u0001b\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

        assertThat(ResponseGrammar.problem(head, new byte[0], false)).isEqualTo("byte 23 of the head: control"
                + " character 0x01 in the value of field X-A (RFC 9110 section 5.5 and RFC 9112 section 4 allow tab,"
                + " space, visible characters and obs-text)");
    }

    @Test
    void findsNothingWrongWithAChunkedBodyCutMidChunkAtTheCap() {
        byte[] head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] cut = "a\r\n01234".getBytes(StandardCharsets.US_ASCII);

        assertThat(ResponseGrammar.problem(head, cut, true)).isNull();
    }
}
