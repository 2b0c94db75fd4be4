package org.sievecrawler.bench;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Generates a static documentation-like site for the crawl benchmark: {@code sections × pages} pages under
 * {@code /sN/pM.html}, section indexes, a home page and a robots.txt. Each page has a header navigation of
 * every section (the same 40-odd links everywhere, so most links a crawler meets are already seen), a sidebar of
 * its section, ~20 links in the text (relative, absolute-path, full and fragment forms) and a footer; body
 * text is sized so the median page is about 12 KB, with one page in 200 over 1 MB (a huge table). Every page is
 * reachable from the home page. Deterministic for a seed.
 *
 * <pre>
 * java -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.StaticSite DIR [SECTIONS] [PAGES] [ORIGIN]
 * </pre>
 */
public final class StaticSite {
    private static final String[] WORDS = ("crawler frontier bloom filter politeness robots sitemap fetch parse "
            + "link queue host thread memory index document section reference guide example configure option "
            + "value default timeout retry redirect archive record header status response request cache delay")
            .split(" ");

    private final int sections;
    private final int pages;
    private final String origin;

    StaticSite(int sections, int pages, String origin) {
        this.sections = sections;
        this.pages = pages;
        this.origin = origin;
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: StaticSite DIR [SECTIONS=100] [PAGES=100] [ORIGIN=http://127.0.0.1:8080]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        int sections = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int pages = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        String origin = args.length > 3 ? args[3] : "http://127.0.0.1:8080";
        long bytes = new StaticSite(sections, pages, origin).write(dir);
        System.out.printf(Locale.ROOT, "wrote %d pages, %.1f MB, to %s%n", sections * pages + sections + 1,
                bytes / 1e6, dir);
    }

    long write(Path dir) throws IOException {
        Files.createDirectories(dir);
        long bytes = 0;
        Files.writeString(dir.resolve("robots.txt"), "User-agent: *\nDisallow: /private/\n");
        bytes += writePage(dir.resolve("index.html"), home());
        for (int s = 0; s < sections; s++) {
            Path sectionDir = dir.resolve("s" + s);
            Files.createDirectories(sectionDir);
            bytes += writePage(sectionDir.resolve("index.html"), sectionIndex(s));
            for (int p = 0; p < pages; p++) {
                bytes += writePage(sectionDir.resolve("p" + p + ".html"), page(s, p));
            }
        }
        return bytes;
    }

    private static long writePage(Path file, String html) throws IOException {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        Files.write(file, bytes);
        return bytes.length;
    }

    private String home() {
        StringBuilder html = head("Home");
        nav(html);
        html.append("<main><h1>Documentation</h1><ul>\n");
        for (int s = 0; s < sections; s++) {
            html.append("<li><a href=\"/s").append(s).append("/index.html\">Section ").append(s).append("</a></li>\n");
        }
        html.append("</ul></main>\n");
        return footer(html);
    }

    private String sectionIndex(int s) {
        StringBuilder html = head("Section " + s);
        nav(html);
        html.append("<main><h1>Section ").append(s).append("</h1><ol>\n");
        for (int p = 0; p < pages; p++) {
            html.append("<li><a href=\"p").append(p).append(".html\">Page ").append(p).append("</a></li>\n");
        }
        html.append("</ol></main>\n");
        return footer(html);
    }

    private String page(int s, int p) {
        SplittableRandom random = new SplittableRandom(((long) s << 32) ^ p ^ 0x5EED);
        StringBuilder html = head("Section " + s + ", page " + p);
        nav(html);
        html.append("<aside><h2>In this section</h2><ul>\n");
        for (int i = -10; i <= 10; i++) {
            int q = Math.floorMod(p + i, pages);
            html.append("<li><a href=\"p").append(q).append(".html\">Page ").append(q).append("</a></li>\n");
        }
        html.append("</ul></aside>\n<main><h1>Section ").append(s).append(", page ").append(p).append("</h1>\n");
        // Lognormal-ish text length around a 12 KB median page.
        int paragraphs = (int) Math.max(2, Math.round(Math.exp(2.65 + 0.7 * random.nextGaussian())));
        for (int i = 0; i < paragraphs; i++) {
            html.append("<p>");
            int words = 40 + random.nextInt(60);
            for (int w = 0; w < words; w++) {
                html.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
                if (w % 25 == 24) {
                    inlineLink(html, random);
                }
            }
            html.append("</p>\n");
        }
        for (int i = 0; i < 8; i++) {
            inlineLink(html, random);
        }
        if (random.nextInt(200) == 0) {
            html.append("<table>\n"); // one page in 200 carries a table of over 1 MB
            for (int row = 0; row < 18_000; row++) {
                html.append("<tr><td>").append(row).append("</td><td>value ").append(random.nextLong())
                        .append("</td><td>").append(WORDS[row % WORDS.length]).append("</td></tr>\n");
            }
            html.append("</table>\n");
        }
        html.append("<p><a href=\"p").append((p + 1) % pages).append(".html\">Next</a> ")
                .append("<a href=\"#top\">Top</a> <a href=\"/private/admin.html\">Admin</a></p>\n</main>\n");
        return footer(html);
    }

    private void inlineLink(StringBuilder html, SplittableRandom random) {
        int s = random.nextInt(sections);
        int p = random.nextInt(pages);
        switch (random.nextInt(4)) {
            case 0:
                html.append("<a href=\"../s").append(s).append("/p").append(p).append(".html\">");
                break;
            case 1:
                html.append("<a href=\"/s").append(s).append("/p").append(p).append(".html#details\">");
                break;
            case 2:
                html.append("<a href=\"").append(origin).append("/s").append(s).append("/p").append(p)
                        .append(".html\">");
                break;
            default:
                html.append("<a class=\"ref\" href='/s").append(s).append("/p").append(p).append(".html'>");
                break;
        }
        html.append("see ").append(s).append('.').append(p).append("</a> ");
    }

    private static StringBuilder head(String title) {
        return new StringBuilder(16_384).append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<title>").append(title).append(" &mdash; Docs</title>")
                .append("<link rel=\"stylesheet\" href=\"/style.css\"></head>\n<body id=\"top\">\n");
    }

    private void nav(StringBuilder html) {
        html.append("<header><nav><a href=\"/index.html\">Home</a>\n");
        for (int s = 0; s < Math.min(sections, 40); s++) {
            html.append("<a href=\"/s").append(s).append("/index.html\">S").append(s).append("</a>\n");
        }
        html.append("</nav></header>\n");
    }

    private static String footer(StringBuilder html) {
        return html.append("<footer><a href=\"/about.html\">About</a> <a href=\"/index.html\">Home</a> ")
                .append("<a href=\"mailto:docs@example.org\">Contact</a></footer>\n</body></html>\n").toString();
    }
}
