/**
 * The audit of a crawl: what it found out about the site (broken links and where they are linked from, redirects,
 * duplicates, titles, orphans, the slowest pages), written as audit.json beside report.html. Each top-level member
 * of audit.json is one {@link org.sievecrawler.audit.AuditSection}, built from the files of the crawl's output
 * folder in bounded memory; {@link org.sievecrawler.audit.Audit} composes them. Pure files in, file out.
 */
package org.sievecrawler.audit;
