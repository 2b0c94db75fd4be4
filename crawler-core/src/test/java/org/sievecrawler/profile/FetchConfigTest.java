package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_USER_AGENT;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.TsvTable;

class FetchConfigTest {

    static Stream<Arguments> contacts() throws IOException {
        return TsvTable.rows("/contact/placeholders.tsv", 3).stream().map(row -> Arguments.of(row.cell(0), row));
    }

    /**
     * The payload table {@code /contact/placeholders.tsv} (src-test-fixtures): a contact at a domain reserved for
     * examples, in the User-Agent or an extra header, is warned of, naming the keys and the contact.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("contacts")
    void warnsOfAPlaceholderContactAsTheTableSays(String userAgent, TsvTable.Row row) {
        FetchConfig fetch = new ProfileOverrides().set("fetch.user-agent=" + userAgent)
                .set("fetch.headers=" + row.cell(1)).applyTo(CrawlProfile.defaults()).fetch();
        String result = row.cell(2);

        if (result.equals("none")) {
            assertThat(fetch.placeholderContact()).as(row.where()).isEmpty();
        } else {
            String[] expected = result.substring("warns ".length()).split(" (?=\\S+$)");
            assertThat(fetch.placeholderContact()).as(row.where()).hasValueSatisfying(warning -> assertThat(warning)
                    .startsWith(expected[0] + (expected[0].contains(" and ") ? " name" : " names")
                            + " the placeholder contact " + expected[1] + ", "));
        }
    }

    @Test
    void thePlaceholderWarningSaysWhyItMattersAndWhatToDo() {
        FetchConfig fetch = CrawlProfile.defaults().with(FETCH_USER_AGENT,
                "SieveCrawler/0.1 (+https://github.com/sievecrawler/sievecrawler; contact: you@example.org)").fetch();

        assertThat(fetch.placeholderContact()).hasValue("fetch.user-agent names the placeholder contact"
                + " you@example.org, which every server sees with each request: site operators use it to reach you,"
                + " and a domain reserved for examples reaches no one; set your own contact in the profile or on the"
                + " command line (--user-agent, --set fetch.headers=...)");
        assertThat(FetchConfig.defaults().placeholderContact()).as("the built-in User-Agent names no contact").isEmpty();
    }
}
