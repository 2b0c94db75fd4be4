/**
 * JMH benchmarks, one per structure measured, and the local sites and drivers of the crawl benchmarks
 * ({@code StaticSite}, {@code GraphSite}, {@code CrawlBench}); each class javadoc is the command that runs it.
 * Benchmark state is confined by JMH's scopes; the sites serve on their own thread pools; nothing here is used
 * by the crawler itself.
 */
package org.sievecrawler.bench;
