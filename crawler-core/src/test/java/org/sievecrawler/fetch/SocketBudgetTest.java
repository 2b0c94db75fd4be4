package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_MAX_CONNECTIONS;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileUnits;

class SocketBudgetTest {
    @ParameterizedTest(name = "{0} threads, {1} per host, max-connections {2}, delay {3}, fd limit {4}")
    @CsvFileSource(resources = "/fetch/socket-budgets.tsv", delimiter = '\t')
    void derivesTheSocketsACrawlMayHoldFromItsThreadsAndTheDescriptorLimit(int threads, int perHost,
            int maxConnections, String delay, long limit, int total, int inFlight, long keepAliveMillis) {
        CrawlProfile profile = CrawlProfile.defaults().with(FETCH_THREADS, threads)
                .with(POLITENESS_MAX_CONNECTIONS_PER_HOST, perHost).with(FETCH_MAX_CONNECTIONS, maxConnections)
                .with(POLITENESS_DELAY, ProfileUnits.parseDuration(delay));

        SocketBudget budget = SocketBudget.of(profile.fetch(), profile.politeness(), limit);

        assertThat(budget.total()).as("total").isEqualTo(total);
        assertThat(budget.inFlight()).as("in flight").isEqualTo(inFlight);
        assertThat(budget.idle()).as("idle").isEqualTo(total - inFlight);
        assertThat(budget.keepAlive()).as("keep-alive").isEqualTo(Duration.ofMillis(keepAliveMillis));
    }

    @Test
    void saysHowManySocketsAndWhichKeyChangesIt() {
        CrawlProfile profile = CrawlProfile.defaults().with(FETCH_THREADS, 16);

        String said = SocketBudget.of(profile.fetch(), profile.politeness(), 20_000).describe();

        assertThat(said).isEqualTo("sockets: at most 32 open (16 in use by the fetcher threads, 16 idle for up to"
                + " 2.0s) of the process's 20000 file descriptors; set fetch.max-connections to change it");
    }

    @Test
    void readsTheProcessDescriptorLimitOnUnix() {
        long limit = SocketBudget.processDescriptorLimit();

        assertThat(limit).as("ulimit -n of this JVM, or -1 off Unix").isNotZero().isGreaterThanOrEqualTo(-1);
    }
}
