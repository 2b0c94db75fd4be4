package org.sievecrawler.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A topic of the crawl checked against the cluster: {@link Missing}, {@link Matches} or {@link Differs}. A topic
 * matches when it has the partitions asked and is compacted exactly when the design says; its replication factor
 * may differ (partitions can be reassigned to more brokers without touching the crawl), and is reported.
 * Immutable and thread-safe.
 */
public sealed interface TopicCheck {
    /** The topic as designed. */
    TopicSpec spec();

    /** The topic does not exist. */
    record Missing(TopicSpec spec) implements TopicCheck {
    }

    /** The topic exists as designed. */
    record Matches(TopicSpec spec, TopicState state) implements TopicCheck {
    }

    /** The topic exists otherwise than designed: one line per difference, naming what it has and what is expected. */
    record Differs(TopicSpec spec, TopicState state, List<String> problems) implements TopicCheck {
        public Differs {
            problems = List.copyOf(problems);
        }
    }

    /** Compares what exists ({@code state}, empty when the topic does not exist) with the design. */
    static TopicCheck of(TopicSpec spec, Optional<TopicState> state) {
        if (state.isEmpty()) {
            return new Missing(spec);
        }
        TopicState has = state.get();
        List<String> problems = new ArrayList<>();
        if (has.partitions() != spec.partitions()) {
            problems.add("has " + has.partitions() + " partitions, expected " + spec.partitions()
                    + " (a crawl's partitions are fixed for its life: hosts are routed by partition)");
        }
        if (has.compacted() != spec.compacted()) {
            problems.add("has " + TopicSpec.CLEANUP_POLICY + "=" + has.cleanupPolicy() + ", expected "
                    + spec.cleanupPolicy() + (spec.compacted()
                            ? " (it keeps the last Sieve snapshot of each partition)"
                            : " (a compacted frontier would drop URLs of the same host)"));
        }
        return problems.isEmpty() ? new Matches(spec, has) : new Differs(spec, has, problems);
    }
}
