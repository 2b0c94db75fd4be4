package org.sievecrawler.parse;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import okhttp3.HttpUrl;

/**
 * A byte-level scanner that reads links and metadata from HTML without building a DOM, and answers
 * {@link ScanResult.Unsure} whenever the page might be read differently by a WHATWG tree builder (jsoup), so the
 * caller can fall back to {@link JsoupPageParser}.
 *
 * <p>It scans bytes for tags, so it only takes ASCII-compatible charsets (UTF-8, ISO-8859-x, windows-125x, ...);
 * attribute values and the title are decoded with the page charset and their character references decoded by
 * {@link CharacterReferences}. It skips comments, bogus comments ({@code <!DOCTYPE>}, {@code <![CDATA[...>}),
 * and the raw text of {@code script}, {@code style}, {@code textarea}, {@code iframe} and {@code title} (reading
 * the title's). To stay faithful to tree construction it follows the open elements with {@link OpenElements},
 * which is unsure of foster-parented content in tables, of misnested or implicitly closed {@code <a>} elements,
 * and of {@code svg}, {@code math}, {@code template}, {@code noscript}, {@code frameset}, {@code frame},
 * {@code plaintext}, {@code xmp}, {@code noembed} and {@code noframes}; the scanner itself is unsure of a
 * {@code select} holding more than options, NUL bytes, tags cut off by the end of the body and {@code <} inside
 * a tag.
 *
 * <p>Stateless and safe for any number of threads: each call scans with its own state. Out of scope: resolving
 * links, and deciding anything the scanner is unsure of (that is the fallback's job).
 */
public final class HrefScanner {
    private static final List<String> OPTION_TAGS = List.of("<option", "<optgroup", "</option", "</optgroup");

    /** Scans a page; never throws on malformed markup (it answers unsure instead). */
    public ScanResult scan(byte[] body, int length, String contentType, HttpUrl pageUrl) {
        PageParser.checkArguments(body, length, pageUrl);
        CharsetSniffer.Sniffed sniffed = CharsetSniffer.sniff(body, length, contentType);
        if (!CharsetSniffer.isAsciiCompatible(sniffed.charset())) {
            String reason = "charset " + sniffed.charset().name() + " is not ASCII-compatible";
            return new ScanResult.Unsure(reason, reason);
        }
        try {
            Scan scan = new Scan(body, length, sniffed.charset(), sniffed.bomLength());
            scan.run();
            return new ScanResult.Scanned(new ParsedPage(scan.title, PageRules.base(pageUrl, scan.baseHref),
                    scan.links, scan.canonical, (scan.robots & PageRules.NOINDEX) != 0,
                    (scan.robots & PageRules.NOFOLLOW) != 0, sniffed.charset(), ParsedPage.ParsedBy.SCANNER));
        } catch (NotSure e) {
            return new ScanResult.Unsure(e.reason(), e.getMessage());
        } catch (RuntimeException e) {
            return new ScanResult.Unsure("scanner failed: " + e.getClass().getSimpleName(), "scanner failed: " + e);
        }
    }


    /** The state of one scan. */
    private static final class Scan implements TagLexer.AttributeSink {
        private final byte[] b;
        private final int end;
        private final Charset charset;
        private int pos;

        String title;
        String baseHref;
        String canonical;
        int robots;
        final List<Outlink> links = new ArrayList<>();

        private final OpenElements open = new OpenElements();
        /** The names of the open foreign elements, as byte ranges: [2i] start, [2i + 1] end; the root first. */
        private int[] foreign = new int[16];

        // the name of the tag just read, and the end of its last attribute value (to tell "/>" from a value's '/')
        private int nameStart;
        private int nameEnd;
        private int lastValueEnd;

        // attribute ranges of the current tag, first occurrence wins; -1 when absent
        private int hrefStart;
        private int hrefEnd;
        private int srcStart;
        private int srcEnd;
        private int relStart;
        private int relEnd;
        private int metaNameStart;
        private int metaNameEnd;
        private int contentStart;
        private int contentEnd;

        Scan(byte[] b, int length, Charset charset, int start) {
            this.b = b;
            this.end = length;
            this.charset = charset;
            this.pos = start;
        }

