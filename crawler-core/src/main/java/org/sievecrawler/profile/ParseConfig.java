package org.sievecrawler.profile;

/**
 * How pages are read for links.
 *
 * @param followNofollow whether {@code rel=nofollow} links and links of {@code <meta name=robots content=nofollow>}
 *     pages are followed
 */
public record ParseConfig(boolean followNofollow) {
    public static ParseConfig defaults() {
        return CrawlProfile.defaults().parse();
    }
}
