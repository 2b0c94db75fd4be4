package org.sievecrawler.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.sievecrawler.audit.Audit;
import org.sievecrawler.audit.AuditFindings;
import org.sievecrawler.audit.AuditGate;
import picocli.CommandLine.ITypeConverter;

/**
 * {@code --fail-on LISTS} of {@code crawl} and {@code report}: after audit.json is written, prints each list named with
 * its count and its first findings (lychee-style: {@code [404] URL}, then the pages linking to it), and answers
 * {@link AuditGate#EXIT_FOUND} when one holds a finding. Stateless.
 */
final class FailOn {
    /** The option's description, shared by both commands. */
    static final String DESCRIPTION = "Exit with code " + AuditGate.EXIT_FOUND + " when audit.json lists any of"
            + " LISTS (comma-separated: broken-links, redirects, duplicates), printing the first "
            + AuditGate.SHOWN + " of each with the pages linking to them; for a CI job.";
    static final String EXIT_FOUND = " " + AuditGate.EXIT_FOUND + ":--fail-on: the audit found what it names";

    private FailOn() {
    }

    /** picocli's converter of the option's value: a usage error naming the choices for an unknown list. */
    static final class Converter implements ITypeConverter<AuditGate> {
        @Override
        public AuditGate convert(String value) {
            try {
                return AuditGate.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /**
     * Checks the audit.json of {@code dir} against {@code gate}: 0 when none of its lists holds a finding,
     * {@link AuditGate#EXIT_FOUND} when one does, {@link CrawlerCommand#USAGE} when audit.json does not hold a list
     * named (this build does not audit it), 1 when audit.json cannot be read.
     */
    static int check(String command, AuditGate gate, Path dir, PrintWriter out, PrintWriter err) {
        Path file = dir.resolve(Audit.FILE);
        AuditFindings audit;
        try {
            audit = AuditFindings.read(file, AuditGate.SHOWN);
        } catch (IOException e) {
            err.println(command + ": --fail-on: " + e.getMessage());
            return 1;
        }
        AuditGate.Verdict verdict = gate.check(audit);
        if (!verdict.missing().isEmpty()) {
            err.println(command + ": --fail-on: " + file + " has no " + String.join(", ", verdict.missing())
                    + ": this build does not audit it; choose from " + String.join(", ", AuditGate.available(audit)));
            return CrawlerCommand.USAGE;
        }
        verdict.report().forEach(out::println);
        if (verdict.fails()) {
            out.println(command + ": --fail-on: the audit found " + String.join(", ", verdict.found().stream()
                    .map(f -> f.count() + " " + AuditGate.optionName(f.name())).toList()) + " (" + file + "): exit "
                    + AuditGate.EXIT_FOUND);
            return AuditGate.EXIT_FOUND;
        }
        return 0;
    }
}
