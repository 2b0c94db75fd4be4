package org.sievecrawler.trust;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.sievecrawler.input.FileErrors;

/**
 * The certificate authorities a crawl trusts beyond the system's: none ({@link #SYSTEM}, the JVM's default trust
 * store only), or the certificates of one file, a PEM bundle or a PKCS12 or JKS trust store, which are added to the
 * system's, never put in their place ({@link #trustManager()}). Immutable and thread-safe.
 *
 * <p>A keystore is read without a password: a JKS file's certificates need none, and neither do those of a PKCS12
 * file keytool wrote without certificate encryption ({@code keytool -J-Dkeystore.pkcs12.certProtectionAlgorithm=NONE
 * -importcert ...}). A PKCS12 file whose certificates its password encrypts (keytool's default) reads as holding
 * none, and so does one openssl wrote (its certificates lack the attribute by which Java knows a trusted one): the
 * error says how to make a PEM file of it. No password is ever asked for, so none is ever written in a profile.
 *
 * <p>Out of scope: client certificates (the crawl presents none) and revocation checks (the JDK's defaults apply).
 *
 * @param file the file the certificates were read from; null for {@link #SYSTEM} only
 * @param certificates the certificates read, in the file's order; empty for {@link #SYSTEM} only
 */
public record TrustStore(Path file, List<X509Certificate> certificates) {
    /** The system's certificate authorities only: {@code fetch.trust-store: none}. */
    public static final TrustStore SYSTEM = new TrustStore(null, List.of());

    /**
     * Bytes a trust store file may have at most: 8 MiB, some 30 times Debian's bundle of every public CA
     * ({@code /etc/ssl/certs/ca-certificates.crt}, about 220 KB); a larger file is refused unread.
     */
    static final long MAX_BYTES = 8L * 1024 * 1024;

    private static final Pattern PEM_BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    public TrustStore {
        certificates = List.copyOf(certificates);
        if ((file == null) != certificates.isEmpty()) {
            throw new IllegalArgumentException("a trust store is a file with at least one certificate, or SYSTEM;"
                    + " was " + file + " with " + certificates.size() + " certificates");
        }
    }

    /** Whether this is {@link #SYSTEM}: no certificate authority of the crawl's own. */
    public boolean isSystem() {
        return file == null;
    }

    /**
     * The certificates of {@code file}: every {@code CERTIFICATE} block of a PEM file (text around and between the
     * blocks, and blocks of other kinds, are skipped), else every trusted certificate entry of a PKCS12 or JKS
     * keystore read without a password.
     *
     * @throws TrustStoreException naming the file and what is wrong: no such file, not a regular file (a folder, a
     *     FIFO, a device), larger than {@link #MAX_BYTES}, a PEM block that is not a certificate, or no certificate
     */
    public static TrustStore read(Path file) throws TrustStoreException {
        byte[] bytes = readBounded(file);
        String text = new String(bytes, StandardCharsets.ISO_8859_1); // PEM is ASCII; a keystore is binary
        List<X509Certificate> certificates = text.contains("-----BEGIN ") ? fromPem(file, text)
                : fromKeyStore(file, bytes);
        if (certificates.isEmpty()) {
            throw new TrustStoreException(file + ": holds no certificate");
        }
        return new TrustStore(file, certificates);
    }

    /**
     * The trust manager of the system's certificate authorities and this store's, together: a server's chain is
     * trusted when it leads to either. For {@link #SYSTEM}, the system's own.
     *
     * @throws IllegalStateException if the JVM has no PKIX trust manager (a broken JDK, not a user's mistake)
     */
    public X509TrustManager trustManager() {
        try {
            X509TrustManager system = trusting(null);
            if (isSystem()) {
                return system;
            }
            KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
            anchors.load(null, null);
            X509Certificate[] systemCas = system.getAcceptedIssuers();
            for (int i = 0; i < systemCas.length; i++) {
                anchors.setCertificateEntry("system-" + i, systemCas[i]);
            }
            for (int i = 0; i < certificates.size(); i++) {
                anchors.setCertificateEntry("trust-store-" + i, certificates.get(i));
            }
            return trusting(anchors);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the JVM's default trust manager cannot be made: " + e, e);
        }
    }

