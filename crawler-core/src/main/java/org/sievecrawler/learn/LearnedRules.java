package org.sievecrawler.learn;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.sievecrawler.progress.SummarySection;

/**
 * What the rules a crawl learned did, as summary.json's {@code learned} and the final log line say: the rules learned
 * and undone, the URLs they refused (not fetched: recorded as traps) and rewrote, the templates the learner keeps
 * evidence for and its estimated memory, and the first {@value #LISTED} rules with what each did. From
 * {@link Learner#tally()} at the crawl's end: this run's (a resumed crawl counts from the resume). Immutable.
 *
 * @param rules every rule learned in this run, undone ones too, in the order learned, with what each did
 * @param templates URL templates the learner keeps evidence for at the end ({@link Learner#templates()})
 * @param estimatedBytes the learner's evidence in bytes, estimated ({@link Learner#estimatedBytes()})
 */
public record LearnedRules(List<Learner.Tally> rules, int templates, long estimatedBytes) implements SummarySection {
    /** Rules listed in summary.json; all are counted. */
    public static final int LISTED = 100;

    public LearnedRules {
        rules = List.copyOf(rules);
    }

    /** What {@code learner}'s rules did so far. */
    public static LearnedRules of(Learner learner) {
        return new LearnedRules(learner.tally(), learner.templates(), learner.estimatedBytes());
    }

    /** Rules undone (by a sample with new content). */
    public long undone() {
        return rules.stream().filter(Learner.Tally::undone).count();
    }

    /** URLs the rules refused: not fetched, recorded as traps. */
    public long refused() {
        return rules.stream().mapToLong(Learner.Tally::refused).sum();
    }

    /** URLs the rules rewrote (links before the Sieve, and URLs taken from the frontier). */
    public long rewritten() {
        return rules.stream().mapToLong(Learner.Tally::rewritten).sum();
    }

    /**
     * Writes the field {@code learned}: {@code {"rules": n, "undone": n, "refused": n, "rewritten": n, "templates": n,
     * "estimatedBytes": n, "list": [{"kind", "host", "template", "param" or "segment" and "position", "rule",
     * "undone", "refused", "rewritten", "sampled"}, ...]}}, the list cut to the first {@value #LISTED} rules.
     */
    @Override
    public void writeField(JsonGenerator json) throws IOException {
        json.writeObjectFieldStart("learned");
        json.writeNumberField("rules", rules.size());
        json.writeNumberField("undone", undone());
        json.writeNumberField("refused", refused());
        json.writeNumberField("rewritten", rewritten());
        json.writeNumberField("templates", templates);
        json.writeNumberField("estimatedBytes", estimatedBytes);
        json.writeArrayFieldStart("list");
        for (Learner.Tally tally : rules.subList(0, Math.min(LISTED, rules.size()))) {
            Rule rule = tally.rule();
            json.writeStartObject();
            RulesFile.writeRule(json, rule);
            json.writeStringField("rule", rule.describe());
            json.writeBooleanField("undone", tally.undone());
            json.writeNumberField("refused", tally.refused());
            json.writeNumberField("rewritten", tally.rewritten());
            json.writeNumberField("sampled", tally.sampled());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    /**
     * {@code learned: 7 rules, 1,234 URLs refused, 56 rewritten}, with {@code (1 undone)} after the rules when any
     * was; nothing when no rule was learned.
     */
    @Override
    public String words() {
        if (rules.isEmpty()) {
            return "";
        }
        long undone = undone();
        return String.format(Locale.ROOT, "learned: %,d %s%s, %,d URLs refused, %,d rewritten", rules.size(),
                rules.size() == 1 ? "rule" : "rules", undone == 0 ? "" : String.format(Locale.ROOT, " (%,d undone)",
                        undone), refused(), rewritten());
    }

    /**
     * Right after what the site answered: the URLs the rules refused are among those decided (records with outcome
     * {@code trap}), and the line says at once why so many were decided without a fetch.
     */
    @Override
    public Place place() {
        return Place.FOLLOWS_ANSWERS;
    }
}
