package org.sievecrawler.sink;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.function.Consumer;
import org.sievecrawler.escape.Json;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.parse.SimHash;

/**
 * Writes {@link PageRecord}s as JSON lines (pages.jsonl), appending, and reads them back ({@link #read}). Each line
 * is serialized whole and written at once with one write, straight to the file (no buffer in the JVM): a record
 * written is in the file even if the process is killed right after, which the frontier's journal counts on (it
 * notes a page done only after its record is written). A crash inside the write may leave half a line, which
 * {@link #cutPartialLine} cuts. Lines are written by the crawler's one JSON configuration ({@link Json}): valid UTF-8
 * whatever the page held. A line read that is not UTF-8 (a file damaged, or edited) is decoded with U+FFFD for its
 * bad bytes, and the escape of an unpaired surrogate (written by older builds) is read as it is.
 *
 * <p>Thread-safe: {@link #accept} serializes outside the lock and appends under it.
 */
public final class JsonlSink implements AutoCloseable {
    /**
     * The most bytes a line is read with: a record holds a few URLs of at most 2,048 characters, a content type, a
     * title and an error text, far less; a longer line is not a record.
     */
    public static final int MAX_LINE_BYTES = 1 << 20;

    private final Path path;
    private final FileChannel channel;
    private boolean closed;

    private JsonlSink(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /**
     * Opens (creating or appending to) {@code path}.
     *
     * @throws IOException naming the file when it cannot be opened for writing
     */
    public static JsonlSink open(Path path) throws IOException {
        try {
            return new JsonlSink(path, FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND));
        } catch (IOException e) {
            throw new IOException("cannot open " + path + " for writing: " + FileErrors.reason(path, e), e);
        }
    }

    /**
     * Appends {@code record} as one line, written at once.
     *
     * @throws IOException naming the file when it is closed or cannot be written
     */
    public void accept(PageRecord record) throws IOException {
        byte[] line = serialize(record);
        synchronized (this) {
            if (closed) {
                throw new IOException(path + " is closed");
            }
            writeFully(ByteBuffer.wrap(line));
        }
    }

    /**
     * Forces the lines written so far to disk (a checkpoint counting them is committed after).
     *
     * @throws IOException naming the file when it cannot be synced
     */
    public void sync() throws IOException {
        try {
            channel.force(false);
        } catch (IOException e) {
            throw new IOException("cannot sync " + path + ": " + FileErrors.reason(path, e), e);
        }
    }

    /** The file's length: whole lines only (unless a write is failing). */
    public synchronized long length() throws IOException {
        return channel.size();
    }

    /**
     * Reads the records of {@code path} from byte {@code from} (a line start) to its end, in order: for a resume,
     * the records written after its checkpoint, which the counters must count again. Fields this build does not know
     * are skipped.
     *
     * @throws DamagedLine naming the file and the byte offset of a line that is not a record (not JSON, not UTF-8,
     *     without a url or outcome, or longer than {@link #MAX_LINE_BYTES})
     * @throws IOException naming the file when it cannot be read
     */
    public static void read(Path path, long from, Consumer<PageRecord> each) throws IOException {
        read(path, from, each, (offset, problem) -> {
            throw new DamagedLine(path, offset, problem);
        });
    }

    /** A line of a pages.jsonl that is not a page record, where a reader needs every line to be one. */
    public static final class DamagedLine extends IOException {
        private static final long serialVersionUID = 1L;

        private final long offset;

        DamagedLine(Path path, long offset, Exception problem) {
            super(path + ": the line at byte " + offset + " is not a page record: " + (problem instanceof
                    JsonProcessingException json ? json.getOriginalMessage() : problem.getMessage()), problem);
            this.offset = offset;
        }

        /** The byte offset of the line's start. */
        public long offset() {
            return offset;
        }
    }

    /**
     * Reads every record of {@code path}, in order, passing over the lines that are not records (a partial last
     * line of a crawl killed or still writing, a line damaged on disk): for a view of the file, not for a resume.
     *
     * @return the lines passed over, and the byte offset of the first of them
     * @throws IOException when the file cannot be read
     */
    public static Skipped readSkipping(Path path, Consumer<PageRecord> each) throws IOException {
        long[] skipped = {0, -1};
        read(path, 0, each, (offset, problem) -> {
            if (skipped[0]++ == 0) {
                skipped[1] = offset;
            }
        });
        return new Skipped(skipped[0], skipped[1]);
    }

    /**
     * Lines of a pages.jsonl that are not records.
     *
     * @param lines how many
     * @param firstAt the byte offset of the first, -1 when there is none
     */
    public record Skipped(long lines, long firstAt) {
    }

