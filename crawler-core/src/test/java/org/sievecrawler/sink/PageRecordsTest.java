package org.sievecrawler.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.parse.ParsedPage;
import org.sievecrawler.sieve.PendingUrl;

class PageRecordsTest {
    private static final String URL = "http://127.0.0.1:8080/a";
    private static final PendingUrl TASK = PendingUrl.link(URL, PendingUrl.seed("http://127.0.0.1:8080/"));

    private static FetchResult.Page page(int status, boolean truncated) {
        return new FetchResult.Page(HttpUrl.get(URL), status, "text/html", new byte[10], 10, truncated, 7, null,
                Headers.of(), null);
    }

    @Test
    void takesUrlDepthAndReferrerFromTheTask() {
        PageRecord record = PageRecords.notHtml(TASK, page(200, false));

        assertThat(record.url()).isEqualTo(URL);
        assertThat(record.depth()).isEqualTo(1);
        assertThat(record.referrer()).isEqualTo("http://127.0.0.1:8080/");
        assertThat(record.outcome()).isEqualTo(Outcome.NOT_HTML);
        assertThat(record.bytes()).isEqualTo(10);
        assertThat(record.fetchMs()).isEqualTo(7);
        assertThat(record.error()).isNull();
    }

    @Test
    void marksATruncatedPageWithTheCap() {
        ParsedPage parsed = new ParsedPage("T", HttpUrl.get(URL), List.of(), null, true, false,
                StandardCharsets.UTF_8, ParsedPage.ParsedBy.SCANNER);

        PageRecord whole = PageRecords.fetched(TASK, page(200, false), parsed, 100);
        PageRecord cut = PageRecords.fetched(TASK, page(200, true), parsed, 100);

        assertThat(whole.outcome()).isEqualTo(Outcome.FETCHED);
        assertThat(whole.error()).isNull();
        assertThat(whole.title()).isEqualTo("T");
        assertThat(whole.noindex()).isTrue();
        assertThat(cut.outcome()).isEqualTo(Outcome.TRUNCATED);
        assertThat(cut.error()).isEqualTo("body cut at limits.max-page-bytes 100");
    }

    @Test
    void aFetchedPageHasItsBodysDigestAndItsTextsSimHashAnErrorPageNeither() {
        ParsedPage parsed = new ParsedPage("T", HttpUrl.get(URL), List.of(), null, false, false,
                StandardCharsets.UTF_8, ParsedPage.ParsedBy.SCANNER, 0x00ff00000000000aL);
        ParsedPage noText = new ParsedPage("T", HttpUrl.get(URL), List.of(), null, false, false,
                StandardCharsets.UTF_8, ParsedPage.ParsedBy.SCANNER);

        PageRecord page = PageRecords.fetched(TASK, page(200, false), parsed, 100);

        assertThat(page.digest()).isEqualTo(PayloadDigest.of(page(200, false).body(), 10)).matches("sha1:[A-Z2-7]{32}");
        assertThat(page.simhash()).isEqualTo("00ff00000000000a");
        assertThat(PageRecords.fetched(TASK, page(200, false), noText, 100).simhash()).isNull();
        assertThat(PageRecords.notHtml(TASK, page(200, false)).digest()).isEqualTo(page.digest());
        assertThat(PageRecords.httpError(TASK, page(404, false)).digest()).isNull();
    }

    @Test
    void namesTheStatusOfAnHttpError() {
        assertThat(PageRecords.httpError(TASK, page(404, false)).error()).isEqualTo("HTTP 404");
        assertThat(PageRecords.httpError(TASK, page(404, false)).outcome()).isEqualTo(Outcome.HTTP_ERROR);
    }

    @Test
    void tellsRedirectsApart() {
        FetchResult.Redirect redirect = new FetchResult.Redirect(301, "/b", 3, null, null);
        String to = "http://127.0.0.1:8080/b";

        assertThat(PageRecords.redirect(TASK, redirect, to)).extracting(PageRecord::outcome, PageRecord::redirectTo,
                PageRecord::error).containsExactly(Outcome.REDIRECT, to, null);
        assertThat(PageRecords.redirectChainTooLong(TASK, redirect, to, 5)).extracting(PageRecord::outcome,
                PageRecord::redirectTo, PageRecord::error)
                .containsExactly(Outcome.ERROR, to, "redirect chain longer than fetch.max-redirects 5");
        assertThat(PageRecords.unusableRedirect(TASK, redirect, "no Location header").error())
                .isEqualTo("unusable redirect target: no Location header");
        PageRecord target = PageRecords.outOfScopeTarget("http://elsewhere.example/", TASK, "host not in scope");
        assertThat(target).extracting(PageRecord::url, PageRecord::outcome, PageRecord::depth, PageRecord::referrer,
                PageRecord::status).containsExactly("http://elsewhere.example/", Outcome.OUT_OF_SCOPE, 1, URL, 0);
    }

    @Test
    void givesAFailureTheOutcomeOfItsKind() {
        FetchResult.Failure busy = new FetchResult.Failure(FailureKind.RETRYABLE_STATUS, 503, "HTTP 503",
                Duration.ofSeconds(1), 4);
        FetchResult.Failure refused = new FetchResult.Failure(FailureKind.REFUSED, 0, "connection refused", null, 4);
        FetchResult.Failure lost = new FetchResult.Failure(FailureKind.CONNECTION_LOST, 0, "connection lost", null, 4);

        assertThat(PageRecords.failure(TASK, busy, " (after 3 attempts)"))
                .extracting(PageRecord::outcome, PageRecord::status, PageRecord::error)
                .containsExactly(Outcome.HTTP_ERROR, 503, "HTTP 503 (after 3 attempts)");
        assertThat(PageRecords.failure(TASK, refused, "").outcome()).isEqualTo(Outcome.UNREACHABLE);
        assertThat(PageRecords.failure(TASK, lost, "").outcome()).isEqualTo(Outcome.ERROR);
    }

    /** The address guard's refusal at DNS time is the link check's rule caught later: the same outcome. */
    @Test
    void recordsAPageTheAddressGuardRefusedAsOutOfScope() {
        FetchResult.Failure refused = new FetchResult.Failure(FailureKind.PRIVATE_ADDRESS, 0, "host \"intranet.test\""
                + " resolves only to addresses a crawl may not reach: 127.0.0.1 (127.0.0.0/8 loopback)", null, 0);

        assertThat(PageRecords.failure(TASK, refused, "")).extracting(PageRecord::outcome, PageRecord::error)
                .containsExactly(Outcome.OUT_OF_SCOPE, refused.detail());
    }
}
