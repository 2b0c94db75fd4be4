package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.HostileText;

class StatusLineTest {
    private static final String ERASE = "\r\033[K";
    private static final String UP = "\033[A\033[K";

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final StatusLine status = new StatusLine(new PrintStream(bytes, true, StandardCharsets.UTF_8));

    private String written() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static void write(OutputStream stream, String text) throws IOException {
        stream.write(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aStatusIsDrawnWithItsControlCharactersEscaped() {
        for (HostileText.Controls row : HostileText.controlCharacters()) {
            bytes.reset();
            status.show("pages 1 " + row.text());
            assertThat(written()).as(row.name()).isEqualTo("pages 1 " + row.escaped());
            status.clear();
        }
    }

    @Test
    void aNewStatusErasesThePreviousOne() {
        status.show("pages 1");
        status.show("pages 2");
        assertThat(written()).isEqualTo("pages 1" + ERASE + "pages 2");
    }

    @Test
    void aLogLineIsWrittenAboveTheStatusWhichIsDrawnAgainUnderIt() throws IOException {
        status.show("pages 1");
        write(status.above(), "12:00:00 WARN x - slow\n");
        assertThat(written()).isEqualTo("pages 1" + ERASE + "12:00:00 WARN x - slow\npages 1");
    }

    @Test
    void aLineWrittenInPiecesIsNotCutByARedraw() throws IOException {
        status.show("pages 1");
        write(status.above(), "stopping: ");
        status.show("pages 2"); // waits for the line's end
        write(status.above(), "no new URLs\n");
        assertThat(written()).isEqualTo("pages 1" + ERASE + "stopping: no new URLs\npages 2");
    }

    @Test
    void clearErasesTheStatusAndShowsNoneAfterwards() throws IOException {
        status.show("pages 1");
        status.clear();
        write(status.above(), "summary\n");
        assertThat(written()).isEqualTo("pages 1" + ERASE + "summary\n");
    }

    @Test
    void aStatusWrappedByANarrowerWindowIsErasedRowByRowFromItsLastRow() {
        status.show("pages 12034 | 2510/s"); // 20 columns: 3 rows of 8
        status.resized(8);
        status.show("pages 2");
        assertThat(written()).isEqualTo("pages 12034 | 2510/s" + ERASE + UP + UP + "pages 2");
    }

    @Test
    void aWiderWindowOrOneTheStatusStillFitsErasesOneRow() {
        status.show("pages 12034");
        status.resized(11);
        status.show("pages 2");
        status.resized(120);
        status.show("pages 3");
        assertThat(written()).isEqualTo("pages 12034" + ERASE + "pages 2" + ERASE + "pages 3");
    }

    @Test
    void aResizeWhileNoStatusIsDrawnErasesNothingMore() throws IOException {
        status.show("pages 12034 | 2510/s");
        write(status.above(), "stopping: ");
        status.resized(8); // the status was erased for the line above
        write(status.above(), "no new URLs\n");
        status.show("pages 2");
        assertThat(written()).isEqualTo("pages 12034 | 2510/s" + ERASE + "stopping: no new URLs\npages 12034 | 2510/s"
                + ERASE + "pages 2");
    }

    @Test
    void clearEndsALineWrittenInPartSoWhatFollowsStartsALineOfItsOwn() throws IOException {
        status.show("pages 1");
        write(status.above(), "12:00:00 WARN x - sl");
        status.clear();
        write(status.above(), "stopped at once\n");
        assertThat(written()).isEqualTo("pages 1" + ERASE + "12:00:00 WARN x - sl\nstopped at once\n");
    }

    @Test
    void nothingIsErasedBeforeAStatusIsShown() throws IOException {
        write(status.above(), "started\n");
        status.clear();
        assertThat(written()).isEqualTo("started\n");
    }
}
