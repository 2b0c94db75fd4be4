package org.sievecrawler.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link LocalKafka} broker per test class, as a JUnit 5 extension: registered with
 * {@code @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();}, it starts the broker in a
 * temporary folder before the class's first test and stops it, and deletes the folder, after its last.
 *
 * <p>Thread-safety: JUnit calls it from the test thread; {@link #bootstrap()} may be read from any thread.
 * Out of scope: a broker shared between test classes (each class starts its own, a few seconds).
 */
final class KafkaBroker implements BeforeAllCallback, AfterAllCallback {
    private Path dir;
    private LocalKafka kafka;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("kafka-broker-");
        kafka = LocalKafka.start(dir.resolve("kafka"));
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (kafka != null) {
                kafka.close();
            }
        } finally {
            if (dir != null) {
                deleteTree(dir);
            }
        }
    }

    /** The broker's address, {@code 127.0.0.1:PORT}. */
    String bootstrap() {
        return kafka.bootstrap();
    }

    private static void deleteTree(Path root) throws java.io.IOException {
        try (var files = Files.walk(root)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
