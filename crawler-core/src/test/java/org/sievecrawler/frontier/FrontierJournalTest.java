package org.sievecrawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.sieve.CorruptFilterException;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.PendingUrlCodec;
import org.slf4j.LoggerFactory;

class FrontierJournalTest {
    private static final PendingUrl PAGE = PendingUrl.seed("https://example.org/");

    @TempDir
    Path out;
    private Path dir;
    private final List<FrontierJournal> opened = new ArrayList<>();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger journalLogger = (Logger) LoggerFactory.getLogger(FrontierJournal.class);

    @BeforeEach
    void captureLog() {
        dir = out.resolve("frontier").resolve("journal");
        log.start();
        journalLogger.addAppender(log);
    }

    @AfterEach
    void closeJournals() throws IOException {
        journalLogger.detachAppender(log);
        for (FrontierJournal journal : opened) {
            journal.close();
        }
    }

    @Test
    void readsBackAdmitsAndDonesAcrossRotationsInAppendOrder() throws IOException {
        FrontierJournal journal = create();
        journal.append(List.of(link("a"), link("b")), PAGE.url());
        journal.append(List.of(), url("a"));
        assertThat(journal.rotate()).isEqualTo(1);
        journal.append(List.of(robots("c")), null);
        assertThat(journal.rotate()).isEqualTo(2);
        journal.append(List.of(link("d")), url("b"));
        journal.append(List.of(), null); // an empty group writes nothing
        journal.close();

        Replay replay = resume(0);

        assertThat(replay.admitted()).containsExactly(link("a"), link("b"), robots("c"), link("d"));
        assertThat(replay.segments()).isEqualTo(3);
        assertThat(replay.admitted().size()).isEqualTo(4);
        assertThat(replay.dones()).isEqualTo(3);
        assertThat(replay.bytesCut()).isZero();
        assertThat(replay.completed().size()).isEqualTo(3);
        assertThat(replay.completed().remove(url("a"))).isTrue();
        assertThat(replay.completed().remove(url("c"))).isFalse();
        assertThat(replay.journal().segment()).isEqualTo(3);
        assertThat(segments()).containsExactly("000000.jnl", "000001.jnl", "000002.jnl", "000003.jnl");
        assertThat(journal.entriesAppended()).isEqualTo(7);
        assertThat(journal.bytesAppended()).isEqualTo(sizeOfSegments(0, 1, 2));
        assertThat(log.list).isEmpty();
    }

    @Test
    void aCompletionWhoseRecordTheOutputLostIsNotReplayedSoItsUrlIsFetchedAgain() throws IOException {
        FrontierJournal journal = create();
        journal.append(List.of(link("a"), link("b")), PAGE.url());
        journal.append(List.of(), url("a"));
        journal.append(List.of(), url("b"));
        journal.close();

        Replay replay = resume(0, url -> !url.equals(url("b"))); // b's record is not in pages.jsonl

        assertThat(replay.dones()).isEqualTo(3);
        assertThat(replay.unrecorded()).isEqualTo(1);
        assertThat(replay.completed().size()).isEqualTo(2);
        assertThat(replay.completed().remove(url("b"))).isFalse();
        assertThat(replay.completed().remove(url("a"))).isTrue();
        assertThat(replay.admitted()).containsExactly(link("a"), link("b"));
    }

    @Test
    void resumesFromAMiddleSegmentDeletingTheOlderOnesAndAppendingToANewOne() throws IOException {
        FrontierJournal journal = create();
        journal.append(List.of(link("before")), null);
        int checkpointed = journal.rotate();
        journal.append(List.of(link("after")), url("before"));
        // no close: the crawl was killed

        Replay replay = resume(checkpointed);
        assertThat(replay.admitted()).containsExactly(link("after"));
        assertThat(replay.completed().remove(url("before"))).isTrue();
        assertThat(segments()).containsExactly("000001.jnl", "000002.jnl");

        replay.journal().append(List.of(link("later")), url("after"));
        replay.journal().close();
        Replay again = resume(checkpointed);
        assertThat(again.admitted()).containsExactly(link("after"), link("later"));
        assertThat(again.dones()).isEqualTo(2);
        assertThat(segments()).containsExactly("000001.jnl", "000002.jnl", "000003.jnl");
    }

