package org.sievecrawler.parse;

import java.util.Arrays;

/**
 * The SVG and MathML elements open in foreign content: the part of tree construction {@link HrefScanner} follows
 * from an {@code <svg>} or {@code <math>} start tag until foreign content ends, with jsoup's rules (its
 * {@code ForeignContent} insertion mode and {@code useCurrentOrForeignInsert}):
 * <ul>
 *   <li>a start tag opens an element in the namespace of the current node (an {@code svg} under a MathML
 *       {@code annotation-xml} opens an SVG one); a self-closing one opens and closes at once. Only an SVG
 *       {@code script} has raw content (script data). Elements here are not HTML, so an {@code <a>} is no link;</li>
 *   <li>an end tag closes the innermost open foreign element of its name (ASCII case-insensitively) and every one
 *       above it; foreign content ends when its root closes;</li>
 *   <li>a breakout start tag ({@code <p>}, {@code <div>}, {@code <b>}, {@code <table>}..., a {@code <font>} with
 *       {@code color}, {@code face} or {@code size}) and the end tags {@code </p>} and {@code </br>} close every
 *       foreign element and are then read as HTML, against the open elements as they were before the root.</li>
 * </ul>
 * It throws {@link NotSure} for what it does not follow: any start tag in an HTML integration point (an SVG
 * {@code foreignObject}, {@code desc} or {@code title}, a MathML {@code annotation-xml} whose encoding is HTML)
 * or a MathML text integration point ({@code mi}, {@code mo}, {@code mn}, {@code ms}, {@code mtext}), where
 * markup is HTML again; a breakout with an integration point open; an end tag that matches no open foreign
 * element (jsoup reads it as HTML with the foreign elements still open); a self-closing SVG {@code script}.
 * Text and end tags in integration points are followed.
 *
 * <p>Not thread-safe: one instance per scan. It keeps the open elements as ranges of the page's bytes, so
 * following foreign content allocates nothing. As the {@link TagLexer.AttributeSink} of foreign start tags it
 * notes what decides the tree: whether the tag self-closes, a {@code font}'s breakout attributes, the
 * {@code encoding} of an {@code annotation-xml}.
 */
final class ForeignElements implements TagLexer.AttributeSink {
    /** What a tag did: it opened (or self-closed) an element, or closed some. */
    static final int FOLLOWED = 0;
    /** An SVG script opened: the caller skips its script data and its end tag. */
    static final int SVG_SCRIPT = 1;
    /** Foreign content ended before this tag, which the caller reads again as HTML. */
    static final int BREAKOUT = 2;

    private static final byte SVG = 1;
    private static final byte MATHML = 2;
    private static final byte PLAIN = 0;
    private static final byte HTML_INTEGRATION = 1;
    private static final byte TEXT_INTEGRATION = 2;
    private static final byte ANNOTATION = 3;

    private final byte[] b;
    private int[] nameStarts = new int[8];
    private int[] nameEnds = new int[8];
    private byte[] namespaces = new byte[8];
    private byte[] kinds = new byte[8];
    private int depth;
    private String root;

    // what the attributes of the start tag being read decide
    private int lastValueEnd;
    private boolean fontBreakout;
    private int encodingStart;
    private int encodingEnd;

    ForeignElements(byte[] b) {
        this.b = b;
    }

    /** Starts foreign content at an {@code <svg>} or {@code <math>} start tag that does not self-close. */
    void open(int nameStart, int nameEnd, boolean math) {
        depth = 0;
        root = math ? "<math>" : "<svg>";
        push(nameStart, nameEnd, math ? MATHML : SVG, PLAIN);
    }

    /** Whether foreign content goes on. */
    boolean isOpen() {
        return depth > 0;
    }

    /** Resets what the attributes of the next start tag decide; call before reading them into this sink. */
    void beforeAttributes() {
        lastValueEnd = -1;
        fontBreakout = false;
        encodingStart = -1;
    }

    @Override
    public void attribute(int nameStart, int nameEnd, int valueStart, int valueEnd) {
        lastValueEnd = valueEnd;
        int len = nameEnd - nameStart;
        if ((len == 5 && TagLexer.nameIs(b, nameStart, nameEnd, "color"))
                || (len == 4 && (TagLexer.nameIs(b, nameStart, nameEnd, "face")
                        || TagLexer.nameIs(b, nameStart, nameEnd, "size")))) {
            fontBreakout = true;
        } else if (len == 8 && encodingStart < 0 && TagLexer.nameIs(b, nameStart, nameEnd, "encoding")) {
            encodingStart = valueStart;
            encodingEnd = valueEnd;
        }
    }

