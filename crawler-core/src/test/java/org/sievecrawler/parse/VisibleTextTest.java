package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import okhttp3.HttpUrl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What both parsers feed to a page's {@link SimHash} as its visible text (see {@link ParsedPage#simhash()}): the
 * scanner and jsoup give each page the fingerprint of the expected text, the runs split where text nodes end.
 */
class VisibleTextTest {
    private static final HttpUrl URL = HttpUrl.get("http://127.0.0.1/page");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "<title>Not this</title><p>Some visible words</p>|Some visible words",
        "<p>one <b>two</b> three<!-- hidden comment -->four</p>|one two three four",
        "<p>split<b>word</b></p>|split word",
        "<p>joined</>word</p>|joinedword",
        "<p>caf&eacute; &amp; cr&#232;me</p><p>br&ucirc;l&eacute;e</p>|café crème brûlée",
        "<script>var hidden = 1;</script><style>p { x: y }</style><p>shown text</p>|shown text",
        "<noscript><p>enable scripts</p></noscript><p>main text here</p>|main text here",
        "<p>a form</p><textarea>typed</textarea><select><option>choice</select>|a form",
        "<p>drawing</p><svg><text>label</text></svg><p>after it</p>|drawing after it",
        "<table><tr><td>cell one</td><td>cell two</td></tr></table>|cell one cell two",
        "<p>Üml&auml;ut WÖRDS</p>|ümläut wörds",
    })
    void bothParsersFingerprintTheVisibleText(String html, String visible) {
        byte[] body = ("<!doctype html><html><head></head><body>" + html + "</body></html>")
                .getBytes(StandardCharsets.UTF_8);
        ScanResult scanned = new HrefScanner().scan(body, body.length, "text/html; charset=utf-8", URL);
        ParsedPage jsoup = new JsoupPageParser().parse(body, body.length, "text/html; charset=utf-8", URL);
        SimHash expected = new SimHash();
        for (String run : visible.split(" ")) {
            expected.text(run, 0, run.length());
            expected.endRun();
        }
        assertThat(scanned).isInstanceOf(ScanResult.Scanned.class);
        assertThat(((ScanResult.Scanned) scanned).page().simhash()).as("scanner").isEqualTo(expected.fingerprint());
        assertThat(jsoup.simhash()).as("jsoup").isEqualTo(expected.fingerprint());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "<table>moved out<tr><td>cell</td></tr></table>|foster-parented text|28",
        "<p>&notin the list &notit; here</p>|character reference in text|24",
    })
    void theScannerLeavesTextTreeConstructionWouldMoveOrItCannotDecodeToJsoup(String html, String reason, int at) {
        byte[] body = ("<!doctype html><body>" + html).getBytes(StandardCharsets.UTF_8);
        assertThat(new HrefScanner().scan(body, body.length, "text/html", URL))
                .isEqualTo(new ScanResult.Unsure(reason, reason + " at byte " + at));
    }
}
