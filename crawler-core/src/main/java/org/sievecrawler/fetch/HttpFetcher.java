package org.sievecrawler.fetch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.Dns;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.LimitsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawler's HTTP client: one shared {@link OkHttpClient} that makes single attempts, never follows redirects
 * or retries on its own, sends the profile's User-Agent, refuses private addresses (see {@link AddressGuard}) and
 * reads bodies after transparent gzip decompression up to {@code limits.max-page-bytes}. Every response and every
 * network error becomes a {@link FetchResult}; nothing is thrown for network trouble.
 *
 * <p>Threads: safe for any number of fetcher threads; each call blocks its thread until the response is read or
 * a timeout fires. The connection pool keeps up to {@code fetch.threads} idle connections, enough for every
 * fetcher thread to hit one host at once.
 *
 * <p>Out of scope: retries and their backoff, following redirects of pages, politeness and interpreting
 * robots.txt (the engine and the politeness package). {@code fetchMillis} is measured with the injected clock.
 */
public final class HttpFetcher implements AutoCloseable {
    /** Bytes of a robots.txt file read at most (500 KiB, RFC 9309 section 2.5). */
    public static final int MAX_ROBOTS_BYTES = 512_000;
    /** Redirects followed at most when fetching robots.txt (RFC 9309 section 2.3.1.2). */
    public static final int MAX_ROBOTS_REDIRECTS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(HttpFetcher.class);
    private static final long IDLE_CONNECTION_KEEP_ALIVE_MINUTES = 5;

    private final FetchConfig fetch;
    private final long maxPageBytes;
    private final Clock clock;
    private final OkHttpClient client;

    /** A fetcher on the system clock; see {@link #HttpFetcher(FetchConfig, LimitsConfig, Set, Clock)}. */
    public HttpFetcher(FetchConfig fetch, LimitsConfig limits, Set<String> allowedPrivateHosts) {
        this(fetch, limits, allowedPrivateHosts, Clock.systemUTC());
    }

    /**
     * A fetcher with its own connection pool; {@link #close()} releases it.
     *
     * @param allowedPrivateHosts hosts that may resolve to private addresses even when
     *     {@code fetch.allow-private-addresses} is false (the seeds' hosts, when a seed is on such an address)
     * @param clock the source of "now" for Retry-After dates and for {@code fetchMillis}
     */
    public HttpFetcher(FetchConfig fetch, LimitsConfig limits, Set<String> allowedPrivateHosts, Clock clock) {
        this(fetch, limits, new AddressGuard(Dns.SYSTEM, fetch.allowPrivateAddresses(), allowedPrivateHosts), clock);
    }

    HttpFetcher(FetchConfig fetch, LimitsConfig limits, AddressGuard guard, Clock clock) {
        this.fetch = fetch;
        this.maxPageBytes = limits.maxPageBytes();
        this.clock = clock;
        Dispatcher dispatcher = new Dispatcher();
        dispatcher.setMaxRequests(Math.max(64, fetch.threads()));
        dispatcher.setMaxRequestsPerHost(fetch.threads());
        String userAgent = fetch.userAgent();
        this.client = new OkHttpClient.Builder()
                .connectTimeout(fetch.connectTimeout())
                .readTimeout(fetch.readTimeout())
                .writeTimeout(fetch.readTimeout())
                .callTimeout(fetch.callTimeout())
                .followRedirects(false)
                .followSslRedirects(false)
                .retryOnConnectionFailure(false)
                .dispatcher(dispatcher)
                .connectionPool(new ConnectionPool(fetch.threads(), IDLE_CONNECTION_KEEP_ALIVE_MINUTES,
                        TimeUnit.MINUTES))
                .dns(guard)
                .addInterceptor(chain -> chain.proceed(
                        chain.request().newBuilder().header("User-Agent", userAgent).build()))
                .addInterceptor(guard)
                .addNetworkInterceptor(HttpFetcher::recordRemoteAddress)
                .build();
    }

    /**
     * Makes one GET attempt, blocking, without following a redirect.
     *
     * @return a {@link FetchResult.Page} for a final response, a {@link FetchResult.Redirect} for 301, 302, 303,
     *     307 and 308, or a {@link FetchResult.Failure} for a retryable status, a network error or an invalid URL
     */
    public FetchResult fetch(String url) {
        long start = clock.millis();
        HttpUrl parsed = url == null ? null : HttpUrl.parse(url);
        if (parsed == null) {
            return new FetchResult.Failure(FailureKind.INVALID_URL, 0,
                    "url \"" + url + "\" is not an absolute http or https URL", null, 0);
        }
        RemoteAddress remote = new RemoteAddress();
        Request request = new Request.Builder().url(parsed).tag(RemoteAddress.class, remote).build();
        FetchResult result;
        try (Response response = client.newCall(request).execute()) {
            result = toResult(response, parsed, start, remote);
        } catch (IOException e) {
            result = NetworkErrors.failure(e, parsed, fetch, 0, elapsed(start));
        }
        LOG.debug("fetched {}: {}", parsed, result);
        return result;
    }

