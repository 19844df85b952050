package org.deliqueue.bench.report;

/** The fixed part of docs/results.md: how to read the figures, and where the seed claims stand. */
final class Notes {
    private Notes() {
    }

    static final String TEXT = """
            ## Notes: the seed claims on 2 shared cores

            **"Multi-threaded insertions into busy queues up to 5,000x faster" (Android 17 article).** Two
            figures answer it (Headline table): the cost of one insert (p50 ratio), which reaches the thousands at
            N = 100000, and the sustained rate of the whole queue (rate ratio), which stays in the hundreds because
            DeliQueue's single consumer, not its producers, sets that rate (see *Deli producers waiting*). What makes
            the gap, and why ours is what it is:
            - The legacy queue inserts into a sorted linked list under its lock: in this workload a new deadline
              lands behind about 2N/3 pending messages, so each insert walks about 67,000 nodes at N = 100000
              while holding the lock, and DeliQueue's insert is one CAS whatever N is. That part of the claim is
              reproduced: the legacy cost grows linearly with N, DeliQueue's does not.
            - The size of the ratio depends on the cost of one hop of the legacy walk. Here it is about 2 ns
              (a p50 of about 150 µs for about 67,000 nodes): the walk streams through memory, probably because
              HotSpot's copying collector lays a long-lived list out in list order, instead of missing the cache
              at every node as on a phone-class CPU with small caches. A slower hop means a bigger ratio.
            - The 5,000x figure also needs contention: with many producer threads (and, on a phone, priority
              inversion: a low-priority lock holder preempted by medium-priority work), every legacy producer
              waits for the O(N) walks of all the others. Here there are 2 producers on 2 cores, and with the
              consumer thread that is already one runnable thread more than there are cores; we cannot
              reproduce a many-core or priority-inversion scenario on this machine, and we did not try to fake
              one.
            - DeliQueue's sustained rate is its Looper's rate: every message is swept and heaped by one thread
              (O(log N) with cache misses at large N), so where producers outrun it they wait, and the *rate*
              ratio is the consumer-bound figure. The article's benchmark measures insertion, which is the
              *p50* figure here. DeliQueue's p50 sits at the granularity of `System.nanoTime` on this machine
              (about 40 ns), so the p50 ratios are, if anything, understated; section 3 gives the insert's
              throughput without timer overhead.
            - At N = 0 the legacy queue sustains about as much as DeliQueue (ratio near 1x): both are
              consumer-bound, and the legacy consumer's removal of the list head is cheaper than DeliQueue's
              sweep plus heap operations. Lock-free insertion moves work from producers to the Looper.

            **"Branchless comparator: 5x in some benchmarks."** Not reproduced on x86-64 with HotSpot C2 (see
            section 2, where a ratio below 1x means the branchy form is faster). C2 already compiles
            `Long.signum` and short ternaries into flag-setting and conditional-move instructions, so the
            "branchy" form has few real branches left to mispredict, while `MessageHeap.compareLongs` does more
            arithmetic (it is exact for every pair of longs, where upstream's `signum(a - b)` overflows; see
            docs/design.md, edge case 1). The article's 5x came from ART on ARM64, where the branchy form kept a
            conditional branch on a data-dependent outcome. DeliQueue keeps `compareLongs` for correctness;
            on this JVM its speed is not a reason to.

            **The CAS limit.** No lock-free insertion that shares one word can beat a bare CAS loop on that word.
            `DeliQueue.push` adds the allocation of a message and the write of its fields, and `enqueueMessage`
            adds the IN_USE claim CAS on the message and one read of the wait word. With 2 threads on 2 cores,
            every variant pays for the shared cache line moving between cores, which is why throughput does not
            double.

            **Pool strategies.** The Parcel study picked the locked linked list because it was best on one thread
            and close to best under contention, on a phone. On HotSpot, allocation is a thread-local pointer bump
            and short-lived garbage is nearly free, so PURE_GC is competitive or best here. DeliQueue keeps
            pooling off for correctness, not speed: a pooled message could be pushed again while a stale
            traversal (`removeMessages` / `hasMessages` on another thread) still stands on it. The traversal would
            follow the new `next` into newer messages (its ticket would no longer decrease, breaking
            TraversalSafe's termination argument) and a remover's REMOVED CAS could hit the message's next life:
            an ABA on the stack that no pool strategy avoids (DeliQueue class comment, "No pooling"; design.md
            edge case 3). Because no message is pushed twice, no CAS on `top` or `freelist` can suffer ABA. The
            pool table bounds what that costs: the difference between PURE_GC and the best pool.

            **Method caveats.** The quick pass (`make bench`) runs 1 fork with 2 one-second measurement iterations:
            good enough for ratios of 2x and more, not for 10% effects; quote `make bench-full` figures. Tails
            above p99 at a load average near or above the core count are dominated by the OS scheduler and GC
            pauses. The busy-queue consumer holds N within a few percent (the backlog column); DeliQueue's backlog
            sits up to N/8 + 64 above N when its producers wait, which does not change its insertion cost.
            Peers: ScheduledThreadPoolExecutor and Netty cannot have their clocks driven, so their consumer cancels
            rather than delivers, and Netty's `schedule` from a foreign thread only hands the task to its event
            loop (a LinkedBlockingQueue offer); the heap insertion happens on the loop thread. In that table
            DelayQueue can sustain more than DeliQueue at N = 10000: its consumer pops a heap under a lock, while
            DeliQueue's Looper also walks the freshly pushed stack segment (a cache miss per message pushed on the
            other core) and keeps the back-links and tombstone bookkeeping that O(1) removal and racy traversal
            need. Per insert, DeliQueue's producer side is the cheapest of the five.
            """;
}
