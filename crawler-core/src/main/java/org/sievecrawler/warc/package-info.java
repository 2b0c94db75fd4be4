/**
 * The web archive: WARC 1.1 files of the HTTP exchanges a crawl made (request and response records, a warcinfo
 * record per file, optional metadata records), each record gzip-compressed on its own, and reading such a file
 * back record by record ({@code crawler warc ls}).
 *
 * <p>Threading: {@link org.sievecrawler.warc.WarcArchive} is safe for any number of fetcher and parser threads;
 * each compresses its records in its own thread and only appends them under a short lock.
 */
package org.sievecrawler.warc;
