package org.sievecrawler.warc;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import org.netpreserve.jwarc.ParsingException;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * The capture of a URL's payload an earlier crawl archived, which a recrawl's {@code revisit} record refers to
 * ({@code WARC-Refers-To-Target-URI}, {@code -Refers-To-Date}, {@code -Refers-To}): read from the earlier crawl's
 * WARC file at the offset its pages.jsonl record gives. The record there is a {@code response}, the capture itself;
 * or a {@code revisit} (the earlier crawl was a recrawl too), whose own references name the capture, so a chain of
 * recrawls always refers to the crawl that archived the payload.
 *
 * @param uri the capture's WARC-Target-URI
 * @param date the capture's WARC-Date, or null when a revisit read did not name it
 * @param recordId the capture's WARC-Record-ID, or null when a revisit read did not name it
 * @param payloadDigest the capture's WARC-Payload-Digest as written ({@code sha1:} and base32), or null
 */
public record EarlierCapture(String uri, Instant date, URI recordId, String payloadDigest) {

    /**
     * The capture the record at {@code offset} in {@code file} is or refers to; empty when the record there is
     * neither a response nor a revisit naming its capture's URI (the file was replaced, the offset is not a
     * record's). The file is an earlier crawl's, hostile like any input: what cannot be read is no capture.
     *
     * @throws IOException naming the file when it cannot be opened or read
     */
    public static Optional<EarlierCapture> read(Path file, long offset) throws IOException {
        if (offset < 0) {
            return Optional.empty();
        }
        try {
            return readAt(file, offset);
        } catch (ParsingException e) {
            return Optional.empty(); // no WARC record starts there
        }
    }

    private static Optional<EarlierCapture> readAt(Path file, long offset) throws IOException {
        if (ZstdFrames.startsWithFrame(file)) {
            try (ZstdFrames frames = new ZstdFrames(file)) {
                frames.seek(offset);
                ZstdFrames.Frame frame = frames.next();
                if (frame == null) {
                    return Optional.empty();
                }
                try (WarcReader reader = new WarcReader(Channels.newChannel(frame.content()))) {
                    return reader.next().flatMap(EarlierCapture::of);
                }
            }
        }
        try (FileChannel channel = FileChannel.open(file)) {
            if (offset >= channel.size()) {
                return Optional.empty();
            }
            channel.position(offset);
            try (WarcReader reader = new WarcReader(channel)) {
                return reader.next().flatMap(EarlierCapture::of);
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            return Optional.empty(); // jwarc found no record there
        }
    }

    private static Optional<EarlierCapture> of(WarcRecord record) {
        try {
            if (record instanceof WarcResponse response) {
                return Optional.of(new EarlierCapture(response.target(), response.date(), response.id(),
                        response.payloadDigest().map(WarcDigest::prefixedBase32).orElse(null)));
            }
            if (record instanceof WarcRevisit revisit) {
                Optional<URI> uri = revisit.refersToTargetURI();
                if (uri.isEmpty()) {
                    return Optional.empty();
                }
                return Optional.of(new EarlierCapture(uri.get().toString(), revisit.refersToDate().orElse(null),
                        revisit.refersTo().orElse(null),
                        revisit.payloadDigest().map(WarcDigest::prefixedBase32).orElse(null)));
            }
            return Optional.empty();
        } catch (DateTimeParseException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
