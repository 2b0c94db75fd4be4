package org.sievecrawler.checkpoint;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.progress.CrawlCounters;

/**
 * The manifest of a crawl's current checkpoint, {@code checkpoint/manifest.properties}: a {@code .properties} file of
 * entries (format and version, state, counters, spill positions, each checkpoint file's length and CRC-32C) that
 * carries a CRC-32C of its own entries. It is written as text by {@link #text} and read, checked, by {@link #read};
 * a read manifest's accessors refuse a missing or malformed entry, naming the file and the entry.
 *
 * <p>Not thread-safe (immutable once read, but for its map). Out of scope: where the manifest lives, the order in
 * which a checkpoint's files and its manifest are written ({@link CheckpointStore}).
 */
final class Manifest {
    /**
     * The format written: 2 since a crawl's seed file is kept once beside its checkpoints and each manifest says how
     * far it was offered ({@code seeds.*}), where a version-1 checkpoint held every seed in its profile. A build that
     * reads only version 1 refuses a version-2 checkpoint rather than resume it without the rest of its seed file.
     */
    static final int FORMAT_VERSION = 2;
    /** The formats read: version 1 (its seeds in its profile) is resumed as it was written. */
    private static final Set<String> READ_VERSIONS = Set.of("1", "2");
    static final String FORMAT = "sievecrawler-checkpoint";
    private static final String CRC_KEY = "manifest-crc32c";

    final Path path;
    final Path folder;
    final Map<String, String> entries;

    private Manifest(Path path, Path folder, Map<String, String> entries) {
        this.path = path;
        this.folder = folder;
        this.entries = entries;
    }

    String get(String key) throws CheckpointException {
        String value = entries.get(key);
        if (value == null) {
            throw new CheckpointException(path + " is missing the entry " + key);
        }
        return value;
    }

    long number(String key) throws CheckpointException {
        String value = get(key);
        try {
            long number = Long.parseLong(value);
            if (number < 0) {
                throw new NumberFormatException();
            }
            return number;
        } catch (NumberFormatException e) {
            throw new CheckpointException(path + ": " + key + " must be a whole number >= 0 (" + value + ")");
        }
    }

    int integer(String key) throws CheckpointException {
        long value = number(key);
        if (value > Integer.MAX_VALUE) {
            throw new CheckpointException(path + ": " + key + " is too large (" + value + ")");
        }
        return (int) value;
    }

    Checkpoint.State state() throws CheckpointException {
        String value = get("state");
        try {
            return Checkpoint.State.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CheckpointException(path + ": state must be running, stopped or finished (" + value + ")");
        }
    }

    /** A part of the checkpoint, checked: present, of the length and CRC-32C the manifest gives. */
    Path file(String name) throws CheckpointException {
        Path file = folder.resolve(name);
        long length = number("file." + name + ".bytes");
        String crc = get("file." + name + ".crc32c");
        if (!Files.isRegularFile(file)) {
            throw new CheckpointException(file + " is missing; the checkpoint " + path + " needs it");
        }
        CRC32C sum = new CRC32C();
        long actual;
        try (InputStream in = new CheckedInputStream(Files.newInputStream(file), sum)) {
            actual = in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new CheckpointException(file + " cannot be read: " + FileErrors.reason(file, e), e);
        }
        if (actual != length) {
            throw new CheckpointException(String.format(Locale.ROOT, "%s is %s: %d bytes, the manifest says %d",
                    file, actual < length ? "truncated" : "too long", actual, length));
        }
        if (!Long.toHexString(sum.getValue()).equals(crc)) {
            throw new CheckpointException(file + " is corrupt: its CRC-32C is " + Long.toHexString(sum.getValue())
                    + ", the manifest says " + crc);
        }
        return file;
    }

    CrawlCounters counters() throws CheckpointException {
        Map<String, Long> outcomes = new HashMap<>();
        Map<Integer, Long> statuses = new HashMap<>();
        Map<String, Long> rejections = new HashMap<>();
        for (String key : entries.keySet()) {
            if (key.startsWith("counters.outcome.")) {
                outcomes.put(key.substring("counters.outcome.".length()), number(key));
            } else if (key.startsWith("counters.status.")) {
                try {
                    statuses.put(Integer.parseInt(key.substring("counters.status.".length())), number(key));
                } catch (NumberFormatException e) {
                    throw new CheckpointException(path + ": " + key + " does not name an HTTP status");
                }
            } else if (key.startsWith("counters.link-rejected.")) {
                rejections.put(key.substring("counters.link-rejected.".length()), number(key));
            }
        }
        return new CrawlCounters(number("counters.decided"), number("counters.fetched"),
                number("counters.bytes"), outcomes, statuses, rejections, numberOrZero("counters.failed-attempts"),
                numberOrZero("counters.retries"));
    }

