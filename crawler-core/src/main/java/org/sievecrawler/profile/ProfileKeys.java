package org.sievecrawler.profile;

import static org.sievecrawler.profile.KeyType.bool;
import static org.sievecrawler.profile.KeyType.duration;
import static org.sievecrawler.profile.KeyType.folder;
import static org.sievecrawler.profile.KeyType.hostPattern;
import static org.sievecrawler.profile.KeyType.integer;
import static org.sievecrawler.profile.KeyType.longInteger;
import static org.sievecrawler.profile.KeyType.matching;
import static org.sievecrawler.profile.KeyType.mediaType;
import static org.sievecrawler.profile.KeyType.oneOf;
import static org.sievecrawler.profile.KeyType.queryParamName;
import static org.sievecrawler.profile.KeyType.rate;
import static org.sievecrawler.profile.KeyType.regex;
import static org.sievecrawler.profile.KeyType.seed;
import static org.sievecrawler.profile.KeyType.size;
import static org.sievecrawler.profile.KeyType.text;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.sievecrawler.sieve.OverflowPolicy;
import org.sievecrawler.sieve.SieveLayout;
import org.sievecrawler.trust.TrustStore;

/**
 * The table of profile keys: every key declared once, with its type, rule, default and meaning, in the order of
 * {@code config/default.yaml}; and the groups (one record per concern) they are built into, each saying whether a
 * resume may change its keys ({@link OnResume}; a key that differs from its group says so). Immutable and
 * thread-safe. Binding ({@link ProfileBinder}), writing ({@link ProfileYaml}), the records' checks, the
 * command line's {@code --set}, {@link CrawlProfile#with} and the help read the keys from here; {@code
 * ProfileYamlTest} holds {@code config/default.yaml} equal to {@link ProfileYaml#documentedDefaults()}.
 *
 * <p>Adding a key takes four steps: its row here (its constant, name, type and rule, default, meaning, where its
 * value is read from a profile, and whether a resume may change it when that differs from its group); its component
 * in its group's record; its argument in {@link #assemble}; and its use. A profile file, {@code --set KEY=VALUE},
 * {@code profile.with(ProfileKeys.KEY, value)}, {@code config/default.yaml}, the help and a resume's checks then know
 * it. Two tests ask for the new key: regenerate {@code config/default.yaml} ({@code mvn -q -pl crawler-core test
 * -Dtest=ProfileYamlTest -Dregenerate-default-yaml}) and give it a row in {@code resume/changes.tsv}
 * (src-test-fixtures), which says whether a resume may change it.
 */
public final class ProfileKeys {
    private static final String SAME = ScopeConfig.SAME_AS_SEEDS;
    private static final List<ProfileKey<?>> KEYS = new ArrayList<>();
    private static final Map<String, String> GROUP_DOCS = new LinkedHashMap<>();
    private static final Map<String, OnResume> GROUP_ON_RESUME = new LinkedHashMap<>();

    public static final ProfileKey<String> NAME = key("name", text(), "default",
            "The profile's name, shown in the log and summary; not inherited through extends."
                    + " Default: the file name without .yaml.", CrawlProfile::name, OnResume.MAY_CHANGE);
    public static final ProfileKey<List<String>> SEEDS = key("seeds", list(seed()), List.of(),
            "Start URLs (http or https), used when the command line gives none: URLs given as arguments or in"
                    + " --seeds FILE replace these.", CrawlProfile::seeds, OnResume.FIXED_SCOPE);

    static {
        group("scope", "Which URLs the crawl may follow.", OnResume.FIXED_SCOPE);
    }

