package org.sievecrawler.cli.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sample documentation site served by the JDK's HTTP server on 127.0.0.1 (an ephemeral port): a home page,
 * {@value #SECTIONS_COUNT} sections of {@value #PAGES_PER_SECTION} pages each that link to their neighbours
 * and across sections, a robots.txt that disallows {@code /private/}, a few broken links (404), and a few
 * links to old addresses that redirect (301) to the new ones. Every page is generated from its address, so
 * the site is the same on every run.
 *
 * <p>Thread-safe: requests are served on {@value #THREADS} named daemon threads ("demo-site-N"), which
 * {@link #close()} stops. Only GET and HEAD are served; the site is for crawling, not for browsing.
 */
public final class DemoSite implements AutoCloseable {
    static final List<String> SECTIONS = List.of("getting-started", "installation", "first-crawl", "profiles",
            "seeds", "scope", "politeness", "robots", "fetching", "parsing", "sieve", "output", "progress",
            "troubleshooting", "reference");
    static final int SECTIONS_COUNT = 15;
    static final int PAGES_PER_SECTION = 20;
    static final int THREADS = 4;

    private static final Pattern PAGE = Pattern.compile("/docs/([a-z-]+)/(\\d{2})\\.html");
    private static final Pattern SECTION = Pattern.compile("/docs/([a-z-]+)/");
    private static final Pattern OLD = Pattern.compile("/old/([a-z-]+)/(\\d{2})\\.html");

    private final HttpServer server;
    private final ExecutorService threads;

    private DemoSite(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    /** Starts the site on 127.0.0.1 on a free port. */
    public static DemoSite start() throws IOException {
        // Without TCP_NODELAY the JDK server's separate header and body writes wait ~40 ms on delayed ACKs.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        AtomicInteger count = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(THREADS, r -> {
            Thread thread = new Thread(r, "demo-site-" + count.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(threads);
        server.createContext("/", DemoSite::serve);
        server.start();
        return new DemoSite(server, threads);
    }

    /** The home page, e.g. {@code http://127.0.0.1:40123/}: the crawl's seed. */
    public String homeUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /** Pages that answer 200 with HTML: the home page, the section pages and the documentation pages. */
    public static int pageCount() {
        return 1 + SECTIONS.size() * (1 + PAGES_PER_SECTION);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    private static void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                send(exchange, 405, "text/plain", "only GET and HEAD\n");
                return;
            }
            String path = exchange.getRequestURI().getPath();
            Matcher page = PAGE.matcher(path);
            Matcher section = SECTION.matcher(path);
            Matcher old = OLD.matcher(path);
            if (path.equals("/robots.txt")) {
                send(exchange, 200, "text/plain", "User-agent: *\nDisallow: /private/\n");
            } else if (path.equals("/")) {
                send(exchange, 200, "text/html", home());
            } else if (page.matches() && sectionIndex(page.group(1)) >= 0 && pageNumber(page.group(2)) > 0) {
                send(exchange, 200, "text/html", page(sectionIndex(page.group(1)), pageNumber(page.group(2))));
            } else if (section.matches() && sectionIndex(section.group(1)) >= 0) {
                send(exchange, 200, "text/html", section(sectionIndex(section.group(1))));
            } else if (old.matches()) {
                exchange.getResponseHeaders().set("Location", "/docs/" + old.group(1) + "/" + old.group(2) + ".html");
                send(exchange, 301, "text/plain", "moved\n");
            } else if (path.startsWith("/private/")) {
                send(exchange, 200, "text/html", document("Private notes", "<p>robots.txt asks crawlers not to"
                        + " read this page.</p>"));
            } else {
                send(exchange, 404, "text/html", document("Not found", "<p>No page at " + path + ".</p>"));
            }
        }
    }

    private static int sectionIndex(String name) {
        return SECTIONS.indexOf(name);
    }

    private static int pageNumber(String digits) {
        int number = Integer.parseInt(digits);
        return number >= 1 && number <= PAGES_PER_SECTION ? number : -1;
    }

    private static String home() {
        StringBuilder body = new StringBuilder("<p>Welcome to the documentation of the demo product.</p>\n<ul>\n");
        for (int s = 0; s < SECTIONS.size(); s++) {
            body.append("<li>").append(link("/docs/" + SECTIONS.get(s) + "/", title(s))).append("</li>\n");
        }
        return document("Demo documentation", body.append("</ul>\n").toString());
    }

    private static String section(int s) {
        StringBuilder body = new StringBuilder("<p>").append(link("/", "Home")).append("</p>\n<ol>\n");
        for (int p = 1; p <= PAGES_PER_SECTION; p++) {
            body.append("<li>").append(link(pagePath(s, p), title(s) + ", part " + p)).append("</li>\n");
        }
        return document(title(s), body.append("</ol>\n").toString());
    }

    /** A documentation page: navigation, text, two cross-links, and now and then a misbehaving link. */
    private static String page(int s, int p) {
        int global = s * PAGES_PER_SECTION + p;
        StringBuilder body = new StringBuilder("<nav>").append(link("/", "Home")).append(" › ")
                .append(link("/docs/" + SECTIONS.get(s) + "/", title(s))).append("</nav>\n");
        body.append("<p>This page explains part ").append(p).append(" of ").append(title(s).toLowerCase())
                .append(". Read it after the previous part; the next part builds on it.</p>\n");
        body.append("<pre><code>crawler crawl --profile site.yaml https://example.org/</code></pre>\n");
        body.append("<h2>See also</h2>\n<ul>\n");
        int other = (s + p) % SECTIONS.size();
        body.append("<li>").append(link(pagePath(other, (p * 7) % PAGES_PER_SECTION + 1), "a related page"))
                .append("</li>\n");
        body.append("<li>").append(link(pagePath((s + 3) % SECTIONS.size(), (global * 11) % PAGES_PER_SECTION + 1),
                "another related page")).append("</li>\n");
        if (global % 25 == 0) {
            body.append("<li>").append(link("/docs/" + SECTIONS.get(s) + "/missing-" + p + ".html",
                    "a page that was removed (404)")).append("</li>\n");
        }
        if (global % 30 == 0) {
            body.append("<li>").append(link(String.format("/old/%s/%02d.html", SECTIONS.get(other), p),
                    "an old address (301)")).append("</li>\n");
        }
        if (global % 40 == 0) {
            body.append("<li>").append(link("/private/notes-" + global + ".html", "private notes (robots.txt)"))
                    .append("</li>\n");
        }
        body.append("</ul>\n<p>");
        if (p > 1) {
            body.append(link(pagePath(s, p - 1), "« previous")).append(' ');
        }
        if (p < PAGES_PER_SECTION) {
            body.append(link(pagePath(s, p + 1), "next »"));
        }
        return document(title(s) + ", part " + p, body.append("</p>\n").toString());
    }

    private static String pagePath(int s, int p) {
        return String.format("/docs/%s/%02d.html", SECTIONS.get(s), p);
    }

    private static String title(int s) {
        String name = SECTIONS.get(s).replace('-', ' ');
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    private static String link(String href, String text) {
        return "<a href=\"" + href + "\">" + text + "</a>";
    }

    private static String document(String title, String body) {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + title
                + "</title></head>\n<body>\n<h1>" + title + "</h1>\n" + body + "</body></html>\n";
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
