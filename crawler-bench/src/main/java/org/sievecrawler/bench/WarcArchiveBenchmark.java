package org.sievecrawler.bench;

import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_COMPRESSION;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.sievecrawler.fetch.CapturedResponse;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.OutputConfig;
import org.sievecrawler.profile.WarcCompression;
import org.sievecrawler.warc.WarcArchive;

/**
 * The archive path of one page on real HTML, in one thread: {@code archive} is {@link WarcArchive#write} of a
 * page's exchange (response and request record: header, two SHA-1 digests, compression, the append to the file),
 * and beside it what the path cannot go below: {@code sha1}, the two digests alone (block: response head and body;
 * payload: body), and {@code zstd}, zstd-jni at the archive's level 1 over the response's head and body alone (one
 * frame, content size and checksum, a reused context). Score: µs per page; an operation is one page, taken in one
 * fixed shuffled order from the first at each iteration, so that every iteration and every build sees the same mix.
 * The pages are the first {@code pages} HTML files under {@code dir} (by path; default Debian's rust-doc, the
 * real-bench corpus), or, with {@code list}, those named in that file (paths under {@code dir}, one a line: e.g.
 * the pages a crawl fetched), each with a request and a response head as nginx and this crawler send them. The
 * WARC files go to a fresh folder under {@code out} (default /dev/shm, memory: the page cache's cost of a write is
 * in, the disk's is not), deleted after each iteration.
 *
 * <pre>
 * mvn -q -DskipTests package &amp;&amp; java -jar crawler-bench/target/benchmarks.jar WarcArchiveBenchmark \
 *     -p pages=30000 -p list=PATHS -wi 3 -i 5 -w 2 -r 2
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g", "-XX:+UseSerialGC"})
public class WarcArchiveBenchmark {

    /** The pages, as the exchanges a crawl would archive. */
    @State(Scope.Benchmark)
    public static class Pages {
        @Param("/usr/share/doc/rust-doc/html")
        public String dir;
        @Param("4000")
        public int pages;
        /** A file of the pages' paths under dir, one a line (e.g. those a crawl fetched); empty: every .html file. */
        @Param("")
        public String list;

        HttpExchange[] exchanges;
        int next;

        @Setup(Level.Trial)
        public void load() throws IOException {
            Path root = Paths.get(dir);
            List<Path> files;
            if (list.isEmpty()) {
                try (Stream<Path> walk = Files.walk(root)) {
                    files = walk.filter(f -> f.toString().endsWith(".html") && Files.isRegularFile(f))
                            .sorted(Comparator.naturalOrder()).limit(pages).toList();
                }
            } else {
                files = Files.readAllLines(Paths.get(list)).stream().filter(line -> !line.isBlank())
                        .map(line -> root.resolve(line.replaceFirst("^/+", ""))).filter(Files::isRegularFile)
                        .sorted(Comparator.naturalOrder()).limit(pages).toList();
            }
            if (files.isEmpty()) {
                throw new IOException("no .html file under " + root + " (the -p dir=... of WarcArchiveBenchmark)");
            }
            exchanges = new HttpExchange[files.size()];
            long bytes = 0;
            for (int i = 0; i < exchanges.length; i++) {
                byte[] body = Files.readAllBytes(files.get(i));
                String path = "/" + root.relativize(files.get(i)).toString().replace('\\', '/');
                bytes += body.length;
                exchanges[i] = exchange(path, body);
            }
            Collections.shuffle(Arrays.asList(exchanges), new Random(42));
            System.out.printf("%n%d pages, mean %d bytes%n", exchanges.length, bytes / exchanges.length);
        }

        /** Each iteration from the first page of one fixed shuffled order: the same pages, for every version. */
        @Setup(Level.Iteration)
        public void rewind() {
            next = 0;
        }

        HttpExchange next() {
            HttpExchange exchange = exchanges[next];
            next = next + 1 == exchanges.length ? 0 : next + 1;
            return exchange;
        }

        private static HttpExchange exchange(String path, byte[] body) {
            String request = "GET " + path + " HTTP/1.1\r\n"
                    + "User-Agent: SieveCrawler/0.1 (+https://github.com/sievecrawler/sievecrawler)\r\n"
                    + "Accept-Encoding: gzip\r\nHost: 127.0.0.2:19700\r\nConnection: Keep-Alive\r\n\r\n";
            String response = "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Mon, 23 Nov 2026 20:37:32 GMT\r\n"
                    + "Content-Type: text/html\r\nContent-Length: " + body.length + "\r\n"
                    + "Last-Modified: Sat, 14 Jan 2023 08:38:46 GMT\r\nConnection: keep-alive\r\n"
                    + "ETag: \"63c26a16-191c\"\r\nAccept-Ranges: bytes\r\n\r\n";
            return new HttpExchange("http://127.0.0.2:19700" + path, Instant.parse("2026-11-23T20:37:32.061Z"),
                    "127.0.0.2", request.getBytes(StandardCharsets.ISO_8859_1),
                    response.getBytes(StandardCharsets.ISO_8859_1), body, false);
        }
    }

    /** An open archive in a fresh folder, per iteration. */
    @State(Scope.Benchmark)
    public static class Archive {
        @Param({"GZIP", "ZSTD"})
        public WarcCompression compression;
        @Param("/dev/shm")
        public String out;

        Path folder;
        WarcArchive archive;

        @Setup(Level.Iteration)
        public void open() throws IOException {
            folder = Files.createTempDirectory(Paths.get(out), "warc-bench");
            OutputConfig output = CrawlProfile.defaults().with(OUTPUT_DIR, folder).with(OUTPUT_WARC, true)
                    .with(OUTPUT_WARC_COMPRESSION, compression).output();
            archive = WarcArchive.open(output, Map.of("software", "WarcArchiveBenchmark"), Clock.systemUTC());
        }

        @TearDown(Level.Iteration)
        public void close() throws IOException {
            archive.close();
            try (Stream<Path> files = Files.list(folder)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(folder);
        }
    }

    /** What the digests and zstd alone need: a digest and a compression context, reused. */
    @State(Scope.Thread)
    public static class Parts {
        MessageDigest sha1;
        ZstdCompressCtx zstd;
        byte[] in = new byte[0];
        byte[] out = new byte[0];

        @Setup(Level.Trial)
        public void open() throws NoSuchAlgorithmException {
            sha1 = MessageDigest.getInstance("SHA-1");
            zstd = new ZstdCompressCtx().setLevel(1).setContentSize(true).setChecksum(true);
        }

        @TearDown(Level.Trial)
        public void close() {
            zstd.close();
        }
    }

    @Benchmark
    public Object archive(Pages pages, Archive archive) throws IOException {
        return archive.archive.write(pages.next());
    }

    @Benchmark
    public void sha1(Pages pages, Parts parts, Blackhole hole) {
        CapturedResponse.Received response = (CapturedResponse.Received) pages.next().response();
        parts.sha1.update(response.head());
        parts.sha1.update(response.body());
        hole.consume(parts.sha1.digest());
        hole.consume(parts.sha1.digest(response.payload()));
    }

    @Benchmark
    public int zstd(Pages pages, Parts parts) {
        CapturedResponse.Received response = (CapturedResponse.Received) pages.next().response();
        byte[] head = response.head();
        byte[] body = response.body();
        int size = head.length + body.length;
        if (parts.in.length < size) {
            parts.in = new byte[size];
            parts.out = new byte[(int) Zstd.compressBound(size)];
        }
        System.arraycopy(head, 0, parts.in, 0, head.length);
        System.arraycopy(body, 0, parts.in, head.length, body.length);
        return parts.zstd.compressByteArray(parts.out, 0, parts.out.length, parts.in, 0, size);
    }
}
