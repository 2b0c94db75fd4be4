package org.sievecrawler.profile;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations and sizes, one meaning wherever they are written or shown: in profiles, on the command line
 * ({@code --delay 1.5s}, {@code --set limits.max-page-bytes=2MB}) and in the progress line and summary. Stateless.
 *
 * <ul>
 *   <li>A duration is a number and a unit, {@code ms}, {@code s}, {@code m}, {@code h} or {@code d}: {@code 500ms},
 *       {@code 1.5s}, {@code 2m}, {@code 1d}; a bare number is seconds ({@code 2} is {@code 2s}). Decimals must come
 *       to whole milliseconds. Combinations ({@code 1m30s}) are out of scope: write {@code 90s}.</li>
 *   <li>A size is a whole number and a unit, {@code KB}, {@code MB} or {@code GB}, each a power of 1024
 *       (1 MB = 1024² bytes; {@code KiB}, {@code MiB}, {@code GiB} say the same), or a number of bytes.</li>
 * </ul>
 */
public final class ProfileUnits {
    /** The accepted forms of a duration, for messages. */
    public static final String DURATION_FORMS =
            "a duration like 500ms, 1.5s, 10s, 2m, 1h or 1d (a bare number is seconds)";
    /** The accepted forms of a size, for messages. */
    public static final String SIZE_FORMS = "a size like 512KB, 10MB or 1GB (1KB = 1024 bytes), or a number of bytes";

    private static final long KB = 1024;
    private static final long MB = 1024 * KB;
    private static final long GB = 1024 * MB;
    private static final Pattern DURATION = Pattern.compile("(-?\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?");
    private static final Pattern SIZE = Pattern.compile("(-?\\d+)\\s*(b|kb|mb|gb|kib|mib|gib)?");

    private ProfileUnits() {
    }

    /** The duration written as {@code text}, or null when it is not one of the forms above. */
    public static Duration parseDuration(String text) {
        Matcher matcher = DURATION.matcher(text.strip());
        if (!matcher.matches()) {
            return null;
        }
        String unit = matcher.group(2) == null ? "s" : matcher.group(2);
        long unitMillis = switch (unit) {
            case "ms" -> 1;
            case "s" -> 1000;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> 86_400_000;
        };
        try {
            return Duration.ofMillis(new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(unitMillis))
                    .longValueExact());
        } catch (ArithmeticException notWholeMillisecondsOrTooLarge) {
            return null;
        }
    }

    /** The shortest exact form: {@code 0s}, {@code 250ms}, {@code 90s}, {@code 2m}, {@code 1h}. */
    public static String formatDuration(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        if (duration.getNano() % 1_000_000 != 0) {
            throw new IllegalArgumentException("durations are written in whole milliseconds, was " + duration);
        }
        long millis = duration.toMillis();
        if (millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        if (seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }

    /** The number of bytes written as {@code text}, or null when it is not one of the forms above. */
    public static Long parseSize(String text) {
        Matcher matcher = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            return null;
        }
        String unit = matcher.group(2) == null ? "b" : matcher.group(2);
        long factor = switch (unit) {
            case "kb", "kib" -> KB;
            case "mb", "mib" -> MB;
            case "gb", "gib" -> GB;
            default -> 1L;
        };
        try {
            return Math.multiplyExact(Long.parseLong(matcher.group(1)), factor);
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }

    /** The largest exact unit: {@code 10MB}, {@code 512KB}, or plain bytes such as {@code 1000}. */
    public static String formatSize(long bytes) {
        if (bytes != 0) {
            if (bytes % GB == 0) {
                return bytes / GB + "GB";
            }
            if (bytes % MB == 0) {
                return bytes / MB + "MB";
            }
            if (bytes % KB == 0) {
                return bytes / KB + "KB";
            }
        }
        return Long.toString(bytes);
    }

    /**
     * An amount of bytes read, rounded down, for a glance at the log: whole megabytes from 1 MB on ({@code 140MB}),
     * else whole kilobytes ({@code 512KB}); in the units of profiles, 1 MB = 1024² bytes.
     */
    public static String roundedSize(long bytes) {
        return bytes >= MB ? bytes / MB + "MB" : bytes / KB + "KB";
    }
}
