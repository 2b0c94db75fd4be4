package org.sievecrawler.cli;

import java.util.function.Consumer;

/**
 * Where a request to stop comes from: Ctrl-C, SIGTERM and the JVM's shutdown when run from the jar
 * ({@link ProcessSignals}), or a test. The graceful action is told which {@link Request} started it, so what it
 * prints names the way to stop at once that works after it; it runs on a thread of its own and may block until the
 * crawl has reported. The immediate one (a second request) must return at once, after which the process ends.
 */
interface StopSignal {

    /** The stop signals of this process: Ctrl-C (SIGINT), SIGTERM and the JVM's shutdown. */
    StopSignal PROCESS = new ProcessSignals();

    /** Runs {@code onStop} with the request when a stop is requested, until the returned registration is closed. */
    Registration onStop(Consumer<Request> onStop);

    /**
     * Runs {@code graceful} at the first request to stop and {@code immediate} at a second one, where the signal
     * can tell them apart; by default only the first is heard.
     */
    default Registration onStop(Consumer<Request> graceful, Runnable immediate) {
        return onStop(graceful);
    }

    /** A registered stop action; closing it unregisters the action (a no-op once the JVM is shutting down). */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** What asked the process to stop first, and so what stops it at once after that. */
    enum Request {
        /** Ctrl-C at the terminal (SIGINT): pressed again, it stops at once. */
        CTRL_C,
        /** SIGTERM ({@code kill PID}, a service manager, a container stopping): sent again, it stops at once. */
        SIGTERM,
        /** The JVM shutting down for another reason (SIGHUP when the terminal closes, say): a SIGTERM stops at once. */
        SHUTDOWN;

        /**
         * The exit code of a crawl this request stopped: 130 (128 + SIGINT) after Ctrl-C, 143 (128 + SIGTERM) after
         * SIGTERM, the JVM's own for it; 130 after a shutdown for another reason. The command returns this, and must:
         * after a SIGTERM the handler's {@code System.exit(143)} runs the graceful stop in the shutdown hook, and the
         * command's own {@code System.exit} afterwards races it (once the hooks have run, a second exit with another
         * non-zero status halts the JVM with that status at once): returning 130 there made some SIGTERMs end in 130.
         */
        int exitCode() {
            return this == SIGTERM ? 143 : 130;
        }

        /** How to stop this process at once now, e.g. "Ctrl-C again to stop at once". */
        String atOnce() {
            return atOnce(ProcessHandle.current().pid());
        }

        /** How to stop the process {@code pid} at once now; {@code kill PID} for a request not from the keyboard. */
        String atOnce(long pid) {
            return switch (this) {
                case CTRL_C -> "Ctrl-C again to stop at once";
                case SIGTERM -> "kill " + pid + " again to stop at once";
                case SHUTDOWN -> "kill " + pid + " to stop at once";
            };
        }
    }
}
