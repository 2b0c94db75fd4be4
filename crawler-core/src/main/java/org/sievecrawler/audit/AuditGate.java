package org.sievecrawler.audit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sievecrawler.escape.ControlCharacters;

/**
 * What {@code --fail-on} names: the audit's lists that make a crawl or a report fail when they hold a finding, for a
 * CI job. Immutable.
 *
 * @param lists audit.json's members named, in the order given, e.g. {@code brokenLinks}
 */
public record AuditGate(List<String> lists) {
    /** The exit code of a crawl or report whose audit found what {@code --fail-on} names. */
    public static final int EXIT_FOUND = 6;
    /** The names {@code --fail-on} takes, and the audit.json member of each. */
    static final Map<String, String> CHOICES = choices();
    /** Findings shown per list named. */
    public static final int SHOWN = 10;

    public AuditGate {
        lists = List.copyOf(lists);
    }

    private static Map<String, String> choices() {
        Map<String, String> choices = new LinkedHashMap<>();
        choices.put("broken-links", "brokenLinks");
        choices.put("redirects", "redirects");
        choices.put("duplicates", "duplicates");
        return choices;
    }

    /**
     * The gate of {@code --fail-on} {@code value}, names separated by commas ({@code broken-links,redirects}).
     *
     * @throws IllegalArgumentException naming the value and the choices when a name is not one of them
     */
    public static AuditGate parse(String value) {
        List<String> lists = new ArrayList<>();
        for (String name : value.split(",", -1)) {
            String member = CHOICES.get(name.strip().toLowerCase(Locale.ROOT));
            if (member == null) {
                throw new IllegalArgumentException("--fail-on: \"" + ControlCharacters.escape(name.strip())
                        + "\" is not a list of the audit: choose from " + String.join(", ", CHOICES.keySet())
                        + " (comma-separated)");
            }
            if (!lists.contains(member)) {
                lists.add(member);
            }
        }
        return new AuditGate(lists);
    }

    /**
     * What the gate says of {@code audit}.
     *
     * @param missing the lists named that audit.json does not hold (this build does not audit them): a usage error
     * @param found the lists named that hold findings, with them
     * @param report the lines to print: every list named with its count, and the first findings of each with some
     */
    public record Verdict(List<String> missing, List<AuditFindings.Findings> found, List<String> report) {
        public boolean fails() {
            return !found.isEmpty();
        }
    }

    /** Checks {@code audit} (read keeping at least {@link #SHOWN} findings per list). */
    public Verdict check(AuditFindings audit) {
        List<String> missing = new ArrayList<>();
        List<AuditFindings.Findings> found = new ArrayList<>();
        List<String> report = new ArrayList<>();
        for (String list : lists) {
            AuditFindings.Findings findings = audit.lists().get(list);
            if (findings == null) {
                missing.add(list);
                continue;
            }
            if (findings.count() == 0) {
                report.add(list + ": none");
                continue;
            }
            found.add(findings);
            report.add(list + ": " + findings.count() + (findings.count() > findings.first().size()
                    ? " (the first " + findings.first().size() + ")" : ""));
            findings.first().forEach(finding -> {
                report.add("  " + ControlCharacters.escape(FindingText.head(list, finding)));
                FindingText.details(list, finding).forEach(line -> report.add("      "
                        + ControlCharacters.escape(line)));
            });
        }
        return new Verdict(missing, found, report);
    }

    /** The names {@code --fail-on} takes whose lists {@code audit} holds, for an error naming the choices. */
    public static List<String> available(AuditFindings audit) {
        List<String> names = new ArrayList<>();
        CHOICES.forEach((name, member) -> {
            if (audit.lists().containsKey(member)) {
                names.add(name);
            }
        });
        return names;
    }

    /** The {@code --fail-on} name of the audit.json member {@code list}. */
    public static String optionName(String list) {
        return CHOICES.entrySet().stream().filter(e -> e.getValue().equals(list)).map(Map.Entry::getKey).findFirst()
                .orElse(list);
    }
}
