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
        assertThat(HostKey.robotsUrl("http://[::1]:81")).isEqualTo("http://[::1]:81/robots.txt");
    }

    @Test
    void refusesARelativeUrlNamingIt() {
        assertThatThrownBy(() -> HostKey.of("/relative/path"))
                .hasMessage("not an absolute URL: \"/relative/path\"");
    }
}
