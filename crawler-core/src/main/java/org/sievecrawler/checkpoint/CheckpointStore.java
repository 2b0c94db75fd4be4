package org.sievecrawler.checkpoint;

import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import org.sievecrawler.frontier.FrontierState;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.politeness.HostCounts;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileException;
import org.sievecrawler.profile.ProfileLoader;
import org.sievecrawler.profile.ProfileYaml;
import org.sievecrawler.seed.SeedPosition;
import org.sievecrawler.shell.Program;
import org.sievecrawler.sieve.FilterLayer;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.PendingUrlCodec;
import org.sievecrawler.sieve.SpillPosition;

/**
 * Writes and reads the checkpoints of the crawl in one output folder, in {@code DIR/checkpoint/}.
 *
 * <p>Layout: each checkpoint is a folder {@code NNNNNN/} holding {@code profile.yaml} (the effective profile,
 * {@link ProfileYaml}), {@code filters.bin} (the layer count, then each {@link FilterLayer#writeTo}, whose header names its format
 * version and layout) and
 * {@code pending.bin} (the count, then each URL in {@link PendingUrlCodec} form: in-flight first) and
 * {@code host-budget.bin} (the URLs admitted per host, {@link HostCounts}: 12 bytes a host, its format in the
 * manifest's {@code host-budget.format}; a manifest without it has the first form, by host name). The current
 * checkpoint is the one {@code manifest.properties} names ({@link Manifest}), with the format version, state,
 * counters, spill positions, the first frontier journal segment written after it (a resume replays it and those
 * after; a manifest without one, written before the journal, replays nothing), pages.jsonl length, and each file's
 * length and CRC-32C; the manifest carries a CRC-32C of its own entries.
 *
 * <p>Crash safety: a checkpoint's files are written and fsynced in a new folder, then the manifest is written to
 * a temporary file, fsynced and renamed over the old one ({@code ATOMIC_MOVE}), and only then is the previous
 * folder deleted. A crash at any point leaves either the previous checkpoint or the new one whole.
 *
 * <p>Not thread-safe: one thread writes at a time (the crawl serializes its checkpoints).
 */
public final class CheckpointStore {
    static final String DIR = "checkpoint";
    static final String MANIFEST = "manifest.properties";
    static final String PROFILE = "profile.yaml";
    static final String FILTERS = "filters.bin";
    static final String PENDING = "pending.bin";
    /** URLs admitted per host (limits.max-pages-per-host spent), {@link HostCounts}; absent from older checkpoints. */
    static final String HOST_BUDGET = "host-budget.bin";
    /** The copy of the crawl's seed file, beside the checkpoints: written once, not in each checkpoint. */
    static final String SEEDS = "seeds.txt";
    /** The seed file's hosts and origins, written once they are gathered. */
    static final String SEED_HOSTS = "seed-hosts.bin";

    private final Path crawlDir;
    private final Path dir;
    private final Program program;
    private long sequence = -1;

    /** The checkpoints of the crawl in {@code crawlDir}, to read, or to write with {@link Program#CRAWLER} named. */
    public CheckpointStore(Path crawlDir) {
        this(crawlDir, Program.CRAWLER);
    }

    /**
     * The checkpoints of the crawl in {@code crawlDir}; the manifest's comment gives the command that resumes it,
     * started by {@code program}.
     */
    public CheckpointStore(Path crawlDir, Program program) {
        this.crawlDir = crawlDir;
        this.dir = crawlDir.resolve(DIR);
        this.program = program;
    }

    /** The manifest of the current checkpoint. */
    public Path manifest() {
        return dir.resolve(MANIFEST);
    }

    /** Whether the folder holds a checkpoint (a manifest, whatever its state). */
    boolean exists() {
        return Files.exists(manifest());
    }

    /** Deletes every checkpoint: for a new crawl in a folder whose previous crawl finished. */
    void clear() throws IOException {
        deleteTree(dir);
    }

