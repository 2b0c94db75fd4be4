package org.sievecrawler.cli;

import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.PROGRESS_INTERVAL;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileException;
import org.sievecrawler.profile.ProfileProblem;
import picocli.CommandLine;

/** One in-process run of the command line with its output captured; and the test seams it plugs in. */
record CommandRun(int exit, String out, String err) {

    /** Runs {@code args} with the jar's profile source and stop signal. */
    static CommandRun execute(String... args) {
        return execute(new CrawlerCommand(), args);
    }

    static CommandRun execute(CrawlerCommand root, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = CrawlerCommand.commandLine(root);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute(args);
        return new CommandRun(exit, out.toString(), err.toString());
    }

    /** A root command whose profiles are built in Java, by file name, and that never sees Ctrl-C. */
    static CrawlerCommand withProfiles(Map<String, CrawlProfile> byFileName) {
        return new CrawlerCommand(profiles(byFileName), onStop -> () -> { });
    }

    /** Profiles by file name; an unknown name is a profile error naming the file. */
    static ProfileSource profiles(Map<String, CrawlProfile> byFileName) {
        return new ProfileSource() {
            @Override
            public CrawlProfile load(Path file) throws ProfileException {
                CrawlProfile profile = byFileName.get(file.getFileName().toString());
                if (profile == null) {
                    throw new ProfileException(java.util.List.of(
                            new ProfileProblem(file.toString(), 1, 1, "", "no such test profile")));
                }
                return profile;
            }

            @Override
            public CrawlProfile defaults() {
                return CrawlProfile.defaults();
            }
        };
    }

    /** The defaults made fit for a local test site: no delay, two threads, a progress line every 100 ms. */
    static CrawlProfile localProfile(Path out) {
        CrawlProfile defaults = CrawlProfile.defaults();
        return defaults.with(POLITENESS_DELAY, Duration.ZERO)
                .with(FETCH_THREADS, 2)
                .with(OUTPUT_DIR, out)
                .with(PROGRESS_INTERVAL, Duration.ofMillis(100));
    }
}
