/**
 * The per-URL pipeline: what a fetcher thread does with each lease the frontier hands it, as steps listed in order
 * in one place ({@link org.sievecrawler.pipeline.PageSteps} for a page, {@link org.sievecrawler.pipeline.RobotsSteps}
 * for a host's robots.txt), the lease loop of the fetcher threads ({@link org.sievecrawler.pipeline.FetchWorker},
 * {@link org.sievecrawler.pipeline.FetcherThreads}) and the parse threads a page is handed to
 * ({@link org.sievecrawler.pipeline.ParsePool}). A record leaves only by closing its lease.
 *
 * <p>Threading: one instance of each step serves every fetcher and parse thread; every type here is thread-safe
 * unless its javadoc says otherwise.
 */
package org.sievecrawler.pipeline;
