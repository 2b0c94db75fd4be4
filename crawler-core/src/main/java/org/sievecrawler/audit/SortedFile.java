package org.sievecrawler.audit;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A file of lines sorted on disk: lines of tab-separated fields ({@link #line}), sorted by {@link String#compareTo}
 * of the whole line, so by the first field first (a tab sorts before every character a field holds). Runs of at most
 * {@link #RUN_CHARS} characters are sorted in memory and written beside the output, then merged in one pass; memory
 * is one run and one line per run whatever the file's size. The smallest external sort the redirect joins need; not
 * thread-safe (one sort at a time per output). Written beside the simhash branch's {@code SortedLines} (in memory
 * lines in, merged lines out) before it reached main: the two can become one.
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
        List<Path> runs = new ArrayList<>();
        try {
            try (BufferedReader reader = Files.newBufferedReader(in, StandardCharsets.UTF_8)) {
                List<String> run = new ArrayList<>();
                long chars = 0;
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    run.add(line);
                    chars += line.length() + 16;
                    if (chars >= runChars) {
                        runs.add(writeRun(run, out, runs.size()));
                        run.clear();
                        chars = 0;
                    }
                }
                if (!run.isEmpty() || runs.isEmpty()) {
                    runs.add(writeRun(run, out, runs.size()));
                }
            }
            merge(runs, out);
        } finally {
            for (Path run : runs) {
                Files.deleteIfExists(run);
            }
            Files.deleteIfExists(in);
        }
    }

    private static Path writeRun(List<String> run, Path out, int number) throws IOException {
        run.sort(null);
        Path file = out.resolveSibling(out.getFileName() + ".run" + number);
        Files.write(file, run, StandardCharsets.UTF_8);
        return file;
    }

    private record Head(String line, BufferedReader from) {
    }

    private static void merge(List<Path> runs, Path out) throws IOException {
        if (runs.size() == 1) {
            Files.move(runs.get(0), out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        List<BufferedReader> readers = new ArrayList<>();
        try (BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> a.line().compareTo(b.line()));
            for (Path run : runs) {
                BufferedReader reader = Files.newBufferedReader(run, StandardCharsets.UTF_8);
                readers.add(reader);
                String first = reader.readLine();
                if (first != null) {
                    heads.add(new Head(first, reader));
                }
            }
            while (!heads.isEmpty()) {
                Head head = heads.poll();
                writer.write(head.line());
                writer.newLine();
                String next = head.from().readLine();
                if (next != null) {
                    heads.add(new Head(next, head.from()));
                }
            }
        } finally {
            for (BufferedReader reader : readers) {
                try {
                    reader.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }
}
