package org.sievecrawler.fetch;

import java.time.Instant;

/**
 * One HTTP request and its response as they crossed the wire, kept for archiving (WARC) when the fetcher was built
 * to capture them. OkHttp does not expose raw header bytes, so the heads are rebuilt from what it read and wrote,
 * faithfully: the request line and header fields in the order and case OkHttp sent them; the status line
 * (protocol, code, reason phrase) and the header fields in the order and case received, each written
 * {@code Name: value}. The body is the body as transferred: content-coded (gzip kept) but de-chunked, because
 * OkHttp removes the chunked transfer coding; the {@code Transfer-Encoding: chunked} field is therefore left out of
 * {@link #responseHead}, so that the head describes the body it precedes (as wget does).
 *
 * <p>Immutable by convention: the arrays are handed over, not copied, and {@link #body} may be the very array of
 * the fetched page when the body was not content-coded.
 *
 * @param url the URL requested
 * @param date when the request started
 * @param remoteAddress the IP address connected to, or null when not known
 * @param requestHead the request line and header fields, each ending with CRLF, then the empty line
 * @param responseHead the status line and header fields, each ending with CRLF, then the empty line
 * @param body the body as transferred, at most the page's size cap
 * @param truncated whether reading stopped before the end of the body (the size cap)
 */
public record HttpExchange(String url, Instant date, String remoteAddress, byte[] requestHead, byte[] responseHead,
        byte[] body, boolean truncated) {

    @Override
    public String toString() {
        return "HttpExchange[url=" + url + ", date=" + date + ", remoteAddress=" + remoteAddress + ", request="
                + requestHead.length + " bytes, response head=" + responseHead.length + " bytes, body="
                + body.length + " bytes" + (truncated ? " (truncated)" : "") + "]";
    }
}
