package org.sievecrawler.profile;

import java.nio.file.Path;

/** STUB (replaced by branch profile): loads YAML crawl profiles. */
public final class ProfileLoader {
    private ProfileLoader() {
    }

    public static CrawlProfile load(Path file) throws ProfileException {
        throw new ProfileException(file + ":1:1: profile loading is not merged yet");
    }

    public static CrawlProfile loadDefaults() {
        return CrawlProfile.defaults();
    }
}
