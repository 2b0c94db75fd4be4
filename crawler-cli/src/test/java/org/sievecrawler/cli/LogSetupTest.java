package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.escape.ControlCharacters;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.fixtures.HostileText;
import org.slf4j.LoggerFactory;

/**
 * The log lines of the command line, to the console (standard error) and to crawl.log, through the logging
 * {@link LogSetup} configures, with text from the network in them: none holds a control character raw. A crawl of
 * hostile robots.txt files runs in a child JVM, as a user runs it (its standard error is the console).
 */
class LogSetupTest {
    private static final String ESC = "\u001b";
    private static final String BEL = "\u0007";
    /** The robots.txt line: clears the screen and retitles the window. */
    private static final String ROBOTS_LINE = "garbage " + ESC + "[2J" + ESC + "]0;pwned-title" + BEL + " line";
    private static final String ROBOTS_LINE_ESCAPED = "garbage \\x1b[2J\\x1b]0;pwned-title\\x07 line";

    @TempDir
    Path dir;

    private final FixtureSite site = FixtureSite.start();
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    @AfterEach
    void restore() {
        site.close();
        LogSetup.configure(0, LogSetup.Format.text);
    }

    @Test
    void aCrawlOfHostileRobotsTxtsLogsTheirTextEscapedToTheConsoleAndCrawlLog() throws Exception {
        site.robots("User-agent: *\nDisallow: /private\n" + ROBOTS_LINE + "\nCrawl-delay: 0 " + ESC + "[31mred\n")
                .page("/", FixtureSite.linkPage("home", "/a")).page("/a", FixtureSite.linkPage("a"));
        Path out = dir.resolve("out");
        ChildCrawler crawler = new ChildCrawler(dir.resolve("console.txt"));
        try (ServerSocket garbled = garbledStatusLines()) {
            Process crawl = crawler.start("crawl", site.url("/"), "http://127.0.0.1:" + garbled.getLocalPort() + "/",
                    "--out", out.toString(), "--delay", "0", "--set", "politeness.robots-retry=50ms");
            assertThat(crawl.waitFor(60, TimeUnit.SECONDS)).as("the crawl ended in time").isTrue();
            assertThat(crawl.exitValue()).as(crawler.output()).isZero();
        }
        for (String log : List.of(crawler.output(), Files.readString(out.resolve("crawl.log")))) {
            assertThat(log).contains("Unknown line in robots.txt file", ROBOTS_LINE_ESCAPED,
                    "can't decode crawl delay: 0 \\x1b[31mred",
                    "Unexpected status line: HTTP/1.1 2\\x1b[2J\\x1b]0;pwned-status\\x07 OK");
            assertRaw(log);
        }
    }

    @Test
    void aUrlAHeaderAndAnExceptionMessageAreLoggedEscapedInTextAndInJson() throws IOException {
        for (LogSetup.Format format : LogSetup.Format.values()) {
            console.reset();
            LogSetup.configure(0, format);
            Path file = dir.resolve("crawl-" + format + ".log");
            try (AutoCloseable toConsole = LogSetup.consoleAbove(console);
                    AutoCloseable toFile = LogSetup.logToFile(file, format, false)) {
                for (HostileText.Controls row : HostileText.controlCharacters()) {
                    LoggerFactory.getLogger("org.sievecrawler.FetchWorker").warn("{}: Retry-After \"{}\"",
                            "http://a.test/" + row.text(), row.text(), new IOException("server said " + row.text(),
                                    new IllegalStateException(row.text())));
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            for (String log : List.of(console.toString(StandardCharsets.UTF_8), Files.readString(file))) {
                assertRaw(log);
                List<String> lines = log.lines().filter(line -> !line.startsWith("\t")
                        && !line.startsWith("Caused by") && !line.isEmpty()).toList();
                int i = 0;
                for (HostileText.Controls row : HostileText.controlCharacters()) {
                    String line = lines.get(i++);
                    if (format == LogSetup.Format.json) {
                        JsonNode json = new ObjectMapper().readTree(line);
                        assertThat(json.get("message").asText()).isEqualTo("http://a.test/" + row.text()
                                + ": Retry-After \"" + row.text() + "\"");
                        assertThat(json.get("exception").asText()).contains("server said " + row.text(),
                                "Caused by: java.lang.IllegalStateException: " + row.text());
                    } else {
                        assertThat(line).as(row.name()).endsWith(" - http://a.test/" + row.escaped()
                                + ": Retry-After \"" + row.escaped() + "\"");
                        assertThat(lines.get(i++)).isEqualTo("java.io.IOException: server said " + row.escaped());
                    }
                }
            }
        }
    }

    /** No control character but line ends and tabs (a stack trace's). */
    private static void assertRaw(String log) {
        assertThat(log.chars()).noneMatch(ch -> ch != '\n' && ControlCharacters.isControl(ch));
    }

    /** A server on 127.0.0.1 that answers every request with a status line holding ESC [2J and an OSC title. */
    private static ServerSocket garbledStatusLines() throws IOException {
        ServerSocket listener = new ServerSocket(0, 16, InetAddress.getByName("127.0.0.1"));
        Thread thread = new Thread(() -> {
            while (!listener.isClosed()) {
                try (Socket socket = listener.accept()) {
                    readHead(socket.getInputStream());
                    OutputStream response = socket.getOutputStream();
                    response.write(("HTTP/1.1 2" + ESC + "[2J" + ESC + "]0;pwned-status" + BEL + " OK\r\n"
                            + "Content-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                    response.flush();
                } catch (IOException e) {
                    // closed: the test is over
                }
            }
        }, "garbled-status-lines");
        thread.setDaemon(true);
        thread.start();
        return listener;
    }

    private static void readHead(InputStream in) throws IOException {
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return;
            }
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
        }
    }
}
