package org.sievecrawler.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import okhttp3.OkHttpClient;

/**
 * The sockets of a capturing fetcher: each connection's plaintext input goes through a {@link HeadTap}, which the
 * network interceptor finds again through {@link okhttp3.Connection#socket()} ({@link #tapOf}). An http
 * connection's tap is on its TCP socket ({@link TappedSocket}); an https connection's on its TLS socket
 * ({@link TappedSslSocket}), whose input is the decrypted stream. The TCP socket under a TLS one has a tap too, but
 * it is never armed: OkHttp hands the interceptor the TLS socket, so neither ciphertext nor a proxy's answer to
 * CONNECT (read on the TCP socket before TLS starts) is ever taken for a response.
 *
 * <p>Stateless factories, safe for any number of threads. Out of scope: HTTP/2 (a capturing fetcher speaks
 * HTTP/1.1 only) and SOCKS proxies (OkHttp makes their sockets itself; {@code fetch.proxy} is http only).
 */
final class TappedSockets {
    private TappedSockets() {
    }

    /** A socket with a tap on its input. */
    interface Tapped {
        HeadTap tap();
    }

    /**
     * {@code client} with sockets tapped: TLS sockets wrapping those of its SSL socket factory (its trust manager
     * unchanged) and, when it makes its TCP sockets with the default factory, {@link TappedSocket}s instead. A
     * custom {@link SocketFactory} (tests that watch sockets) is kept, untapped: its http exchanges then have no tap,
     * and their heads are rebuilt (see {@link Wire}).
     */
    static OkHttpClient tapping(OkHttpClient client) {
        OkHttpClient.Builder tapped = client.newBuilder()
                .sslSocketFactory(new Tls(client.sslSocketFactory()), client.x509TrustManager());
        if (client.socketFactory() == SocketFactory.getDefault()) {
            tapped.socketFactory(new Plain());
        }
        return tapped.build();
    }

    /** The tap of {@code socket}, or null when it has none. */
    static HeadTap tapOf(Socket socket) {
        return socket instanceof Tapped tapped ? tapped.tap() : null;
    }

    /** A TCP socket whose input goes through a tap (and is otherwise the JDK's plain socket). */
    static final class TappedSocket extends Socket implements Tapped {
        private final HeadTap tap = new HeadTap();

        @Override
        public HeadTap tap() {
            return tap;
        }

        @Override
        public InputStream getInputStream() throws IOException {
            return tap.input(super.getInputStream());
        }
    }

    /** Makes unconnected {@link TappedSocket}s, the only kind OkHttp asks for. */
    private static final class Plain extends SocketFactory {
        @Override
        public Socket createSocket() {
            return new TappedSocket();
        }

        @Override
        public Socket createSocket(String host, int port) {
            throw unconnected();
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) {
            throw unconnected();
        }

        @Override
        public Socket createSocket(InetAddress host, int port) {
            throw unconnected();
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) {
            throw unconnected();
        }

        private static UnsupportedOperationException unconnected() {
            return new UnsupportedOperationException("OkHttp creates unconnected sockets and connects them itself");
        }
    }

    /** Wraps each TLS socket of {@code ssl} in a {@link TappedSslSocket}. */
    private static final class Tls extends SSLSocketFactory {
        private final SSLSocketFactory ssl;

        Tls(SSLSocketFactory ssl) {
            this.ssl = ssl;
        }

        @Override
        public String[] getDefaultCipherSuites() {
            return ssl.getDefaultCipherSuites();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return ssl.getSupportedCipherSuites();
        }

        @Override
        public Socket createSocket(Socket socket, String host, int port, boolean autoClose) throws IOException {
            return tapped(ssl.createSocket(socket, host, port, autoClose));
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return tapped(ssl.createSocket(host, port));
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            return tapped(ssl.createSocket(host, port, localHost, localPort));
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return tapped(ssl.createSocket(host, port));
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                throws IOException {
            return tapped(ssl.createSocket(address, port, localAddress, localPort));
        }

        private static Socket tapped(Socket socket) {
            return new TappedSslSocket((SSLSocket) socket);
        }
    }
}