    public static final ProfileKey<List<String>> SCOPE_HOSTS = key("scope.hosts",
            new KeyType.ListOf<>(hostPattern(), true, false), List.of(SAME),
            "Hosts links may lead to: same-as-seeds (the seeds' hosts), example.org (that host only),"
                    + " *.example.org (the domain and all its subdomains) or any (every host: a broad crawl; private"
                    + " addresses, traps, robots.txt and the other scope rules still apply); no scheme, port or path;"
                    + " not empty.",
            p -> p.scope().hosts());
    public static final ProfileKey<List<Pattern>> SCOPE_INCLUDE = key("scope.include", list(regex()), List.of(),
            "Regular expressions; if any are given, a URL must contain a match of one of them.",
            p -> p.scope().include());
    public static final ProfileKey<List<Pattern>> SCOPE_EXCLUDE = key("scope.exclude", list(regex()), List.of(),
            "Regular expressions; a URL containing a match of any of them is refused.", p -> p.scope().exclude());
    public static final ProfileKey<Integer> SCOPE_MAX_DEPTH = key("scope.max-depth",
            integer(-1, Integer.MAX_VALUE, "must be >= 0, or -1 for no limit"), -1,
            "Links followed away from the seeds (which are depth 0) at most; -1 for no limit.",
            p -> p.scope().maxDepth());
    public static final ProfileKey<Integer> SCOPE_MAX_PATH_SEGMENTS = key("scope.max-path-segments",
            integer(0, Integer.MAX_VALUE, "must be >= 0 (0 = no limit)"), 32,
            "Path segments a URL may have at most (/a/b/c.html has 3), seeds and redirect targets included; a longer"
                    + " one is recorded as a trap, not fetched; 0 for no limit. The deepest page of four Debian"
                    + " documentation packages (rust-doc, apache2-doc, libboost1.81-doc, python-django-doc) has 16.",
            p -> p.scope().maxPathSegments());
    public static final ProfileKey<Integer> SCOPE_MAX_REPEATED_SEGMENTS = key("scope.max-repeated-segments",
            integer(0, Integer.MAX_VALUE, "must be >= 0 (0 = no limit)"), 3,
            "Times in a row a path segment, or a run of up to 8 segments, may repeat: /a/a/a and /x/y/x/y/x/y repeat 3"
                    + " times; a URL repeating more is recorded as a trap, not fetched (the relative-link trap); 0 for"
                    + " no limit. Repeats apart (/a/b/a/c) are not counted; real sites have /up/up/ (rust-doc).",
            p -> p.scope().maxRepeatedSegments());
    public static final ProfileKey<Boolean> SCOPE_SITEMAPS = key("scope.sitemaps", bool(), false,
            "Whether each seed host's /sitemap.xml is fetched too; the sitemaps a host names in robots.txt (Sitemap:"
                    + " lines) are read either way. A sitemap's URLs are followed like links found on it (depth 1,"
                    + " the same scope and Sieve); a sitemap index's sitemaps are read in turn.",
            p -> p.scope().sitemaps());
    public static final ProfileKey<Integer> SCOPE_MAX_SITEMAPS_PER_HOST = key("scope.max-sitemaps-per-host",
            integer(1, Integer.MAX_VALUE, "must be >= 1"), 50,
            "Sitemaps (indexes included) fetched from one host at most; further ones are recorded as a trap, not"
                    + " fetched. Counted per run: a resumed crawl counts again from 0.",
            p -> p.scope().maxSitemapsPerHost());
    public static final ProfileKey<Long> SCOPE_MAX_SITEMAP_BYTES = key("scope.max-sitemap-bytes", size(1),
            50L * 1024 * 1024,
            "Bytes a sitemap may have, after decompression (the protocol's own limit is 50MB); a larger one is"
                    + " recorded as an error and none of its URLs followed.",
            p -> p.scope().maxSitemapBytes());
    public static final ProfileKey<Boolean> SCOPE_CHECK_EXTERNAL = key("scope.check-external", bool(), false,
            "Whether each link to another host (out of scope) is checked once: a HEAD request (a GET where HEAD is"
                    + " refused), that host's robots.txt and politeness obeyed, the answer recorded with outcome"
                    + " checked and not parsed, so a link checker's broken external links show in audit.json.",
            p -> p.scope().checkExternal());
    public static final ProfileKey<List<String>> SCOPE_IGNORE_PARAMS = key("scope.ignore-params",
            list(queryParamName()), List.of("utm_*", "gclid", "fbclid", "msclkid", "mc_cid", "mc_eid"),
            "Query parameters removed from every URL (links, redirect targets, sitemap URLs, seeds) before the Sieve"
                    + " sees it, so ?a=1&utm_source=x and ?a=1 are one page, fetched once: exact names (sid) or"
                    + " prefixes ending in * (utm_*), case-sensitive as URLs are; the other parameters keep their"
                    + " order. The default drops the click and campaign tracking parameters, which never change a"
                    + " page; [] keeps every parameter.",
            p -> p.scope().ignoreParams());
    public static final ProfileKey<Boolean> SCOPE_LEARN_DUPLICATES = key("scope.learn-duplicates", bool(), true,
            "Whether the crawl learns, from the pages it fetched, rules that stop duplicate traps: a query parameter"
                    + " whose values never change a page is dropped (?sid=), a URL template whose pages are all"
                    + " near-duplicates is no longer fetched (a calendar), a path segment or parameter that is an"
                    + " alias is rewritten (/print/...). Each rule is logged once and written to rules.jsonl; a URL"
                    + " a rule refuses is recorded once as a trap, naming the rule. false learns nothing.",
            p -> p.scope().learnDuplicates());

    static {
        group("limits", "When the crawl stops and how much of a page it reads.", OnResume.MAY_CHANGE);
    }

