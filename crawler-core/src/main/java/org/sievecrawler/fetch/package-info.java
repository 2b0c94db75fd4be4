/**
 * Fetching: one shared OkHttp client that makes single, non-following HTTP attempts and turns every response and
 * every network error into a {@link org.sievecrawler.fetch.FetchResult}; the only package that does network I/O.
 *
 * <p>Threading: {@link org.sievecrawler.fetch.HttpFetcher} is safe for any number of fetcher threads, each blocked
 * on its own request; results are immutable records (a page body is handed over, not copied), and carry, when the
 * fetcher captures them for the archive, each exchange as it crossed the wire: the response as read off the
 * socket by a tap below OkHttp, one exchange at a time per connection.
 */
package org.sievecrawler.fetch;
