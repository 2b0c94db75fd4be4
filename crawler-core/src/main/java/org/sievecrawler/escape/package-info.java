/**
 * Text from outside (a page, a header, a robots.txt, a URL, an error a server caused) made safe for each place the
 * crawler writes it: the one JSON configuration of every JSON file and JSON log line ({@link
 * org.sievecrawler.escape.Json}: valid UTF-8 whatever the text, no raw control character, and HTML script-data
 * escaping for the report's embedded data), and the escaping of control characters for log lines and the terminal
 * ({@link org.sievecrawler.escape.ControlCharacters}).
 *
 * <p>Threading: pure code, no I/O of its own; every type here is stateless or immutable and safe for any number of
 * threads.
 */
package org.sievecrawler.escape;