    /**
     * Writes {@code checkpoint} and makes it the current one, then deletes the previous one.
     *
     * @throws IOException naming the file that could not be written; the previous checkpoint is then still current
     */
    void write(Checkpoint checkpoint) throws IOException {
        Files.createDirectories(dir);
        long next = nextSequence();
        String folderName = String.format(Locale.ROOT, "%06d", next);
        Path folder = dir.resolve(folderName);
        deleteTree(folder); // a leftover of a crash before its manifest was committed
        Files.createDirectories(folder);
        Map<String, String> entries = new TreeMap<>();
        entries.put("format", Manifest.FORMAT);
        entries.put("format-version", Integer.toString(Manifest.FORMAT_VERSION));
        entries.put("sequence", Long.toString(next));
        entries.put("folder", folderName);
        entries.put("state", checkpoint.state().name().toLowerCase(Locale.ROOT));
        if (checkpoint.endReason() != null) {
            entries.put("end-reason", checkpoint.endReason());
        }
        entries.put("pages-jsonl-bytes", Long.toString(checkpoint.pagesBytes()));
        FrontierState frontier = checkpoint.frontier();
        SpillPosition spill = frontier.spill();
        entries.put("spill.read-segment", Integer.toString(spill.readSegment()));
        entries.put("spill.read-offset", Long.toString(spill.readOffset()));
        entries.put("spill.write-segment", Integer.toString(spill.writeSegment()));
        entries.put("spill.write-offset", Long.toString(spill.writeOffset()));
        entries.put("spill.count", Long.toString(spill.spilled()));
        entries.put("journal.segment", Integer.toString(frontier.journalSegment()));
        Manifest.putCounters(entries, checkpoint.counters());
        entries.put("pending.count", Integer.toString(frontier.pending().size()));
        entries.put("filters.layers", Integer.toString(frontier.filters().size()));
        SeedPosition seeds = checkpoint.seeds();
        if (seeds.hasFile()) { // the file itself was copied once, when the crawl started: SEEDS
            entries.put("seeds.file-bytes", Long.toString(seeds.fileBytes()));
            entries.put("seeds.file-crc32c", Long.toHexString(seeds.fileCrc32c()));
            entries.put("seeds.offset", Long.toString(seeds.offset()));
            entries.put("seeds.lines", Long.toString(seeds.lines()));
        }

        writeFile(folder.resolve(PROFILE), entries, out -> out.write(
                ProfileYaml.write(checkpoint.profile()).getBytes(StandardCharsets.UTF_8)));
        writeFile(folder.resolve(FILTERS), entries, out -> {
            DataOutputStream data = new DataOutputStream(out);
            data.writeInt(frontier.filters().size());
            for (FilterLayer filter : frontier.filters()) {
                filter.writeTo(data);
            }
            data.flush();
        });
        writeFile(folder.resolve(PENDING), entries, out -> {
            DataOutputStream data = new DataOutputStream(out);
            data.writeInt(frontier.pending().size());
            for (PendingUrl url : frontier.pending()) {
                PendingUrlCodec.write(data, url);
            }
            data.flush();
        });
        entries.put("host-budget.format", Integer.toString(HostCounts.FORMAT));
        writeFile(folder.resolve(HOST_BUDGET), entries, out -> {
            DataOutputStream data = new DataOutputStream(out);
            frontier.admittedPerHost().writeTo(data);
            data.flush();
        });
        syncDirectory(folder);

        byte[] text = Manifest.text(entries, "Sieve Crawler checkpoint: resume with: "
                + ResumeCommand.of(program, crawlDir));
        Path temporary = dir.resolve(MANIFEST + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(text));
            channel.force(true);
        }
        Files.move(temporary, manifest(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory(dir);
        sequence = next;
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(dir, "[0-9][0-9][0-9][0-9][0-9][0-9]")) {
            for (Path old : folders) {
                if (!old.getFileName().toString().equals(folderName)) {
                    deleteTree(old);
                }
            }
        }
    }

    /**
     * The profile of the current checkpoint, its output folder set to this crawl folder: what a resume runs with.
     *
     * @throws CheckpointException naming the file and the problem when there is no usable checkpoint
     */
    public CrawlProfile readProfile() throws CheckpointException {
        Manifest manifest = readManifest();
        return readProfile(manifest);
    }

