package org.sievecrawler.warc;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The payloads a crawl has archived in full, by payload digest ({@code output.warc-dedup}): the first capture of
 * each, so that a later response with the same payload at another URL becomes a {@code revisit} record referring to
 * it. The check is exact (the whole SHA-1 is the key): a revisit is only ever written for a payload archived before.
 *
 * <p>Bounded: at most {@code capacity} payloads are remembered, the first ones seen; past that a new payload is not
 * remembered, and its later duplicates are archived in full (a miss costs a whole response record, never a wrong
 * revisit). An entry holds the 20-byte digest, the URL, the date and the record ID: about 230 bytes plus the URL's
 * length (measured: 312 bytes an entry with 78-character URLs, 31 MB for {@link #CAPACITY} entries).
 *
 * <p>Thread-safe: two responses with the same payload archived at once get one first capture between them.
 */
final class ArchivedPayloads {
    /** How many payloads a crawl remembers. */
    static final int CAPACITY = 100_000;

    /**
     * The first capture of a payload: its response record's target URI, date and ID.
     *
     * @param uri the WARC-Target-URI
     * @param date the WARC-Date
     * @param recordId the WARC-Record-ID's UUID
     */
    record FirstCapture(String uri, Instant date, UUID recordId) {
    }

    private final ConcurrentHashMap<String, FirstCapture> first = new ConcurrentHashMap<>();
    private final AtomicInteger size = new AtomicInteger();
    private final int capacity;

    ArchivedPayloads(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("the capacity of the archived-payload table must be >= 0, not "
                    + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * Looks up the payload of {@code payloadDigest} (SHA-1, 20 bytes) for {@code capture}.
     *
     * @return the earlier capture of the same payload at another URL, to refer to; or null when {@code capture} is to
     *     be archived in full: it is now the payload's first capture, or the table is full, or the earlier capture
     *     is of the same URL
     */
    FirstCapture claim(byte[] payloadDigest, FirstCapture capture) {
        String key = new String(payloadDigest, StandardCharsets.ISO_8859_1);
        FirstCapture earlier = first.get(key);
        if (earlier == null) {
            if (size.incrementAndGet() > capacity) {
                size.decrementAndGet();
                return null;
            }
            earlier = first.putIfAbsent(key, capture);
            if (earlier == null) {
                return null;
            }
            size.decrementAndGet();
        }
        return earlier.uri().equals(capture.uri()) ? null : earlier;
    }

    /** Forgets {@code capture} as its payload's first, when its record could not be written after all. */
    void release(byte[] payloadDigest, FirstCapture capture) {
        if (first.remove(new String(payloadDigest, StandardCharsets.ISO_8859_1), capture)) {
            size.decrementAndGet();
        }
    }

    /** How many payloads are remembered. */
    int size() {
        return size.get();
    }
}
