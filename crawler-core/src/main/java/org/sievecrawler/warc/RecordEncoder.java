package org.sievecrawler.warc;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
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
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.WarcWriter;
import org.netpreserve.jwarc.Warcinfo;
import org.sievecrawler.fetch.HttpExchange;

/**
 * Builds WARC 1.1 records with jwarc and writes each, through jwarc's {@link WarcWriter}, into a {@link
 * RecordCompressor} of its own (a gzip member or a Zstandard frame). jwarc writes what it is given and computes no
 * digest, so the digests are computed here: {@code WARC-Block-Digest} over the whole block (for a response: status
 * line, header fields and body as transferred) and {@code WARC-Payload-Digest} over the body alone, both SHA-1 in
 * base32 ({@code sha1:...}).
 *
 * <p>Not thread-safe: one thread at a time; {@link WarcArchive} pools them.
 */
final class RecordEncoder implements AutoCloseable {
    private final RecordCompressor member;
    private final WarcWriter writer;
    private final MessageDigest sha1;

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
                .body(MediaType.WARC_FIELDS, block).blockDigest(digest(block, null)).build());
    }

    /** The response record of {@code exchange}, with the given record ID. */
    byte[] response(HttpExchange exchange, UUID id) throws IOException {
        byte[] head = exchange.responseHead();
        byte[] body = exchange.body();
        WarcResponse.Builder builder = new WarcResponse.Builder(exchange.url()).version(MessageVersion.WARC_1_1)
                .recordId(id).date(exchange.date())
                .body(MediaType.HTTP_RESPONSE, new Block(head, body), (long) head.length + body.length)
                .blockDigest(digest(head, body)).payloadDigest(digest(body, null));
        if (exchange.remoteAddress() != null) {
            builder.setHeader("WARC-IP-Address", exchange.remoteAddress());
        }
        if (exchange.truncated()) {
            builder.truncated(WarcTruncationReason.LENGTH);
        }
        return encode(builder.build());
    }

    /** The request record of {@code exchange}, pointing at its response by WARC-Concurrent-To. */
    byte[] request(HttpExchange exchange, UUID responseId) throws IOException {
        byte[] head = exchange.requestHead();
        WarcRequest.Builder builder = new WarcRequest.Builder(exchange.url()).version(MessageVersion.WARC_1_1)
                .date(exchange.date()).body(MediaType.HTTP_REQUEST, head).blockDigest(digest(head, null))
                .concurrentTo(urn(responseId));
        if (exchange.remoteAddress() != null) {
            builder.setHeader("WARC-IP-Address", exchange.remoteAddress());
        }
        return encode(builder.build());
    }

    /** A metadata record about {@code url}: one {@code name: value} field per entry, in order. */
    byte[] metadata(String url, UUID id, Instant date, URI concurrentTo, List<Map.Entry<String, String>> fields)
            throws IOException {
        byte[] block = warcFields(fields);
        return encode(new WarcMetadata.Builder().version(MessageVersion.WARC_1_1).recordId(id).targetURI(url).date(date)
                .concurrentTo(concurrentTo).body(MediaType.WARC_FIELDS, block).blockDigest(digest(block, null))
                .build());
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

    /** SHA-1 of {@code first} followed by {@code second} (when not null). */
    private WarcDigest digest(byte[] first, byte[] second) {
        sha1.update(first);
        if (second != null) {
            sha1.update(second);
        }
        return new WarcDigest("sha1", sha1.digest());
    }

    /** A record block in two parts (a head and a body), read once, without joining them into one array. */
    private static final class Block implements ReadableByteChannel {
        private final byte[] head;
        private final byte[] body;
        private long position;

        Block(byte[] head, byte[] body) {
            this.head = head;
            this.body = body;
        }

        @Override
        public int read(ByteBuffer dst) {
            long total = (long) head.length + body.length;
            if (position >= total) {
                return -1;
            }
            int read = 0;
            if (position < head.length) {
                int n = (int) Math.min(dst.remaining(), head.length - position);
                dst.put(head, (int) position, n);
                position += n;
                read += n;
            }
            if (position >= head.length && dst.hasRemaining()) {
                int from = (int) (position - head.length);
                int n = Math.min(dst.remaining(), body.length - from);
                dst.put(body, from, n);
                position += n;
                read += n;
            }
            return read;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
