package org.sievecrawler.profile;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations and sizes as profiles write them: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, {@code 1d}
 * ({@code 0} alone too), and {@code 512KB}, {@code 10MB}, {@code 1GB} (powers of 1024) or a plain number of bytes.
 * Stateless. Fractions ({@code 1.5s}) and combinations ({@code 1m30s}) are out of scope: write {@code 1500ms}.
 */
final class ProfileUnits {
    static final String DURATION_FORMS = "a duration like 500ms, 10s, 2m or 1h";
    static final String SIZE_FORMS = "a size like 512KB, 10MB or 1GB, or a number of bytes";

    private static final Pattern DURATION = Pattern.compile("(-?\\d+)\\s*(ms|s|m|h|d)?");
    private static final Pattern SIZE = Pattern.compile("(-?\\d+)\\s*(b|kb|mb|gb)?");

    private ProfileUnits() {
    }

    /** The duration written as {@code text}, or null when it is not one of the forms above. */
    static Duration parseDuration(String text) {
        Matcher matcher = DURATION.matcher(text.strip());
        if (!matcher.matches()) {
            return null;
        }
        long amount;
        try {
            amount = Long.parseLong(matcher.group(1));
        } catch (NumberFormatException e) {
            return null;
        }
        String unit = matcher.group(2);
        if (unit == null) {
            return amount == 0 ? Duration.ZERO : null;
        }
        try {
            return switch (unit) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /** The shortest exact form: {@code 0s}, {@code 250ms}, {@code 90s}, {@code 2m}, {@code 1h}. */
    static String formatDuration(Duration duration) {
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
    static Long parseSize(String text) {
        Matcher matcher = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            return null;
        }
        String unit = matcher.group(2) == null ? "b" : matcher.group(2);
        long factor = switch (unit) {
            case "kb" -> 1024L;
            case "mb" -> 1024L * 1024;
            case "gb" -> 1024L * 1024 * 1024;
            default -> 1L;
        };
        try {
            return Math.multiplyExact(Long.parseLong(matcher.group(1)), factor);
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }

    /** The largest exact unit: {@code 10MB}, {@code 512KB}, or plain bytes such as {@code 1000}. */
    static String formatSize(long bytes) {
        if (bytes != 0) {
            if (bytes % (1024L * 1024 * 1024) == 0) {
                return bytes / (1024L * 1024 * 1024) + "GB";
            }
            if (bytes % (1024L * 1024) == 0) {
                return bytes / (1024L * 1024) + "MB";
            }
            if (bytes % 1024 == 0) {
                return bytes / 1024 + "KB";
            }
        }
        return Long.toString(bytes);
    }
}
