package org.sievecrawler.cli;

/** The entry point of {@code crawler.jar}: runs {@link CrawlerCommand} and exits with its code. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(CrawlerCommand.commandLine().execute(args));
    }
}
