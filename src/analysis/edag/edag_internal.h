/*
 * edag_internal.h - the streaming eDAG analyzer's private state, shared by
 * its files and included by nothing else (edag.h is the interface).
 *
 * The analyzer is split along its seams:
 *   edag.c           configuration, edan_edag_new/free/finish, accessors
 *   edag_groups.c    lane groups on threads and the feeds that copy them the stream
 *   edag_series.c    the data-movement series U_i (everything but the inline add)
 *   edag_ids.c       static-instruction entries (hot ops) and the scopes of per-function lanes
 *   edag_fold.h      the per-byte shadow's folding into and out of per-lane values (inline)
 *   edag_step.c      one vertex over all lanes: the general path
 *   edag_bytes.c     the one-lane short path for runs of byte accesses (x86 rep strings)
 *   edag_one_lane.c  edan_edag_consume() and the one-lane short paths
 *   edag_sweep.c     the multi-lane sweep loop
 *
 * The hot loops (consume_one_lane() in edag_one_lane.c, consume_lanes_body()
 * in edag_sweep.c) must inline what they call per instruction: so every
 * helper they share is static inline here or in edag_fold.h, and the
 * functions of other files they call (the general path, new ids, a series
 * growing, a unit splitting) are the rare paths, which were out of line when
 * it was all one file too.
 */
#ifndef EDAN_ANALYSIS_EDAG_INTERNAL_H
#define EDAN_ANALYSIS_EDAG_INTERNAL_H

#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/edag/edag.h"
#include "analysis/shadow/shadow.h"
#include "trace/activity.h"
#include "trace/async.h"

/* ---- constants and lane vectors ---------------------------------------- */

#define EDAN_MAX_GROUPS 16

/*
 * A sweep's lanes are handled in blocks of four 64-bit values: one AVX2
 * vector. Times and depths stay below 2^63, so the signed comparison vectors
 * have is their maximum.
 */
#define LANE_BLOCK 4
typedef int64_t lane_vec __attribute__((vector_size(8 * LANE_BLOCK), aligned(8)));
#define VLOAD(p) (*(const lane_vec *)(const void *)(p))
#define VSTORE(p, v) (*(lane_vec *)(void *)(p) = (v))
/* of two variables */
#define VMAX(a, b) (((a) & ((a) > (b))) | ((b) & ~((a) > (b))))
/* a where m is 1, b where it is 0 */
#define VSELECT(m, a, b) (((a) & -(m)) | ((b) & ((m)-1)))
/*
 * The eDAG rule's lanes form (edag_rule.h): edan_rule_join_vec() ... Always
 * inlined, and only within the analyzer's files, so no vector crosses a
 * call: GCC's note at each use outside the sweep's AVX2 build (in code that
 * simd = false leaves dead) that the ABI of a vector argument depends on AVX
 * is moot, and off for the files that include this header.
 */
#pragma GCC diagnostic ignored "-Wpsabi"
EDAN_RULE_FORM(_vec, lane_vec, VMAX, VSELECT)
/* the shadow's memory depths, 32 bits each */
typedef uint32_t depth_vec __attribute__((vector_size(4 * LANE_BLOCK), aligned(4)));
#define VLOAD_DEPTHS(p) __builtin_convertvector(*(const depth_vec *)(const void *)(p), lane_vec)
#define VSTORE_DEPTHS(p, v) (*(depth_vec *)(void *)(p) = __builtin_convertvector((v), depth_vec))

/*
 * Register state has one extra slot: instructions without a destination
 * write their result to REG_SINK, which nothing reads, so the hot path needs
 * no branch. Sources past n_src are x0 (riscv.h), whose state stays 0.
 */
#define REG_SINK EDAN_NUM_REGS
/*
 * With one lane, regMd is regF + ONE_LANE_MD (one allocation): the loops
 * address both from one base register, with a constant displacement.
 */
#define ONE_LANE_MD (EDAN_NUM_REGS + 1)

