package org.sievecrawler.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration as written in profiles and on the command line: a whole number and a unit, {@code 500ms},
 * {@code 10s}, {@code 2m}, {@code 1h} (or {@code 0}). Stateless and thread-safe.
 */
final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    static Duration parse(String value) {
        String text = value.trim();
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            throw new TypeConversionException("\"" + value
                    + "\" is not a duration: write a whole number and a unit, e.g. 500ms, 10s, 2m or 1h");
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }
}
