package org.sievecrawler.fetch;

import java.time.Instant;

/**
 * One HTTP request and what came back, as they crossed the wire, kept for archiving (WARC) when the fetcher was built
 * to capture them. The request head is the request line and header fields as OkHttp wrote them (it writes them from
 * its fields, so they are rebuilt from those, in its order and case). The response is, in the common case, the
 * bytes read off the socket: see {@link CapturedResponse}.
 *
 * <p>Immutable by convention: the arrays are handed over, not copied.
 *
 * @param url the URL requested
 * @param date when the request started
 * @param remoteAddress the IP address connected to, or null when not known
 * @param requestHead the request line and header fields, each ending with CRLF, then the empty line
 * @param response the response: received, rebuilt or refused
 */
public record HttpExchange(String url, Instant date, String remoteAddress, byte[] requestHead,
        CapturedResponse response) {

    /**
     * An exchange whose response head and body are as received, without interim heads and without chunked coding
     * (the payload is the body).
     */
    public HttpExchange(String url, Instant date, String remoteAddress, byte[] requestHead, byte[] responseHead,
            byte[] body, boolean truncated) {
        this(url, date, remoteAddress, requestHead,
                new CapturedResponse.Received(responseHead, new byte[0], body, body, truncated));
    }

    @Override
    public String toString() {
        String what;
        if (response instanceof CapturedResponse.Received r) {
            what = "response head=" + r.head().length + " bytes, body=" + r.body().length + " bytes"
                    + (r.truncated() ? " (truncated)" : "")
                    + (r.interim().length > 0 ? ", interim heads=" + r.interim().length + " bytes" : "");
        } else if (response instanceof CapturedResponse.Rebuilt r) {
            what = "response head rebuilt=" + r.head().length + " bytes, body=" + r.body().length + " bytes"
                    + (r.truncated() ? " (truncated)" : "");
        } else {
            what = "response refused, " + ((CapturedResponse.Refused) response).received().length
                    + " bytes received";
        }
        return "HttpExchange[url=" + url + ", date=" + date + ", remoteAddress=" + remoteAddress + ", request="
                + requestHead.length + " bytes, " + what + "]";
    }
}
