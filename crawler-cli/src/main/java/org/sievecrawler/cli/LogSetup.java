package org.sievecrawler.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.io.OutputStream;
import java.nio.file.Path;
import org.sievecrawler.progress.ProgressReporter;
import org.slf4j.LoggerFactory;

/**
 * Adjusts the logback configuration of config/logback.xml to the command line: the level from -v/-q, the
 * text or JSON format of the console, and crawl.log in the output folder while a crawl runs.
 *
 * <p>Not thread-safe: commands call it from their own thread before and after a crawl. Does nothing when
 * SLF4J is not bound to logback.
 */
final class LogSetup {
    static final String CONSOLE = "CONSOLE";
    static final String PROGRESS = ProgressReporter.LOG.getName();
    /**
     * The logger whose lines go to crawl.log alone, not the console: what the console says its own way, such as a
     * failed crawl's reason (printed plainly on stderr), so that crawl.log ends saying it too.
     */
    static final String FILE_ONLY = "org.sievecrawler.crawl";
    static final String CONSOLE_PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{24} - %msg%n";
    static final String FILE_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger - %msg%n";

    /** The format of every log line. */
    enum Format { text, json }

    private LogSetup() {
    }

    /**
     * Sets the levels and the console format.
     *
     * @param verbosity 0 for INFO; 1 DEBUG, 2 or more TRACE; -1 WARN (progress and summary lines stay), -2 or
     *     less ERROR only
     */
    static void configure(int verbosity, Format format) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(verbosity >= 2 ? Level.TRACE : verbosity == 1 ? Level.DEBUG
                : verbosity == 0 ? Level.INFO : verbosity == -1 ? Level.WARN : Level.ERROR);
        context.getLogger(PROGRESS).setLevel(verbosity >= -1 ? Level.INFO : Level.ERROR);
        context.getLogger("okhttp3").setLevel(verbosity >= 2 ? Level.TRACE : Level.WARN);
        // the Kafka clients log their whole configuration at INFO and every failed connection attempt at WARN;
        // the cluster commands say what went wrong themselves
        context.getLogger("org.apache.kafka").setLevel(verbosity >= 2 ? Level.TRACE : verbosity == 1 ? Level.INFO
                : Level.ERROR);
        // crawler-commons warns of every sitemap it cannot parse; the crawl reports each once, with the reason
        context.getLogger("crawlercommons.sitemaps").setLevel(verbosity >= 1 ? Level.DEBUG : Level.ERROR);
        fileOnly(context);
        Appender<ILoggingEvent> console = root.getAppender(CONSOLE);
        if (console instanceof ConsoleAppender<ILoggingEvent> appender) {
            appender.stop();
            appender.setEncoder(encoder(context, format, CONSOLE_PATTERN));
            appender.start();
        }
    }

    /**
     * Logs to {@code file} too, in {@code format}, until the returned handle is closed; the logger
     * {@value #FILE_ONLY} logs to it alone.
     */
    static AutoCloseable logToFile(Path file, Format format, boolean append) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return () -> { };
        }
        FileAppender<ILoggingEvent> appender = new FileAppender<>();
        appender.setContext(context);
        appender.setName("FILE " + file);
        appender.setFile(file.toString());
        appender.setAppend(append);
        appender.setEncoder(encoder(context, format, FILE_PATTERN));
        appender.start();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(appender);
        Logger fileOnly = fileOnly(context);
        fileOnly.addAppender(appender);
        return () -> {
            root.detachAppender(appender);
            fileOnly.detachAppender(appender);
            appender.stop();
        };
    }

    /** The logger {@value #FILE_ONLY}, made not additive: it logs to crawl.log alone, or nowhere before it opens. */
    private static Logger fileOnly(LoggerContext context) {
        Logger fileOnly = context.getLogger(FILE_ONLY);
        fileOnly.setAdditive(false);
        return fileOnly;
    }

    /**
     * Writes the console's log lines to {@code stream} (above a live progress line, {@link StatusLine}) and leaves
     * the progress lines (logger {@code org.sievecrawler.progress}) out of the console, until the returned handle
     * is closed; crawl.log is not touched. Closing it gives the console back standard error and clears its filters
     * (config/logback.xml sets none).
     */
    static AutoCloseable consoleAbove(OutputStream stream) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)
                || !(context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender(CONSOLE)
                        instanceof ConsoleAppender<ILoggingEvent> appender)) {
            return () -> { };
        }
        Filter<ILoggingEvent> noProgress = new Filter<>() {
            @Override
            public FilterReply decide(ILoggingEvent event) {
                return event.getLoggerName().equals(PROGRESS) ? FilterReply.DENY : FilterReply.NEUTRAL;
            }
        };
        noProgress.setContext(context);
        noProgress.start();
        appender.addFilter(noProgress);
        appender.setOutputStream(stream);
        return () -> {
            appender.stop(); // start() takes System.err again
            appender.clearAllFilters();
            appender.start();
        };
    }

    /**
     * The encoder of {@code format}: a JSON object a line ({@link JsonLayout}), or {@code pattern}'s text with the
     * messages' control characters escaped ({@link EscapedPatternLayout}).
     */
    private static Encoder<ILoggingEvent> encoder(LoggerContext context, Format format, String pattern) {
        LayoutBase<ILoggingEvent> layout;
        if (format == Format.json) {
            layout = new JsonLayout();
        } else {
            EscapedPatternLayout text = new EscapedPatternLayout();
            text.setPattern(pattern);
            layout = text;
        }
        layout.setContext(context);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        return encoder;
    }
}
