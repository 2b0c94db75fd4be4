package org.sievecrawler.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_LAYOUT;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.frontier.FrontierState;
import org.sievecrawler.politeness.HostCounts;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.CrawlCounters;
import org.sievecrawler.shell.Program;
import org.sievecrawler.seed.SeedPosition;
import org.sievecrawler.sieve.BlockedBloomFilter;
import org.sievecrawler.sieve.BloomFilter;
import org.sievecrawler.sieve.FilterLayer;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.SieveLayout;
import org.sievecrawler.sieve.SpillPosition;

class CheckpointStoreTest {
    @TempDir
    Path dir;

    private Checkpoint sample() {
        BloomFilter filter = BloomFilter.create(1_000, 0.01);
        filter.put("https://example.org/");
        filter.put("https://example.org/a");
        CrawlProfile profile = CrawlProfile.defaults().with(SEEDS, List.of("https://example.org/"));
        return new Checkpoint(Checkpoint.State.RUNNING, null, profile, new FrontierState(List.of(filter),
                List.of(new PendingUrl("https://example.org/a", 1, "https://example.org/", 0, 0,
                        PendingUrl.Purpose.PAGE)),
                new SpillPosition(2, 40, 3, 120, 7), 4,
                        HostCounts.ofHostKeys(Map.of("https://example.org", 2L, "http://a.test:8080", 9L))),
                new CrawlCounters(5, 4, 1234, Map.of("fetched", 4L, "http-error", 1L), Map.of(200, 4L, 404, 1L),
                        Map.of("out-of-scope-host", 3L), 6, 2), 987);
    }

    /** {@link #sample()} with one filter of {@code layout} and a profile of {@code profileLayout}. */
    private Checkpoint sample(SieveLayout layout, SieveLayout profileLayout) {
        Checkpoint sample = sample();
        FilterLayer filter = layout == SieveLayout.CLASSIC ? BloomFilter.create(1_000, 0.01)
                : BlockedBloomFilter.create(1_000, 0.01);
        filter.put("https://example.org/");
        filter.put("https://example.org/a");
        FrontierState frontier = sample.frontier();
        return new Checkpoint(sample.state(), sample.endReason(), sample.profile().with(SIEVE_LAYOUT, profileLayout),
                new FrontierState(List.of(filter), frontier.pending(), frontier.spill(), frontier.journalSegment(),
                        frontier.admittedPerHost()), sample.counters(), sample.pagesBytes());
    }

