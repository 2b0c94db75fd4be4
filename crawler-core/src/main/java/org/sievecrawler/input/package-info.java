/**
 * Files the user hands the crawler (a profile, a file it extends, a seed file, a checkpoint's manifest), read
 * whole only when they are regular files no larger than the bound their reader gives
 * ({@link org.sievecrawler.input.InputFile}); a refusal names the file, the rule and the value
 * ({@link org.sievecrawler.input.InputFileException}).
 *
 * <p>Threading: stateless; any number of threads.
 */
package org.sievecrawler.input;
