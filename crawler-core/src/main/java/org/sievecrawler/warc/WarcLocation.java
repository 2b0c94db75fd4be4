package org.sievecrawler.warc;

import java.net.URI;

/**
 * Where a record was written: enough to read it back without a scan (seek to {@code offset} in {@code file} and
 * read one record) and to refer to it from another record.
 *
 * @param file the WARC file's name, in the output folder
 * @param offset where the record's gzip member starts in the file
 * @param recordId the record's WARC-Record-ID
 */
public record WarcLocation(String file, long offset, URI recordId) {
}