    /** What a reader does with a line that is not a record. */
    private interface BadLine {
        void at(long offset, Exception problem) throws IOException;
    }

    /**
     * Reads the lines from byte {@code from} as bytes, a chunk at a time, each kept up to {@link #MAX_LINE_BYTES}
     * (a longer one, or a file of no newline at all, costs no more memory: it is a bad line), and parses each.
     */
    private static void read(Path path, long from, Consumer<PageRecord> each, BadLine bad) throws IOException {
        if (!java.nio.file.Files.exists(path)) {
            return;
        }
        InputFile.requireRegularFile(path, "pages.jsonl"); // /dev/zero would be one line without end
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            file.position(from);
            InputStream in = Channels.newInputStream(file);
            byte[] chunk = new byte[1 << 16];
            Line line = new Line();
            long offset = from; // of the line being read
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (chunk[i] == '\n') {
                        line.append(chunk, start, i - start);
                        line.parseInto(offset, each, bad);
                        offset += line.length + 1;
                        line.clear();
                        start = i + 1;
                    }
                }
                line.append(chunk, start, n - start);
            }
            if (line.length > 0) { // a last line without its newline: partial
                line.parseInto(offset, each, bad);
            }
        }
    }

    /**
     * The line being read: its bytes up to {@link #MAX_LINE_BYTES}, and its whole length; decoded (bad UTF-8 as
     * U+FFFD) and parsed at its end. Not thread-safe.
     */
    private static final class Line {
        private byte[] bytes = new byte[1024];
        long length;

        void append(byte[] chunk, int from, int count) {
            int kept = (int) Math.min(length, MAX_LINE_BYTES);
            int room = MAX_LINE_BYTES - kept;
            int copied = Math.min(count, room);
            if (copied > 0) {
                if (kept + copied > bytes.length) {
                    bytes = Arrays.copyOf(bytes, Math.min(MAX_LINE_BYTES,
                            Math.max(bytes.length * 2, kept + copied)));
                }
                System.arraycopy(chunk, from, bytes, kept, copied);
            }
            length += count;
        }

        void parseInto(long offset, Consumer<PageRecord> each, BadLine bad) throws IOException {
            PageRecord record = null;
            try {
                if (length > MAX_LINE_BYTES) {
                    throw new IOException("it is longer than " + MAX_LINE_BYTES + " bytes (" + length + " bytes)");
                }
                record = parse(new String(bytes, 0, (int) length, StandardCharsets.UTF_8)); // bad UTF-8 as U+FFFD
            } catch (IOException | IllegalArgumentException e) {
                bad.at(offset, e);
            }
            if (record != null) {
                each.accept(record);
            }
        }

        void clear() {
            length = 0;
            if (bytes.length > 1 << 16) {
                bytes = new byte[1024]; // a long line's buffer is not kept for the rest of the file
            }
        }
    }

    /**
     * One line written by {@link #serialize}.
     *
     * @throws IOException saying why the line is no record (not JSON, no url or outcome, a malformed field)
     */
    public static PageRecord parse(String line) throws IOException {
        String url = null;
        String contentType = null;
        String title = null;
        String redirectTo = null;
        String referrer = null;
        String error = null;
        String warcFile = null;
        String digest = null;
        String simhash = null;
        String etag = null;
        String lastModified = null;
        Outcome outcome = null;
        int status = 0;
        int depth = 0;
        int outlinks = 0;
        long bytes = 0;
        long fetchMs = 0;
        long ttfbMs = 0;
        long warcOffset = -1;
        boolean noindex = false;
        try (JsonParser json = Json.parser(line)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.getCurrentName();
                JsonToken value = json.nextToken();
                switch (name) {
                    case "url" -> url = json.getValueAsString();
                    case "status" -> status = json.getIntValue();
                    case "outcome" -> outcome = Outcome.fromLabel(json.getValueAsString());
                    case "contentType" -> contentType = json.getValueAsString();
                    case "depth" -> depth = json.getIntValue();
                    case "bytes" -> bytes = json.getLongValue();
                    case "fetchMs" -> fetchMs = json.getLongValue();
                    case "ttfbMs" -> ttfbMs = json.getLongValue();
                    case "outlinks" -> outlinks = json.getIntValue();
                    case "title" -> title = json.getValueAsString();
                    case "redirectTo" -> redirectTo = json.getValueAsString();
                    case "referrer" -> referrer = json.getValueAsString();
                    case "error" -> error = json.getValueAsString();
                    case "noindex" -> noindex = json.getBooleanValue();
                    case "warcFile" -> warcFile = json.getValueAsString();
                    case "warcOffset" -> warcOffset = json.getLongValue();
                    case "digest" -> digest = json.getValueAsString();
                    case "simhash" -> simhash = json.getValueAsString();
                    case "etag" -> etag = json.getValueAsString();
                    case "lastModified" -> lastModified = json.getValueAsString();
                    default -> {
                        if (value.isStructStart()) {
                            json.skipChildren();
                        }
                    }
                }
            }
        }
        if (url == null || outcome == null) {
            throw new IOException("it has no " + (url == null ? "url" : "outcome"));
        }
        if (simhash != null) {
            try {
                SimHash.parseHex(simhash);
            } catch (IllegalArgumentException e) {
                throw new IOException("simhash: " + e.getMessage(), e);
            }
        }
        if (digest != null && !PayloadDigest.isDigest(digest)) {
            throw new IOException("digest: not " + PayloadDigest.FORM);
        }
        return new PageRecord(url, status, outcome, contentType, depth, bytes, fetchMs, outlinks, title, redirectTo,
                referrer, error, noindex, warcFile, warcFile == null ? -1 : warcOffset, digest, simhash, ttfbMs)
                .withValidators(etag, lastModified);
    }

    /**
     * Cuts a partial last line (left by a crash in the middle of a write) off {@code path}, so appending goes on
     * at a line start. A missing file is left missing.
     *
     * @return the bytes cut (0 when the file ends with a newline, is empty or missing)
     * @throws IOException naming the file when it cannot be read or cut
     */
    public static long cutPartialLine(Path path) throws IOException {
        if (!java.nio.file.Files.exists(path)) {
            return 0;
        }
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = file.size();
            long end = size;
            ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            while (end > 0) {
                long start = Math.max(0, end - chunk.capacity());
                chunk.clear().limit((int) (end - start));
                while (chunk.hasRemaining() && file.read(chunk, start + chunk.position()) >= 0) {
                    // positional reads until the chunk is full
                }
                for (int i = (int) (end - start) - 1; i >= 0; i--) {
                    if (chunk.get(i) == '\n') {
                        long keep = start + i + 1;
                        if (keep < size) {
                            file.truncate(keep);
                            file.force(false);
                        }
                        return size - keep;
                    }
                }
                end = start;
            }
            file.truncate(0);
            return size;
        } catch (IOException e) {
            throw new IOException("cannot cut the partial last line of " + path + ": " + FileErrors.reason(path, e),
                    e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            channel.force(false);
        } finally {
            closed = true;
            channel.close();
        }
    }

    private void writeFully(ByteBuffer bytes) throws IOException {
        try {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            throw new IOException("cannot write to " + path + ": " + FileErrors.reason(path, e), e);
        }
    }

    /** {@code r} as one line of pages.jsonl, UTF-8 JSON, its line break ({@code \n}) last. */
    public static byte[] serialize(PageRecord r) throws IOException {
        ByteArrayBuilder bytes = new ByteArrayBuilder(512);
        try (JsonGenerator json = Json.writer(bytes)) {
            json.writeStartObject();
            json.writeStringField("url", r.url());
            json.writeNumberField("status", r.status());
            json.writeStringField("outcome", r.outcome().label());
            writeNullable(json, "contentType", r.contentType());
            json.writeNumberField("depth", r.depth());
            json.writeNumberField("bytes", r.bytes());
            json.writeNumberField("fetchMs", r.fetchMs());
            if (r.ttfbMs() > 0) {
                json.writeNumberField("ttfbMs", r.ttfbMs());
            }
            json.writeNumberField("outlinks", r.outlinks());
            writeNullable(json, "title", r.title());
            writeNullable(json, "redirectTo", r.redirectTo());
            writeNullable(json, "referrer", r.referrer());
            writeNullable(json, "error", r.error());
            if (r.noindex()) {
                json.writeBooleanField("noindex", true);
            }
            if (r.warcFile() != null) {
                json.writeStringField("warcFile", r.warcFile());
                json.writeNumberField("warcOffset", r.warcOffset());
            }
            if (r.digest() != null) {
                json.writeStringField("digest", r.digest());
            }
            if (r.simhash() != null) {
                json.writeStringField("simhash", r.simhash());
            }
            if (r.etag() != null) {
                json.writeStringField("etag", r.etag());
            }
            if (r.lastModified() != null) {
                json.writeStringField("lastModified", r.lastModified());
            }
            json.writeEndObject();
        }
        bytes.write('\n');
        return bytes.toByteArray();
    }

    private static void writeNullable(JsonGenerator json, String name, String value) throws IOException {
        if (value == null) {
            json.writeNullField(name);
        } else {
            json.writeStringField(name, value);
        }
    }
}
