package org.sievecrawler.audit;

import java.util.ArrayList;
import java.util.List;

/**
 * One finding of audit.json as lines of plain text, lychee-style: a head line ({@code [404] http://a.test/gone}) and
 * the lines under it ({@code from http://a.test/ "gone" (a)}). Raw text from the crawl, each value cut at
 * {@link #MAX_CHARS}: the caller escapes it for where it goes (a terminal, Markdown). Stateless.
 */
final class FindingText {
    /** Characters of one value shown at most (a URL, a link's text). */
    static final int MAX_CHARS = 300;
    /** Lines under a finding at most (its linking pages, its URLs), then how many more. */
    static final int MAX_DETAILS = 10;

    private FindingText() {
    }

    /** The head line of {@code finding} of the list {@code list}. */
    static String head(String list, JsonValue finding) {
        return switch (list) {
            case "brokenLinks" -> "[" + status(finding.path("status"), finding.path("error")) + "] "
                    + cut(finding.path("url").asText());
            case "redirects" -> "[" + finding.path("chain").size() + (finding.path("chain").size() == 1 ? " hop"
                    : " hops") + (finding.path("loop").asBoolean() ? ", loop" : "")
                    + (finding.path("tooLong").asBoolean() ? ", past fetch.max-redirects" : "") + "] "
                    + cut(finding.path("from").asText()) + " -> " + cut(finding.path("to").asText())
                    + (finding.path("final").isObject() ? " (" + status(finding.path("final").path("status"),
                            finding.path("final").path("outcome")) + ")" : "");
            case "duplicates" -> "[" + finding.path("kind").asText("?") + "] " + finding.path("urls").size() + " URLs";
            case "titles.duplicates", "titles.duplicate" -> "[title] " + cut(finding.path("title").asText());
            default -> finding.isTextual() ? cut(finding.asText()) : cut(finding.path("url").asText(finding.toString()));
        };
    }

    /** The lines under the head line, at most {@link #MAX_DETAILS} and a count of the others. */
    static List<String> details(String list, JsonValue finding) {
        List<String> lines = new ArrayList<>();
        JsonValue items = switch (list) {
            case "brokenLinks" -> finding.path("linkedFrom");
            case "redirects" -> finding.path("chain");
            default -> finding.path("urls");
        };
        int shown = 0;
        for (JsonValue item : items) {
            if (shown++ == MAX_DETAILS) {
                lines.add("... and " + (items.size() - MAX_DETAILS) + " more");
                break;
            }
            lines.add(switch (list) {
                case "brokenLinks" -> "from " + cut(item.path("page").asText())
                        + (item.path("text").asText().isEmpty() ? "" : " \"" + cut(item.path("text").asText()) + "\"")
                        + (item.path("kind").isMissing() ? "" : " (" + cut(item.path("kind").asText()) + ")");
                case "redirects" -> item.path("status").asText() + " " + cut(item.path("url").asText());
                default -> cut(item.isTextual() ? item.asText() : item.toString());
            });
        }
        return lines;
    }

    private static String status(JsonValue status, JsonValue otherwise) {
        return status.asInt() > 0 ? status.asText() : cut(otherwise.asText("no answer"));
    }

    private static String cut(String text) {
        return text.length() <= MAX_CHARS ? text : text.substring(0, MAX_CHARS) + "...";
    }
}
