package org.sievecrawler.cli;

/**
 * Where a request for a graceful stop comes from: Ctrl-C (a JVM shutdown hook) when run from the jar, or a
 * test. The action runs on the signal's own thread and may block until the crawl has reported; the JVM
 * exits when it returns.
 */
interface StopSignal {

    /** Runs {@code onStop} when a stop is requested, until the returned registration is closed. */
    Registration onStop(Runnable onStop);

    /** A registered stop action; closing it unregisters the action (a no-op once the JVM is shutting down). */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** Ctrl-C and SIGTERM: a JVM shutdown hook on a thread named "shutdown". */
    StopSignal CTRL_C = onStop -> {
        Thread hook = new Thread(onStop, "shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        return () -> {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run: nothing to remove
            }
        };
    };
}