#define ALWAYS_INLINE inline __attribute__((always_inline))

static inline uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* ---- static instructions as the hot loops see them --------------------- */

/*
 * What the hot loop needs of a static instruction, packed in 8 bytes and
 * indexed by id: a dense table stays in L1, where the edan_insn records
 * (40 bytes each, allocated apart) would not. kind is the edan_mem_kind,
 * whose bit 0 means "reads memory" and bit 1 "writes memory", plus
 * HOT_SEEN: an id not seen yet has an entry of kind HOT_UNSEEN (else zeroed),
 * so one test of kind (against HOT_PLAIN) sends both memory accesses and new
 * ids off the path of the common instruction.
 */
typedef struct hot_op {
    uint8_t src[EDAN_MAX_SRC];
    uint8_t dst; /* REG_SINK when the instruction writes no register */
    uint8_t kind;
    uint8_t size; /* bytes accessed */
    uint8_t cls;
    uint8_t dst2; /* HOT_DST2: a second destination (x86 flags beside a register), else REG_SINK */
} hot_op;
_Static_assert(sizeof(hot_op) == 8, "hot_op is one 8-byte word");
#define HOT_SEEN 4u
#define HOT_PLAIN HOT_SEEN /* seen, and accesses no memory */
/*
 * The kind of an id not seen yet (edan_edag_grow_ids()): a bit of its own, so that the one-lane loop of native
 * programs tests an instruction for its plain path (HOT_PLAIN, or HOT_SEEN | HOT_DST2) with one test of bits,
 * not a mask and a comparison (docs/benchmarks.md, issue 39).
 */
#define HOT_UNSEEN 8u
/* the kind bits that keep a native instruction off the one-lane loop's plain path (HOT_PLAIN or HOT_SEEN | HOT_DST2) */
#define HOT_NOT_PLAIN_D2 (3u | HOT_UNSEEN | HOT_WIDE)
/* registers past src[] and dst (a native instruction, edan_insn_wide()): the loops hand it to the general path */
#define HOT_WIDE 16u
/*
 * Instead of HOT_WIDE: at most three sources and two destinations (dst, dst2): most x86 arithmetic,
 * which writes the flags beside its register. The one-lane loop of native programs (edan_edag.native)
 * writes them as dst, without memory on its plain path, with memory in one_lane_access(); every other
 * loop treats it as HOT_WIDE. An instruction with a third destination (x86 mul's rax, rdx and flags) is
 * HOT_WIDE: the plain path's two stores per instruction for a third, REG_SINK on almost every one, cost
 * more than the general path for the few (docs/benchmarks.md, issue 39).
 */
#define HOT_DST2 32u
_Static_assert((EDAN_MEM_LOAD & 3) == 1 && (EDAN_MEM_STORE & 3) == 2 &&
                   EDAN_MEM_AMO == (EDAN_MEM_LOAD | EDAN_MEM_STORE) && EDAN_MEM_AMO < HOT_SEEN,
               "edan_mem_kind bits: 1 reads, 2 writes, and HOT_SEEN above them");
_Static_assert(!((HOT_SEEN | HOT_DST2) & HOT_NOT_PLAIN_D2) && (HOT_UNSEEN & ~(HOT_SEEN | HOT_WIDE | HOT_DST2 | 3u)),
               "HOT_UNSEEN a bit of its own, and no bit of HOT_NOT_PLAIN_D2 in the plain kinds");

/*
 * A static instruction's last shadow page, for the one-lane loop's short paths (edag_one_lane.c): its number
 * and handle, current while the shadow's generation is gen (shadow.h). A load or store usually touches the
 * page its last execution touched (a stream, a stencil's row), so this one line, beside no other, replaces
 * the lookup among the recently used pages, whose 64 KiB table misses the host's first-level cache when a
 * program's accesses walk many pages.
 */
typedef struct page_memo {
    uint64_t no, gen;
    edan_shadow_page *page;
} page_memo;

