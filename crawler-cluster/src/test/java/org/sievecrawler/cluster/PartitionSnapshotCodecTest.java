package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sievecrawler.sieve.BloomFilter;
import org.sievecrawler.sieve.FilterLayer;
import org.sievecrawler.sieve.CorruptFilterException;
import org.sievecrawler.sieve.PendingUrl;

class PartitionSnapshotCodecTest {
    private static final String NAME = "snapshot p3-1700000000000-9f2c41d0";

    @Test
    void roundTripsSeveralFiltersAndTenThousandPendingUrls() throws Exception {
        PartitionSnapshot snapshot = snapshot(3, 4_711, 10_000, 1_000, 20_000, 5_000);

        byte[] bytes = PartitionSnapshotCodec.encode(snapshot);
        PartitionSnapshot read = PartitionSnapshotCodec.decode(NAME, bytes);

        assertThat(read.partition()).isEqualTo(3);
        assertThat(read.frontierOffset()).isEqualTo(4_711);
        assertThat(read.pending()).isEqualTo(snapshot.pending());
        assertThat(read.filters()).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(filterBytes(read.filters().get(i))).isEqualTo(filterBytes(snapshot.filters().get(i)));
            assertThat(read.filters().get(i).setBitCount()).isEqualTo(snapshot.filters().get(i).setBitCount());
        }
        assertThat(read.filters().get(1).mightContain("https://h7.example/page/7")).isTrue();
        assertThat(PartitionSnapshotCodec.encode(read)).isEqualTo(bytes);
    }

    @Test
    void roundTripsAnEmptyPendingList() throws Exception {
        PartitionSnapshot snapshot = snapshot(0, 0, 0, 100);

        PartitionSnapshot read = PartitionSnapshotCodec.decode(NAME, PartitionSnapshotCodec.encode(snapshot));

        assertThat(read.pending()).isEmpty();
        assertThat(read.filters()).hasSize(1);
        assertThat(read.frontierOffset()).isZero();
    }

    @Test
    void roundTripsASnapshotWithoutFiltersOrUrls() throws Exception {
        PartitionSnapshot empty = new PartitionSnapshot(7, 12, List.of(), List.of());

        byte[] bytes = PartitionSnapshotCodec.encode(empty);

        assertThat(bytes).hasSize(PartitionSnapshotCodec.FIXED_BYTES);
        assertThat(PartitionSnapshotCodec.decode(NAME, bytes)).isEqualTo(empty);
    }

    @Test
    void aFlippedBitAnywhereIsAChecksumMismatchNamingTheSnapshot() {
        byte[] bytes = PartitionSnapshotCodec.encode(snapshot(3, 10, 50, 1_000));
        for (int at : new int[] {9, 30, bytes.length / 2, bytes.length - 30, bytes.length - 1}) {
            byte[] damaged = bytes.clone();
            damaged[at] ^= 0x10;

            assertThatThrownBy(() -> PartitionSnapshotCodec.decode(NAME, damaged))
                    .as("a bit flipped at byte %d of %d", at, bytes.length)
                    .isInstanceOf(CorruptFilterException.class)
                    .hasMessageStartingWith(NAME + ": checksum mismatch over its " + bytes.length
                            + " bytes: stored 0x");
        }
    }

    @Test
    void bytesCutShortAreDamage() {
        byte[] bytes = PartitionSnapshotCodec.encode(snapshot(3, 10, 50, 1_000));

        assertThatThrownBy(() -> PartitionSnapshotCodec.decode(NAME, Arrays.copyOf(bytes, bytes.length - 100)))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessageStartingWith(NAME + ": checksum mismatch over its " + (bytes.length - 100) + " bytes");
        assertThatThrownBy(() -> PartitionSnapshotCodec.decode(NAME, Arrays.copyOf(bytes, 10)))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessage(NAME + ": cut short: 10 bytes, a snapshot has at least 32");
    }

    @Test
    void bytesOfSomethingElseAreNotASnapshot() {
        byte[] bytes = new byte[64];
        bytes[0] = 'S';
        bytes[1] = 'C';
        bytes[2] = 'B';
        bytes[3] = 'F';

        assertThatThrownBy(() -> PartitionSnapshotCodec.decode(NAME, bytes))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessage(NAME + ": not a partition snapshot: it starts with 0x53434246, expected 0x53435053"
                        + " (\"SCPS\")");
    }

    @Test
    void anotherVersionIsRefusedNamingIt() {
        byte[] bytes = PartitionSnapshotCodec.encode(snapshot(3, 10, 5, 100));
        ByteBuffer.wrap(bytes).putInt(4, 2);

        assertThatThrownBy(() -> PartitionSnapshotCodec.decode(NAME, bytes))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessage(NAME + ": format version 2 is not supported; this build reads version 1");
    }

    @Test
    void aCountBeyondTheBytesWithAValidChecksumIsNamed() {
        byte[] bytes = PartitionSnapshotCodec.encode(new PartitionSnapshot(1, 2, List.of(),
                List.of(PendingUrl.seed("https://a.example/"))));
        ByteBuffer.wrap(bytes).putInt(24, 1_000_000); // the count of pending URLs
        resealed(bytes);

        assertThatThrownBy(() -> PartitionSnapshotCodec.decode(NAME, bytes))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessageStartingWith(NAME + ": claims 1000000 pending URLs in the ");
    }

    @Test
    void aDamagedFilterWithAValidOuterChecksumIsNamedWithItsPlace() {
        PartitionSnapshot snapshot = snapshot(1, 2, 0, 100, 100);
        byte[] bytes = PartitionSnapshotCodec.encode(snapshot);
        int secondFilter = 24 + filterBytes(snapshot.filters().get(0)).length;
        bytes[secondFilter + 60] ^= 1; // a bit of the second filter's array
        resealed(bytes);

        assertThatThrownBy(() -> PartitionSnapshotCodec.decode(NAME, bytes))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessageStartingWith(NAME + ": filter 2 of 2: Bloom filter checksum mismatch");
    }

    @Test
    void toStringGivesSizesNotContents() {
        assertThat(snapshot(2, 9, 3, 100).toString())
                .isEqualTo("PartitionSnapshot[partition=2, frontierOffset=9, filters=1 (120 bytes), pending=3]");
    }

    /**
     * A snapshot of {@code partition} at {@code offset} with {@code pending} URLs and one filter per size given,
     * each holding that many URLs.
     */
    static PartitionSnapshot snapshot(int partition, long offset, int pending, int... filterSizes) {
        List<FilterLayer> filters = new ArrayList<>();
        for (int size : filterSizes) {
            BloomFilter filter = BloomFilter.create(size, 0.01);
            for (int i = 0; i < size; i++) {
                filter.put("https://h" + (i % 97) + ".example/page/" + i);
            }
            filters.add(filter);
        }
        List<PendingUrl> urls = new ArrayList<>();
        for (int i = 0; i < pending; i++) {
            PendingUrl seed = PendingUrl.seed("https://h" + (i % 13) + ".example/pending/" + i + "?q=ü");
            urls.add(i % 3 == 0 ? seed : i % 3 == 1 ? PendingUrl.link("https://x.example/" + i, seed)
                    : new PendingUrl("https://r.example/" + i, 2, null, 1, 3, PendingUrl.Purpose.ROBOTS));
        }
        return new PartitionSnapshot(partition, offset, filters, urls);
    }

    static byte[] filterBytes(FilterLayer filter) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            filter.writeTo(out);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return out.toByteArray();
    }

    /** Writes the outer checksum of damaged bytes again, so that the damage is found by the checks within. */
    private static void resealed(byte[] bytes) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
    }
}
