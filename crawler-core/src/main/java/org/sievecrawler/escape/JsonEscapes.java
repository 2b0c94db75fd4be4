package org.sievecrawler.escape;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import java.util.Locale;

/**
 * The characters {@link Json} writes as {@code \}{@code uHHHH} escapes beyond those JSON requires (the C0 controls,
 * quote and backslash): the other {@link ControlCharacters} (DEL and C1) always; and inside an HTML {@code <script>}
 * element ({@link #SCRIPT_DATA}) also {@code <}, {@code >}, {@code &}, U+2028 and U+2029. Without {@code <} no
 * {@code </script>} ends the element early and no {@code <!--} then {@code <script} puts the HTML tokenizer in its
 * "script data double escaped" state, where the element's own {@code </script>} no longer ends it (HTML Living
 * Standard, 13.2.5.4 to 13.2.5.27, and 4.12.1.3 "Restrictions for contents of script elements"); {@code >} and
 * {@code &} complete the set the spec's note and OWASP recommend for data in scripts; U+2028 and U+2029 end a line
 * in JavaScript before ES2019, which JSON allows raw.
 *
 * <p>Immutable and thread-safe.
 */
final class JsonEscapes extends CharacterEscapes {
    /** For every JSON file and JSON log line. */
    static final JsonEscapes CONTROLS = new JsonEscapes(false);
    /** For JSON in an HTML {@code <script>} element. */
    static final JsonEscapes SCRIPT_DATA = new JsonEscapes(true);

    private final int[] ascii;
    private final boolean scriptData;

    private JsonEscapes(boolean scriptData) {
        this.scriptData = scriptData;
        this.ascii = standardAsciiEscapesForJSON();
        ascii[0x7F] = ESCAPE_STANDARD;
        if (scriptData) {
            ascii['<'] = ESCAPE_STANDARD;
            ascii['>'] = ESCAPE_STANDARD;
            ascii['&'] = ESCAPE_STANDARD;
        }
    }

    @Override
    public int[] getEscapeCodesForAscii() {
        return ascii;
    }

    /** The escape of a character above U+007F, or null to write it as it is. */
    @Override
    public SerializableString getEscapeSequence(int ch) {
        boolean escaped = ControlCharacters.isControl(ch) || scriptData && (ch == 0x2028 || ch == 0x2029);
        return escaped ? new SerializedString(String.format(Locale.ROOT, "\\u%04X", ch)) : null;
    }
}
