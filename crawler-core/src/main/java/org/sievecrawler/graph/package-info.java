/**
 * The link graph: every link a page holds (and every redirect and sitemap entry), as an edge from the page to its
 * normalized target, written to links.tsv.zst beside pages.jsonl with {@code output.links} and read back by the
 * audit. Edges are appended as pages are parsed and never held in memory; the writer is safe for any number of
 * threads, the reader is single-threaded.
 */
package org.sievecrawler.graph;
