package org.sievecrawler.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The stop signals this process receives: Ctrl-C (SIGINT), SIGTERM, and the JVM's shutdown for any other reason
 * (SIGHUP when the terminal closes). The first of them starts the graceful stop, told which it was; a second Ctrl-C
 * or SIGTERM, whichever came first, runs the immediate action and halts the JVM: 130 for Ctrl-C, 143 for SIGTERM
 * (128 + the signal's number, as the JVM exits for them).
 *
 * <p>How each is heard. SIGINT and SIGTERM are handled with {@code sun.misc.Signal} (module jdk.unsupported), in
 * place of the JVM's own handlers (which exit at once through the shutdown hooks) while an action is registered;
 * HotSpot runs each signal's handler on a new thread. A Ctrl-C starts the graceful stop on a daemon thread named
 * "ctrl-c" (the command then returns 130); a SIGTERM calls {@code System.exit(143)}, as the JVM's handler does, and
 * the graceful stop runs in the shutdown hook (a thread named "shutdown"): the JVM exits when it returns. Any other
 * shutdown runs the same hook; a shutdown while a Ctrl-C's stop runs waits in the hook for that stop to end.
 *
 * <p>What cannot be heard: a SIGINT the process inherited as ignored (SIG_IGN), as a command started with {@code &}
 * by a script (a shell without job control) inherits it: HotSpot leaves it ignored, as POSIX means for background
 * jobs, so Ctrl-C and {@code kill -INT} do nothing; SIGTERM still stops gracefully. Under
 * {@code -Xrs} the JVM handles neither, and {@code sun.misc.Signal} refuses both: SIGTERM then ends the JVM without
 * its shutdown hooks.
 *
 * <p>Thread-safe: each registration keeps its own count of requests, shared by its handlers and its hook.
 */
final class ProcessSignals implements StopSignal {
    /** The exit code after Ctrl-C: 128 + SIGINT (2). */
    static final int CTRL_C_EXIT = Request.CTRL_C.exitCode();
    /** The exit code after SIGTERM: 128 + SIGTERM (15), the JVM's own. */
    static final int SIGTERM_EXIT = Request.SIGTERM.exitCode();

    @Override
    public Registration onStop(Consumer<Request> onStop) {
        return onStop(onStop, () -> { });
    }

    @Override
    public Registration onStop(Consumer<Request> graceful, Runnable immediate) {
        Requests requests = new Requests(graceful, immediate);
        Thread hook = new Thread(requests::shutdown, "shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Registration interrupts = handle("INT", requests::ctrlC);
        Registration terminations = handle("TERM", requests::sigterm);
        return () -> {
            terminations.close();
            interrupts.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run: nothing to remove
            }
        };
    }

    /**
     * Runs {@code action} on each signal named {@code name} ("INT", "WINCH"), on a thread of its own, until closed,
     * then gives the signal back to its previous handler; does nothing where the JVM will not let us (a signal the
     * platform does not have, or SIGINT under -Xrs). The one place this package handles signals.
     */
    static Registration handle(String name, Runnable action) {
        SignalHandler previous;
        Signal signal;
        try {
            signal = new Signal(name);
            previous = Signal.handle(signal, received -> action.run());
        } catch (IllegalArgumentException | LinkageError unavailable) {
            return () -> { };
        }
        // an inherited SIG_IGN stays in place (the handler is kept but never runs): restoring it drops ours
        return () -> Signal.handle(signal, previous);
    }

    /** The requests one registration has heard: the first starts the graceful stop, the second halts. */
    private static final class Requests {
        private final Consumer<Request> graceful;
        private final Runnable immediate;
        private final AtomicReference<Request> first = new AtomicReference<>();
        private final AtomicBoolean stopping = new AtomicBoolean();
        private final CountDownLatch stopped = new CountDownLatch(1);

        Requests(Consumer<Request> graceful, Runnable immediate) {
            this.graceful = graceful;
            this.immediate = immediate;
        }

        /** On the SIGINT handler's thread. */
        void ctrlC() {
            if (first.compareAndSet(null, Request.CTRL_C)) {
                Thread stop = new Thread(() -> stopGracefully(Request.CTRL_C), "ctrl-c");
                stop.setDaemon(true); // the command's thread ends the process, with 130
                stop.start();
            } else {
                halt(CTRL_C_EXIT);
            }
        }

        /** On the SIGTERM handler's thread. */
        void sigterm() {
            if (first.compareAndSet(null, Request.SIGTERM)) {
                System.exit(SIGTERM_EXIT); // the hook stops gracefully; the JVM exits when it returns
            } else {
                halt(SIGTERM_EXIT);
            }
        }

        /** In the JVM's shutdown hook: after a SIGTERM, or for any other reason (SIGHUP). */
        void shutdown() {
            first.compareAndSet(null, Request.SHUTDOWN);
            stopGracefully(first.get());
        }

        private void stopGracefully(Request request) {
            if (stopping.compareAndSet(false, true)) {
                try {
                    graceful.accept(request);
                } finally {
                    stopped.countDown();
                }
                return;
            }
            try {
                stopped.await(); // a Ctrl-C's stop is under way as the JVM shuts down: the JVM waits for it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void halt(int status) {
            immediate.run();
            Runtime.getRuntime().halt(status);
        }
    }
}