/* A static instruction's entry: its hot_op and executions, side by side so the loops keep one table pointer. */
typedef struct hot_id {
    hot_op op;
    uint64_t count;
} hot_id;

/* ---- the analyzer's state ---------------------------------------------- */

/*
 * Level 0 of every lane's cache, as edan_edag_consume_lanes() looks at it first: one
 * array per field, indexed by lane, so the look is a few instructions per
 * lane with no branch and no indirection (an AVX2 gather of four lanes'
 * tags ran slower on this machine than the scalar loads, docs/benchmarks.md).
 * A lane with no simulation of its own (no cache, another lane's, a padding
 * lane) looks at a word no line matches.
 */
typedef struct mru_look {
    uint64_t *tags[EDAN_MAX_LANES];
    uint64_t set_mask[EDAN_MAX_LANES];
    uint64_t ways[EDAN_MAX_LANES];
    uint64_t line_shift[EDAN_MAX_LANES];
} mru_look;

typedef struct lane_state {
    edan_cache cache;
    edan_cost_model cost;
    bool has_cache;
    int cache_owner; /* the first lane with the same cache: its simulation serves this lane too */
    edan_lane_stats st;
} lane_state;

struct edan_edag {
    edan_edag_config cfg;
    int n_lanes;
    edan_shadow shadow;
    lane_state *lane;
    /*
     * Register state, lane-major: register r of lane k at [r * stride + k].
     * With several lanes the stride is n_lanes rounded up to whole lane
     * blocks (LANE_BLOCK), so edan_edag_consume_lanes() handles a register's lanes
     * in vectors; the padding lanes compute values nothing reads.
     */
    size_t stride;
    uint64_t *regF, *regMd;   /* one block, regMd after regF */
    uint64_t *regRF, *regRMd; /* readers since the last write (false dependencies) */
    uint64_t *cost_by_class;  /* class-major: cost of class c in lane k at [c * stride + k]; row
                                 EDAN_CLASS_COUNT is the cost of reaching RAM (alpha) */
    bool lanes_avx2;          /* edan_edag_consume_lanes() runs its AVX2 build */
    /* lanes that run a cache simulation for themselves and others with the same cache; those without a cache */
    uint32_t simulating, uncached;
    uint32_t shared; /* lanes whose cache another lane simulates (their cache_owner) */
    /*
     * edan_edag_consume_lanes() looks first, in every lane at once, whether an access
     * within one line (of the smallest, look_shift) finds it the most
     * recently used of its set at level 0 (look, one entry per lane up to the
     * stride), then, in the lanes that missed it, in the next way (those
     * of look_second_load or, for a store, look_second_store: two ways or
     * more). A load that does ends there; so does a store at a write-back
     * level 0 (look_write_back), and at one write-through level
     * (look_through) it only goes on to RAM. So does any store at one
     * write-through level without write-allocate (look_through_noalloc),
     * which only moves a line it finds to the front (its probe, which looks
     * at every way, replaces the look at the second).
     */
    mru_look look;
    uint32_t look_shift;
    uint32_t look_write_back, look_through, look_through_noalloc, look_second_load, look_second_store;
    /*
     * Where the look settles few lanes (random accesses) it costs more than
     * it saves: it is off while it settles under two thirds of the lanes it
     * looks at, measured on every batch it runs and tried once in LOOK_PROBE
     * batches.
     */
    bool look_on;
    uint64_t batches;
    edan_error err;
    bool finished;
    /* a lane simulates a cache: the stream may hold warm records (trace/exec.h), which warm the caches alone */
    bool warms;
    /* no warm record will come (edan_edag_no_warm_records()): batches are measured whole, with no split */
    bool no_warm_records;
    bool warm_batches; /* a batch is all warm records or none (edan_edag_warm_batches()) */
    /*
     * Executions per static instruction id (lane-independent). Counting by id
     * costs one increment per record with no dependence on the instruction's
     * fields; instruction-class and memory-kind totals are derived at the end.
     */
    hot_id *ids;
    const edan_insn **id_insn;
    page_memo *memo; /* per id, zeroed (gen 0: no page) */
    size_t id_cap;
    uint64_t no_access[4];             /* memory instructions that performed no access, by kind */
    bool prefetch;                     /* prefetch_from() is on for this batch */
    bool native;                       /* an x86-64 or AArch64 instruction was seen (HOT_DST2) */
    const edan_exec *pf_next, *pf_end; /* prefetch_from(): the next record to look at, the batch's end */
    /* scoped lanes (per-function breakdown) */
    bool scoped;
    uint32_t all_mask, exclusive_mask, inclusive_mask;
    uint32_t *id_member;                    /* per static id: exclusive lanes whose ranges hold its pc */
    uint32_t *id_entry;                     /* per static id: inclusive lanes whose function starts at its pc */
    edan_activity activity[EDAN_MAX_LANES]; /* inclusive lanes */
    uint64_t members[EDAN_MAX_LANES];
    /*
     * Lane groups on threads (edan_edag_config.threads). With n_groups > 1
     * this edan_edag holds no analysis state of its own: group[g] analyses
     * some of the lanes, group 0 on the caller's thread and every other on
     * the thread of feed[g], which gets a copy of the stream in buffers of
     * FEED_BATCH records (fed[g] of the current one filled; a producer that
     * asks edan_edag_buffer() where to write fills group 1's directly, and group 0
     * reads the batch there). Lane k is lane lane_slot[k] of group
     * lane_group[k].
     */
    int n_groups;
    edan_edag *group[EDAN_MAX_GROUPS];
    edan_async *feed[EDAN_MAX_GROUPS];
    size_t fed[EDAN_MAX_GROUPS];
    int8_t lane_group[EDAN_MAX_LANES], lane_slot[EDAN_MAX_LANES];
    atomic_bool failed; /* a group on its own thread: err is set (and may be read) */
};

