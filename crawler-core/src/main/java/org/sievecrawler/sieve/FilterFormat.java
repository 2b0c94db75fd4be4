package org.sievecrawler.sieve;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * The file format of a {@link FilterLayer}, big-endian:
 * <pre>
 *   int    magic 0x53434246 ("SCBF")
 *   int    format version: 2 (1: written before the blocked layout; classic, no layout field)
 *   int    layout: 1 classic ({@link BloomFilter}), 2 blocked ({@link BlockedBloomFilter}); absent in version 1
 *   int    hash scheme: 1, MurmurHash3 x64_128 of the URL's UTF-8 bytes ({@link UrlHash}), positions by the
 *          layout's rule (classic: {@link DoubleHashing}; blocked: the block by h1, bits by h2)
 *   long   n, double p
 *   long   classic: m, the bits; blocked: b, the 512-bit blocks
 *   int    k
 *   long[] the bit array: classic ⌈m/64⌉ words; blocked b·8 words, block by block
 *   int    CRC-32C of all of the above
 * </pre>
 * Stateless; package-private: the layers write and read themselves through it.
 */
final class FilterFormat {
    static final int MAGIC = 0x53434246; // "SCBF": Sieve Crawler Bloom Filter
    /** Version 1: classic only, no layout field. */
    static final int VERSION_CLASSIC_ONLY = 1;
    static final int VERSION = 2;
    static final int LAYOUT_CLASSIC = 1;
    static final int LAYOUT_BLOCKED = 2;
    static final int HASHING_MURMUR3_128 = 1;

    private FilterFormat() {
    }

    /** Receives the words of a bit array as they are read. */
    interface Words {
        void set(long index, long word);
    }

    /** Supplies the words of a bit array to write. */
    interface WordSource {
        long get(long index);
    }

    /**
     * Writes a layer: the header of {@code layout}, its sizing ({@code size} is m for classic, b for blocked),
     * {@code length} words from {@code words}, and the CRC-32C. The stream is not closed.
     */
    static void write(OutputStream out, SieveLayout layout, FilterPlan plan, long size, long length, WordSource words)
            throws IOException {
        CRC32C crc = new CRC32C();
        DataOutputStream data = new DataOutputStream(new CheckedOutputStream(out, crc));
        data.writeInt(MAGIC);
        data.writeInt(VERSION);
        data.writeInt(layout == SieveLayout.CLASSIC ? LAYOUT_CLASSIC : LAYOUT_BLOCKED);
        data.writeInt(HASHING_MURMUR3_128);
        data.writeLong(plan.expectedInsertions());
        data.writeDouble(plan.falsePositiveRate());
        data.writeLong(size);
        data.writeInt(plan.hashCount());
        byte[] chunk = new byte[64 * 1024];
        ByteBuffer buffer = ByteBuffer.wrap(chunk).order(ByteOrder.BIG_ENDIAN);
        for (long i = 0; i < length; i++) {
            buffer.putLong(words.get(i));
            if (!buffer.hasRemaining()) {
                data.write(chunk, 0, buffer.position());
                buffer.clear();
            }
        }
        data.write(chunk, 0, buffer.position());
        data.flush();
        // The checksum itself is written outside the checked stream.
        new DataOutputStream(out).writeInt((int) crc.getValue());
        out.flush();
    }

    /** Reads a layer of either layout (see {@link FilterLayer#read}). */
    static FilterLayer read(InputStream in, long maxBytes) throws IOException {
        CRC32C crc = new CRC32C();
        DataInputStream data = new DataInputStream(new CheckedInputStream(in, crc));
        try {
            int magic = data.readInt();
            if (magic != MAGIC) {
                throw new CorruptFilterException(String.format(Locale.ROOT,
                        "not a Bloom filter: the stream starts with 0x%08x, expected 0x%08x (\"SCBF\")",
                        magic, MAGIC));
            }
            int version = data.readInt();
            if (version != VERSION && version != VERSION_CLASSIC_ONLY) {
                throw new CorruptFilterException("Bloom filter format version " + version
                        + " is not supported; this build reads versions " + VERSION_CLASSIC_ONLY + " and " + VERSION);
            }
            int layout = version == VERSION_CLASSIC_ONLY ? LAYOUT_CLASSIC : data.readInt();
            if (layout != LAYOUT_CLASSIC && layout != LAYOUT_BLOCKED) {
                throw new CorruptFilterException("Bloom filter layout " + layout + " is not supported; this build"
                        + " reads layouts " + LAYOUT_CLASSIC + " (classic) and " + LAYOUT_BLOCKED + " (blocked)");
            }
            int hashing = data.readInt();
            if (hashing != HASHING_MURMUR3_128) {
                throw new CorruptFilterException("Bloom filter hash scheme " + hashing
                        + " is not supported; this build reads scheme " + HASHING_MURMUR3_128);
            }
            long n = data.readLong();
            double p = data.readDouble();
            long size = data.readLong();
            int k = data.readInt();
            FilterLayer layer = layout == LAYOUT_CLASSIC
                    ? BloomFilter.readBits(data, n, p, size, k, maxBytes)
                    : BlockedBloomFilter.readBits(data, n, p, size, k, maxBytes);
            int expectedCrc = (int) crc.getValue();
            int storedCrc = new DataInputStream(in).readInt();
            if (storedCrc != expectedCrc) {
                throw new CorruptFilterException(String.format(Locale.ROOT,
                        "Bloom filter checksum mismatch: stored 0x%08x, computed 0x%08x (the data is corrupt)",
                        storedCrc, expectedCrc));
            }
            return layer;
        } catch (EOFException e) {
            throw new CorruptFilterException("Bloom filter stream is truncated: it ended before the "
                    + "header, bit array and checksum were complete");
        }
    }

    /**
     * Refuses a header whose bit array of {@code bytes} would not fit the {@code maxBytes} of the stream, before
     * it is allocated.
     */
    static void requireRoom(String what, long bytes, long maxBytes) throws CorruptFilterException {
        if (bytes > maxBytes) {
            throw new CorruptFilterException("Bloom filter header says " + what + " (" + bytes
                    + " bytes), more than the " + maxBytes + " bytes the stream holds");
        }
    }

    /**
     * Reads {@code length} words into {@code words}; returns the number of set bits among them.
     *
     * @throws CorruptFilterException naming the word where the stream ended, if it ends first
     */
    static long readWords(DataInputStream data, long length, Words words) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        ByteBuffer buffer = ByteBuffer.wrap(chunk).order(ByteOrder.BIG_ENDIAN);
        long setBits = 0;
        for (long i = 0; i < length; ) {
            int wordsInChunk = (int) Math.min(chunk.length / Long.BYTES, length - i);
            int wanted = wordsInChunk * Long.BYTES;
            int read = data.readNBytes(chunk, 0, wanted);
            if (read < wanted) {
                throw new CorruptFilterException(String.format(Locale.ROOT,
                        "Bloom filter stream is truncated: the bit array has %d words, the stream ended at word %d",
                        length, i + read / Long.BYTES));
            }
            buffer.clear();
            for (int w = 0; w < wordsInChunk; w++, i++) {
                long word = buffer.getLong();
                words.set(i, word);
                setBits += Long.bitCount(word);
            }
        }
        return setBits;
    }
}
