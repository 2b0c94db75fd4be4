package org.sievecrawler.escape;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;

/**
 * The one JSON configuration of the crawler: pages.jsonl, summary.json, progress.jsonl, the data of report.html and
 * the log lines of {@code --log-format json} are written by its generators, and what it reads back by its parsers.
 * Whatever the text, what it writes is valid UTF-8 that a strict JSON reader takes, and prints safely at a terminal:
 * <ul>
 *   <li>An unpaired surrogate (a title holding the character reference {@code &#xD800;}, a cut string) is written as
 *       U+FFFD ({@link #wellFormed}). Left to Jackson 2, it goes out as the escape {@code \}{@code uD800} to bytes,
 *       which strict readers refuse (I-JSON, RFC 7493 section 2.1; Go and Rust's serde_json), and as the char
 *       itself to a {@link Writer}, which a UTF-8 encoder refuses (a report that could not be written:
 *       "Input length = 1").</li>
 *   <li>A surrogate pair is written as the four UTF-8 bytes of its character, not as two escapes
 *       ({@link JsonWriteFeature#COMBINE_UNICODE_SURROGATES_IN_UTF8}).</li>
 *   <li>No control character is written raw: the C0 controls are escaped as JSON requires, DEL and C1 as
 *       {@code \}{@code u} escapes too ({@link JsonEscapes#CONTROLS}).</li>
 * </ul>
 * {@link #scriptData} adds the HTML spec's script-data escaping for JSON inside a {@code <script>} element.
 *
 * <p>Files written before this configuration may hold the escape of an unpaired surrogate: the parsers read it (the
 * string read holds the lone surrogate), and it is written as U+FFFD when the string is written again.
 *
 * <p>Thread-safe: the factory is immutable; each generator and parser is for one thread at a time. Out of scope:
 * decoding bytes that are not UTF-8 (readers of files decode lines with replacement before they parse them).
 */
public final class Json {
    private static final char REPLACEMENT = '\uFFFD';
    private static final JsonFactory FACTORY = new JsonFactoryBuilder()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .characterEscapes(JsonEscapes.CONTROLS)
            .addDecorator((factory, generator) -> new WellFormedStrings(generator))
            .build();

    private Json() {
    }

    /** A generator writing UTF-8 to {@code out}; closing it closes {@code out}. */
    public static JsonGenerator writer(OutputStream out) throws IOException {
        return FACTORY.createGenerator(out);
    }

    /** A generator writing to {@code out}; closing it closes {@code out}. */
    public static JsonGenerator writer(Writer out) throws IOException {
        return FACTORY.createGenerator(out);
    }

    /**
     * A generator for JSON that an HTML page holds in a {@code <script>} element, writing to {@code out}: besides
     * the escapes of every generator, {@code <}, {@code >}, {@code &}, U+2028 and U+2029 are written as
     * {@code \}{@code uHHHH}, so the text holds none of them and nothing in it can end the element or change how
     * the page's parser reads it ({@link JsonEscapes#SCRIPT_DATA}).
     */
    public static JsonGenerator scriptData(Writer out) throws IOException {
        JsonGenerator json = FACTORY.createGenerator(out);
        json.setCharacterEscapes(JsonEscapes.SCRIPT_DATA);
        return json;
    }

    /** A parser of {@code text}. */
    public static JsonParser parser(String text) throws IOException {
        return FACTORY.createParser(text);
    }

    /** A parser of the JSON in {@code in} (UTF-8, or as detected), read as a stream; closing it closes {@code in}. */
    public static JsonParser parser(InputStream in) throws IOException {
        return FACTORY.createParser(in);
    }

    /** {@code text} with each unpaired surrogate replaced by U+FFFD; {@code text} itself when it has none. */
    public static String wellFormed(String text) {
        if (text == null) {
            return null;
        }
        char[] chars = null;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            boolean pair = Character.isHighSurrogate(ch) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (pair) {
                i++;
            } else if (Character.isSurrogate(ch)) {
                if (chars == null) {
                    chars = text.toCharArray();
                }
                chars[i] = REPLACEMENT;
            }
        }
        return chars == null ? text : new String(chars);
    }

    /**
     * Every generator of the factory: strings and field names go to the generator it wraps {@link #wellFormed}.
     * Its copy methods are not delegated, so a structure copied from a parser goes through them too.
     */
    private static final class WellFormedStrings extends JsonGeneratorDelegate {
        WellFormedStrings(JsonGenerator generator) {
            super(generator, false);
        }

        @Override
        public void writeString(String text) throws IOException {
            delegate.writeString(wellFormed(text));
        }

        @Override
        public void writeString(char[] text, int offset, int length) throws IOException {
            writeString(new String(text, offset, length));
        }

        @Override
        public void writeFieldName(String name) throws IOException {
            delegate.writeFieldName(wellFormed(name));
        }

        @Override
        public void writeArray(String[] array, int offset, int length) throws IOException {
            writeStartArray(array, length);
            for (int i = offset; i < offset + length; i++) {
                writeString(array[i]);
            }
            writeEndArray();
        }
    }
}
