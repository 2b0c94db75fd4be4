package org.sievecrawler.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import okhttp3.HttpUrl;
import org.sievecrawler.parse.HrefScanner;
import org.sievecrawler.parse.JsoupPageParser;
import org.sievecrawler.parse.PageParser;
import org.sievecrawler.parse.ParsedPage;
import org.sievecrawler.parse.ScanResult;

/**
 * A differential run of the byte scanner against jsoup over real HTML on disk: for every {@code .html} and
 * {@code .htm} file under each folder given, it runs {@link HrefScanner} and {@link JsoupPageParser} on the file's
 * bytes (page URL {@code http://127.0.0.1:8080/} plus the path relative to the folder, content type
 * {@code text/html}, so the charset is sniffed from the page) and prints, per folder: pages, pages the scanner
 * read, pages it fell back on (with the share), the fallback reasons by count (each with one page that has it),
 * and the scanned pages whose result differs from jsoup's in title, base, links (href, kind and nofollow, in
 * document order), canonical, noindex or nofollow, with the first few differences shown.
 *
 * <p>With {@code --time ROUNDS} it also times, per folder, {@link PageParser} (the scanner, and jsoup when the
 * scanner is unsure: what a crawl pays) against jsoup alone, page by page alternating, over ROUNDS passes after
 * one warm-up pass, and prints the median pass of each and their ratio, on the pages the scanner reads and on all:
 * ratios measured within one run, for a shared and noisy machine. Single threaded; a folder's pages are read from
 * disk in each pass (the page cache holds them after the first); reading is not timed.
 *
 * <pre>
 * java -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.ParserDiff [--diffs N] [--time ROUNDS]
 *     FOLDER...
 * </pre>
 */
public final class ParserDiff {
    private static final String CONTENT_TYPE = "text/html";
    private static final int TOP_REASONS = 15;

    private final HrefScanner scanner = new HrefScanner();
    private final JsoupPageParser jsoup = new JsoupPageParser();

    private ParserDiff() {
    }

