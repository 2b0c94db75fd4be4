package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ErrTerminalTest {
    @Test
    void pseudoTerminalsAndConsolesAreTerminalsFilesAndPipesAreNot() {
        assertThat(ErrTerminal.isTerminalDevice("/dev/pts/3")).isTrue();
        assertThat(ErrTerminal.isTerminalDevice("/dev/tty1")).isTrue();
        assertThat(ErrTerminal.isTerminalDevice("/dev/tty")).isTrue();
        assertThat(ErrTerminal.isTerminalDevice("pipe:[12345]")).isFalse();
        assertThat(ErrTerminal.isTerminalDevice("/tmp/crawl/err.log")).isFalse();
        assertThat(ErrTerminal.isTerminalDevice("/dev/null")).isFalse();
        assertThat(ErrTerminal.isTerminalDevice("/dev/ttyUSB0")).isFalse();
    }

    @Test
    void theWidthIsPositive() {
        assertThatThrownBy(() -> new ErrTerminal(0)).hasMessage("terminal width must be > 0, got 0");
    }
}