    @Test
    void readsBackAGroupAppendedByAProcessKilledWithoutClosing() throws IOException {
        FrontierJournal killed = create();
        killed.append(List.of(link("x"), link("y")), PAGE.url());

        Replay replay = resume(0); // a new journal on the same folder, the first never closed nor synced

        assertThat(replay.admitted()).containsExactly(link("x"), link("y"));
        assertThat(replay.completed().remove(PAGE.url())).isTrue();
    }

    /** The real thing: a process appending, killed with SIGKILL; every group it had appended is read back. */
    @Test
    void readsBackEveryGroupAProcessAppendedBeforeAKillDashNine() throws Exception {
        Path childLog = out.resolve("child.log");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                KilledAppender.class.getName(), dir.toString())
                .redirectError(childLog.toFile()).start();
        try {
            String line;
            try (BufferedReader lines = child.inputReader()) {
                line = lines.readLine(); // blocks until the child has appended its first groups, or died
            }
            assertThat(line).as("the child's report (its stderr: %s)", childLog).isEqualTo("appended 1000");
        } finally {
            child.destroyForcibly(); // SIGKILL: no close, no sync, no shutdown hook
            assertThat(child.waitFor(2, TimeUnit.MINUTES)).isTrue();
        }

        Replay replay = resume(0);

