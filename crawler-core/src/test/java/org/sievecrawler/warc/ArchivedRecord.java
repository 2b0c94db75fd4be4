package org.sievecrawler.warc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.MessageHeaders;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/**
 * A WARC record as the tests read it back with jwarc's {@link WarcReader}: its offset, headers and block, and for
 * a response the HTTP status, header fields and payload (the body as transferred, not decoded).
 */
record ArchivedRecord(long offset, MessageHeaders headers, byte[] block, int status, MessageHeaders http,
        byte[] payload) {

    String type() {
        return headers.sole("WARC-Type").orElseThrow();
    }

    String header(String name) {
        return headers.sole(name).orElse(null);
    }

    String id() {
        return header("WARC-Record-ID");
    }

    /** Every record of {@code file}, in order; fails on any unreadable record. */
    static List<ArchivedRecord> readAll(Path file) throws IOException {
        List<ArchivedRecord> records = new ArrayList<>();
        try (WarcReader reader = new WarcReader(file)) {
            Optional<WarcRecord> next;
            while ((next = reader.next()).isPresent()) {
                records.add(read(reader.position(), next.get()));
            }
        }
        return records;
    }

    /** The next record of {@code reader}, or null at the end of the file. */
    static ArchivedRecord readNext(WarcReader reader) throws IOException {
        Optional<WarcRecord> next = reader.next();
        return next.isPresent() ? read(reader.position(), next.get()) : null;
    }

    /** The one record at {@code offset} of {@code file}, read without reading what comes before it. */
    static ArchivedRecord readAt(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file)) {
            channel.position(offset);
            try (WarcReader reader = new WarcReader(channel)) {
                return read(offset, reader.next().orElseThrow());
            }
        }
    }

    private static ArchivedRecord read(long offset, WarcRecord record) throws IOException {
        byte[] block;
        try (InputStream in = record.body().stream()) {
            block = in.readAllBytes();
        }
        if (!(record instanceof WarcResponse)) {
            return new ArchivedRecord(offset, record.headers(), block, 0, null, null);
        }
        // the block through jwarc's HTTP parser: the status line and fields, then the payload as transferred
        HttpResponse http = HttpResponse.parse(Channels.newChannel(new ByteArrayInputStream(block)));
        byte[] payload;
        try (InputStream in = http.body().stream()) {
            payload = in.readAllBytes();
        }
        return new ArchivedRecord(offset, record.headers(), block, http.status(), http.headers(), payload);
    }

    /** The sha1 digest of {@code parts} joined, as WARC writes it: {@code sha1:BASE32}. */
    static String sha1(byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-1");
            for (byte[] part : parts) {
                digest.update(part);
            }
            return new WarcDigest(digest).prefixedBase32();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