        void run() {
            int nul = TagLexer.indexOf(b, pos, end, (byte) 0);
            if (nul >= 0) {
                throw new NotSure("NUL byte", nul);
            }
            while (true) {
                int lt = TagLexer.indexOf(b, pos, end, (byte) '<');
                if (lt < 0 || lt + 1 >= end) {
                    return;
                }
                pos = lt;
                byte c = b[lt + 1];
                if (c == '!') {
                    markupDeclaration();
                } else if (c == '?') {
                    pos = afterGt(lt + 2, "<?");
                } else if (c == '/') {
                    endTag();
                } else if (isAsciiLetter(c)) {
                    startTag();
                } else {
                    pos = lt + 1;
                }
            }
        }

        private void markupDeclaration() {
            int at = pos;
            if (TagLexer.startsWith(b, at, end, "<!--")) {
                if (at + 4 < end && b[at + 4] == '>') {
                    pos = at + 5;
                } else if (TagLexer.startsWith(b, at + 4, end, "->")) {
                    pos = at + 6;
                } else {
                    int close = TagLexer.indexOf(b, at + 4, end, "-->");
                    int bang = TagLexer.indexOf(b, at + 4, close < 0 ? end : close + 4, "--!>");
                    if (close < 0 && bang < 0) {
                        throw new NotSure("unclosed comment", at);
                    }
                    pos = bang >= 0 && (close < 0 || bang < close) ? bang + 4 : close + 3;
                }
            } else {
                pos = afterGt(at + 2, "<!");
            }
        }

        private int afterGt(int from, String what) {
            int gt = TagLexer.indexOf(b, from, end, (byte) '>');
            if (gt < 0) {
                throw new NotSure("unclosed " + what, pos);
            }
            return gt + 1;
        }

        private void startTag() {
            int at = pos;
            startElement(readStartTag(at), at);
        }

        /** Reads the start tag at {@code at}, its name and attributes; pos moves past its {@code >}. */
        private TagNames.Tag readStartTag(int at) {
            int i = at + 1;
            while (i < end && !PageRules.isHtmlSpace(b[i]) && b[i] != '/' && b[i] != '>') {
                if (b[i] == '<') {
                    throw new NotSure("'<' inside a tag name", i);
                }
                i++;
            }
            nameStart = at + 1;
            nameEnd = i;
            TagNames.Tag tag = OpenElements.TAGS.tag(b, at + 1, i);
            hrefStart = srcStart = relStart = metaNameStart = contentStart = lastValueEnd = -1;
            pos = checked(TagLexer.readAttributes(b, i, end, this), at);
            return tag;
        }

        /**
         * Whether the tag just read ended with {@code />} (the tokenizer's self-closing flag): the {@code /} stands
         * alone, not at the end of an unquoted attribute value.
         */
        private boolean selfClosing() {
            int gt = pos - 1;
            return b[gt - 1] == '/' && lastValueEnd != gt;
        }

        /**
         * Reads the end tag at pos (a {@code </} followed by a letter, or the other forms the tokenizer reads as a
         * bogus comment or nothing); pos moves past it.
         *
         * @return the tag, or null when it was not an end tag
         */
        private TagNames.Tag readEndTag() {
            int at = pos;
            if (at + 2 >= end) {
                throw new NotSure("'</' at the end of the body", at);
            }
            if (b[at + 2] == '>') {
                pos = at + 3;
                return null;
            }
            if (!isAsciiLetter(b[at + 2])) {
                pos = afterGt(at + 2, "</");
                return null;
            }
            int i = at + 2;
            while (i < end && !PageRules.isHtmlSpace(b[i]) && b[i] != '/' && b[i] != '>') {
                if (b[i] == '<') {
                    throw new NotSure("'<' inside a tag name", i);
                }
                i++;
            }
            nameStart = at + 2;
            nameEnd = i;
            TagNames.Tag tag = OpenElements.TAGS.tag(b, at + 2, i);
            pos = checked(TagLexer.readAttributes(b, i, end, IGNORE), at);
            return tag;
        }

        private void endTag() {
            int at = pos;
            TagNames.Tag tag = readEndTag();
            if (tag != null) {
                open.end(tag, at);
            }
        }

        private int checked(int next, int at) {
            if (next == TagLexer.EOF) {
                throw new NotSure("tag cut off by the end of the body", at);
            }
            if (next == TagLexer.SUSPICIOUS) {
                throw new NotSure("'<' inside a tag", at);
            }
            return next;
        }

