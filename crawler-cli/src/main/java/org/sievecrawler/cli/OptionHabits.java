package org.sievecrawler.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The options of wget and curl a new user is likely to try ({@code -r}, {@code -l 2}, {@code -w 0.5},
 * {@code -e robots=off}, {@code -i FILE}, ...), each with what to use instead: one table, the resource
 * {@code option-habits.tsv} beside this class, read once. An unknown option found here gets its advice after the
 * error ({@link UsageErrors}), in a command that has the option the advice leads to.
 *
 * <p>Immutable and thread-safe once loaded. Out of scope: options the crawler has ({@code -q}, {@code -v}).
 */
final class OptionHabits {
    /** The table: option, habit, advice, check. */
    static final String TABLE = "option-habits.tsv";

    /**
     * One row of the table.
     *
     * @param option the option as wget or curl spells it, e.g. "-w"
     * @param habit what it is to them, e.g. "wget's --wait SECONDS"
     * @param advice what to use here instead, naming the option of {@code check}
     * @param check arguments of {@code crawler crawl} that do what the advice says, e.g. "--delay 0.5"
     */
    record Habit(String option, String habit, String advice, String check) {
        /** The option the advice leads to: the first word of {@code check}. */
        String leadsTo() {
            return check.split(" ", 2)[0];
        }

        /** The line shown after the error, e.g. "  -w (wget's --wait SECONDS): use --delay DURATION, ...". */
        String line() {
            return "  " + option + " (" + habit + "): " + advice;
        }
    }

    private static final Map<String, Habit> BY_OPTION = load();

    private OptionHabits() {
    }

    /** Every row, in the table's order. */
    static List<Habit> all() {
        return List.copyOf(BY_OPTION.values());
    }

    /**
     * The row for {@code unknown}, an argument a command did not know, if it has one that {@code command} can follow:
     * looked up as written ("-np"), without an attached value ("--limit-rate=100k", "-l2", "-erobots=off").
     */
    static Optional<Habit> of(String unknown, CommandSpec command) {
        Habit habit = BY_OPTION.get(unknown);
        if (habit == null && unknown.startsWith("--") && unknown.contains("=")) {
            habit = BY_OPTION.get(unknown.substring(0, unknown.indexOf('=')));
        }
        if (habit == null && !unknown.startsWith("--") && unknown.length() > 2) {
            habit = BY_OPTION.get(unknown.substring(0, 2));
        }
        return Optional.ofNullable(habit).filter(h -> command.findOption(h.leadsTo()) != null);
    }

    private static Map<String, Habit> load() {
        InputStream in = OptionHabits.class.getResourceAsStream(TABLE);
        if (in == null) {
            throw new IllegalStateException(TABLE + " is not on the class path beside " + OptionHabits.class);
        }
        Map<String, Habit> habits = new LinkedHashMap<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            int number = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                number++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cells = line.split("\t", -1);
                if (cells.length != 4 || habits.containsKey(cells[0])) {
                    throw new IllegalStateException(TABLE + ":" + number + ": expected 4 tab-separated cells and an"
                            + " option not listed before: " + line);
                }
                habits.put(cells[0], new Habit(cells[0], cells[1], cells[2], cells[3]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return habits;
    }
}
