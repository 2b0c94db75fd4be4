package org.sievecrawler.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.sievecrawler.shell.Program;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code crawler install [DIR]}: puts a {@code crawler} command on {@code PATH} by a symbolic link
 * {@code DIR/crawler} (DIR by default {@code ~/.local/bin}, from {@code $HOME}) to the launcher script that started
 * this JVM ({@link Launch#launcher()}), so that the commands the crawler suggests ({@code crawler crawl --resume
 * DIR}) run as printed; then says whether DIR is on {@code PATH}, and if not, the {@code export} line that puts it
 * there, and whether another {@code crawler} comes before it. A link that is there already is left as it is; any
 * other file of that name is refused, never overwritten. Runs on the caller's thread; reads {@code HOME} and
 * {@code PATH} from the environment.
 *
 * <p>Out of scope: copying the launcher and its jar elsewhere (the link points into the build: {@code mvn clean}
 * removes what it points to until the next build), and shells other than POSIX ones.
 */
@Command(name = "install", mixinStandardHelpOptions = true,
        description = {"Links crawler into ~/.local/bin (or DIR), to put it on PATH.",
            "Links DIR/crawler to the launcher, then says whether DIR is on PATH, with the line that puts it there"
                    + " if not. An existing DIR/crawler is never overwritten: a link to this launcher is left as it"
                    + " is, anything else refused."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:linked, or linked already", " 1:the link could not be made (DIR not writable, say)",
            " 2:usage error, or refused: DIR/crawler is another file, or no launcher started this crawler"})
final class InstallCommand implements Callable<Integer> {
    /** The name the link gets, and the command a user types. */
    static final String NAME = "crawler";
    static final int FAILED = 1;

    @Spec
    CommandSpec spec;

    @ParentCommand
    CrawlerCommand root;

    @Parameters(paramLabel = "DIR", arity = "0..1",
            description = "The folder to link crawler in (made if missing). Default: ~/.local/bin.")
    Path dir;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Program program = root.program();
        Optional<Path> launcher = root.launch().launcher();
        if (launcher.isEmpty()) {
            err.println("install: links the launcher script (crawler, beside crawler.jar: crawler-cli/target/crawler"
                    + " in a build) into DIR, and this crawler was started without it (" + program + "); run the"
                    + " launcher instead, e.g. crawler-cli/target/crawler install");
            return CrawlerCommand.USAGE;
        }
        Map<String, String> env = System.getenv();
        Path folder = (dir != null ? dir : home(env).resolve(".local").resolve("bin")).toAbsolutePath().normalize();
        Path link = folder.resolve(NAME);
        try {
            Path script = launcher.get().toRealPath();
            if (Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                Optional<String> refused = refusal(link, script);
                if (refused.isPresent()) {
                    err.println("install: " + refused.get());
                    return CrawlerCommand.USAGE;
                }
                out.println(link + " links to " + script + " already");
            } else {
                Files.createDirectories(folder);
                Files.createSymbolicLink(link, script);
                out.println("linked " + link + " -> " + script);
            }
        } catch (IOException e) {
            err.println("install: cannot link " + link + " to the launcher: " + why(e));
            return FAILED;
        }
        pathAdvice(folder, env.getOrDefault("PATH", "")).forEach(out::println);
        return 0;
    }

    /** The home folder {@code ~} means: {@code $HOME}, as the shell has it, else the JVM's user.home. */
    private static Path home(Map<String, String> env) {
        String home = env.get("HOME");
        return Path.of(home != null && !home.isEmpty() ? home : System.getProperty("user.home"));
    }

    /** Why an existing {@code link} is left alone, unless it is a link to {@code script} already. */
    private static Optional<String> refusal(Path link, Path script) throws IOException {
        String leftAlone = "; it is left as it is: remove it yourself and install again, or give install another"
                + " folder (install DIR)";
        if (!Files.isSymbolicLink(link)) {
            return Optional.of(link + " exists and is not a link to this launcher (it is "
                    + (Files.isDirectory(link) ? "a folder" : "a file of " + Files.size(link) + " bytes") + ")"
                    + leftAlone);
        }
        Path target = Files.readSymbolicLink(link);
        if (!Files.exists(link)) {
            return Optional.of(link + " is a link to " + target + ", which does not exist (an earlier build's"
                    + " launcher?); it is left as it is: remove it, then install again: rm "
                    + Program.quote(link.toString()));
        }
        if (Files.isSameFile(link, script)) {
            return Optional.empty();
        }
        return Optional.of(link + " is a link to " + target + ", not to this launcher (" + script + ")"
                + leftAlone);
    }

    /** What went wrong with a file, in words: the JDK's exceptions name only the file, or the file and a reason. */
    private static String why(IOException e) {
        if (!(e instanceof FileSystemException failed)) {
            return e.getMessage();
        }
        String what = failed.getReason() != null ? failed.getReason()
                : e instanceof AccessDeniedException ? "permission denied"
                : e instanceof NoSuchFileException ? "no such file or folder"
                : e instanceof FileAlreadyExistsException ? "a file is there (not a folder)"
                : e instanceof NotDirectoryException ? "not a folder"
                : "cannot be written";
        return failed.getFile() + ": " + what;
    }

    /**
     * What to do for {@code crawler} to be found: nothing but try it when {@code folder} is on {@code path} (and no
     * other crawler comes first), else the {@code export} line for this shell and where to keep it.
     */
    static List<String> pathAdvice(Path folder, String path) {
        List<String> entries = List.of(path.split(File.pathSeparator, -1));
        int at = -1;
        Optional<Path> before = Optional.empty();
        for (int i = 0; i < entries.size() && at < 0; i++) {
            Path entry = Path.of(entries.get(i).isEmpty() ? "." : entries.get(i)).toAbsolutePath().normalize();
            if (sameFolder(entry, folder)) {
                at = i;
            } else if (before.isEmpty() && Files.isExecutable(entry.resolve(NAME))
                    && !Files.isDirectory(entry.resolve(NAME))) {
                before = Optional.of(entry.resolve(NAME));
            }
        }
        if (at < 0) {
            String quoted = Program.quote(folder.toString());
            String export = "export PATH=" + (quoted.equals(folder.toString()) ? "\"" + folder + ":$PATH\""
                    : quoted + ":\"$PATH\"");
            return List.of(folder + " is not on PATH; put it there for this shell: " + export,
                    "(to keep it, add that line to your shell's start file: ~/.profile, ~/.bashrc or ~/.zshrc)");
        }
        if (before.isPresent()) {
            return List.of(folder + " is on PATH, but another crawler comes before it: " + before.get()
                    + "; move " + folder + " to the front of PATH, or remove that one");
        }
        return List.of(folder + " is on PATH: crawler runs from any folder now, e.g. crawler --version");
    }

    private static boolean sameFolder(Path a, Path b) {
        if (a.equals(b)) {
            return true;
        }
        try {
            return Files.isDirectory(a) && Files.isDirectory(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false; // an entry that cannot be read is not the folder
        }
    }
}
