/**
 * JMH benchmarks, one per structure measured; each class javadoc is the command that runs it. Benchmark
 * state is confined by JMH's scopes; nothing here is used by the crawler itself.
 */
package org.sievecrawler.bench;
