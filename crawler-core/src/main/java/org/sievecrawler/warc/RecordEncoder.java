package org.sievecrawler.warc;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcMetadata;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcWriter;
import org.netpreserve.jwarc.Warcinfo;
import org.sievecrawler.fetch.CapturedResponse;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.profile.WarcCompression;

/**
 * Builds WARC 1.1 records, each into a {@link RecordCompressor} of its own (a gzip member or a Zstandard frame). The
 * records of every page, response and request, are written straight into the compressor: their header by {@link
 * RecordHeader} (the fields jwarc would write, in its order), then the block's parts, each copied once into the
 * compressor's buffer; the rare warcinfo and metadata records are built with jwarc and written through its {@link
 * WarcWriter}.
 * The digests are computed here: {@code WARC-Block-Digest} over the whole block (for a response: status line,
 * header fields and body as received) and {@code WARC-Payload-Digest} over the payload, the body without its
 * chunked transfer coding (content coding kept: WARC 1.1 section 5.9), both SHA-1 in base32 ({@code sha1:...}).
 *
 * <p>Not thread-safe: one thread at a time; {@link WarcArchive} pools them.
 */
final class RecordEncoder implements AutoCloseable {
    private static final byte[] TRAILER = {'\r', '\n', '\r', '\n'};
    private static final byte[] EMPTY = {};
    /**
     * The smallest payload a revisit record stands for; a smaller one is archived in full. A revisit's reference
     * fields cost more than a small payload saves: on Boost's docs, 1,220 revisits of nginx's 404 page (about 150
     * bytes) made the .warc.gz 71 KB larger, 58 bytes a record, compressed.
     */
    static final int MIN_REVISIT_PAYLOAD = 512;
    static final String IDENTICAL_PAYLOAD_DIGEST =
            "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";
    static final String SERVER_NOT_MODIFIED = "http://netpreserve.org/warc/1.1/revisit/server-not-modified";

    private final RecordCompressor member;
    private final WarcWriter writer;
    private final MessageDigest sha1;
    private final RecordHeader header = new RecordHeader();

    RecordEncoder(WarcCompression compression) {
        this.member = RecordCompressor.of(compression);
        try {
            this.writer = new WarcWriter(member);
            this.sha1 = MessageDigest.getInstance("SHA-1");
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot set up a WARC record encoder: " + e, e);
        }
    }

    /** Frees the compressor's native memory, if any; the encoder is not used afterwards. */
    @Override
    public void close() {
        member.close();
    }

    /** The warcinfo record opening {@code fileName}, its fields in order. */
    byte[] warcinfo(String fileName, Instant date, Map<String, String> fields) throws IOException {
        byte[] block = warcFields(fields.entrySet());
        return encode(new Warcinfo.Builder().version(MessageVersion.WARC_1_1).date(date).filename(fileName)
                .body(MediaType.WARC_FIELDS, block).blockDigest(warcDigest(block)).build());
    }

    /**
     * The response record of {@code exchange}, with the given record ID: its block is the response's head and body
     * (as received, or the head rebuilt), its payload digest that of the body without its chunked coding.
     *
     * @throws IllegalArgumentException for a response OkHttp refused, which is no HTTP response
     */
    byte[] response(HttpExchange exchange, UUID id) {
        return response(exchange, id, payloadDigest(exchange));
    }

    /** The response record of {@code exchange} whose {@link #payloadDigest} is {@code payloadDigest}. */
    byte[] response(HttpExchange exchange, UUID id, byte[] payloadDigest) {
        Parts parts = Parts.of(exchange);
        byte[] blockDigest = digest(parts.head(), parts.body());
        header.start().field("Content-Length", (long) parts.head().length + parts.body().length)
                .field("Content-Type", "application/http;msgtype=response").sha1("WARC-Block-Digest", blockDigest)
                .field("WARC-Date", exchange.date().toString());
        if (exchange.remoteAddress() != null) {
            header.field("WARC-IP-Address", exchange.remoteAddress());
        }
        header.sha1("WARC-Payload-Digest", payloadDigest).field("WARC-Record-ID", id)
                .field("WARC-Target-URI", exchange.url());
        if (parts.truncated()) {
            header.field("WARC-Truncated", "length");
        }
        return encode(header.field("WARC-Type", "response").end(), parts.head(), parts.body());
    }

