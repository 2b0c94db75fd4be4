package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/**
 * Random soups of navigation elements and the tags that may close them (blocks, list items, headings, tables,
 * buttons, formatting elements, stray end tags): wherever the scanner answers, its fingerprint equals jsoup's.
 */
class BoilerplateFuzzTest {
    private static final HttpUrl PAGE = HttpUrl.get("https://example.org/dir/page.html");
    private static final long SEED = 28;
    private static final int PAGES = 5_000;
    private static final String[] TAGS = {"<nav>", "</nav>", "<aside>", "</aside>", "<div role=navigation>",
        "<div>", "</div>", "<ul>", "</ul>", "<li>", "</li>", "<p>", "</p>", "<h2>", "</h2>", "<h3>", "</h3>",
        "<table>", "</table>", "<tr>", "<td>", "</td>", "<button>", "</button>", "<b>", "</b>", "<span>", "</span>",
        "<dl>", "<dd>", "<dt>", "</dd>", "<form>", "</form>", "<section>", "</section>", "<br>", "</br>",
        "<header>", "</header>", "<ul role=navigation>", "<a href=/x>", "</a>", "<i>", "</i>", "<em>",
        "</body>", "<select><option>o</select>", "<svg><g>", "</svg>", "<noscript>", "</noscript>", "<main>",
        "</main>", "<address>", "</address>", "<marquee>", "</marquee>", "<object>", "</object>", "<caption>",
        "<th>", "<tbody>", "</tr>", "<pre>", "</pre>", "<hr>", "<footer role=navigation>", "</footer>", "<nobr>",
        "<ruby><rt>", "<option>", "</option>", "<h1>", "</h6>", "</html>", "<center>", "</center>",
        "<li role=navigation>", "<applet>", "</applet>", "<template>", "<ol>", "</ol>", "<dir>", "</dd>", "</dt>",
        "<s>", "</s>", "<font>", "</font>", "<summary>", "<details>", "</details>", "<input>", "<textarea>t</textarea>"};
    private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};

    private final HrefScanner scanner = new HrefScanner();
    private final JsoupPageParser jsoup = new JsoupPageParser();

    @Test
    void theScannerAgreesWithJsoupOnNavigationSoupsWhereverItAnswers() {
        SplittableRandom random = new SplittableRandom(SEED);
        int answered = 0;
        int navigation = 0;
        List<String> differ = new ArrayList<>();
        for (int i = 0; i < PAGES; i++) {
            StringBuilder html = new StringBuilder("<!doctype html><body>");
            for (int n = 4 + random.nextInt(40); n > 0; n--) {
                html.append(random.nextInt(3) == 0 ? WORDS[random.nextInt(WORDS.length)] + ' '
                        : TAGS[random.nextInt(TAGS.length)]);
            }
            byte[] body = html.toString().getBytes(StandardCharsets.UTF_8);
            if (scanner.scan(body, body.length, null, PAGE) instanceof ScanResult.Scanned scanned) {
                answered++;
                if (html.indexOf("nav") >= 0 || html.indexOf("aside") >= 0) {
                    navigation++;
                }
                long expected = jsoup.parse(body, body.length, null, PAGE).simhash();
                if (scanned.page().simhash() != expected) {
                    differ.add(html.toString());
                }
            }
        }
        System.out.printf("navigation soups: the scanner answered %d of %d (%d with navigation)%n", answered, PAGES,
                navigation);
        assertThat(differ).as("soups whose fingerprints differ").isEmpty();
        assertThat(navigation).as("answered soups holding navigation").isGreaterThan(PAGES / 10);
    }
}
