package org.sievecrawler.graph;

import java.io.IOException;
import java.util.List;

/** Where the crawl puts the edges of its link graph. Implementations are safe for any number of threads. */
public interface LinkGraph {
    /** Nowhere: {@code output.links} is off. */
    LinkGraph NONE = edges -> { };

    /** Adds {@code edges} (usually one page's, in document order). */
    void add(List<Edge> edges) throws IOException;
}
