package org.sievecrawler.sieve;

/**
 * The sizing of one of the Sieve's filter layouts for n URLs at a target false-positive rate p: its bits, its
 * hash count, its memory, and its expected false-positive rate as URLs go in. Each layout has its own formula:
 * {@link SievePlan} for the classic filter, {@link BlockedPlan} for the blocked one.
 *
 * <p>Implementations are immutable records, safe for any number of threads.
 */
public sealed interface FilterPlan permits SievePlan, BlockedPlan {

    /** n, the number of distinct URLs the filter is sized for. */
    long expectedInsertions();

    /** p, the target false-positive rate at n. */
    double falsePositiveRate();

    /** m, the number of bits. */
    long bits();

    /** k, the number of bit positions per URL. */
    int hashCount();

    /** Memory of the bit array in bytes. */
    long bytes();

    /** m/n. */
    double bitsPerUrl();

    /** The expected false-positive rate once {@code insertions} distinct URLs are in the filter. */
    double rateAt(long insertions);
}