    /**
     * The {@code revisit} record of {@code exchange}, whose payload is that of the {@code earlier} capture (WARC 1.1
     * section 6.7.2, profile identical-payload-digest): its block is the response's head only, the payload left
     * out; it names the earlier record in {@code WARC-Refers-To}, {@code WARC-Refers-To-Target-URI} and {@code
     * WARC-Refers-To-Date}.
     *
     * @throws IllegalArgumentException for a response OkHttp refused, which is no HTTP response
     */
    byte[] revisit(HttpExchange exchange, UUID id, byte[] payloadDigest, ArchivedPayloads.FirstCapture earlier) {
        byte[] head = revisitHead(exchange);
        header.sha1("WARC-Payload-Digest", payloadDigest).field("WARC-Profile", IDENTICAL_PAYLOAD_DIGEST)
                .field("WARC-Record-ID", id).field("WARC-Refers-To", earlier.recordId())
                .field("WARC-Refers-To-Date", earlier.date().toString())
                .field("WARC-Refers-To-Target-URI", earlier.uri()).field("WARC-Target-URI", exchange.url());
        return encode(header.field("WARC-Type", "revisit").end(), head, EMPTY);
    }

    /**
     * The {@code revisit} record of {@code exchange}, a recrawl's, whose payload is that of an {@code earlier}
     * crawl's capture: profile {@code serverNotModified} for a 304 answer to a conditional request (its payload
     * digest the capture's, when known), else identical-payload-digest ({@code payloadDigest} the capture's too).
     * Its block is the response's head; {@code WARC-Refers-To} and {@code -Refers-To-Date} are written when the
     * capture's are known.
     *
     * @throws IllegalArgumentException for a response OkHttp refused, which is no HTTP response
     */
    byte[] revisit(HttpExchange exchange, UUID id, boolean serverNotModified, EarlierCapture earlier) {
        byte[] head = revisitHead(exchange);
        if (earlier.payloadDigest() != null) {
            header.field("WARC-Payload-Digest", earlier.payloadDigest());
        }
        header.field("WARC-Profile", serverNotModified ? SERVER_NOT_MODIFIED : IDENTICAL_PAYLOAD_DIGEST)
                .field("WARC-Record-ID", id);
        if (earlier.recordId() != null) {
            header.field("WARC-Refers-To", "<" + earlier.recordId() + ">");
        }
        if (earlier.date() != null) {
            header.field("WARC-Refers-To-Date", earlier.date().toString());
        }
        header.field("WARC-Refers-To-Target-URI", earlier.uri()).field("WARC-Target-URI", exchange.url());
        return encode(header.field("WARC-Type", "revisit").end(), head, EMPTY);
    }

    /** Starts a revisit record's header, up to its IP address, and returns its block: the response's head. */
    private byte[] revisitHead(HttpExchange exchange) {
        byte[] head = Parts.of(exchange).head();
        header.start().field("Content-Length", head.length)
                .field("Content-Type", "application/http;msgtype=response")
                .sha1("WARC-Block-Digest", digest(head, null)).field("WARC-Date", exchange.date().toString());
        if (exchange.remoteAddress() != null) {
            header.field("WARC-IP-Address", exchange.remoteAddress());
        }
        return head;
    }

    /**
     * The payload digest of {@code exchange}'s response: SHA-1 of the body without its chunked coding.
     *
     * @throws IllegalArgumentException for a response OkHttp refused, which is no HTTP response
     */
    byte[] payloadDigest(HttpExchange exchange) {
        return digest(Parts.of(exchange).payload(), null);
    }

    /**
     * Whether {@code exchange}'s response may be archived as a revisit: a whole payload (not cut at the cap) of at
     * least {@link #MIN_REVISIT_PAYLOAD} bytes.
     */
    static boolean revisitable(HttpExchange exchange) {
        if (exchange.response() instanceof CapturedResponse.Refused) {
            return false;
        }
        Parts parts = Parts.of(exchange);
        return !parts.truncated() && parts.payload().length >= MIN_REVISIT_PAYLOAD;
    }