    private FetchResult toResult(Response response, HttpUrl url, long start, RemoteAddress remote) {
        int status = response.code();
        if (isRedirect(status)) {
            return new FetchResult.Redirect(status, response.header("Location"), elapsed(start), remote.ip);
        }
        if (status == 429 || status == 502 || status == 503 || status == 504) {
            String retryAfter = response.header("Retry-After");
            return new FetchResult.Failure(FailureKind.RETRYABLE_STATUS, status, "HTTP " + status + " from " + url
                    + (retryAfter == null ? "" : " with Retry-After \"" + retryAfter + "\""),
                    RetryAfter.parse(retryAfter, clock), elapsed(start));
        }
        CappedBody body;
        try {
            body = CappedBody.read(response.body().source(), maxPageBytes);
        } catch (IOException e) {
            return NetworkErrors.failure(e, url, fetch, status, elapsed(start));
        }
        return new FetchResult.Page(status, response.header("Content-Type"), body.bytes(), body.bytes().length,
                body.truncated(), elapsed(start), remote.ip, response.headers());
    }

    /**
     * Fetches a robots.txt file, following up to {@link #MAX_ROBOTS_REDIRECTS} redirects to any host (relative
     * Locations resolved against the current URL) and reading at most {@link #MAX_ROBOTS_BYTES} bytes.
     *
     * @return the final status, body and URL, or status 0 with an error on a network error, a timeout, a redirect
     *     without a usable Location or too many redirects
     */
    public RobotsResponse fetchRobots(String robotsUrl) {
        HttpUrl current = robotsUrl == null ? null : HttpUrl.parse(robotsUrl);
        if (current == null) {
            return RobotsResponse.failed(robotsUrl, "robots.txt url \"" + robotsUrl
                    + "\" is not an absolute http or https URL");
        }
        for (int redirects = 0; ; redirects++) {
            Request request = new Request.Builder().url(current).build();
            try (Response response = client.newCall(request).execute()) {
                int status = response.code();
                if (!isRedirect(status)) {
                    CappedBody body = CappedBody.read(response.body().source(), MAX_ROBOTS_BYTES);
                    LOG.debug("fetched robots.txt {}: HTTP {}, {} bytes", current, status, body.bytes().length);
                    return RobotsResponse.of(status, body.bytes(), current.toString());
                }
                String location = response.header("Location");
                HttpUrl next = location == null ? null : current.resolve(location);
                if (redirects == MAX_ROBOTS_REDIRECTS) {
                    return RobotsResponse.failed(current.toString(), "robots.txt " + robotsUrl
                            + " redirected more than " + MAX_ROBOTS_REDIRECTS + " times; the last, from " + current
                            + ", to \"" + location + "\"");
                }
                if (next == null) {
                    return RobotsResponse.failed(current.toString(), "robots.txt redirect " + status + " from "
                            + current + (location == null ? " has no Location"
                                    : " to \"" + location + "\" is not an http(s) URL"));
                }
                current = next;
            } catch (IOException e) {
                String detail = NetworkErrors.failure(e, current, fetch, 0, 0).detail();
                LOG.debug("robots.txt {} failed: {}", current, detail);
                return RobotsResponse.failed(current.toString(), detail);
            }
        }
    }

    /** {@link #isParseable(String, List)} against the profile's {@code fetch.accept}. */
    public boolean isParseable(String contentType) {
        return isParseable(contentType, fetch.accept());
    }

    /**
     * Whether a Content-Type names a media type to parse: its type/subtype, without parameters and compared
     * case-insensitively, is one of {@code accept}. A missing (null) or empty Content-Type is not parseable.
     */
    public static boolean isParseable(String contentType, List<String> accept) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String mediaType = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim()
                .toLowerCase(Locale.ROOT);
        if (mediaType.isEmpty()) {
            return false;
        }
        for (String accepted : accept) {
            if (mediaType.equals(accepted.trim().toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    /** Cancels calls in flight and closes idle connections. */
    @Override
    public void close() {
        client.dispatcher().cancelAll();
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    private long elapsed(long start) {
        return Math.max(0, clock.millis() - start);
    }

    private static Response recordRemoteAddress(Interceptor.Chain chain) throws IOException {
        RemoteAddress remote = chain.request().tag(RemoteAddress.class);
        if (remote != null && chain.connection() != null) {
            InetSocketAddress socket = chain.connection().route().socketAddress();
            InetAddress address = socket.getAddress();
            remote.ip = address == null ? null : address.getHostAddress();
        }
        return chain.proceed(chain.request());
    }

    /** Where one request's network interceptor leaves the IP address it was sent to. */
    private static final class RemoteAddress {
        volatile String ip;
    }
}
