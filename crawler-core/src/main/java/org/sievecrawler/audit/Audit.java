package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.sievecrawler.escape.Json;
import org.sievecrawler.input.FileErrors;

/**
 * audit.json: the sections of a crawl's audit, in a fixed order, written beside report.html. Stateless.
 */
public final class Audit {
    /** The file's name in a crawl's output folder. */
    public static final String FILE = org.sievecrawler.checkpoint.CrawlFolder.AUDIT;

    private Audit() {
    }

    /** The sections of the crawl in {@code dir}, in the order audit.json lists them. */
    public static List<AuditSection> sections(Path dir) throws IOException {
        List<AuditSection> sections = new ArrayList<>();
        // the two joins with the link graph share its reads
        try (BrokenLinks.Join broken = BrokenLinks.join(dir, ExternalSort.DEFAULT_MAX_BYTES);
                Orphans.Join orphans = Orphans.join(dir, ExternalSort.DEFAULT_MAX_BYTES)) {
            EdgeJoin.readAll(dir, List.of(broken, orphans));
            // each section adds itself here, in audit.json's order
            sections.add(broken.finish());
            sections.add(Redirects.of(dir));
            sections.add(Duplicates.of(dir));
            sections.add(Titles.of(dir));
            sections.add(orphans.finish());
            sections.add(Slowest.of(dir));
            sections.add(Stats.of(dir));
        }
        return sections;
    }

    /** Writes {@code dir}/audit.json (replacing one written before) from {@code sections}; returns its path. */
    public static Path write(Path dir, List<AuditSection> sections) throws IOException {
        Path audit = dir.resolve(FILE);
        Path temporary = dir.resolve(FILE + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(temporary); JsonGenerator json = Json.writer(out)) {
                json.writeStartObject();
                for (AuditSection section : sections) {
                    json.writeFieldName(section.name());
                    section.write(json);
                }
                json.writeEndObject();
            }
            Files.move(temporary, audit, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IOException("cannot write " + audit + ": " + FileErrors.reason(audit, e), e);
        }
        return audit;
    }
}
