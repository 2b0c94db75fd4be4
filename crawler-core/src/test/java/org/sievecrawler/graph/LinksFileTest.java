package org.sievecrawler.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinksFileTest {
    @TempDir
    Path dir;

    @Test
    void readsBackWhatEachRunAppendedTextEscapesIncluded() throws Exception {
        Edge a = new Edge("http://h/", "http://h/a", Edge.Kind.A, false, true, "Tab\there \\ back\nslash");
        Edge img = new Edge("http://h/", "http://h/i.png", Edge.Kind.IMG, false, true, "");
        Edge out = new Edge("http://h/", "http://elsewhere/", Edge.Kind.A, true, false, "away");
        Edge redirect = new Edge("http://h/old", "http://h/a", Edge.Kind.REDIRECT, false, true, "");
        try (LinksFile file = LinksFile.open(dir)) {
            file.add(List.of(a, img, out));
        }
        try (LinksFile file = LinksFile.open(dir)) { // a resumed crawl appends a zstd frame
            file.add(List.of(redirect));
        }
        List<Edge> read = new ArrayList<>();
        assertThat(LinksFile.read(dir, read::add)).isZero();
        assertThat(read).containsExactly(a, img, out, redirect);
    }

    @Test
    void readsAFileCutShortUpToTheCut() throws Exception {
        try (LinksFile file = LinksFile.open(dir)) {
            List<Edge> edges = new ArrayList<>();
            for (int i = 0; i < 100_000; i++) { // ~4 MB of lines: zstd blocks of 128 KB, the last cut
                edges.add(new Edge("http://h/" + i / 50, "http://h/" + (i * 7919 % 100_000), Edge.Kind.A, false, true,
                        "link " + i));
            }
            file.add(edges);
        }
        Path path = dir.resolve(LinksFile.FILE);
        byte[] bytes = Files.readAllBytes(path);
        Files.write(path, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        List<Edge> read = new ArrayList<>();
        assertThat(LinksFile.read(dir, read::add)).isPositive();
        assertThat(read.size()).isBetween(10_000, 90_000);
        assertThat(read.get(0).from()).isEqualTo("http://h/0");
    }

    @Test
    void aFilteredReadPassesOnlyTheEdgesWantedAndStillCountsADamagedLine() throws Exception {
        Edge a = new Edge("http://h/", "http://h/a", Edge.Kind.A, true, false, "Tab\there");
        Edge img = new Edge("http://h/", "http://h/i.png", Edge.Kind.IMG, false, true, "");
        Edge sitemap = new Edge("http://h/sitemap.xml", "http://h/a", Edge.Kind.SITEMAP, false, true, "");
        try (LinksFile file = LinksFile.open(dir)) {
            file.add(List.of(a, img));
            file.add(List.of(sitemap));
        }
        try (LinksFile file = LinksFile.open(dir)) { // a line of an unknown kind: not an edge
            file.add(List.of(new Edge("http://h/b", "http://h/c", Edge.Kind.A, false, true, "x")));
        }
        Path path = dir.resolve(LinksFile.FILE);
        byte[] zstd = Files.readAllBytes(path);
        try (var out = new com.github.luben.zstd.ZstdOutputStream(Files.newOutputStream(path,
                java.nio.file.StandardOpenOption.APPEND))) {
            out.write("http://h/b\nhttp://h/d\tblink\t-\t\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThat(Files.size(path)).isGreaterThan(zstd.length);
        List<Edge> read = new ArrayList<>();
        assertThat(LinksFile.read(dir, (toHash, kind) -> toHash == LinksFile.hash("http://h/a"), read::add)).isOne();
        assertThat(read).containsExactly(a, sitemap);
        read.clear();
        assertThat(LinksFile.read(dir, (toHash, kind) -> kind == Edge.Kind.IMG, read::add)).isOne();
        assertThat(read).containsExactly(img);
    }

    @Test
    void aLineLongerThanTheReadBufferAndANonAsciiTargetAreReadWhole() throws Exception {
        Edge longText = new Edge("http://h/", "http://h/long", Edge.Kind.A, false, true, "x".repeat(200_000));
        Edge accented = new Edge("http://h/", "http://h/caf\u00e9/\u65e5\u672c", Edge.Kind.A, false, true, "caf\u00e9");
        try (LinksFile file = LinksFile.open(dir)) {
            file.add(List.of(longText, accented));
        }
        List<Edge> read = new ArrayList<>();
        assertThat(LinksFile.read(dir, read::add)).isZero();
        assertThat(read).containsExactly(longText, accented);
        read.clear();
        assertThat(LinksFile.read(dir, (toHash, kind) -> toHash == LinksFile.hash(accented.to()), read::add))
                .isZero();
        assertThat(read).containsExactly(accented);
    }

    @Test
    void noFileIsNoEdges() throws Exception {
        assertThat(LinksFile.read(dir, e -> { throw new AssertionError(e); })).isZero();
    }
}
