package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.sievecrawler.sieve.BlockedPlan;
import org.sievecrawler.sieve.FilterPlan;
import org.sievecrawler.sieve.SieveLayout;
import org.sievecrawler.sieve.SievePlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code crawler sieve-plan --expected N --fpp P [--layout classic|blocked]}: the Sieve's Bloom filter for n URLs
 * at false-positive rate p, from {@link SieveLayout#plan} ({@link SievePlan} or {@link BlockedPlan}): bits, hash
 * count, memory in decimal and binary units, and the expected false-positive rate at n, 2n and 4n by the layout's
 * own formula; for the blocked layout also its blocks and its bits beside the classic plan's.
 */
@Command(name = "sieve-plan", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Sizes the Sieve's Bloom filter for n URLs at false-positive rate p.",
            "classic: bits m = -n ln p / (ln 2)^2, hash count k = (m/n) ln 2, the memory, and the false-positive"
                    + " rate (1 - e^(-kx/m))^k once x = n, 2n and 4n URLs are in it.",
            "blocked: all k bits of a URL in one 512-bit block (one cache miss); its rate is the block's rate"
                    + " averaged over the Poisson load of a block (Putze et al. 2007), so it needs more bits for the"
                    + " same p."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:printed the plan", " 2:usage error (e.g. p not in (0, 1))"})
final class SievePlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Option(names = "--expected", required = true, paramLabel = "N", converter = CountConverter.class,
            description = "n, the distinct URLs expected, e.g. 1e9 or 1000000000 (sieve.expected-urls).")
    long expected;

    @Option(names = "--fpp", required = true, paramLabel = "P",
            description = "p, the false-positive rate wanted at n, e.g. 1e-4 (sieve.false-positive-rate).")
    double fpp;

    @Option(names = "--layout", paramLabel = "LAYOUT", defaultValue = "classic", converter = LayoutConverter.class,
            description = "classic (default) or blocked: where a URL's k bits go.")
    SieveLayout layout;

    @Override
    public Integer call() {
        logging.apply();
        FilterPlan plan;
        try {
            plan = layout.plan(expected, fpp);
        } catch (IllegalArgumentException e) {
            UsageErrors.print(spec.commandLine().getErr(), "sieve-plan: " + e.getMessage()
                    .replace("expectedInsertions", "--expected").replace("falsePositiveRate", "--fpp"));
            return CrawlerCommand.USAGE;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(String.format(Locale.ROOT, "Sieve plan for n = %,d URLs at p = %s, %s layout", expected,
                new BigDecimal(Double.toString(fpp)).stripTrailingZeros().toPlainString(), layout.key()));
        out.println(String.format(Locale.ROOT, "  bits (m)        %,d (%.2f bits per URL)", plan.bits(),
                plan.bitsPerUrl()));
        if (plan instanceof BlockedPlan blocked) {
            long classic = SievePlan.of(expected, fpp).bits();
            out.println(String.format(Locale.ROOT, "  blocks          %,d of 512 bits (%+.1f%% bits against the classic"
                    + " layout's %,d)", blocked.blocks(), 100.0 * (plan.bits() - classic) / classic, classic));
        }
        out.println(String.format(Locale.ROOT, "  hashes (k)      %d", plan.hashCount()));
        out.println(String.format(Locale.ROOT, "  memory          %s (%s, %,d bytes)", SievePlan.decimalBytes(plan.bytes()),
                SievePlan.humanBytes(plan.bytes()), plan.bytes()));
        out.println("  false-positive rate once x distinct URLs are in it:");
        for (int times : new int[] {1, 2, 4}) {
            long x = expected * times;
            out.println(String.format(Locale.ROOT, "    x = %-3s %,d: %.3g%%", times == 1 ? "n" : times + "n", x,
                    plan.rateAt(x) * 100));
        }
        out.flush();
        return 0;
    }

    /** "classic" or "blocked", in any case. */
    static final class LayoutConverter implements ITypeConverter<SieveLayout> {
        @Override
        public SieveLayout convert(String value) {
            for (SieveLayout layout : SieveLayout.values()) {
                if (layout.key().equalsIgnoreCase(value.strip())) {
                    return layout;
                }
            }
            throw new TypeConversionException("\"" + value + "\" is not a layout: write classic or blocked");
        }
    }

    /** A count written as a whole number, with optional '_' separators or in exponent form: 1e9, 1_000_000. */
    static final class CountConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return new BigDecimal(value.replace("_", "")).longValueExact();
            } catch (ArithmeticException | NumberFormatException e) {
                throw new TypeConversionException("\"" + value
                        + "\" is not a whole number: write e.g. 1000000, 1_000_000 or 1e6");
            }
        }
    }
}
