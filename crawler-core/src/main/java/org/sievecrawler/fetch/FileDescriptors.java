package org.sievecrawler.fetch;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * Whether this process is out of file descriptors now: asked when a name fails to resolve, since the JDK reports a
 * lookup that failed for want of a descriptor as "Name or service not known", like an unknown name. Stateless.
 *
 * <p>How it tells: the descriptors open are within {@link #MARGIN} of the limit; or counting them fails with errno 24
 * ({@code EMFILE}), as the JDK's count opens {@code /proc/self/fd} and throws an {@link InternalError} saying
 * {@code errno: 24} when it cannot (measured, JDK 17 on Linux). Where the JVM cannot tell (not Unix): false.
 */
final class FileDescriptors {
    /** Descriptors short of the limit that count as out of them: others may have closed a few since the failure. */
    static final int MARGIN = 8;
    private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

    private FileDescriptors() {
    }

    static boolean exhausted() {
        if (!(OS instanceof UnixOperatingSystemMXBean unix)) {
            return false;
        }
        try {
            return unix.getOpenFileDescriptorCount() >= unix.getMaxFileDescriptorCount() - MARGIN;
        } catch (InternalError e) { // the count itself needs a descriptor
            return e.getMessage() != null && e.getMessage().contains("errno: 24");
        }
    }
}
