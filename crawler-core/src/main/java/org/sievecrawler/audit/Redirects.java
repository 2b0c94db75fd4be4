package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/**
 * audit.json's {@code redirects}: every redirect chain of one hop or more, from the URL a page, sitemap or seed led
 * to, through each redirect, to where it ends, sorted by the URL it starts from:
 * {@code [{from, chain: [{url, status}], to, final: {status, outcome, error} | null, loop, tooLong}]}. {@code chain}
 * lists the redirects in order ({@code from} first), {@code to} is the URL the last one points to and {@code final}
 * that URL's record (null when it has none: not followed). {@code loop}: {@code to} is already in the chain;
 * {@code tooLong}: the crawl stopped following at {@code fetch.max-redirects} (the record's error says so).
 *
 * <p>Built from pages.jsonl in bounded memory: a chain starts at a redirect record that no redirect led to (its
 * referrer is not a redirect to it), and is followed one hop at a time by sort-merge joins on disk
 * ({@link SortedFile}) of the chains under way with the records by URL; at most {@link #MAX_HOPS} hops (a chain
 * through redirects reached from elsewhere can be longer than {@code fetch.max-redirects}), then it is marked
 * {@code tooLong}. The joined chains stay on disk, in a work folder inside the crawl's folder, until
 * {@link #write}, which deletes it. Not thread-safe.
 */
public final class Redirects implements AuditSection {
    static final String NAME = "redirects";
    /** Hops followed at most per chain. */
    static final int MAX_HOPS = 32;
    private static final String TOO_LONG = "redirect chain longer than fetch.max-redirects";

    private final Path work;
    private final Path chains;
    private final long count;

    private Redirects(Path work, Path chains, long count) {
        this.work = work;
        this.chains = chains;
        this.count = count;
    }

