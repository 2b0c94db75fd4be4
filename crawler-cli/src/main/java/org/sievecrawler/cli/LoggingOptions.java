package org.sievecrawler.cli;

import picocli.CommandLine.Option;

/** The logging options every command takes: -v, -q and --log-format. A picocli mixin; not thread-safe. */
final class LoggingOptions {
    @Option(names = "-v", description = "More log detail: -v for DEBUG, -vv for TRACE.")
    boolean[] verbose = new boolean[0];

    @Option(names = "-q", description = "Less log output: -q for warnings (progress lines stay), -qq for errors only.")
    boolean[] quiet = new boolean[0];

    @Option(names = "--log-format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default) or json: one JSON object per log line, for log shippers.")
    LogSetup.Format format = LogSetup.Format.text;

    /** Applies these options to the logging configuration. */
    void apply() {
        LogSetup.configure(verbose.length - quiet.length, format);
    }
}
