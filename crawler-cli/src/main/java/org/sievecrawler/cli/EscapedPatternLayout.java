package org.sievecrawler.cli;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.pattern.EnsureExceptionHandling;
import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.core.pattern.ConverterUtil;
import java.util.Arrays;
import java.util.List;
import org.sievecrawler.escape.ControlCharacters;

/**
 * A logback pattern layout whose messages and exception texts have their control characters escaped
 * ({@link ControlCharacters}: {@code ESC [ 2 J} is written {@code \x1b[2J}, a line end {@code \n}): the layout of
 * every text log line of the command line, to the console and to crawl.log (config/logback.xml, {@link LogSetup}).
 * A message or an exception's message holds text from the network (a URL, a header, a robots.txt line, a server's
 * error), and crawler-commons logs the lines of a robots.txt it cannot parse as they are; escaping them here, where
 * every line is written, leaves no logger call to forget it.
 *
 * <p>The patterns are logback's: {@code %m}, {@code %msg} and {@code %message} are the message escaped, and every
 * exception word ({@code %ex}, {@code %xEx}, {@code %rEx} and their long names, and the {@code %ex} logback adds to a
 * pattern without one) writes the stack trace as {@code %ex} does (no packaging data, which logback leaves off by
 * default; the root cause last) with each exception's message escaped; the trace's own line ends and tabs stay.
 *
 * <p>Thread-safe once started, as logback's layouts. Out of scope: MDC values and key-value pairs (the crawler sets
 * none), and logger and thread names (the crawler's own).
 */
public final class EscapedPatternLayout extends PatternLayout {
    public EscapedPatternLayout() {
        for (String word : List.of("m", "msg", "message")) {
            getInstanceConverterMap().put(word, MessageWord::new);
        }
        for (String word : List.of("ex", "exception", "throwable", "xEx", "xException", "xThrowable", "rEx",
                "rootException")) {
            getInstanceConverterMap().put(word, ExceptionWord::new);
        }
        EnsureExceptionHandling logbacks = new EnsureExceptionHandling();
        setPostCompileProcessor((context, head) -> {
            if (!logbacks.chainHandlesThrowable(head)) {
                ConverterUtil.findTail(head).setNext(new ExceptionWord());
            }
        });
    }

    /** {@code %msg}: the formatted message, escaped. */
    static final class MessageWord extends MessageConverter {
        @Override
        public String convert(ILoggingEvent event) {
            return ControlCharacters.escape(super.convert(event));
        }
    }

    /** {@code %ex} (and every other exception word): the stack trace, each message escaped. */
    static final class ExceptionWord extends ThrowableProxyConverter {
        @Override
        protected String throwableProxyToString(IThrowableProxy thrown) {
            return super.throwableProxyToString(EscapedThrowable.of(thrown));
        }
    }

    /** An exception as logback sees it, with its message, its causes' and its suppressed ones' escaped. */
    private record EscapedThrowable(IThrowableProxy thrown) implements IThrowableProxy {
        static IThrowableProxy of(IThrowableProxy thrown) {
            return thrown == null ? null : new EscapedThrowable(thrown);
        }

        @Override
        public String getMessage() {
            return ControlCharacters.escape(thrown.getMessage());
        }

        @Override
        public String getOverridingMessage() {
            return ControlCharacters.escape(thrown.getOverridingMessage());
        }

        @Override
        public String getClassName() {
            return thrown.getClassName();
        }

        @Override
        public StackTraceElementProxy[] getStackTraceElementProxyArray() {
            return thrown.getStackTraceElementProxyArray();
        }

        @Override
        public int getCommonFrames() {
            return thrown.getCommonFrames();
        }

        @Override
        public IThrowableProxy getCause() {
            return of(thrown.getCause());
        }

        @Override
        public IThrowableProxy[] getSuppressed() {
            IThrowableProxy[] suppressed = thrown.getSuppressed();
            return suppressed == null ? null
                    : Arrays.stream(suppressed).map(EscapedThrowable::of).toArray(IThrowableProxy[]::new);
        }

        @Override
        public boolean isCyclic() {
            return thrown.isCyclic();
        }
    }
}