    public static final ProfileKey<Long> LIMITS_MAX_PAGES = key("limits.max-pages",
            longInteger(0, "must be >= 0 (0 = no limit)"), 0L, "Pages fetched at most; 0 for no limit.",
            p -> p.limits().maxPages());
    public static final ProfileKey<Duration> LIMITS_MAX_DURATION = key("limits.max-duration", duration(false),
            Duration.ZERO, "Wall-clock time at most; 0 for no limit.", p -> p.limits().maxDuration());
    public static final ProfileKey<Long> LIMITS_MAX_PAGE_BYTES = key("limits.max-page-bytes", size(1),
            10L * 1024 * 1024,
            "Body bytes read per page after decompression; the rest is cut and the page marked truncated.",
            p -> p.limits().maxPageBytes());
    public static final ProfileKey<Long> LIMITS_MAX_PAGES_PER_HOST = key("limits.max-pages-per-host",
            longInteger(0, "must be >= 0 (0 = no limit)"), 10_000L,
            "URLs of one host (scheme, host name and port) admitted at most: seeds, links, redirect targets and"
                    + " sitemaps' URLs new to the Sieve, whatever then becomes of them (robots.txt and sitemaps are"
                    + " not counted); the host's further new URLs are counted (over-host-budget in summary.json),"
                    + " neither queued nor recorded, and take nothing of limits.max-pages; 0 for no limit. It bounds a"
                    + " trap the path rules cannot see (a calendar's next-day link): 10,000 pages at politeness.delay"
                    + " 1s take about 3 hours. The counts are in the checkpoint: a resumed crawl goes on from them.",
            p -> p.limits().maxPagesPerHost());

    static {
        group("fetch", "How pages are fetched.", OnResume.MAY_CHANGE);
    }

    public static final ProfileKey<Integer> FETCH_THREADS = key("fetch.threads",
            integer(1, 1024, "must be in [1, 1024]"), 16,
            "Fetcher threads, 1 to 1024; each holds a socket while it fetches, and as many idle ones (times"
                    + " politeness.max-connections-per-host, at most 1,024) are kept for reuse: 2 x threads sockets"
                    + " in all by default, fetch.max-connections sets another bound.", p -> p.fetch().threads());
    public static final ProfileKey<Integer> FETCH_MAX_CONNECTIONS = key("fetch.max-connections",
            integer(0, Integer.MAX_VALUE, "must be >= 0 (0 = derived)"), 0,
            "Sockets (HTTP connections) open at most, in use and idle, across all hosts; >= 0. 0: derived, as"
                    + " fetch.threads plus the idle connections worth keeping (fetch.threads times"
                    + " politeness.max-connections-per-host, at most 1,024), leaving a quarter of the process's"
                    + " file-descriptor limit (ulimit -n; at least 256) to the WARC, journal, spill and logs: 16"
                    + " threads use at most 32 sockets. Idle connections beyond it are closed, the least"
                    + " recently used first, and none is kept longer than twice politeness.delay (at least 1s, at"
                    + " most 5m). Fewer than fetch.threads makes the other threads wait for a socket. The crawl's"
                    + " log says the number at its start.", p -> p.fetch().maxConnections());
    public static final ProfileKey<String> FETCH_USER_AGENT = key("fetch.user-agent", KeyType.userAgent(),
            FetchConfig.DEFAULT_USER_AGENT,
            "The User-Agent header; its first product token is the name looked up in robots.txt.",
            p -> p.fetch().userAgent());
    public static final ProfileKey<Duration> FETCH_CONNECT_TIMEOUT = key("fetch.connect-timeout", duration(true),
            Duration.ofSeconds(10), "TCP connect timeout, > 0.", p -> p.fetch().connectTimeout());
    public static final ProfileKey<Duration> FETCH_READ_TIMEOUT = key("fetch.read-timeout", duration(true),
            Duration.ofSeconds(30), "Longest wait between two reads of a response, > 0.",
            p -> p.fetch().readTimeout());
    public static final ProfileKey<Duration> FETCH_CALL_TIMEOUT = key("fetch.call-timeout", duration(true),
            Duration.ofSeconds(60), "Longest time for a whole request, from connect to the end of the body, > 0.",
            p -> p.fetch().callTimeout());
    public static final ProfileKey<Integer> FETCH_MAX_REDIRECTS = key("fetch.max-redirects",
            integer(0, Integer.MAX_VALUE, "must be >= 0"), 5,
            "Redirects followed in one chain before it is recorded as an error, >= 0.",
            p -> p.fetch().maxRedirects());
    public static final ProfileKey<Integer> FETCH_RETRIES = key("fetch.retries",
            integer(0, Integer.MAX_VALUE, "must be >= 0"), 2,
            "Retries after a connection error, 429, 502, 503 or 504, >= 0. A host that still cannot be reached"
                    + " (refused, no route, connect timeout) is then unreachable for the rest of the crawl.", p -> p.fetch().retries());
    public static final ProfileKey<List<String>> FETCH_ACCEPT = key("fetch.accept", list(mediaType()),
            List.of("text/html", "application/xhtml+xml"),
            "Media types parsed for links; pages of other types are recorded, not parsed.",
            p -> p.fetch().accept(), OnResume.FIXED_SCOPE);
    public static final ProfileKey<Boolean> FETCH_ALLOW_PRIVATE_ADDRESSES = key("fetch.allow-private-addresses",
            bool(), false, "Whether the crawl may reach special-purpose addresses: loopback, private, shared,"
                    + " link-local, multicast, documentation and the other IANA special-purpose ranges, as IP literals"
                    + " or as names resolving to them (a seed on such an address is always allowed on its own port,"
                    + " and so is a proxy).", p -> p.fetch().allowPrivateAddresses(), OnResume.FIXED_SCOPE);
    public static final ProfileKey<String> FETCH_PROXY = key("fetch.proxy", KeyType.proxy(), FetchConfig.PROXY_NONE,
            "The HTTP proxy every request goes through, as http://host:port (https URLs are tunnelled with"
                    + " CONNECT). none: the environment variables decide, as for curl and wget: http_proxy for http"
                    + " URLs, https_proxy for https ones (or HTTP_PROXY, HTTPS_PROXY), except for the hosts in"
                    + " no_proxy (NO_PROXY): a comma-separated list of host names, each also matching its"
                    + " subdomains, host:port, IP addresses, or * for all. direct: no proxy, whatever the"
                    + " environment says.", p -> p.fetch().proxy());
    public static final ProfileKey<List<String>> FETCH_HEADERS = key("fetch.headers",
            new KeyType.ListOf<>(KeyType.header(), false, true), List.of(),
            "Extra request headers sent with every request, robots.txt included, each \"Name: value\"; not"
                    + " Host, Content-Length, Transfer-Encoding, Connection, Accept-Encoding or User-Agent (use"
                    + " user-agent).", p -> p.fetch().headers());
    public static final ProfileKey<TrustStore> FETCH_TRUST_STORE = key("fetch.trust-store", KeyType.trustStore(),
            TrustStore.SYSTEM, "Certificate authorities trusted for https besides the system's (the JVM's): a PEM"
                    + " file of one or more CA certificates, or a PKCS12 or JKS trust store readable without a"
                    + " password, its path relative to the working directory; read when the profile is loaded. For"
                    + " servers whose certificates a private CA signed (an intranet, a test server): a handshake that"
                    + " fails for want of it names this key. none: the system's CAs only.",
            p -> p.fetch().trustStore());
    public static final ProfileKey<Duration> FETCH_DNS_TTL = key("fetch.dns-ttl", duration(false),
            Duration.ofMinutes(5), "How long a host name's addresses are kept once resolved, >= 0; 0: asked of the"
                    + " system's resolver each time a connection is opened. At most 65,536 names are kept, the least"
                    + " recently used dropped first; summary.json's dns counts lookups and hits.",
            p -> p.fetch().dnsTtl());
    public static final ProfileKey<Duration> FETCH_DNS_NEGATIVE_TTL = key("fetch.dns-negative-ttl", duration(false),
            Duration.ofSeconds(30), "How long a host name that did not resolve is kept as unknown, >= 0; 0: asked"
                    + " again each time. A lookup that failed because the process was out of file descriptors is"
                    + " not kept: the request waits and goes out again.", p -> p.fetch().dnsNegativeTtl());

