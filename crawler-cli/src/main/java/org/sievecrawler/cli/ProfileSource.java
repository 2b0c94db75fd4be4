package org.sievecrawler.cli;

import java.nio.file.Path;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileException;
import org.sievecrawler.profile.ProfileLoader;

/** Where commands get their profiles: YAML files through {@link ProfileLoader}, or profiles built by a test. */
interface ProfileSource {

    /** The profile in {@code file}, its defaults filled in. */
    CrawlProfile load(Path file) throws ProfileException;

    /** The built-in defaults, used when no profile is given. */
    CrawlProfile defaults();

    /** YAML profiles, and the defaults of config/default.yaml built into the jar. */
    ProfileSource YAML = new ProfileSource() {
        @Override
        public CrawlProfile load(Path file) throws ProfileException {
            return ProfileLoader.load(file);
        }

        @Override
        public CrawlProfile defaults() {
            return ProfileLoader.loadDefaults();
        }
    };
}
