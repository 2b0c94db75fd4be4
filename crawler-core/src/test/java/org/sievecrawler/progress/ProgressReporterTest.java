package org.sievecrawler.progress;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProgressReporterTest {
    private static final String NOTE = "drained: waiting for work";
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final List<ProgressLine> given = new ArrayList<>();

    @BeforeEach
    void listen() {
        log.start();
        ((Logger) ProgressReporter.LOG).addAppender(log);
    }

    @AfterEach
    void stopListening() {
        ((Logger) ProgressReporter.LOG).detachAppender(log);
    }

    /** A line with {@code fetched} responses so far, {@code queued} URLs waiting and {@code active} requests. */
    private static ProgressLine line(long fetched, long queued, int active) {
        return new ProgressLine(fetched, 0, 0, queued, 0, 0, 0, 0, active, 4, 0, 0, 0, 0, 0);
    }

    /** Ticks a reporter once per line of {@code lines}, and returns what it logged, the lines as "fetched=N". */
    private List<String> ticks(Optional<String> idleNote, ProgressLine... lines) {
        Iterator<ProgressLine> next = List.of(lines).iterator();
        try (ProgressReporter reporter = new ProgressReporter(Duration.ofHours(1), 0, previous -> next.next(),
                given::add, idleNote)) {
            for (int i = 0; i < lines.length; i++) {
                reporter.tick();
            }
        }
        return log.list.stream().map(ILoggingEvent::getFormattedMessage)
                .map(m -> m.startsWith("fetched=") ? m.substring(0, m.indexOf(' ')) : m).toList();
    }

    @Test
    void anIdleProcessLogsOneIdleLineAndTheNoteThenNothingUntilWorkComes() {
        List<String> logged = ticks(Optional.of(NOTE),
                line(5, 3, 1),  // working
                line(9, 0, 0),  // fetched 4 since: not idle
                line(9, 0, 0),  // idle: logged, with the note
                line(9, 0, 0),  // quiet
                line(9, 0, 0),  // quiet
                line(9, 1, 0),  // a URL came: logged
                line(10, 0, 0), // fetched it
                line(10, 0, 0), // idle again: logged, with the note
                line(10, 0, 0)); // quiet

        assertThat(logged).containsExactly("fetched=5", "fetched=9", "fetched=9", NOTE, "fetched=9", "fetched=10",
                "fetched=10", NOTE);
        assertThat(given).as("progress.jsonl is quiet too").hasSize(6);
    }

    @Test
    void aRequestInFlightIsWorkThoughNothingWasFetched() {
        assertThat(ticks(Optional.of(NOTE), line(0, 0, 1), line(0, 0, 1), line(0, 0, 0), line(0, 0, 0)))
                .containsExactly("fetched=0", "fetched=0", "fetched=0", NOTE);
    }

    @Test
    void withoutANoteEveryLineIsLoggedAsBefore() {
        assertThat(ticks(Optional.empty(), line(9, 0, 0), line(9, 0, 0), line(9, 0, 0)))
                .containsExactly("fetched=9", "fetched=9", "fetched=9");
        assertThat(given).hasSize(3);
    }
}
