package org.sievecrawler.escape;

/**
 * The control characters of text from outside, and how a log line or a terminal shows them: the C0 controls
 * U+0000 to U+001F except tab, DEL U+007F and the C1 controls U+0080 to U+009F. A terminal acts on them instead of
 * showing them ({@code ESC [ 2 J} clears the screen, {@code ESC ] 0 ; text BEL} retitles the window, CR and LF start
 * what a reader of the log takes for another event, U+009B is CSI to a terminal that reads C1 controls), so none
 * reaches a log line or the terminal raw. Tab is left alone: it moves the cursor right, and crawler-commons' own
 * warnings start with one.
 *
 * <p>Stateless and thread-safe. Out of scope: characters that only reorder or hide text (the bidirectional
 * overrides U+202A to U+202E, zero-width spaces), which a terminal shows as they are.
 */
public final class ControlCharacters {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ControlCharacters() {
    }

    /** Whether {@code ch} is one of the control characters above. */
    public static boolean isControl(int ch) {
        return ch < 0x20 ? ch != '\t' : ch >= 0x7F && ch <= 0x9F;
    }

    /**
     * {@code text} with each control character written as an escape that reads well in a log: {@code \n} and
     * {@code \r}, {@code \xHH} for the others below U+0080 (ESC as {@code \x1b}, DEL as {@code \x7f}) and
     * {@code \}{@code uHHHH} for C1 (NEL as {@code \}{@code u0085}); {@code text} itself when it holds none (the
     * common case, no copy), {@code null} for {@code null}. A backslash is left as it is: the escapes are for
     * reading, not for decoding back.
     */
    public static String escape(String text) {
        if (text == null) {
            return null;
        }
        int first = 0;
        while (first < text.length() && !isControl(text.charAt(first))) {
            first++;
        }
        if (first == text.length()) {
            return text;
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (!isControl(ch)) {
                escaped.append(ch);
            } else if (ch == '\n') {
                escaped.append("\\n");
            } else if (ch == '\r') {
                escaped.append("\\r");
            } else if (ch < 0x80) {
                escaped.append("\\x").append(HEX[ch >> 4]).append(HEX[ch & 0xF]);
            } else {
                escaped.append("\\u00").append(HEX[ch >> 4]).append(HEX[ch & 0xF]);
            }
        }
        return escaped.toString();
    }
}
