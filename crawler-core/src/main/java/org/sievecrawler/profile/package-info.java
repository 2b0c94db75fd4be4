/**
 * The crawl profile: one immutable, validated record per concern (scope, limits, fetch, politeness, parse,
 * sieve, output, progress), grouped in {@link org.sievecrawler.profile.CrawlProfile}, each key declared once in
 * {@link org.sievecrawler.profile.ProfileKeys} (type, rule, default, meaning), loaded from YAML by
 * {@link org.sievecrawler.profile.ProfileLoader} (every mistake reported at its file, line and column) and written
 * back by {@link org.sievecrawler.profile.ProfileYaml}; another profile is made a key at a time with
 * {@link org.sievecrawler.profile.CrawlProfile#with}, on the path {@code --set} takes. Records are immutable and so
 * safe to share between threads; the loader and writer are stateless. This package imports nothing above it: the
 * values of its keys are its own types or those of packages below it ({@code sieve}, {@code trust}).
 */
package org.sievecrawler.profile;
