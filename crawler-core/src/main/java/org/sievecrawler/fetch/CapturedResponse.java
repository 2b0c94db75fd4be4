package org.sievecrawler.fetch;

/**
 * The response of a captured {@link HttpExchange}, as the crawler has it for the archive: {@link Received}, the bytes
 * as they came off the socket; {@link Rebuilt}, a head written again from OkHttp's parsed fields when those bytes
 * could not be had; or {@link Refused}, what came back when OkHttp refused it as an HTTP response.
 *
 * <p>Immutable by convention: the arrays are handed over, not copied; a body may be the very array of the fetched
 * page (when it was not content-coded).
 */
public sealed interface CapturedResponse {

    /**
     * A response exactly as received. The head's bytes are the server's, however they break HTTP's grammar
     * (OkHttp accepted them); what OkHttp read as lines and heads is {@link WireFraming}'s.
     *
     * @param head the final response's status line through the empty line that ends its head
     * @param interim the interim (1xx) response heads received before it, one after the other; empty when none
     * @param body the body as received: content coding kept (a gzip body stays gzip), chunked transfer coding kept
     *     (sizes, extensions, trailers), at most the fetch's cap
     * @param payload the body without its chunked coding (what WARC calls the payload: transfer-decoded, not
     *     content-decoded); the same array as {@code body} when the body was not chunked
     * @param truncated whether the body stops before its end (the cap)
     */
    record Received(byte[] head, byte[] interim, byte[] body, byte[] payload, boolean truncated)
            implements CapturedResponse {

        /** Whether the body has the chunked transfer coding: it is not the payload itself. */
        public boolean chunked() {
            return body != payload;
        }
    }

    /**
     * A response whose head could not be had as received, written again from OkHttp's parsed status and fields
     * ({@code Name: value} lines in their order and case, without {@code Transfer-Encoding: chunked}).
     *
     * @param head the rebuilt status line and fields, each ending with CRLF, then the empty line
     * @param body the body without its chunked coding, content coding kept, at most the fetch's cap
     * @param truncated whether the body stops before its end (the cap)
     * @param why why the bytes as received could not be had, as a sentence
     */
    record Rebuilt(byte[] head, byte[] body, boolean truncated, String why) implements CapturedResponse {
    }

    /**
     * What came back for a request when OkHttp refused it as an HTTP response (a status line it cannot read, a
     * head over its 256 KiB): the bytes as received, from the first, as far as OkHttp had read them when it gave
     * up (maybe not the whole head, never more than one read past it).
     *
     * @param received those bytes, maybe none
     * @param why the fetch's failure, as a sentence
     */
    record Refused(byte[] received, String why) implements CapturedResponse {
    }
}
