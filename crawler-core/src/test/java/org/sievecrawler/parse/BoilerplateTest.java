package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/**
 * Navigation boilerplate left out of the fingerprint, by both parsers alike, and the scanner unsure where a tag may
 * close the navigation in a way it does not follow.
 */
class BoilerplateTest {
    private static final HttpUrl PAGE = HttpUrl.get("https://example.org/dir/page.html");
    private static final String CONTENT = "<h1>Ownership</h1><p>Each value in Rust has an owner, and there can only be"
            + " one owner at a time.</p>";
    private static final String WITHOUT = "<body>" + CONTENT + "<p>When the owner goes out of scope, the value is"
            + " dropped.</p></body>";

    private final HrefScanner scanner = new HrefScanner();
    private final JsoupPageParser jsoup = new JsoupPageParser();

    @Test
    void leavesNavAsideAndRoleNavigationOutOfTheFingerprintInBothParsers() {
        long expected = fingerprints(WITHOUT);
        String sidebar = "<ol class=chapter><li><a href=/a>Getting started</a><li><a href=/b>Installation</a>"
                + "<li><div><a href=/c>Hello, world</a></div></ol>";
        for (String nav : new String[] {
                "<nav id=sidebar>" + sidebar + "</nav>",
                "<aside><p>Note: a long aside <b>in bold</b></aside>",
                "<div class=sphinxsidebar role=\"navigation\" aria-label=main>" + sidebar + "<div>x</div></div>",
                "<ul role=\"menu navigation\"><li>One<li>Two</ul>",
                "<nav><nav>nested</nav>still nav<aside>and aside</aside></nav>",
                "<nav><p>unclosed p<li>item</nav>",
                "<nav><table><tr><td>cell</nav>text</td></tr></table>more</nav>",
                "<nav><span><div></span>odd</div>still</nav>",
                "<nav><b>bold</nav>",
        }) {
            String html = "<body>" + CONTENT + nav + "<p>When the owner goes out of scope, the value is dropped.</p>"
                    + "</body>";
            assertThat(fingerprints(html)).as(html).isEqualTo(expected);
        }
    }

    @Test
    void keepsTheTextOfOtherRolesHeadersAndFooters() {
        long without = fingerprints(WITHOUT);
        for (String kept : new String[] {
                "<div role=main>Main text here</div>", "<span role=navigation>inline, not a root</span>",
                "<header>A page header</header>", "<footer>Last updated 2026</footer>",
                "<div role=navigationx>not the token</div>"}) {
            String html = "<body>" + CONTENT + kept + "<p>When the owner goes out of scope, the value is dropped.</p>";
            assertThat(fingerprints(html)).as(html).isNotEqualTo(without);
        }
    }

    @Test
    void textAfterANavClosedByAnOuterEndTagIsLeftToJsoup() {
        for (String html : new String[] {
                "<ul><li><nav>menu</li>after</ul>", "<div><nav>menu</div>after",
                "<h2><aside>aside</h2>after", "<table><tr><td><nav>menu</td><td>cell</td></tr></table>",
                "<button><nav><button>x</nav>after", "<dl><dd><div role=navigation><dt>x</div>after</dl>"}) {
            byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
            assertThat(scanner.scan(bytes, bytes.length, null, PAGE)).as(html)
                    .isInstanceOf(ScanResult.Unsure.class);
        }
    }

    @Test
    void readsTheNavigationRoleToken() {
        assertThat(Boilerplate.isNavigation("navigation")).isTrue();
        assertThat(Boilerplate.isNavigation(" Main NAVIGATION ")).isTrue();
        assertThat(Boilerplate.isNavigation("navigationx")).isFalse();
        assertThat(Boilerplate.isNavigation("")).isFalse();
        assertThat(Boilerplate.isRoot("nav", null)).isTrue();
        assertThat(Boilerplate.isRoot("div", "navigation")).isTrue();
        assertThat(Boilerplate.isRoot("span", "navigation")).isFalse();
        assertThat(Boilerplate.isRoot("header", null)).isFalse();
    }

    /** The page's fingerprint, the same from both parsers (the scanner sure of the page). */
    private long fingerprints(String html) {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        ScanResult result = scanner.scan(bytes, bytes.length, null, PAGE);
        assertThat(result).as(html).isInstanceOf(ScanResult.Scanned.class);
        long scanned = ((ScanResult.Scanned) result).page().simhash();
        long parsed = jsoup.parse(bytes, bytes.length, null, PAGE).simhash();
        assertThat(SimHash.hex(scanned)).as("scanner against jsoup on %s", html).isEqualTo(SimHash.hex(parsed));
        return scanned;
    }
}