        private void startElement(TagNames.Tag tag, int at) {
            open.start(tag, at);
            if (tag.name().equals("select")) {
                read(tag);
                skipSelect(at);
            } else if (tag.is(OpenElements.FOREIGN) && !selfClosing()) {
                foreign(at);
            } else if (tag.is(OpenElements.ISLAND)) {
                island(at);
            } else {
                readElement(tag, at);
            }
        }

        /** Reads what an HTML element gives the page (link, base, robots, title), then skips its raw text. */
        private void readElement(TagNames.Tag tag, int at) {
            read(tag);
            if (tag.is(OpenElements.RAW_TEXT)) {
                skipRawText(tag.name(), at);
            }
        }

        /** What an HTML start tag gives the page: a link, the base, robots directives. */
        private void read(TagNames.Tag tag) {
            switch (tag.name()) {
                case "a" -> link(hrefStart, hrefEnd, Outlink.Kind.A);
                case "area" -> link(hrefStart, hrefEnd, Outlink.Kind.AREA);
                case "iframe" -> link(srcStart, srcEnd, Outlink.Kind.IFRAME);
                case "link" -> {
                    Outlink.Kind kind = hrefStart >= 0 && relStart >= 0
                            ? PageRules.linkKind(value(relStart, relEnd)) : null;
                    if (kind != null) {
                        link(hrefStart, hrefEnd, kind);
                        if (kind == Outlink.Kind.CANONICAL && canonical == null) {
                            canonical = links.get(links.size() - 1).href();
                        }
                    }
                }
                case "base" -> {
                    if (baseHref == null && hrefStart >= 0) {
                        baseHref = value(hrefStart, hrefEnd);
                    }
                }
                case "meta" -> {
                    if (metaNameStart >= 0 && PageRules.isRobotsName(value(metaNameStart, metaNameEnd))
                            && contentStart >= 0) {
                        robots |= PageRules.robotsDirectives(value(contentStart, contentEnd));
                    }
                }
                default -> { }
            }
        }

        /**
         * The content of a {@code noscript}, which jsoup (1.23 on) parses as an island: every tag inside is inserted
         * as plain HTML markup in source order (no implicit closing, foster parenting or adoption agency, and
         * {@code svg} or {@code math} inside are HTML elements too), nothing inside changes the tree outside, and
         * the first {@code </noscript>} closes it all. Raw text elements keep their text states. pos moves past
         * that end tag (or to the end of the body).
         */
        private void island(int at) {
            while (true) {
                int lt = TagLexer.indexOf(b, pos, end, (byte) '<');
                if (lt < 0 || lt + 1 >= end) {
                    pos = end;
                    return;
                }
                pos = lt;
                byte c = b[lt + 1];
                if (c == '!') {
                    markupDeclaration();
                } else if (c == '?') {
                    pos = afterGt(lt + 2, "<?");
                } else if (c == '/') {
                    TagNames.Tag tag = readEndTag();
                    if (tag != null && tag.is(OpenElements.ISLAND)) {
                        return;
                    }
                } else if (isAsciiLetter(c)) {
                    TagNames.Tag tag = readStartTag(lt);
                    if (tag.is(OpenElements.BAIL_OUT | OpenElements.ISLAND)) {
                        throw new NotSure("<" + tag.name() + "> inside a <noscript>", lt);
                    }
                    if (tag.is(OpenElements.RAW_TEXT) && selfClosing()) {
                        throw new NotSure("self-closing <" + tag.name() + "> inside a <noscript>", lt);
                    }
                    readElement(tag, lt);
                } else {
                    pos = lt + 1;
                }
            }
        }

