package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LiveProgressTest {
    @Test
    void withoutATerminalNothingIsShownAndTheMessagesGoWhereTheyWent() {
        PrintWriter err = new PrintWriter(new StringWriter());
        LiveProgress off = LiveProgress.start(Optional.empty(), Optional::empty);
        assertThat(off).isSameAs(LiveProgress.OFF);
        assertThat(off.messages(err)).isSameAs(err);
        off.close();
        off.close();
    }
}
