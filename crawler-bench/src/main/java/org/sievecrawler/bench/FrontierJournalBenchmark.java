package org.sievecrawler.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;
import org.sievecrawler.frontier.FrontierJournal;
import org.sievecrawler.sieve.PendingUrl;

/**
 * {@code FrontierJournal.append} of a typical page's group: 5 admitted links of ~80 characters (each with an
 * ~80-character referrer) and the page's completion, about 1 KB, into a journal in a fresh folder under
 * {@code java.io.tmpdir} (on this machine a disk, not tmpfs: each append is a {@code write(2)} into the page
 * cache). One measured invocation appends 100,000 groups to a new journal, from 1 thread or shared by 2 (the
 * lock's contention); the fsync of closing it is outside the measurement, as a crawl's is at its checkpoints.
 * Score: ns per append (per thread). At the end of each trial the bytes per append are printed.
 *
 * <pre>
 * mvn -q -DskipTests package &amp;&amp; java -jar crawler-bench/target/benchmarks.jar FrontierJournalBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
public class FrontierJournalBenchmark {
    private static final int APPENDS = 100_000;
    private static final int GROUPS = 1024;

    @State(Scope.Benchmark)
    public static class Journal {
        Path dir;
        List<List<PendingUrl>> admitted;
        String[] completed;
        FrontierJournal journal;
        long bytes;
        long appends;

        @Setup(Level.Trial)
        public void groups() throws IOException {
            dir = Files.createTempDirectory("journal-bench");
            admitted = new ArrayList<>(GROUPS);
            completed = new String[GROUPS];
            for (int g = 0; g < GROUPS; g++) {
                PendingUrl page = PendingUrl.seed(url(g, 0));
                List<PendingUrl> links = new ArrayList<>(5);
                for (int l = 1; l <= 5; l++) {
                    links.add(PendingUrl.link(url(g, l), page));
                }
                admitted.add(List.copyOf(links));
                completed[g] = page.url();
            }
        }

        @Setup(Level.Iteration)
        public void fresh() throws IOException {
            journal = FrontierJournal.create(dir);
        }

        @TearDown(Level.Iteration)
        public void close() throws IOException {
            bytes += journal.bytesAppended();
            appends += journal.entriesAppended() / 6;
            journal.close();
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            System.out.printf(Locale.ROOT, "%n%.0f bytes per append%n", (double) bytes / appends);
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }

        /** An ~80-character documentation URL: 78 characters for these numbers. */
        private static String url(int group, int link) {
            return String.format(Locale.ROOT, "https://docs.example.org/reference/library/module-%05d/section-%03d"
                    + "/index.html", group, link);
        }
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(APPENDS)
    public long append1Thread(Journal state) {
        return appendSlice(state, 0, 1);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(APPENDS / 2)
    public long append2Threads(Journal state, ThreadParams thread) {
        return appendSlice(state, thread.getThreadIndex(), 2);
    }

    private static long appendSlice(Journal state, int thread, int threads) {
        FrontierJournal journal = state.journal;
        for (int i = thread; i < APPENDS; i += threads) {
            int g = i & (GROUPS - 1);
            journal.append(state.admitted.get(g), state.completed[g]);
        }
        return journal.entriesAppended();
    }
}