    static {
        group("politeness", "How gently each host (scheme, host name and port) is treated.", OnResume.MAY_CHANGE);
    }

    public static final ProfileKey<Duration> POLITENESS_DELAY = key("politeness.delay", duration(false),
            Duration.ofSeconds(1), "Least time from the end of one request to a host to the start of the next, >= 0.",
            p -> p.politeness().delay());
    public static final ProfileKey<Integer> POLITENESS_MAX_CONNECTIONS_PER_HOST = key(
            "politeness.max-connections-per-host", integer(1, Integer.MAX_VALUE, "must be >= 1"), 1,
            "Requests in flight to one host at most, >= 1.", p -> p.politeness().maxConnectionsPerHost());
    public static final ProfileKey<PolitenessUnit> POLITENESS_PER = key("politeness.per", oneOf(PolitenessUnit.class),
            PolitenessUnit.HOST, "What politeness.delay and max-connections-per-host apply to: host (each host on"
                    + " its own) or ip (also each IP address: hosts whose names resolve to one address, the first the"
                    + " DNS gives, share its delay and connections, as virtual hosts of one server). With ip, a host's"
                    + " name is resolved (through the DNS cache) before its first request.",
            p -> p.politeness().per());
    public static final ProfileKey<Boolean> POLITENESS_RESPECT_ROBOTS = key("politeness.respect-robots", bool(),
            true, "Whether robots.txt is fetched and obeyed; turn off only for your own sites.",
            p -> p.politeness().respectRobots(), OnResume.FIXED_SCOPE);
    public static final ProfileKey<Duration> POLITENESS_MAX_CRAWL_DELAY = key("politeness.max-crawl-delay",
            duration(false), Duration.ofSeconds(30),
            "The largest robots.txt Crawl-delay honoured; a host asking for more is skipped, >= 0.",
            p -> p.politeness().maxCrawlDelay());
    public static final ProfileKey<Duration> POLITENESS_ROBOTS_RETRY = key("politeness.robots-retry",
            duration(false), Duration.ofSeconds(30),
            "Wait before fetching an unavailable robots.txt (5xx, timeout) again (doubling, three attempts in all),"
                    + " >= 0. A host that cannot be reached at all is retried as fetch.retries says.",
            p -> p.politeness().robotsRetry());
    public static final ProfileKey<Integer> POLITENESS_ROBOTS_CACHE_HOSTS = key("politeness.robots-cache-hosts",
            integer(0, 100_000_000, "must be >= 0 and <= 100000000"), 100_000,
            "Hosts whose robots.txt rules are kept while they have nothing to fetch (about 600 bytes each), least"
                    + " recently used dropped first, each for 24 hours at most (RFC 9309); a host that comes back"
                    + " finds its rules instead of fetching robots.txt again; 0: none kept. Hosts being crawled"
                    + " keep their own.",
            p -> p.politeness().robotsCacheHosts());
    public static final ProfileKey<Duration> POLITENESS_MAX_RETRY_AFTER = key("politeness.max-retry-after",
            duration(false), Duration.ofMinutes(10),
            "The longest Retry-After (of a 429 or 503) the crawl waits for before trying the URL again, >= 0. A"
                    + " server asking for longer is not retried sooner than asked: the URL is recorded as failed,"
                    + " its error saying so.", p -> p.politeness().maxRetryAfter());

