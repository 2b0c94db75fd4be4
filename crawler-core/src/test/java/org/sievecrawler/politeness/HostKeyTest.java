package org.sievecrawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HostKeyTest {

    @Test
    void isTheSchemeHostAndPortOfAUrl() {
        assertThat(HostKey.of("https://example.org/a/b?c")).isEqualTo("https://example.org");
        assertThat(HostKey.of("http://127.0.0.1:8080/")).isEqualTo("http://127.0.0.1:8080");
        assertThat(HostKey.of("http://example.org?q=1")).isEqualTo("http://example.org");
        assertThat(HostKey.of("http://[::1]:81/x")).isEqualTo("http://[::1]:81");
    }

    @Test
    void hostIsTheSameForEverySchemeAndPortOfAHost() {
        assertThat(HostKey.host("http://example.org/a")).isEqualTo("example.org");
        assertThat(HostKey.host("https://example.org:8443/b?c")).isEqualTo("example.org");
        assertThat(HostKey.host("http://example.org?q=1")).isEqualTo("example.org");
        assertThat(HostKey.host("http://127.0.0.1:8080/")).isEqualTo("127.0.0.1");
        assertThat(HostKey.host("http://[::1]:81/x")).isEqualTo("[::1]");
        assertThat(HostKey.host("https://[2001:db8::1]/")).isEqualTo("[2001:db8::1]");
        assertThat(HostKey.host("http://user@example.org:81/")).isEqualTo("example.org");
    }

    @Test
    void hostRefusesAUrlWithoutHostNamingIt() {
        assertThatThrownBy(() -> HostKey.host("http://:80/")).hasMessage("URL has no host: \"http://:80/\"");
        assertThatThrownBy(() -> HostKey.host("/relative")).hasMessage("not an absolute URL: \"/relative\"");
    }

    @Test
    void refusesARelativeUrlNamingIt() {
        assertThatThrownBy(() -> HostKey.of("/relative/path"))
                .hasMessage("not an absolute URL: \"/relative/path\"");
    }
}
