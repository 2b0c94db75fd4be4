package org.sievecrawler.cli;

import java.time.Duration;
import java.time.Instant;

/**
 * Where a command that polls gets the time and how it waits between polls: the system clock and
 * {@link Thread#sleep} from the jar; in a test, a fake clock that a sleep advances (and a sleep that changes what
 * the next poll sees). Thread-safety is the implementation's; the jar's is safe for any thread.
 */
interface Ticker {
    /** The system clock, and Thread.sleep. */
    Ticker SYSTEM = new Ticker() {
        @Override
        public Instant now() {
            return Instant.now();
        }

        @Override
        public void sleep(Duration duration) throws InterruptedException {
            Thread.sleep(duration.toMillis());
        }
    };

    /** The time now. */
    Instant now();

    /** Waits {@code duration}; interrupted, throws with the thread's interrupt flag cleared, as Thread.sleep does. */
    void sleep(Duration duration) throws InterruptedException;
}