    /** A response's head, block body (as received), payload (de-chunked) and whether it was cut. */
    private record Parts(byte[] head, byte[] body, byte[] payload, boolean truncated) {
        static Parts of(HttpExchange exchange) {
            if (exchange.response() instanceof CapturedResponse.Received received) {
                return new Parts(received.head(), received.body(), received.payload(), received.truncated());
            } else if (exchange.response() instanceof CapturedResponse.Rebuilt rebuilt) {
                return new Parts(rebuilt.head(), rebuilt.body(), rebuilt.body(), rebuilt.truncated());
            }
            throw new IllegalArgumentException("a refused response is no response record: " + exchange);
        }
    }

    /** The request record of {@code exchange}, pointing at its response by WARC-Concurrent-To. */
    byte[] request(HttpExchange exchange, UUID responseId) {
        byte[] head = exchange.requestHead();
        header.start().field("Content-Length", head.length).field("Content-Type", "application/http;msgtype=request")
                .sha1("WARC-Block-Digest", digest(head, null)).field("WARC-Concurrent-To", responseId)
                .field("WARC-Date", exchange.date().toString());
        if (exchange.remoteAddress() != null) {
            header.field("WARC-IP-Address", exchange.remoteAddress());
        }
        header.field("WARC-Record-ID", UUID.randomUUID()).field("WARC-Target-URI", exchange.url())
                .field("WARC-Type", "request").end();
        return encode(header, head, EMPTY);
    }

    /** A metadata record about {@code url}: one {@code name: value} field per entry, in order. */
    byte[] metadata(String url, UUID id, Instant date, URI concurrentTo, List<Map.Entry<String, String>> fields)
            throws IOException {
        return metadata(url, id, date, null, concurrentTo, MediaType.WARC_FIELDS, warcFields(fields));
    }

    /**
     * A metadata record about {@code url} whose block is {@code block}, of type {@code type} (bytes received that
     * are no response record's: interim heads, a response OkHttp refused).
     *
     * @param remoteAddress the IP address the bytes came from, or null to leave it out
     * @param concurrentTo the record it goes with, or null when none
     */
    byte[] metadata(String url, UUID id, Instant date, String remoteAddress, URI concurrentTo, MediaType type,
            byte[] block) throws IOException {
        WarcMetadata.Builder builder = new WarcMetadata.Builder().version(MessageVersion.WARC_1_1).recordId(id)
                .targetURI(url).date(date).body(type, block).blockDigest(warcDigest(block));
        if (concurrentTo != null) {
            builder.concurrentTo(concurrentTo);
        }
        if (remoteAddress != null) {
            builder.addHeader("WARC-IP-Address", remoteAddress);
        }
        return encode(builder.build());
    }

    /** An application/warc-fields block: one {@code name: value} line per field, in order. */
    private static byte[] warcFields(Iterable<Map.Entry<String, String>> fields) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, String> field : fields) {
            text.append(field.getKey()).append(": ").append(field.getValue()).append("\r\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    static URI urn(UUID id) {
        return URI.create("urn:uuid:" + id);
    }

    private byte[] encode(WarcRecord record) throws IOException {
        writer.write(record);
        return member.finish();
    }

    /** A record from its header and its block in two parts, then the two CRLFs that end a record. */
    private byte[] encode(RecordHeader header, byte[] blockHead, byte[] blockBody) {
        member.write(header.bytes(), 0, header.size());
        member.write(blockHead, 0, blockHead.length);
        member.write(blockBody, 0, blockBody.length);
        member.write(TRAILER, 0, TRAILER.length);
        return member.finish();
    }

    private WarcDigest warcDigest(byte[] block) {
        return new WarcDigest("sha1", digest(block, null));
    }

    /** SHA-1 of {@code first} followed by {@code second} (when not null). */
    private byte[] digest(byte[] first, byte[] second) {
        sha1.update(first);
        if (second != null) {
            sha1.update(second);
        }
        return sha1.digest();
    }
}
