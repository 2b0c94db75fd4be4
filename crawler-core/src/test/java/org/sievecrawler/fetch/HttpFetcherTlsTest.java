package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.FETCH_TRUST_STORE;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fetch.HttpFetcher.Settings;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.LimitsConfig;
import org.sievecrawler.trust.TrustStore;
import org.sievecrawler.trust.TrustStoreException;

/**
 * https against {@link TlsSite}s on 127.0.0.1 whose certificates a CA made by the test signed: refused with a message
 * naming {@code fetch.trust-store} without it, fetched with it; and the messages of the other handshake failures
 * (expired, another host's certificate) with it.
 */
class HttpFetcherTlsTest {
    private static final CrawlProfile PROFILE = CrawlProfile.defaults().with(FETCH_THREADS, 2)
            .with(FETCH_CONNECT_TIMEOUT, Duration.ofSeconds(5)).with(FETCH_READ_TIMEOUT, Duration.ofSeconds(5))
            .with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(10));
    private static final FetchConfig CONFIG = PROFILE.fetch();
    private static final Set<String> SEED_HOSTS = Set.of("127.0.0.1");

    @TempDir
    Path folder;

    private FetchResult fetch(FetchConfig config, String url) {
        try (HttpFetcher fetcher = new HttpFetcher(config, LimitsConfig.defaults(), Settings.of(SEED_HOSTS))) {
            return fetcher.fetch(url);
        }
    }

    private FetchConfig trusting(TlsSite site) throws IOException, TrustStoreException {
        return PROFILE.with(FETCH_TRUST_STORE, TrustStore.read(site.writeCaPem(folder.resolve("ca.pem")))).fetch();
    }

    private static FetchResult.Failure failure(FetchResult result) {
        assertThat(result).isInstanceOf(FetchResult.Failure.class);
        return (FetchResult.Failure) result;
    }

    @Test
    void refusesAServerAPrivateCaSignedNamingFetchTrustStore() {
        try (TlsSite site = TlsSite.start()) {
            FetchResult.Failure failure = failure(fetch(CONFIG, site.url("/")));

            assertThat(failure.kind()).isEqualTo(FailureKind.TLS);
            assertThat(failure.detail()).isEqualTo("TLS handshake failed: unable to find a valid certification path;"
                    + " to trust a private CA set fetch.trust-store");
            assertThat(failure.kind().unreachableReason(failure.detail())).isEqualTo(failure.detail());
        }
    }

    @Test
    void fetchesFromAServerTheCaOfTheTrustStoreSigned() throws Exception {
        try (TlsSite site = TlsSite.start()) {
            FetchResult result = fetch(trusting(site), site.url("/page"));

            assertThat(result).isInstanceOfSatisfying(FetchResult.Page.class, page -> {
                assertThat(page.status()).isEqualTo(200);
                assertThat(new String(page.body())).contains(TlsSite.TITLE);
            });
        }
    }

    @Test
    void saysTheTrustStoreLacksTheCaWhenAnotherCaSignedTheServer() throws Exception {
        try (TlsSite site = TlsSite.start(); TlsSite other = TlsSite.start()) {
            FetchConfig config = trusting(other);

            FetchResult.Failure failure = failure(fetch(config, site.url("/")));

            assertThat(failure.detail()).isEqualTo("TLS handshake failed: unable to find a valid certification path;"
                    + " the CA that signed it is neither the system's nor in fetch.trust-store "
                    + folder.resolve("ca.pem"));
        }
    }

    @Test
    void saysWhenTheCertificateOfATrustedCaHasExpired() throws Exception {
        long now = System.currentTimeMillis();
        try (TlsSite site = TlsSite.start(now - 2 * 86_400_000L, now - 86_400_000L, "127.0.0.1")) {
            FetchResult.Failure failure = failure(fetch(trusting(site), site.url("/")));

            assertThat(failure.kind()).isEqualTo(FailureKind.TLS);
            assertThat(failure.detail()).startsWith("TLS handshake failed: the certificate of 127.0.0.1 has expired"
                    + " (NotAfter: ");
        }
    }

    @Test
    void saysWhenTheCertificateOfATrustedCaIsForAnotherHost() throws Exception {
        long now = System.currentTimeMillis();
        try (TlsSite site = TlsSite.start(now - 3_600_000, now + 3_600_000, "other.example")) {
            FetchResult.Failure failure = failure(fetch(trusting(site), site.url("/")));

            assertThat(failure.kind()).isEqualTo(FailureKind.TLS);
            assertThat(failure.detail()).isEqualTo("TLS handshake failed: the certificate is not for host"
                    + " \"127.0.0.1\": it names [other.example]");
        }
    }
}
