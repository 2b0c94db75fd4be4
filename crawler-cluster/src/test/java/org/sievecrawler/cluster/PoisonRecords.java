package org.sievecrawler.cluster;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.sievecrawler.fixtures.TsvTable;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.PendingUrlCodec;

/**
 * The table of bad records of src-test-fixtures' {@code /cluster/poison-records.tsv}, made into records of a crawl's
 * topics for a site at {@code http://127.0.0.1:PORT}: the frontier's records and the done markers a client with write
 * access can send, each with the kind a process refuses it as. Used by the MockConsumer tests and the real broker's.
 *
 * <p>Stateless. Out of scope: sending them (the tests').
 */
final class PoisonRecords {
    static final String TABLE = "/cluster/poison-records.tsv";
    /** A port of 127.0.0.1 that is not the seed's: where a URL of a record may try to lead the crawler. */
    static final int OTHER_PORT = 6379;

    /**
     * One row of the table.
     *
     * @param topic the topic's suffix, {@link ClusterTopics#FRONTIER} or {@link ClusterTopics#FETCHED}
     * @param name the case, a sentence
     * @param value the record's value, null for none
     * @param partition the partition it is written to
     * @param kind the kind it is refused as
     * @param where the table's file and line
     */
    record Poison(String topic, String name, byte[] value, int partition, String kind, String where) {
        /** The record at {@code offset} of {@code crawl}'s topic, keyed by the site's host. */
        ConsumerRecord<byte[], byte[]> record(CrawlName crawl, long offset) {
            return new ConsumerRecord<>(crawl.topic(topic), partition, offset,
                    "127.0.0.1".getBytes(StandardCharsets.UTF_8), value);
        }

        @Override
        public String toString() {
            return topic.substring(1) + ": " + name;
        }
    }

    private PoisonRecords() {
    }

    /** Every row of the table, for a site at {@code origin} ({@code http://127.0.0.1:PORT}) on {@code partitions}. */
    static List<Poison> all(String origin, int partitions) throws IOException {
        return TsvTable.rows(TABLE, 5).stream().map(row -> poison(row, origin, partitions)).toList();
    }

    /** The rows of the table for {@code topic} ({@link ClusterTopics#FRONTIER} or {@link ClusterTopics#FETCHED}). */
    static List<Poison> of(String topic, String origin, int partitions) throws IOException {
        return all(origin, partitions).stream().filter(p -> p.topic().equals(topic)).toList();
    }

    private static Poison poison(TsvTable.Row row, String origin, int partitions) {
        String topic = switch (row.cell(0)) {
            case "frontier" -> ClusterTopics.FRONTIER;
            case "fetched" -> ClusterTopics.FETCHED;
            default -> throw new IllegalStateException(row.where() + ": topic " + row.cell(0));
        };
        String value = row.cell(2).replace("{site}", origin).replace("{other-port}", Integer.toString(OTHER_PORT));
        int own = FrontierRecords.partition(host(value), partitions);
        int partition = switch (row.cell(3)) {
            case "own" -> own;
            case "other" -> (own + 1) % partitions;
            default -> throw new IllegalStateException(row.where() + ": partition " + row.cell(3));
        };
        return new Poison(topic, row.cell(1), bytes(value, row.where()), partition, row.cell(4), row.where());
    }

    /** The host of the URL in {@code value}, or the site's when it has none. */
    private static String host(String value) {
        String url = value.startsWith("pending:") ? value.substring(8, value.indexOf('|'))
                : value.startsWith("text:") ? value.substring(5) : "";
        try {
            return HostKey.host(url);
        } catch (IllegalArgumentException noHost) {
            return "127.0.0.1";
        }
    }

    private static byte[] bytes(String value, String where) {
        if (value.equals("null")) {
            return null;
        }
        if (value.equals("empty")) {
            return new byte[0];
        }
        if (value.startsWith("hex:")) {
            return HexFormat.of().parseHex(value.substring(4));
        }
        if (value.startsWith("zeros:")) {
            return new byte[Integer.parseInt(value.substring(6))];
        }
        if (value.startsWith("text:")) {
            return value.substring(5).getBytes(StandardCharsets.UTF_8);
        }
        if (value.startsWith("pending:")) {
            String[] fields = value.substring(8).split("\\|", -1);
            if (fields.length != 5) {
                throw new IllegalStateException(where + ": pending: needs URL|DEPTH|ATTEMPT|REDIRECTS|PURPOSE");
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                PendingUrlCodec.writeText(out, fields[0]);
                PendingUrlCodec.writeText(out, null);
                out.writeInt((int) Long.parseLong(fields[1]));
                out.writeInt((int) Long.parseLong(fields[2]));
                out.writeInt((int) Long.parseLong(fields[3]));
                out.writeByte(PendingUrl.Purpose.valueOf(fields[4]).ordinal());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }
        throw new IllegalStateException(where + ": a value is null, empty, hex:, zeros:, text: or pending:, was "
                + value);
    }
}
