package org.sievecrawler.fetch;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import okhttp3.HttpUrl;
import org.sievecrawler.profile.FetchConfig;

/**
 * Maps the {@link IOException}s OkHttp throws to a {@link FetchResult.Failure} with a kind and a sentence naming
 * the host or URL and what happened. Stateless. Out of scope: deciding whether to retry (the engine's part).
 */
final class NetworkErrors {
    private NetworkErrors() {
    }

    /** The names a certificate holds, in OkHttp's "Hostname ... not verified": {@code subjectAltNames: [...]}. */
    private static final Pattern SUBJECT_ALT_NAMES = Pattern.compile("subjectAltNames: (\\[[^\\]]*\\])");
    /** okio's message when no line end came within its limit. */
    private static final Pattern LINE_END_NOT_FOUND = Pattern.compile("\\\\n not found: limit=(\\d+)");
    /** A head line this long without a line end is the server's doing, not a connection lost mid-line. */
    private static final long LONG_HEAD_LINE = 64 * 1024;

    /**
     * The failure for an exception thrown while fetching {@code url}.
     *
     * @param status the response status when the headers had arrived (the body was being read), else 0
     */
    static FetchResult.Failure failure(IOException e, HttpUrl url, FetchConfig config, int status, long millis) {
        String hostPort = url.host() + ":" + url.port();
        String during = status == 0 ? "" : " while reading the body of an HTTP " + status + " response";
        FailureKind kind;
        String detail;
        PrivateAddressException refused = find(e, PrivateAddressException.class);
        if (refused != null) {
            kind = FailureKind.PRIVATE_ADDRESS;
            detail = refused.getMessage();
        } else if (find(e, UnknownHostException.class) != null) {
            kind = FailureKind.DNS;
            detail = "host \"" + url.host() + "\" did not resolve (" + messages(e) + ")";
        } else if (find(e, SSLException.class) != null) {
            kind = FailureKind.TLS;
            detail = status == 0 ? tlsFailure(e, url, config) // after a response head, the handshake is long done
                    : "TLS with " + hostPort + " failed" + during + ": " + messages(e).replace('\n', ' ');
        } else if (find(e, SocketTimeoutException.class) != null) {
            boolean connecting = messages(e).toLowerCase(Locale.ROOT).contains("connect");
            kind = connecting ? FailureKind.CONNECT_TIMEOUT : FailureKind.TIMEOUT;
            detail = connecting
                    ? "connect to " + hostPort + " timed out after " + config.connectTimeout().toMillis() + " ms"
                    : "read from " + url + " timed out after " + config.readTimeout().toMillis() + " ms" + during;
        } else if (e instanceof InterruptedIOException && "timeout".equals(e.getMessage())) {
            kind = FailureKind.TIMEOUT;
            detail = "call to " + url + " timed out after " + config.callTimeout().toMillis() + " ms" + during;
        } else if (find(e, NoRouteToHostException.class) != null || find(e, PortUnreachableException.class) != null) {
            kind = FailureKind.NO_ROUTE;
            detail = hostPort + " unreachable: " + messages(e);
        } else if (find(e, ConnectException.class) != null) {
            boolean connectRefused = messages(e).toLowerCase(Locale.ROOT).contains("refused");
            kind = connectRefused ? FailureKind.REFUSED : FailureKind.NO_ROUTE;
            detail = connectRefused ? "connect to " + hostPort + " refused"
                    : "connect to " + hostPort + " failed: " + messages(e);
        } else if (find(e, SocketException.class) != null) {
            kind = FailureKind.CONNECTION_LOST;
            detail = "connection to " + hostPort + " failed" + during + ": " + messages(e);
        } else if (headLineBytes(e) >= LONG_HEAD_LINE) {
            kind = FailureKind.PROTOCOL;
            detail = "the response head from " + url + " has a line of more than " + headLineBytes(e) + " bytes"
                    + " (OkHttp reads at most 256 KiB of response head); not retried";
        } else if (find(e, EOFException.class) != null) {
            kind = FailureKind.CONNECTION_LOST;
            detail = hostPort + " closed the connection early" + during + ": " + messages(e);
        } else {
            kind = FailureKind.PROTOCOL;
            detail = "invalid HTTP response from " + url + during + ": " + messages(e);
        }
        return new FetchResult.Failure(kind, status, detail, null, millis);
    }

