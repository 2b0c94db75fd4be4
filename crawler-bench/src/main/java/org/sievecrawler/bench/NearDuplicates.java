package org.sievecrawler.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import okhttp3.HttpUrl;
import org.sievecrawler.audit.Audit;
import org.sievecrawler.audit.Duplicates;
import org.sievecrawler.parse.PageParser;
import org.sievecrawler.parse.SimHash;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.sink.PayloadDigest;

/**
 * Near-duplicate detection measured: precision and recall of SimHash within {@value SimHash#NEAR_BITS} bits on a
 * labeled set built from real pages, and the {@code duplicates} section's time and memory at a synthetic scale.
 *
 * <p>Labeled set: {@code --pages N} HTML files (default 2,000) drawn with {@code --seed} (default 28) from FOLDER;
 * each gets a lightly edited copy (a date line and a visit counter inserted after its first {@code </h1>}, or after
 * {@code <body>}, and 0 to 3 of its words of 4+ letters in text replaced by other words of the page). Positives:
 * (page, its copy), within 3 bits is a hit (recall). Negatives: every pair of two different sampled pages whose
 * bodies differ (different digests); within 3 bits is a false positive. Precision = hits / (hits + false
 * positives) on this set (N positives against N(N-1)/2 negatives). Pairs of different pages with the same visible
 * text (distance 0) are counted apart: those are duplicates to a reader (stub pages, redirects written as pages).
 *
 * <p>Scale ({@code --scale N}): N synthetic page records with random fingerprints, one in ten a copy of another
 * with 1 to 3 bits flipped, written to a pages.jsonl in a temporary folder; it times {@link Duplicates#of} (run
 * the JVM with a small {@code -Xmx} to show the memory is bounded) and counts the near groups against the planted.
 *
 * <pre>
 * java -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.NearDuplicates [--pages N] [--seed S] FOLDER
 * java -Xmx64m -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.NearDuplicates --scale 100000
 * </pre>
 */
public final class NearDuplicates {
    private static final Pattern WORD = Pattern.compile(">([^<]*?)\\b([A-Za-z]{4,})\\b");

    private NearDuplicates() {
    }

