package org.sievecrawler.sink;

import java.io.IOException;

/** Receives every {@link PageRecord} of a crawl. Implementations are safe for any number of threads. */
public interface PageSink extends AutoCloseable {

    void accept(PageRecord record) throws IOException;

    /** Pushes what is buffered to durable storage (the OS, at least). */
    void flush() throws IOException;

    @Override
    void close() throws IOException;
}