    static {
        group("parse", "How pages are read for links.", OnResume.FIXED_SCOPE);
    }

    public static final ProfileKey<Boolean> PARSE_FOLLOW_NOFOLLOW = key("parse.follow-nofollow", bool(), false,
            "Whether rel=nofollow links, and the links of pages with <meta name=robots content=nofollow>, are"
                    + " followed.", p -> p.parse().followNofollow());

    static {
        group("sieve", "The Sieve: the Bloom filter that remembers which URLs were seen. Memory is about"
                + " -n * ln(p) / (ln 2)^2 bits: 10 million URLs at 1% take about 11.4 MB (see `crawler sieve-plan`);"
                + " the blocked layout takes 3-15% more for the same p.",
                OnResume.FIXED_SIEVE);
    }

    public static final ProfileKey<Long> SIEVE_EXPECTED_URLS = key("sieve.expected-urls",
            longInteger(1, "must be >= 1"), 10_000_000L,
            "n, the distinct URLs the crawl is expected to discover, >= 1.", p -> p.sieve().expectedUrls());
    public static final ProfileKey<Double> SIEVE_FALSE_POSITIVE_RATE = key("sieve.false-positive-rate", rate(), 0.01,
            "p at n, in (0, 1): the share of new URLs wrongly taken as already seen, and so never fetched.",
            p -> p.sieve().falsePositiveRate());
    public static final ProfileKey<OverflowPolicy> SIEVE_ON_OVERFLOW = key("sieve.on-overflow", oneOf(OverflowPolicy.class),
            OverflowPolicy.WARN, "Past n: warn (keep one filter, log a warning; the rate climbs) or grow (add a"
                    + " larger filter layer each time one is full; the rate stays under 2p and memory grows with the"
                    + " crawl).", p -> p.sieve().onOverflow());
    public static final ProfileKey<SieveLayout> SIEVE_LAYOUT = key("sieve.layout", oneOf(SieveLayout.class),
            SieveLayout.CLASSIC, "How the filter lays out a URL's bits: classic (k bits anywhere, k memory reads a new"
                    + " URL) or blocked (k bits in one 64-byte block, one read: faster on a large filter, a few per"
                    + " cent more memory for the same p; see `crawler sieve-plan --layout blocked`).",
            p -> p.sieve().layout());
    public static final ProfileKey<Integer> SIEVE_MAX_IN_MEMORY_URLS = key("sieve.max-in-memory-urls",
            integer(1, Integer.MAX_VALUE, "must be >= 1"), SieveConfig.DEFAULT_MAX_IN_MEMORY_URLS,
            "Pending URLs held in memory at most (about 100 bytes each); the rest wait in append-only segment"
                    + " files in the output folder's frontier/ and are read back in order, >= 1.",
            p -> p.sieve().maxInMemoryUrls());

    static {
        group("output", "Where the crawl writes: pages.jsonl, summary.json, crawl.log (and WARC files).",
                OnResume.FIXED_OUTPUT);
    }

