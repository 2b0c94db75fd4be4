package org.sievecrawler.warc;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcDigest;
import org.sievecrawler.fetch.CapturedResponse;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.OutputConfig;
import org.sievecrawler.profile.WarcCompression;

/**
 * A crawl's web archive: WARC 1.1 files in the output folder, each record compressed on its own as {@code
 * output.warc-compression} says ({@code .warc.gz}, a gzip member per record, or {@code .warc.zst}, a Zstandard frame
 * per record), rolled over at {@code output.warc-max-size} (see {@link WarcFiles}). Each file opens with a {@code
 * warcinfo} record (software and version, the profile's name, the user agent, the robots policy); each {@link
 * #write(HttpExchange) exchange} becomes a {@code response} record followed by its {@code request} record, which names
 * the response in {@code WARC-Concurrent-To} (and the metadata records {@link #write} lists, for interim heads, a
 * response that breaks HTTP's grammar or one OkHttp refused); {@link #writeMetadata} adds a {@code metadata} record.
 * Records carry {@code WARC-Target-URI}, {@code WARC-Date} (when the request started), {@code WARC-IP-Address}, and
 * SHA-1 block and payload digests in base32; a response whose body was cut at the size cap says {@code
 * WARC-Truncated: length}.
 *
 * <p>With {@code output.warc-dedup} on, a response whose payload (whole, of {@value
 * RecordEncoder#MIN_REVISIT_PAYLOAD} bytes or more) was archived in full before in this crawl at another URL is a
 * {@code revisit} record instead (profile identical-payload-digest: the head without the body, referring to the
 * first capture), as {@link ArchivedPayloads} remembers them (the first {@value ArchivedPayloads#CAPACITY}
 * payloads). Two copies archived at once may be appended revisit first: a reader finds the first capture by its
 * record ID or by URI and date, not by its place in the file.
 *
 * <p>A response record's block is the response as received (see {@link CapturedResponse}): the status line and
 * fields byte for byte, then the body as received, content coding and chunked transfer coding kept (sizes,
 * extensions and trailers: as Heritrix and warcprox keep the raw stream; jwarc and pywb de-chunk it reading), so
 * that the head and the body it describes agree; {@code WARC-Payload-Digest} is the digest of the body without its
 * chunked coding (WARC 1.1 section 5.9: the payload is transfer-decoded, not content-decoded).
 *
 * <p>Thread-safe, for any number of fetcher and parser threads: a record is built, digested and compressed in the
 * calling thread (with an encoder taken from a pool), and only the append of the finished bytes is serialized, so
 * the fetches themselves never wait on each other. A response and its request are appended together, one after
 * the other in the same file. What is appended is in the file at once (no buffer in the JVM).
 *
 * <p>Out of scope: capturing the exchanges (the fetch package) and deciding what to archive (the crawl).
 * {@code WARC-Warcinfo-ID} is not written: a record is compressed before it is known which file it joins.
 */
public final class WarcArchive implements Archive {
    private final WarcFiles files;
    private final Clock clock;
    private final Map<String, String> info;
    private final WarcCompression compression;
    /** The payloads archived in full, with {@code output.warc-dedup} on; null with it off. */
    private final ArchivedPayloads payloads;
    /**
     * The idle encoders, used last first (a stack): the encoder taken is the one whose buffers and compression
     * tables the CPU's caches most likely still hold. A queue took the one idle longest, cycling through as many
     * encoders as threads ever archived at once (32 fetchers on two cores: each compression started cold).
     */
    private final ConcurrentLinkedDeque<RecordEncoder> encoders = new ConcurrentLinkedDeque<>();

    private WarcArchive(OutputConfig output, Map<String, String> info, Clock clock) {
        this.clock = clock;
        this.info = new LinkedHashMap<>(info);
        this.compression = output.warcCompression();
        this.payloads = output.warcDedup() ? new ArchivedPayloads(ArchivedPayloads.CAPACITY) : null;
        this.files = new WarcFiles(output.dir(), output.warcPrefix(), compression.suffix(), output.warcMaxSize(), clock,
                this::warcinfo);
    }

    /**
     * Opens the archive of a crawl run with {@code profile}, in its output folder, and creates its first file.
     *
     * @throws IOException naming the file when it cannot be created
     */
    public static WarcArchive open(CrawlProfile profile, Clock clock) throws IOException {
        return open(profile.output(), info(profile), clock);
    }

    /**
     * Opens an archive in {@code output.dir} (which must exist) whose warcinfo records hold {@code info} (field
     * name to value, in order), and creates its first file.
     *
     * @throws IOException naming the file when it cannot be created
     */
    public static WarcArchive open(OutputConfig output, Map<String, String> info, Clock clock) throws IOException {
        WarcArchive archive = new WarcArchive(output, info, clock);
        archive.files.open();
        return archive;
    }