    /** {@link #number}, or 0 when a checkpoint of an older build does not have the key. */
    long numberOrZero(String key) throws CheckpointException {
        return entries.containsKey(key) ? number(key) : 0;
    }

    /**
     * Reads the manifest at {@code path}, whose checkpoint folders are in {@code checkpointDir}, and checks its
     * format, version and checksum.
     *
     * @throws CheckpointException naming the file and the problem
     */
    static Manifest read(Path path, Path checkpointDir) throws CheckpointException {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(new String(InputFile.read(path, InputFile.MANIFEST),
                    StandardCharsets.ISO_8859_1)));
        } catch (InputFileException e) {
            throw new CheckpointException(path + " cannot be read: " + e.reason(), e);
        } catch (IOException e) {
            throw new CheckpointException(path + " cannot be read: " + FileErrors.reason(path, e), e);
        } catch (IllegalArgumentException e) {
            throw new CheckpointException(path + " cannot be read: " + e.getMessage(), e);
        }
        Map<String, String> entries = new TreeMap<>();
        properties.stringPropertyNames().forEach(key -> entries.put(key, properties.getProperty(key)));
        if (!FORMAT.equals(entries.get("format"))) {
            throw new CheckpointException(path + " is not a Sieve Crawler checkpoint manifest (format "
                    + (entries.get("format") == null ? "missing" : "\"" + entries.get("format") + "\"")
                    + ", expected \"" + FORMAT + "\")");
        }
        String version = entries.get("format-version");
        if (!READ_VERSIONS.contains(version)) {
            throw new CheckpointException(path + " was written by an incompatible version (checkpoint format "
                    + version + "; this build reads formats 1 and " + FORMAT_VERSION + "); start a new crawl");
        }
        String storedCrc = entries.remove(CRC_KEY);
        String computed = Long.toHexString(entriesCrc(entries));
        if (!computed.equals(storedCrc)) {
            throw new CheckpointException(path + " is corrupt: its checksum is " + storedCrc + ", its entries give "
                    + computed);
        }
        return new Manifest(path, checkpointDir.resolve(entries.getOrDefault("folder", "")), entries);
    }

    /** The manifest's text: {@code comment} as its first line, then {@code entries} and their checksum, sorted. */
    static byte[] text(Map<String, String> entries, String comment) {
        Map<String, String> sorted = new TreeMap<>(entries);
        sorted.put(CRC_KEY, Long.toHexString(entriesCrc(sorted)));
        StringBuilder text = new StringBuilder("# " + comment + "\n");
        sorted.forEach((key, value) -> text.append(key).append('=').append(escape(value)).append('\n'));
        return text.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    static void putCounters(Map<String, String> entries, CrawlCounters counters) {
        entries.put("counters.decided", Long.toString(counters.decided()));
        entries.put("counters.fetched", Long.toString(counters.fetched()));
        entries.put("counters.bytes", Long.toString(counters.bytes()));
        entries.put("counters.failed-attempts", Long.toString(counters.failedAttempts()));
        entries.put("counters.retries", Long.toString(counters.retries()));
        counters.outcomes().forEach((label, count) -> entries.put("counters.outcome." + label, count.toString()));
        counters.statuses().forEach((status, count) -> entries.put("counters.status." + status, count.toString()));
        counters.linkRejections().forEach((reason, count) ->
                entries.put("counters.link-rejected." + reason, count.toString()));
    }

    private static long entriesCrc(Map<String, String> entries) {
        CRC32C crc = new CRC32C();
        new TreeMap<>(entries).forEach((key, value) -> {
            if (!key.equals(CRC_KEY)) {
                crc.update((key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8));
            }
        });
        return crc.getValue();
    }

    /** A value in .properties form: backslashes and non-ASCII escaped, as {@link Properties#load} reads them. */
    private static String escape(String value) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\') {
                out.append("\\\\");
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
