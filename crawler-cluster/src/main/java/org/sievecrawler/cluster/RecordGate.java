package org.sievecrawler.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.sievecrawler.sieve.PendingUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The door every record a cluster process reads from its crawl's topics passes: the frontier's records, the done
 * markers and the snapshots a takeover reads. Each is checked ({@link RecordCheck}); one refused is skipped, and,
 * unless an earlier owner of its partition read it already, counted, logged and copied aside
 * ({@link RejectedRecords}).
 *
 * <p>Thread-safe as its parts. Out of scope: reading the records (the consumer's owner: {@link ClusterRun},
 * {@link DoneLog}, {@link PartitionStore}).
 */
final class RecordGate {
    private static final Logger LOG = LoggerFactory.getLogger(RecordGate.class);

    private final RecordCheck check;
    private final RejectedRecords rejected;
    private final PendingUrlSerializer values = new PendingUrlSerializer();

    RecordGate(RecordCheck check, RejectedRecords rejected) {
        this.check = Objects.requireNonNull(check, "check");
        this.rejected = Objects.requireNonNull(rejected, "rejected");
    }

    /**
     * The pending URL of the frontier record {@code record}, empty when it is refused. A refused record is
     * counted, logged and copied if {@code firstRead}; otherwise (a new owner replaying what an earlier one read and
     * refused already) it is skipped with a DEBUG line only, so that a takeover does not count it twice.
     */
    Optional<PendingUrl> frontier(ConsumerRecord<byte[], byte[]> record, boolean firstRead) {
        RecordVerdict<PendingUrl> verdict = check.frontier(record);
        if (verdict instanceof RecordVerdict.Good<PendingUrl> good) {
            return Optional.of(good.value());
        }
        RecordVerdict.Bad<?> bad = (RecordVerdict.Bad<?>) verdict;
        if (firstRead) {
            rejected.refused(record, bad);
        } else {
            LOG.debug("skipped a bad record of {} partition {} at offset {} again ({}): refused by an earlier owner",
                    record.topic(), record.partition(), record.offset(), bad);
        }
        return Optional.empty();
    }

    /** The URL the done marker {@code record} marks done, empty when it is refused (counted, logged, copied). */
    Optional<String> doneMarker(ConsumerRecord<byte[], byte[]> record) {
        RecordVerdict<String> verdict = check.doneMarker(record);
        if (verdict instanceof RecordVerdict.Good<String> good) {
            return Optional.of(good.value());
        }
        rejected.refused(record, (RecordVerdict.Bad<?>) verdict);
        return Optional.empty();
    }

    /**
     * The pending URLs of the snapshot {@code ref} of partition {@code partition} (in {@code topic}) that pass the
     * rules, in order; each refused one is counted, logged and copied (encoded as a frontier record's value, at the
     * snapshot's offset).
     */
    List<PendingUrl> pending(String topic, int partition, SnapshotRef ref, List<PendingUrl> pending) {
        List<PendingUrl> kept = new ArrayList<>(pending.size());
        for (PendingUrl url : pending) {
            RecordVerdict<PendingUrl> verdict = check.pending(partition, url);
            if (verdict instanceof RecordVerdict.Good<PendingUrl> good) {
                kept.add(good.value());
            } else {
                rejected.refused(topic, partition, ref.offset(), key(ref), values.serialize(topic, url),
                        (RecordVerdict.Bad<?>) verdict);
            }
        }
        return kept;
    }

    /**
     * Counts, logs and copies (its first chunk's key, no value: the chunks stay in {@code topic}) the snapshot
     * {@code ref} of partition {@code partition} that could not be read, {@code why}.
     */
    void unreadableSnapshot(String topic, int partition, SnapshotRef ref, String why) {
        rejected.refused(topic, partition, ref.offset(), key(ref), null, RecordFault.UNREADABLE_SNAPSHOT.bad(why));
    }

    /** Records refused so far by this process: the progress line's {@code bad-records}. */
    long refused() {
        return rejected.count();
    }

    private static byte[] key(SnapshotRef ref) {
        return SieveStateStore.key(ref.id(), 0, ref.chunks()).getBytes(StandardCharsets.UTF_8);
    }
}
