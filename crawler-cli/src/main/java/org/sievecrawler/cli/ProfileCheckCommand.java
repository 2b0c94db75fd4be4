package org.sievecrawler.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileException;
import org.sievecrawler.profile.ProfileYaml;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code crawler profile check FILE}: validates a profile and prints the effective profile, every default
 * filled in (and on stderr a warning of a placeholder contact, which a crawl gives too); or every problem, one
 * {@code FILE:LINE:COL: key.path: problem (value)} line each.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Validates a profile and prints the effective profile with every default filled in.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:the profile is valid", " 2:usage or profile error"})
final class ProfileCheckCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ParentCommand
    ProfileCommand parent;

    @Mixin
    LoggingOptions logging;

    @Parameters(paramLabel = "FILE", description = "The YAML profile to check.")
    Path file;

    @Override
    public Integer call() {
        logging.apply();
        CrawlProfile profile;
        try {
            profile = parent.root.profiles().load(file);
        } catch (ProfileException e) {
            UsageErrors.print(spec.commandLine().getErr(), e.getMessage());
            return CrawlerCommand.USAGE;
        }
        String yaml = ProfileYaml.write(profile);
        spec.commandLine().getOut().print(yaml.endsWith("\n") ? yaml : yaml + System.lineSeparator());
        spec.commandLine().getOut().flush();
        profile.fetch().placeholderContact().ifPresent(warning ->
                spec.commandLine().getErr().println(file + ": warning: " + warning));
        return 0;
    }
}
