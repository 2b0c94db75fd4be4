package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.sievecrawler.escape.ControlCharacters;
import org.sievecrawler.fixtures.HostileText;

class JsonLayoutTest {

    @Test
    void writesAnEventAsOneJsonObjectOnOneLine() {
        LoggerContext context = new LoggerContext();
        Logger logger = context.getLogger("org.sievecrawler.progress");
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, Level.INFO,
                "fetched={} \"quoted\"\nsecond line", null, new Object[] {12});
        event.setTimeStamp(0);
        event.setThreadName("progress");

        String line = new JsonLayout().doLayout(event);

        assertThat(line).isEqualTo("{\"time\":\"1970-01-01T00:00:00Z\",\"level\":\"INFO\","
                + "\"logger\":\"org.sievecrawler.progress\",\"thread\":\"progress\","
                + "\"message\":\"fetched=12 \\\"quoted\\\"\\nsecond line\"}" + System.lineSeparator());
    }

    @Test
    void aMessageWithControlCharactersHoldsThemAsEscapesOnOneLineAndReadsBackAsItWas() throws IOException {
        LoggerContext context = new LoggerContext();
        Logger logger = context.getLogger("crawlercommons.robots.SimpleRobotRulesParser");
        for (HostileText.Controls row : HostileText.controlCharacters()) {
            LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, Level.WARN, "{}",
                    new IllegalStateException(row.text()), new Object[] {row.text()});

            String line = new JsonLayout().doLayout(event);

            assertThat(line.substring(0, line.length() - System.lineSeparator().length()).chars()).as(row.name())
                    .noneMatch(ControlCharacters::isControl);
            JsonNode json = new ObjectMapper().readTree(line);
            assertThat(json.get("message").asText()).isEqualTo(row.text());
            assertThat(json.get("exception").asText()).startsWith("java.lang.IllegalStateException: " + row.text());
        }
    }

    @Test
    void addsTheStackTraceOfAnException() {
        LoggerContext context = new LoggerContext();
        Logger logger = context.getLogger("org.sievecrawler.Crawler");
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, Level.WARN, "failed",
                new IllegalStateException("broken"), null);

        String line = new JsonLayout().doLayout(event);

        assertThat(line).contains("\"level\":\"WARN\"", "\"exception\":\"java.lang.IllegalStateException: broken")
                .endsWith("}" + System.lineSeparator());
        assertThat(line.strip()).doesNotContain("\n");
    }
}
