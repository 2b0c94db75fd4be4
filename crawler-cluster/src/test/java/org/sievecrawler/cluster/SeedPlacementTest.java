package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.TsvTable;

class SeedPlacementTest {
    private static final String TABLE = "/cluster/seed-placement.tsv";

    private static List<String> hosts(int count) {
        return IntStream.range(0, count).mapToObj(i -> "h" + i + ".example").toList();
    }

    /** The partition of each host in order, -1 for one not placed. */
    private static List<Integer> placed(int partitions, int count) {
        Map<String, Integer> placed = SeedPlacement.spread(hosts(count), partitions);
        List<Integer> at = new ArrayList<>();
        hosts(count).forEach(h -> at.add(placed.getOrDefault(h, -1)));
        return at;
    }

    /** The seed hosts of each process of {@code owner} (a layout: the process of every partition). */
    private static int[] load(int[] owner, List<Integer> placed) {
        int processes = IntStream.of(owner).max().orElse(0) + 1;
        int[] load = new int[processes];
        placed.stream().filter(p -> p >= 0).forEach(p -> load[owner[p]]++);
        return load;
    }

    @Test
    void theSeedHostsOfEachRowGoWhereTheTableSaysAndTwoProcessesShareThemInBothLayouts() throws Exception {
        for (TsvTable.Row row : TsvTable.rows(TABLE, 4)) {
            int partitions = Integer.parseInt(row.cell(0));
            int count = Integer.parseInt(row.cell(1));
            List<Integer> expected = new ArrayList<>();
            for (String cell : row.cell(2).split(",")) {
                expected.add(cell.equals("-") ? -1 : Integer.parseInt(cell));
            }
            List<Integer> placed = placed(partitions, count);
            assertThat(placed).as(row.where() + " " + row.cell(3)).isEqualTo(expected);
            for (int[] owner : SeedPlacement.layouts(partitions, 2)) {
                int[] load = load(owner, placed);
                assertThat(IntStream.of(load).max().getAsInt() - IntStream.of(load).min().getAsInt())
                        .as(row.where() + ": 2 processes own %s seed hosts", java.util.Arrays.toString(load))
                        .isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void twoProcessesAlwaysShareTheHostsWithinOneForEveryCountOfPartitionsAndHosts() {
        for (int partitions = 2; partitions <= 24; partitions++) {
            for (int count = 2; count <= Math.min(partitions, 8); count++) {
                List<Integer> placed = placed(partitions, count);
                for (int[] owner : SeedPlacement.layouts(partitions, 2)) {
                    int[] load = load(owner, placed);
                    assertThat(IntStream.of(load).max().getAsInt() - IntStream.of(load).min().getAsInt())
                            .as("%d hosts on %d partitions: 2 processes own %s", count, partitions,
                                    java.util.Arrays.toString(load))
                            .isLessThanOrEqualTo(1);
                }
            }
        }
    }

    @Test
    void theLayoutsAreTheAssignorsTogetherAndOneAfterAnother() {
        List<int[]> layouts = SeedPlacement.layouts(12, 3);

        assertThat(layouts).hasSize(4);
        assertThat(layouts.get(0)).as("2 together: even and odd").containsExactly(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1);
        assertThat(layouts.get(1)).as("2 one after the other: halves")
                .containsExactly(0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1);
        assertThat(layouts.get(2)).as("3 together").containsExactly(0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2);
        assertThat(layouts.get(3)).as("3 one after another: the third takes the end of each")
                .containsExactly(0, 0, 0, 0, 2, 2, 1, 1, 1, 1, 2, 2);
    }

    @Test
    void aRepeatedHostIsPlacedOnceAndOneHostGoesToPartitionZero() {
        assertThat(SeedPlacement.spread(List.of("a.example", "a.example", "b.example"), 12))
                .containsExactly(Map.entry("a.example", 0), Map.entry("b.example", 7));
        assertThat(SeedPlacement.spread(List.of(), 12)).isEmpty();
    }

    @Test
    void routesSendAPlacedHostToItsPartitionAndAnyOtherWhereKafkasPartitionerDoes() {
        HostRoutes routes = new HostRoutes(12, Map.of("a.example", 7));

        assertThat(routes.partition("a.example")).isEqualTo(7);
        assertThat(routes.placement("a.example")).hasValue(7);
        assertThat(routes.partition("b.example")).isEqualTo(MockFrontier.partition("b.example", 12));
        assertThat(routes.placement("b.example")).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new HostRoutes(12, Map.of("a.example", 12)))
                .hasMessage("host a.example is placed on partition 12, not one of the 12 partitions 0-11");
    }
}
