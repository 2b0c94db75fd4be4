package org.sievecrawler.checkpoint;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.sievecrawler.input.FileErrors;

/**
 * The lock a running crawl holds on its output folder ({@code crawl.lock}, an OS file lock), so a second crawl
 * or resume into the same folder is refused while it runs. The OS releases it when the process ends, however it
 * ends; the file itself stays. Thread-safe; close it once.
 */
public final class CrawlLock implements AutoCloseable {
    static final String FILE = "crawl.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private CrawlLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code dir}, which must exist.
     *
     * @throws CheckpointException naming the folder when another crawl holds it
     * @throws IOException naming the file when it cannot be created or locked
     */
    public static CrawlLock acquire(Path dir) throws CheckpointException, IOException {
        Path file = dir.resolve(FILE);
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new IOException("cannot create the lock file " + file + ": " + FileErrors.reason(file, e), e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by this JVM
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot lock " + file + ": " + FileErrors.reason(file, e), e);
        }
        if (lock == null) {
            channel.close();
            throw new CheckpointException("another crawl is running in " + dir + " (it holds " + file
                    + "); wait for it to end or choose another output folder");
        }
        return new CrawlLock(channel, lock);
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
