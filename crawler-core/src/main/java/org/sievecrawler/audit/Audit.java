package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.sievecrawler.escape.Json;
import org.sievecrawler.input.FileErrors;

/**
 * audit.json: the sections of a crawl's audit, in a fixed order, written beside report.html. Stateless; {@link
 * #sections} starts a thread of its own and ends it before it returns.
 */
public final class Audit {
    /** The file's name in a crawl's output folder. */
    public static final String FILE = org.sievecrawler.checkpoint.CrawlFolder.AUDIT;

    private Audit() {
    }

    /**
     * The sections of the crawl in {@code dir}, in the order audit.json lists them. The two that join the link graph
     * (brokenLinks, orphans: one read of links.tsv.zst, {@link EdgeJoin}) are built on a thread of their own,
     * {@code audit-graph}, while this one builds the others from pages.jsonl: on rust-doc with links (2.35 M edges)
     * each takes about as long, and a crawl's end waits for the longer one only.
     */
    public static List<AuditSection> sections(Path dir) throws IOException {
        FutureTask<AuditSection[]> graph = new FutureTask<>(() -> graphSections(dir));
        Thread thread = new Thread(graph, "audit-graph");
        thread.start();
        AuditSection redirects;
        AuditSection duplicates;
        AuditSection titles;
        AuditSection slowest;
        AuditSection stats;
        try {
            redirects = Redirects.of(dir);
            duplicates = Duplicates.of(dir);
            titles = Titles.of(dir);
            slowest = Slowest.of(dir);
            stats = Stats.of(dir);
        } finally {
            awaitEnd(thread);
        }
        AuditSection[] joined = joined(graph);
        // each section adds itself here, in audit.json's order
        return List.of(joined[0], redirects, duplicates, titles, joined[1], slowest, stats);
    }

    /**
     * brokenLinks and orphans, sharing the reads of the link graph; their two sorts fill at once, so each holds half
     * of {@link ExternalSort#DEFAULT_MAX_BYTES}: the audit holds at most about two sorts' worth of lines at a time,
     * one a thread.
     */
    private static AuditSection[] graphSections(Path dir) throws IOException {
        long half = ExternalSort.DEFAULT_MAX_BYTES / 2;
        try (BrokenLinks.Join broken = BrokenLinks.join(dir, half); Orphans.Join orphans = Orphans.join(dir, half)) {
            EdgeJoin.readAll(dir, List.of(broken, orphans));
            return new AuditSection[] {broken.finish(), orphans.finish()};
        }
    }

    /** Waits for {@code thread} to end, even if interrupted (the flag is set again then): its files are in use. */
    private static void awaitEnd(Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** What {@link #graphSections} returned, or its failure thrown here. */
    private static AuditSection[] joined(FutureTask<AuditSection[]> graph) throws IOException {
        try {
            return graph.get();
        } catch (InterruptedException e) { // it has ended: get() does not wait
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while the audit read the link graph");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** Writes {@code dir}/audit.json (replacing one written before) from {@code sections}; returns its path. */
    public static Path write(Path dir, List<AuditSection> sections) throws IOException {
        Path audit = dir.resolve(FILE);
        Path temporary = dir.resolve(FILE + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(temporary); JsonGenerator json = Json.writer(out)) {
                json.writeStartObject();
                for (AuditSection section : sections) {
                    json.writeFieldName(section.name());
                    section.write(json);
                }
                json.writeEndObject();
            }
            Files.move(temporary, audit, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IOException("cannot write " + audit + ": " + FileErrors.reason(audit, e), e);
        }
        return audit;
    }
}