        /**
         * Foreign content: the subtree of an {@code svg} or {@code math} start tag (just read, not self-closing),
         * whose elements are SVG or MathML, not HTML: an {@code <a href>} there is no link. Follows the open foreign
         * elements until the root's end tag, and is unsure of what would take tree construction back to HTML inside
         * it: a breakout start tag ({@code <p>}, {@code <div>}, {@code <b>}, ...), {@code </p>} or {@code </br>}, an end
         * tag that closes no foreign element, markup inside an integration point ({@code title}, {@code desc},
         * {@code foreignObject}, {@code mi}, ...), {@code script} and {@code style}, CDATA sections. pos moves past the
         * root's end tag (or to the end of the body).
         */
        private void foreign(int at) {
            int depth = 0;
            depth = push(depth, at);
            int integration = -1; // the depth of an open integration point, where only text may follow
            while (true) {
                int lt = TagLexer.indexOf(b, pos, end, (byte) '<');
                if (lt < 0 || lt + 1 >= end) {
                    pos = end;
                    return;
                }
                pos = lt;
                byte c = b[lt + 1];
                if (c == '!') {
                    if (TagLexer.startsWith(b, lt, end, "<![CDATA[")) {
                        throw new NotSure("CDATA section in <svg> or <math>", lt);
                    }
                    markupDeclaration();
                } else if (c == '?') {
                    pos = afterGt(lt + 2, "<?");
                } else if (c == '/') {
                    TagNames.Tag tag = readEndTag();
                    if (tag == null) {
                        continue;
                    }
                    if (tag.name().equals("p") || tag.name().equals("br")) {
                        throw new NotSure("</" + tag.name() + "> breaks out of <svg> or <math>", lt);
                    }
                    int open = depth - 1;
                    while (open >= 0 && !sameName(foreign[2 * open], foreign[2 * open + 1])) {
                        open--;
                    }
                    if (open < 0) {
                        throw new NotSure("</" + tag.name() + "> closes an HTML element from <svg> or <math>",
                                lt);
                    }
                    depth = open;
                    if (depth == 0) {
                        return;
                    }
                    if (integration >= depth) {
                        integration = -1;
                    }
                } else if (isAsciiLetter(c)) {
                    if (integration >= 0) {
                        throw new NotSure("markup in an integration point of <svg> or <math>", lt);
                    }
                    TagNames.Tag tag = readStartTag(lt);
                    if (tag.is(OpenElements.BREAKOUT)) {
                        throw new NotSure("<" + tag.name() + "> breaks out of <svg> or <math>", lt);
                    }
                    if (tag.name().equals("script") || tag.name().equals("style")) {
                        throw new NotSure("<" + tag.name() + "> in <svg> or <math>", lt);
                    }
                    if (!selfClosing()) {
                        if (tag.is(OpenElements.INTEGRATION)) {
                            integration = depth;
                        }
                        depth = push(depth, lt);
                    }
                } else {
                    pos = lt + 1;
                }
            }
        }

        /** Pushes the tag name just read onto the open foreign elements; returns the new depth. */
        private int push(int depth, int at) {
            if (2 * depth + 2 > foreign.length) {
                if (depth >= 256) {
                    throw new NotSure("<svg> or <math> nested deeper than 256", at);
                }
                foreign = java.util.Arrays.copyOf(foreign, foreign.length * 2);
            }
            foreign[2 * depth] = nameStart;
            foreign[2 * depth + 1] = nameEnd;
            return depth + 1;
        }

        /** Whether the tag name just read equals the name at [start, stop), ASCII case-insensitively. */
        private boolean sameName(int start, int stop) {
            if (stop - start != nameEnd - nameStart) {
                return false;
            }
            for (int i = 0; i < stop - start; i++) {
                if (TagLexer.lower(b[start + i]) != TagLexer.lower(b[nameStart + i])) {
                    return false;
                }
            }
            return true;
        }


        /** Skips to after the element's end tag; reads the first title's text. */
        private void skipRawText(String name, int at) {
            int i = pos;
            int close = -1;
            while (!name.equals("script")) {
                close = TagLexer.indexOf(b, i, end, "</");
                if (close < 0) {
                    throw new NotSure("<" + name + "> never closed", at);
                }
                int after = close + 2 + name.length();
                if (TagLexer.startsWithIgnoreCase(b, close + 2, end, name) && after < end
                        && (PageRules.isHtmlSpace(b[after]) || b[after] == '/' || b[after] == '>')) {
                    break;
                }
                i = close + 2;
            }
            if (name.equals("script")) {
                close = scriptEnd(at);
            }
            if (name.equals("title") && title == null) {
                String text = CharacterReferences.decode(new String(b, pos, close - pos, charset));
                if (text == null) {
                    throw new NotSure("character reference in the title", at);
                }
                title = PageRules.collapseWhitespace(text);
            }
            pos = checked(TagLexer.readAttributes(b, close + 2 + name.length(), end, IGNORE), close);
        }

