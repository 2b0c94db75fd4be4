/**
 * Commands as a user pastes them into a POSIX shell: this program named as the user started it, and each word
 * quoted so that the command a message suggests runs as shown ({@link org.sievecrawler.shell.Program}).
 *
 * <p>Threading: pure code, no I/O; every type here is immutable and safe for any number of threads.
 */
package org.sievecrawler.shell;