/* ---- functions of one file that others call (none per instruction) ----- */

/*
 * Not static, so a call from another file is an ordinary call; the hot
 * loops reach these only on their rare paths. Every function returning
 * bool or int reports failure as false or -1 with the error set (e->err,
 * or err).
 */

/* edag_series.c: a lane's series for one tau, its slow add (tau not a power of two, or growing), materialising it */
int edan_series_init(edan_series *s, uint64_t tau, uint32_t max_phases);
bool edan_series_add_general(edan_series *s, uint64_t S, uint64_t F, uint64_t w);
bool edan_series_finish(edan_series *s, uint64_t Tinf);

/* edag_groups.c: which lane simulates lane k's cache, how many groups, and the analyzer made of groups */
int edan_edag_cache_owner(const edan_edag_config *cfg, int k);
int edan_edag_group_count(const edan_edag_config *cfg);
edan_edag *edan_edag_new_grouped(const edan_edag_config *cfg, int n_groups, edan_error *err);
void edan_edag_consume_grouped(edan_edag *e, const edan_exec *recs, size_t n);
int edan_edag_finish_grouped(edan_edag *e);
void edan_edag_free_grouped(edan_edag *e);
edan_exec *edan_edag_buffer(void *ctx, size_t *cap); /* edan_consumer.buffer */

/* edag_ids.c: room for static id `id` in the tables, and its entry at its first execution */
bool edan_edag_grow_ids(edan_edag *e, uint32_t id);
void edan_edag_new_id(edan_edag *e, uint32_t id, const edan_insn *in);

/* edag_step.c: one vertex over all lanes, the general path */
bool edan_edag_step_lanes(edan_edag *e, const edan_exec *r);

/*
 * edag_bytes.c: the one-lane loop's wide instruction r (HOT_WIDE, or HOT_DST2 where the loop takes it as wide),
 * whose execution the loop counted: the general path, or for a byte access (x86's rep strings) the run of byte
 * accesses from r up to the batch's end (pf_end). The last record it took (r, or one of the run's after it), or
 * NULL on failure (the error set). Out of line with all it needs read from e, so the loop keeps nothing more
 * live across the call than the general path's call before.
 */
