/**
 * What an earlier crawl recorded, for a recrawl ({@code crawl --since DIR}): its records read from disk, sorted by
 * URL, looked up one URL at a time in bounded memory ({@link org.sievecrawler.history.CrawlHistory}).
 */
package org.sievecrawler.history;
