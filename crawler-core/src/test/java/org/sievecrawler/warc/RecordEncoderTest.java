package org.sievecrawler.warc;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.WarcWriter;
import org.sievecrawler.fetch.CapturedResponse;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.profile.WarcCompression;

/**
 * The response and request records the encoder writes itself are, byte for byte, the records jwarc's builders and
 * {@link WarcWriter} make of the same exchange (as the encoder wrote them before it formatted them itself).
 */
class RecordEncoderTest {
    private static final Pattern RECORD_ID = Pattern.compile("WARC-Record-ID: <urn:uuid:([0-9a-f-]{36})>");

    @Test
    void writesTheResponseAndRequestThatJwarcWouldWrite() throws Exception {
        HttpExchange page = WarcArchiveTest.exchange("/docs/page.html", "<p>page</p>".repeat(3000));
        assertSameAsJwarc(page, WarcCompression.GZIP);
        assertSameAsJwarc(page, WarcCompression.ZSTD);
    }

    @Test
    void writesWhatJwarcWouldForATruncatedBodyAnEmptyOneAndNoAddress() throws Exception {
        HttpExchange cut = WarcArchiveTest.exchange("/huge", 200, "OK", "text/html", "x".repeat(100).getBytes(
                StandardCharsets.US_ASCII), true);
        HttpExchange empty = WarcArchiveTest.exchange("/empty", 204, "No Content", "text/plain", new byte[0], false);
        HttpExchange noAddress = new HttpExchange("http://example.org/a?b=c&d", Instant.parse(
                "2026-03-01T12:34:56.123456789Z"), null, cut.requestHead(), received(cut).head(), received(cut).body(),
                false);
        for (HttpExchange exchange : new HttpExchange[] {cut, empty, noAddress}) {
            assertSameAsJwarc(exchange, WarcCompression.ZSTD);
        }
    }

    @Test
    void writesAChunkedBodyAsReceivedWithThePayloadDigestOfItsData() throws Exception {
        HttpExchange page = WarcArchiveTest.exchange("/x", "<p>x</p>");
        byte[] head = ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] body = "4\r\n<p>x\r\n4;a=b\r\n</p>\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        HttpExchange chunked = new HttpExchange(page.url(), page.date(), page.remoteAddress(), page.requestHead(),
                new CapturedResponse.Received(head, new byte[0], body, "<p>x</p>".getBytes(StandardCharsets.US_ASCII),
                        false));
        assertSameAsJwarc(chunked, WarcCompression.GZIP);
    }

    @Test
    void writesATargetUriOutsideAsciiAsUtf8() throws Exception {
        HttpExchange page = WarcArchiveTest.exchange("/x", "<p>x</p>");
        HttpExchange unicode = new HttpExchange("http://example.org/caf\u00e9/\ud83d\ude00", page.date(),
                page.remoteAddress(), page.requestHead(), received(page).head(), received(page).body(), false);
        assertSameAsJwarc(unicode, WarcCompression.GZIP);
    }

    @Test
    void percentEncodesAControlCharacterSoThatAValueCannotEndTheHeader() throws Exception {
        HttpExchange page = WarcArchiveTest.exchange("/x", "<p>x</p>");
        HttpExchange injected = new HttpExchange("http://example.org/a\r\nWARC-Type: resource", page.date(),
                page.remoteAddress(), page.requestHead(), received(page).head(), received(page).body(), false);
        try (RecordEncoder encoder = new RecordEncoder(WarcCompression.GZIP)) {
            String record = new String(gunzip(encoder.response(injected, UUID.randomUUID())),
                    StandardCharsets.UTF_8);
            assertThat(record).contains("WARC-Target-URI: http://example.org/a%0D%0AWARC-Type: resource\r\n")
                    .containsOnlyOnce("\r\nWARC-Type: ");
        }
    }

    private static void assertSameAsJwarc(HttpExchange exchange, WarcCompression compression) throws Exception {
        UUID responseId = UUID.randomUUID();
        byte[] response;
        byte[] request;
        try (RecordEncoder encoder = new RecordEncoder(compression)) {
            response = decompress(encoder.response(exchange, responseId), compression);
            request = decompress(encoder.request(exchange, responseId), compression);
        }
        Matcher id = RECORD_ID.matcher(new String(request, StandardCharsets.UTF_8));
        assertThat(id.find()).as("the request's record ID").isTrue();

        assertThat(new String(response, StandardCharsets.UTF_8))
                .isEqualTo(new String(jwarcResponse(exchange, responseId), StandardCharsets.UTF_8));
        assertThat(response).isEqualTo(jwarcResponse(exchange, responseId));
        assertThat(request).isEqualTo(jwarcRequest(exchange, responseId, UUID.fromString(id.group(1))));
    }

    static CapturedResponse.Received received(HttpExchange exchange) {
        return (CapturedResponse.Received) exchange.response();
    }

    /** The response record as the encoder built it with jwarc. */
    private static byte[] jwarcResponse(HttpExchange exchange, UUID id) throws IOException {
        byte[] head = received(exchange).head();
        byte[] body = received(exchange).body();
        byte[] block = new byte[head.length + body.length];
        System.arraycopy(head, 0, block, 0, head.length);
        System.arraycopy(body, 0, block, head.length, body.length);
        WarcResponse.Builder builder = new WarcResponse.Builder(exchange.url()).version(MessageVersion.WARC_1_1)
                .recordId(id).date(exchange.date()).body(MediaType.HTTP_RESPONSE, block)
                .blockDigest(sha1(block)).payloadDigest(sha1(received(exchange).payload()));
        if (exchange.remoteAddress() != null) {
            builder.setHeader("WARC-IP-Address", exchange.remoteAddress());
        }
        if (received(exchange).truncated()) {
            builder.truncated(WarcTruncationReason.LENGTH);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new WarcWriter(out).write(builder.build());
        return out.toByteArray();
    }

    /** The request record as the encoder built it with jwarc, given the record ID it drew. */
    private static byte[] jwarcRequest(HttpExchange exchange, UUID responseId, UUID id) throws IOException {
        byte[] head = exchange.requestHead();
        WarcRequest.Builder builder = new WarcRequest.Builder(exchange.url()).version(MessageVersion.WARC_1_1)
                .recordId(id).date(exchange.date()).body(MediaType.HTTP_REQUEST, head).blockDigest(sha1(head))
                .concurrentTo(RecordEncoder.urn(responseId));
        if (exchange.remoteAddress() != null) {
            builder.setHeader("WARC-IP-Address", exchange.remoteAddress());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new WarcWriter(out).write(builder.build());
        return out.toByteArray();
    }

    private static WarcDigest sha1(byte[] bytes) {
        try {
            return new WarcDigest("sha1", MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] decompress(byte[] unit, WarcCompression compression) throws IOException {
        return compression == WarcCompression.GZIP ? gunzip(unit)
                : Zstd.decompress(unit, (int) Zstd.getFrameContentSize(unit));
    }

    private static byte[] gunzip(byte[] member) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(member))) {
            return in.readAllBytes();
        }
    }
}
