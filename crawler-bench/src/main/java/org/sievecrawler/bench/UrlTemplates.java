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
import org.sievecrawler.learn.TemplateStats;
import org.sievecrawler.learn.UrlTemplate;

/**
 * What issue 30's learning costs a URL: {@code UrlTemplate.of} of a link (run for every link once wired), and
 * {@code TemplateStats.record} of a fetched page (the template and the counters under the lock), over 65,536
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
    private int next;

    @Setup
    public void setUp() {
        urls = new UrlCorpus(42).urls(0, URLS);
        stats = new TemplateStats(TemplateStats.Caps.DEFAULTS);
    }

    @Benchmark
    public UrlTemplate template() {
        return UrlTemplate.of(urls[next++ & (URLS - 1)]);
    }

    @Benchmark
    public TemplateStats record() {
        int i = next++ & (URLS - 1);
        stats.record(urls[i], i * 0x9E3779B97F4A7C15L);
        return stats;
    }
}