    /**
     * Why a TLS handshake failed, starting {@code TLS handshake failed: } (the host is the record's, or the one the
     * unreachable host's records name): a certificate no trusted CA signed (and what to do: set, or mend,
     * {@code fetch.trust-store}), one that expired or is not valid yet, one for another host name, else the
     * exception's own words.
     */
    private static String tlsFailure(IOException e, HttpUrl url, FetchConfig config) {
        String failed = "TLS handshake failed: ";
        CertificateExpiredException expired = find(e, CertificateExpiredException.class);
        if (expired != null) {
            return failed + "the certificate of " + url.host() + " has expired (" + expired.getMessage() + ")";
        }
        CertificateNotYetValidException early = find(e, CertificateNotYetValidException.class);
        if (early != null) {
            return failed + "the certificate of " + url.host() + " is not valid yet (" + early.getMessage() + ")";
        }
        SSLPeerUnverifiedException unverified = find(e, SSLPeerUnverifiedException.class);
        Matcher names = unverified == null || unverified.getMessage() == null ? null
                : SUBJECT_ALT_NAMES.matcher(unverified.getMessage());
        if (names != null && names.find()) {
            return failed + "the certificate is not for host \"" + url.host() + "\": it names " + names.group(1);
        }
        if (find(e, CertPathBuilderException.class) != null) {
            return failed + "unable to find a valid certification path; " + (config.trustStore().isSystem()
                    ? "to trust a private CA set fetch.trust-store"
                    : "the CA that signed it is neither the system's nor in fetch.trust-store "
                            + config.trustStore().file());
        }
        return failed + messages(e).replace('\n', ' ');
    }

    /**
     * Whether {@code e} says the process is out of file descriptors ({@code EMFILE}, "Too many open files", or the
     * system's table full, {@code ENFILE}, "Too many open files in system"): a socket could not be made, for want of
     * the crawl's own resources, not for anything the server did. The JDK reports it as a {@link SocketException}
     * (or an {@link IOException}) with that message, which OkHttp may wrap or attach as a suppressed exception.
     */
    static boolean outOfDescriptors(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (saysOutOfDescriptors(t)) {
                return true;
            }
            for (Throwable s : t.getSuppressed()) {
                if (saysOutOfDescriptors(s)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean saysOutOfDescriptors(Throwable t) {
        return t.getMessage() != null && t.getMessage().contains("Too many open files");
    }

    /**
     * The bytes okio had scanned for a line end when it gave up reading a response head line ({@code "\\n not found:
     * limit=N content=..."}), or -1. OkHttp gives okio its whole head budget (256 KiB) as the limit, so N that large
     * means a line over it; a server that closed mid-line after a few bytes leaves a small N, a lost connection.
     */
    private static long headLineBytes(Throwable e) {
        EOFException eof = find(e, EOFException.class);
        String message = eof == null ? null : eof.getMessage();
        Matcher m = message == null ? null : LINE_END_NOT_FOUND.matcher(message);
        return m != null && m.lookingAt() ? Long.parseLong(m.group(1)) : -1;
    }

    /** The exception itself, a cause or a suppressed exception of the given type, or null. */
    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            for (Throwable s : t.getSuppressed()) {
                if (type.isInstance(s)) {
                    return type.cast(s);
                }
            }
        }
        return null;
    }

    /** The messages of the exception and its causes, e.g. "Failed to connect to /127.0.0.1:1: Connection refused". */
    private static String messages(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (text.indexOf(message) < 0) {
                text.append(text.length() == 0 ? "" : ": ").append(message);
            }
        }
        return text.toString();
    }
}
