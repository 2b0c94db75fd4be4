/**
 * The report of a crawl: one self-contained HTML page (report.html, charts drawn by a vendored Chart.js, no network
 * needed) made from the files in its output folder. Pure file in, file out; nothing here is shared between threads.
 */
package org.sievecrawler.report;