    public static final ProfileKey<Path> OUTPUT_DIR = key("output.dir", folder(), Path.of("crawl-out"),
            "The output folder, relative to the working directory.", p -> p.output().dir());
    public static final ProfileKey<Boolean> OUTPUT_WARC = key("output.warc", bool(), false,
            "Whether WARC 1.1 files are written too, next to pages.jsonl. Each file,"
                    + " PREFIX-yyyyMMddHHmmss-NNNNN.warc.gz (or .warc.zst), each record compressed on its own, holds"
                    + " a warcinfo record first, then a request and a response record for every response received"
                    + " (pages, redirects, error pages, robots.txt), the body as transferred. Each page's line in"
                    + " pages.jsonl gives its response record's warcFile and warcOffset.", p -> p.output().warc());
    public static final ProfileKey<String> OUTPUT_WARC_PREFIX = key("output.warc-prefix",
            matching(OutputConfig.WARC_PREFIX, "must be letters, digits, '.', '_' and '-', starting with a letter"
                    + " or digit"), "crawl",
            "The start of each WARC file's name: letters, digits, '.', '_' and '-'.", p -> p.output().warcPrefix());
    public static final ProfileKey<Long> OUTPUT_WARC_MAX_SIZE = key("output.warc-max-size", size(1),
            1024L * 1024 * 1024, "A WARC file is not continued past this size; the next records go to a new file"
                    + " (a record larger than this gets a file of its own), >= 1.", p -> p.output().warcMaxSize());
    public static final ProfileKey<Boolean> OUTPUT_WARC_METADATA = key("output.warc-metadata", bool(), false,
            "Whether each parsed page also gets a WARC metadata record listing its outlinks.",
            p -> p.output().warcMetadata());
    public static final ProfileKey<WarcCompression> OUTPUT_WARC_COMPRESSION = key("output.warc-compression",
            oneOf(WarcCompression.class), WarcCompression.GZIP, "How each WARC record is compressed on its own: gzip"
                    + " (.warc.gz, read by every WARC tool) or zstd (.warc.zst, one Zstandard frame per record, no"
                    + " dictionary, per the IIPC WARC-zstd proposal: faster and smaller, read by fewer tools).",
            p -> p.output().warcCompression());
    public static final ProfileKey<Boolean> OUTPUT_WARC_DEDUP = key("output.warc-dedup", bool(), false,
            "Whether a response whose payload is identical to one already archived in this crawl (same payload"
                    + " digest, another URL) is archived as a revisit record (profile identical-payload-digest)"
                    + " referring to the first capture, its HTTP head kept and its body left out. Payloads of 512"
                    + " bytes or more only (a revisit of a smaller one would not be smaller); the first 100000"
                    + " distinct ones are remembered (about 300 bytes each), one first seen past that is archived"
                    + " in full every time.",
            p -> p.output().warcDedup());
    public static final ProfileKey<Boolean> OUTPUT_LINKS = key("output.links", bool(), false,
            "Whether the link graph is written to links.tsv.zst beside pages.jsonl: every link of every parsed page"
                    + " (a, area, frame, iframe, link, img, script, stylesheet, icon; normalized target, text,"
                    + " nofollow, in scope or not), every redirect and every URL a sitemap lists; crawler report"
                    + " joins it with pages.jsonl for audit.json's broken links and orphans.",
            p -> p.output().links());

    static {
        group("progress", "The progress line in the log (logger org.sievecrawler.progress).", OnResume.MAY_CHANGE);
    }

    public static final ProfileKey<Duration> PROGRESS_INTERVAL = key("progress.interval", duration(true),
            Duration.ofSeconds(10), "Time between two progress lines, > 0.", p -> p.progress().interval());

    static {
        group("checkpoint", "Checkpoints: the state `crawler crawl --resume DIR` continues from, written to the"
                + " output folder's checkpoint/ (the Bloom filter, the pending URLs, the counters), and always once"
                + " more when the crawl stops.", OnResume.MAY_CHANGE);
    }

    public static final ProfileKey<Duration> CHECKPOINT_INTERVAL = key("checkpoint.interval", duration(false),
            Duration.ofSeconds(60), "Time between two checkpoints; 0 for one only when the crawl stops, >= 0.",
            p -> p.checkpoint().interval());

    private static final List<ProfileKey<?>> ALL = Collections.unmodifiableList(new ArrayList<>(KEYS));
    private static final Map<String, ProfileKey<?>> BY_NAME = byName();

    private ProfileKeys() {
    }

    /** Every key, in the order of config/default.yaml. */
    public static List<ProfileKey<?>> all() {
        return ALL;
    }

    /** The key named {@code name} (dotted), or null. */
    public static ProfileKey<?> named(String name) {
        return BY_NAME.get(name);
    }

    /** The groups in order, each with its comment: scope, limits, fetch, ... */
    static Map<String, String> groups() {
        return Collections.unmodifiableMap(GROUP_DOCS);
    }

    /**
     * The nearest key to an unknown {@code name}, as {@code did you mean "politeness.delay"?}: one whose name
     * within its group is {@code name}'s, else the closest by edit distance; or a pointer to the list of keys.
     */
    public static String suggestion(String name) {
        String leaf = name.substring(name.indexOf('.') + 1);
        ProfileKey<?> best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (ProfileKey<?> key : ALL) {
            int distance = key.leaf().equals(leaf) ? 0 : ProfileBinder.editDistance(name, key.name());
            if (distance < bestDistance) {
                best = key;
                bestDistance = distance;
            }
        }
        if (best != null && bestDistance <= Math.max(3, name.length() / 3)) {
            return "did you mean \"" + best.name() + "\"?";
        }
        return "the keys are listed by crawler crawl --help and in config/default.yaml";
    }

