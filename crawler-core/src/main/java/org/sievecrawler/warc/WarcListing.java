package org.sievecrawler.warc;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTargetRecord;
import org.sievecrawler.input.FileErrors;

/**
 * Lists the records of a WARC file (compressed record by record with gzip or Zstandard, or not compressed), read with
 * jwarc, for {@code crawler warc ls}; a {@code .warc.zst} file (told by its first bytes, whatever its name) is read
 * frame by frame with {@link ZstdFrames} and each frame's records parsed by jwarc. Only whole records are listed: a
 * record is passed on once its block and trailer have been read to the end, so a file cut mid-record (a crash while
 * writing) lists every record before the cut and then tells where it stopped. Stateless; one call reads one file.
 */
public final class WarcListing {
    private WarcListing() {
    }

    /**
     * One record.
     *
     * @param offset where the record starts in the file (its gzip member or Zstandard frame, in a compressed file)
     * @param type the WARC-Type, e.g. response
     * @param uri the WARC-Target-URI, or null for records without one (warcinfo)
     * @param status the HTTP status of a response or revisit record, or 0
     * @param length the record block's Content-Length
     */
    public record Entry(long offset, String type, String uri, int status, long length) {
    }

    /**
     * How a listing ended.
     *
     * @param records the whole records listed
     * @param stoppedAt where reading stopped before the end of the file: the offset of the first record that is not
     *     whole or not readable; -1 when the file was read to its end
     * @param problem what was wrong there, or null
     */
    public record End(long records, long stoppedAt, String problem) {
        /** Whether the file was read to its end. */
        public boolean complete() {
            return stoppedAt < 0;
        }
    }

    /**
     * Reads {@code file} and hands each whole record to {@code each}, in file order.
     *
     * @throws IOException when the file cannot be opened (e.g. {@link java.nio.file.NoSuchFileException})
     */
    public static End list(Path file, Consumer<Entry> each) throws IOException {
        if (ZstdFrames.startsWithFrame(file)) {
            return listZstd(file, each);
        }
        try (FileChannel channel = FileChannel.open(file)) {
            long records = 0;
            Entry pending = null; // the record read last, listed once the next read shows it was whole
            WarcReader reader;
            try {
                reader = new WarcReader(channel);
            } catch (IOException | RuntimeException e) {
                return new End(0, 0, describe(e));
            }
            while (true) {
                Optional<WarcRecord> next;
                try {
                    next = reader.next();
                } catch (IOException | RuntimeException e) {
                    // the reader moves its position past a record once the record's block and trailer are read
                    if (pending != null && reader.position() != pending.offset()) {
                        each.accept(pending);
                        records++;
                        pending = null;
                    }
                    return new End(records, pending != null ? pending.offset() : reader.position(), describe(e));
                }
                if (pending != null) {
                    each.accept(pending);
                    records++;
                }
                if (next.isEmpty()) {
                    return new End(records, -1, null);
                }
                try {
                    pending = entry(reader.position(), next.get());
                } catch (IOException | RuntimeException e) {
                    return new End(records, reader.position(), describe(e));
                }
            }
        }
    }

    private static End listZstd(Path file, Consumer<Entry> each) throws IOException {
        try (ZstdFrames frames = new ZstdFrames(file)) {
            long records = 0;
            while (true) {
                long offset = frames.position();
                ZstdFrames.Frame frame;
                try {
                    frame = frames.next();
                } catch (IOException e) {
                    return new End(records, offset, describe(e));
                }
                if (frame == null) {
                    return new End(records, -1, null);
                }
                List<Entry> inFrame = new ArrayList<>();
                try (WarcReader reader = new WarcReader(Channels.newChannel(frame.content()))) {
                    for (Optional<WarcRecord> next = reader.next(); next.isPresent(); next = reader.next()) {
                        inFrame.add(entry(frame.offset(), next.get()));
                    }
                } catch (IOException | RuntimeException e) {
                    return new End(records, offset, describe(e));
                }
                inFrame.forEach(each);
                records += inFrame.size();
            }
        }
    }

    private static Entry entry(long offset, WarcRecord record) throws IOException {
        String uri = record instanceof WarcTargetRecord target ? target.target() : null;
        int status = 0;
        if (record instanceof WarcResponse response) {
            try {
                status = response.http().status();
            } catch (IOException e) {
                status = 0; // not an HTTP response (or its head is cut): listed without a status
            }
        } else if (record instanceof WarcRevisit revisit) {
            try {
                status = revisit.http().status();
            } catch (IOException e) {
                status = 0; // a revisit without the HTTP head: listed without a status
            }
        }
        return new Entry(offset, record.type(), uri, status, record.body().size());
    }

    /** Why reading stopped, in words: the reader's own, without a Java class name. */
    private static String describe(Exception e) {
        if (e instanceof IOException io) {
            return FileErrors.reason(io);
        }
        return e.getMessage() == null || e.getMessage().isBlank() ? "the record cannot be read" : e.getMessage();
    }
}
