package org.deliqueue.bench;

/** SplitMix64: a tiny, allocation-free, per-thread random source (not thread-safe). */
public final class SplitRandom {
    private long state;

    public SplitRandom(long seed) {
        state = seed;
    }

    public long next() {
        long z = (state += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