const edan_exec *edan_edag_wide_run(edan_edag *e, const edan_exec *r);

/* edag_sweep.c: a batch of a multi-lane analysis with true dependencies only and no scoped lane */
void edan_edag_consume_lanes(edan_edag *e, const edan_exec *recs, size_t n);

/* ---- per-instruction helpers of every loop: accounting, ids, prefetching  */

/* The common case inline: tau a power of two (always so when automatic) and room for F's phase. */
static inline bool series_add(edan_series *s, uint64_t S, uint64_t F, uint64_t w)
{
    const int sh = s->tau_shift;
    if (__builtin_expect(sh < 0 || (F >> sh) >= s->cap, 0))
        return edan_series_add_general(s, S, F, w);
    const uint64_t first = S >> sh;
    s->u_diff[first + ((S & (s->tau - 1)) != 0)] += (int64_t)w;
    s->u_diff[(F >> sh) + 1] -= (int64_t)w;
    s->started[first] += w;
    return true;
}

/* w(v) of an access classified as ac (edag.h): access bytes, or in line mode every byte moved. */
static ALWAYS_INLINE uint64_t access_bytes(const edan_edag *e, edan_access_class ac, uint32_t size)
{
    return e->cfg.bytes_mode == EDAN_BYTES_LINE ? ac.line_bytes
                                                : (uint64_t)(ac.rd_ram ? size : 0) + (ac.wr_ram ? size : 0);
}

/* A vertex that reached RAM at memory depth md: its memory layer; false (the error set) on failure. */
static ALWAYS_INLINE bool count_layer(edan_edag *e, edan_lane_stats *st, uint64_t md)
{
    if (!edan_layers_inc(&st->layers, md)) {
        edan_error_set(&e->err, "out of memory for %" PRIu64 " memory layers", md);
        return false;
    }
    if (md > EDAN_SHADOW_MAX_MD) {
        edan_error_set(&e->err, "memory depth exceeds %u: not supported", EDAN_SHADOW_MAX_MD);
        return false;
    }
    return true;
}

/* A vertex over [S, F] that moved w bytes: its share of every data-movement series; false when out of memory. */
static ALWAYS_INLINE bool add_to_series(edan_edag *e, edan_lane_stats *st, uint64_t S, uint64_t F, uint64_t w)
{
    for (int j = 0; j < st->n_series; j++) {
        if (!series_add(&st->series[j], S, F, w)) {
            edan_error_set(&e->err, "out of memory for the data-movement series");
            return false;
        }
    }
    return true;
}

/* Account one vertex of lane L that moved w bytes; false on out of memory. */
static ALWAYS_INLINE bool account(edan_edag *e, lane_state *L, bool to_ram, uint64_t t, uint64_t S, uint64_t F,
                                  uint64_t md, uint64_t w, bool member)
{
    edan_lane_stats *st = &L->st;
    st->Tinf = max_u64(st->Tinf, F);
    if (!member)
        return true;
    st->T1 += t;
    if (to_ram) {
        st->W++;
        st->D = max_u64(st->D, md);
        if (!count_layer(e, st, md))
            return false;
    } else {
        st->C += t;
    }
    if (w) {
        st->bytes += w;
        return add_to_series(e, st, S, F, w);
    }
    return true;
}

/*
 * Count one execution of r's static instruction and return its entry (NULL
 * when out of memory). The loops keep the table and its capacity in locals
 * (registers), which this refreshes when it grows. An id not seen before
 * has an entry of kind HOT_UNSEEN: the loops call edan_edag_new_id() for it once they
 * find its kind is not HOT_PLAIN.
 */
