package org.sievecrawler.profile;

/** STUB (replaced by branch profile): writes a profile as YAML. */
public final class ProfileYaml {
    private ProfileYaml() {
    }

    public static String write(CrawlProfile profile) {
        return profile.toString();
    }
}
