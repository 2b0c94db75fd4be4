package org.sievecrawler.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.HttpUrl;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.frontier.PageLease;
import org.sievecrawler.parse.Outlink;
import org.sievecrawler.parse.PageParser;
import org.sievecrawler.parse.ParsedPage;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.warc.WarcLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parse step of an HTML page (a Content-Type in {@code fetch.accept}), on the crawl's parse threads: the page is
 * handed to the {@link ParsePool} and its lease stays open (the crawl is not out of work) until the next steps, run
 * on the parse thread, close it. There it is parsed ({@link PageParser}) and, with {@code output.warc-metadata} and
 * its response archived, a metadata record of its outlinks is archived.
 *
 * <p>Why a separate pool: fetching waits on the network, parsing burns CPU. With 16 fetcher threads doing both on 2
 * cores, the runnable threads starved the JIT's compiler thread (the scanner stayed in profiling C1 code for the
 * whole of a short crawl) and thrashed the caches (parsing in the fetcher threads again, measured on real pages: half
 * the context switches, a third more CPU). The {@link ParsePool} has one thread per core and a bounded backlog
 * ({@value #BACKLOG_PAGES_PER_CORE} pages per core, {@value #BACKLOG_BYTES} bytes); when it is full, fetchers wait
 * for room, which slows fetching to the speed of parsing while keeping the CPU-bound threads as many as the cores.
 *
 * <p>What a parse thread meets: a failure of the output (a record or the frontier's files) and an Error (such as
 * OutOfMemoryError) are kept, for the fetchers to pass on ({@link #throwFailure()}), which ends the crawl; a bug
 * met on a page (a RuntimeException) ends that page as an error, its links not followed, and the crawl goes on.
 *
 * <p>Thread-safe: {@link #later} from any number of fetcher threads; {@link #finish} from one.
 */
final class ParseStep {
    private static final Logger LOG = LoggerFactory.getLogger(ParseStep.class);
    /** Fetched pages that may wait for a parse thread, per core, and their bytes at most (see {@link ParsePool}). */
    private static final int BACKLOG_PAGES_PER_CORE = 32;
    private static final long BACKLOG_BYTES = 32L << 20;

    private final PageParser parser;
    private final List<String> accept;
    private final boolean warcMetadata;
    private final PageOutput output;
    private final ParsePool parsers;
    /** An Error a parse thread met; the fetchers pass it on, which ends the crawl. */
    private final AtomicReference<Error> fatal = new AtomicReference<>();
    private final AtomicReference<IOException> parseFailure = new AtomicReference<>();

    /** What the steps after the parse do with a page, on its parse thread. */
    @FunctionalInterface
    interface Parsed {
        void then(ParsedPage parsed) throws IOException;
    }

    /** What ends a page the parser failed on ({@code bug}), on its parse thread. */
    @FunctionalInterface
    interface Failed {
        void then(RuntimeException bug) throws IOException;
    }

    /** Starts one parse thread per core. */
    ParseStep(PageParser parser, CrawlProfile profile, PageOutput output) {
        this.parser = parser;
        this.accept = profile.fetch().accept();
        this.warcMetadata = profile.output().warcMetadata();
        this.output = output;
        int cores = Runtime.getRuntime().availableProcessors();
        this.parsers = new ParsePool(cores, BACKLOG_PAGES_PER_CORE * cores, BACKLOG_BYTES);
    }

    /** Whether {@code page} is parsed: its Content-Type is one of {@code fetch.accept}. */
    boolean accepts(FetchResult.Page page) {
        return HttpFetcher.isParseable(page.contentType(), accept);
    }

    /**
     * Hands {@code page} (archived {@code at}) to the parse pool, waiting while its backlog is full; on a parse
     * thread it is parsed, then {@code next} runs, or {@code failed} if a bug was met and the lease is still open.
     */
    void later(PageLease lease, FetchResult.Page page, Optional<WarcLocation> at, Parsed next, Failed failed) {
        parsers.submit(page.length(), () -> {
            try {
                ParsedPage parsed = parser.parse(page.body(), page.length(), page.contentType(), page.url());
                if (at.isPresent() && warcMetadata) {
                    output.archiveMetadata(lease.url(), at.get(), outlinks(parsed));
                }
                next.then(parsed);
            } catch (IOException e) {
                parseFailure.compareAndSet(null, e);
            } catch (UncheckedIOException e) { // e.g. the frontier's spill or journal segments
                parseFailure.compareAndSet(null, e.getCause());
            } catch (RuntimeException e) { // a bug met on this page: it is recorded, the crawl goes on
                LOG.warn("parsing {} failed; recorded as an error, its links not followed", lease.url(), e);
                endBuggy(lease, failed, e);
            } catch (Error e) { // e.g. OutOfMemoryError: the crawl cannot go on safely
                fatal.compareAndSet(null, e);
            }
        });
    }

    private void endBuggy(PageLease lease, Failed failed, RuntimeException bug) {
        try {
            if (!lease.isClosed()) {
                failed.then(bug);
            }
        } catch (IOException e) {
            parseFailure.compareAndSet(null, e);
        }
    }

    /**
     * Throws what a parse thread met that ends the crawl, if anything did.
     *
     * @throws UncheckedIOException when writing the output failed on a parse thread
     * @throws Error an Error a parse thread met (such as OutOfMemoryError)
     */
    void throwFailure() {
        if (parseFailure.get() != null) {
            throw new UncheckedIOException(parseFailure.get());
        }
        if (fatal.get() != null) {
            throw fatal.get();
        }
    }

    /**
     * Waits for the pages handed to the parse pool, then stops it.
     *
     * @throws IOException if writing a parsed page's record failed
     */
    void finish() throws IOException {
        try {
            if (!parsers.finish(Duration.ofMinutes(1))) {
                LOG.warn("the parse threads did not end within a minute; the {} pages waiting for them are left"
                        + " unrecorded, to be fetched again on resume", parsers.abandon());
            }
        } catch (InterruptedException e) {
            parsers.abandon();
            Thread.currentThread().interrupt();
        }
        if (parseFailure.get() != null) {
            throw parseFailure.get();
        }
    }

    /**
     * The metadata fields of a page's outlinks, in document order, as Heritrix writes them:
     * {@code outlink: URL HOP CONTEXT}, the URL resolved against the page's base (links that resolve to no
     * http(s) URL are left out, and so are images, scripts, stylesheets and icons, as before the link graph
     * recorded them), HOP {@code L} for a link and {@code E} for an embedded frame, CONTEXT the element
     * and attribute.
     */
    static List<Map.Entry<String, String>> outlinks(ParsedPage parsed) {
        List<Map.Entry<String, String>> fields = new ArrayList<>(parsed.links().size());
        for (Outlink link : parsed.links()) {
            HttpUrl url = link.kind().followed() ? parsed.base().resolve(link.href()) : null;
            if (url != null) {
                String via = switch (link.kind()) {
                    case A -> "L a/@href";
                    case AREA -> "L area/@href";
                    case CANONICAL, LINK -> "L link/@href";
                    case FRAME -> "E frame/@src";
                    case IFRAME -> "E iframe/@src";
                    default -> throw new IllegalStateException("not followed: " + link.kind());
                };
                fields.add(Map.entry("outlink", url + " " + via));
            }
        }
        return fields;
    }
}
