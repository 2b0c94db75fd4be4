package org.sievecrawler.address;

import org.sievecrawler.fixtures.TsvTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sievecrawler.address.SpecialRange.Reach;

class SpecialRangesTest {
    /** The table test's rows: address, verdict, deciding range, table row, comment. */
    static List<String[]> samples() throws IOException {
        return TsvTable.cells("/address/special-addresses.tsv", 5);
    }

    /** The table's row for a CIDR as written in it. */
    static SpecialRange row(String cidr) {
        return SpecialRanges.TABLE.stream().filter(r -> r.cidr().equals(cidr)).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + cidr + " in the table"));
    }

    @Test
    void samplesEveryRowOfTheTable() throws IOException {
        Set<String> sampled = new HashSet<>();
        for (String[] sample : samples()) {
            sampled.add(sample[3]);
            if (!sample[2].equals("-")) {
                row(sample[2]);
            }
        }
        assertThat(SpecialRanges.TABLE).allSatisfy(r -> assertThat(sampled).as("a sample in %s", r).contains(r.cidr()));
    }

    @Test
    void givesEachSampleTheVerdictAndRowOfTheTableTest() throws IOException {
        for (String[] sample : samples()) {
            byte[] address = IpLiteral.bytes(sample[0]);
            assertThat(address).as(sample[0]).isNotNull();
            SpecialRange containing = SpecialRanges.rowOf(address);
            assertThat(containing == null ? "-" : containing.cidr()).as("row of %s (%s)", sample[0], sample[4])
                    .isEqualTo(sample[3]);
            Verdict verdict = SpecialRanges.check(address);
            assertThat(verdict.refused()).as("%s (%s) refused", sample[0], sample[4])
                    .isEqualTo(sample[1].equals("refused"));
            if (!sample[2].equals("-")) {
                assertThat(verdict.range()).as("%s (%s)", sample[0], sample[4]).contains(row(sample[2]).toString());
            }
        }
    }

    @Test
    void keepsOneRowPerBlockEachInCanonicalForm() {
        Set<String> blocks = new HashSet<>();
        for (SpecialRange range : SpecialRanges.TABLE) {
            assertThat(blocks.add(range.cidr())).as("%s listed once", range).isTrue();
            assertThat(range.reference()).as("%s", range).matches("RFC \\d+");
        }
        assertThat(SpecialRanges.TABLE).hasSizeGreaterThan(50);
    }

    @Test
    void refusesABlockWithBitsPastItsPrefix() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new SpecialRange("100.65.0.0/10", "shared address space", Reach.REFUSED, "RFC 6598"))
                .withMessage("special range \"100.65.0.0/10\" (shared address space) has bits set past its /10 prefix;"
                        + " write the block's first address");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new SpecialRange("10.0.0.0/8", "x", Reach.IPV4_IN_LAST_32_BITS, "RFC 1"))
                .withMessageContaining("must be an IPv6 block");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new SpecialRange("10.0.0.0/33", "x", Reach.REFUSED, "RFC 1"))
                .withMessageContaining("\"10.0.0.0/33\"");
    }

    @Test
    void namesTheRangeAndTheAddressInsideAnEmbeddingForm() {
        assertThat(SpecialRanges.checkHost("100.100.100.200"))
                .isEqualTo(new Verdict(true, "100.64.0.0/10 shared address space"));
        assertThat(SpecialRanges.checkHost("2002:a00:1::"))
                .isEqualTo(new Verdict(true, "2002::/16 6to4 with 10.0.0.1 inside, in 10.0.0.0/8 private-use"));
        assertThat(SpecialRanges.checkHost("2002:808:808::1"))
                .isEqualTo(new Verdict(false, "2002::/16 6to4 with 8.8.8.8 inside"));
        assertThat(SpecialRanges.checkHost("0x7f.1")).isEqualTo(new Verdict(true, "127.0.0.0/8 loopback"));
        assertThat(SpecialRanges.checkHost("api.LOCALHOST.")).isEqualTo(new Verdict(true,
                "the localhost domain (RFC 6761)"));
        assertThat(SpecialRanges.checkHost("example.org")).isEqualTo(Verdict.UNLISTED);
        assertThat(SpecialRanges.checkHost("localhost.example.org")).isEqualTo(Verdict.UNLISTED);
    }
}