        long groups = replay.dones();
        assertThat(groups).isGreaterThanOrEqualTo(1000);
        assertThat(replay.admitted().size() - 2 * groups).as("a torn last group loses its completion, not its links")
                .isBetween(0L, 2L);
        for (int i = 0; i < replay.admitted().size(); i++) {
            assertThat(replay.admitted().get(i)).isEqualTo(link(KilledAppender.page(i / 2) + "/" + (1 + i % 2)));
        }
        for (int g = 0; g < groups; g++) {
            assertThat(replay.completed().remove(KilledAppender.page(g))).as("group %d", g).isTrue();
        }
        assertThat(replay.completed().isEmpty()).isTrue();
    }

    /** The process {@link #readsBackEveryGroupAProcessAppendedBeforeAKillDashNine} kills. */
    static final class KilledAppender {
        static String page(int group) {
            return url("g" + group);
        }

        /**
         * Appends 1,000 groups (two links and the page), reports it on stdout, then goes on appending one group a
         * millisecond (at most 100,000) until killed; never closes the journal.
         */
        public static void main(String[] args) throws Exception {
            FrontierJournal journal = FrontierJournal.create(Path.of(args[0]));
            for (int g = 0; g < 100_000; g++) {
                journal.append(List.of(link(page(g) + "/1"), link(page(g) + "/2")), page(g));
                if (g == 999) {
                    System.out.println("appended 1000");
                    System.out.flush();
                } else if (g > 999) {
                    Thread.sleep(1);
                }
            }
        }
    }

    @Test
    void cutsATornTailAtEveryByteOfTheLastRecordAndReplaysTheEntriesBeforeIt() throws IOException {
        FrontierJournal journal = create();
        journal.append(List.of(link("a")), null);
        journal.rotate();
        journal.append(List.of(link("b"), link("c")), null);
        long lastStart = journal.bytesAppended() - sizeOfSegments(0);
        journal.append(List.of(), url("b"));
        journal.close();
        Path last = dir.resolve("000001.jnl");
        byte[] whole = Files.readAllBytes(last);
        byte[] first = Files.readAllBytes(dir.resolve("000000.jnl"));

        for (int length = (int) lastStart; length < whole.length; length++) {
            restore(first, whole, length);
            log.list.clear();

            Replay replay = resume(0);
            replay.journal().close();

            assertThat(replay.admitted()).as("cut at %d", length).containsExactly(link("a"), link("b"), link("c"));
            assertThat(replay.dones()).isZero();
            assertThat(replay.bytesCut()).isEqualTo(length - lastStart);
            assertThat(Files.size(last)).isEqualTo(lastStart);
            if (length > lastStart) {
                assertThat(log.list).hasSize(1);
                assertThat(log.list.get(0).getLevel()).isEqualTo(Level.WARN);
                assertThat(log.list.get(0).getFormattedMessage())
                        .startsWith(last + ": cut " + (length - lastStart) + " bytes at byte " + lastStart + " (")
                        .contains("a record cut short");
            } else {
                assertThat(log.list).isEmpty();
            }
        }
    }

    @Test
    void cutsAFlippedByteInTheLastRecordOfTheLastSegment() throws IOException {
        FrontierJournal journal = create();
        journal.append(List.of(link("a")), null);
        long lastStart = journal.bytesAppended();
        journal.append(List.of(link("b")), null);
        journal.close();
        Path last = dir.resolve("000000.jnl");
        flipByte(last, lastStart + 7);

        Replay replay = resume(0);

        assertThat(replay.admitted()).containsExactly(link("a"));
        assertThat(log.list).singleElement().extracting(ILoggingEvent::getFormattedMessage).asString()
                .startsWith(last + ": cut ").contains("at byte " + lastStart + " (a checksum mismatch (stored 0x");
    }

    @Test
    void reportsAFlippedByteInAnEarlierSegmentNamingTheFileAndOffset() throws IOException {
        FrontierJournal journal = create();
        journal.append(List.of(link("a")), null);
        long second = journal.bytesAppended();
        journal.append(List.of(link("b")), null);
        journal.rotate();
        journal.append(List.of(link("c")), null);
        journal.close();
        Path damaged = dir.resolve("000000.jnl");
        flipByte(damaged, second + 10);

        assertThatThrownBy(() -> resume(0)).isInstanceOf(CorruptFilterException.class)
                .hasMessageStartingWith(damaged + ": at byte " + second + " found a checksum mismatch (stored 0x")
                .hasMessageContaining("the disk or another program damaged it");
    }

    @Test
    void refusesToResumeWhenTheCheckpointsSegmentIsMissingAndDeletesNothing() throws IOException {
        FrontierJournal journal = create();
        journal.rotate();
        journal.rotate();
        journal.close();
        Files.delete(dir.resolve("000001.jnl"));

        assertThatThrownBy(() -> resume(1)).isInstanceOf(CorruptFilterException.class)
                .hasMessage(dir.resolve("000001.jnl") + " is missing; the checkpoint replays the frontier journal"
                        + " from segment 1 on, and segments [2] are there");
        assertThat(segments()).as("nothing deleted by a resume that failed")
                .containsExactly("000000.jnl", "000002.jnl");
        assertThatThrownBy(() -> resume(5)).isInstanceOf(CorruptFilterException.class)
                .hasMessage(dir.resolve("000005.jnl") + " is missing; the checkpoint replays the frontier journal"
                        + " from segment 5 on, and no segment from it on is there");
    }

    /** Each group is written with one call under the lock: its entries are adjacent, in order, in one segment. */
    @Test
    void keepsEachGroupWholeWhenFourThreadsAppendWhileAFifthRotates() throws Exception {
        FrontierJournal journal = create();
        int threads = 4;
        int groups = 2_000;
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int g = 0; g < groups; g++) {
                        String page = url("t" + thread + "/g" + g);
                        journal.append(List.of(link(page + "/1"), link(page + "/2"), link(page + "/3")), page);
                    }
                    return null;
                }));
            }
            done.add(pool.submit(() -> {
                start.await();
                for (int r = 0; r < 20; r++) {
                    journal.rotate();
                    Thread.yield();
                }
                return null;
            }));
            for (Future<?> future : done) {
                future.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        journal.close();

        List<String> entries = new ArrayList<>();
        for (String segment : segments()) {
            entries.addAll(decode(dir.resolve(segment)));
        }
        assertThat(entries).hasSize(threads * groups * 4);
        Map<String, Integer> nextGroup = new HashMap<>();
        for (int i = 0; i < entries.size(); i += 4) {
            String page = entries.get(i + 3);
            assertThat(page).startsWith("done ");
            String url = page.substring("done ".length());
            assertThat(entries.subList(i, i + 3)).as("group of %s", url)
                    .containsExactly("admit " + url + "/1", "admit " + url + "/2", "admit " + url + "/3");
            String thread = url.substring(url.indexOf("/t") + 2, url.indexOf("/g"));
            int group = Integer.parseInt(url.substring(url.indexOf("/g") + 2));
            assertThat(group).as("thread %s's groups in order", thread).isEqualTo(nextGroup.getOrDefault(thread, 0));
            nextGroup.put(thread, group + 1);
        }
        Replay replay = resume(0);
        assertThat(replay.admitted().size()).isEqualTo(threads * groups * 3L);
        assertThat(replay.completed().size()).isEqualTo(threads * groups);
    }

    @Test
    void createDeletesAnEarlierCrawlsSegmentsAndStartsAtZero() throws IOException {
        FrontierJournal earlier = create();
        earlier.append(List.of(link("old")), null);
        earlier.rotate();
        earlier.close();
        Files.writeString(dir.resolve("notes.txt"), "not a segment");

        FrontierJournal journal = create();

        assertThat(journal.segment()).isZero();
        assertThat(segments()).containsExactly("000000.jnl");
        assertThat(Files.size(dir.resolve("000000.jnl"))).isZero();
        assertThat(dir.resolve("notes.txt")).exists();
    }

    @Test
    void deletesTheSegmentsBeforeACommittedCheckpointsButNeverTheCurrentOne() throws IOException {
        FrontierJournal journal = create();
        journal.rotate();
        journal.rotate();

        journal.deleteBefore(1);
        assertThat(segments()).containsExactly("000001.jnl", "000002.jnl");
        journal.deleteBefore(9);
        assertThat(segments()).containsExactly("000002.jnl");
    }

    @Test
    void refusesToAppendOnceClosed() throws IOException {
        FrontierJournal journal = create();
        journal.close();
        journal.close();

        assertThatThrownBy(() -> journal.append(List.of(link("a")), null)).isInstanceOf(IllegalStateException.class)
                .hasMessage("the frontier journal in " + dir + " is closed; cannot append 1 entries");
        assertThatThrownBy(journal::rotate).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void refusesAUrlTooLongToReadBackAndWritesNothingOfItsGroup() throws IOException {
        FrontierJournal journal = create();
        String huge = "https://example.org/" + "x".repeat(PendingUrlCodec.MAX_TEXT_BYTES);

        assertThatThrownBy(() -> journal.append(List.of(link("a"), PendingUrl.seed(huge)), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("a URL of " + huge.length() + " bytes cannot be journaled: the limit is "
                        + PendingUrlCodec.MAX_TEXT_BYTES + " (https://example.org/xxx");
        assertThat(Files.size(dir.resolve("000000.jnl"))).isZero();
    }

    private FrontierJournal create() throws IOException {
        FrontierJournal journal = FrontierJournal.create(dir);
        opened.add(journal);
        return journal;
    }

    private Replay resume(int from) throws IOException {
        return resume(from, url -> true);
    }

    private Replay resume(int from, java.util.function.Predicate<String> recorded) throws IOException {
        Replay replay = FrontierJournal.resume(dir, from, recorded);
        opened.add(replay.journal());
        return replay;
    }

    private static String url(String path) {
        return "https://example.org/" + path;
    }

    private static PendingUrl link(String path) {
        return PendingUrl.link(path.startsWith("https:") ? path : url(path), PAGE);
    }

    private static PendingUrl robots(String host) {
        return new PendingUrl("https://" + host + ".example/robots.txt", 0, null, 0, 0, PendingUrl.Purpose.ROBOTS);
    }

    private List<String> segments() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".jnl")).sorted()
                    .collect(Collectors.toList());
        }
    }

    private long sizeOfSegments(int... numbers) throws IOException {
        long size = 0;
        for (int number : numbers) {
            size += Files.size(FrontierJournal.segmentPath(dir, number));
        }
        return size;
    }

    /** Writes segment 0 whole and segment 1 cut to {@code length} bytes. */
    private void restore(byte[] first, byte[] last, int length) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.collect(Collectors.toList())) {
                Files.delete(file);
            }
        }
        Files.write(dir.resolve("000000.jnl"), first);
        Files.write(dir.resolve("000001.jnl"), java.util.Arrays.copyOf(last, length));
    }

    private static void flipByte(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, offset);
            one.put(0, (byte) (one.get(0) ^ 0x20)).rewind();
            channel.write(one, offset);
        }
    }

    /**
     * The segment's entries as "admit URL" and "done URL", decoded here from the documented format (length,
     * type, payload, CRC-32C of type and payload) rather than by the journal's reader.
     */
    private static List<String> decode(Path segment) throws IOException {
        List<String> entries = new ArrayList<>();
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(segment));
        CRC32C crc = new CRC32C();
        while (bytes.hasRemaining()) {
            int length = bytes.getInt();
            byte type = bytes.get();
            byte[] payload = new byte[length];
            bytes.get(payload);
            crc.reset();
            crc.update(type);
            crc.update(payload);
            assertThat(bytes.getInt()).isEqualTo((int) crc.getValue());
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
            if (type == FrontierJournal.ADMIT) {
                entries.add("admit " + PendingUrlCodec.read(in).url());
            } else {
                assertThat(type).isEqualTo(FrontierJournal.DONE);
                entries.add("done " + PendingUrlCodec.readText(in));
            }
        }
        return entries;
    }
}