    /**
     * The keys a resume may change, by group, from {@link ProfileKey#onResume()}: {@code limits.*, fetch.* (not
     * accept, allow-private-addresses), ..., name}.
     */
    public static String mayChangeOnResume() {
        List<String> parts = new ArrayList<>();
        for (String group : GROUP_DOCS.keySet()) {
            List<String> may = leaves(group, true);
            List<String> fixed = leaves(group, false);
            if (!may.isEmpty()) {
                parts.add(fixed.isEmpty() ? group + ".*"
                        : may.size() > fixed.size() ? group + ".* (not " + String.join(", ", fixed) + ")"
                        : group + "." + String.join(", " + group + ".", may));
            }
        }
        parts.addAll(leaves("", true));
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }

    /** What a resume may change in {@code group}, a sentence for its comment in config/default.yaml. */
    static String onResumeNote(String group) {
        List<String> fixed = leaves(group, false);
        if (fixed.isEmpty()) {
            return "A resume may change these.";
        }
        if (leaves(group, true).isEmpty()) {
            return "Fixed for a crawl: a resume refuses other values.";
        }
        return "A resume may change these, not " + String.join(" or ", fixed) + ".";
    }

    /** The names within {@code group} of its keys a resume may change ({@code may}), or of those it may not. */
    private static List<String> leaves(String group, boolean may) {
        return ALL.stream().filter(key -> key.group().equals(group) && key.onResume().mayChange() == may)
                .map(ProfileKey::leaf).toList();
    }

    /** The built-in defaults: every key's default, the values of config/default.yaml. */
    static CrawlProfile defaults() {
        return Defaults.PROFILE;
    }

    /**
     * The profile of {@code values}, each group's record built from its keys; a record that refuses (a rule
     * spanning keys) is passed to {@code onRefusal} with its group's name, and the default record stands in.
     */
    static CrawlProfile assemble(Values v, BiConsumer<String, IllegalArgumentException> onRefusal) {
        return new CrawlProfile(v.get(NAME), v.get(SEEDS),
                build("scope", () -> new ScopeConfig(v.get(SCOPE_HOSTS), v.get(SCOPE_INCLUDE), v.get(SCOPE_EXCLUDE),
                        v.get(SCOPE_MAX_DEPTH), v.get(SCOPE_MAX_PATH_SEGMENTS), v.get(SCOPE_MAX_REPEATED_SEGMENTS),
                        v.get(SCOPE_SITEMAPS), v.get(SCOPE_MAX_SITEMAPS_PER_HOST), v.get(SCOPE_MAX_SITEMAP_BYTES),
                        v.get(SCOPE_CHECK_EXTERNAL), v.get(SCOPE_IGNORE_PARAMS),
                        v.get(SCOPE_LEARN_DUPLICATES)),
                        CrawlProfile::scope, onRefusal),
                build("limits", () -> new LimitsConfig(v.get(LIMITS_MAX_PAGES), v.get(LIMITS_MAX_DURATION),
                        v.get(LIMITS_MAX_PAGE_BYTES), v.get(LIMITS_MAX_PAGES_PER_HOST)), CrawlProfile::limits,
                        onRefusal),
                build("fetch", () -> new FetchConfig(v.get(FETCH_THREADS), v.get(FETCH_MAX_CONNECTIONS),
                        v.get(FETCH_USER_AGENT),
                        v.get(FETCH_CONNECT_TIMEOUT), v.get(FETCH_READ_TIMEOUT), v.get(FETCH_CALL_TIMEOUT),
                        v.get(FETCH_MAX_REDIRECTS), v.get(FETCH_RETRIES), v.get(FETCH_ACCEPT),
                        v.get(FETCH_ALLOW_PRIVATE_ADDRESSES), v.get(FETCH_PROXY), v.get(FETCH_HEADERS),
                        v.get(FETCH_TRUST_STORE), v.get(FETCH_DNS_TTL), v.get(FETCH_DNS_NEGATIVE_TTL)),
                        CrawlProfile::fetch, onRefusal),
                build("politeness", () -> new PolitenessConfig(v.get(POLITENESS_DELAY),
                        v.get(POLITENESS_MAX_CONNECTIONS_PER_HOST), v.get(POLITENESS_RESPECT_ROBOTS),
                        v.get(POLITENESS_MAX_CRAWL_DELAY), v.get(POLITENESS_ROBOTS_RETRY),
                        v.get(POLITENESS_MAX_RETRY_AFTER), v.get(POLITENESS_PER),
                        v.get(POLITENESS_ROBOTS_CACHE_HOSTS)), CrawlProfile::politeness,
                        onRefusal),
                build("parse", () -> new ParseConfig(v.get(PARSE_FOLLOW_NOFOLLOW)), CrawlProfile::parse, onRefusal),
                build("sieve", () -> sieve(v.get(SIEVE_EXPECTED_URLS), v.get(SIEVE_FALSE_POSITIVE_RATE),
                        v.get(SIEVE_ON_OVERFLOW), v.get(SIEVE_MAX_IN_MEMORY_URLS), v.get(SIEVE_LAYOUT)),
                        CrawlProfile::sieve, onRefusal),
                build("output", () -> new OutputConfig(v.get(OUTPUT_DIR), v.get(OUTPUT_WARC), v.get(OUTPUT_WARC_PREFIX),
                        v.get(OUTPUT_WARC_MAX_SIZE), v.get(OUTPUT_WARC_METADATA), v.get(OUTPUT_WARC_COMPRESSION),
                        v.get(OUTPUT_LINKS), v.get(OUTPUT_WARC_DEDUP)),
                        CrawlProfile::output, onRefusal),
                build("progress", () -> new ProgressConfig(v.get(PROGRESS_INTERVAL)), CrawlProfile::progress,
                        onRefusal),
                build("checkpoint", () -> new CheckpointConfig(v.get(CHECKPOINT_INTERVAL)), CrawlProfile::checkpoint,
                        onRefusal));
    }

