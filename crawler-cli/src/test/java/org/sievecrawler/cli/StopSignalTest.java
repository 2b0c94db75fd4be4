package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.sievecrawler.cli.StopSignal.Request;

class StopSignalTest {
    @Test
    void whatStopsAtOnceFollowsWhatAskedFirst() {
        assertThat(Request.CTRL_C.atOnce(4242)).isEqualTo("Ctrl-C again to stop at once");
        assertThat(Request.SIGTERM.atOnce(4242)).isEqualTo("kill 4242 again to stop at once");
        assertThat(Request.SHUTDOWN.atOnce(4242)).isEqualTo("kill 4242 to stop at once");
    }

    @Test
    void theProcessNamedIsThisOne() {
        assertThat(Request.SIGTERM.atOnce()).isEqualTo("kill " + ProcessHandle.current().pid()
                + " again to stop at once");
    }
}
