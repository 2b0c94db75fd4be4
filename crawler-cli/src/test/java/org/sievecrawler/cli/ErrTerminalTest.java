package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
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
    void mostTerminalsReflowTheirLinesButXtermAndTheLinuxConsoleCutThem() {
        assertThat(ErrTerminal.reflows(Map.of("TERM", "xterm-256color", "VTE_VERSION", "7600"))).isTrue();
        assertThat(ErrTerminal.reflows(Map.of("TERM", "screen", "TMUX", "/tmp/tmux-0/default,1,0"))).isTrue();
        assertThat(ErrTerminal.reflows(Map.of())).isTrue();
        assertThat(ErrTerminal.reflows(Map.of("TERM", "xterm", "XTERM_VERSION", "XTerm(379)"))).isFalse();
        assertThat(ErrTerminal.reflows(Map.of("TERM", "tmux-256color", "XTERM_VERSION", "XTerm(379)",
                "TMUX", "/tmp/tmux-0/default,1,0"))).as("tmux inside xterm").isTrue();
        assertThat(ErrTerminal.reflows(Map.of("TERM", "linux"))).isFalse();
    }

    @Test
    void theWidthIsPositive() {
        assertThatThrownBy(() -> new ErrTerminal(0)).hasMessage("terminal width must be > 0, got 0");
    }
}
