package org.sievecrawler.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * This program as the user started it: the first words of every command a message suggests ("resume with: crawler
 * crawl --resume crawl-out"), so that the command, pasted into a POSIX shell in the same folder, runs this program.
 * {@code crawler} when that name on {@code PATH} is this program, {@code crawler-cli/target/crawler} when started
 * by that path, {@code java -jar crawler-cli/target/crawler.jar} when started so. The command line decides which
 * (the launcher tells it how it was invoked); the core only writes commands with it. Immutable and thread-safe.
 *
 * <p>Every word, the program's and the arguments', is quoted for the shell when it holds anything but letters,
 * digits and {@code @%+=:,./_-}: {@code 'my crawl'}, a quote as {@code '\''}. Out of scope: other shells' syntax
 * (cmd.exe, PowerShell).
 *
 * @param words the words that start this program, unquoted, e.g. {@code [java, -jar, /opt/crawler.jar]}
 */
public record Program(List<String> words) {
    /** The name when nothing better is known (the launcher did not say, or a test): {@code crawler}. */
    public static final Program CRAWLER = new Program(List.of("crawler"));

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9@%+=:,./_-]+");

    public Program {
        words = List.copyOf(words);
        if (words.isEmpty() || words.get(0).isEmpty()) {
            throw new IllegalArgumentException("a program is started by at least one word, the first not empty: "
                    + words);
        }
    }

    /** The program started by {@code words}, e.g. {@code of("crawler-cli/target/crawler")}. */
    public static Program of(String... words) {
        return new Program(List.of(words));
    }

    /**
     * The command that runs this program with {@code args}, each word quoted for the shell, e.g.
     * {@code crawler crawl --resume 'my crawl'}.
     */
    public String command(String... args) {
        List<String> all = new ArrayList<>(words);
        all.addAll(List.of(args));
        return String.join(" ", all.stream().map(Program::quote).toList());
    }

    /** This program's own words, quoted: what a user types to start it. */
    @Override
    public String toString() {
        return command();
    }

    /**
     * {@code word} as a POSIX shell reads it back: as it is when it holds only characters no shell treats
     * specially, else in single quotes, each single quote in it written {@code '\''}; the empty word as {@code ''}.
     */
    public static String quote(String word) {
        if (PLAIN.matcher(word).matches()) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
