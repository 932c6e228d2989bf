/*
 * memtime.h - the timing model's memory hierarchy (timing.h): when the data
 * of an access is back, for every memory latency (lane) at once. The cache
 * model (cache.h) says where a line is, in trace order; this says when:
 * each level's hit latency, its MSHRs, the targets an MSHR holds, the
 * memory's latency and its bandwidth. docs/model.md states the rules.
 *
 * Times are ticks of 1/EDAN_TICKS_PER_CYCLE cycle, so that a memory
 * bandwidth of a fraction of a line per cycle (16 GB/s at 1 GHz is 4 cycles
 * a 64-byte line, at 3 GHz 12) queues transfers without rounding to whole
 * cycles.
 */
#ifndef EDAN_ANALYSIS_MEMTIME_H
#define EDAN_ANALYSIS_MEMTIME_H

#include <stdint.h>

#include "analysis/cache/cache.h"
#include "analysis/dram/dram.h"
#include "analysis/machine/machine.h"
#include "analysis/prefetch/prefetch.h"
#include "util/error.h"

#define EDAN_TICKS_PER_CYCLE 16u
/* Memory latencies (lanes) at most: the timing model's EDAN_TIMING_MAX_LATENCIES, checked there. */
#define EDAN_MEMTIME_LANES 32
/* Lines in flight are looked up in a direct-mapped table of 2^this entries (far more than MSHRs). */
#define EDAN_MEMTIME_INFLIGHT_BITS 12
/*
 * Memory bandwidth is a calendar of buckets of EDAN_MEMTIME_BW_LINES line
 * transfers each, in a ring of EDAN_MEMTIME_BW_BUCKETS per lane (memtime.c).
 */
#define EDAN_MEMTIME_BW_LINES 8
#define EDAN_MEMTIME_BW_BUCKETS 4096
/* Intervals in which the L1d is blocked, kept per lane: the most recent ones. */
#define EDAN_MEMTIME_BLOCKS 8

typedef uint64_t edan_tick;

/* A bucket of the bandwidth calendar: its number + 1 (0: empty), and the bytes taken in it. */
typedef struct edan_memtime_bucket {
    uint64_t no;
    double used;
} edan_memtime_bucket;
typedef edan_tick edan_lanes[EDAN_MEMTIME_LANES]; /* one time per memory latency */

/*
 * The fill time of a prefetch a lane dropped (its queue was full): in that
 * lane the line never came, and the first access to it reads it from where
 * the prefetch found it. Later than any time (the model stops at 2^62).
 * So does an access that comes before its line's prefetch was sent: the
 * prefetch waiting in its queue is squashed (gem5's queue_squash) and the
 * access misses.
 */
#define EDAN_MEMTIME_DROPPED (((edan_tick)1 << 62) + 1)

/*
 * Prefetches in the hierarchy (memtime_prefetch.c). An L1d prefetch's line
 * is in flight in the L1d's table (if_line, if_fill: DROPPED in a lane that
 * dropped it; if_targets 0 until an access waits for it); a lower level's
 * in a table of its own (pf_*). on false: the machine has no prefetcher,
 * nothing here is allocated and nothing reads it.
 */
/* A prefetch as a lane sent it: when, the MSHR of its level it took and when that MSHR was free before. */
typedef struct edan_memtime_pf_sent {
    edan_tick go, mshr_was;
    uint32_t mshr;
} edan_memtime_pf_sent;

