package org.sievecrawler.sieve;

/**
 * Where a {@link SpillingQueue}'s spilled URLs start and end on disk: the next record to read and the end of
 * the last record written, each as a segment number and a byte offset in it, and how many records lie between.
 *
 * @param readSegment the segment holding the next record to read back
 * @param readOffset its byte offset in that segment
 * @param writeSegment the segment being written
 * @param writeOffset the byte length of that segment's whole records
 * @param spilled records written and not yet read back
 */
public record SpillPosition(int readSegment, long readOffset, int writeSegment, long writeOffset, long spilled) {
    public SpillPosition {
        if (readSegment < 0 || readOffset < 0 || writeSegment < readSegment || writeOffset < 0 || spilled < 0
                || (readSegment == writeSegment && readOffset > writeOffset)) {
            throw new IllegalArgumentException("spill position is inconsistent: read " + readSegment + "@"
                    + readOffset + ", write " + writeSegment + "@" + writeOffset + ", " + spilled + " spilled");
        }
    }

    /** Nothing spilled yet: both ends at the start of segment 0. */
    public static SpillPosition empty() {
        return new SpillPosition(0, 0, 0, 0, 0);
    }
}
