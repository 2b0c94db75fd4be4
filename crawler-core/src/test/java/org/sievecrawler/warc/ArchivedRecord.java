package org.sievecrawler.warc;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.MessageHeaders;
import org.netpreserve.jwarc.ParsingException;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/**
 * A WARC record as the tests read it back with jwarc's {@link WarcReader}: its offset, headers and block, and for
 * a response the HTTP status, header fields and payload (the body as transferred, not decoded): status 0 and no
 * fields or payload when jwarc cannot read its HTTP message.
 */
public record ArchivedRecord(long offset, MessageHeaders headers, byte[] block, int status, MessageHeaders http,
        byte[] payload) {

    public String type() {
        return headers.sole("WARC-Type").orElseThrow();
    }

    /** The value of the WARC header {@code name}, or null. */
    public String header(String name) {
        return headers.sole(name).orElse(null);
    }

    public String id() {
        return header("WARC-Record-ID");
    }

    /** The block as UTF-8 text. */
    public String text() {
        return new String(block, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Every record of {@code file}, in order; fails on any unreadable record. A {@code .warc.zst} file is read frame
     * by frame ({@link ZstdFrames}), each frame's records parsed by jwarc.
     */
    public static List<ArchivedRecord> readAll(Path file) throws IOException {
        List<ArchivedRecord> records = new ArrayList<>();
        if (file.toString().endsWith(".zst")) {
            try (ZstdFrames frames = new ZstdFrames(file)) {
                for (ZstdFrames.Frame frame = frames.next(); frame != null; frame = frames.next()) {
                    try (WarcReader reader = new WarcReader(java.nio.channels.Channels.newChannel(
                            frame.content()))) {
                        for (Optional<WarcRecord> next = reader.next(); next.isPresent(); next = reader.next()) {
                            records.add(read(frame.offset(), next.get()));
                        }
                    }
                }
            }
            return records;
        }
        try (WarcReader reader = new WarcReader(file)) {
            Optional<WarcRecord> next;
            while ((next = reader.next()).isPresent()) {
                records.add(read(reader.position(), next.get()));
            }
        }
        return records;
    }

    /** The next record of {@code reader}, or null at the end of the file. */
    public static ArchivedRecord readNext(WarcReader reader) throws IOException {
        Optional<WarcRecord> next = reader.next();
        return next.isPresent() ? read(reader.position(), next.get()) : null;
    }

    /** The one record at {@code offset} of {@code file}, read without reading what comes before it. */
    public static ArchivedRecord readAt(Path file, long offset) throws IOException {
        if (file.toString().endsWith(".zst")) {
            try (ZstdFrames frames = new ZstdFrames(file)) {
                frames.seek(offset);
                try (WarcReader reader = new WarcReader(java.nio.channels.Channels.newChannel(
                        frames.next().content()))) {
                    return read(offset, reader.next().orElseThrow());
                }
            }
        }
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
        // the block through jwarc's HTTP parser, which takes the payload to run to the end of the block (as it does
        // reading a record): the status line and fields, then the payload as transferred
        HttpResponse http;
        byte[] payload;
        try {
            http = HttpResponse.parse(new BlockChannel(block));
            try (InputStream in = http.body().stream()) {
                payload = in.readAllBytes();
            }
        } catch (ParsingException | EOFException e) { // a head jwarc cannot read, archived as received all the same
            return new ArchivedRecord(offset, record.headers(), block, 0, null, null);
        }
        return new ArchivedRecord(offset, record.headers(), block, http.status(), http.headers(), payload);
    }

    /** The sha1 digest of {@code parts} joined, as WARC writes it: {@code sha1:BASE32}. */
    public static String sha1(byte[]... parts) {
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

    /** A block in memory as the seekable channel jwarc's parser sizes a body by. */
    private static final class BlockChannel implements SeekableByteChannel {
        private final byte[] bytes;
        private int position;

        BlockChannel(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (position >= bytes.length) {
                return -1;
            }
            int n = Math.min(dst.remaining(), bytes.length - position);
            dst.put(bytes, position, n);
            position += n;
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            throw new NonWritableChannelException();
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public SeekableByteChannel position(long newPosition) {
            position = (int) Math.min(newPosition, bytes.length);
            return this;
        }

        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new NonWritableChannelException();
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