typedef struct edan_memtime_pf {
    bool on;
    /*
     * The lane whose times decide which L1d accesses find their line on its
     * way and train the prefetchers (edan_memtime_pf_in_flight()): the
     * highest latency's. The lanes share one cache model and one prefetcher
     * (docs/model.md, Prefetchers, says why this lane).
     */
    int lane;
    uint8_t *if_src;    /* [entry of the L1d's table]: where an L1d prefetch found its line */
    uint32_t *if_bytes; /* and the bytes it moved to and from memory */
    uint64_t *line;     /* [entry]: the line + 1 a lower level's prefetch brings, 0: none */
    uint8_t *level, *src;
    uint32_t *bytes;
    edan_tick *fill; /* [entry * stride + lane]: when it is in its level; 0 once an access used it */
    /* [entry * stride + lane]: the prefetch of the L1d's table (if_sent) or of this one (sent_as) as sent */
    edan_memtime_pf_sent *if_sent, *sent_as;
    /* per level: when each of the last queue[l] prefetches was sent, [lane * queue[l] + i], a ring at at[l][lane] */
    edan_tick *sent[EDAN_MACHINE_MAX_DATA_LEVELS];
    uint32_t queue[EDAN_MACHINE_MAX_DATA_LEVELS];
    uint32_t rank[EDAN_MACHINE_MAX_DATA_LEVELS]; /* a prefetch waits until this many MSHRs are free: mshr_reserve + 2 */
    uint32_t at[EDAN_MACHINE_MAX_DATA_LEVELS][EDAN_MEMTIME_LANES];
    edan_tick last[EDAN_MACHINE_MAX_DATA_LEVELS][EDAN_MEMTIME_LANES]; /* the level's last prefetch sent */
    /* how much later than ready the level's last prefetch was sent (0: dropped): a prefetch it caused below waits as
     * much */
    edan_tick delay[EDAN_MACHINE_MAX_DATA_LEVELS][EDAN_MEMTIME_LANES];
    uint64_t late[EDAN_MEMTIME_LANES];    /* accesses that waited for a prefetch's line on its way */
    uint64_t dropped[EDAN_MEMTIME_LANES]; /* prefetches dropped, their queue full */
} edan_memtime_pf;

typedef struct edan_memtime {
    int K, nlev;
    size_t stride; /* lanes of a row of the in-flight table (>= K) */
    edan_tick hit[EDAN_MACHINE_MAX_DATA_LEVELS];
    edan_tick memlat[EDAN_MEMTIME_LANES];
    uint32_t mshrs[EDAN_MACHINE_MAX_DATA_LEVELS];
    uint32_t targets;        /* an L1d MSHR's */
    double ticks_per_byte;   /* memory bandwidth */
    edan_tick bw_ticks;      /* one bucket of the bandwidth calendar */
    double bw_cap;           /* bytes a bucket holds */
    edan_memtime_bucket *bw; /* [lane][bucket % EDAN_MEMTIME_BW_BUCKETS] */
    /* per level, lane-major [k * mshrs + i]: when each MSHR is free (a lane's search reads one run) */
    edan_tick *mshr[EDAN_MACHINE_MAX_DATA_LEVELS];
    uint64_t *if_line;    /* line + 1 of each in-flight table entry, 0 = empty */
    edan_tick *if_fill;   /* [entry * stride + lane]: when its fill is back at the core */
    uint16_t *if_targets; /* [entry * stride + lane]: accesses its MSHR holds */
    /* per lane, the L1d is blocked in [from[i], to[i]) for i < blk_n: disjoint intervals, not touching */
    edan_tick blk_from[EDAN_MEMTIME_LANES][EDAN_MEMTIME_BLOCKS];
    edan_tick blk_to[EDAN_MEMTIME_LANES][EDAN_MEMTIME_BLOCKS];
    edan_tick blk_end[EDAN_MEMTIME_LANES]; /* the latest `to`: a request from then on is never blocked */
    uint32_t blk_n[EDAN_MEMTIME_LANES];
    /* with [dram]: the DRAM in place of the latency and the bandwidth calendar, memlat[k] its link's latency */
    edan_dram *dram;
    const edan_cache_wb *wb; /* the data cache's write-backs by the line read (the timing model sets it) */
    uint32_t line_bytes;
    edan_memtime_pf pf; /* prefetches (memtime_prefetch.c) */
} edan_memtime;

/*
 * memlat: K memory latencies in ticks (the timing model checked the
 * machine); stride >= K: the lanes of a row of the in-flight table (a
 * vector's worth more, for a caller that reads rows as vectors). 0, or -1
 * with err set.
 */
int edan_memtime_init(edan_memtime *mt, const edan_machine *m, const edan_tick *memlat, int K, size_t stride,
                      edan_error *err);
void edan_memtime_free(edan_memtime *mt);

/*
 * A read of `line` (address / line size) that missed levels first .. L-1
 * and finds its line at level L (nlev: memory), looked up at level `first`
 * at t0[k]: fill[k], when the data is back at level `first`. bytes: what it
 * moves to and from memory (its line and any dirty line it evicts). For the
 * L1i's misses (first 1); first = L = nlev is the memory's part alone.
 */
