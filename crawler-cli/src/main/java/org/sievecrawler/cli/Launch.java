package org.sievecrawler.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.sievecrawler.shell.Program;

/**
 * How this process was started: the program as the user named it, which every command a message suggests starts
 * with ("resume with: crawler crawl --resume crawl-out"), and the launcher script, which {@code crawler install}
 * links. The launcher ({@code crawler-cli/target/crawler}) says both in system properties: {@value #COMMAND}, the
 * name the user typed ({@code crawler} when that name on {@code PATH} is the launcher, else the path typed, e.g.
 * {@code crawler-cli/target/crawler}), and {@value #LAUNCHER}, the launcher's own file. Started without it, by
 * {@code java -jar FILE}, the program is {@code java -jar FILE} (FILE as typed) and there is no launcher; from
 * classes (a test, an IDE) it is {@link Program#CRAWLER}. Immutable.
 *
 * @param program this program as the user started it
 * @param launcher the launcher script that started this JVM, if one did
 */
record Launch(Program program, Optional<Path> launcher) {
    /** The system property holding how the user invoked the launcher. */
    static final String COMMAND = "sieve.command";
    /** The system property holding the launcher's own file, symbolic links resolved. */
    static final String LAUNCHER = "sieve.launcher";

    /** Started neither by the launcher nor from a jar: a test, or an IDE. */
    static final Launch UNKNOWN = new Launch(Program.CRAWLER, Optional.empty());

    /** How this JVM was started, from the launcher's properties or else the jar it runs. */
    static Launch current() {
        String command = System.getProperty(COMMAND, "");
        Optional<Path> launcher = Optional.ofNullable(System.getProperty(LAUNCHER)).filter(s -> !s.isEmpty())
                .map(Path::of);
        if (!command.isEmpty()) {
            return new Launch(Program.of(command), launcher);
        }
        return jar().map(jar -> new Launch(Program.of("java", "-jar", jar), launcher)).orElse(UNKNOWN);
    }

    /**
     * The jar this JVM runs, as typed: with {@code java -jar FILE} the class path is FILE as given on the command
     * line (relative or not); empty when the class path is anything else (classes, several entries).
     */
    private static Optional<String> jar() {
        String classPath = System.getProperty("java.class.path", "");
        if (classPath.isEmpty() || classPath.contains(File.pathSeparator) || !classPath.endsWith(".jar")
                || !Files.isRegularFile(Path.of(classPath))) {
            return Optional.empty();
        }
        return Optional.of(classPath);
    }
}
