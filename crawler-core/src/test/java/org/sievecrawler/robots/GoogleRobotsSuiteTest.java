package org.sievecrawler.robots;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.sievecrawler.fixtures.TsvTable;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Google's robots.txt expectations ({@code google/robotstxt} robots_test.cc, in
 * {@code /robots/google-robotstxt-cases.tsv}) run through {@link RobotsPolicy}: each row's body as a 200 answer,
 * its agent as the crawler's agent name, its URL through {@link RobotsRules#allows}. A row with a known difference
 * must still differ, so a difference that goes away (a fix here or in crawler-commons) fails until the table says so.
 */
class GoogleRobotsSuiteTest {
    private static final String RESOURCE = "/robots/google-robotstxt-cases.tsv";
    /** The verdict when {@link RobotsPolicy} refuses the row's agent name. */
    private static final String REFUSED_AGENT = "agent name refused";

    /** One row of the table. */
    record Case(int line, String name, byte[] body, String agent, String url, String expected, String known) {
        @Override
        public String toString() {
            return RESOURCE + ":" + line + " " + name;
        }
    }

    static List<Case> cases() throws IOException {
        List<Case> cases = new ArrayList<>();
        for (TsvTable.Row row : TsvTable.rows(RESOURCE, 6)) {
            String[] c = row.cells();
            if (!(c[4].equals("allowed") || c[4].equals("disallowed"))) {
                throw new IllegalStateException(row.where() + ": expected allowed or disallowed in the fifth column,"
                        + " found \"" + c[4] + "\"");
            }
            int line = Integer.parseInt(row.where().substring(row.where().lastIndexOf(':') + 1));
            cases.add(new Case(line, c[0], unescape(c[1], row.where()),
                    new String(unescape(c[2], row.where()), StandardCharsets.UTF_8),
                    new String(unescape(c[3], row.where()), StandardCharsets.UTF_8), c[4], c[5]));
        }
        return cases;
    }

    /** The table's escapes: \n \r \t \\ and \xHH (one raw byte); other characters as their UTF-8 bytes. */
    static byte[] unescape(String field, String where) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c != '\\') {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            char next = i + 1 < field.length() ? field.charAt(i + 1) : ' ';
            switch (next) {
                case 'n' -> out.write('\n');
                case 'r' -> out.write('\r');
                case 't' -> out.write('\t');
                case '\\' -> out.write('\\');
                case 'x' -> {
                    out.write(Integer.parseInt(field.substring(i + 2, i + 4), 16));
                    i += 2;
                }
                default -> throw new IllegalStateException(where + ": unknown escape \\" + next + " in " + field);
            }
            i++;
        }
        return out.toByteArray();
    }

    /** What the crawler answers for a row: allowed, disallowed, or {@link #REFUSED_AGENT}. */
    static String verdict(Case c) {
        RobotsPolicy policy;
        try {
            policy = new RobotsPolicy(c.agent(), Duration.ofSeconds(30));
        } catch (IllegalArgumentException refused) {
            return REFUSED_AGENT;
        }
        RobotsRules rules = policy.interpret("http://foo.bar/robots.txt", 200, c.body(), null);
        return rules.allows(c.url()) ? "allowed" : "disallowed";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void answersAsGoogleDoesOrDiffersAsTheTableSays(Case c) {
        String verdict = verdict(c);
        if (c.known().isEmpty()) {
            assertThat(verdict).as("%s: agent %s, URL %s", c, c.agent(), c.url()).isEqualTo(c.expected());
        } else {
            assertThat(verdict).as("%s: agent %s, URL %s is listed as a known difference (%s) but now agrees with"
                    + " Google; empty its last column and update the README's pass rate", c, c.agent(), c.url(),
                    c.known()).isNotEqualTo(c.expected());
        }
    }

    @Test
    void agreesWithGoogleOnAllButTheKnownDifferences() throws IOException {
        List<Case> cases = cases();
        long agreeing = cases.stream().filter(c -> verdict(c).equals(c.expected())).count();
        long known = cases.stream().filter(c -> !c.known().isEmpty()).count();
        System.out.printf(Locale.ROOT, "Google's robots.txt suite: %d of %d cases agree (%.1f%%), %d known"
                + " differences%n", agreeing, cases.size(), 100.0 * agreeing / cases.size(), known);
        assertThat(agreeing).isEqualTo(cases.size() - known);
    }
}
