package org.sievecrawler.cli;

import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Where a request to stop comes from: Ctrl-C and SIGTERM when run from the jar, or a test. The graceful action
 * runs on a thread of its own and may block until the crawl has reported; the immediate one (a second Ctrl-C)
 * must return at once, after which the signal ends the process.
 */
interface StopSignal {

    /** Runs {@code onStop} when a stop is requested, until the returned registration is closed. */
    Registration onStop(Runnable onStop);

    /**
     * Runs {@code graceful} at the first request to stop and {@code immediate} at a second one, where the signal
     * can tell them apart; by default only the first is heard.
     */
    default Registration onStop(Runnable graceful, Runnable immediate) {
        return onStop(graceful);
    }

    /** A registered stop action; closing it unregisters the action (a no-op once the JVM is shutting down). */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Ctrl-C (SIGINT) and SIGTERM. SIGTERM, and SIGINT where the JVM cannot hand it to us, run a JVM shutdown hook on
     * a thread named "shutdown" (the JVM runs hooks once and exits when they return: 143 for SIGTERM). SIGINT is
     * handled directly with {@code sun.misc.Signal} (module jdk.unsupported): the first starts the graceful stop
     * on a thread named "ctrl-c", a second runs the immediate action and halts the JVM with exit code 130.
     */
    StopSignal CTRL_C = new StopSignal() {
        @Override
        public Registration onStop(Runnable onStop) {
            return onStop(onStop, () -> { });
        }

        @Override
        public Registration onStop(Runnable graceful, Runnable immediate) {
            Thread hook = new Thread(graceful, "shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            Registration interrupts = onInterrupt(graceful, immediate);
            return () -> {
                interrupts.close();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running or has run: nothing to remove
                }
            };
        }

        /** Handles SIGINT directly if the JVM lets us (not under -Xrs, for one); else it stays the hook's. */
        private Registration onInterrupt(Runnable graceful, Runnable immediate) {
            Signal interrupt = new Signal("INT");
            AtomicInteger count = new AtomicInteger();
            SignalHandler previous;
            try {
                previous = Signal.handle(interrupt, signal -> {
                    if (count.incrementAndGet() == 1) {
                        Thread stopping = new Thread(graceful, "ctrl-c"); // the signal thread stays free for a second
                        stopping.setDaemon(true);
                        stopping.start();
                    } else {
                        immediate.run();
                        Runtime.getRuntime().halt(CrawlRun.STOPPED);
                    }
                });
            } catch (IllegalArgumentException | LinkageError unavailable) {
                return () -> { };
            }
            return () -> Signal.handle(interrupt, previous);
        }
    };
}
