package org.sievecrawler.warc;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.netpreserve.jwarc.HeaderValidator;
import org.netpreserve.jwarc.tools.ValidateTool;

/**
 * jwarc's own validator, {@code jwarc validate} (its {@link ValidateTool}, with the WARC 1.1 header rules and the
 * record-at-a-time gzip check, as the command line runs it), called in the test's JVM: its {@code main} ends with
 * {@code System.exit}, and what it runs, {@code validate(Path)}, is package-private, so it is reached by reflection.
 * It prints what fails to standard error. Stateless.
 */
public final class JwarcValidator {
    private JwarcValidator() {
    }

    /** Whether {@code jwarc validate FILE} passes. */
    public static boolean validates(Path file) {
        try {
            ValidateTool tool = new ValidateTool(false);
            Field headers = ValidateTool.class.getDeclaredField("headerValidator");
            headers.setAccessible(true);
            headers.set(tool, HeaderValidator.warc_1_1(false));
            Method validate = ValidateTool.class.getDeclaredMethod("validate", Path.class);
            validate.setAccessible(true);
            return (boolean) validate.invoke(tool, file);
        } catch (NoSuchFieldException | NoSuchMethodException | IllegalAccessException
                | InvocationTargetException e) {
            throw new IllegalStateException("jwarc's ValidateTool changed (not 0.36's): " + e, e);
        }
    }

    /**
     * Each record of {@code file}, alone in a file of its own under {@code dir}, through the validator: whether it
     * passes, in the order of {@code records} (read from {@code file}, each with its offset).
     */
    public static List<Boolean> eachRecord(Path file, List<ArchivedRecord> records, Path dir) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        List<Boolean> valid = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            int start = (int) records.get(i).offset();
            int end = i + 1 < records.size() ? (int) records.get(i + 1).offset() : bytes.length;
            Path one = dir.resolve("record-" + i + ".warc.gz");
            Files.write(one, Arrays.copyOfRange(bytes, start, end));
            valid.add(validates(one));
        }
        return valid;
    }
}
