package org.sievecrawler.fetch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;

/**
 * The Retry-After header (RFC 9110 section 10.2.3) read as a delay: delta-seconds, or an HTTP-date in any of its
 * three forms (IMF-fixdate, the obsolete RFC 850 and asctime forms; section 5.6.7) measured from the injected
 * clock's now (a date in the past gives zero). Stateless. Out of scope: capping the delay, which is the engine's
 * choice.
 */
final class RetryAfter {
    /** IMF-fixdate, RFC 850 (two-digit years read as 1970-2069) and asctime; all in GMT. */
    private static final List<DateTimeFormatter> HTTP_DATES = List.of(
            DateTimeFormatter.ofPattern("EEE, d MMM yyyy HH:mm:ss 'GMT'", Locale.US),
            new DateTimeFormatterBuilder().appendPattern("EEEE, dd-MMM-")
                    .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
                    .appendPattern(" HH:mm:ss 'GMT'").toFormatter(Locale.US),
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US));

    private RetryAfter() {
    }

    /** The delay the value asks for, or null when it is absent or neither a non-negative integer nor a date. */
    static Duration parse(String value, Clock clock) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        if (v.isEmpty()) {
            return null;
        }
        if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Duration.ofSeconds(Long.parseLong(v));
            } catch (NumberFormatException e) {
                return null; // more digits than a long holds
            }
        }
        for (DateTimeFormatter format : HTTP_DATES) {
            try {
                Instant at = LocalDateTime.parse(v, format).toInstant(ZoneOffset.UTC);
                Duration delay = Duration.between(clock.instant(), at);
                return delay.isNegative() ? Duration.ZERO : delay;
            } catch (DateTimeParseException e) {
                // not this form; try the next
            }
        }
        return null;
    }
}
