package org.sievecrawler.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import org.sievecrawler.escape.Json;

/**
 * A logback layout that writes each log event as one JSON object on one line, for log shippers:
 * {@code {"time":"2026-01-01T12:00:00.123Z","level":"INFO","logger":"org.sievecrawler.progress",
 * "thread":"progress","message":"fetched=12 ..."}}, plus {@code "exception"} with the stack trace when
 * there is one. Written in the crawler's one JSON configuration ({@link Json}): a message from the network with
 * control characters in it ({@code ESC [ 2 J}, a line end) holds them as JSON escapes, not raw, C1 and DEL too,
 * so the line is one line and safe at a terminal while a log shipper reads the text as it was.
 *
 * <p>Thread-safe: each call writes to its own buffer. Field names are stable; tools rely on them.
 */
public final class JsonLayout extends LayoutBase<ILoggingEvent> {
    @Override
    public String doLayout(ILoggingEvent event) {
        StringWriter line = new StringWriter(256);
        try (JsonGenerator json = Json.writer(line)) {
            json.writeStartObject();
            json.writeStringField("time", Instant.ofEpochMilli(event.getTimeStamp()).toString());
            json.writeStringField("level", event.getLevel().toString());
            json.writeStringField("logger", event.getLoggerName());
            json.writeStringField("thread", event.getThreadName());
            json.writeStringField("message", event.getFormattedMessage());
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown != null) {
                json.writeStringField("exception", ThrowableProxyUtil.asString(thrown));
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing a log event as JSON to memory failed", e);
        }
        return line.append(CoreConstants.LINE_SEPARATOR).toString();
    }
}
