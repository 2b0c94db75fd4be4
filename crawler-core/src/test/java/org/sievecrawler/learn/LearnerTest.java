package org.sievecrawler.learn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.DuplicateTraps;
import org.sievecrawler.parse.SimHash;

class LearnerTest {
    private static final String ORIGIN = "http://127.0.0.1:8080";
    private final List<String> events = new ArrayList<>();
    private final RuleListener listener = new RuleListener() {
        @Override
        public void learned(Rule rule) {
            events.add("learned: " + rule.describe());
        }

        @Override
        public void undone(Rule rule, String url, String why) {
            events.add("undone: " + rule.describe() + ": " + url + " " + why);
        }
    };
    private final Learner learner = Learner.learning(listener);

    private static long fingerprint(String pathAndQuery) {
        return SimHash.of(DuplicateTraps.visibleText(pathAndQuery).orElseThrow());
    }

    private void fetch(String pathAndQuery) {
        learner.observe(ORIGIN + pathAndQuery, fingerprint(pathAndQuery));
    }

    /** Applies the rule of the links {@code prefix + N} to the first 16, all samples but 5 (at 1, 2, 4, 8, 16). */
    private void pastTheYoungSamples(String prefix) {
        int through = 0;
        for (int i = 1; i <= Learner.FIRST_SAMPLES; i++) {
            String link = prefix + (1000 + i);
            through += learner.rewrite(link).equals(link) ? 1 : 0;
        }
        assertThat(through).isEqualTo(5);
    }

    private static String hex(Random random) {
        return String.format("%016X", random.nextLong() | 1L << 62);
    }

    @Test
    void aSessionParameterIsDroppedAfterEightPairsAndLoggedOnce() {
        Random random = new Random(30);
        for (int i = 0; i < Learner.MIN_PAIRS; i++) {
            fetch("/s/home;jsessionid=" + hex(random));
            assertThat(events).isEmpty();
        }
        fetch("/s/home;jsessionid=" + hex(random));
        assertThat(events).containsExactly("learned: ;jsessionid= does not change content on host 127.0.0.1:8080 in"
                + " /s/home;jsessionid=* (8 of 8 pages near-duplicate); dropping it");

        pastTheYoungSamples(ORIGIN + "/s/home;jsessionid=");
        assertThat(learner.rewrite(ORIGIN + "/s/home;jsessionid=0123456789ABCDEF")).isEqualTo(ORIGIN + "/s/home");
        assertThat(learner.atLease(ORIGIN + "/s/home;jsessionid=0123456789ABCDEF"))
                .isEqualTo(new Learner.Verdict.Rewrite(ORIGIN + "/s/home", learner.tally().get(0).rule()));
        String other = ORIGIN + "/s/cart;jsessionid=0123456789ABCDEF";
        assertThat(learner.rewrite(other)).as("another template learns on its own").isSameAs(other);
        for (int i = 0; i < 20; i++) {
            fetch("/s/home;jsessionid=" + hex(random));
        }
        assertThat(events).hasSize(1);
    }

    @Test
    void aTemplateOfNearDuplicatesIsRefusedOneInFiftySampledAndUndoneByASampleWithNewText() {
        for (int day = 0; day < Learner.MIN_PAGES; day++) {
            fetch("/cal/" + DuplicateTraps.FIRST_DAY.plusDays(day).toString().replace('-', '/') + "/");
        }
        assertThat(events).containsExactly("learned: /cal/{n}/{n}/{n}/ yields only near-duplicates on host"
                + " 127.0.0.1:8080 (19 of 20 pages near-duplicate); not fetching it");
        Rule rule = learner.tally().get(0).rule();
        List<Learner.Verdict> verdicts = new ArrayList<>();
        for (int day = 100; day < 200; day++) {
            verdicts.add(learner.atLease(ORIGIN + "/cal/2030/01/" + day + "/"));
        }
        assertThat(verdicts).as("the 1st, 2nd, 4th, 8th, 16th, 50th, 100th").filteredOn(
                v -> v instanceof Learner.Verdict.Sample).hasSize(7);
        assertThat(verdicts).filteredOn(v -> v instanceof Learner.Verdict.Refuse).hasSize(93)
                .allMatch(v -> ((Learner.Verdict.Refuse) v).rule().equals(rule));
        assertThat(learner.rewrite(ORIGIN + "/cal/2030/01/01/")).as("a refusal is made at lease, not to links")
                .isEqualTo(ORIGIN + "/cal/2030/01/01/");

        learner.observe(ORIGIN + "/cal/2030/01/149/", fingerprint("/a/12345")); // a sample with new text
        assertThat(events).hasSize(2);
        assertThat(events.get(1)).startsWith("undone: /cal/{n}/{n}/{n}/ yields only near-duplicates")
                .endsWith(": " + ORIGIN + "/cal/2030/01/149/ its text is no near-duplicate of the template's"
                        + " earlier pages");
        assertThat(learner.atLease(ORIGIN + "/cal/2031/01/01/")).isEqualTo(Learner.Verdict.ADMIT);
        assertThat(learner.tally()).singleElement().satisfies(t -> {
            assertThat(t.undone()).isTrue();
            assertThat(t.refused()).isEqualTo(93);
            assertThat(t.sampled()).isEqualTo(7);
        });
        for (int day = 0; day < 100; day++) { // learned once: not again
            fetch("/cal/" + DuplicateTraps.FIRST_DAY.plusDays(day).toString().replace('-', '/') + "/");
        }
        assertThat(events).hasSize(2);
    }

