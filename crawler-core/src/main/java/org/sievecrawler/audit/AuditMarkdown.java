package org.sievecrawler.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sievecrawler.escape.ControlCharacters;

/**
 * audit.json as a short Markdown summary for a CI job's log or a pull request comment ({@code crawler report DIR
 * --format markdown}): what the site answered (its {@code stats}), a table of the lists with their counts, and the
 * first findings of each list that has some. Text from the crawl is escaped (Markdown's own characters, control
 * characters) and cut ({@link FindingText}), so a page cannot add markup to the summary. Stateless.
 */
public final class AuditMarkdown {
    /** Findings shown per list. */
    public static final int SHOWN = 10;

    private AuditMarkdown() {
    }

    /** The summary of {@code audit} (read keeping at least {@link #SHOWN} findings per list), titled with {@code what}. */
    public static String render(String what, AuditFindings audit) {
        List<String> lines = new ArrayList<>();
        lines.add("## Crawl audit: " + escape(what));
        lines.add("");
        audit.stats().ifPresent(stats -> {
            StringBuilder byStatus = new StringBuilder();
            for (Map.Entry<String, JsonValue> status : stats.path("httpErrorsByStatus").members().entrySet()) {
                byStatus.append(byStatus.length() == 0 ? " (" : ", ").append(escape(status.getKey())).append(": ")
                        .append(status.getValue().asLong());
            }
            if (byStatus.length() > 0) {
                byStatus.append(')');
            }
            lines.add("**" + stats.path("pages").asLong() + "** pages, **" + stats.path("httpErrors").asLong()
                    + "** HTTP errors" + byStatus + ", **" + stats.path("failed").asLong() + "** failed, "
                    + stats.path("redirects").asLong() + " redirects, " + stats.path("responses").asLong()
                    + " responses, " + stats.path("decided").asLong() + " URLs decided.");
            long notMeasured = stats.path(Stats.NEAR_NOT_MEASURED).asLong();
            if (notMeasured > 0) {
                lines.add("Near duplicates not measured for **" + notMeasured + "** pages (no `simhash` in their"
                        + " records: a crawl of an older build, pages not HTML, or without text).");
            }
            lines.add("");
        });
        lines.add("| list | findings |");
        lines.add("|---|---:|");
        audit.lists().values().stream().filter(list -> !list.name().equals(Slowest.NAME)) // a list, not findings
                .forEach(list -> lines.add("| " + escape(list.name()) + " | " + list.count() + " |"));
        for (AuditFindings.Findings list : audit.lists().values()) {
            if (list.count() == 0 || list.name().equals(Slowest.NAME)) {
                continue;
            }
            lines.add("");
            lines.add("### " + escape(list.name()) + (list.count() > list.first().size()
                    ? " (the first " + list.first().size() + " of " + list.count() + ")" : ""));
            lines.add("");
            for (JsonValue finding : list.first()) {
                lines.add("- " + escape(FindingText.head(list.name(), finding)));
                FindingText.details(list.name(), finding).forEach(line -> lines.add("  - " + escape(line)));
            }
        }
        return String.join("\n", lines) + "\n";
    }

    /**
     * {@code text} safe inside a line of Markdown (never at its start): control characters escaped, and behind a
     * backslash each character that could open markup there: code, emphasis, links, HTML and autolinks, table cells,
     * strikethrough ({@code \ ` * _ [ ] < > | ~}); URLs stay readable.
     */
    static String escape(String text) {
        String plain = ControlCharacters.escape(text);
        StringBuilder out = new StringBuilder(plain.length() + 8);
        for (int i = 0; i < plain.length(); i++) {
            char c = plain.charAt(i);
            if ("\\`*_[]<>|~".indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
