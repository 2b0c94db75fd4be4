package org.sievecrawler.parse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A deterministic generator of HTML pages mixing the constructs the scanner must read or refuse: quoting styles,
 * entities, rel values, comments, scripts, tables (well-formed and foster-parented), misnested and unclosed links,
 * blocks inside links, foreign content, templates, frames, selects, raw-text elements and bogus markup.
 */
final class GeneratedPages {
    private final SplittableRandom random;
    /** Whether the page being generated may hold constructs the scanner is expected to refuse. */
    private boolean tricky;

    GeneratedPages(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** {@code count} pages, each as UTF-8 bytes. */
    List<byte[]> pages(int count) {
        List<byte[]> pages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            pages.add(page(i).getBytes(StandardCharsets.UTF_8));
        }
        return pages;
    }

    private String page(int index) {
        StringBuilder sb = new StringBuilder();
        tricky = random.nextInt(3) == 0;
        if (random.nextInt(3) > 0) {
            sb.append(pick("<!DOCTYPE html>\n", "<!doctype html>",
                    "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">\n"));
        }
        sb.append(pick("<html>", "<HTML lang=en>", "", "<html\n  lang=\"en\">"));
        boolean head = random.nextInt(4) > 0;
        if (head) {
            sb.append(pick("<head>", "<HEAD>\n"));
            int headItems = random.nextInt(5);
            for (int i = 0; i < headItems; i++) {
                sb.append(headItem());
            }
            sb.append(pick("</head>", "</HEAD>\n", ""));
        }
        sb.append(pick("<body>", "<BODY class=x>", "\n<body\n>", ""));
        int blocks = 1 + random.nextInt(12);
        for (int i = 0; i < blocks; i++) {
            sb.append(block(0));
        }
        sb.append(pick("</body></html>\n", "</BODY>\n</HTML>", "", "\n"));
        sb.append("<!-- page ").append(index).append(" -->");
        return sb.toString();
    }

    private String headItem() {
        return switch (random.nextInt(9)) {
            case 0 -> "<title>" + text() + pick("", " &amp; more", " &#8211; site", " &mdash; x", " a &lt; b")
                    + "</title>\n";
            case 1 -> "<meta charset=\"utf-8\">\n";
            case 2 -> "<meta name=\"" + pick("robots", "ROBOTS", "googlebot", "description") + "\" content=\""
                    + pick("noindex", "nofollow", "none", "index,follow", "NOINDEX, NOFOLLOW", "noarchive") + "\">\n";
            case 3 -> "<link rel=\"" + pick("canonical", "Canonical", "stylesheet", "alternate", "canonical x")
                    + "\" href=\"" + href() + "\">\n";
            case 4 -> "<base href=\"" + pick("https://b.example.org/dir/", "/sub/", "http://[x", "", "../up/")
                    + "\">\n";
            case 5 -> "<script>" + pick("var a = '<a href=\"/s\">';", "if (x<y) {}", "<!-- document.write('x') -->",
                    "<!-- <script>x</script> <a href=/y> -->", "") + "</script>\n";
            case 6 -> "<style>" + pick("a{b:c}", "/* <a href=/z> */", "") + "</style>\n";
            case 7 -> "<!-- " + pick("<a href=\"/hc\">", "comment", "<title>no</title>") + " -->\n";
            default -> !tricky ? "<noscript><link rel=stylesheet href=n.css></noscript>" : pick(
                    "<noscript><link rel=canonical href=/ns></noscript>",
                    "<noscript><a href=/in-head>x</a><div>y</div></noscript>", "<noscript><title>ns</title></noscript>",
                    "<link rel=stylesheet href=s.css>",
                    "<meta name=viewport content=\"width=device-width\">");
        };
    }

    private String block(int depth) {
        int kind = random.nextInt(depth > 2 ? 10 : 29);
        return switch (kind) {
            case 0, 1, 2, 3 -> "<p>" + text() + " " + link() + " " + text() + pick("</p>\n", "\n", "</P>");
            case 4 -> link() + "\n";
            case 5 -> "<div class=\"c\">" + block(depth + 1) + block(depth + 1) + "</div>\n";
            case 6 -> "<ul>" + item(depth) + item(depth) + item(depth) + "</ul>\n";
            case 7 -> "<span>" + text() + "</span>" + pick("<br>", "<br/>", "</br>", "<hr>");
            case 8 -> "<!-- " + pick(link(), "x -- y", "") + " -->";
            case 9 -> "<h" + (1 + random.nextInt(6)) + ">" + text() + "</h" + (1 + random.nextInt(6)) + ">";
            case 10 -> table(depth);
            case 11 -> "<script>" + pick("document.write(\"<a href='/w'>\")", "var s='</scr'+'ipt>';", "")
                    + pick("</script>", "</SCRIPT>", "</script >") + "\n";
            case 12 -> "<a href=\"" + href() + "\"><div>" + text() + "</div></a>";
            case 13 -> "<a href=\"" + href() + "\">" + text() + pick("", "<div>" + text() + "</div>", "<p>x</p>");
            case 14 -> "<b>" + link() + pick("</b>", "") + text() + pick("</a></b>", "</b></a>", "");
            case 15 -> foreignOrNoscript(depth);
            case 16 -> !tricky ? "<![CDATA[ x ]]>" : pick("<![CDATA[ " + link() + " ]]>", "<?php echo 1 ?>",
                    "<!-- unclosed", "</ bogus>",
                    "</>", "< a href=/no>", "a < b");
            case 17 -> "<iframe src=\"" + href() + "\">" + pick("", "<a href=/in>") + "</iframe>";
            case 18 -> "<textarea>" + pick(link(), "text") + "</textarea>";
            case 19 -> "<select><option>" + text() + pick("", "<option>y", tricky ? "<a href=/opt>o</a>" : "")
                    + "</select>";
            case 20 -> "<map><area href=\"" + href() + "\"" + rel() + "><area nohref></map>";
            case 21 -> "<title>" + text() + "</title>";
            case 22 -> tricky ? "<frame src=/fr>" : "<img src=/i.png alt=\"\">";
            case 23 -> "<p>" + link() + "<div>" + text() + "</div>";
            case 24 -> "<a href=\"" + href() + "\"><h2>" + text() + "</h2><p>" + text() + "</p></a>";
            case 25 -> "<li>" + link();
            case 26 -> "<link rel=canonical href=\"" + href() + "\">";
            case 27 -> boilerplate(depth);
            default -> "<a href=\"" + href() + "\"><span>" + text() + pick("</span></a>", "</a></span>", "</a>");
        };
    }

    /**
     * Navigation boilerplate (nav, aside, role=navigation) as pages hold it, and (on tricky pages) what closes it
     * early or not at all: end tags of elements opened outside it, list items, headings, cells, buttons.
     */
    private String boilerplate(int depth) {
        String nav = pick("<nav>" + block(depth + 1) + block(depth + 1) + pick("</nav>", "</NAV>", ""),
                "<aside class=a>" + block(depth + 1) + "</aside>",
                "<div role=\"" + pick("navigation", "main navigation", "NAVIGATION", "main", "navigation&#32;x")
                        + "\">" + block(depth + 1) + block(depth + 1) + "</div>",
                "<ul role=navigation><li>" + link() + "<li>" + text() + "</ul>",
                "<header>" + text() + "</header><footer>" + text() + "</footer>",
                "<nav><ul><li>" + link() + "</li><li>" + text() + "</ul></nav>" + text());
        if (!tricky) {
            return nav;
        }
        return pick(nav, "<li><nav>" + text() + "</li>" + text(), "<div><nav>" + text() + "</div>" + text(),
                "<nav><li>" + text() + "<nav>" + text() + "</li>" + text() + "</nav>" + text(),
                "<h2><aside>" + text() + "</h2>" + text(), "<table><tr><td><nav>" + text() + "</td><td>y</table>",
                "<nav><table><tr><td>" + text() + "</nav>y</td></tr></table>" + text() + "</nav>" + text(),
                "<button><nav><button>" + text() + "</nav>" + text(), "<nav><b>" + text() + "</nav>y</b>",
                "<b><nav>" + text() + "</b>" + text() + "</nav>" + text(),
                "<nav><span><div></span>" + text() + "</div>" + text() + "</nav>" + text(),
                "<nav><p>" + text() + "</nav>" + text() + "</p>", "<nav><form>x</form>" + text() + "</nav>" + text(),
                "<span role=navigation>" + text() + "</span>", "<div role=navigation><li>x<li>" + text() + "</div>",
                "<dd><div role=navigation><dt>" + text() + "</div>" + text(), "<nav>" + text() + "</aside>" + text(),
                "<nav><h1>" + text() + "<h2>" + text() + "</h3>" + text() + "</nav>" + text(),
                "<p><button><nav>" + text() + "</p>" + text() + "</nav>" + text(),
                "<nav><div>" + text() + "</div></div>" + text() + "</nav>" + text(),
                "<nav><svg><g>" + text() + "</nav>" + text(), "<a href=/n><nav>" + text() + "</a>" + text(),
                "<nav><select><option>" + text() + "</select>" + text() + "</nav>" + text());
    }

    /** SVG, MathML and noscript as pages hold them, and (on tricky pages) what ends them early or oddly. */
    private String foreignOrNoscript(int depth) {
        if (random.nextBoolean()) {
            return "<noscript>" + (depth > 2 ? link() : block(depth + 1)) + pick("</noscript>", "</NOSCRIPT>",
                    tricky ? "" : "</noscript>");
        }
        String svg = pick("<svg viewBox=\"0 0 24 24\"><path d=\"M0 0h24\"/><circle r=1 /></svg>",
                "<a href=\"" + href() + "\"><svg class=i><use href=\"#i\"/></svg>" + text() + "</a>",
                "<svg><g><a href=\"/svg-a\"><text>x</text></a></g></svg>",
                "<svg><title>" + text() + "</title><desc>d</desc></svg>",
                "<svg><![CDATA[ " + link() + " </svg> ]]></svg>",
                "<svg><script>if (a<b) {}" + link() + "</script></svg>",
                "<svg><style>" + link() + "</style></svg>",
                "<svg/>", "<SVG><G><Circle/></g></SVG>", "<svg><path d=M0/>" + link() + "</svg>",
                "<math><mi>x</mi><mo>=</mo><mn>1</mn></math>",
                "<math><annotation-xml><svg><a href=/m></a></svg></annotation-xml></math>");
        if (!tricky) {
            return svg;
        }
        return pick(svg, "<svg><g><p>" + link(), "<svg><font color=red>" + link(), "<svg><font>" + link(),
                "<svg></p>" + link(), "<svg><foreignObject>" + link() + "</foreignObject></svg>",
                "<svg><title>" + link() + "</title></svg>", "<div><svg></div>" + link(),
                "<math><mi><b>x</b></mi></math>", "<svg><a href=/never-closed>",
                "<noscript><script/>" + link() + "</noscript>", "<noscript><select>" + link() + "</select></noscript>",
                "<noscript><a href=/n><div>" + link() + "</noscript>", "<template><a href=/t></a></template>");
    }

    private String item(int depth) {
        return "<li>" + (random.nextBoolean() ? link() : block(depth + 1)) + pick("</li>", "", "</LI>\n");
    }

    private String table(int depth) {
        StringBuilder sb = new StringBuilder("<table>");
        if (random.nextBoolean()) {
            sb.append("<tbody>");
        }
        int rows = 1 + random.nextInt(3);
        for (int r = 0; r < rows; r++) {
            sb.append(pick("<tr>", "<TR>", ""));
            int cells = 1 + random.nextInt(3);
            for (int c = 0; c < cells; c++) {
                sb.append(pick("<td>", "<th>", "<TD class=x>"));
                sb.append(random.nextInt(4) == 0 ? block(depth + 1) : link());
                sb.append(pick("</td>", "", "</th>"));
            }
            if (random.nextInt(8) == 0) {
                sb.append(link());
            }
            sb.append(pick("</tr>", ""));
        }
        sb.append(pick("</table>", "</table>", ""));
        return sb.toString();
    }

    private String link() {
        String tag = pick("a", "a", "a", "A");
        String quote = pick("\"", "\"", "'", "");
        StringBuilder sb = new StringBuilder("<").append(tag);
        if (random.nextInt(10) == 0) {
            sb.append("\n  class=\"l\"");
        }
        sb.append(pick(" href=", " HREF=", " href = ", "\nhref=")).append(quote);
        String href = href();
        if (quote.isEmpty()) {
            href = href.replace(" ", "%20").replace("\"", "").replace("'", "").replace(">", "");
            if (href.isEmpty()) {
                href = "/";
            }
        }
        sb.append(href).append(quote).append(rel());
        if (random.nextInt(12) == 0) {
            sb.append(" href=\"/duplicate\"");
        }
        sb.append(pick(">", ">", " >", "\n>"));
        sb.append(text()).append(pick("</a>", "</A>", "</a>", "</a >"));
        return sb.toString();
    }

    private String rel() {
        return switch (random.nextInt(8)) {
            case 0 -> " rel=\"nofollow\"";
            case 1 -> " rel='noopener NOFOLLOW'";
            case 2 -> " rel=nofollowing";
            case 3 -> " rel=\"\"";
            default -> "";
        };
    }

    private String href() {
        if (!tricky) {
            return pick("/", "/a/b", "page.html", "../up.html", "https://other.example/x", "?q=1&amp;r=2",
                    "?q=1&r=2", "?lang=en&page=2", "/caf&#233;", "/&#x41;&#66;", "/x&eacute;y", "  /spaced  ",
                    "/nb&nbsp;sp", "#frag", "", "/ün/ï", "javascript:void(0)", "/a&quot;b", "/tab\there",
                    "/line\nbreak", "/gt&gt;lt&lt;", "/&hellip;");
        }
        return pick("/", "/a/b", "page.html", "../up.html", "https://other.example/x", "?q=1&amp;r=2", "?q=1&r=2",
                "?lang=en&copy=1", "/caf&#233;", "/&#x41;&#66;", "/x&eacute;y", "  /spaced  ", "/nb&nbsp;sp",
                "#frag", "", "/ün/ï", "javascript:void(0)", "mailto:a@example.org", "/a&quot;b", "/x&notit;",
                "/tab\there", "/line\nbreak", "/a&#0;b", "/gt&gt;lt&lt;", "/&amp", "/&ltx");
    }

    private String text() {
        if (!tricky) {
            return pick("Lorem", "ipsum dolor", "café", "  spaced   out  ", "a &amp; b", "x &lt; y",
                    "&copy; 2025", "&mdash;", "line\nbreak", "&nbsp;", "");
        }
        return pick("Lorem", "ipsum dolor", "caf\u00e9", "  spaced   out  ", "a &amp; b", "x &lt; y", "&copy; 2025",
                "\u65e5\u672c", "line\nbreak", "&nbsp;", "");
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }
}
