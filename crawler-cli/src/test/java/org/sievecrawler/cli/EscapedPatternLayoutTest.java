package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.escape.ControlCharacters;
import org.sievecrawler.fixtures.HostileText;

class EscapedPatternLayoutTest {
    private static final String ESC = "\u001b";
    private final LoggerContext context = new LoggerContext();
    private final Logger logger = context.getLogger("crawlercommons.robots.SimpleRobotRulesParser");

    @ParameterizedTest
    @MethodSource("org.sievecrawler.fixtures.HostileText#controlCharacters")
    void aMessageIsWrittenWithItsControlCharactersEscaped(HostileText.Controls row) {
        String line = layout("%level %msg|%m|%message%n").doLayout(event("\t Unknown line: {}", row.text(), null));

        assertThat(line).isEqualTo("WARN \t Unknown line: " + row.escaped() + "|\t Unknown line: " + row.escaped()
                + "|\t Unknown line: " + row.escaped() + System.lineSeparator());
    }

    @Test
    void everyExceptionWordWritesTheMessagesOfTheExceptionItsCausesAndSuppressedOnesEscaped() {
        IOException cause = new IOException("Unexpected status line: HTTP/1.1 200 " + ESC + "[2J" + ESC
                + "]0;pwned\u0007");
        IllegalStateException thrown = new IllegalStateException("parsing http://a.test/\u009b2J failed\nforged",
                cause);
        thrown.addSuppressed(new RuntimeException("suppressed \r\u0085"));

        for (String pattern : List.of("%msg%n%ex", "%msg%n%exception", "%msg%n%throwable", "%msg%n%xEx",
                "%msg%n%xException", "%msg%n%xThrowable", "%msg%n%rEx", "%msg%n%rootException",
                "%msg%n" /* logback adds the exception to a pattern without one */)) {
            String text = layout(pattern).doLayout(event("failed", null, thrown));

            assertThat(text).as(pattern).contains("IllegalStateException: parsing http://a.test/\\u009b2J failed\\n"
                    + "forged", "IOException: Unexpected status line: HTTP/1.1 200 \\x1b[2J\\x1b]0;pwned\\x07",
                    "RuntimeException: suppressed \\r\\u0085", "\tat org.sievecrawler.cli.EscapedPatternLayoutTest");
            assertThat(text.chars()).as(pattern).noneMatch(ch -> ch != '\n' && ControlCharacters.isControl(ch));
        }
    }

    private EscapedPatternLayout layout(String pattern) {
        EscapedPatternLayout layout = new EscapedPatternLayout();
        layout.setContext(context);
        layout.setPattern(pattern);
        layout.start();
        return layout;
    }

    private LoggingEvent event(String format, Object argument, Throwable thrown) {
        return new LoggingEvent(Logger.class.getName(), logger, Level.WARN, format, thrown,
                argument == null ? null : new Object[] {argument});
    }
}
