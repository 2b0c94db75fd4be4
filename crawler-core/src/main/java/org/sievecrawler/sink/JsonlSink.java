package org.sievecrawler.sink;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes {@link PageRecord}s as JSON lines (pages.jsonl), appending. Each line is serialized whole and the
 * file only ever receives whole lines: the buffer is written out before a line that would not fit, so a
 * crash loses at most the buffered lines, never half of one.
 *
 * <p>Thread-safe: {@link #accept} serializes outside the lock and appends under it.
 */
public final class JsonlSink implements PageSink {
    private static final JsonFactory JSON = new JsonFactory();
    private static final int BUFFER = 256 * 1024;

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
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
            throw new IOException("cannot open " + path + " for writing: " + describe(e), e);
        }
    }

    @Override
    public void accept(PageRecord record) throws IOException {
        byte[] line = serialize(record);
        synchronized (this) {
            if (closed) {
                throw new IOException(path + " is closed");
            }
            if (line.length > buffer.remaining()) {
                drain();
            }
            if (line.length > buffer.capacity()) {
                writeFully(ByteBuffer.wrap(line));
            } else {
                buffer.put(line);
            }
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        if (!closed) {
            drain();
        }
    }

    /** Writes out buffered lines and returns the file's length: whole lines only. */
    public synchronized long flushedLength() throws IOException {
        if (!closed) {
            drain();
        }
        return channel.size();
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
            throw new IOException("cannot cut the partial last line of " + path + ": " + describe(e), e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            drain();
            channel.force(false);
        } finally {
            closed = true;
            channel.close();
        }
    }

    private void drain() throws IOException {
        buffer.flip();
        writeFully(buffer);
        buffer.clear();
    }

    private void writeFully(ByteBuffer bytes) throws IOException {
        try {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            throw new IOException("cannot write to " + path + ": " + describe(e), e);
        }
    }

    static byte[] serialize(PageRecord r) throws IOException {
        ByteArrayBuilder bytes = new ByteArrayBuilder(512);
        try (JsonGenerator json = JSON.createGenerator(bytes)) {
            json.writeStartObject();
            json.writeStringField("url", r.url());
            json.writeNumberField("status", r.status());
            json.writeStringField("outcome", r.outcome().label());
            writeNullable(json, "contentType", r.contentType());
            json.writeNumberField("depth", r.depth());
            json.writeNumberField("bytes", r.bytes());
            json.writeNumberField("fetchMs", r.fetchMs());
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

    private static String describe(IOException e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
    }
}