    public static void main(String[] args) throws IOException {
        int pages = 2_000;
        long seed = 28;
        int scale = 0;
        Path folder = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--pages" -> pages = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--scale" -> scale = Integer.parseInt(args[++i]);
                default -> folder = Path.of(args[i]);
            }
        }
        if (scale > 0) {
            scale(scale, new SplittableRandom(seed));
        }
        if (folder != null) {
            labeled(folder, pages, new SplittableRandom(seed));
        }
    }

    private static void labeled(Path folder, int n, SplittableRandom random) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(folder)) {
            files = new ArrayList<>(walk.filter(p -> p.toString().endsWith(".html") && Files.isRegularFile(p))
                    .sorted().toList());
        }
        Collections.shuffle(files, new java.util.Random(random.nextLong()));
        PageParser parser = new PageParser();
        List<Long> originals = new ArrayList<>();
        List<String> digests = new ArrayList<>();
        int[] byEdits = new int[4];
        int[] hitsByEdits = new int[4];
        int[] histogram = new int[6];
        int hits = 0;
        for (Path file : files) {
            if (originals.size() == n) {
                break;
            }
            byte[] body = Files.readAllBytes(file);
            HttpUrl url = HttpUrl.get("http://127.0.0.1:8080/" + folder.relativize(file));
            long original = parser.parse(body, body.length, "text/html", url).simhash();
            if (original == 0) {
                continue;
            }
            int edits = random.nextInt(4);
            byte[] copy = edited(body, edits, random);
            long edited = parser.parse(copy, copy.length, "text/html", url).simhash();
            int distance = SimHash.distance(original, edited);
            histogram[Math.min(distance, 5)]++;
            byEdits[edits]++;
            if (distance <= SimHash.NEAR_BITS) {
                hits++;
                hitsByEdits[edits]++;
            }
            originals.add(original);
            digests.add(PayloadDigest.of(body, body.length));
        }
        long falsePositives = 0;
        long sameText = 0;
        long negatives = 0;
        for (int i = 0; i < originals.size(); i++) {
            for (int j = i + 1; j < originals.size(); j++) {
                if (digests.get(i).equals(digests.get(j))) {
                    continue;
                }
                negatives++;
                int distance = SimHash.distance(originals.get(i), originals.get(j));
                if (distance == 0) {
                    sameText++;
                } else if (distance <= SimHash.NEAR_BITS) {
                    falsePositives++;
                }
            }
        }
        int size = originals.size();
        System.out.printf(Locale.ROOT, "%s: %d pages with text, each with an edited copy%n", folder, size);
        System.out.printf(Locale.ROOT, "recall: %d of %d copies within %d bits (%.1f %%); distance 0/1/2/3/4/5+:"
                + " %d/%d/%d/%d/%d/%d%n", hits, size, SimHash.NEAR_BITS, 100.0 * hits / size, histogram[0],
                histogram[1], histogram[2], histogram[3], histogram[4], histogram[5]);
        for (int e = 0; e < 4; e++) {
            System.out.printf(Locale.ROOT, "  date line + %d words changed: %d of %d (%.1f %%)%n", e, hitsByEdits[e],
                    byEdits[e], 100.0 * hitsByEdits[e] / Math.max(1, byEdits[e]));
        }
        System.out.printf(Locale.ROOT, "negatives: %d pairs of different pages; within %d bits: %d at distance 1-3"
                + " (%.2e per pair), %d with the same visible text (distance 0)%n", negatives, SimHash.NEAR_BITS,
                falsePositives, falsePositives / (double) negatives, sameText);
        System.out.printf(Locale.ROOT, "precision: %.4f (distance 1-3 false positives), %.4f (same-text pairs"
                + " counted false too)%n", hits / (double) (hits + falsePositives),
                hits / (double) (hits + falsePositives + sameText));
    }

    /** {@code body} with a date line and counter inserted and {@code words} words of its text replaced. */
    static byte[] edited(byte[] body, int words, SplittableRandom random) {
        String html = new String(body, StandardCharsets.UTF_8);
        for (int w = 0; w < words; w++) {
            int from = random.nextInt(Math.max(1, html.length()));
            Matcher m = WORD.matcher(html);
            if (!m.find(from) && !m.find(0)) {
                break;
            }
            String replacement = "edited" + Integer.toString(random.nextInt(1 << 20), 36);
            html = html.substring(0, m.start(2)) + replacement + html.substring(m.end(2));
        }
        String line = "\n<p>Last updated on " + (1 + random.nextInt(28)) + " November 2026 at "
                + random.nextInt(24) + ":" + (10 + random.nextInt(50)) + ", " + random.nextInt(100_000)
                + " visits</p>\n";
        int at = html.indexOf("</h1>");
        if (at >= 0) {
            at += 5;
        } else {
            int open = html.toLowerCase(Locale.ROOT).indexOf("<body");
            at = open < 0 ? 0 : html.indexOf('>', open) + 1;
        }
        return (html.substring(0, at) + line + html.substring(at)).getBytes(StandardCharsets.UTF_8);
    }

    private static void scale(int n, SplittableRandom random) throws IOException {
        Path dir = Files.createTempDirectory("near-duplicates-scale-");
        long[] fingerprints = new long[n];
        int planted = 0;
        try (JsonlSink sink = JsonlSink.open(dir.resolve("pages.jsonl"))) {
            for (int i = 0; i < n; i++) {
                long fingerprint = random.nextLong();
                if (i > 0 && random.nextInt(10) == 0) {
                    fingerprint = fingerprints[random.nextInt(i)];
                    for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                        fingerprint ^= 1L << random.nextInt(64);
                    }
                    planted++;
                }
                fingerprints[i] = fingerprint;
                byte[] id = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
                sink.accept(new PageRecord("http://127.0.0.1:8080/page/" + i, 200, Outcome.FETCHED, "text/html", 1,
                        1000, 1, 0, "page " + i, null, null, null, false)
                        .withFingerprints(PayloadDigest.of(id, id.length), SimHash.hex(fingerprint)));
            }
        }
        fingerprints = null;
        System.gc();
        long start = System.nanoTime();
        Duplicates duplicates = Duplicates.of(dir);
        long built = System.nanoTime();
        Audit.write(dir, List.of(duplicates));
        long written = System.nanoTime();
        Runtime rt = Runtime.getRuntime();
        System.out.printf(Locale.ROOT, "scale: %d pages, %d planted near copies; %d near groups; built in %.2f s,"
                + " written in %.2f s; heap max %d MiB, used at the end %d MiB; audit.json %d KiB%n", n, planted,
                duplicates.findings(), (built - start) / 1e9, (written - built) / 1e9, rt.maxMemory() >> 20,
                (rt.totalMemory() - rt.freeMemory()) >> 20, Files.size(dir.resolve(Audit.FILE)) >> 10);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }
}