    @Override
    public String toString() {
        return isSystem() ? "TrustStore[system]" : "TrustStore[" + file + ", " + certificates.size()
                + " certificates]";
    }

    private static X509TrustManager trusting(KeyStore anchors) throws GeneralSecurityException {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(anchors);
        for (TrustManager manager : factory.getTrustManagers()) {
            if (manager instanceof X509TrustManager x509) {
                return x509;
            }
        }
        throw new GeneralSecurityException("no X509TrustManager among " + List.of(factory.getTrustManagers()));
    }

    /** The file's bytes, refusing what is not a regular file or is larger than {@link #MAX_BYTES}, unread. */
    private static byte[] readBounded(Path file) throws TrustStoreException {
        if (!Files.exists(file)) {
            throw new TrustStoreException(file + ": no such file");
        }
        if (!Files.isRegularFile(file)) {
            throw new TrustStoreException(file + ": not a regular file (a folder, a pipe or a device)");
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new TrustStoreException(file + ": larger than " + MAX_BYTES + " bytes");
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw new TrustStoreException(file + ": no such file");
        } catch (IOException e) {
            throw new TrustStoreException(file + ": cannot be read: " + FileErrors.reason(file, e));
        }
    }

    private static List<X509Certificate> fromPem(Path file, String text) throws TrustStoreException {
        List<X509Certificate> certificates = new ArrayList<>();
        Matcher block = PEM_BLOCK.matcher(text);
        while (block.find()) {
            if (!block.group(1).equals("CERTIFICATE")) {
                continue;
            }
            int line = lineOf(text, block.start());
            byte[] der;
            try {
                der = Base64.getDecoder().decode(WHITESPACE.matcher(block.group(2)).replaceAll(""));
            } catch (IllegalArgumentException e) {
                throw new TrustStoreException(file + ": the certificate at line " + line + " is not base64: "
                        + e.getMessage());
            }
            try {
                certificates.add(certificate(der));
            } catch (CertificateException e) {
                throw new TrustStoreException(file + ": the certificate at line " + line + " is not an X.509"
                        + " certificate: " + e.getMessage());
            }
        }
        if (certificates.isEmpty()) {
            throw new TrustStoreException(file + ": holds no PEM block \"-----BEGIN CERTIFICATE-----\"");
        }
        return certificates;
    }

    private static List<X509Certificate> fromKeyStore(Path file, byte[] bytes) throws TrustStoreException {
        for (String type : List.of("PKCS12", "JKS")) {
            KeyStore store;
            try {
                store = KeyStore.getInstance(type);
                store.load(new ByteArrayInputStream(bytes), null);
            } catch (GeneralSecurityException | IOException e) {
                continue; // not of this type
            }
            List<X509Certificate> certificates = new ArrayList<>();
            try {
                for (String alias : Collections.list(store.aliases())) {
                    Certificate certificate = store.isCertificateEntry(alias) ? store.getCertificate(alias) : null;
                    if (certificate instanceof X509Certificate x509) {
                        certificates.add(x509);
                    }
                }
            } catch (GeneralSecurityException e) {
                throw new TrustStoreException(file + ": a " + type + " keystore whose entries cannot be read: "
                        + e.getMessage());
            }
            if (certificates.isEmpty()) {
                throw new TrustStoreException(file + ": a " + type + " keystore with no trusted certificate readable"
                        + " without a password; make a PEM file of its CA certificates instead (keytool -exportcert"
                        + " -rfc -keystore " + file + " -alias NAME, or openssl pkcs12 -in " + file + " -nokeys)");
            }
            return certificates;
        }
        throw new TrustStoreException(file + ": neither PEM (no \"-----BEGIN CERTIFICATE-----\") nor a PKCS12 or"
                + " JKS keystore");
    }

    private static X509Certificate certificate(byte[] der) throws CertificateException {
        Certificate certificate = CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
        if (certificate instanceof X509Certificate x509) {
            return x509;
        }
        throw new CertificateException("a " + certificate.getType() + " certificate, not X.509");
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
