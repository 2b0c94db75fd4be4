package org.sievecrawler.warc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.OutputConfig;

/**
 * A crawl's web archive: WARC 1.1 files in the output folder, each record compressed on its own as {@code
 * output.warc-compression} says ({@code .warc.gz}, a gzip member per record, or {@code .warc.zst}, a Zstandard frame
 * per record), rolled over at {@code output.warc-max-size} (see {@link WarcFiles}). Each file opens with a {@code
 * warcinfo} record (software and version, the profile's name, the user agent, the robots policy); each {@link
 * #write(HttpExchange) exchange} becomes a {@code response} record followed by its {@code request} record, which names
 * the response in {@code WARC-Concurrent-To}; {@link #writeMetadata} adds a {@code metadata} record. Records carry
 * {@code WARC-Target-URI}, {@code WARC-Date} (when the request started), {@code WARC-IP-Address}, and SHA-1 block and
 * payload digests in base32; a response whose body was cut at the size cap says {@code WARC-Truncated: length}.
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
    public static Map<String, String> info(CrawlProfile profile) {
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
     * Archives one exchange: its response record, then its request record.
     *
     * @return where the response record is
     * @throws IOException naming the file when it cannot be written
     */
    public WarcLocation write(HttpExchange exchange) throws IOException {
        UUID responseId = UUID.randomUUID();
        byte[] response;
        byte[] request;
        RecordEncoder encoder = take();
        try {
            response = encoder.response(exchange, responseId);
            request = encoder.request(exchange, responseId);
        } finally {
            encoders.push(encoder);
        }
        WarcFiles.Placement placed = files.append(response, request);
        return new WarcLocation(placed.file(), placed.offset(), RecordEncoder.urn(responseId));
    }

    @Override
    public Optional<WarcLocation> archive(HttpExchange exchange) throws IOException {
        return exchange == null ? Optional.empty() : Optional.of(write(exchange));
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
    public WarcLocation writeMetadata(String url, WarcLocation response, List<Map.Entry<String, String>> fields)
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
