package org.sievecrawler.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A generated site with a link graph of 2<sup>40</sup> pages, for the frontier memory benchmark: every page is
 * computed from its address, so the site needs no disk and no memory however many URLs a crawl discovers.
 * Served by the JDK's HTTP server on 127.0.0.1 with HTTP/1.1 keep-alive; {@code /robots.txt} answers 404 (no
 * rules), {@code /p/ID} (0 ≤ ID &lt; 2<sup>40</sup>, decimal, no leading zeros) a ~3.5 KB HTML page, any other
 * path 404.
 *
 * <p>The links of page {@code id}, {@value #LINKS} in all, in this order:
 * <ul>
 *   <li>{@value #NEW_LINKS} links to {@code mix(id·64 + i + γ) mod 2^40} for i = 0..55, where {@code mix}
 *       is SplitMix64's finalizer (a bijection of 64-bit values) and γ its golden-ratio constant: the inputs
 *       differ for every (id, i), so the targets behave like independent uniform draws from 2<sup>40</sup> ids
 *       and nearly every one is new to the crawl (after 10 M URLs a draw repeats an earlier one with probability
 *       10<sup>7</sup>/2<sup>40</sup> ≈ 10<sup>-5</sup>);</li>
 *   <li>2 links to hub pages, drawn from {@value #HUBS} fixed ids: after a few thousand pages every hub link
 *       is a URL already seen;</li>
 *   <li>the first link again (a page that links twice to the same place) and the page itself.</li>
 * </ul>
 * So a crawl that fetches P pages discovers about 1 + 56·P + {@value #HUBS} distinct URLs (11.2 M for
 * P = 200,000), and 4 links in 60 are duplicates the Sieve must drop. {@code --count P} computes the exact
 * number by a breadth-first walk of the graph.
 *
 * <p>Thread-safe: requests are served on a fixed pool of named threads ("graph-site-N"); the process runs
 * until it is killed and then prints the requests it served. Only GET and HEAD are served; the site is for
 * crawling, not for browsing.
 *
 * <pre>
 * java -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.GraphSite PORT [THREADS=4]
 * java -Xmx1g -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.GraphSite --count PAGES
 * </pre>
 */
public final class GraphSite {
    static final int LINKS = 60;
    static final int NEW_LINKS = 56;
    static final int HUBS = 1024;
    static final long ID_SPACE = 1L << 40;
    /** Added to every input of {@link #mix}, which maps 0 to 0 (page 0 would link to itself first). */
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private static final String[] WORDS = ("crawler frontier segment spill queue host politeness bloom filter "
            + "sieve memory heap disk page link graph url pending fetch parse robots delay thread record")
            .split(" ");

    private GraphSite() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals("--count")) {
            int pages = Integer.parseInt(args[1]);
            long started = System.nanoTime();
            long distinct = distinctUrlsAfter(pages);
            System.out.printf(Locale.ROOT, "fetching %d pages breadth-first from /p/0 discovers %d distinct URLs"
                    + " (1 + 56 x pages + hubs would be %d; %.1f s)%n", pages, distinct,
                    1 + (long) NEW_LINKS * pages + HUBS, (System.nanoTime() - started) / 1e9);
            return;
        }
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: GraphSite PORT [THREADS=4] | GraphSite --count PAGES");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        // Without TCP_NODELAY the JDK server's separate header and body writes wait ~40 ms on delayed ACKs.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1024);
        AtomicInteger count = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread thread = new Thread(r, "graph-site-" + count.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        });
        LongAdder served = new LongAdder();
        server.setExecutor(pool);
        server.createContext("/", exchange -> {
            served.increment();
            serve(exchange);
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("GraphSite served " + served.sum() + " requests");
            System.out.flush();
        }, "graph-site-report"));
        server.start();
        System.out.println("GraphSite listening on http://127.0.0.1:" + port + "/p/0 with " + threads + " threads");
        System.out.flush();
    }

    private static void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                send(exchange, 405, "text/plain", "only GET and HEAD\n".getBytes(StandardCharsets.US_ASCII));
                return;
            }
            String path = exchange.getRequestURI().getRawPath();
            long id = path.startsWith("/p/") ? parseId(path, 3) : -1;
            if (id >= 0) {
                send(exchange, 200, "text/html", page(id).getBytes(StandardCharsets.UTF_8));
            } else {
                send(exchange, 404, "text/plain", ("no page at " + path + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /** The id in {@code path} from {@code start}, or -1 unless it is a canonical decimal below 2^40. */
    static long parseId(String path, int start) {
        int length = path.length() - start;
        if (length < 1 || length > 13 || (path.charAt(start) == '0' && length > 1)) {
            return -1;
        }
        long id = 0;
        for (int i = start; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            id = id * 10 + (c - '0');
        }
        return id < ID_SPACE ? id : -1;
    }

    /** The ids page {@code id} links to, in page order: {@value #LINKS} of them, some repeated. */
    static long[] links(long id) {
        long[] links = new long[LINKS];
        for (int i = 0; i < NEW_LINKS; i++) {
            links[i] = mix(id * 64 + i + GOLDEN) & (ID_SPACE - 1);
        }
        links[NEW_LINKS] = hub(mix(id * 64 + NEW_LINKS + GOLDEN));
        links[NEW_LINKS + 1] = hub(mix(id * 64 + NEW_LINKS + 1 + GOLDEN));
        links[NEW_LINKS + 2] = links[0];
        links[NEW_LINKS + 3] = id;
        return links;
    }

    /** One of the {@value #HUBS} hub ids, chosen by {@code draw}. */
    private static long hub(long draw) {
        long k = Math.floorMod(draw, HUBS);
        return mix(0x4855_4253_0000_0000L + k) & (ID_SPACE - 1);
    }

    /** SplitMix64's finalizer (Stafford's variant 13): a bijection of 64-bit values with good avalanche. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The HTML of page {@code id}: a title, a paragraph of words drawn from the id, and its links. */
    static String page(long id) {
        long[] links = links(id);
        StringBuilder html = new StringBuilder(4096);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Page ").append(id)
                .append(" of the graph</title></head>\n<body>\n<h1>Page ").append(id).append("</h1>\n<p>");
        long words = mix(~id);
        for (int w = 0; w < 40; w++) {
            html.append(WORDS[(int) Math.floorMod(words, (long) WORDS.length)]).append(w % 10 == 9 ? ". " : " ");
            words = mix(words + w);
        }
        html.append("</p>\n<h2>Related pages</h2>\n<ul>\n");
        for (int i = 0; i < NEW_LINKS; i++) {
            html.append("<li><a href=\"/p/").append(links[i]).append("\">Page ").append(links[i]).append("</a></li>\n");
        }
        html.append("</ul>\n<nav><a href=\"/p/").append(links[NEW_LINKS]).append("\">A popular page</a> · ")
                .append("<a href=\"/p/").append(links[NEW_LINKS + 1]).append("\">Another popular page</a> · ")
                .append("<a href=\"/p/").append(links[NEW_LINKS + 2]).append("\">The first related page again</a> · ")
                .append("<a href=\"/p/").append(links[NEW_LINKS + 3]).append("\">This page</a></nav>\n")
                .append("</body></html>\n");
        return html.toString();
    }

    /**
     * Distinct ids discovered (the seed included) when {@code pages} pages are fetched breadth-first from
     * page 0, each discovered id fetched once: what a crawl with a perfect Sieve and a FIFO frontier meets.
     */
    static long distinctUrlsAfter(int pages) {
        long capacity = Long.highestOneBit(Math.max(16, (long) pages * LINKS * 2 - 1)) * 2;
        if (capacity > 1 << 30) {
            throw new IllegalArgumentException("--count " + pages + ": at most ~8 M pages can be counted");
        }
        long[] table = new long[(int) capacity];
        Arrays.fill(table, -1);
        long[] queue = new long[(int) Math.min((long) pages * LINKS + 1, Integer.MAX_VALUE - 8)];
        int head = 0;
        int tail = 0;
        long distinct = 0;
        if (insert(table, 0)) {
            queue[tail++] = 0;
            distinct++;
        }
        for (int fetched = 0; fetched < pages && head < tail; fetched++) {
            for (long link : links(queue[head++])) {
                if (insert(table, link)) {
                    distinct++;
                    if (tail < queue.length) {
                        queue[tail++] = link;
                    }
                }
            }
        }
        return distinct;
    }

    /** Adds {@code id} to an open-addressing set of non-negative longs (-1 marks a free slot). */
    private static boolean insert(long[] table, long id) {
        int mask = table.length - 1;
        for (int slot = (int) mix(id) & mask; ; slot = (slot + 1) & mask) {
            if (table[slot] == id) {
                return false;
            }
            if (table[slot] == -1) {
                table[slot] = id;
                return true;
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