    /**
     * Follows a start tag in foreign content, its attributes read into this sink.
     *
     * @param next the position after the tag's {@code >}
     * @return {@link #FOLLOWED}, {@link #SVG_SCRIPT} or {@link #BREAKOUT} (foreign content is then over)
     * @throws NotSure see the class comment
     */
    int start(int nameStart, int nameEnd, int next, int at) {
        int top = depth - 1;
        byte kind = kinds[top];
        byte namespace = namespaces[top];
        if (kind == HTML_INTEGRATION || (kind == TEXT_INTEGRATION && !is(nameStart, nameEnd, "mglyph")
                && !is(nameStart, nameEnd, "malignmark"))) {
            throw new NotSure("HTML inside " + root, at);
        }
        if (kind == ANNOTATION && is(nameStart, nameEnd, "svg")) {
            namespace = SVG;
        } else {
            TagNames.Tag known = OpenElements.TAGS.known(b, nameStart, nameEnd);
            if (known != null && (known.is(OpenElements.BREAKOUT)
                    || (fontBreakout && known.name().equals("font")))) {
                breakout(at);
                return BREAKOUT;
            }
        }
        boolean selfClosing = TagLexer.selfClosing(b, next, lastValueEnd);
        if (namespace == SVG && is(nameStart, nameEnd, "script")) {
            if (selfClosing) {
                throw new NotSure("self-closing <script> inside " + root, at);
            }
            return SVG_SCRIPT;
        }
        if (!selfClosing) {
            push(nameStart, nameEnd, namespace, kindOf(nameStart, nameEnd, namespace));
        }
        return FOLLOWED;
    }

    /**
     * Follows an end tag in foreign content.
     *
     * @return {@link #FOLLOWED} or {@link #BREAKOUT} (foreign content is then over)
     * @throws NotSure when no open foreign element has the name, or at a breakout with an integration point open
     */
    int end(int nameStart, int nameEnd, int at) {
        if (is(nameStart, nameEnd, "p") || is(nameStart, nameEnd, "br")) {
            breakout(at);
            return BREAKOUT;
        }
        for (int i = depth - 1; i >= 0; i--) {
            if (sameName(i, nameStart, nameEnd)) {
                depth = i;
                return FOLLOWED;
            }
        }
        throw new NotSure("unmatched end tag inside " + root, at);
    }

    private void breakout(int at) {
        for (int i = 0; i < depth; i++) {
            if (kinds[i] == HTML_INTEGRATION || kinds[i] == TEXT_INTEGRATION) {
                throw new NotSure("HTML inside " + root, at);
            }
        }
        depth = 0;
    }

    private byte kindOf(int nameStart, int nameEnd, byte namespace) {
        if (namespace == SVG) {
            return is(nameStart, nameEnd, "foreignobject") || is(nameStart, nameEnd, "desc")
                    || is(nameStart, nameEnd, "title") ? HTML_INTEGRATION : PLAIN;
        }
        if (is(nameStart, nameEnd, "mi") || is(nameStart, nameEnd, "mo") || is(nameStart, nameEnd, "mn")
                || is(nameStart, nameEnd, "ms") || is(nameStart, nameEnd, "mtext")) {
            return TEXT_INTEGRATION;
        }
        if (is(nameStart, nameEnd, "annotation-xml")) {
            return htmlEncoding() ? HTML_INTEGRATION : ANNOTATION;
        }
        return PLAIN;
    }

    /** Whether the encoding attribute read is text/html or application/xhtml+xml (trimmed, any case). */
    private boolean htmlEncoding() {
        if (encodingStart < 0) {
            return false;
        }
        int s = encodingStart;
        int e = encodingEnd;
        while (s < e && (b[s] & 0xff) <= ' ') {
            s++;
        }
        while (e > s && (b[e - 1] & 0xff) <= ' ') {
            e--;
        }
        if (TagLexer.indexOf(b, s, e, (byte) '&') >= 0) {
            return true; // a character reference might spell it: count it as HTML, so that markup in it is unsure
        }
        return TagLexer.nameIs(b, s, e, "text/html") || TagLexer.nameIs(b, s, e, "application/xhtml+xml");
    }

    private boolean is(int nameStart, int nameEnd, String lowerName) {
        return TagLexer.nameIs(b, nameStart, nameEnd, lowerName);
    }

    private boolean sameName(int i, int nameStart, int nameEnd) {
        int s = nameStarts[i];
        int len = nameEnds[i] - s;
        if (len != nameEnd - nameStart) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            if (TagLexer.lower(b[s + k]) != TagLexer.lower(b[nameStart + k])) {
                return false;
            }
        }
        return true;
    }

    private void push(int nameStart, int nameEnd, byte namespace, byte kind) {
        if (depth == nameStarts.length) {
            nameStarts = Arrays.copyOf(nameStarts, depth * 2);
            nameEnds = Arrays.copyOf(nameEnds, depth * 2);
            namespaces = Arrays.copyOf(namespaces, depth * 2);
            kinds = Arrays.copyOf(kinds, depth * 2);
        }
        nameStarts[depth] = nameStart;
        nameEnds[depth] = nameEnd;
        namespaces[depth] = namespace;
        kinds[depth] = kind;
        depth++;
    }
}
