package org.sievecrawler.profile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.profile.YamlNode.Entry;
import org.sievecrawler.profile.YamlNode.Mapping;
import org.sievecrawler.profile.YamlNode.Mark;

/**
 * Loads a YAML crawl profile into a validated {@link CrawlProfile}: reads the file (a regular file of at most
 * {@link InputFile#PROFILE} bytes, as is each file it extends), follows {@code extends}
 * (a parent profile, its path relative to the file, deep-merged under the child: maps merge key by key and the
 * child wins, lists are replaced; the parent's {@code name} is not inherited), fills every absent key from
 * {@link CrawlProfile#defaults()} (the values of {@code config/default.yaml}) and reports every mistake at once as
 * a {@link ProfileException}. Stateless and thread-safe. Command-line overrides are out of scope: the caller
 * applies them to the returned record.
 */
public final class ProfileLoader {
    /** The classpath copy of {@code config/default.yaml}, put there by the build. */
    public static final String DEFAULTS_RESOURCE = "/org/sievecrawler/profile/default.yaml";

    private static final String EXTENDS = "extends";
    private static final String NAME = "name";

    private ProfileLoader() {
    }

    /**
     * The profile in {@code file}; absent keys take their defaults, and a missing {@code name} is the file's name
     * without its extension.
     *
     * @throws ProfileException listing every mistake, each with its file, line, column and key
     */
    public static CrawlProfile load(Path file) throws ProfileException {
        return load(file, InputFile.PROFILE);
    }

    /**
     * {@link #load(Path)} of a file of another kind than a profile the user writes, whose size {@code bound}
     * gives (a checkpoint's profile, which holds the seeds of a seed file); the files it extends are profiles.
     *
     * @throws ProfileException listing every mistake, each with its file, line, column and key
     */
    public static CrawlProfile load(Path file, InputFile.Bound bound) throws ProfileException {
        List<ProfileProblem> problems = new ArrayList<>();
        List<String> files = new ArrayList<>();
        Mapping tree = readWithParents(file, bound, new ArrayList<>(), null, problems, files);
        CrawlProfile profile = new ProfileBinder(problems)
                .bind(tree == null ? new Mapping(Map.of(), new Mark(file.toString(), 1, 1)) : tree, stem(file));
        if (!problems.isEmpty()) {
            problems.sort(Comparator.<ProfileProblem>comparingInt(p -> order(files, p.file()))
                    .thenComparingInt(ProfileProblem::line).thenComparingInt(ProfileProblem::column));
            throw new ProfileException(problems);
        }
        return profile;
    }

    /** The built-in profile, read from {@link #DEFAULTS_RESOURCE} (equal to {@link CrawlProfile#defaults()}). */
    public static CrawlProfile loadDefaults() {
        return loadBuiltIn("default");
    }

    /**
     * A profile shipped in the jar: {@code config/NAME.yaml} as the build copies it next to this class
     * ("default" and "demo").
     *
     * @throws IllegalStateException if the jar lacks it or it does not load: a build error, not a user's
     */
    public static CrawlProfile loadBuiltIn(String name) {
        String resource = "/org/sievecrawler/profile/" + name + ".yaml";
        String label = "classpath:" + resource;
        try (InputStream in = ProfileLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(label + " is missing from the jar; the build copies it from"
                        + " config/" + name + ".yaml");
            }
            List<ProfileProblem> problems = new ArrayList<>();
            Mapping tree = new YamlReader(label, problems).read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            CrawlProfile profile = tree == null ? null : new ProfileBinder(problems).bind(tree, name);
            if (!problems.isEmpty()) {
                throw new IllegalStateException(new ProfileException(problems).getMessage());
            }
            return profile;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + label + ": " + e, e);
        }
    }

    /** The file's tree merged over its parents', or null; {@code via} is the extends entry that named it. */
    private static Mapping readWithParents(Path file, InputFile.Bound bound, List<Path> chain, Entry via,
            List<ProfileProblem> problems, List<String> files) {
        String label = file.toString();
        files.add(label);
        String text;
        try {
            text = InputFile.readText(file, via == null ? bound : InputFile.PROFILE);
        } catch (InputFileException e) {
            if (via == null) {
                problems.add(new ProfileProblem(label, 1, 1, "", "cannot read the profile: " + e.reason()));
            } else {
                Mark at = via.keyMark();
                problems.add(new ProfileProblem(at.file(), at.line(), at.column(), EXTENDS,
                        "cannot read " + label + ": " + e.reason() + " (" + YamlNode.describe(via.value()) + ")"));
            }
            return null;
        }
        Mapping tree = new YamlReader(label, problems).read(text);
        if (tree == null) {
            return null;
        }
        Entry parentEntry = tree.entries().get(EXTENDS);
        if (parentEntry == null) {
            return tree;
        }
        Map<String, Entry> own = new LinkedHashMap<>(tree.entries());
        own.remove(EXTENDS);
        Mapping child = new Mapping(own, tree.mark());
        Mark at = parentEntry.keyMark();
        if (YamlNode.isRefused(parentEntry.value())) {
            return child;
        }
        if (!(parentEntry.value() instanceof YamlNode.Scalar scalar) || scalar.kind() == YamlNode.Kind.NULL
                || scalar.text().isBlank()) {
            problems.add(new ProfileProblem(at.file(), at.line(), at.column(), EXTENDS,
                    "must be the path of a parent profile (" + YamlNode.describe(parentEntry.value()) + ")"));
            return child;
        }
        Path parent = file.resolveSibling(scalar.text()).normalize();
        List<Path> nextChain = new ArrayList<>(chain);
        nextChain.add(identity(file));
        if (nextChain.contains(identity(parent))) {
            StringBuilder cycle = new StringBuilder();
            for (Path step : nextChain) {
                cycle.append(step.getFileName()).append(" -> ");
            }
            cycle.append(parent.getFileName());
            problems.add(new ProfileProblem(at.file(), at.line(), at.column(), EXTENDS,
                    "profiles extend each other in a cycle: " + cycle + " (" + scalar.text() + ")"));
            return child;
        }
        Mapping parentTree = readWithParents(parent, InputFile.PROFILE, nextChain, parentEntry, problems, files);
        if (parentTree == null) {
            return child;
        }
        Map<String, Entry> inherited = new LinkedHashMap<>(parentTree.entries());
        inherited.remove(NAME); // a profile's name is its own, never its parent's
        return merge(new Mapping(inherited, parentTree.mark()), child);
    }

    /** {@code child} over {@code parent}: maps merge key by key, anything else in the child replaces. */
    static Mapping merge(Mapping parent, Mapping child) {
        Map<String, Entry> merged = new LinkedHashMap<>(parent.entries());
        for (Entry entry : child.entries().values()) {
            Entry under = merged.get(entry.key());
            if (under != null && under.value() instanceof Mapping parentMap
                    && entry.value() instanceof Mapping childMap) {
                merged.put(entry.key(), new Entry(entry.key(), entry.keyMark(), merge(parentMap, childMap)));
            } else {
                merged.put(entry.key(), entry);
            }
        }
        return new Mapping(merged, child.mark());
    }

    private static Path identity(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize();
        }
    }

    private static String stem(Path file) {
        Path name = file.getFileName();
        String text = name == null ? "profile" : name.toString();
        int dot = text.lastIndexOf('.');
        return dot > 0 ? text.substring(0, dot) : text;
    }

    private static int order(List<String> files, String file) {
        int index = files.indexOf(file);
        return index < 0 ? files.size() : index;
    }
}
