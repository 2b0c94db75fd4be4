package org.sievecrawler.escape;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.HostileText;

class JsonTest {
    @ParameterizedTest
    @MethodSource("org.sievecrawler.fixtures.HostileText#unpairedSurrogates")
    void anUnpairedSurrogateIsWrittenAsTheReplacementCharacterToBytesAndToText(HostileText.Surrogates row)
            throws IOException {
        assertThat(Json.wellFormed(row.text())).isEqualTo(row.wellFormed());

        byte[] bytes = bytes(row.text());
        String text = strictUtf8(bytes); // valid UTF-8, or this throws
        assertThat(text).doesNotContain("\\uD8", "\\uD9", "\\uDA", "\\uDB", "\\uDC", "\\uDD", "\\uDE", "\\uDF");
        assertThat(read(text)).containsExactly(row.wellFormed(), row.wellFormed());

        String written = text(row.text());
        assertThat(encodesAsUtf8(written)).as(written).isTrue();
        assertThat(read(written)).containsExactly(row.wellFormed(), row.wellFormed());
    }

    @Test
    void aPairIsWrittenAsTheFourBytesOfItsCharacter() throws IOException {
        assertThat(bytes("\ud83d\ude00")).isEqualTo("{\"\ud83d\ude00\":\"\ud83d\ude00\"}"
                .getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aStructureCopiedFromAParserIsWrittenWellFormedToo() throws IOException {
        StringWriter out = new StringWriter();
        try (JsonParser in = Json.parser("{\"t\":[\"\\uDC00x\",1,2.5E-4,true,null,{\"u\":\"\\uD800\"}]}");
                JsonGenerator json = Json.writer(out)) {
            in.nextToken();
            json.copyCurrentStructure(in);
        }

        assertThat(out.toString()).isEqualTo("{\"t\":[\"\ufffdx\",1,2.5E-4,true,null,{\"u\":\"\ufffd\"}]}");
    }

    @Test
    void olderFilesHoldingTheEscapeOfAnUnpairedSurrogateAreRead() throws IOException {
        assertThat(read("{\"title\":\"\\uD800x\\uDC00\\uD800\"}")).containsExactly("title", "\ud800x\udc00\ud800");
    }

    @ParameterizedTest
    @MethodSource("org.sievecrawler.fixtures.HostileText#controlCharacters")
    void noControlCharacterIsWrittenRaw(HostileText.Controls row) throws IOException {
        for (String written : List.of(new String(bytes(row.text()), StandardCharsets.UTF_8), text(row.text()))) {
            assertThat(written.chars()).as(written).noneMatch(ch -> ch < 0x20 && ch != '\t'
                    || ControlCharacters.isControl(ch));
            assertThat(read(written)).containsExactly(row.text(), row.text());
        }
    }

    @ParameterizedTest
    @MethodSource("org.sievecrawler.fixtures.HostileText#scriptData")
    void scriptDataHoldsNoCharacterThatTheHtmlTokenizerOrJavaScriptReads(HostileText.ScriptData row)
            throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = Json.scriptData(out)) {
            json.writeStartObject();
            json.writeStringField(row.text(), row.text());
            json.writeEndObject();
        }
        String written = out.toString();

        assertThat(written).doesNotContain("<", ">", "&", "\u2028", "\u2029");
        assertThat(encodesAsUtf8(written)).isTrue();
        assertThat(read(written)).containsExactly(Json.wellFormed(row.text()), Json.wellFormed(row.text()));
    }

    @Test
    void onlyScriptDataEscapesTheHtmlCharacters() throws IOException {
        assertThat(text("a<b>&c\u2028")).isEqualTo("{\"a<b>&c\u2028\":\"a<b>&c\u2028\"}");
    }

    /** {@code {text: text}} written to bytes. */
    private static byte[] bytes(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = Json.writer(out)) {
            json.writeStartObject();
            json.writeStringField(text, text);
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    /** {@code {text: text}} written to a Writer. */
    private static String text(String text) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = Json.writer(out)) {
            json.writeStartObject();
            json.writeFieldName(text);
            char[] chars = text.toCharArray();
            json.writeString(chars, 0, chars.length);
            json.writeEndObject();
        }
        return out.toString();
    }

    /** The field name and the value of a one-field object. */
    private static List<String> read(String json) throws IOException {
        try (JsonParser in = Json.parser(json)) {
            assertThat(in.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            assertThat(in.nextToken()).isEqualTo(JsonToken.FIELD_NAME);
            String name = in.currentName();
            in.nextToken();
            return List.of(name, in.getText());
        }
    }

    private static String strictUtf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    }

    private static boolean encodesAsUtf8(String text) {
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT);
        try {
            encoder.encode(java.nio.CharBuffer.wrap(text));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
