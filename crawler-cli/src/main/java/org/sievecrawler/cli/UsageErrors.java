package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.sievecrawler.escape.ControlCharacters;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * How every command answers a command line it cannot parse: the error in one line, then for each unknown option what
 * to use instead when it is a wget or curl habit ({@link OptionHabits}) or else the nearest options, then where the
 * full list is ({@code crawler crawl --help}); nothing else (picocli would print the whole usage, 121 lines for
 * {@code crawl}, after one line that matters). Exit code 2.
 *
 * <pre>
 * crawl: unknown options: -r, -l, -w
 *   -r (wget's --recursive): not needed: a crawl follows links by itself; --max-depth N stops ...
 *   -l (wget's --level N): use --max-depth N (links away from the seeds; -1, the default, for no limit)
 *   -w (wget's --wait SECONDS): use --delay DURATION, e.g. --delay 0.5 or --delay 500ms (...)
 * crawler crawl --help lists every option
 * </pre>
 *
 * <p>Stateless and thread-safe; set on the root command line, it serves every subcommand.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {
    /** The most nearest options shown for one unknown option. */
    private static final int NEAREST = 3;

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine command = ex.getCommandLine();
        PrintWriter err = command.getErr();
        // the words typed come back in the message: a control character in them is shown, not obeyed
        lines(ex).forEach(line -> err.println(ControlCharacters.escape(line)));
        err.flush();
        CommandLine.IExitCodeExceptionMapper mapper = command.getExitCodeExceptionMapper();
        return mapper != null ? mapper.getExitCode(ex) : command.getCommandSpec().exitCodeOnInvalidInput();
    }

    /**
     * Prints a usage error that echoes what the user typed (a value, a path, a profile's text): each of its lines with
     * its control characters escaped ({@code ESC} as {@code \x1b}), so a value typed as {@code $'\x1b[2J'} is shown,
     * not obeyed by the terminal. Every command's usage errors go out through here or {@link #handleParseException}.
     */
    static void print(PrintWriter err, String message) {
        for (String line : message.split("\n", -1)) {
            err.println(ControlCharacters.escape(line));
        }
    }

    /**
     * The lines that tell {@code ex}: the arguments the command did not know first (an unknown option is often why a
     * required one is missing: {@code -i FILE} for {@code --seeds FILE}), each with advice or the nearest names; then
     * any other error; then where the full list is.
     */
    static List<String> lines(ParameterException ex) {
        CommandLine commandLine = ex.getCommandLine();
        CommandSpec spec = commandLine.getCommandSpec();
        List<String> unmatched = ex instanceof UnmatchedArgumentException u ? u.getUnmatched()
                : commandLine.getUnmatchedArguments();
        List<String> options = unmatched.stream().filter(arg -> arg.startsWith("-")).toList();
        List<String> others = unmatched.stream().filter(arg -> !arg.startsWith("-")).toList();
        List<String> lines = new ArrayList<>();
        boolean aCommand = options.isEmpty() && !others.isEmpty() && !spec.subcommands().isEmpty();
        if (!options.isEmpty()) {
            lines.add(name(spec) + ": unknown option" + (options.size() == 1 ? "" : "s") + ": "
                    + String.join(", ", options));
            for (String option : options) {
                OptionHabits.of(option, spec).map(OptionHabits.Habit::line)
                        .or(() -> nearest(commandLine, option, options.size() > 1)).ifPresent(lines::add);
            }
        } else if (aCommand) {
            lines.add(name(spec) + ": unknown command: " + others.get(0));
            nearest(commandLine, others.get(0), false).ifPresent(lines::add);
        } else if (!others.isEmpty()) {
            lines.add(name(spec) + ": unexpected argument" + (others.size() == 1 ? "" : "s") + ": "
                    + String.join(" ", others));
        }
        if (!(ex instanceof UnmatchedArgumentException) || unmatched.isEmpty()) {
            lines.add(name(spec) + ": " + lowerFirst(ex.getMessage()));
        }
        lines.add(spec.qualifiedName() + " --help lists every " + (aCommand ? "command" : "option"));
        return lines;
    }

    /**
     * The options (or commands) nearest {@code unknown} as picocli finds them, "  did you mean --max-pages?", for a
     * name of two letters or more: a single letter has no near neighbours worth naming (-r is not --resume).
     */
    private static Optional<String> nearest(CommandLine command, String unknown, boolean named) {
        if (unknown.replaceFirst("^-+", "").length() < 2) {
            return Optional.empty();
        }
        List<String> suggestions = new UnmatchedArgumentException(command, List.of(unknown)).getSuggestions();
        if (suggestions.isEmpty()) {
            return Optional.empty();
        }
        List<String> shown = suggestions.subList(0, Math.min(NEAREST, suggestions.size()));
        return Optional.of("  " + (named ? unknown + ": " : "") + "did you mean "
                + (shown.size() == 1 ? shown.get(0) : String.join(", ", shown.subList(0, shown.size() - 1)) + " or "
                        + shown.get(shown.size() - 1)) + "?");
    }

    /** How a command's messages start: "crawl", "cluster seed", or "crawler" for the root. */
    static String name(CommandSpec spec) {
        CommandSpec root = spec.root();
        return spec == root ? spec.name() : spec.qualifiedName().substring(root.name().length()).strip();
    }

    private static String lowerFirst(String text) {
        return text.length() > 1 && Character.isUpperCase(text.charAt(0)) && Character.isLowerCase(text.charAt(1))
                ? text.substring(0, 1).toLowerCase(Locale.ROOT) + text.substring(1) : text;
    }
}
