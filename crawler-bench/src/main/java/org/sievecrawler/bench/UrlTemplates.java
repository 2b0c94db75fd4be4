package org.sievecrawler.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.sievecrawler.fixtures.UrlCorpus;
import org.sievecrawler.learn.Learner;
import org.sievecrawler.learn.RuleListener;
import org.sievecrawler.learn.TemplateStats;
import org.sievecrawler.learn.UrlTemplate;

/**
 * What issue 30's learning costs a URL: {@code UrlTemplate.of}, {@code TemplateStats.record} of a fetched page (the
 * template and the counters under the lock), {@code Learner.observe} of a fetched page (all the learning does with
 * it) and {@code Learner.rewrite} of a link with no rule for its host, over 65,536
 * URLs of the synthetic {@link UrlCorpus} (seed 42: 5,000 hosts, 1 to 4 path segments, some queries) taken in turn.
 * Score: ns per URL, one thread.
 *
 * <pre>
 * mvn -o -q -B -pl src-test-fixtures,crawler-core,crawler-bench -am package -DskipTests
 * java -jar crawler-bench/target/benchmarks.jar UrlTemplates -f 1 -wi 2 -i 4
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class UrlTemplates {
    private static final int URLS = 1 << 16;
    private String[] urls;
    private TemplateStats stats;
    private Learner learner;
    private int next;

    @Setup
    public void setUp() {
        urls = new UrlCorpus(42).urls(0, URLS);
        stats = new TemplateStats(TemplateStats.Caps.DEFAULTS);
        learner = Learner.learning(RuleListener.NONE);
    }

    @Benchmark
    public UrlTemplate template() {
        return UrlTemplate.of(urls[next++ & (URLS - 1)]);
    }

    /**
     * What a fetched page costs the learning now that it is wired: {@code Learner.observe} (the template's counts,
     * the alias pairs of its parameters and first segments, the rules' tests).
     */
    @Benchmark
    public Learner observe() {
        int i = next++ & (URLS - 1);
        learner.observe(urls[i], i * 0x9E3779B97F4A7C15L | 1);
        return learner;
    }

    /** What a link costs when no rule holds for its host: {@code Learner.rewrite}, the learning's link step. */
    @Benchmark
    public String rewrite() {
        return learner.rewrite(urls[next++ & (URLS - 1)]);
    }

    @Benchmark
    public TemplateStats record() {
        int i = next++ & (URLS - 1);
        stats.record(urls[i], i * 0x9E3779B97F4A7C15L);
        return stats;
    }
}
