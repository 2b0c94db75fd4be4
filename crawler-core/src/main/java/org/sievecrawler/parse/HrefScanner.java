package org.sievecrawler.parse;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import okhttp3.HttpUrl;

/**
 * A byte-level scanner that reads links and metadata from HTML without building a DOM, and answers
 * {@link ScanResult.Unsure} whenever the page might be read differently by jsoup's tree builder (the reference,
 * WHATWG tree construction with jsoup's own departures from it), so the caller can fall back to
 * {@link JsoupPageParser}.
 *
 * <p>It scans bytes for tags, so it only takes ASCII-compatible charsets (UTF-8, ISO-8859-x, windows-125x, ...);
 * attribute values and the title are decoded with the page charset and their character references decoded by
 * {@link CharacterReferences}. It skips comments, bogus comments ({@code <!DOCTYPE>}, {@code <![CDATA[...>}),
 * and the raw text of {@code script}, {@code style}, {@code textarea}, {@code iframe} and {@code title} (reading
 * the title's). To stay faithful to tree construction it follows the open elements with {@link OpenElements}, and
 * reads two kinds of content apart:
 * <ul>
 *   <li>a {@code noscript} (jsoup parses with scripting off, and keeps a noscript's content as an island of plain
 *       markup wherever it stands, in the head, the body or directly in a table): up to the first
 *       {@code </noscript>} every start tag opens an element in place, with no implied end tags, adoption agency,
 *       foster parenting, select or foreign content, so links come in source order; {@code script}, {@code style},
 *       {@code textarea}, {@code title}, {@code iframe}, {@code xmp}, {@code noembed} and {@code noframes} hold
 *       raw text unless the tag self-closes;</li>
 *   <li>{@code svg} and {@code math} foreign content, followed by {@link ForeignElements} to its end tag or a
 *       breakout tag; its elements are not HTML, so its {@code <a>} are no links; CDATA sections are text.</li>
 * </ul>
 *
 * <p>What it is unsure of (the reason labels it answers): with {@link OpenElements}, foster-parented content in
 * tables, misnested or implicitly closed {@code <a>} elements and blocks in an {@code <a>} that may close a
 * {@code <p>} outside it, and {@code template}, {@code frameset}, {@code frame}, {@code plaintext}, {@code xmp},
 * {@code noembed}, {@code noframes}, {@code isindex} and {@code image} outside a noscript; with
 * {@link ForeignElements}, any start tag in an SVG or MathML integration point (HTML again), a breakout while one
 * is open, an end tag that closes no open foreign element, a self-closing SVG {@code script}. The scanner itself
 * is unsure of charsets that are not ASCII-compatible, NUL bytes, a {@code select} holding more than options (a
 * noscript in it included), an unclosed comment or raw-text element, tags cut off by the end of the body,
 * {@code <} inside a tag, and character references {@link CharacterReferences} is unsure of.
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
            String reason = "charset " + sniffed.charset().name();
            return new ScanResult.Unsure(reason, reason + " is not ASCII-compatible");
        }
        try {
            Scan scan = new Scan(body, length, sniffed.charset(), sniffed.bomLength());
            scan.run();
            return new ScanResult.Scanned(new ParsedPage(scan.title, PageRules.base(pageUrl, scan.baseHref),
                    scan.links, scan.canonical, (scan.robots & PageRules.NOINDEX) != 0,
                    (scan.robots & PageRules.NOFOLLOW) != 0, sniffed.charset(), ParsedPage.ParsedBy.SCANNER,
                    scan.simHash.fingerprint()));
        } catch (NotSure e) {
            return new ScanResult.Unsure(e.label(), e.getMessage());
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
        /** The visible text's fingerprint (see {@link ParsedPage#simhash()}), fed by {@link #visibleText}. */
        final SimHash simHash = new SimHash();
        /** Where the visible text not yet fed starts. */
        private int textFrom;
        /** Whether {@link #nextTag} is reading visible text (the main loop's, not that of an element read apart). */
        private boolean visible;

        private final OpenElements open = new OpenElements();
        /** Whether text is navigation boilerplate, which the fingerprint leaves out. */
        private final Boilerplate boilerplate = new Boilerplate();
        /** Created at the first svg or math that opens foreign content. */
        private ForeignElements foreign;

        // attribute ranges of the current tag, first occurrence wins; -1 when absent
        private int hrefStart;
        private int hrefEnd;
        private int srcStart;
        private int srcEnd;
        private int altStart;
        private int altEnd;
        /** The index in {@link #links} of the open {@code <a href>} whose text is being read, or -1. */
        private int anchorLink = -1;
        private LinkText anchorText;
        private int relStart;
        private int relEnd;
        private int nameStart;
        private int nameEnd;
        private int contentStart;
        private int contentEnd;
        private int roleStart;
        private int roleEnd;
        /** The end of the current tag's last attribute value, to tell whether it self-closes. */
        private int lastValueEnd;
        /** The hash of the tag name {@link #tagNameEnd} read last. */
        private int nameHash;

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
            textFrom = pos;
            for (int next = nextVisibleTag(); next != NO_TAG; next = nextVisibleTag()) {
                int lt = pos;
                if (next == END_TAG) {
                    // jsoup's tokenizer emits nothing for "</>", so the text on both sides is one text node
                    visibleText(lt, lt + 2 >= end || b[lt + 2] != '>');
                    TagNames.Tag tag = endTag();
                    if (tag != null) {
                        open.end(tag, lt);
                        boilerplate.end(tag, lt);
                        if (tag.name().equals("a")) {
                            endAnchor();
                        }
                    }
                } else {
                    visibleText(lt, true);
                    startElement(startTag(), lt);
                }
                textFrom = pos;
            }
            visibleText(end, true);
            endAnchor();
        }

        private int nextVisibleTag() {
            visible = true;
            int next = nextTag(false, true);
            visible = false;
            return next;
        }

        /**
         * Feeds the text from {@link #textFrom} to {@code to} to the fingerprint, its character references decoded,
         * and ends the text run there if {@code endsRun} (as a text node ends at a tag or a comment).
         *
         * @throws NotSure for text that tree construction moves (foster-parented out of a table) and character
         *     references {@link CharacterReferences} is unsure of
         */
        private void visibleText(int to, boolean endsRun) {
            int from = textFrom;
            textFrom = to;
            if (from < to && open.inTableOutsideCells() && !spaceOnly(from, to)) {
                throw new NotSure("foster-parented text", from);
            }
            if (boilerplate.inside()) {
                return; // no run to end: the boilerplate's text is apart from the text around it
            }
            // one pass over ASCII text; the rest decoded from its first non-ASCII byte or reference
            int decodeFrom = simHash.asciiUntilDecoded(b, from, to);
            if (decodeFrom < to) {
                String text = CharacterReferences.decode(new String(b, decodeFrom, to - decodeFrom, charset));
                if (text == null) {
                    throw new NotSure("character reference in text", decodeFrom);
                }
                simHash.text(text, 0, text.length());
            }
            if (endsRun) {
                simHash.endRun();
            }
        }

        private boolean spaceOnly(int from, int to) {
            for (int i = from; i < to; i++) {
                if (!PageRules.isHtmlSpace(b[i])) {
                    return false;
                }
            }
            return true;
        }

        /** Gives the open {@code <a href>}, if any, the text read since it opened. */
        private void endAnchor() {
            if (anchorLink >= 0) {
                Outlink a = links.get(anchorLink);
                links.set(anchorLink, new Outlink(a.href(), a.kind(), a.nofollow(), anchorText.text()));
                anchorLink = -1;
                anchorText = null;
            }
        }

        /** The longest run of text between two tags read as link text; a longer one is left to jsoup. */
        private static final int MAX_TEXT_RUN = 16 << 10;

        /** Adds the text {@code [from, to)} to the open {@code <a href>}'s, if one is open and wants more. */
        private void anchorText(int from, int to) {
            if (anchorLink < 0 || from >= to || anchorText.full()) {
                return;
            }
            if (to - from > MAX_TEXT_RUN) {
                throw new NotSure("long text in an <a>", from);
            }
            String text = CharacterReferences.decode(new String(b, from, to - from, charset));
            if (text == null) {
                throw new NotSure("character reference in the text of an <a>", from);
            }
            anchorText.append(text);
        }

        /**
         * Moves {@code pos} to the next start tag ({@code <} and a letter) or end tag ({@code </}) and says which,
         * skipping text, comments, declarations, processing instructions and a {@code <} that opens nothing; at
         * the end of the body, {@code pos} is there and the answer is {@link #NO_TAG}.
         *
         * @param cdataIsText whether a CDATA section is text to skip (foreign content) rather than a bogus comment
         * @param linkText whether the text skipped is HTML text, for the open {@code <a href>}'s text
         */
        private int nextTag(boolean cdataIsText, boolean linkText) {
            int text = pos;
            while (true) {
                int lt = TagLexer.indexOf(b, pos, end, (byte) '<');
                if (lt < 0 || lt + 1 >= end) {
                    if (linkText) {
                        anchorText(text, end);
                    }
                    pos = end;
                    return NO_TAG;
                }
                pos = lt;
                byte c = b[lt + 1];
                boolean tag = c == '/' || isAsciiLetter(c) || c == '!' || c == '?';
                if (tag && linkText) {
                    anchorText(text, lt);
                }
                if (c == '/') {
                    return END_TAG;
                } else if (isAsciiLetter(c)) {
                    return START_TAG;
                } else if (c == '!') {
                    if (visible) {
                        visibleText(lt, true);
                    }
                    markupDeclaration(cdataIsText);
                    textFrom = visible ? pos : textFrom;
                    text = pos;
                } else if (c == '?') {
                    if (visible) {
                        visibleText(lt, true);
                    }
                    pos = afterGt(lt + 2, "<?");
                    textFrom = visible ? pos : textFrom;
                    text = pos;
                } else {
                    pos = lt + 1;
                }
            }
        }

        private void markupDeclaration(boolean cdataIsText) {
            int at = pos;
            if (cdataIsText && TagLexer.startsWith(b, at, end, "<![CDATA[")) {
                int close = TagLexer.indexOf(b, at + 9, end, "]]>");
                pos = close < 0 ? end : close + 3;
            } else if (TagLexer.startsWith(b, at, end, "<!--")) {
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

        /** Reads a start tag at {@code pos} (a letter after its {@code <}) and its attributes, past its {@code >}. */
        private TagNames.Tag startTag() {
            int at = pos;
            int nameEnd = tagNameEnd(at + 1);
            TagNames.Tag tag = OpenElements.TAGS.tag(b, at + 1, nameEnd, nameHash);
            hrefStart = srcStart = altStart = relStart = nameStart = contentStart = roleStart = lastValueEnd = -1;
            pos = checked(TagLexer.readAttributes(b, nameEnd, end, this), at);
            return tag;
        }

        /** Reads an end tag at {@code pos}, up to after its {@code >}; null for {@code </>} and bogus comments. */
        private TagNames.Tag endTag() {
            int at = pos;
            int nameEnd = endTagNameEnd(at);
            if (nameEnd < 0) {
                return null;
            }
            TagNames.Tag tag = OpenElements.TAGS.tag(b, at + 2, nameEnd, nameHash);
            pos = checked(TagLexer.readAttributes(b, nameEnd, end, IGNORE), at);
            return tag;
        }

        /**
         * The end of the name of the end tag at {@code at} ({@code </} and a letter); or -1, with {@code pos} past
         * it, for {@code </>} and for {@code </} and no letter, a bogus comment.
         */
        private int endTagNameEnd(int at) {
            if (at + 2 >= end) {
                throw new NotSure("'</' at the end of the body", at);
            }
            if (b[at + 2] == '>') {
                pos = at + 3;
                return -1;
            }
            if (!isAsciiLetter(b[at + 2])) {
                pos = afterGt(at + 2, "</");
                return -1;
            }
            return tagNameEnd(at + 2);
        }

        /** The end of a tag name starting at {@code i}; its {@link TagNames#hash(byte[], int, int)} is left in {@link #nameHash}. */
        private int tagNameEnd(int i) {
            int h = 0;
            byte c;
            while (i < end && !PageRules.isHtmlSpace(c = b[i]) && c != '/' && c != '>') {
                if (c == '<') {
                    throw new NotSure("'<' inside a tag name", i);
                }
                h = 31 * h + TagLexer.lower(c);
                i++;
            }
            nameHash = h;
            return i;
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

        /** Whether the start tag just read self-closes. */
        private boolean selfClosing() {
            return TagLexer.selfClosing(b, pos, lastValueEnd);
        }

        private void startElement(TagNames.Tag tag, int at) {
            boolean inTable = open.inTable();
            open.start(tag, at);
            boolean root = Boilerplate.isRoot(tag.name(), roleStart >= 0 && Boilerplate.ROLE_ROOTS.contains(tag.name())
                    ? value(roleStart, roleEnd) : null);
            boilerplate.start(tag, root, inTable, at);
            if (tag.name().equals("a")) {
                endAnchor(); // an <a> closes the one open (or there is none: the scanner is unsure of the rest)
            }
            if (tag.is(OpenElements.READ)) {
                readLinks(tag);
                if (tag.name().equals("a") && hrefStart >= 0) {
                    anchorLink = links.size() - 1;
                    anchorText = new LinkText();
                }
            }
            if (tag.is(OpenElements.CONTENT_APART)) {
                if (tag.is(OpenElements.RAW_TEXT)) {
                    skipRawText(tag.name(), at);
                } else if (tag.is(OpenElements.ISLAND)) {
                    island();
                } else if (tag.is(OpenElements.FOREIGN)) {
                    if (!selfClosing()) {
                        foreign(at, tag.name().equals("math"));
                    }
                } else {
                    skipSelect(at);
                }
            }
        }

        /** Reads what the crawl wants from a start tag just read: a link, the base, robots directives. */
        private void readLinks(TagNames.Tag tag) {
            switch (tag.name()) {
                case "a" -> link(hrefStart, hrefEnd, Outlink.Kind.A);
                case "area" -> link(hrefStart, hrefEnd, Outlink.Kind.AREA);
                case "img" -> link(srcStart, srcEnd, Outlink.Kind.IMG);
                case "script" -> link(srcStart, srcEnd, Outlink.Kind.SCRIPT);
                case "iframe" -> link(srcStart, srcEnd, Outlink.Kind.IFRAME);
                case "frame" -> link(srcStart, srcEnd, Outlink.Kind.FRAME);
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
                    if (nameStart >= 0 && PageRules.isRobotsName(value(nameStart, nameEnd)) && contentStart >= 0) {
                        robots |= PageRules.robotsDirectives(value(contentStart, contentEnd));
                    }
                }
                default -> { }
            }
        }

        /**
         * Reads the content of a noscript as jsoup does, as an island of plain markup up to the first
         * {@code </noscript>} or the end of the body: every start tag opens an element where it stands (no
         * implied end tags, no adoption agency, no foster parenting, no select or foreign content, so document
         * order is source order), raw-text elements keep their raw text unless the tag self-closes, and the
         * open elements outside are as they were when the island ends.
         */
        private void island() {
            int outerLink = anchorLink; // an <a> open outside: the noscript's text is not its text
            LinkText outerText = anchorText;
            anchorLink = -1;
            anchorText = null;
            islandTags();
            endAnchor();
            anchorLink = outerLink;
            anchorText = outerText;
        }

        /** The tags of a noscript island (see {@link #island()}), the text of its {@code <a href>} read. */
        private void islandTags() {
            for (int next = nextTag(false, true); next != NO_TAG; next = nextTag(false, true)) {
                int lt = pos;
                if (next == END_TAG) {
                    TagNames.Tag tag = endTag();
                    if (tag != null && tag.is(OpenElements.ISLAND)) {
                        return;
                    }
                    if (tag != null && tag.name().equals("a")) {
                        endAnchor();
                    }
                } else {
                    TagNames.Tag tag = startTag();
                    boolean anchor = tag.name().equals("a");
                    if (anchor && anchorLink >= 0) {
                        throw new NotSure("<a> inside an <a> in a <noscript>", lt);
                    }
                    if (tag.is(OpenElements.READ)) {
                        readLinks(tag);
                        if (anchor && hrefStart >= 0) {
                            anchorLink = links.size() - 1;
                            anchorText = new LinkText();
                        }
                    }
                    boolean selfClosing = selfClosing();
                    if (!selfClosing && tag.is(OpenElements.RAW_TEXT | OpenElements.ISLAND_RAW_TEXT)) {
                        skipRawText(tag.name(), lt);
                    } else if (selfClosing && tag.name().equals("title") && title == null) {
                        title = "";
                    }
                }
            }
        }

        /**
         * Follows foreign content from an svg or math start tag that does not self-close (see
         * {@link ForeignElements}) until its root closes, a breakout (then {@code pos} is at the breakout tag, for
         * the main loop to read as HTML) or the end of the body. Text is skipped, CDATA sections included.
         */
        private void foreign(int at, boolean math) {
            if (foreign == null) {
                foreign = new ForeignElements(b);
            }
            foreign.open(at + 1, at + (math ? 5 : 4), math);
            while (foreign.isOpen()) {
                int next = nextTag(true, false);
                if (next == NO_TAG) {
                    return;
                }
                if (next == END_TAG) {
                    foreignEndTag(pos);
                } else {
                    foreignStartTag(pos);
                }
            }
        }

        private void foreignStartTag(int lt) {
            int nameEnd = tagNameEnd(lt + 1);
            foreign.beforeAttributes();
            int next = checked(TagLexer.readAttributes(b, nameEnd, end, foreign), lt);
            int done = foreign.start(lt + 1, nameEnd, next, lt);
            if (done == ForeignElements.BREAKOUT) {
                pos = lt;
                return;
            }
            pos = next;
            if (done == ForeignElements.SVG_SCRIPT) {
                skipRawText("script", lt);
            }
        }

        private void foreignEndTag(int lt) {
            int nameEnd = endTagNameEnd(lt);
            if (nameEnd < 0) {
                return;
            }
            int next = checked(TagLexer.readAttributes(b, nameEnd, end, IGNORE), lt);
            pos = foreign.end(lt + 2, nameEnd, lt) == ForeignElements.BREAKOUT ? lt : next;
        }

        /** Skips to after the element's end tag; reads the first title's text. */
        private void skipRawText(String name, int at) {
            int close = name.equals("script") ? scriptEnd(at) : rawTextEnd(name, at);
            if (name.equals("title") && title == null) {
                String text = CharacterReferences.decode(new String(b, pos, close - pos, charset));
                if (text == null) {
                    throw new NotSure("character reference in the title", at);
                }
                title = PageRules.title(text);
            }
            pos = checked(TagLexer.readAttributes(b, close + 2 + name.length(), end, IGNORE), close);
        }

        /** The start of the end tag named {@code name} that ends raw text started at {@code pos}. */
        private int rawTextEnd(String name, int at) {
            for (int i = pos; ; ) {
                int close = TagLexer.indexOf(b, i, end, "</");
                if (close < 0) {
                    throw new NotSure("<" + name + "> never closed", at);
                }
                if (TagLexer.startsWithIgnoreCase(b, close + 2, end, name) && endsTagName(close + 2 + name.length())) {
                    return close;
                }
                i = close + 2;
            }
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
                    if (isTag(i, "</script")) {
                        if (state != 2) {
                            return i;
                        }
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
            return TagLexer.startsWithIgnoreCase(b, i, end, tag) && endsTagName(i + tag.length());
        }

        /** Whether a tag name ends just before {@code i}: a space, {@code /} or {@code >} there. */
        private boolean endsTagName(int i) {
            return i < end && (PageRules.isHtmlSpace(b[i]) || b[i] == '/' || b[i] == '>');
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
                    markupDeclaration(false);
                } else if (isTag(lt, "</select")) {
                    pos = checked(TagLexer.readAttributes(b, lt + 8, end, IGNORE), lt);
                    return;
                } else {
                    int option = optionTagLength(lt);
                    if (option > 0) {
                        pos = checked(TagLexer.readAttributes(b, lt + option, end, IGNORE), lt);
                    } else if (lt + 1 < end && (isAsciiLetter(b[lt + 1]) || b[lt + 1] == '/' || b[lt + 1] == '!'
                            || b[lt + 1] == '?')) {
                        throw new NotSure("markup other than options in a <select>", at);
                    } else {
                        pos = lt + 1;
                    }
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
            String text = (kind == Outlink.Kind.IMG || kind == Outlink.Kind.AREA) && altStart >= 0
                    ? LinkText.of(value(altStart, altEnd)) : "";
            links.add(new Outlink(value(start, stop), kind, nofollow, text));
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
            } else if (len == 3 && altStart < 0 && TagLexer.nameIs(b, ns, ne, "alt")) {
                altStart = vs;
                altEnd = ve;
            } else if (len == 3 && relStart < 0 && TagLexer.nameIs(b, ns, ne, "rel")) {
                relStart = vs;
                relEnd = ve;
            } else if (len == 4 && nameStart < 0 && TagLexer.nameIs(b, ns, ne, "name")) {
                nameStart = vs;
                nameEnd = ve;
            } else if (len == 4 && roleStart < 0 && TagLexer.nameIs(b, ns, ne, "role")) {
                roleStart = vs;
                roleEnd = ve;
            } else if (len == 7 && contentStart < 0 && TagLexer.nameIs(b, ns, ne, "content")) {
                contentStart = vs;
                contentEnd = ve;
            }
        }

    }

    private static final TagLexer.AttributeSink IGNORE = (ns, ne, vs, ve) -> { };
    /** What {@link Scan#nextTag} found. */
    private static final int NO_TAG = 0;
    private static final int START_TAG = 1;
    private static final int END_TAG = 2;

    private static boolean isAsciiLetter(byte c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