    /** The warcinfo fields of a crawl run with {@code profile}. */
    static Map<String, String> info(CrawlProfile profile) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("software", software());
        fields.put("format", "WARC File Format 1.1");
        fields.put("conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/");
        fields.put("isPartOf", profile.name());
        fields.put("http-header-user-agent", profile.fetch().userAgent());
        fields.put("robots", profile.politeness().respectRobots() ? "obey" : "ignore");
        return fields;
    }

    /** "SieveCrawler/VERSION" from the jar's manifest, or "SieveCrawler (development build)" outside a jar. */
    static String software() {
        String version = WarcArchive.class.getPackage().getImplementationVersion();
        return version == null ? "SieveCrawler (development build)" : "SieveCrawler/" + version;
    }

    /**
     * Archives one exchange, its records appended together: for a response, its {@code response} record, its
     * {@code request} record, then, when there are any, a {@code metadata} record of the interim (1xx) heads received
     * before it ({@code application/http;msgtype=response}, as received) and a {@code metadata} note when the
     * response breaks HTTP's grammar ({@code http-grammar}, see {@link ResponseGrammar}) or its head was rebuilt
     * ({@code http-head-rebuilt}); for a response OkHttp refused, a {@code metadata} record of the bytes received
     * ({@code application/octet-stream}), the {@code request} record, and a note saying why
     * ({@code http-response-refused}). Every metadata record names the first record in {@code WARC-Concurrent-To}.
     *
     * @return where the first record is: the response, or the bytes of a refused one
     * @throws IOException naming the file when it cannot be written
     */
    public WarcLocation write(HttpExchange exchange) throws IOException {
        return write(exchange, null);
    }

    /**
     * {@link #write(HttpExchange)} of a recrawl's exchange whose URL the earlier crawl archived as {@code recapture}
     * says (null for none): a 304 answer is archived as a {@code revisit} record, profile server-not-modified,
     * referring to the earlier capture (by URI alone when it is not known); a response whose payload digest is the
     * earlier capture's (and of {@value RecordEncoder#MIN_REVISIT_PAYLOAD} bytes or more) as an identical-payload-digest
     * revisit referring to it; any other as {@link #write(HttpExchange)} does. An earlier record that cannot be read
     * or is of another URL is no capture: the exchange is archived in full.
     */
    public WarcLocation write(HttpExchange exchange, Recapture recapture) throws IOException {
        UUID firstId = UUID.randomUUID();
        URI first = RecordEncoder.urn(firstId);
        String url = exchange.url();
        List<byte[]> records = new ArrayList<>(4);
        Claim claim = new Claim();
        RecordEncoder encoder = take();
        try {
            String noteName;
            String note;
            if (exchange.response() instanceof CapturedResponse.Refused refused) {
                records.add(encoder.metadata(url, firstId, exchange.date(), exchange.remoteAddress(), null,
                        MediaType.OCTET_STREAM, refused.received()));
                records.add(encoder.request(exchange, firstId));
                noteName = "http-response-refused";
                note = refused.why();
            } else if (exchange.response() instanceof CapturedResponse.Received received) {
                records.add(first(encoder, exchange, firstId, claim, recapture));
                records.add(encoder.request(exchange, firstId));
                if (received.interim().length > 0) {
                    records.add(encoder.metadata(url, UUID.randomUUID(), exchange.date(), null, first,
                            MediaType.HTTP_RESPONSE, received.interim()));
                }
                noteName = "http-grammar";
                note = ResponseGrammar.problem(received.head(), received.body(), received.chunked());
            } else {
                records.add(first(encoder, exchange, firstId, claim, recapture));
                records.add(encoder.request(exchange, firstId));
                noteName = "http-head-rebuilt";
                note = ((CapturedResponse.Rebuilt) exchange.response()).why();
            }
            if (note != null) {
                records.add(encoder.metadata(url, UUID.randomUUID(), exchange.date(), first,
                        List.of(Map.entry(noteName, note))));
            }
        } finally {
            encoders.push(encoder);
        }
        WarcFiles.Placement placed;
        try {
            placed = files.append(records.toArray(new byte[0][]));
        } catch (IOException | RuntimeException e) {
            if (claim.digest != null) {
                payloads.release(claim.digest, claim.capture);
            }
            throw e;
        }
        return new WarcLocation(placed.file(), placed.offset(), first);
    }

    /** The payload a write claimed as its first capture, to release when the write fails. */
    private static final class Claim {
        byte[] digest;
        ArchivedPayloads.FirstCapture capture;
    }

    /** The first record of {@code exchange}: a revisit of the earlier crawl's capture, or as below. */
    private byte[] first(RecordEncoder encoder, HttpExchange exchange, UUID id, Claim claim, Recapture recapture) {
        if (recapture == null || !recapture.notModified() && !RecordEncoder.revisitable(exchange)) {
            return responseOrRevisit(encoder, exchange, id, claim, null);
        }
        Optional<EarlierCapture> capture = earlier(recapture, exchange.url());
        if (recapture.notModified()) {
            return encoder.revisit(exchange, id, true,
                    capture.orElseGet(() -> new EarlierCapture(exchange.url(), null, null, null)));
        }
        byte[] digest = encoder.payloadDigest(exchange); // once: the record written below takes it too
        if (capture.isPresent()
                && new WarcDigest("sha1", digest).prefixedBase32().equals(capture.get().payloadDigest())) {
            return encoder.revisit(exchange, id, false, capture.get());
        }
        return responseOrRevisit(encoder, exchange, id, claim, digest);
    }

    /**
     * The capture {@code recapture} names, if it can be read and is of {@code url}; an earlier file that cannot be
     * read is none (the exchange is archived in full).
     */
    private static Optional<EarlierCapture> earlier(Recapture recapture, String url) {
        if (recapture.file() == null) {
            return Optional.empty();
        }
        try {
            return EarlierCapture.read(recapture.file(), recapture.offset())
                    .filter(capture -> capture.uri().equals(url));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The response record of {@code exchange}, or, with {@code output.warc-dedup} on, a revisit record when its
     * payload (whole, of 512 bytes or more) was archived before at another URL. {@code known} is its payload
     * digest when already computed, else null.
     */
    private byte[] responseOrRevisit(RecordEncoder encoder, HttpExchange exchange, UUID id, Claim claim,
            byte[] known) {
        byte[] digest = known != null ? known : payloads == null || !RecordEncoder.revisitable(exchange) ? null
                : encoder.payloadDigest(exchange);
        if (payloads == null || digest == null) {
            return known != null ? encoder.response(exchange, id, known) : encoder.response(exchange, id);
        }
        ArchivedPayloads.FirstCapture capture = new ArchivedPayloads.FirstCapture(exchange.url(), exchange.date(), id);
        ArchivedPayloads.FirstCapture earlier = payloads.claim(digest, capture);
        if (earlier != null) {
            return encoder.revisit(exchange, id, digest, earlier);
        }
        claim.digest = digest;
        claim.capture = capture;
        return encoder.response(exchange, id, digest);
    }

    @Override
    public Optional<WarcLocation> archive(HttpExchange exchange) throws IOException {
        return exchange == null ? Optional.empty() : Optional.of(write(exchange));
    }

    @Override
    public Optional<WarcLocation> archive(HttpExchange exchange, Recapture recapture) throws IOException {
        return exchange == null ? Optional.empty() : Optional.of(write(exchange, recapture));
    }


    @Override
    public void archiveMetadata(String url, WarcLocation response, List<Map.Entry<String, String>> fields)
            throws IOException {
        writeMetadata(url, response, fields);
    }

    /**
     * Archives a metadata record about {@code url}, e.g. its outlinks, linked to a response by
     * {@code WARC-Concurrent-To}.
     *
     * @param fields the record's {@code name: value} fields, in order
     * @return where the metadata record is
     * @throws IOException naming the file when it cannot be written
     */
    WarcLocation writeMetadata(String url, WarcLocation response, List<Map.Entry<String, String>> fields)
            throws IOException {
        UUID id = UUID.randomUUID();
        byte[] record;
        RecordEncoder encoder = take();
        try {
            record = encoder.metadata(url, id, clock.instant(), response.recordId(), fields);
        } finally {
            encoders.push(encoder);
        }
        WarcFiles.Placement placed = files.append(record);
        return new WarcLocation(placed.file(), placed.offset(), RecordEncoder.urn(id));
    }

    /**
     * The WARC files in {@code dir} that an archive with {@code output.warc-prefix} {@code prefix} wrote (either
     * compression), in the order of their names (oldest first); none when {@code dir} does not exist.
     *
     * @throws IOException when the folder cannot be listed
     */
    public static List<Path> existingFiles(Path dir, String prefix) throws IOException {
        return WarcFiles.existing(dir, prefix);
    }

    /** The WARC files written so far, oldest first. */
    @Override
    public List<Path> files() {
        return files.files();
    }

    private byte[] warcinfo(String fileName) throws IOException {
        RecordEncoder encoder = take();
        try {
            return encoder.warcinfo(fileName, clock.instant(), info);
        } finally {
            encoders.push(encoder);
        }
    }

    private RecordEncoder take() {
        RecordEncoder encoder = encoders.poll();
        return encoder != null ? encoder : new RecordEncoder(compression);
    }

    /** Closes the current file, synced to disk, and frees the pooled encoders' native memory (zstd). */
    @Override
    public void close() throws IOException {
        try {
            files.close();
        } finally {
            for (RecordEncoder encoder = encoders.poll(); encoder != null; encoder = encoders.poll()) {
                encoder.close();
            }
        }
    }
}
