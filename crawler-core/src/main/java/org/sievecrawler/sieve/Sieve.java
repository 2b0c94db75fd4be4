package org.sievecrawler.sieve;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawler's frontier: a FIFO queue of pending URLs behind a Bloom filter that drops every URL it has
 * already seen, so each URL is admitted at most once in the whole crawl (barring a false positive, which drops
 * a new URL: see {@link BloomFilter}).
 *
 * <p>Threads: safe for any number of offering (parser) and polling (fetcher) threads. A URL already seen is
 * refused lock-free, on reads alone; a new URL is admitted under one of 64 locks picked by its hash, so two
 * threads offering the same new URL at once admit it exactly once.
 *
 * <p>Batches: {@link #offerAll} offers a page's links together, with the outcome of single offers in list
 * order. It hashes them all and refuses those in the recent-hash cache, then looks the rest up in each layer
 * at once, lock-free (all their words loaded in one loop, so the cache misses of different URLs overlap: see
 * {@link BloomFilter}, "Batches"), and admits the URLs the newest layer lacked one by one under their stripe
 * locks, setting bits the lookup brought into cache. A URL admitted by another thread between the lookup and
 * the lock, or earlier in the same batch, finds its bits set under the lock and is refused; if a layer was
 * added in between, the URL is checked against the older layers under the lock, as a single offer is. At
 * n = 10 M, p = 10<sup>-4</sup>, new URLs in batches of 64 or more cost ~250 ns each with a queue that keeps
 * nothing (the filter's batch cost: see {@link BloomFilter}, "Batches"), against 600-700 ns for single offers; the
 * FIFO adds ~180 ns a URL (its nodes and the records it keeps, copied by the collector).
 *
 * <p>Overflow: the filter is sized for {@code expectedUrls} at {@code falsePositiveRate}. Past that the rate
 * climbs fast (a 1 % filter is at about 16 % at twice its size). With {@link OverflowPolicy#WARN} the Sieve
 * logs one WARN when its estimate n* first passes the expected size and one each time n* doubles after;
 * with {@link OverflowPolicy#GROW} it adds a layer of twice the capacity and half the rate whenever the
 * newest layer is full (Almeida et al., "Scalable Bloom Filters", 2007), so the compound rate stays under 2p.
 *
 * <p>Layouts: every layer is a {@link FilterLayer} of the Sieve's {@link SieveLayout} ({@code sieve.layout}): a
 * classic {@link BloomFilter} (k words a URL, k cache misses for a new one) or a {@link BlockedBloomFilter} (all k
 * bits in one 64-byte block, one miss, 3-15 % more bits for the same p). Each layout sizes its layers by its own
 * plan, and estimates n* and its rate by its own formula, so WARN warns when the layout's n* passes n and GROW adds
 * layers of the same layout; a batch's lookup touches k words a URL in a classic layer and one line in a blocked
 * one.
 *
 * <p>Pending URLs wait in a {@link PendingQueue}: a plain FIFO by default, or the crawl's per-host
 * politeness scheduler, which then decides what {@link #poll()} hands out and when.
 *
 * <p>Persistence: a checkpoint copies the filters ({@link #copyFilters()}) and a resume starts from them
 * ({@link #restore}); the pending queue persists itself (see {@link SpillingQueue}).
 */
public final class Sieve {
    private static final Logger LOG = LoggerFactory.getLogger(Sieve.class);
    private static final int STRIPE_BITS = 6;
    private static final int RECENT_SLOTS = 8192;

    private final SieveLayout layout;
    private final long expectedUrls;
    private final double falsePositiveRate;
    private final OverflowPolicy policy;
    private final AtomicReference<Layers> layers;
    private final Object[] stripes = new Object[1 << STRIPE_BITS];
    private final PendingQueue pending;
    /**
     * The 128-bit hashes of recently offered URLs that the filter holds, direct-mapped: the links every page
     * repeats (navigation, sidebars) are refused here from one cache-resident line instead of k random reads of
     * a filter larger than the caches. A hash is stored only once the filter holds it, so a hit answers as the
     * filter would. The two words of a slot are written without a lock; a racing reader may see the halves of
     * two different hashes, which match no URL's hash (short of a 2^-64 coincidence).
     */
    private final long[] recent = new long[2 * RECENT_SLOTS];
    private final LongAdder offered = new LongAdder();
    private final LongAdder admitted = new LongAdder();
    /** WARN policy: the next estimate to warn at, and the first layer's set-bit count X where n* reaches it. */
    private final AtomicLong nextWarnAtSetBits;
    private volatile double nextWarnAtEstimate;

    private Sieve(SieveLayout layout, long expectedUrls, double falsePositiveRate, OverflowPolicy policy,
            PendingQueue pending, FilterLayer[] restored) {
        this.pending = pending;
        this.layout = layout;
        FilterLayer first = restored == null ? layout.newFilter(expectedUrls, falsePositiveRate) : restored[0];
        this.expectedUrls = expectedUrls;
        this.falsePositiveRate = falsePositiveRate;
        this.policy = policy;
        this.layers = new AtomicReference<>(new Layers(restored == null ? new FilterLayer[] {first} : restored));
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Object();
        }
        this.nextWarnAtEstimate = expectedUrls;
        this.nextWarnAtSetBits = new AtomicLong(capacitySetBits(first, expectedUrls));
    }

    /** A Sieve for {@code expectedUrls} distinct URLs at {@code falsePositiveRate}, warning on overflow. */
    public static Sieve create(long expectedUrls, double falsePositiveRate) {
        return create(expectedUrls, falsePositiveRate, OverflowPolicy.WARN);
    }

    /**
     * A Sieve for {@code expectedUrls} distinct URLs at {@code falsePositiveRate}.
     *
     * @throws IllegalArgumentException naming the argument and value when n &lt; 1 or p is not in (0, 1)
     */
    public static Sieve create(long expectedUrls, double falsePositiveRate, OverflowPolicy onOverflow) {
        return create(SieveLayout.CLASSIC, expectedUrls, falsePositiveRate, onOverflow, PendingQueue.fifo());
    }

    /** A classic Sieve whose admitted URLs wait in {@code pending}, e.g. a per-host politeness scheduler. */
    public static Sieve create(long expectedUrls, double falsePositiveRate, OverflowPolicy onOverflow,
            PendingQueue pending) {
        return create(SieveLayout.CLASSIC, expectedUrls, falsePositiveRate, onOverflow, pending);
    }

    /**
     * A Sieve whose filter has {@code layout}, sized by that layout's plan for {@code expectedUrls} at
     * {@code falsePositiveRate}, its admitted URLs waiting in {@code pending}.
     *
     * @throws IllegalArgumentException naming the argument and value when n &lt; 1 or p is not in (0, 1)
     */
    public static Sieve create(SieveLayout layout, long expectedUrls, double falsePositiveRate,
            OverflowPolicy onOverflow, PendingQueue pending) {
        return new Sieve(layout, expectedUrls, falsePositiveRate, onOverflow, pending, null);
    }

    /**
     * A Sieve that goes on from filter layers a checkpoint saved ({@link #copyFilters()}), oldest first; its
     * pending URLs are the caller's to restore (straight into {@code pending}: they are in the filters already).
     *
     * @throws IllegalArgumentException if {@code layers} is empty
     */
    public static Sieve restore(long expectedUrls, double falsePositiveRate, OverflowPolicy onOverflow,
            PendingQueue pending, List<? extends FilterLayer> layers) {
        return restore(SieveLayout.CLASSIC, expectedUrls, falsePositiveRate, onOverflow, pending, layers);
    }

    /**
     * {@link #restore(long, double, OverflowPolicy, PendingQueue, List)} for a Sieve of {@code layout}: its layers
     * (and those it grows) are of that layout.
     *
     * @throws IllegalArgumentException if {@code layers} is empty, or holds a layer of another layout, naming both
     */
    public static Sieve restore(SieveLayout layout, long expectedUrls, double falsePositiveRate,
            OverflowPolicy onOverflow, PendingQueue pending, List<? extends FilterLayer> layers) {
        if (layers.isEmpty()) {
            throw new IllegalArgumentException("a restored Sieve needs at least one filter layer");
        }
        for (int i = 0; i < layers.size(); i++) {
            if (layers.get(i).layout() != layout) {
                throw new IllegalArgumentException("filter layer " + (i + 1) + " of " + layers.size() + " has the "
                        + layers.get(i).layout() + " layout; this Sieve's sieve.layout is " + layout);
            }
        }
        return new Sieve(layout, expectedUrls, falsePositiveRate, onOverflow, pending,
                layers.toArray(new FilterLayer[0]));
    }

    /**
     * Copies of the filter layers, oldest first. Consistent with the pending URLs only while no URL is
     * admitted: a checkpoint calls it under its exclusive lock.
     */
    public List<FilterLayer> copyFilters() {
        List<FilterLayer> copies = new ArrayList<>();
        for (FilterLayer layer : layers.get().filters) {
            copies.add(layer.copy());
        }
        return copies;
    }

    /**
     * Enqueues {@code url} iff the Sieve has not seen it before.
     *
     * @return true if the URL was new and is now pending; false if it was seen before (or is a false positive)
     */
    public boolean offer(String url) {
        return offer(PendingUrl.seed(url));
    }

    /**
     * Enqueues {@code url} iff the Sieve has not seen its URL before.
     *
     * @return true if the URL was new and is now pending; false if it was seen before (or is a false positive)
     */
    boolean offer(PendingUrl url) {
        offered.increment();
        UrlHash hash = UrlHash.forCurrentThread().hash(url.url());
        long h1 = hash.h1();
        long h2 = hash.h2();
        if (isRecent(h1, h2)) {
            return false;
        }
        Layers current = layers.get();
        for (FilterLayer layer : current.filters) {
            if (layer.mightContain(h1, h2)) {
                remember(h1, h2);
                return false;
            }
        }
        return admit(url, h1, h2, current, null, 0);
    }

    /**
     * Enqueues each URL of {@code urls} that the Sieve has not seen before, in list order: the outcome, the
     * counts and the pending order are those of {@code urls.size()} calls of {@link #offer(PendingUrl)} in a
     * row, so a URL listed twice is admitted at most once. Concurrent batches and single offers admit a new
     * URL exactly once between them. Faster than single offers for a page's links when the filter is larger
     * than the caches: the filter words of all the URLs are read together, so their cache misses overlap (see
     * "Batches" in the class notes).
     *
     * @return how many of the URLs were new and are now pending
     */
    public int offerAll(List<PendingUrl> urls) {
        return offerAll(urls, null);
    }

    /**
     * {@link #offerAll(List)}, adding the URLs admitted to {@code admitted} (if not null) in list order: what the
     * frontier's journal records.
     */
    public int offerAll(List<PendingUrl> urls, List<PendingUrl> admitted) {
        int size = urls.size();
        if (size == 0) {
            return 0;
        }
        offered.add(size);
        HashBatch batch = HashBatch.forCurrentThread();
        for (int i = 0; i < size; i++) {
            batch.add(urls.get(i).url());
            if (isRecent(batch.h1(i), batch.h2(i))) {
                batch.close(i);
            }
        }
        Layers current = layers.get();
        for (FilterLayer layer : current.filters) {
            if (batch.select() == 0) {
                return 0;
            }
            layer.lookUp(batch);
            for (int j = 0, count = batch.selectedCount(); j < count; j++) {
                if (batch.missing(j) == 0) {
                    int url = batch.selected(j);
                    batch.close(url);
                    remember(batch.h1(url), batch.h2(url));
                }
            }
        }
        // The selection, masks and positions are now the newest layer's: its words are in cache.
        int admittedNow = 0;
        for (int j = 0, count = batch.selectedCount(); j < count; j++) {
            if (batch.missing(j) != 0) {
                int url = batch.selected(j);
                if (admit(urls.get(url), batch.h1(url), batch.h2(url), current, batch, j)) {
                    admittedNow++;
                    if (admitted != null) {
                        admitted.add(urls.get(url));
                    }
                }
            }
        }
        return admittedNow;
    }

    /**
     * Admits a URL that no layer of {@code checked} held when it was looked up, unless a thread has admitted it
     * since or a layer grown since holds it; under the lock of its hash's stripe, so exactly once. A batch
     * passes itself and the URL's index j in its last lookup, whose positions in the newest layer it reuses.
     */
    private boolean admit(PendingUrl url, long h1, long h2, Layers checked, HashBatch batch, int j) {
        Layers now;
        synchronized (stripes[(int) (h1 >>> (64 - STRIPE_BITS))]) {
            now = layers.get();
            boolean added;
            if (now == checked) {
                added = batch == null ? now.newest().put(h1, h2) : now.newest().putSelected(batch, j);
            } else {
                // Grown since the check: the URL may sit in the layer that was newest then.
                for (int i = 0; i < now.filters.length - 1; i++) {
                    if (now.filters[i].mightContain(h1, h2)) {
                        return false;
                    }
                }
                added = now.newest().put(h1, h2);
            }
            remember(h1, h2);
            if (!added) {
                return false;
            }
        }
        pending.add(url);
        admitted.increment();
        if (policy == OverflowPolicy.GROW) {
            growIfFull(now);
        } else {
            warnIfOverflowing(now.newest());
        }
        return true;
    }

    /**
     * Admits {@code urls} again, unchecked, in order: each is added to the newest layer and enqueued whether or not
     * the filter holds it. For a resume replaying the admissions its journal recorded after the checkpoint, so the
     * filter and the pending URLs come out as they were, even where a URL's bits were set by URLs admitted after
     * it (the journal's order of two concurrent admissions may differ from the filter's).
     */
    public void readmit(List<PendingUrl> urls) {
        UrlHash hash = UrlHash.forCurrentThread();
        for (PendingUrl url : urls) {
            hash.hash(url.url());
            long h1 = hash.h1();
            long h2 = hash.h2();
            synchronized (stripes[(int) (h1 >>> (64 - STRIPE_BITS))]) {
                layers.get().newest().put(h1, h2);
                remember(h1, h2);
            }
            pending.add(url);
            admitted.increment();
            offered.increment();
            if (policy == OverflowPolicy.GROW) {
                growIfFull(layers.get());
            }
        }
    }

    private boolean isRecent(long h1, long h2) {
        int slot = recentSlot(h2);
        return recent[slot] == h1 && recent[slot + 1] == h2;
    }

    private void remember(long h1, long h2) {
        int slot = recentSlot(h2);
        recent[slot] = h1;
        recent[slot + 1] = h2;
    }

    private static int recentSlot(long h2) {
        return 2 * (int) (h2 & (RECENT_SLOTS - 1));
    }

    /**
     * The next pending URL, or null when none is pending (or, behind a politeness scheduler, none may be
     * fetched yet). Never blocks.
     */
    String poll() {
        PendingUrl url = pending.poll();
        return url == null ? null : url.url();
    }

    /** Like {@link #poll()}, with the URL's depth, referrer and attempt. */
    PendingUrl pollPending() {
        return pending.poll();
    }

    /** The number of pending URLs. */
    int size() {
        return pending.size();
    }

    /** n*, the estimated number of distinct URLs seen, summed over the layers. */
    public double estimatedSeen() {
        double sum = 0;
        for (FilterLayer layer : layers.get().filters) {
            sum += layer.estimatedCardinality();
        }
        return sum;
    }

    /** The probability, now, that a new URL is wrongly dropped as seen: 1 - Π(1 - p_i) over the layers. */
    public double falsePositiveRate() {
        double allClear = 1;
        for (FilterLayer layer : layers.get().filters) {
            allClear *= 1 - layer.expectedFalsePositiveRate();
        }
        return 1 - allClear;
    }

    /** How many URLs were offered, new or not. */
    long offeredCount() {
        return offered.sum();
    }

    /** How many offered URLs were new and admitted. */
    long admittedCount() {
        return admitted.sum();
    }

    long expectedUrls() {
        return expectedUrls;
    }

    double configuredFalsePositiveRate() {
        return falsePositiveRate;
    }

    OverflowPolicy overflowPolicy() {
        return policy;
    }

    /** The layout of the filter layers. */
    SieveLayout layout() {
        return layout;
    }

    /** The number of filter layers: 1, or more once a GROW Sieve has grown. */
    int layerCount() {
        return layers.get().filters.length;
    }

    /** Bytes held by the filter layers (not the pending URLs). */
    long filterBytes() {
        long sum = 0;
        for (FilterLayer layer : layers.get().filters) {
            sum += layer.byteSize();
        }
        return sum;
    }

    private void warnIfOverflowing(FilterLayer filter) {
        long threshold = nextWarnAtSetBits.get();
        long setBits = filter.setBitCount();
        if (setBits <= threshold) {
            return;
        }
        double estimate = filter.estimatedCardinality();
        double crossed = nextWarnAtEstimate;
        String multiple = crossed > expectedUrls ? String.format(Locale.ROOT, "%.0fx ", crossed / expectedUrls) : "";
        double next = crossed * 2;
        while (next <= estimate) {
            next *= 2;
        }
        long nextThreshold = capacitySetBits(filter, next);
        if (nextWarnAtSetBits.compareAndSet(threshold, nextThreshold)) {
            nextWarnAtEstimate = next;
            LOG.warn(String.format(Locale.ROOT,
                    "Sieve holds an estimated %,.0f distinct URLs, past %sits expected size of %,d;"
                            + " its false-positive rate is now %.3g%% (configured %.3g%%) and climbs fast, so"
                            + " new URLs are increasingly dropped as seen. Raise sieve.expected-urls or set"
                            + " sieve.on-overflow: grow. Next warning at %,.0f.",
                    estimate, multiple, expectedUrls, filter.expectedFalsePositiveRate() * 100,
                    falsePositiveRate * 100, next));
        }
    }

    private void growIfFull(Layers current) {
        FilterLayer newest = current.newest();
        if (newest.setBitCount() <= current.fullAtSetBits) {
            return;
        }
        long capacity = Math.multiplyExact(newest.expectedInsertions(), 2);
        double rate = newest.configuredFalsePositiveRate() / 2;
        FilterLayer layer = layout.newFilter(capacity, rate);
        FilterLayer[] grown = Arrays.copyOf(current.filters, current.filters.length + 1);
        grown[current.filters.length] = layer;
        if (layers.compareAndSet(current, new Layers(grown))) {
            LOG.info(String.format(Locale.ROOT,
                    "Sieve grew: layer %d added for %,d more URLs at a %.3g%% false-positive rate (%s);"
                            + " an estimated %,.0f distinct URLs seen, %s in %d layers, compound rate now %.3g%%",
                    grown.length, capacity, rate * 100, SievePlan.humanBytes(layer.byteSize()), estimatedSeen(),
                    SievePlan.humanBytes(filterBytes()), grown.length, falsePositiveRate() * 100));
        }
    }

    private static long capacitySetBits(FilterLayer filter, double cardinality) {
        return filter.setBitsAtCardinality(cardinality);
    }

    /** The filter layers, oldest first, and the set-bit count at which the newest is full. Immutable. */
    private static final class Layers {
        final FilterLayer[] filters;
        final long fullAtSetBits;

        Layers(FilterLayer[] filters) {
            this.filters = filters;
            FilterLayer newest = filters[filters.length - 1];
            this.fullAtSetBits = capacitySetBits(newest, newest.expectedInsertions());
        }

        FilterLayer newest() {
            return filters[filters.length - 1];
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "Sieve[pending=%d, seen~%.0f, fpr=%.3g, layers=%d, layout=%s, policy=%s]",
                size(), estimatedSeen(), falsePositiveRate(), layerCount(), layout, policy);
    }
}