        /**
         * The start of the {@code </script>} that ends a script, following the tokenizer's script data states:
         * inside {@code <!--}, a {@code <script>} enters the double-escaped state, where {@code </script>} does not
         * end the script but only leaves that state.
         */
        private int scriptEnd(int at) {
            int state = 0; // 0 data, 1 escaped, 2 double-escaped
            int i = pos;
            while (i < end) {
                byte c = b[i];
                if (c == '<') {
                    if (state != 2 && isTag(i, "</script")) {
                        return i;
                    } else if (state == 2 && isTag(i, "</script")) {
                        state = 1;
                        i += 8;
                        continue;
                    } else if (state == 0 && TagLexer.startsWith(b, i, end, "<!--")) {
                        state = 1;
                        i += 2;
                        continue;
                    } else if (state == 1 && isTag(i, "<script")) {
                        state = 2;
                        i += 7;
                        continue;
                    }
                } else if (c == '-' && state != 0 && TagLexer.startsWith(b, i, end, "-->")) {
                    state = 0;
                    i += 3;
                    continue;
                }
                i++;
            }
            throw new NotSure("<script> never closed", at);
        }

        /** Whether {@code tag} (lower case, like {@code "</script"}) starts at i, followed by space, / or >. */
        private boolean isTag(int i, String tag) {
            int after = i + tag.length();
            return TagLexer.startsWithIgnoreCase(b, i, end, tag) && after < end
                    && (PageRules.isHtmlSpace(b[after]) || b[after] == '/' || b[after] == '>');
        }

        /** Skips a select holding only options and option groups; unsure of anything else in it. */
        private void skipSelect(int at) {
            while (true) {
                int lt = TagLexer.indexOf(b, pos, end, (byte) '<');
                if (lt < 0) {
                    throw new NotSure("<select> never closed", at);
                }
                pos = lt;
                if (TagLexer.startsWith(b, lt, end, "<!--")) {
                    markupDeclaration();
                } else if (isTag(lt, "</select")) {
                    pos = checked(TagLexer.readAttributes(b, lt + 8, end, IGNORE), lt);
                    return;
                } else if (optionTagLength(lt) > 0) {
                    pos = checked(TagLexer.readAttributes(b, lt + optionTagLength(lt), end, IGNORE), lt);
                } else if (lt + 1 < end && (isAsciiLetter(b[lt + 1]) || b[lt + 1] == '/' || b[lt + 1] == '!'
                        || b[lt + 1] == '?')) {
                    throw new NotSure("markup other than options in a <select>", at);
                } else {
                    pos = lt + 1;
                }
            }
        }

        private int optionTagLength(int lt) {
            for (String tag : OPTION_TAGS) {
                if (isTag(lt, tag)) {
                    return tag.length();
                }
            }
            return 0;
        }

        private void link(int start, int stop, Outlink.Kind kind) {
            if (start < 0) {
                return;
            }
            boolean nofollow = relStart >= 0 && PageRules.relHas(value(relStart, relEnd), "nofollow");
            links.add(new Outlink(value(start, stop), kind, nofollow));
        }

        /** An attribute value decoded with the page charset and its character references decoded. */
        private String value(int start, int stop) {
            String raw = new String(b, start, stop - start, charset);
            String decoded = CharacterReferences.decode(raw);
            if (decoded == null) {
                throw new NotSure("character reference in an attribute value", start);
            }
            return decoded;
        }

        @Override
        public void attribute(int ns, int ne, int vs, int ve) {
            lastValueEnd = ve;
            int len = ne - ns;
            if (len == 4 && hrefStart < 0 && TagLexer.nameIs(b, ns, ne, "href")) {
                hrefStart = vs;
                hrefEnd = ve;
            } else if (len == 3 && srcStart < 0 && TagLexer.nameIs(b, ns, ne, "src")) {
                srcStart = vs;
                srcEnd = ve;
            } else if (len == 3 && relStart < 0 && TagLexer.nameIs(b, ns, ne, "rel")) {
                relStart = vs;
                relEnd = ve;
            } else if (len == 4 && metaNameStart < 0 && TagLexer.nameIs(b, ns, ne, "name")) {
                metaNameStart = vs;
                metaNameEnd = ve;
            } else if (len == 7 && contentStart < 0 && TagLexer.nameIs(b, ns, ne, "content")) {
                contentStart = vs;
                contentEnd = ve;
            }
        }

    }

    private static final TagLexer.AttributeSink IGNORE = (ns, ne, vs, ve) -> { };

    private static boolean isAsciiLetter(byte c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
