package org.sievecrawler.fetch;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;

/**
 * An https server on 127.0.0.1 whose certificate a certificate authority made for the test signed (okhttp-tls's
 * {@link HeldCertificate}), so no system CA trusts it: every path answers 200 with a small HTML page titled
 * {@link #TITLE}. Started by {@link #start}, stopped by {@link #close()}. Thread-safe: the JDK server answers on its
 * own thread.
 */
public final class TlsSite implements AutoCloseable {
    public static final String TITLE = "behind a private CA";
    private static final AtomicInteger CAS = new AtomicInteger();

    private final HeldCertificate ca;
    private final HttpsServer server;

    private TlsSite(HeldCertificate ca, HttpsServer server) {
        this.ca = ca;
        this.server = server;
    }

    /** A site whose certificate, for 127.0.0.1, a new test CA signed, valid from an hour ago for a day. */
    public static TlsSite start() {
        long now = System.currentTimeMillis();
        return start(now - 3_600_000, now + 86_400_000, "127.0.0.1");
    }

    /**
     * A site whose certificate a new test CA signed, valid from {@code notBefore} to {@code notAfter} (epoch ms), for
     * the host names or IP addresses {@code names}.
     */
    public static TlsSite start(long notBefore, long notAfter, String... names) {
        HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0)
                .commonName("Sieve test CA " + CAS.incrementAndGet()).build(); // two CAs never share a name
        HeldCertificate.Builder leaf = new HeldCertificate.Builder().signedBy(ca).commonName(names[0])
                .validityInterval(notBefore, notAfter);
        for (String name : names) {
            leaf.addSubjectAlternativeName(name);
        }
        HandshakeCertificates serving = new HandshakeCertificates.Builder()
                .heldCertificate(leaf.build(), ca.certificate()).build();
        try {
            HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(serving.sslContext()));
            server.createContext("/", exchange -> {
                byte[] body = ("<html><head><title>" + TITLE + "</title></head><body></body></html>")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            return new TlsSite(ca, server);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code https://127.0.0.1:PORT} and {@code path}. */
    public String url(String path) {
        return "https://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The test CA's certificate as PEM, written to {@code file}, which is returned. */
    public Path writeCaPem(Path file) throws IOException {
        return Files.writeString(file, ca.certificatePem());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
