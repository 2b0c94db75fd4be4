/**
 * The certificate authorities the crawl trusts for https: the system's, plus those of a trust store file the profile
 * names ({@code fetch.trust-store}), read and checked when the profile is loaded
 * ({@link org.sievecrawler.trust.TrustStore}).
 *
 * <p>Threading: reading a file happens once, on the loading thread; the values are immutable and safe for any
 * number of threads.
 */
package org.sievecrawler.trust;
