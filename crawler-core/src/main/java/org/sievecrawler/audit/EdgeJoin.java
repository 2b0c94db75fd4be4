package org.sievecrawler.audit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.graph.LinksFile;

/**
 * A section built from the edges of the link graph (links.tsv.zst) that it wants: {@link #readAll} reads the file
 * once for all the joins given (brokenLinks and orphans share a read), and again only while one asks for another.
 * Not thread-safe.
 */
interface EdgeJoin {
    /**
     * Whether an edge of {@code kind} to a target of {@link LinksFile#hash} {@code toHash} may matter to this join
     * in the read under way.
     */
    boolean wants(int toHash, Edge.Kind kind);

    /** An edge {@link #wants} said yes to. */
    void accept(Edge edge) throws IOException;

    /** Called when a read of the file ended: whether this join needs the file read again. */
    boolean readAgain() throws IOException;

    /** Reads {@code dir}/links.tsv.zst for {@code joins}: once, then again for those that ask (each read once). */
    static void readAll(Path dir, List<? extends EdgeJoin> joins) throws IOException {
        List<EdgeJoin> reading = new ArrayList<>(joins);
        while (!reading.isEmpty()) {
            List<EdgeJoin> now = List.copyOf(reading);
            try {
                LinksFile.read(dir, (toHash, kind) -> {
                    for (EdgeJoin join : now) {
                        if (join.wants(toHash, kind)) {
                            return true;
                        }
                    }
                    return false;
                }, edge -> {
                    int toHash = LinksFile.hash(edge.to());
                    for (EdgeJoin join : now) {
                        if (join.wants(toHash, edge.kind())) {
                            try {
                                join.accept(edge);
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        }
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            reading.clear();
            for (EdgeJoin join : now) {
                if (join.readAgain()) {
                    reading.add(join);
                }
            }
        }
    }
}