    private static <R> R build(String group, java.util.function.Supplier<R> make, Function<CrawlProfile, R> fallback,
            BiConsumer<String, IllegalArgumentException> onRefusal) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            onRefusal.accept(group, e);
            return fallback.apply(defaults());
        }
    }

    /** The Sieve's record, its sizing error (too large for memory) told in the profile's key names. */
    private static SieveConfig sieve(long expectedUrls, double falsePositiveRate, OverflowPolicy onOverflow,
            int maxInMemoryUrls, SieveLayout layout) {
        try {
            return new SieveConfig(expectedUrls, falsePositiveRate, onOverflow, maxInMemoryUrls, layout);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().replace("expectedInsertions", "expected-urls")
                    .replace("falsePositiveRate", "false-positive-rate"), e);
        }
    }

    /** A value for every key, as a binding or an override fills them in. Not thread-safe. */
    static final class Values {
        private final Map<ProfileKey<?>, Object> values = new IdentityHashMap<>();

        /** Every key's value in {@code profile}. */
        static Values of(CrawlProfile profile) {
            Values v = new Values();
            for (ProfileKey<?> key : ALL) {
                v.values.put(key, key.valueIn(profile));
            }
            return v;
        }

        /** Every key's default. */
        static Values defaults() {
            Values v = new Values();
            for (ProfileKey<?> key : ALL) {
                v.values.put(key, key.defaultValue());
            }
            return v;
        }

        @SuppressWarnings("unchecked")
        <T> T get(ProfileKey<T> key) {
            return (T) values.get(key);
        }

        <T> void put(ProfileKey<T> key, T value) {
            values.put(key, value);
        }

        /**
         * Sets {@code key} to {@code value}, as {@code --set} and {@link CrawlProfile#with} do: the value kept to the
         * key's rule ({@link ProfileKey#require}) before any record is built from it.
         *
         * @throws IllegalArgumentException naming the key, the rule and the value, e.g. {@code fetch.threads must be
         *     in [1, 1024], was 0}
         */
        <T> void set(ProfileKey<T> key, T value) {
            values.put(key, key.require(value));
        }
    }

    /** A key a resume may change as its group may. */
    private static <T> ProfileKey<T> key(String name, KeyType<T> type, T defaultValue, String doc,
            Function<CrawlProfile, T> read) {
        String group = name.substring(0, Math.max(0, name.indexOf('.')));
        return key(name, type, defaultValue, doc, read, GROUP_ON_RESUME.get(group));
    }

    private static <T> ProfileKey<T> key(String name, KeyType<T> type, T defaultValue, String doc,
            Function<CrawlProfile, T> read, OnResume onResume) {
        ProfileKey<T> key = new ProfileKey<>(name, type, defaultValue, doc, read, onResume);
        KEYS.add(key);
        return key;
    }

    private static <E> KeyType.ListOf<E> list(KeyType.Scalar<E> item) {
        return new KeyType.ListOf<>(item, false, false);
    }

    private static void group(String name, String doc, OnResume onResume) {
        GROUP_DOCS.put(name, doc);
        GROUP_ON_RESUME.put(name, onResume);
    }

    private static Map<String, ProfileKey<?>> byName() {
        Map<String, ProfileKey<?>> map = new LinkedHashMap<>();
        for (ProfileKey<?> key : KEYS) {
            map.put(key.name(), key);
        }
        return Collections.unmodifiableMap(map);
    }

    /** The defaults, built once the table is complete. */
    private static final class Defaults {
        static final CrawlProfile PROFILE = assemble(Values.defaults(), (group, e) -> {
            throw new IllegalStateException("the default " + group + " is refused: " + e.getMessage(), e);
        });
    }
}