static ALWAYS_INLINE hot_id *count_execution(edan_edag *e, const edan_exec *r, hot_id **ids, size_t *cap)
{
    const uint32_t id = r->id;
    if (__builtin_expect(id >= *cap, 0)) {
        if (!edan_edag_grow_ids(e, id))
            return NULL;
        *ids = e->ids;
        *cap = e->id_cap;
    }
    hot_id *h = &(*ids)[id];
    h->count++;
    return h;
}

/* A wide instruction (HOT_WIDE), whose registers the loops' hot_op does not hold: the general path. */
static inline bool wide_step(edan_edag *e, const edan_exec *r, const hot_op op)
{
    if (r->flags & EDAN_EXEC_NO_ACCESS)
        e->no_access[op.kind & 3]++;
    return edan_edag_step_lanes(e, r);
}

/*
 * Whether r, of hot op op (seen), is a byte access: of a wide instruction (HOT_WIDE), x86's rep strings, one record
 * per byte, the one-lane loop hands it to edan_edag_wide_run(), whose run goes on over byte accesses of any
 * instruction (a rep movsb's second vertex is a plain byte store).
 */
static ALWAYS_INLINE bool edan_edag_byte_record(const edan_exec *r, hot_op op)
{
    return (op.kind & 3) && op.size == 1 && !(r->flags & EDAN_EXEC_NO_ACCESS);
}

/* The hot_op of an entry count_execution() returned, recorded first if its id is new. */
static ALWAYS_INLINE hot_op seen_op(edan_edag *e, const edan_exec *r, hot_id *h)
{
    if (__builtin_expect(h->op.kind & HOT_UNSEEN, 0))
        edan_edag_new_id(e, r->id, r->insn);
    return h->op;
}

/*
 * Prefetching shadow state. The addresses of the records after the one the
 * analyzer works on are known, so where the shadow misses the caches (a
 * pointer chase over more pages than the recent-page table holds) their
 * state can be fetched ahead: PREFETCH_AHEAD records ahead, far enough for
 * a miss to memory to complete while the records before it are analyzed.
 * Where the shadow is cache-resident, the look-ahead only costs (about a
 * fifth of cg's rate, measured), so it runs only in a batch after one
 * whose page lookups missed the recent-page table often for pages written
 * before (PREFETCH_WHEN; shadow.h: recent_misses). It no longer runs from
 * every load that missed the first level of the lane's cache model (for
 * gathers, hydro's node coordinates, f3a42b9): on x86 programs those are
 * mostly a stream's next line, and the look-ahead cost PolyBench cholesky
 * 16 % of its analysis and saved GAPBS pr nothing; hydro's analysis with
 * --machine takes about 5 % more without it. From only the misses in a
 * page other than the load's last one (out of line) it still cost cholesky
 * 8 to 15 % (docs/benchmarks.md).
 */
#define PREFETCH_AHEAD 16
/* prefetch when more than one lookup in this many records missed the recent written pages */
#define PREFETCH_WHEN 64

/*
 * Prefetch the shadow state of the memory accesses among the records up to
 * PREFETCH_AHEAD after r. Called from the memory-access path only, so the
 * loop over instructions without memory keeps its registers; every record
 * of a batch is looked at once (pf_next).
 */
static ALWAYS_INLINE void prefetch_ahead(edan_edag *e, const edan_exec *r)
{
    const edan_exec *end = r + PREFETCH_AHEAD + 1;
    if (end > e->pf_end)
        end = e->pf_end;
    const edan_exec *q = e->pf_next > r ? e->pf_next : r + 1;
    const hot_id *ids = e->ids;
    const size_t cap = e->id_cap;
    for (; q < end; q++)
        if (q->id < cap && (ids[q->id].op.kind & 3))
            edan_shadow_prefetch_state(&e->shadow, q->addr);
    e->pf_next = q;
}

/* prefetch_ahead() in a batch that prefetches (e->prefetch) */
static ALWAYS_INLINE void prefetch_from(edan_edag *e, const edan_exec *r)
{
    if (e->prefetch)
        prefetch_ahead(e, r);
}

#endif
