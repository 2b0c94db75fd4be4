package org.sievecrawler.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;
import okhttp3.HttpUrl;
import org.sievecrawler.parse.HrefScanner;
import org.sievecrawler.parse.JsoupPageParser;
import org.sievecrawler.parse.ParsedPage;
import org.sievecrawler.parse.ScanResult;

/**
 * The scanner against jsoup on every HTML file under each folder given: for each folder, how many pages the scanner
 * read and how many it left to jsoup (and why), how many of the pages it read differ from jsoup's reading (title,
 * base, links with kind and nofollow in order, canonical, robots directives, charset; the first few shown), and the
 * single-threaded CPU time per page of each parser, warm (a second pass over the folder, timed; the first pass warms
 * the JIT up). Exits 1 when a page differs.
 *
 * <pre>
 * java -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.ParserDiff \
 *     /usr/share/doc/rust-doc/html /usr/share/doc/apache2-doc/manual /usr/share/doc/libboost1.81-doc \
 *     /usr/share/doc/python-django-doc/html
 * </pre>
 *
 * Each page's URL is {@code http://127.0.0.1:8080/} and its path under the folder; its content type
 * {@code text/html}, so the charset comes from a BOM or the page's meta tag as in a crawl of a server that sends no
 * charset.
 */
public final class ParserDiff {
    private static final int SHOWN = 5;

    private ParserDiff() {
    }

    public static void main(String[] folders) throws IOException {
        if (folders.length == 0) {
            System.err.println("usage: ParserDiff FOLDER...");
            System.exit(2);
        }
        int differing = 0;
        System.out.println("| folder | pages | scanned | fell back | differ | scanner us/page | jsoup us/page |"
                + " MB |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        List<String> notes = new ArrayList<>();
        for (String folder : folders) {
            Report report = compare(Path.of(folder));
            differing += report.differing;
            System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %,d (%.2f %%) | %,d | %.1f | %.1f | %.0f |%n", folder,
                    report.pages, report.pages - report.unsure, report.unsure, 100.0 * report.unsure / report.pages,
                    report.differing, report.scannerMicros, report.jsoupMicros, report.bytes / 1e6);
            report.reasons.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .limit(10).forEach(e -> notes.add(folder + ": fell back " + e.getValue() + "x: " + e.getKey()));
            notes.addAll(report.shown);
        }
        notes.forEach(System.out::println);
        System.exit(differing == 0 ? 0 : 1);
    }

    private static Report compare(Path folder) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(folder)) {
            files = walk.filter(Files::isRegularFile).filter(p -> {
                String name = p.getFileName().toString();
                return name.endsWith(".html") || name.endsWith(".htm");
            }).sorted().toList();
        }
        HrefScanner scanner = new HrefScanner();
        JsoupPageParser jsoup = new JsoupPageParser();
        Report report = new Report();
        List<byte[]> bodies = new ArrayList<>(files.size());
        List<HttpUrl> urls = new ArrayList<>(files.size());
        for (Path file : files) {
            byte[] body = Files.readAllBytes(file);
            HttpUrl url = HttpUrl.get("http://127.0.0.1:8080/" + folder.relativize(file).toString().replace('\\', '/'));
            bodies.add(body);
            urls.add(url);
            report.pages++;
            report.bytes += body.length;
            ParsedPage expected = jsoup.parse(body, body.length, "text/html", url);
            ScanResult result = scanner.scan(body, body.length, "text/html", url);
            if (result instanceof ScanResult.Unsure unsure) {
                report.unsure++;
                report.reasons.merge(unsure.reason(), 1, Integer::sum);
                continue;
            }
            String difference = difference(((ScanResult.Scanned) result).page(), expected);
            if (difference != null) {
                report.differing++;
                if (report.shown.size() < SHOWN) {
                    report.shown.add(file + ": " + difference);
                }
            }
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < bodies.size(); i++) {
            scanner.scan(bodies.get(i), bodies.get(i).length, "text/html", urls.get(i));
        }
        long scanned = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < bodies.size(); i++) {
            jsoup.parse(bodies.get(i), bodies.get(i).length, "text/html", urls.get(i));
        }
        long parsed = threads.getCurrentThreadCpuTime();
        report.scannerMicros = (scanned - start) / 1e3 / bodies.size();
        report.jsoupMicros = (parsed - scanned) / 1e3 / bodies.size();
        return report;
    }

    /** What differs between the two readings, or null when nothing does. */
    private static String difference(ParsedPage actual, ParsedPage expected) {
        if (!Objects.equals(actual.title(), expected.title())) {
            return "title " + actual.title() + " | jsoup " + expected.title();
        }
        if (!actual.base().equals(expected.base())) {
            return "base " + actual.base() + " | jsoup " + expected.base();
        }
        if (!actual.links().equals(expected.links())) {
            int i = 0;
            while (i < Math.min(actual.links().size(), expected.links().size())
                    && actual.links().get(i).equals(expected.links().get(i))) {
                i++;
            }
            return "links (" + actual.links().size() + " | jsoup " + expected.links().size() + ") first differ at "
                    + i + ": " + (i < actual.links().size() ? actual.links().get(i) : "none") + " | jsoup "
                    + (i < expected.links().size() ? expected.links().get(i) : "none");
        }
        if (!Objects.equals(actual.canonical(), expected.canonical())) {
            return "canonical " + actual.canonical() + " | jsoup " + expected.canonical();
        }
        if (actual.noindex() != expected.noindex() || actual.nofollow() != expected.nofollow()) {
            return "robots noindex/nofollow " + actual.noindex() + "/" + actual.nofollow() + " | jsoup "
                    + expected.noindex() + "/" + expected.nofollow();
        }
        if (!actual.charset().equals(expected.charset())) {
            return "charset " + actual.charset() + " | jsoup " + expected.charset();
        }
        return null;
    }

    private static final class Report {
        int pages;
        int unsure;
        int differing;
        long bytes;
        double scannerMicros;
        double jsoupMicros;
        final Map<String, Integer> reasons = new TreeMap<>();
        final List<String> shown = new ArrayList<>();
    }
}
