package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import okio.Buffer;
import org.junit.jupiter.api.Test;

class CappedBodyTest {
    private static Buffer bytes(int count) {
        return new Buffer().write(new byte[count]);
    }

    @Test
    void readsABodyShorterThanTheCapWhole() throws IOException {
        CappedBody body = CappedBody.read(bytes(10), 11);

        assertThat(body.bytes()).hasSize(10);
        assertThat(body.truncated()).isFalse();
    }

    @Test
    void readsABodyOfExactlyTheCapWithoutTruncating() throws IOException {
        CappedBody body = CappedBody.read(bytes(100), 100);

        assertThat(body.bytes()).hasSize(100);
        assertThat(body.truncated()).isFalse();
    }

    @Test
    void cutsABodyOneByteOverTheCap() throws IOException {
        CappedBody body = CappedBody.read(bytes(101), 100);

        assertThat(body.bytes()).hasSize(100);
        assertThat(body.truncated()).isTrue();
    }

    @Test
    void leavesTheRestOfALongBodyUnread() throws IOException {
        Buffer source = bytes(1_000_000);

        CappedBody body = CappedBody.read(source, 1000);

        assertThat(body.truncated()).isTrue();
        assertThat(source.size()).isEqualTo(1_000_000 - 1001);
    }

    @Test
    void readsAnEmptyBody() throws IOException {
        CappedBody body = CappedBody.read(bytes(0), 100);

        assertThat(body.bytes()).isEmpty();
        assertThat(body.truncated()).isFalse();
    }
}