    /**
     * The current checkpoint, every part checked against the manifest.
     *
     * @throws CheckpointException naming the file and the problem: none, missing, truncated, corrupt, another
     *     format version
     */
    public Checkpoint read() throws CheckpointException {
        Manifest manifest = readManifest();
        CrawlProfile profile = readProfile(manifest);
        Path filtersFile = manifest.file(FILTERS);
        List<FilterLayer> filters = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(filtersFile)))) {
            int layers = in.readInt();
            if (layers < 1 || layers != manifest.integer("filters.layers")) {
                throw new CheckpointException(filtersFile + " holds " + layers + " filter layers; the manifest says "
                        + manifest.get("filters.layers"));
            }
            for (int i = 0; i < layers; i++) {
                filters.add(FilterLayer.read(in, Files.size(filtersFile))); // a header cannot claim more
            }
        } catch (IOException e) {
            throw new CheckpointException(filtersFile + " is corrupt: " + FileErrors.reason(filtersFile, e), e);
        }
        for (FilterLayer filter : filters) {
            if (filter.layout() != profile.sieve().layout()) {
                // Written together by one build; a mismatch means one of them was not written by this checkpoint.
                throw new CheckpointException(filtersFile + " holds filters of the " + filter.layout()
                        + " layout, but the checkpoint's " + PROFILE + " says sieve.layout: "
                        + profile.sieve().layout() + "; the checkpoint is inconsistent and cannot be resumed");
            }
        }
        Path pendingFile = manifest.file(PENDING);
        List<PendingUrl> pending = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(pendingFile)))) {
            int count = in.readInt();
            if (count != manifest.integer("pending.count")) {
                throw new CheckpointException(pendingFile + " holds " + count + " URLs; the manifest says "
                        + manifest.get("pending.count"));
            }
            for (int i = 0; i < count; i++) {
                pending.add(PendingUrlCodec.read(in));
            }
        } catch (EOFException e) {
            throw new CheckpointException(pendingFile + " is truncated: it ends before its last URL", e);
        } catch (IOException e) {
            throw new CheckpointException(pendingFile + " is corrupt: " + FileErrors.reason(pendingFile, e), e);
        }
        SpillPosition spill;
        try {
            spill = new SpillPosition(manifest.integer("spill.read-segment"), manifest.number("spill.read-offset"),
                    manifest.integer("spill.write-segment"), manifest.number("spill.write-offset"),
                    manifest.number("spill.count"));
        } catch (IllegalArgumentException e) {
            throw new CheckpointException(manifest.path + ": " + e.getMessage());
        }
        int journal = manifest.entries.containsKey("journal.segment") ? manifest.integer("journal.segment")
                : FrontierState.NO_JOURNAL; // written before the journal: nothing to replay
        return new Checkpoint(manifest.state(), manifest.entries.get("end-reason"), profile,
                new FrontierState(filters, pending, spill, journal, readHostBudget(manifest)), manifest.counters(),
                manifest.number("pages-jsonl-bytes"), readSeeds(manifest));
    }

    /**
     * The crawl's copy of its seed file ({@code checkpoint/seeds.txt}), made once when the crawl starts; a checkpoint
     * records how far it was offered.
     */
    public Path seedFile() {
        return dir.resolve(SEEDS);
    }

    /** The seed file's hosts, once gathered, beside its copy ({@code checkpoint/seed-hosts.bin}): for a resume. */
    public Path seedHostsFile() {
        return dir.resolve(SEED_HOSTS);
    }

    /** Where the seed file was offered to, or {@link SeedPosition#NONE} for a crawl without one. */
    private static SeedPosition readSeeds(Manifest manifest) throws CheckpointException {
        if (!manifest.entries.containsKey("seeds.file-bytes")) {
            return SeedPosition.NONE;
        }
        try {
            return new SeedPosition(manifest.number("seeds.file-bytes"),
                    Long.parseUnsignedLong(manifest.get("seeds.file-crc32c"), 16), manifest.number("seeds.offset"),
                    manifest.number("seeds.lines"));
        } catch (IllegalArgumentException e) {
            throw new CheckpointException(manifest.path + ": seeds: " + e.getMessage());
        }
    }

    /**
     * The URLs admitted per host, or none for a checkpoint written before they were counted. A manifest without
     * {@code host-budget.format} has them in the first form: an int count, then each host key (writeUTF) and its long
     * count; its host keys are hashed now.
     */
    private static HostCounts readHostBudget(Manifest manifest) throws CheckpointException {
        if (!manifest.entries.containsKey("file." + HOST_BUDGET + ".bytes")) {
            return HostCounts.NONE; // the resumed crawl counts every host from 0, as such a crawl did
        }
        Path file = manifest.file(HOST_BUDGET);
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            if (manifest.entries.containsKey("host-budget.format")) {
                return HostCounts.read(in, Files.size(file));
            }
            int hosts = in.readInt();
            if (hosts < 0) {
                throw new CheckpointException(file + " is corrupt: it says it holds " + hosts + " hosts");
            }
            Map<String, Long> counts = new HashMap<>();
            for (int i = 0; i < hosts; i++) {
                counts.put(in.readUTF(), in.readLong());
            }
            return HostCounts.ofHostKeys(counts);
        } catch (EOFException e) {
            throw new CheckpointException(file + " is truncated: it ends before its last host", e);
        } catch (IOException | IllegalArgumentException e) {
            throw new CheckpointException(file + " is corrupt: " + (e instanceof IOException io
                    ? FileErrors.reason(file, io) : e.getMessage()), e);
        }
    }

    private CrawlProfile readProfile(Manifest manifest) throws CheckpointException {
        Path file = manifest.file(PROFILE);
        try {
            CrawlProfile profile = ProfileLoader.load(file, InputFile.SAVED_PROFILE);
            return profile.with(OUTPUT_DIR, crawlDir);
        } catch (ProfileException e) {
            throw new CheckpointException(file + " is not a valid profile: " + e.getMessage(), e);
        }
    }

    private Manifest readManifest() throws CheckpointException {
        Path path = manifest();
        BasicFileAttributes folder;
        try {
            folder = Files.readAttributes(crawlDir, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new CheckpointException(crawlDir + " does not exist: there is no crawl to resume", e);
        } catch (IOException e) {
            throw new CheckpointException(FileErrors.notAFolderOnTheWay(crawlDir)
                    .map(why -> crawlDir + " does not exist (" + why + ")")
                    .orElse(crawlDir + " cannot be read (" + FileErrors.reason(crawlDir, e) + ")")
                    + ": there is no crawl to resume", e);
        }
        if (!folder.isDirectory()) {
            throw new CheckpointException(crawlDir + " is a file, not a folder: there is no crawl to resume");
        }
        if (Files.notExists(path)) { // one that cannot be looked at is read below, and says why
            throw new CheckpointException(crawlDir + " holds no crawl checkpoint (no " + path
                    + "); there is nothing to resume");
        }
        return Manifest.read(path, dir);
    }

    @FunctionalInterface
    private interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes {@code file}, fsyncs it and records its length and CRC-32C in {@code entries}. */
    private static void writeFile(Path file, Map<String, String> entries, Content content) throws IOException {
        CRC32C crc = new CRC32C();
        long length;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 64 * 1024);
            CheckedOutputStream checked = new CheckedOutputStream(out, crc);
            content.writeTo(checked);
            checked.flush();
            channel.force(true);
            length = channel.size();
        } catch (IOException e) {
            throw new IOException("cannot write the checkpoint file " + file + ": " + FileErrors.reason(file, e), e);
        }
        String name = file.getFileName().toString();
        entries.put("file." + name + ".bytes", Long.toString(length));
        entries.put("file." + name + ".crc32c", Long.toHexString(crc.getValue()));
    }

    /** Fsyncs a folder so the names in it (a new file, a rename) survive a power loss; a no-op where unsupported. */
    private static void syncDirectory(Path folder) {
        try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // not supported on this platform (e.g. Windows); the rename is still atomic
        }
    }

    private long nextSequence() throws IOException {
        if (sequence < 0) {
            sequence = 0;
            try (DirectoryStream<Path> folders = Files.newDirectoryStream(dir, "[0-9][0-9][0-9][0-9][0-9][0-9]")) {
                for (Path folder : folders) {
                    sequence = Math.max(sequence, Long.parseLong(folder.getFileName().toString()));
                }
            }
        }
        return sequence + 1;
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