    /** The redirect chains of the crawl in {@code dir}, from its pages.jsonl; its work files go in {@code dir}. */
    public static Redirects of(Path dir) throws IOException {
        Path work = Files.createTempDirectory(dir, ".audit-redirects-");
        Path records = work.resolve("records");
        Path candidates = work.resolve("candidates");
        Path reached = work.resolve("reached");
        try (BufferedWriter recordLines = writer(records); BufferedWriter candidateLines = writer(candidates);
                BufferedWriter reachedLines = writer(reached)) {
            JsonlSink.readSkipping(dir.resolve(CrawlFolder.PAGES), record -> {
                try {
                    recordLines.write(SortedFile.line(record.url(), record.outcome().label(),
                            String.valueOf(record.status()), record.redirectTo(), record.error()));
                    recordLines.newLine();
                    if (hops(record)) {
                        candidateLines.write(SortedFile.line(record.url(), record.referrer()));
                        candidateLines.newLine();
                        reachedLines.write(SortedFile.line(record.redirectTo(), record.url()));
                        reachedLines.newLine();
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        SortedFile.sort(records, work.resolve("records.sorted"));
        SortedFile.sort(candidates, work.resolve("candidates.sorted"));
        SortedFile.sort(reached, work.resolve("reached.sorted"));
        Path states = work.resolve("states");
        starts(work.resolve("candidates.sorted"), work.resolve("reached.sorted"), states);
        Path done = work.resolve("done");
        long count = 0;
        try (BufferedWriter doneLines = writer(done)) {
            for (int hop = 0; hop <= MAX_HOPS; hop++) {
                SortedFile.sort(states, work.resolve("states.sorted"));
                Path next = work.resolve("states");
                count += step(work.resolve("states.sorted"), work.resolve("records.sorted"), next, doneLines,
                        hop == MAX_HOPS);
                states = next;
                if (Files.size(next) == 0) {
                    break;
                }
            }
        }
        Files.deleteIfExists(states);
        Files.delete(work.resolve("records.sorted"));
        Path sorted = work.resolve("chains");
        SortedFile.sort(done, sorted);
        return new Redirects(work, sorted, count);
    }

    /** Whether the crawl followed (or would have followed) a redirect from {@code record}'s URL. */
    private static boolean hops(PageRecord record) {
        return record.redirectTo() != null && (record.outcome() == Outcome.REDIRECT
                || record.outcome() == Outcome.ERROR && record.error() != null && record.error().startsWith(TOO_LONG));
    }

    /**
     * The chains' first states, {@code (current, from, chain)}: the candidates {@code (url, referrer)} that are not
     * also a line {@code (target, from)} of {@code reached} (a redirect from their referrer to them).
     */
    private static void starts(Path candidates, Path reached, Path states) throws IOException {
        try (BufferedReader candidateLines = reader(candidates); BufferedReader reachedLines = reader(reached);
                BufferedWriter out = writer(states)) {
            String seen = reachedLines.readLine();
            for (String candidate = candidateLines.readLine(); candidate != null;
                    candidate = candidateLines.readLine()) {
                while (seen != null && seen.compareTo(candidate) < 0) {
                    seen = reachedLines.readLine();
                }
                if (seen == null || !seen.equals(candidate)) {
                    String url = SortedFile.fields(candidate)[0];
                    out.write(SortedFile.line(url, url, ""));
                    out.newLine();
                }
            }
        }
        Files.delete(candidates);
        Files.delete(reached);
    }

    /**
     * One hop of every chain under way ({@code states}, sorted by their current URL) joined with the records
     * (sorted by URL): the chains that end are written to {@code done}, the others to {@code next}; returns how
     * many ended. With {@code last}, every chain still under way ends, too long.
     */
    private static long step(Path states, Path records, Path next, BufferedWriter done, boolean last)
            throws IOException {
        long ended = 0;
        try (BufferedReader stateLines = reader(states); BufferedReader recordLines = reader(records);
                BufferedWriter out = writer(next)) {
            String record = recordLines.readLine();
            for (String state = stateLines.readLine(); state != null; state = stateLines.readLine()) {
                String key = SortedFile.key(state);
                while (record != null && SortedFile.key(record).compareTo(key) < 0) {
                    record = recordLines.readLine();
                }
                String[] s = SortedFile.fields(state);
                String current = s[0];
                String from = s[1];
                List<String> chain = new ArrayList<>(List.of(SortedFile.fields(s[2])));
                if (chain.size() == 1 && chain.get(0).isEmpty()) {
                    chain.clear();
                }
                String[] r = record != null && SortedFile.key(record).equals(key) ? SortedFile.fields(record) : null;
                boolean loop = false;
                for (int i = 0; i < chain.size(); i += 2) {
                    loop |= chain.get(i).equals(current);
                }
                boolean hopsOn = r != null && !r[3].isEmpty()
                        && (r[1].equals(Outcome.REDIRECT.label())
                                || r[1].equals(Outcome.ERROR.label()) && r[4].startsWith(TOO_LONG));
                if (loop || !hopsOn) {
                    done.write(chainLine(from, chain, current, r, loop, false));
                    done.newLine();
                    ended++;
                    continue;
                }
                chain.add(current);
                chain.add(r[2]);
                boolean tooLong = r[1].equals(Outcome.ERROR.label()) || last;
                if (tooLong) {
                    done.write(chainLine(from, chain, r[3], null, false, true));
                    done.newLine();
                    ended++;
                } else {
                    out.write(SortedFile.line(r[3], from, SortedFile.line(chain.toArray(String[]::new))));
                    out.newLine();
                }
            }
        }
        Files.delete(states);
        return ended;
    }

    /** A chain ended: {@code (from, chain, to, final status, outcome, error, loop, tooLong)}; no final without record. */
    private static String chainLine(String from, List<String> chain, String to, String[] record, boolean loop,
            boolean tooLong) {
        return SortedFile.line(from, SortedFile.line(chain.toArray(String[]::new)), to,
                record == null ? "" : record[2], record == null ? "" : record[1], record == null ? "" : record[4],
                String.valueOf(loop), String.valueOf(tooLong));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long findings() {
        return count;
    }

    @Override
    public void write(JsonGenerator json) throws IOException {
        json.writeStartArray();
        try (BufferedReader lines = reader(chains)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String[] f = SortedFile.fields(line);
                json.writeStartObject();
                json.writeStringField("from", f[0]);
                json.writeArrayFieldStart("chain");
                String[] hops = SortedFile.fields(f[1]);
                for (int i = 0; i + 1 < hops.length; i += 2) {
                    json.writeStartObject();
                    json.writeStringField("url", hops[i]);
                    json.writeNumberField("status", Integer.parseInt(hops[i + 1]));
                    json.writeEndObject();
                }
                json.writeEndArray();
                json.writeStringField("to", f[2]);
                if (f[4].isEmpty()) {
                    json.writeNullField("final");
                } else {
                    json.writeObjectFieldStart("final");
                    json.writeNumberField("status", Integer.parseInt(f[3]));
                    json.writeStringField("outcome", f[4]);
                    if (!f[5].isEmpty()) {
                        json.writeStringField("error", f[5]);
                    }
                    json.writeEndObject();
                }
                json.writeBooleanField("loop", Boolean.parseBoolean(f[6]));
                json.writeBooleanField("tooLong", Boolean.parseBoolean(f[7]));
                json.writeEndObject();
            }
        } finally {
            json.writeEndArray();
            deleteWork();
        }
    }

    /**
     * Gives {@code each} every URL of every chain that loops (each redirect of it leads back into it: a link to any
     * of them never reaches a page), with its redirect status and the loop in words; then deletes the work files, as
     * {@link #write} does: call one of the two, once.
     */
    void eachLooping(LoopingUrl each) throws IOException {
        try (BufferedReader lines = reader(chains)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String[] f = SortedFile.fields(line);
                if (!Boolean.parseBoolean(f[6])) {
                    continue;
                }
                String[] hops = SortedFile.fields(f[1]);
                StringBuilder loop = new StringBuilder("redirect loop: ");
                for (int i = 0; i + 1 < hops.length; i += 2) {
                    loop.append(hops[i]).append(" -> ");
                }
                loop.append(f[2]);
                for (int i = 0; i + 1 < hops.length; i += 2) {
                    each.accept(hops[i], Integer.parseInt(hops[i + 1]), loop.toString());
                }
            }
        } finally {
            deleteWork();
        }
    }

    /** A URL of a redirect loop: see {@link #eachLooping}. */
    interface LoopingUrl {
        void accept(String url, int status, String loop) throws IOException;
    }

    private void deleteWork() throws IOException {
        try (var files = Files.list(work)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(work);
    }

    private static BufferedWriter writer(Path file) throws IOException {
        return Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    private static BufferedReader reader(Path file) throws IOException {
        return Files.newBufferedReader(file, StandardCharsets.UTF_8);
    }
}
