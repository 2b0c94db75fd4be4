package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class CrawlNameTest {

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvFileSource(resources = "/cluster/crawl-names.tsv", delimiter = '\t', ignoreLeadingAndTrailingWhitespace = false,
            quoteCharacter = '\u0000')
    void acceptsExactlyTheNamesKafkaTopicRulesAllow(String name, String expected) {
        Throwable refused = catchThrowable(() -> new CrawlName(name));

        if (expected.equals("ok")) {
            assertThat(refused).isNull();
        } else {
            assertThat(refused).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(expected);
        }
        if (!name.equals(".") && !name.equals("..")) {
            assertThat(refused == null).as("Kafka accepts every topic of \"%s\"", name).isEqualTo(kafkaAccepts(name));
        }
    }

    @Test
    void theLongestNameKeepsEveryTopicWithinKafkasLimit() {
        String longest = "c".repeat(CrawlName.MAX_LENGTH);

        assertThat(new CrawlName(longest).value()).hasSize(237);
        assertThat(kafkaAccepts(longest)).isTrue();
        assertThat(kafkaAccepts(longest + "c")).isFalse();
        assertThatThrownBy(() -> new CrawlName(longest + "c"))
                .hasMessageContaining("at most 237 characters")
                .hasMessageContaining("it has 238");
    }

    @Test
    void refusesAnEmptyNameAndControlCharacters() {
        assertThatThrownBy(() -> new CrawlName("")).hasMessage("crawl name must not be empty");
        assertThatThrownBy(() -> new CrawlName("a\tb")).hasMessageContaining("the character U+0009 at position 2");
    }

    /** Kafka's own rule ({@code Topic.validate}) on every topic the crawl would have. */
    private static boolean kafkaAccepts(String crawl) {
        try {
            for (String suffix : new String[] {ClusterTopics.FRONTIER, ClusterTopics.FETCHED, ClusterTopics.SIEVE_STATE}) {
                Topic.validate(crawl + suffix);
            }
            return true;
        } catch (InvalidTopicException e) {
            return false;
        }
    }
}