    @Test
    void aLinkLetThroughAsASampleIsFetchedAtItsLease() {
        Random random = new Random(7);
        for (int i = 0; i <= Learner.MIN_PAIRS; i++) {
            fetch("/s/cart?sid=" + hex(random));
        }
        List<String> through = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String link = ORIGIN + "/s/cart?sid=" + hex(random);
            if (learner.rewrite(link).equals(link)) {
                through.add(link);
            }
        }
        assertThat(through).as("the 1st, 2nd, 4th, 8th, 16th, 50th, 100th").hasSize(7);
        assertThat(learner.atLease(through.get(0))).isInstanceOf(Learner.Verdict.Sample.class);
        assertThat(learner.atLease(through.get(0))).as("once").isInstanceOf(Learner.Verdict.Rewrite.class);
    }

    @Test
    void printViewsBecomeAliasesAPathSegmentAndAParameter() {
        for (int i = 0; i < Learner.MIN_PAIRS; i++) {
            int id = DuplicateTraps.ARTICLE_IDS.get(i);
            fetch("/a/" + id);
            fetch("/print/a/" + id);
            fetch("/list?page=" + (i + 1));
            fetch("/list?page=" + (i + 1) + "&print=1");
        }
        assertThat(events).containsExactlyInAnyOrder(
                "learned: /print/... is an alias of /... on host 127.0.0.1:8080 (path segment 1) (8 of 8 pages"
                        + " near-duplicate); dropping it",
                "learned: ?print= is an alias on host 127.0.0.1:8080: a page with it is the page without it (8 of 8"
                        + " pages near-duplicate); dropping it");
        pastTheYoungSamples(ORIGIN + "/print/a/");
        pastTheYoungSamples(ORIGIN + "/x?print=");
        assertThat(learner.rewrite(ORIGIN + "/print/a/12999")).isEqualTo(ORIGIN + "/a/12999");
        assertThat(learner.rewrite(ORIGIN + "/print/")).isEqualTo(ORIGIN + "/");
        assertThat(learner.rewrite(ORIGIN + "/a/print")).as("a last segment is no alias").isEqualTo(ORIGIN + "/a/print");
        assertThat(learner.rewrite(ORIGIN + "/cal?date=2026-11-29&print=1")).isEqualTo(ORIGIN + "/cal?date=2026-11-29");
        assertThat(learner.rewrite(ORIGIN + "/x?print=1")).isEqualTo(ORIGIN + "/x");
    }

    @Test
    void anAliasWithOnePairThatDiffersIsNeverLearned() {
        for (int i = 0; i < 3 * Learner.MIN_PAIRS; i++) {
            int id = DuplicateTraps.ARTICLE_IDS.get(i);
            fetch("/a/" + id);
            learner.observe(ORIGIN + "/print/a/" + id, fingerprint(i == 0 ? "/a/12352" : "/a/" + id));
        }
        assertThat(events).isEmpty();
    }

    /** rust-doc: test/test/X.html is test/X.html (a re-exported module); real pages of the package, no alias. */
    @Test
    void aSegmentNextToItsDoubleIsNoAlias() {
        for (int i = 0; i < 3 * Learner.MIN_PAIRS; i++) {
            int id = DuplicateTraps.ARTICLE_IDS.get(i);
            learner.observe(ORIGIN + "/test/enum.E" + i + ".html", fingerprint("/a/" + id));
            learner.observe(ORIGIN + "/test/test/enum.E" + i + ".html", fingerprint("/a/" + id));
        }
        assertThat(events).isEmpty();
    }

    @Test
    void theRealSectionsTeachNothing() {
        for (int round = 0; round < 3; round++) {
            fetch("/");
            for (int page = 1; page <= DuplicateTraps.LIST_PAGES; page++) {
                fetch("/list?page=" + page);
            }
            for (int id : DuplicateTraps.ARTICLE_IDS) {
                fetch("/a/" + id);
            }
        }
        assertThat(events).isEmpty();
        assertThat(learner.tally()).isEmpty();
    }

    /**
     * A million pages of random URLs on 10,000 hosts, each with a random fingerprint (fixed seed): no rule. Random
     * fingerprints are near-duplicates (within 3 bits) with probability 43,745 / 2^64 ~ 2.4e-15 per comparison;
     * with at most 4 recent fingerprints a template and 8 pairs a parameter, the whole run makes under 10^8
     * comparisons, so the chance of one near pair is under 3e-7, and a rule needs 8 (parameter, alias) or 17 of 20
     * (template). Stated bound: 0 rules.
     */
    @Test
    void randomPagesTeachNothing() {
        Random random = new Random(30);
        for (int i = 0; i < 200_000; i++) {
            String url = "http://h" + random.nextInt(10_000) + ".example/" + (char) ('a' + random.nextInt(5)) + "/"
                    + random.nextInt(1000) + (random.nextBoolean() ? "?sort=" + random.nextInt(4) + "&id="
                            + random.nextInt(100) : ".html");
            learner.observe(url, random.nextLong() | 1);
        }
        assertThat(events).isEmpty();
        assertThat(learner.templates()).isPositive();
        assertThat(learner.estimatedBytes()).isLessThan(100L << 20);
    }

    @Test
    void oneHostLearnsAtMostAHundredRules() {
        Random random = new Random(3);
        for (int template = 0; template < 150; template++) {
            for (int i = 0; i <= Learner.MIN_PAIRS; i++) {
                learner.observe(ORIGIN + "/s" + (char) ('a' + template % 26) + (char) ('a' + template / 26) + "?sid="
                        + hex(random), fingerprint("/s/home"));
            }
        }
        assertThat(learner.tally()).hasSize(Learner.MAX_RULES_PER_HOST);
        learner.observe("http://other.example/s?sid=" + hex(random), 1);
        for (int i = 0; i < Learner.MIN_PAIRS; i++) {
            learner.observe("http://other.example/s?sid=" + hex(random), 1);
        }
        assertThat(learner.tally()).as("another host still learns").hasSize(Learner.MAX_RULES_PER_HOST + 1);
    }

    @Test
    void offLearnsAndAppliesNothing() {
        Learner off = Learner.off();
        for (int day = 0; day < 100; day++) {
            off.observe(ORIGIN + "/cal?date=" + DuplicateTraps.FIRST_DAY.plusDays(day), fingerprint("/cal?date=2026-11-29"));
        }
        assertThat(off.tally()).isEmpty();
        assertThat(off.rewrite(ORIGIN + "/cal?date=2026-11-29")).isEqualTo(ORIGIN + "/cal?date=2026-11-29");
        assertThat(off.atLease(ORIGIN + "/cal?date=2026-11-29")).isEqualTo(Learner.Verdict.ADMIT);
        assertThat(off.estimatedBytes()).isZero();
    }

    @Test
    void aResumePutsBackTheRulesLearnedAndUndoneWithoutTellingAgain() {
        Rule session = new Rule(Rule.Kind.DROP_PARAM, "127.0.0.1:8080", "/s/home;jsessionid=*", ";jsessionid", -1, 8, 8);
        Rule calendar = new Rule(Rule.Kind.SKIP_TEMPLATE, "127.0.0.1:8080", "/cal/{n}/{n}/{n}/", "", -1, 20, 19);
        learner.restore(session, false);
        learner.restore(calendar, false);
        learner.restore(calendar, true);

        assertThat(events).isEmpty();
        pastTheYoungSamples(ORIGIN + "/s/home;jsessionid=");
        assertThat(learner.rewrite(ORIGIN + "/s/home;jsessionid=AB12CD34")).isEqualTo(ORIGIN + "/s/home");
        assertThat(learner.atLease(ORIGIN + "/cal/2030/01/01/")).isEqualTo(Learner.Verdict.ADMIT);
        assertThat(learner.tally()).extracting(Learner.Tally::undone).containsExactly(false, true);
        for (int day = 0; day < 40; day++) {
            fetch("/cal/" + DuplicateTraps.FIRST_DAY.plusDays(day).toString().replace('-', '/') + "/");
        }
        assertThat(events).as("an undone rule is not learned again").isEmpty();
    }
}