    /** Replaces a part of the current checkpoint with {@code bytes}, its length and CRC in the manifest to match. */
    private void replacePart(String name, byte[] bytes) throws Exception {
        Files.write(folderFile(name), bytes);
        Path manifest = dir.resolve("checkpoint").resolve(CheckpointStore.MANIFEST);
        Map<String, String> entries = new java.util.TreeMap<>(Manifest.read(manifest, dir.resolve("checkpoint")).entries);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes);
        entries.put("file." + name + ".bytes", Long.toString(bytes.length));
        entries.put("file." + name + ".crc32c", Long.toHexString(crc.getValue()));
        Files.write(manifest, Manifest.text(entries, "a checkpoint changed by a test"));
    }

    private Path folderFile(String name) throws IOException {
        try (var folders = Files.list(dir.resolve("checkpoint"))) {
            Path folder = folders.filter(Files::isDirectory).findFirst().orElseThrow();
            return folder.resolve(name);
        }
    }

    @Test
    void readsBackWhatItWrote() throws Exception {
        CheckpointStore store = new CheckpointStore(dir);
        Checkpoint written = sample();
        store.write(written);

        Checkpoint read = store.read();

        assertThat(read.state()).isEqualTo(Checkpoint.State.RUNNING);
        assertThat(read.profile()).isEqualTo(written.profile().with(OUTPUT_DIR, dir));
        assertThat(read.frontier().pending()).isEqualTo(written.frontier().pending());
        assertThat(read.frontier().spill()).isEqualTo(written.frontier().spill());
        assertThat(read.frontier().journalSegment()).isEqualTo(4);
        assertThat(read.frontier().admittedPerHost()).isEqualTo(written.frontier().admittedPerHost());
        assertThat(read.counters()).isEqualTo(written.counters());
        assertThat(read.pagesBytes()).isEqualTo(987);
        assertThat(read.frontier().filters()).hasSize(1);
        assertThat(read.frontier().filters().get(0).mightContain("https://example.org/a")).isTrue();
        assertThat(read.frontier().filters().get(0).setBitCount())
                .isEqualTo(written.frontier().filters().get(0).setBitCount());
    }

    @Test
    void readsBackTheFiltersOfTheBlockedLayout() throws Exception {
        CheckpointStore store = new CheckpointStore(dir);
        Checkpoint written = sample(SieveLayout.BLOCKED, SieveLayout.BLOCKED);
        store.write(written);

        Checkpoint read = store.read();

        assertThat(read.profile().sieve().layout()).isEqualTo(SieveLayout.BLOCKED);
        FilterLayer filter = read.frontier().filters().get(0);
        assertThat(filter).isInstanceOf(BlockedBloomFilter.class);
        assertThat(filter.plan()).isEqualTo(written.frontier().filters().get(0).plan());
        assertThat(filter.mightContain("https://example.org/a")).isTrue();
        assertThat(filter.setBitCount()).isEqualTo(written.frontier().filters().get(0).setBitCount());
    }

    @Test
    void refusesFiltersOfAnotherLayoutThanItsProfileSays() throws Exception {
        new CheckpointStore(dir).write(sample(SieveLayout.BLOCKED, SieveLayout.CLASSIC));
        Path filters = folderFile(CheckpointStore.FILTERS);

        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessage(filters + " holds filters of the blocked layout, but the checkpoint's profile.yaml says"
                        + " sieve.layout: classic; the checkpoint is inconsistent and cannot be resumed");
    }

    @Test
    void refusesATruncatedOrDamagedBlockedFilterNamingTheFileAndTheProblem() throws Exception {
        new CheckpointStore(dir).write(sample(SieveLayout.BLOCKED, SieveLayout.BLOCKED));
        Path filters = folderFile(CheckpointStore.FILTERS);
        byte[] bytes = Files.readAllBytes(filters);

        // Cut short: the header's blocks no longer fit the file, which is found before they are allocated.
        replacePart(CheckpointStore.FILTERS, java.util.Arrays.copyOf(bytes, bytes.length - 100));
        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessage(filters + " is corrupt: Bloom filter header says 20 blocks of 512 bits (1280 bytes), more"
                        + " than the " + (bytes.length - 100) + " bytes the stream holds");

        byte[] damaged = bytes.clone();
        damaged[bytes.length / 2] ^= 0x01;
        replacePart(CheckpointStore.FILTERS, damaged);
        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessageStartingWith(filters + " is corrupt: ").hasMessageContaining("checksum mismatch");
    }

    @Test
    void readsTheClassicFiltersOfACheckpointWrittenBeforeTheLayoutField() throws Exception {
        new CheckpointStore(dir).write(sample());
        byte[] bytes = Files.readAllBytes(folderFile(CheckpointStore.FILTERS));
        // filters.bin: the layer count, then the filter; format version 1 lacks the layout field (bytes 8-11 of
        // the filter) and has its own checksum.
        java.io.ByteArrayOutputStream old = new java.io.ByteArrayOutputStream();
        old.write(bytes, 4, 8);
        old.write(bytes, 16, bytes.length - 16 - 4);
        byte[] body = old.toByteArray();
        java.nio.ByteBuffer.wrap(body).putInt(4, 1);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(body);
        java.nio.ByteBuffer file = java.nio.ByteBuffer.allocate(4 + body.length + 4);
        file.putInt(1).put(body).putInt((int) crc.getValue());
        replacePart(CheckpointStore.FILTERS, file.array());

        Checkpoint read = new CheckpointStore(dir).read();

        assertThat(read.profile().sieve().layout()).isEqualTo(SieveLayout.CLASSIC);
        assertThat(read.frontier().filters().get(0).layout()).isEqualTo(SieveLayout.CLASSIC);
        assertThat(read.frontier().filters().get(0).mightContain("https://example.org/a")).isTrue();
    }

    @Test
    void theManifestOpensWithTheCommandThatResumesTheCrawlAsTheProgramWasStarted() throws Exception {
        Path crawl = dir.resolve("my crawl");
        new CheckpointStore(crawl, Program.of("crawler-cli/target/crawler")).write(sample());

        assertThat(Files.readAllLines(crawl.resolve("checkpoint").resolve(CheckpointStore.MANIFEST)).get(0))
                .isEqualTo("# Sieve Crawler checkpoint: resume with: crawler-cli/target/crawler crawl --resume '"
                        + crawl + "'");
        assertThat(new CheckpointStore(crawl).read().state()).isEqualTo(Checkpoint.State.RUNNING);
    }

    @Test
    void keepsOnlyTheCurrentCheckpointFolder() throws Exception {
        CheckpointStore store = new CheckpointStore(dir);
        store.write(sample());
        store.write(sample());
        store.write(sample());

        try (var files = Files.list(dir.resolve("checkpoint"))) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("000003",
                    CheckpointStore.MANIFEST);
        }
        assertThat(store.read().frontier().pending()).hasSize(1);
    }

    @Test
    void refusesAFolderWithoutACheckpoint() {
        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessage(dir + " holds no crawl checkpoint (no " + dir.resolve("checkpoint/manifest.properties")
                        + "); there is nothing to resume");
    }

    @Test
    void refusesAMissingPart() throws Exception {
        new CheckpointStore(dir).write(sample());
        Path filters = folderFile("filters.bin");
        Files.delete(filters);

        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessageStartingWith(filters + " is missing; the checkpoint ");
    }

    @Test
    void readsACheckpointWrittenBeforeAdmissionsWereCountedAsNoneCounted() throws Exception {
        new CheckpointStore(dir).write(sample());
        Path manifest = dir.resolve("checkpoint").resolve(CheckpointStore.MANIFEST);
        Files.delete(folderFile(CheckpointStore.HOST_BUDGET));
        Map<String, String> entries = new java.util.TreeMap<>(Manifest.read(manifest, dir.resolve("checkpoint")).entries);
        entries.keySet().removeIf(key -> key.startsWith("file." + CheckpointStore.HOST_BUDGET + "."));
        Files.write(manifest, Manifest.text(entries, "a checkpoint of an earlier build"));

        assertThat(new CheckpointStore(dir).read().frontier().admittedPerHost().size()).isZero();
    }

    @Test
    void readsTheHostBudgetOfTheFirstFormatByHostNameHashingItsHostsNow() throws Exception {
        new CheckpointStore(dir).write(sample());
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) { // as builds before format 2 wrote
            out.writeInt(2);
            out.writeUTF("https://example.org");
            out.writeLong(2);
            out.writeUTF("http://a.test:8080");
            out.writeLong(9);
        }
        replacePart(CheckpointStore.HOST_BUDGET, bytes.toByteArray());
        Path manifest = dir.resolve("checkpoint").resolve(CheckpointStore.MANIFEST);
        Map<String, String> entries = new java.util.TreeMap<>(Manifest.read(manifest, dir.resolve("checkpoint")).entries);
        assertThat(entries.remove("host-budget.format")).isEqualTo("2");
        Files.write(manifest, Manifest.text(entries, "a checkpoint of an earlier build"));

        HostCounts read = new CheckpointStore(dir).read().frontier().admittedPerHost();

        assertThat(read.size()).isEqualTo(2);
        assertThat(read.count("https://example.org")).isEqualTo(2);
        assertThat(read.count("http://a.test:8080")).isEqualTo(9);
        assertThat(read.count("http://a.test")).isZero();
    }

    @Test
    void writesTheHostBudgetAsTwelveBytesAHostSortedByHash() throws Exception {
        new CheckpointStore(dir).write(sample());

        byte[] file = Files.readAllBytes(folderFile(CheckpointStore.HOST_BUDGET));

        assertThat(file).hasSize(20 + 2 * 12).as("no host names").asString(StandardCharsets.ISO_8859_1)
                .doesNotContain("example");
    }

    @Test
    void refusesAHostBudgetThatClaimsMoreHostsThanItHolds() throws Exception {
        new CheckpointStore(dir).write(sample());
        Path budget = folderFile(CheckpointStore.HOST_BUDGET);
        byte[] bytes = Files.readAllBytes(budget);
        java.nio.ByteBuffer.wrap(bytes).putInt(16, 1_000_000); // the host count, after mark, version and key
        replacePart(CheckpointStore.HOST_BUDGET, bytes);

        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessageContaining(budget + " is corrupt: ")
                .hasMessageContaining("it says it holds 1000000 hosts; 44 bytes hold at most 2");
    }

    @Test
    void refusesAHostBudgetWhoseHashesAreOutOfOrder() throws Exception {
        new CheckpointStore(dir).write(sample());
        Path budget = folderFile(CheckpointStore.HOST_BUDGET);
        byte[] bytes = Files.readAllBytes(budget);
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
        long first = buffer.getLong(20);
        buffer.putLong(20, buffer.getLong(32)).putLong(32, first);
        replacePart(CheckpointStore.HOST_BUDGET, bytes);

        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessageContaining(budget + " is corrupt: ").hasMessageContaining("is 0 or not above the one before");
    }

    @Test
    void refusesATruncatedPart() throws Exception {
        new CheckpointStore(dir).write(sample());
        Path pending = folderFile("pending.bin");
        byte[] bytes = Files.readAllBytes(pending);
        Files.write(pending, java.util.Arrays.copyOf(bytes, bytes.length - 5));

        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessage(pending + " is truncated: " + (bytes.length - 5) + " bytes, the manifest says "
                        + bytes.length);
    }

    @Test
    void refusesACorruptPart() throws Exception {
        new CheckpointStore(dir).write(sample());
        Path filters = folderFile("filters.bin");
        byte[] bytes = Files.readAllBytes(filters);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(filters, bytes);

        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessageStartingWith(filters + " is corrupt: its CRC-32C is ");
    }

    @Test
    void refusesACorruptManifest() throws Exception {
        CheckpointStore store = new CheckpointStore(dir);
        store.write(sample());
        Path manifest = store.manifest();
        Files.writeString(manifest, Files.readString(manifest).replace("pending.count=1", "pending.count=2"));

        assertThatThrownBy(store::read).isInstanceOf(CheckpointException.class)
                .hasMessageStartingWith(manifest + " is corrupt: its checksum is ");
    }

    @Test
    void refusesACheckpointOfAnotherFormatVersion() throws Exception {
        CheckpointStore store = new CheckpointStore(dir);
        store.write(sample());
        Path manifest = store.manifest();
        Files.writeString(manifest, Files.readString(manifest).replace("format-version=2", "format-version=9"));

        assertThatThrownBy(store::read).isInstanceOf(CheckpointException.class)
                .hasMessage(manifest + " was written by an incompatible version (checkpoint format 9; this build"
                        + " reads formats 1 and 2); start a new crawl");
    }

    @Test
    void keepsHowFarTheSeedFileWasOfferedAndNotTheFile() throws Exception {
        CheckpointStore store = new CheckpointStore(dir);
        Checkpoint sample = sample();
        SeedPosition seeds = new SeedPosition(30_000_000, 0xCAFEF00DL, 1_234_567, 45_678);
        store.write(new Checkpoint(sample.state(), null, sample.profile(), sample.frontier(), sample.counters(),
                sample.pagesBytes(), seeds));

        assertThat(store.read().seeds()).isEqualTo(seeds);
        assertThat(store.seedFile()).isEqualTo(dir.resolve("checkpoint/seeds.txt"));
        assertThat(Files.readString(store.manifest())).contains("seeds.offset=1234567", "seeds.lines=45678");
    }

    @Test
    void readsACheckpointOfFormatOneWhoseSeedsAreInItsProfile() throws Exception {
        CheckpointStore store = new CheckpointStore(dir);
        store.write(sample());
        Manifest written = Manifest.read(store.manifest(), dir.resolve("checkpoint"));
        Map<String, String> entries = new java.util.TreeMap<>(written.entries);
        entries.put("format-version", "1");
        Files.write(store.manifest(), Manifest.text(entries, "an older build's checkpoint"));

        Checkpoint read = store.read();

        assertThat(read.seeds()).isEqualTo(SeedPosition.NONE);
        assertThat(read.profile().seeds()).containsExactly("https://example.org/");
    }

    @Test
    void refusesAFileThatIsNotAManifest() throws Exception {
        Path manifest = dir.resolve("checkpoint/manifest.properties");
        Files.createDirectories(manifest.getParent());
        Files.write(manifest, "\u0000garbage\n".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessage(manifest + " is not a Sieve Crawler checkpoint manifest (format missing, expected"
                        + " \"sievecrawler-checkpoint\")");
    }

    @Test
    void aSecondLockOnTheSameFolderIsRefusedNamingIt() throws Exception {
        try (CrawlLock first = CrawlLock.acquire(dir)) {
            assertThatThrownBy(() -> CrawlLock.acquire(dir)).isInstanceOf(CheckpointException.class)
                    .hasMessageStartingWith("another crawl is running in " + dir);
        }
        CrawlLock.acquire(dir).close(); // released with the first
    }

    @Test
    void readsBackTheProfileOfACrawlWithMoreSeedsThanTheYamlParsersDefaultLimitHolds() throws Exception {
        List<String> seeds = java.util.stream.IntStream.range(0, 70_000)
                .mapToObj(i -> "http://127.0.0.1:9/some/longer/path/for/the/seed/number/" + i).toList();
        Checkpoint sample = sample();
        CheckpointStore store = new CheckpointStore(dir);
        store.write(new Checkpoint(sample.state(), null, sample.profile().with(SEEDS, seeds), sample.frontier(),
                sample.counters(), sample.pagesBytes()));

        assertThat(Files.size(folderFile("profile.yaml"))).isGreaterThan(3L << 20); // SnakeYAML's default limit
        assertThat(store.readProfile().seeds()).isEqualTo(seeds);
    }

    @Test
    void refusesAManifestThatIsTheZeroDeviceByItsType() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")), "no /dev/zero here");
        Files.createDirectories(dir.resolve("checkpoint"));
        Files.createSymbolicLink(dir.resolve("checkpoint").resolve(CheckpointStore.MANIFEST), Path.of("/dev/zero"));

        assertThatThrownBy(() -> new CheckpointStore(dir).read()).isInstanceOf(CheckpointException.class)
                .hasMessage(dir.resolve("checkpoint").resolve(CheckpointStore.MANIFEST) + " cannot be read: not a"
                        + " regular file (a character device, such as /dev/zero); a checkpoint manifest must be one");
    }
}
