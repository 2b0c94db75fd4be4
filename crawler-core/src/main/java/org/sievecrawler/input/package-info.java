/**
 * Files and folders the user hands the crawler. Files (a profile, a file it extends, a seed file, a checkpoint's
 * manifest) are read whole only when they are regular files no larger than the bound their reader gives
 * ({@link org.sievecrawler.input.InputFile}), or line by line, a line that is not UTF-8 told apart
 * ({@link org.sievecrawler.input.TextLine}), also as a stream of bounded lines from any offset for a file too large
 * to read whole ({@link org.sievecrawler.input.LineReader}, a seed file of millions); a crawl's output folder is made, or refused, by
 * {@link org.sievecrawler.input.Folders}; a refusal names the file, the rule and the value
 * ({@link org.sievecrawler.input.InputFileException}), and every file system error is told in words by
 * {@link org.sievecrawler.input.FileErrors}, the files a crawl writes included.
 *
 * <p>Threading: stateless; any number of threads.
 */
package org.sievecrawler.input;
