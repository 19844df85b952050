package org.deliqueue;

/*
 * DeliQueue's stack top, alone on its cache line.
 *
 * Every producer CASes top; the Looper writes its own fields (the sweep's position, the next deadline, the wait
 * word) on every loop, and MessageQueue's interrupt flag on a park. Sharing a line with top, each such write
 * invalidates the line under the producers' CASes and each push invalidates the Looper's working set (false
 * sharing): the JOL layout of an unpadded DeliQueue on JDK 17 put top at offset 56 of 112 bytes, between
 * nextDeadline and freelist. So top lives in a class of its own between two classes of 128 bytes of padding
 * each (two 64-byte lines: Intel's adjacent-line prefetcher fetches lines in pairs). HotSpot lays out a
 * superclass's fields before a subclass's, so no field of MessageQueue above or of DeliQueue below can come
 * within 128 bytes of top, and the padding also covers whatever object the heap places next to the queue.
 * This is JCTools' layout for its queues' producer and consumer indices; @Contended would do the same but
 * needs -XX:-RestrictContended outside the JDK.
 *
 * The padding fields are never read: they exist for their size.
 */

/** 128 bytes before {@link TopField#top}: MessageQueue's fields stay off its cache line. */
abstract class PadBeforeTop extends MessageQueue {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;

    PadBeforeTop(boolean quitAllowed, Clock clock) {
        super(quitAllowed, clock);
    }
}

/** The field every producer CASes; see {@link DeliQueue} for the protocol. */
abstract class TopField extends PadBeforeTop {
    /** The Treiber stack of all nodes not yet unlinked, newest first. */
    // obligation: TypeOK
    volatile Message top;

    TopField(boolean quitAllowed, Clock clock) {
        super(quitAllowed, clock);
    }
}

/** 128 bytes after {@link TopField#top}: DeliQueue's Looper-written fields stay off its cache line. */
abstract class PaddedTop extends TopField {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    /** Fills the hole a compressed 4-byte top leaves before the longs, where HotSpot would put DeliQueue's freelist. */
    int q16;

    PaddedTop(boolean quitAllowed, Clock clock) {
        super(quitAllowed, clock);
    }
}
