/**
 * A seed file of any length, streamed into the crawl: copied once into the crawl's folder
 * ({@link org.sievecrawler.seed.SeedFile}), read line by line on threads of its own and offered to the frontier in
 * batches while the crawl runs ({@link org.sievecrawler.seed.SeedFeed}), its seeds' hosts gathered compactly for the
 * scope and the address guard, and how far it was offered kept in each checkpoint
 * ({@link org.sievecrawler.seed.SeedPosition}), so a resume goes on from there.
 *
 * <p>Threading: the feed runs on two named threads it starts and stops; its position and counts are read from any.
 */
package org.sievecrawler.seed;
