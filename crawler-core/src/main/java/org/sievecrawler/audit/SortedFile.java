package org.sievecrawler.audit;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file of lines sorted on disk: lines of tab-separated fields ({@link #line}), sorted by {@link String#compareTo}
 * of the whole line, so by the first field first (a tab sorts before every character a field holds), through an
 * {@link ExternalSort} holding about {@link #RUN_CHARS} characters at once. For the redirect joins, which sort files
 * into files. Not thread-safe (one sort at a time per output).
 *
 * <p>Fields are escaped so that a tab or a line end inside one cannot split it ({@link #field}, {@link #fields}).
 */
final class SortedFile {
    /** Characters of lines sorted in memory at once (about 2 bytes each, plus a String per line). */
    static final long RUN_CHARS = 8L << 20;

    private SortedFile() {
    }

    /** A line of {@code fields}, each escaped: {@code \} as {@code \\}, tab as {@code \t}, CR and LF as {@code \r}, {@code \n}. */
    static String line(String... fields) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                line.append('\t');
            }
            String field = fields[i] == null ? "" : fields[i];
            for (int c = 0; c < field.length(); c++) {
                char ch = field.charAt(c);
                switch (ch) {
                    case '\\' -> line.append("\\\\");
                    case '\t' -> line.append("\\t");
                    case '\n' -> line.append("\\n");
                    case '\r' -> line.append("\\r");
                    default -> line.append(ch);
                }
            }
        }
        return line.toString();
    }

    /** The fields of a {@link #line}, unescaped. */
    static String[] fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        for (int c = 0; c < line.length(); c++) {
            char ch = line.charAt(c);
            if (ch == '\t') {
                fields.add(field.toString());
                field.setLength(0);
            } else if (ch == '\\' && c + 1 < line.length()) {
                char next = line.charAt(++c);
                field.append(next == 't' ? '\t' : next == 'n' ? '\n' : next == 'r' ? '\r' : next);
            } else {
                field.append(ch);
            }
        }
        fields.add(field.toString());
        return fields.toArray(String[]::new);
    }

    /** The first field of a {@link #line}, still escaped (for comparing keys of two sorted files). */
    static String key(String line) {
        int tab = line.indexOf('\t');
        return tab < 0 ? line : line.substring(0, tab);
    }

    /** Sorts the lines of {@code in} into {@code out} (replaced), deleting {@code in}; its runs go beside {@code out}. */
    static void sort(Path in, Path out) throws IOException {
        sort(in, out, RUN_CHARS);
    }

    /** {@link #sort(Path, Path)} with runs of {@code runChars} characters (tests merge many runs with a small one). */
    static void sort(Path in, Path out, long runChars) throws IOException {
        try (ExternalSort sort = new ExternalSort(out.toAbsolutePath().getParent(), 2 * runChars);
                BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            try (BufferedReader reader = Files.newBufferedReader(in, StandardCharsets.UTF_8)) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    sort.add(line);
                }
            }
            sort.sorted(line -> {
                writer.write(line);
                writer.newLine();
            });
        } finally {
            Files.deleteIfExists(in);
        }
    }
}