void edan_memtime_read(edan_memtime *mt, uint64_t line, int first, int L, uint32_t bytes, const edan_tick *t0,
                       edan_tick *fill);

/*
 * A load, or a store's write, reaches the L1d at req[k]; the cache model
 * found its line at `level` (0: the L1d) and it moves `bytes` to and from
 * memory. done[k]: when its data is back (a load's) or written (a store's).
 * In the lanes of the bit mask `forwarded` a load takes its data from the
 * store queue: done[k] is an L1 hit's time, whatever the L1d's state.
 */
void edan_memtime_access(edan_memtime *mt, uint64_t line, int level, uint32_t bytes, const edan_tick *req,
                         uint32_t forwarded, edan_tick *done);

/*
 * Lane k of edan_memtime_access() of an L1d hit (level 0): when its data is
 * back (or written). That is req + hit[0] when the lane's load is forwarded,
 * and when its request is not in a blocked interval (req >= blk_end[k]) and
 * the line is not on its way at req + hit[0] (its entry if_line does not
 * hold it, or its if_fill is no later): the timing model finds those lanes
 * with vectors and asks this for the others.
 */
edan_tick edan_memtime_hit_lane(edan_memtime *mt, uint64_t line, int k, edan_tick req, bool forwarded);

/*
 * The prefetch pi, caused by a demand access whose L1d request was at
 * req[k] (lane k): ready pi->offset cycles after the L1d's lookup, it waits
 * in its level's queue for an MSHR beyond the level's mshr_reserve (gem5's
 * demand_mshr_reserve) and one more (gem5's canPrefetch()), one after the other, and is dropped when queue_size
 * prefetches before it are still waiting; sent, it holds MSHRs and memory
 * bandwidth as a demand miss does, and its line is on its way until its
 * fill. docs/model.md states the rules.
 */
void edan_memtime_prefetch(edan_memtime *mt, const edan_prefetch_issue *pi, const edan_tick *req);

/* memtime_prefetch.c's state for machine m (nothing when it has no prefetcher): 0, or -1 (out of memory). */
int edan_memtime_pf_init(edan_memtime *mt, const edan_machine *m);
void edan_memtime_pf_free(edan_memtime *mt);

/*
 * A read in lane k that found its line (line + 1) at level L (nlev:
 * memory), where it arrives at `at`: the level a prefetch of L that this
 * lane dropped, or had not sent by then, found the line at (the read goes
 * there, *bytes its bytes), else L; *ready: when a prefetch of L brings the
 * line (0: none on its way). Marks the prefetch used in this lane, as it
 * does one of a level above L (its line was evicted there).
 */
int edan_memtime_pf_found(edan_memtime *mt, int k, uint64_t line, int L, uint32_t *bytes, edan_tick at,
                          edan_tick *ready);

/*
 * Lane k's access at t0 to the line of the L1d's table entry s, on its way:
 * whether it misses after all, the lane having dropped the line's prefetch
 * or not sent it yet (then squashed: its MSHR is free again).
 */
bool edan_memtime_pf_squash(edan_memtime *mt, uint32_t s, int k, edan_tick t0);

/*
 * Whether an L1d access to `line` that the cache model finds there, its
 * request at req[mt->pf.lane], finds the line's fill still on its way when
 * it looks it up (after any blocked interval, as edan_memtime_access() has
 * it): gem5's MSHR hit, a miss for the prefetcher, which trains on it
 * (prefetch.h). False without a prefetcher.
 */
bool edan_memtime_pf_in_flight(const edan_memtime *mt, uint64_t line, const edan_tick *req);

/*
 * One lane of edan_memtime_read of line (the DRAM's address); lookup: a
 * level's prefetches of it on their way are waited for: the fill's time.
 */
edan_tick edan_memtime_read_lane(edan_memtime *mt, int k, uint64_t line, int first, int L, uint32_t bytes, edan_tick x,
                                 bool lookup);

/* The entry of a key (a line, a block) in a direct-mapped table of 2^EDAN_MEMTIME_INFLIGHT_BITS entries. */
static inline uint32_t edan_memtime_slot(uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - EDAN_MEMTIME_INFLIGHT_BITS));
}

#endif