    public static void main(String[] args) throws IOException {
        int diffsShown = 5;
        int rounds = 0;
        List<Path> folders = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--diffs" -> diffsShown = Integer.parseInt(args[++i]);
                case "--time" -> rounds = Integer.parseInt(args[++i]);
                default -> folders.add(Path.of(args[i]));
            }
        }
        if (folders.isEmpty()) {
            System.err.println("usage: ParserDiff [--diffs N] [--time ROUNDS] FOLDER...");
            System.exit(2);
        }
        ParserDiff diff = new ParserDiff();
        for (Path folder : folders) {
            List<Path> pages = htmlFiles(folder);
            diff.compare(folder, pages, diffsShown);
            if (rounds > 0) {
                diff.time(folder, pages, rounds);
            }
        }
    }

    /** The .html and .htm files under {@code folder}, symbolic links followed, in path order. */
    static List<Path> htmlFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder, FileVisitOption.FOLLOW_LINKS)) {
            return files.filter(Files::isRegularFile).filter(p -> {
                String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
                return name.endsWith(".html") || name.endsWith(".htm");
            }).sorted().toList();
        }
    }

    static HttpUrl pageUrl(Path folder, Path page) {
        HttpUrl.Builder url = new HttpUrl.Builder().scheme("http").host("127.0.0.1").port(8080);
        for (Path segment : folder.relativize(page)) {
            url.addPathSegment(segment.toString());
        }
        return url.build();
    }

    private void compare(Path folder, List<Path> pages, int diffsShown) throws IOException {
        int scanned = 0;
        int differing = 0;
        Map<String, Reason> reasons = new HashMap<>();
        List<String> diffs = new ArrayList<>();
        for (Path page : pages) {
            byte[] body = Files.readAllBytes(page);
            HttpUrl url = pageUrl(folder, page);
            ScanResult result = scanner.scan(body, body.length, CONTENT_TYPE, url);
            if (result instanceof ScanResult.Unsure unsure) {
                reasons.computeIfAbsent(unsure.reason(), r -> new Reason(folder.relativize(page))).count++;
                continue;
            }
            scanned++;
            ParsedPage expected = jsoup.parse(body, body.length, CONTENT_TYPE, url);
            String difference = ((ScanResult.Scanned) result).page().differenceFrom(expected);
            if (difference != null) {
                differing++;
                if (diffs.size() < diffsShown) {
                    diffs.add(folder.relativize(page) + ": " + difference);
                }
            }
        }
        int fellBack = pages.size() - scanned;
        System.out.printf(Locale.ROOT, "%s: pages=%d scanned=%d fellBack=%d (%.1f %%) differ=%d%n", folder,
                pages.size(), scanned, fellBack, pages.isEmpty() ? 0.0 : 100.0 * fellBack / pages.size(), differing);
        reasons.entrySet().stream()
                .sorted(Comparator.comparingInt((Map.Entry<String, Reason> e) -> -e.getValue().count)
                        .thenComparing(Map.Entry::getKey))
                .limit(TOP_REASONS)
                .forEach(e -> System.out.printf(Locale.ROOT, "  fallback %6d  %s  (e.g. %s)%n", e.getValue().count,
                        e.getKey(), e.getValue().example));
        if (reasons.size() > TOP_REASONS) {
            System.out.printf("  ... %d more reasons%n", reasons.size() - TOP_REASONS);
        }
        diffs.forEach(d -> System.out.println("  differs: " + d));
    }

    /**
     * Times, page by page alternating, {@link PageParser} (the scanner, and jsoup when it is unsure: what a crawl
     * pays) and jsoup alone, and prints the medians over the passes: on the pages the scanner reads, and on all.
     */
    private void time(Path folder, List<Path> pages, int rounds) {
        long[][] nanos = new long[4][rounds]; // parser on scanned, jsoup on scanned, parser on all, jsoup on all
        long scannedBytes = 0;
        long allBytes = 0;
        int scanned = 0;
        PageParser parser = new PageParser();
        for (int round = -1; round < rounds; round++) {
            long[] sums = new long[4];
            scannedBytes = 0;
            allBytes = 0;
            scanned = 0;
            for (Path page : pages) {
                byte[] body = read(page);
                HttpUrl url = pageUrl(folder, page);
                long t0 = System.nanoTime();
                ParsedPage parsed = parser.parse(body, body.length, CONTENT_TYPE, url);
                long t1 = System.nanoTime();
                jsoup.parse(body, body.length, CONTENT_TYPE, url);
                long t2 = System.nanoTime();
                sums[2] += t1 - t0;
                sums[3] += t2 - t1;
                allBytes += body.length;
                if (parsed.parsedBy() == ParsedPage.ParsedBy.SCANNER) {
                    sums[0] += t1 - t0;
                    sums[1] += t2 - t1;
                    scannedBytes += body.length;
                    scanned++;
                }
            }
            for (int k = 0; round >= 0 && k < 4; k++) {
                nanos[k][round] = sums[k];
            }
        }
        long[] m = new long[4];
        for (int k = 0; k < 4; k++) {
            m[k] = median(nanos[k]);
        }
        System.out.printf(Locale.ROOT, "  time, median of %d passes: on the %d pages the scanner reads (%.1f MB),"
                        + " scanner %.0f ms (%.0f MB/s), jsoup %.0f ms (%.0f MB/s), scanner/jsoup %.3f;"
                        + " on all %d pages (%.1f MB), PageParser %.0f ms, jsoup alone %.0f ms,"
                        + " PageParser/jsoup %.3f%n", rounds, scanned, scannedBytes / 1e6, m[0] / 1e6,
                scannedBytes / 1e3 / Math.max(1, m[0] / 1e6), m[1] / 1e6, scannedBytes / 1e3 / Math.max(1, m[1] / 1e6),
                ratio(m[0], m[1]), pages.size(), allBytes / 1e6, m[2] / 1e6, m[3] / 1e6, ratio(m[2], m[3]));
    }

    private static double ratio(long a, long b) {
        return b == 0 ? 0 : (double) a / b;
    }

    private static byte[] read(Path page) {
        try {
            return Files.readAllBytes(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** How many pages fell back for one reason, and the first of them. */
    private static final class Reason {
        final Path example;
        int count;

        Reason(Path example) {
            this.example = example;
        }
    }
}
