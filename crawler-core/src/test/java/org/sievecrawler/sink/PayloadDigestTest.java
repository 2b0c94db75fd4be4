package org.sievecrawler.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PayloadDigestTest {

    @Test
    void isTheSha1InBase32AsWarcWritesIt() {
        byte[] body = "abc and what follows the length".getBytes(StandardCharsets.US_ASCII);
        // python3: base64.b32encode(hashlib.sha1(b'abc').digest())
        assertThat(PayloadDigest.of(body, 3)).isEqualTo("sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
        assertThat(PayloadDigest.of(body, 0)).isEqualTo("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }

    @Test
    void tellsADigestFromOtherText() {
        assertThat(PayloadDigest.isDigest("sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5")).isTrue();
        assertThat(PayloadDigest.isDigest("sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE1")).isFalse();
        assertThat(PayloadDigest.isDigest("sha1:vgmt4nsha2awvor6evyxqugcnsonbwe5")).isFalse();
        assertThat(PayloadDigest.isDigest("md5:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5")).isFalse();
    }
}
