package org.sievecrawler.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrustStoreTest {
    private static final HeldCertificate CA = new HeldCertificate.Builder().certificateAuthority(0)
            .commonName("Trust store test CA 1").build();
    private static final HeldCertificate OTHER_CA = new HeldCertificate.Builder().certificateAuthority(0)
            .commonName("Trust store test CA 2").build();

    @TempDir
    Path folder;

    private Path keyStore(String type, String password) throws Exception {
        KeyStore store = KeyStore.getInstance(type);
        store.load(null, null);
        store.setCertificateEntry("ca", CA.certificate());
        Path file = folder.resolve("trust." + type.toLowerCase());
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
        return file;
    }

    @Test
    void readsEveryCertificateOfAPemBundleSkippingTheTextAroundAndOtherBlocks() throws Exception {
        Path bundle = Files.writeString(folder.resolve("bundle.pem"), "# our CAs\n" + CA.certificatePem()
                + "# a key does not belong here; skipped\n" + CA.privateKeyPkcs8Pem() + "\nIssuer: two\n"
                + OTHER_CA.certificatePem());

        TrustStore store = TrustStore.read(bundle);

        assertThat(store.file()).isEqualTo(bundle);
        assertThat(store.certificates()).containsExactly(CA.certificate(), OTHER_CA.certificate());
        assertThat(store.isSystem()).isFalse();
        assertThat(store).hasToString("TrustStore[" + bundle + ", 2 certificates]");
    }

    @Test
    void readsAJksTrustStoreWithoutItsPassword() throws Exception {
        assertThat(TrustStore.read(keyStore("JKS", "secret")).certificates()).containsExactly(CA.certificate());
    }

    @Test
    void readsAPkcs12TrustStoreWhoseCertificatesAreNotEncrypted() throws Exception {
        System.setProperty("keystore.pkcs12.certProtectionAlgorithm", "NONE");
        Path file;
        try {
            file = keyStore("PKCS12", "secret");
        } finally {
            System.clearProperty("keystore.pkcs12.certProtectionAlgorithm");
        }

        assertThat(TrustStore.read(file).certificates()).containsExactly(CA.certificate());
    }

    @Test
    void refusesAPkcs12TrustStoreWhosePasswordEncryptsItsCertificatesSayingHowToMakeAPemFile() throws Exception {
        Path file = keyStore("PKCS12", "secret");

        assertThatThrownBy(() -> TrustStore.read(file)).isInstanceOf(TrustStoreException.class)
                .hasMessage(file + ": a PKCS12 keystore with no trusted certificate readable without a password; make"
                        + " a PEM file of its CA certificates instead (keytool -exportcert -rfc -keystore " + file
                        + " -alias NAME, or openssl pkcs12 -in " + file + " -nokeys)");
    }

    @Test
    void addsItsCertificatesToTheSystemsWithoutReplacingThem() throws Exception {
        List<X509Certificate> system = List.of(TrustStore.SYSTEM.trustManager().getAcceptedIssuers());
        TrustStore store = TrustStore.read(Files.writeString(folder.resolve("ca.pem"), CA.certificatePem()));

        assertThat(system).as("the JDK's CAs").isNotEmpty().doesNotContain(CA.certificate());
        assertThat(store.trustManager().getAcceptedIssuers()).containsAll(system).contains(CA.certificate())
                .hasSize(system.size() + 1);
    }

    @Test
    void refusesWhatIsNotAFileOfCertificatesNamingTheFileAndTheProblem() throws Exception {
        Path missing = folder.resolve("missing.pem");
        Path text = Files.writeString(folder.resolve("notes.txt"), "not a certificate\n");
        Path keyOnly = Files.writeString(folder.resolve("key.pem"), CA.privateKeyPkcs8Pem());
        Path badBase64 = Files.writeString(folder.resolve("bad64.pem"),
                "\n\n-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----\n");
        Path notDer = Files.writeString(folder.resolve("notder.pem"),
                "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        Path huge = folder.resolve("huge.pem");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(TrustStore.MAX_BYTES + 1); // sparse: no 8 MiB written
        }

        assertRefused(missing, missing + ": no such file");
        assertRefused(folder, folder + ": not a regular file (a folder, a pipe or a device)");
        assertRefused(text, text + ": neither PEM (no \"-----BEGIN CERTIFICATE-----\") nor a PKCS12 or JKS keystore");
        assertRefused(keyOnly, keyOnly + ": holds no PEM block \"-----BEGIN CERTIFICATE-----\"");
        assertRefused(badBase64, badBase64 + ": the certificate at line 3 is not base64: ");
        assertRefused(notDer, notDer + ": the certificate at line 1 is not an X.509 certificate: ");
        assertRefused(huge, huge + ": larger than 8388608 bytes");
    }

    private static void assertRefused(Path file, String messageStart) {
        assertThatThrownBy(() -> TrustStore.read(file)).as(file.toString()).isInstanceOf(TrustStoreException.class)
                .message().startsWith(messageStart);
    }

    @Test
    void refusesADeviceByItsType() throws IOException {
        Path zero = Path.of("/dev/zero");
        if (Files.exists(zero)) {
            assertRefused(zero, "/dev/zero: not a regular file (a folder, a pipe or a device)");
        }
    }
}
