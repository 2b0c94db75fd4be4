package org.sievecrawler.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.sievecrawler.fixtures.UrlCorpus;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.UrlNormalizer;

/**
 * {@code UrlNormalizer.normalize} of one absolute URL, with {@code scope.ignore-params} empty ({@code rule=none},
 * the normalizer as before the key) or at its default ({@code rule=default}: utm_*, gclid, fbclid, msclkid, mc_cid,
 * mc_eid), on 4,096 corpus URLs ({@code urls=corpus}: a quarter with a query of two parameters, none of them
 * named) or the same URLs each given {@code utm_source} and {@code utm_medium} ({@code urls=tracking}, removed
 * under the default rule). Score: ns per URL. The rule is built through reflection so that the same benchmark
 * runs, with {@code -p rule=none}, against a build from before the key.
 *
 * <pre>
 * mvn -o -q -B -pl crawler-core,src-test-fixtures,crawler-bench -am package -DskipTests
 * java -jar crawler-bench/target/benchmarks.jar LinkNormalization -f 2 -wi 3 -i 8
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LinkNormalization {
    private static final int COUNT = 4096;

    @Param({"none", "default"})
    public String rule;

    @Param({"corpus", "tracking"})
    public String urls;

    private UrlNormalizer normalizer;
    private String[] inputs;
    private int next;

    @Setup
    public void setUp() throws ReflectiveOperationException {
        normalizer = rule.equals("none") ? new UrlNormalizer()
                : UrlNormalizer.class.getConstructor(List.class).newInstance(
                        List.of("utm_*", "gclid", "fbclid", "msclkid", "mc_cid", "mc_eid"));
        UrlCorpus corpus = new UrlCorpus(30);
        inputs = new String[COUNT];
        for (int i = 0; i < COUNT; i++) {
            String url = corpus.url(i);
            inputs[i] = urls.equals("corpus") ? url
                    : url + (url.indexOf('?') < 0 ? '?' : '&') + "utm_source=newsletter&utm_medium=email";
        }
    }

    @Benchmark
    public LinkDecision normalize() {
        return normalizer.normalize(inputs[next++ & (COUNT - 1)]);
    }
}
