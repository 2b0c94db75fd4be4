/**
 * The command line: picocli commands that parse arguments, load the profile and call the core. No crawl
 * logic lives here. Each command runs on the caller's thread and writes through its command's writers.
 */
package org.sievecrawler.cli;
