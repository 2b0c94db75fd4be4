/**
 * The Sieve: the crawler's frontier, a FIFO of pending URLs guarded by a Bloom filter that drops every URL
 * already seen, plus the filters themselves (the Sieve's layers, {@link org.sievecrawler.sieve.FilterLayer}, in
 * either {@link org.sievecrawler.sieve.SieveLayout}: the classic {@link org.sievecrawler.sieve.BloomFilter} or the
 * cache-line-blocked {@link org.sievecrawler.sieve.BlockedBloomFilter}; and
 * {@link org.sievecrawler.sieve.CountingBloomFilter}) and their sizing ({@link org.sievecrawler.sieve.SievePlan},
 * {@link org.sievecrawler.sieve.BlockedPlan}).
 *
 * <p>Threading: every public type here is safe for any number of threads unless its javadoc says otherwise;
 * the filters are lock-free.
 */
package org.sievecrawler.sieve;
