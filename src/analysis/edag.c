#include "analysis/edag.h"

#include <inttypes.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/shadow.h"
#include "trace/activity.h"
#include "trace/async.h"

#define DEFAULT_MAX_PHASES (1u << 20)
#define AUTO_MAX_PHASES 4096u
#define EDAN_MAX_GROUPS 16
/* A group thread's stream: buffers of 8192 records (192 KiB), four in flight. */
#define FEED_BATCH 8192
#define FEED_BUFFERS 4

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
/* the shadow's memory depths, 32 bits each */
typedef uint32_t depth_vec __attribute__((vector_size(4 * LANE_BLOCK), aligned(4)));
#define VLOAD_DEPTHS(p) __builtin_convertvector(*(const depth_vec *)(const void *)(p), lane_vec)
#define VSTORE_DEPTHS(p, v) (*(depth_vec *)(void *)(p) = __builtin_convertvector((v), depth_vec))

/* consume_lanes() tries its look at the caches' MRU lines (edan_edag.look_on) once in this many batches */
#define LOOK_PROBE 16

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

/*
 * What the hot loop needs of a static instruction, packed in 8 bytes and
 * indexed by id: a dense table stays in L1, where the edan_insn records
 * (40 bytes each, allocated apart) would not. kind is the edan_mem_kind,
 * whose bit 0 means "reads memory" and bit 1 "writes memory", plus
 * HOT_SEEN: a zeroed entry is an id not seen yet, so one test of kind
 * (against HOT_PLAIN) sends both memory accesses and new ids off the path
 * of the common instruction.
 */
typedef struct hot_op {
    uint8_t src[EDAN_MAX_SRC];
    uint8_t dst; /* REG_SINK when the instruction writes no register */
    uint8_t kind;
    uint8_t size;
    uint8_t cls;
    uint8_t unused;
} hot_op;
_Static_assert(sizeof(hot_op) == 8, "hot_op is one 8-byte word");
#define HOT_SEEN 4u
#define HOT_PLAIN HOT_SEEN /* seen, and accesses no memory */
/* a load with at most one source register (its address), a store with at most two (address, data) */
#define HOT_FEW_SRC 8u
_Static_assert((EDAN_MEM_LOAD & 1) && !(EDAN_MEM_LOAD & 2) && (EDAN_MEM_STORE & 2) && !(EDAN_MEM_STORE & 1) &&
                   EDAN_MEM_AMO == (EDAN_MEM_LOAD | EDAN_MEM_STORE) && EDAN_MEM_AMO < HOT_SEEN,
               "edan_mem_kind bits: 1 reads, 2 writes, and HOT_SEEN above them");

/* A static instruction's entry: its hot_op and executions, side by side so the loops keep one table pointer. */
typedef struct hot_id {
    hot_op op;
    uint64_t count;
} hot_id;

/*
 * Level 0 of every lane's cache, as consume_lanes() looks at it first: one
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
static uint64_t never_line; /* only ever read: no line matches it, so no look marks it dirty */

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
     * blocks (LANE_BLOCK), so consume_lanes() handles a register's lanes
     * in vectors; the padding lanes compute values nothing reads.
     */
    size_t stride;
    uint64_t *regF, *regMd;   /* one block, regMd after regF */
    uint64_t *regRF, *regRMd; /* readers since the last write (false dependencies) */
    uint64_t *cost_by_class;  /* class-major: cost of class c in lane k at [c * stride + k]; row
                                 EDAN_CLASS_COUNT is the cost of reaching RAM (alpha) */
    bool lanes_avx2;          /* consume_lanes() runs its AVX2 build */
    /* lanes that run a cache simulation for themselves and others with the same cache; those without a cache */
    uint32_t simulating, uncached;
    uint32_t shared; /* lanes whose cache another lane simulates (their cache_owner) */
    /*
     * consume_lanes() looks first, in every lane at once, whether an access
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
    /*
     * Executions per static instruction id (lane-independent). Counting by id
     * costs one increment per record with no dependence on the instruction's
     * fields; instruction-class and memory-kind totals are derived at the end.
     */
    hot_id *ids;
    const edan_insn **id_insn;
    size_t id_cap;
    uint64_t no_access[4];             /* memory instructions that performed no access, by kind */
    bool prefetch;                     /* prefetch_from() is on for this batch */
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
     * asks edag_buffer() where to write fills group 1's directly, and group 0
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

void edan_edag_config_default(edan_edag_config *c)
{
    memset(c, 0, sizeof *c);
    c->n_lanes = 1;
    edan_cost_default(&c->lane[0].cost);
    c->n_tau = 1;
    c->tau[0] = 0;
    c->max_phases = 0;
}

static void series_set_shift(edan_series *s)
{
    s->tau_shift = -1;
    for (int b = 0; b < 64; b++)
        if (s->tau == 1ull << b)
            s->tau_shift = b;
}

static inline uint64_t series_div(const edan_series *s, uint64_t t)
{
    return s->tau_shift >= 0 ? t >> s->tau_shift : t / s->tau;
}

static int series_init(edan_series *s, uint64_t tau, uint32_t max_phases)
{
    memset(s, 0, sizeof *s);
    s->requested_tau = tau;
    s->tau = tau ? tau : 1;
    series_set_shift(s);
    s->max_phases = max_phases ? max_phases : (tau ? DEFAULT_MAX_PHASES : AUTO_MAX_PHASES);
    if (s->max_phases < 2)
        s->max_phases = 2;
    s->cap = 64;
    s->u_diff = calloc(s->cap + 1, sizeof *s->u_diff);
    s->started = calloc(s->cap, sizeof *s->started);
    return s->u_diff && s->started ? 0 : -1;
}

/* Double tau: U samples at even indices are exactly the samples of the new tau. */
static void series_coarsen(edan_series *s)
{
    int64_t run = 0;
    size_t half = (s->cap + 1) / 2;
    /* Turn u_diff into values, keep the even ones, turn back into differences. */
    int64_t prev = 0;
    for (size_t i = 0; i < s->cap; i++) {
        run += s->u_diff[i];
        if (i % 2 == 0) {
            size_t j = i / 2;
            int64_t v = run;
            s->u_diff[j] = v - prev;
            prev = v;
        }
    }
    for (size_t j = half; j <= s->cap; j++)
        s->u_diff[j] = 0;
    s->u_diff[half] = -prev;
    for (size_t i = 0; i < s->cap; i++) {
        uint64_t v = s->started[i];
        s->started[i] = 0;
        s->started[i / 2] += v;
    }
    s->tau *= 2;
    series_set_shift(s);
}

static bool series_reserve(edan_series *s, uint64_t index)
{
    while (index >= s->max_phases) {
        series_coarsen(s);
        index /= 2;
    }
    if (index < s->cap)
        return true;
    size_t cap = s->cap;
    while (cap <= index)
        cap *= 2;
    if (cap > s->max_phases)
        cap = s->max_phases;
    int64_t *d = realloc(s->u_diff, (cap + 1) * sizeof *d);
    if (!d)
        return false;
    memset(d + s->cap + 1, 0, (cap - s->cap) * sizeof *d);
    s->u_diff = d;
    uint64_t *st = realloc(s->started, cap * sizeof *st);
    if (!st)
        return false;
    memset(st + s->cap, 0, (cap - s->cap) * sizeof *st);
    s->started = st;
    s->cap = cap;
    return true;
}

/*
 * lo = ceil(S / tau) and hi = floor(F / tau) satisfy lo <= hi + 1, and when a
 * vertex falls between two samples (lo == hi + 1) the two difference updates
 * cancel: no branch is needed for that case.
 */
static __attribute__((noinline)) bool series_add_general(edan_series *s, uint64_t S, uint64_t F, uint64_t w)
{
    uint64_t hi = series_div(s, F);
    if (hi >= s->cap) {
        if (!series_reserve(s, hi))
            return false;
        hi = series_div(s, F);
    }
    const uint64_t first = series_div(s, S);
    const uint64_t lo = first + (first * s->tau != S);
    s->u_diff[lo] += (int64_t)w;
    s->u_diff[hi + 1] -= (int64_t)w;
    s->started[first] += w;
    return true;
}

/* The common case inline: tau a power of two (always so when automatic) and room for F's phase. */
static inline bool series_add(edan_series *s, uint64_t S, uint64_t F, uint64_t w)
{
    const int sh = s->tau_shift;
    if (__builtin_expect(sh < 0 || (F >> sh) >= s->cap, 0))
        return series_add_general(s, S, F, w);
    const uint64_t first = S >> sh;
    s->u_diff[first + ((S & (s->tau - 1)) != 0)] += (int64_t)w;
    s->u_diff[(F >> sh) + 1] -= (int64_t)w;
    s->started[first] += w;
    return true;
}

static bool series_finish(edan_series *s, uint64_t Tinf)
{
    uint64_t n = (Tinf + s->tau - 1) / s->tau;
    if (n == 0)
        n = 1;
    if (!series_reserve(s, n - 1))
        return false;
    n = (Tinf + s->tau - 1) / s->tau;
    if (n == 0)
        n = 1;
    s->U = calloc(n, sizeof *s->U);
    if (!s->U)
        return false;
    int64_t run = 0;
    for (size_t i = 0; i < n; i++) {
        run += s->u_diff[i];
        s->U[i] = (uint64_t)run;
    }
    /* Vertices starting exactly at Tinf (zero-cost tails) belong to the last phase. */
    for (size_t i = n; i < s->cap; i++) {
        s->started[n - 1] += s->started[i];
        s->started[i] = 0;
    }
    s->n = n;
    free(s->u_diff);
    s->u_diff = NULL;
    return true;
}

/* The first lane with the same cache configuration as lane k: one simulation serves both. */
static int cache_owner(const edan_edag_config *cfg, int k)
{
    char mine[256], other[256];
    edan_cache_config_format(&cfg->lane[k].cache, mine, sizeof mine);
    for (int j = 0; j < k; j++) {
        edan_cache_config_format(&cfg->lane[j].cache, other, sizeof other);
        if (!strcmp(mine, other))
            return j;
    }
    return k;
}

/* Cores this process may run on (its affinity mask: taskset and containers narrow it). */
static int available_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* How many lane groups: at most one per thread, per distinct cache and EDAN_MAX_GROUPS. */
static int group_count(const edan_edag_config *cfg)
{
    int threads = cfg->threads ? cfg->threads : available_cores();
    int caches = 0;
    for (int k = 0; k < cfg->n_lanes; k++)
        caches += cache_owner(cfg, k) == k;
    int g = threads < caches ? threads : caches;
    return g < EDAN_MAX_GROUPS ? g : EDAN_MAX_GROUPS;
}

static edan_edag *new_grouped(const edan_edag_config *cfg, int n_groups, edan_error *err);

edan_edag *edan_edag_new(const edan_edag_config *cfg, edan_error *err)
{
    if (cfg->n_lanes < 1 || cfg->n_lanes > EDAN_MAX_LANES) {
        edan_error_set(err, "between 1 and %d configurations can be analysed in one pass, not %d", EDAN_MAX_LANES,
                       cfg->n_lanes);
        return NULL;
    }
    if (cfg->n_tau < 0 || cfg->n_tau > EDAN_MAX_TAUS) {
        edan_error_set(err, "at most %d values of tau", EDAN_MAX_TAUS);
        return NULL;
    }
    if (cfg->threads < 0) {
        edan_error_set(err, "the number of threads must be 0 (one per core) or more, not %d", cfg->threads);
        return NULL;
    }
    const int n_groups = group_count(cfg);
    if (n_groups > 1)
        return new_grouped(cfg, n_groups, err);
    edan_edag *e = calloc(1, sizeof *e);
    if (!e) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    e->cfg = *cfg;
    e->n_lanes = cfg->n_lanes;
    const size_t lanes = (unsigned)e->n_lanes; /* 1 to EDAN_MAX_LANES, checked above */
    e->lane = calloc(lanes, sizeof *e->lane);
    e->stride = lanes == 1 ? 1 : (lanes + LANE_BLOCK - 1) / LANE_BLOCK * LANE_BLOCK;
#if defined(__x86_64__) || defined(__i386__)
    e->lanes_avx2 = !cfg->portable && __builtin_cpu_supports("avx2");
#endif
    size_t regs = (size_t)(EDAN_NUM_REGS + 1) * e->stride;
    e->regF = calloc(2 * regs, sizeof *e->regF);
    e->regMd = e->regF ? e->regF + regs : NULL; /* one block: see ONE_LANE_MD */
    e->regRF = calloc(regs, sizeof *e->regRF);
    e->regRMd = calloc(regs, sizeof *e->regRMd);
    e->cost_by_class = calloc((size_t)(EDAN_CLASS_COUNT + 1) * e->stride, sizeof *e->cost_by_class);
    if (!e->lane || !e->regF || !e->regMd || !e->regRF || !e->regRMd || !e->cost_by_class ||
        edan_shadow_init(&e->shadow, (int)e->stride, cfg->false_deps)) {
        edan_error_set(err, "out of memory");
        edan_edag_free(e);
        return NULL;
    }
    for (int k = 0; k < cfg->n_lanes; k++) {
        int scope = cfg->lane[k].scope;
        e->scoped |= scope != EDAN_SCOPE_ALL;
        if (scope == EDAN_SCOPE_ALL)
            e->all_mask |= 1u << k;
        else if (scope == EDAN_SCOPE_EXCLUSIVE)
            e->exclusive_mask |= 1u << k;
        else
            e->inclusive_mask |= 1u << k;
    }
    for (int k = 0; k < cfg->n_lanes; k++) {
        lane_state *L = &e->lane[k];
        L->cache_owner = cache_owner(cfg, k);
        L->cost = cfg->lane[k].cost;
        for (int c = 0; c < EDAN_CLASS_COUNT; c++)
            e->cost_by_class[c * e->stride + k] = L->cost.cls[c];
        e->cost_by_class[EDAN_CLASS_COUNT * e->stride + k] = L->cost.alpha;
        L->has_cache = cfg->lane[k].cache.n_levels > 0;
        if (L->cache_owner == k)
            *(L->has_cache ? &e->simulating : &e->uncached) |= 1u << k;
        else
            e->shared |= 1u << k;
        if (L->has_cache && edan_cache_init(&L->cache, &cfg->lane[k].cache, err)) {
            edan_edag_free(e);
            return NULL;
        }
        L->st.n_series = cfg->n_tau;
        bool ok = true;
        for (int j = 0; j < cfg->n_tau; j++)
            ok = ok && series_init(&L->st.series[j], cfg->tau[j], cfg->max_phases) == 0;
        if (!ok) {
            edan_error_set(err, "out of memory");
            edan_edag_free(e);
            return NULL;
        }
    }
    e->look_shift = 63;
    for (int k = 0; k < EDAN_MAX_LANES; k++)
        e->look.tags[k] = &never_line;
    for (uint32_t m = e->simulating; m; m &= m - 1) {
        const int k = __builtin_ctz(m);
        const edan_cache_level *l0 = &e->lane[k].cache.level[0];
        e->look.tags[k] = l0->tags;
        e->look.set_mask[k] = l0->set_mask;
        e->look.ways[k] = l0->ways;
        e->look.line_shift[k] = l0->line_shift;
        if (l0->line_shift < e->look_shift)
            e->look_shift = l0->line_shift;
        if (l0->write_back)
            e->look_write_back |= 1u << k;
        else if (e->lane[k].cache.n_levels == 1)
            e->look_through |= 1u << k;
        if (!l0->write_back && !l0->write_allocate && e->lane[k].cache.n_levels == 1)
            e->look_through_noalloc |= 1u << k;
        if (l0->ways >= 2)
            e->look_second_load |= 1u << k;
    }
    e->look_second_store = e->look_second_load & (e->look_write_back | (e->look_through & ~e->look_through_noalloc));
    return e;
}

static void free_grouped(edan_edag *e);

void edan_edag_free(edan_edag *e)
{
    if (!e)
        return;
    if (e->n_groups) {
        free_grouped(e);
        return;
    }
    if (e->lane) {
        for (int k = 0; k < e->n_lanes; k++) {
            lane_state *L = &e->lane[k];
            edan_cache_free(&L->cache);
            edan_layers_free(&L->st.layers);
            for (int j = 0; j < L->st.n_series; j++) {
                free(L->st.series[j].u_diff);
                free(L->st.series[j].U);
                free(L->st.series[j].started);
            }
        }
        free(e->lane);
    }
    edan_shadow_free(&e->shadow);
    free(e->regF);
    free(e->regRF);
    free(e->regRMd);
    free(e->cost_by_class);
    free(e->ids);
    free(e->id_insn);
    free(e->id_member);
    free(e->id_entry);
    free(e);
}

static inline uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

#define ALWAYS_INLINE inline __attribute__((always_inline))

/*
 * Shadow accesses for bytes [off, off+len) of one page (len <= 8, so at most
 * three 4-byte units), for all K lanes at once. Per-lane values are arrays
 * indexed by lane; a unit's record holds F[K], then with readers rF[K], then
 * md[K] and with readers rmd[K] (shadow.h). K is the register state's stride
 * (padding lanes included), with simd a multiple of LANE_BLOCK: then a
 * unit's lanes are handled in vectors. R says whether the shadow keeps
 * readers (false dependencies): a constant in the hot loops, so a unit's
 * address is a shift or a constant multiply.
 */
static ALWAYS_INLINE uint32_t unit_lo(uint32_t off, uint32_t u)
{
    return off > u * EDAN_SHADOW_UNIT ? off - u * EDAN_SHADOW_UNIT : 0;
}
static ALWAYS_INLINE uint32_t unit_hi(uint32_t end, uint32_t u)
{
    return end < (u + 1) * EDAN_SHADOW_UNIT ? end - u * EDAN_SHADOW_UNIT : EDAN_SHADOW_UNIT;
}

/*
 * The shortcut for a shadow without readers' state: an access of 4 or 8 bytes at a multiple of 4 (almost every access)
 * covers one or two whole units. Their records, with no loop: the second is the first again for 4 bytes, which is never
 * past the page.
 */
static ALWAYS_INLINE bool whole_units(const edan_shadow_page *pg, int K, uint32_t off, uint32_t len, char *unit[2])
{
    _Static_assert(EDAN_SHADOW_UNIT == 4, "4- and 8-byte accesses cover one or two units");
    if ((off & (EDAN_SHADOW_UNIT - 1)) || (len != 4 && len != 8))
        return false;
    unit[0] = edan_shadow_unit(pg, K, false, off >> EDAN_SHADOW_UNIT_BITS);
    unit[1] = unit[0] + (len == 8 ? edan_shadow_unit_bytes(K, false) : 0);
    return true;
}

/* Fold the last writers (writers) and/or the readers since (readers) of the bytes into Fin/mdin. */
static ALWAYS_INLINE void mem_deps(edan_shadow *sh, const edan_shadow_page *pg, const int K, const bool R, uint32_t off,
                                   uint32_t len, uint64_t *Fin, uint64_t *mdin, const bool writers, const bool readers,
                                   const bool simd)
{
    char *whole[2];
    if (!R && writers && !readers && whole_units(pg, K, off, len, whole)) {
        const uint64_t *F0 = edan_shadow_unit_F(whole[0]), *F1 = edan_shadow_unit_F(whole[1]);
        const uint32_t *md0 = edan_shadow_unit_md(whole[0], K, false), *md1 = edan_shadow_unit_md(whole[1], K, false);
        if (!((md0[0] | md1[0]) & EDAN_SHADOW_SPLIT)) {
            for (int b = 0; simd && b < K; b += LANE_BLOCK) {
                const lane_vec f0 = VLOAD(F0 + b), f1 = VLOAD(F1 + b), m0 = VLOAD_DEPTHS(md0 + b),
                               m1 = VLOAD_DEPTHS(md1 + b), f = VLOAD(Fin + b), m = VLOAD(mdin + b);
                VSTORE(Fin + b, VMAX(f, VMAX(f0, f1)));
                VSTORE(mdin + b, VMAX(m, VMAX(m0, m1)));
            }
            for (int k = 0; !simd && k < K; k++) {
                const uint64_t f = max_u64(F0[k], F1[k]), m = max_u64(md0[k], md1[k]);
                Fin[k] = max_u64(Fin[k], f);
                mdin[k] = max_u64(mdin[k], m);
            }
            return;
        }
    }
    const uint32_t end = off + len;
    for (uint32_t u = off >> EDAN_SHADOW_UNIT_BITS; u <= (end - 1) >> EDAN_SHADOW_UNIT_BITS; u++) {
        char *unit = edan_shadow_unit(pg, K, R, u);
        const uint64_t *uF = edan_shadow_unit_F(unit);
        const uint32_t *umd = edan_shadow_unit_md(unit, K, R);
        if (!(umd[0] & EDAN_SHADOW_SPLIT)) {
            if (simd && writers && !readers) {
                for (int b = 0; b < K; b += LANE_BLOCK) {
                    const lane_vec f = VLOAD(Fin + b), sf = VLOAD(uF + b);
                    const lane_vec m = VLOAD(mdin + b), sm = VLOAD_DEPTHS(umd + b);
                    VSTORE(Fin + b, VMAX(f, sf));
                    VSTORE(mdin + b, VMAX(m, sm));
                }
                continue;
            }
            for (int k = 0; k < K; k++) {
                if (writers) {
                    Fin[k] = max_u64(Fin[k], uF[k]);
                    mdin[k] = max_u64(mdin[k], umd[k]);
                }
                if (readers) {
                    Fin[k] = max_u64(Fin[k], edan_shadow_unit_rF(unit, K)[k]);
                    mdin[k] = max_u64(mdin[k], edan_shadow_unit_rmd(unit, K)[k]);
                }
            }
        } else {
            const edan_shadow_split *rec = edan_shadow_split_get(sh, uF[0]);
            const uint32_t lo = unit_lo(off, u), hi = unit_hi(end, u);
            for (int k = 0; k < K; k++) {
                for (uint32_t b = lo; b < hi; b++) {
                    if (writers) {
                        Fin[k] = max_u64(Fin[k], rec[k].F[b]);
                        mdin[k] = max_u64(mdin[k], rec[k].md[b]);
                    }
                    if (readers) {
                        Fin[k] = max_u64(Fin[k], rec[k].rF[b]);
                        mdin[k] = max_u64(mdin[k], rec[k].rmd[b]);
                    }
                }
            }
        }
    }
}

/* Give unit u per-byte state in every lane; false when out of memory. */
static bool unit_split(edan_shadow *sh, edan_shadow_page *pg, int K, bool R, uint32_t u)
{
    char *unit = edan_shadow_unit(pg, K, R, u);
    uint64_t *uF = edan_shadow_unit_F(unit);
    uint32_t *umd = edan_shadow_unit_md(unit, K, R);
    if (umd[0] & EDAN_SHADOW_SPLIT)
        return true;
    uint64_t idx = edan_shadow_split_alloc(sh);
    if (idx == UINT64_MAX)
        return false;
    edan_shadow_split *rec = edan_shadow_split_get(sh, idx);
    for (int k = 0; k < K; k++) {
        for (uint32_t b = 0; b < EDAN_SHADOW_UNIT; b++) {
            rec[k].F[b] = uF[k];
            rec[k].md[b] = umd[k];
            rec[k].rF[b] = R ? edan_shadow_unit_rF(unit, K)[k] : 0;
            rec[k].rmd[b] = R ? edan_shadow_unit_rmd(unit, K)[k] : 0;
        }
    }
    uF[0] = idx;
    umd[0] = EDAN_SHADOW_SPLIT;
    return true;
}

/* The bytes were written: their last writer is now this vertex, with no readers since (R: the shadow keeps them). */
static ALWAYS_INLINE bool mem_store(edan_shadow *sh, edan_shadow_page *pg, const int K, const bool R, uint32_t off,
                                    uint32_t len, const uint64_t *F, const uint64_t *md, const bool simd)
{
    char *whole[2];
    if (!R && whole_units(pg, K, off, len, whole)) {
        uint64_t *F0 = edan_shadow_unit_F(whole[0]), *F1 = edan_shadow_unit_F(whole[1]);
        uint32_t *md0 = edan_shadow_unit_md(whole[0], K, false), *md1 = edan_shadow_unit_md(whole[1], K, false);
        if (!((md0[0] | md1[0]) & EDAN_SHADOW_SPLIT)) {
            for (int b = 0; simd && b < K; b += LANE_BLOCK) {
                const lane_vec f = VLOAD(F + b), m = VLOAD(md + b);
                VSTORE(F0 + b, f);
                VSTORE(F1 + b, f);
                VSTORE_DEPTHS(md0 + b, m);
                VSTORE_DEPTHS(md1 + b, m);
            }
            for (int k = 0; !simd && k < K; k++) {
                const uint64_t f = F[k];
                const uint32_t m = (uint32_t)md[k];
                F0[k] = F1[k] = f;
                md0[k] = md1[k] = m;
            }
            return true;
        }
    }
    const uint32_t end = off + len;
    for (uint32_t u = off >> EDAN_SHADOW_UNIT_BITS; u <= (end - 1) >> EDAN_SHADOW_UNIT_BITS; u++) {
        const uint32_t lo = unit_lo(off, u), hi = unit_hi(end, u);
        char *unit = edan_shadow_unit(pg, K, R, u);
        uint64_t *uF = edan_shadow_unit_F(unit);
        uint32_t *umd = edan_shadow_unit_md(unit, K, R);
        if (lo == 0 && hi == EDAN_SHADOW_UNIT) {
            if (umd[0] & EDAN_SHADOW_SPLIT)
                edan_shadow_split_release(sh, uF[0]);
            if (simd && !R) {
                for (int b = 0; b < K; b += LANE_BLOCK) {
                    VSTORE(uF + b, VLOAD(F + b));
                    VSTORE_DEPTHS(umd + b, VLOAD(md + b));
                }
                continue;
            }
            for (int k = 0; k < K; k++) {
                uF[k] = F[k];
                umd[k] = (uint32_t)md[k];
                if (R) {
                    edan_shadow_unit_rF(unit, K)[k] = 0;
                    edan_shadow_unit_rmd(unit, K)[k] = 0;
                }
            }
            continue;
        }
        if (!unit_split(sh, pg, K, R, u))
            return false;
        edan_shadow_split *rec = edan_shadow_split_get(sh, uF[0]);
        for (int k = 0; k < K; k++) {
            for (uint32_t b = lo; b < hi; b++) {
                rec[k].F[b] = F[k];
                rec[k].md[b] = (uint32_t)md[k];
                rec[k].rF[b] = 0;
                rec[k].rmd[b] = 0;
            }
        }
    }
    return true;
}

/* A read in false-dependency mode (the shadow keeps readers): later writers of these bytes must wait for it. */
static bool mem_note_read(edan_shadow *sh, edan_shadow_page *pg, int K, uint32_t off, uint32_t len, const uint64_t *F,
                          const uint64_t *md)
{
    const uint32_t end = off + len;
    for (uint32_t u = off >> EDAN_SHADOW_UNIT_BITS; u <= (end - 1) >> EDAN_SHADOW_UNIT_BITS; u++) {
        const uint32_t lo = unit_lo(off, u), hi = unit_hi(end, u);
        char *unit = edan_shadow_unit(pg, K, true, u);
        if (lo == 0 && hi == EDAN_SHADOW_UNIT && !(edan_shadow_unit_md(unit, K, true)[0] & EDAN_SHADOW_SPLIT)) {
            uint64_t *urF = edan_shadow_unit_rF(unit, K);
            uint32_t *urmd = edan_shadow_unit_rmd(unit, K);
            for (int k = 0; k < K; k++) {
                urF[k] = max_u64(urF[k], F[k]);
                if (md[k] > urmd[k])
                    urmd[k] = (uint32_t)md[k];
            }
            continue;
        }
        if (!unit_split(sh, pg, K, true, u))
            return false;
        edan_shadow_split *rec = edan_shadow_split_get(sh, edan_shadow_unit_F(unit)[0]);
        for (int k = 0; k < K; k++) {
            for (uint32_t b = lo; b < hi; b++) {
                rec[k].rF[b] = max_u64(rec[k].rF[b], F[k]);
                if (md[k] > rec[k].rmd[b])
                    rec[k].rmd[b] = (uint32_t)md[k];
            }
        }
    }
    return true;
}

/*
 * The pieces of an access within single shadow pages: at most two, since an
 * access is at most 8 bytes.
 */
typedef struct access_span {
    int n;
    edan_shadow_page *page[2];
    uint32_t off[2], len[2];
} access_span;

static inline bool span_of(edan_shadow *sh, uint64_t addr, uint32_t size, bool for_write, access_span *sp)
{
    uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1));
    sp->page[0] = edan_shadow_page_for(sh, addr, for_write);
    if (!sp->page[0])
        return false;
    sp->off[0] = off;
    if (off + size <= EDAN_SHADOW_PAGE) {
        sp->n = 1;
        sp->len[0] = size;
        return true;
    }
    sp->len[0] = EDAN_SHADOW_PAGE - off;
    sp->page[1] = edan_shadow_page_for(sh, addr + sp->len[0], for_write);
    if (!sp->page[1])
        return false;
    sp->n = 2;
    sp->off[1] = 0;
    sp->len[1] = size - sp->len[0];
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
 * One vertex, all lanes: the general path (sweeps, false dependencies,
 * page-crossing accesses). Lanes are processed phase by phase over
 * lane-major state, so each phase is a short loop over adjacent values.
 */
static bool step_lanes(edan_edag *e, const edan_exec *r)
{
    const int K = e->n_lanes;
    const bool fd = e->cfg.false_deps;
    const edan_insn *in = r->insn;
    uint32_t member = UINT32_MAX;
    if (e->scoped) {
        member = e->all_mask | (e->id_member[r->id] & e->exclusive_mask);
        for (int k = 0; k < K; k++)
            if ((e->inclusive_mask >> k & 1) &&
                edan_activity_step(&e->activity[k], e->id_entry[r->id] >> k & 1, in->flow))
                member |= 1u << k;
        for (int k = 0; k < K; k++)
            e->members[k] += member >> k & 1;
    }
    const bool accessed = in->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS);
    const bool rd = accessed && in->mem != EDAN_MEM_STORE;
    const bool wr = accessed && in->mem != EDAN_MEM_LOAD;
    const uint32_t size = in->mem_size;
    access_span sp;
    sp.n = 0;
    /* with false dependencies a read is written down too */
    if (accessed && !span_of(&e->shadow, r->addr, size, wr || fd, &sp)) {
        edan_error_set(&e->err, "out of memory for shadow state (%" PRIu64 " pages allocated)", e->shadow.pages);
        return false;
    }
    const size_t S = e->stride;
    const size_t dst = (size_t)(in->n_dst ? in->dst : REG_SINK) * S;
    const uint64_t *F0 = e->regF + in->src[0] * S, *F1 = e->regF + in->src[1] * S, *F2 = e->regF + in->src[2] * S;
    const uint64_t *M0 = e->regMd + in->src[0] * S, *M1 = e->regMd + in->src[1] * S, *M2 = e->regMd + in->src[2] * S;
    uint64_t Fin[EDAN_MAX_LANES], mdin[EDAN_MAX_LANES], F[EDAN_MAX_LANES], md[EDAN_MAX_LANES];
    /* the shadow functions also handle the padding lanes (edan_edag.stride) */
    for (size_t k = (size_t)K; k < S; k++)
        Fin[k] = mdin[k] = F[k] = md[k] = 0;
    for (int k = 0; k < K; k++) {
        Fin[k] = max_u64(max_u64(F0[k], F1[k]), F2[k]);
        mdin[k] = max_u64(max_u64(M0[k], M1[k]), M2[k]);
    }
    if (fd && in->n_dst) {
        for (int k = 0; k < K; k++) {
            Fin[k] = max_u64(Fin[k], max_u64(e->regF[dst + k], e->regRF[dst + k]));
            mdin[k] = max_u64(mdin[k], max_u64(e->regMd[dst + k], e->regRMd[dst + k]));
        }
    }
    for (int p = 0; p < sp.n; p++) {
        if (rd || (fd && wr))
            mem_deps(&e->shadow, sp.page[p], (int)S, fd, sp.off[p], sp.len[p], Fin, mdin, true, false, false);
        if (fd && wr)
            mem_deps(&e->shadow, sp.page[p], (int)S, fd, sp.off[p], sp.len[p], Fin, mdin, false, true, false);
    }
    edan_access_class ac_of[EDAN_MAX_LANES];
    for (int k = 0; k < K; k++) {
        lane_state *L = &e->lane[k];
        const bool is_member = member >> k & 1;
        edan_access_class ac = {false, false, 0};
        if (accessed) {
            const int o = L->cache_owner;
            ac = o == k ? edan_cache_classify(&L->cache, L->has_cache, r->addr, size, rd, wr) : ac_of[o];
            ac_of[k] = ac;
            if (is_member) {
                L->st.ram_loads += ac.rd_ram;
                L->st.ram_stores += ac.wr_ram;
            }
        }
        const bool to_ram = ac.rd_ram || ac.wr_ram;
        const uint64_t t = to_ram ? L->cost.alpha : L->cost.cls[in->cls];
        F[k] = Fin[k] + t;
        md[k] = mdin[k] + (to_ram && is_member);
        const uint64_t w = access_bytes(e, ac, size);
        if (!account(e, L, to_ram && is_member, t, Fin[k], F[k], md[k], w, is_member))
            return false;
    }
    if (fd) {
        for (int i = 0; i < in->n_src; i++) {
            size_t s = (size_t)in->src[i] * S;
            for (int k = 0; k < K; k++) {
                e->regRF[s + k] = max_u64(e->regRF[s + k], F[k]);
                e->regRMd[s + k] = max_u64(e->regRMd[s + k], md[k]);
            }
        }
        if (in->n_dst) {
            for (int k = 0; k < K; k++)
                e->regRF[dst + k] = e->regRMd[dst + k] = 0;
        }
    }
    for (int k = 0; k < K; k++) {
        e->regF[dst + k] = F[k];
        e->regMd[dst + k] = md[k];
    }
    for (int p = 0; p < sp.n; p++) {
        bool ok = true;
        if (fd && rd && !wr)
            ok = mem_note_read(&e->shadow, sp.page[p], (int)S, sp.off[p], sp.len[p], F, md);
        if (wr)
            ok = ok && mem_store(&e->shadow, sp.page[p], (int)S, fd, sp.off[p], sp.len[p], F, md, false);
        if (!ok) {
            edan_error_set(&e->err, "out of memory for shadow state");
            return false;
        }
    }
    return true;
}

/* Which scoped lanes a static instruction belongs to (exclusive) or starts (inclusive). */
static void scope_id(edan_edag *e, uint32_t id, uint64_t pc)
{
    uint32_t m = 0, entry = 0;
    for (int k = 0; k < e->n_lanes; k++) {
        const edan_lane_config *l = &e->cfg.lane[k];
        for (int j = 0; j < l->n_ranges; j++) {
            if (l->scope == EDAN_SCOPE_EXCLUSIVE && pc >= l->range_lo[j] && pc < l->range_hi[j])
                m |= 1u << k;
            if (l->scope == EDAN_SCOPE_INCLUSIVE && pc == l->range_lo[j])
                entry |= 1u << k;
        }
    }
    e->id_member[id] = m;
    e->id_entry[id] = entry;
}

static bool grow_ids(edan_edag *e, uint32_t id)
{
    size_t cap = e->id_cap ? e->id_cap : 1024;
    while (cap <= id)
        cap *= 2;
    hot_id *h = realloc(e->ids, cap * sizeof *h);
    if (h)
        e->ids = h;
    const edan_insn **p = realloc(e->id_insn, cap * sizeof *p);
    if (p)
        e->id_insn = p;
    if (!h || !p) {
        edan_error_set(&e->err, "out of memory for %zu static instructions", cap);
        return false;
    }
    if (e->scoped) {
        uint32_t *m = realloc(e->id_member, cap * sizeof *m);
        if (m)
            e->id_member = m;
        uint32_t *en = m ? realloc(e->id_entry, cap * sizeof *en) : NULL;
        if (!m || !en) {
            edan_error_set(&e->err, "out of memory for %zu static instructions", cap);
            return false;
        }
        e->id_entry = en;
        memset(e->id_member + e->id_cap, 0, (cap - e->id_cap) * sizeof *m);
        memset(e->id_entry + e->id_cap, 0, (cap - e->id_cap) * sizeof *en);
    }
    memset(e->ids + e->id_cap, 0, (cap - e->id_cap) * sizeof *h);
    memset(e->id_insn + e->id_cap, 0, (cap - e->id_cap) * sizeof *p);
    e->id_cap = cap;
    return true;
}

/* The first execution of static instruction id (with room for it): record what the hot loop needs. */
static void new_id(edan_edag *e, uint32_t id, const edan_insn *in)
{
    e->id_insn[id] = in;
    hot_op *o = &e->ids[id].op;
    memcpy(o->src, in->src, sizeof o->src);
    o->dst = in->n_dst ? in->dst : REG_SINK;
    o->kind = (uint8_t)(in->mem | HOT_SEEN);
    if ((in->mem == EDAN_MEM_LOAD && in->n_src <= 1) || (in->mem == EDAN_MEM_STORE && in->n_src <= 2))
        o->kind |= HOT_FEW_SRC;
    o->size = in->mem_size;
    o->cls = in->cls;
    if (e->scoped)
        scope_id(e, id, in->pc);
}

/*
 * Count one execution of r's static instruction and return its entry (NULL
 * when out of memory). The loops keep the table and its capacity in locals
 * (registers), which this refreshes when it grows. An id not seen before
 * has a zeroed entry (kind 0): the loops call new_id() for it once they
 * find its kind is not HOT_PLAIN.
 */
static ALWAYS_INLINE hot_id *count_execution(edan_edag *e, const edan_exec *r, hot_id **ids, size_t *cap)
{
    const uint32_t id = r->id;
    if (__builtin_expect(id >= *cap, 0)) {
        if (!grow_ids(e, id))
            return NULL;
        *ids = e->ids;
        *cap = e->id_cap;
    }
    hot_id *h = &(*ids)[id];
    h->count++;
    return h;
}

/* The hot_op of an entry count_execution() returned, recorded first if its id is new. */
static ALWAYS_INLINE hot_op seen_op(edan_edag *e, const edan_exec *r, hot_id *h)
{
    if (__builtin_expect(!h->op.kind, 0))
        new_id(e, r->id, r->insn);
    return h->op;
}

/*
 * Prefetching shadow state. The addresses of the records after the one the
 * analyzer works on are known, so where the shadow misses the caches (a
 * pointer chase over more pages than the recent-page table holds) their
 * state can be fetched ahead: PREFETCH_AHEAD records ahead, far enough for
 * a miss to memory to complete while the records before it are analyzed.
 * Where the shadow is cache-resident, the look-ahead only costs (about a
 * fifth of cg's rate, measured), so it runs only for a batch after one
 * whose page lookups missed the recent-page table often for pages written
 * before (PREFETCH_WHEN; shadow.h: recent_misses).
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
static ALWAYS_INLINE void prefetch_from(edan_edag *e, const edan_exec *r)
{
    if (!e->prefetch)
        return;
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

/*
 * One memory access of the one-lane analysis. Kept out of the loop of
 * consume_one_lane() so that loop, which mostly sees instructions without
 * memory, keeps its state in registers. T1, C and Tinf go straight to the
 * lane's totals (sums and maxima commute with the loop's local ones).
 */
static ALWAYS_INLINE bool one_lane_access(edan_edag *e, const edan_exec *r, const hot_op *opp, const bool has_cache)
{
    const hot_op op = *opp;
    lane_state *L = &e->lane[0];
    edan_lane_stats *st = &L->st;
    uint64_t *regF = e->regF, *regMd = regF + ONE_LANE_MD;
    prefetch_from(e, r);
    const uint32_t size = op.size;
    const uint64_t addr = r->addr;
    const uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1));
    const bool rd = op.kind & EDAN_MEM_LOAD, wr = op.kind & EDAN_MEM_STORE;
    edan_shadow_page *page;
    if (off + size > EDAN_SHADOW_PAGE || !(page = edan_shadow_page_for(&e->shadow, addr, wr)))
        return step_lanes(e, r); /* page-crossing access (or no memory): the general path handles and reports it */
    uint64_t Fin = max_u64(max_u64(regF[op.src[0]], regF[op.src[1]]), regF[op.src[2]]);
    uint64_t mdin = max_u64(max_u64(regMd[op.src[0]], regMd[op.src[1]]), regMd[op.src[2]]);
    if (rd)
        mem_deps(&e->shadow, page, 1, false, off, size, &Fin, &mdin, true, false, false);
    const edan_access_class ac = edan_cache_classify(&L->cache, has_cache, addr, size, rd, wr);
    /* without a cache every access reaches RAM, and w(v) is its bytes in either bytes mode */
    const bool to_ram = !has_cache || ac.rd_ram || ac.wr_ram;
    const uint64_t t = to_ram ? L->cost.alpha : L->cost.cls[op.cls];
    uint64_t F = Fin + t, md = mdin + to_ram;
    st->ram_loads += ac.rd_ram;
    st->ram_stores += ac.wr_ram;
    /* the state first, so the page and offset are dead while the totals are updated */
    regF[op.dst] = F;
    regMd[op.dst] = md;
    if (wr && !mem_store(&e->shadow, page, 1, false, off, size, &F, &md, false)) {
        edan_error_set(&e->err, "out of memory for shadow state");
        return false;
    }
    return account(e, L, to_ram, t, Fin, F, md, has_cache ? access_bytes(e, ac, size) : ac.line_bytes, true);
}

/* noipa: scalar replacement would pass the hot_op's fields on the stack */
static __attribute__((noipa)) bool one_lane_access_cached(edan_edag *e, const edan_exec *r, const hot_op *op)
{
    return one_lane_access(e, r, op, true);
}

static __attribute__((noipa)) bool one_lane_access_uncached(edan_edag *e, const edan_exec *r, const hot_op *op)
{
    return one_lane_access(e, r, op, false);
}

/* The general path, which the short ones below hand anything else to before changing any state. */
static ALWAYS_INLINE bool one_lane_general(edan_edag *e, const edan_exec *r, const hot_op *op, const bool has_cache)
{
    return has_cache ? one_lane_access_cached(e, r, op) : one_lane_access_uncached(e, r, op);
}

/*
 * The records of the commonest access's one or two shadow units: 4 or 8
 * bytes at a multiple of 4, in a page among the recently used (for_write:
 * one written before, not the zero page), and no unit split into bytes;
 * false for anything else. Finding the page makes it the last page, as
 * edan_shadow_page_for() would.
 */
static ALWAYS_INLINE bool recent_whole_units(edan_shadow *sh, uint64_t addr, uint32_t size, const bool for_write,
                                             char *unit[2])
{
    const uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1));
    const edan_shadow_page *page;
    if (off + size > EDAN_SHADOW_PAGE || !(page = edan_shadow_recent_page(sh, addr)) ||
        (for_write && page == sh->zero_page) || !whole_units(page, 1, off, size, unit))
        return false;
    return !((edan_shadow_unit_md(unit[0], 1, false)[0] | edan_shadow_unit_md(unit[1], 1, false)[0]) &
             EDAN_SHADOW_SPLIT);
}

/*
 * Short paths for the commonest accesses of the one-lane analysis, in
 * functions of their own with little of one_lane_access()'s generality (it
 * saves six registers and unpacks the hot op onto the stack), doing exactly
 * what it would. Not called while prefetching, which one_lane_access() does
 * for every access.
 *
 * A load of whole units (recent_whole_units()) whose units are unit[]: it
 * reads them and its address register, and the cache (or its absence)
 * classified it as ac. mru: it found the most recently used line of its set
 * in the first level, which moves no bytes (a hit elsewhere may write back
 * a dirty victim).
 */
static ALWAYS_INLINE bool one_lane_load_units(edan_edag *e, const hot_op op, char *const unit[2], const bool has_cache,
                                              const bool mru, const edan_access_class ac)
{
    lane_state *L = &e->lane[0];
    uint64_t *regF = e->regF, *regMd = regF + ONE_LANE_MD;
    const uint32_t *md0 = edan_shadow_unit_md(unit[0], 1, false), *md1 = edan_shadow_unit_md(unit[1], 1, false);
    const uint64_t Fin =
        max_u64(regF[op.src[0]], max_u64(edan_shadow_unit_F(unit[0])[0], edan_shadow_unit_F(unit[1])[0]));
    const uint64_t mdin = max_u64(regMd[op.src[0]], max_u64(md0[0], md1[0]));
    const bool to_ram = ac.rd_ram;
    const uint64_t t = to_ram ? L->cost.alpha : L->cost.cls[op.cls], F = Fin + t, md = mdin + to_ram;
    regF[op.dst] = F;
    regMd[op.dst] = md;
    if (mru) {
        /* no RAM, no bytes moved: only T1, C and Tinf */
        L->st.Tinf = max_u64(L->st.Tinf, F);
        L->st.T1 += t;
        L->st.C += t;
        return true;
    }
    L->st.ram_loads += ac.rd_ram;
    return account(e, L, to_ram, t, Fin, F, md, has_cache ? access_bytes(e, ac, op.size) : ac.line_bytes, true);
}

/*
 * A load of whole units that missed the most recently used line of its set
 * in the first level of the cache (a gather, a pointer chase: every load of
 * the chase misses): classified here rather than by the general path, apart
 * from the hits so that their path keeps its registers.
 */
static __attribute__((noipa)) bool one_lane_load_missed(edan_edag *e, const edan_exec *r, const hot_op *opp,
                                                        char *unit0, char *unit1)
{
    const hot_op op = *opp;
    char *const unit[2] = {unit0, unit1};
    const edan_access_class ac = edan_cache_classify(&e->lane[0].cache, true, r->addr, op.size, true, false);
    return one_lane_load_units(e, op, unit, true, false, ac);
}

/*
 * A load of whole units: under a cache, to the most recently used line of
 * its set in the first level, it ends there, reaching no RAM, moving no
 * bytes and leaving only T1, C and Tinf to update (a miss goes to
 * one_lane_load_missed()); without a cache it reaches RAM.
 */
static ALWAYS_INLINE bool one_lane_load(edan_edag *e, const edan_exec *r, const hot_op *opp, const bool has_cache)
{
    const hot_op op = *opp;
    const uint64_t addr = r->addr;
    lane_state *L = &e->lane[0];
    char *unit[2];
    if (op.kind != (HOT_SEEN | HOT_FEW_SRC | EDAN_MEM_LOAD) ||
        !recent_whole_units(&e->shadow, addr, op.size, false, unit))
        return one_lane_general(e, r, opp, has_cache);
    if (has_cache && !edan_cache_try_mru(&L->cache, addr, op.size, false))
        return one_lane_load_missed(e, r, opp, unit[0], unit[1]);
    const edan_access_class mru_hit = {false, false, 0};
    return one_lane_load_units(e, op, unit, has_cache, has_cache,
                               has_cache ? mru_hit : edan_cache_classify(&L->cache, false, addr, op.size, true, false));
}

/*
 * A store of whole units (recent_whole_units()): it reads no memory, so
 * only the cache's classification and the units' new writer remain.
 * (Stores in one_lane_load() cost more instructions than they saved.)
 */
static ALWAYS_INLINE bool one_lane_store(edan_edag *e, const edan_exec *r, const hot_op *opp, const bool has_cache)
{
    const hot_op op = *opp;
    const uint64_t addr = r->addr;
    lane_state *L = &e->lane[0];
    char *unit[2];
    if (!recent_whole_units(&e->shadow, addr, op.size, true, unit))
        return one_lane_general(e, r, opp, has_cache);
    const edan_access_class ac = edan_cache_classify(&L->cache, has_cache, addr, op.size, false, true);
    const bool to_ram = !has_cache || ac.wr_ram;
    uint64_t *regF = e->regF, *regMd = regF + ONE_LANE_MD;
    const uint64_t Fin = max_u64(regF[op.src[0]], regF[op.src[1]]);
    const uint64_t t = to_ram ? L->cost.alpha : L->cost.cls[op.cls], F = Fin + t,
                   md = max_u64(regMd[op.src[0]], regMd[op.src[1]]) + to_ram;
    regF[op.dst] = F;
    regMd[op.dst] = md;
    edan_shadow_unit_F(unit[0])[0] = edan_shadow_unit_F(unit[1])[0] = F;
    edan_shadow_unit_md(unit[0], 1, false)[0] = edan_shadow_unit_md(unit[1], 1, false)[0] = (uint32_t)md;
    L->st.ram_stores += ac.wr_ram;
    return account(e, L, to_ram, t, Fin, F, md, has_cache ? access_bytes(e, ac, op.size) : ac.line_bytes, true);
}

static __attribute__((noipa)) bool one_lane_load_cached(edan_edag *e, const edan_exec *r, const hot_op *op)
{
    return one_lane_load(e, r, op, true);
}

static __attribute__((noipa)) bool one_lane_load_uncached(edan_edag *e, const edan_exec *r, const hot_op *op)
{
    return one_lane_load(e, r, op, false);
}

static __attribute__((noipa)) bool one_lane_store_cached(edan_edag *e, const edan_exec *r, const hot_op *op)
{
    return one_lane_store(e, r, op, true);
}

static __attribute__((noipa)) bool one_lane_store_uncached(edan_edag *e, const edan_exec *r, const hot_op *op)
{
    return one_lane_store(e, r, op, false);
}

/*
 * One lane, true dependencies only: the default analysis. Instructions that
 * touch no memory (about two thirds of a typical trace) take a short path
 * with the accumulators in registers; memory accesses go to
 * one_lane_access(). Executions are counted per id in the same loop.
 */
static ALWAYS_INLINE void consume_one_lane(edan_edag *e, const edan_exec *recs, size_t n, const bool has_cache)
{
    edan_lane_stats *st = &e->lane[0].st;
    uint64_t *regF = e->regF, *regMd = regF + ONE_LANE_MD;
    uint64_t cost[EDAN_CLASS_COUNT]; /* a copy on the stack, addressed without a register of its own */
    memcpy(cost, e->lane[0].cost.cls, sizeof cost);
    hot_id *ids = e->ids;
    size_t cap = e->id_cap;
    uint64_t C = 0, Tinf = 0;          /* of the instructions without memory access, whose T1 and C shares are equal */
    const bool prefetch = e->prefetch; /* for the whole batch */
    for (const edan_exec *r = recs, *end = recs + n; r < end; r++) {
        hot_id *h = count_execution(e, r, &ids, &cap);
        if (!h)
            break;
        hot_op op = h->op;
        if (op.kind != HOT_PLAIN) {
            op = seen_op(e, r, h);
            if (op.kind != HOT_PLAIN) {
                if (__builtin_expect(!(r->flags & EDAN_EXEC_NO_ACCESS), 1)) {
                    bool (*access)(edan_edag *, const edan_exec *, const hot_op *) =
                        prefetch ? (has_cache ? one_lane_access_cached : one_lane_access_uncached)
                        : op.kind == (HOT_SEEN | HOT_FEW_SRC | EDAN_MEM_STORE)
                            ? (has_cache ? one_lane_store_cached : one_lane_store_uncached)
                            : (has_cache ? one_lane_load_cached : one_lane_load_uncached);
                    if (!access(e, r, &h->op))
                        break;
                    continue;
                }
                e->no_access[op.kind & 3]++;
            }
        }
        const uint64_t Fin = max_u64(max_u64(regF[op.src[0]], regF[op.src[1]]), regF[op.src[2]]);
        const uint64_t md = max_u64(max_u64(regMd[op.src[0]], regMd[op.src[1]]), regMd[op.src[2]]);
        const uint64_t t = cost[op.cls];
        const uint64_t F = Fin + t;
        C += t;
        Tinf = max_u64(Tinf, F);
        regF[op.dst] = F;
        regMd[op.dst] = md;
    }
    st->T1 += C;
    st->C += C;
    st->Tinf = max_u64(st->Tinf, Tinf);
}

/* The tags at level 0 of lane k's cache that hold addr's line if it is the most recently used of its set. */
static ALWAYS_INLINE uint64_t *look_slot(const mru_look *lk, size_t k, uint64_t addr)
{
    const uint64_t line = addr >> lk->line_shift[k];
    return lk->tags[k] + (line & lk->set_mask[k]) * lk->ways[k];
}

/* 1 when they do */
static ALWAYS_INLINE uint32_t look_lane(const mru_look *lk, size_t k, uint64_t addr)
{
    return edan_cache_tag_holds(*look_slot(lk, k, addr), addr >> lk->line_shift[k]);
}

/*
 * Several lanes, true dependencies only, every vertex counted: a sweep over
 * cache and cost configurations. The same paths as consume_one_lane(), each
 * step over all lanes at once: with simd in vectors of LANE_BLOCK lanes (the
 * register state, the per-lane sums of the batch and the shadow of whole
 * units, padded to whole blocks), else in plain loops. What is lane by lane:
 * the cache simulations (one per distinct cache) and the rare vertices that
 * reach RAM or move bytes.
 */
static ALWAYS_INLINE void consume_lanes_body(edan_edag *e, const edan_exec *recs, size_t n, const bool simd,
                                             const size_t fixed_stride)
{
    const int K = e->n_lanes;
    const size_t S = fixed_stride ? fixed_stride : e->stride;
    uint64_t *regF = e->regF, *regMd = e->regMd;
    const uint64_t *cost = e->cost_by_class;
    hot_id *ids = e->ids;
    size_t cap = e->id_cap;
    /*
     * Per lane, for this batch: the cost of vertices that stayed in the
     * cache or touched no memory (T1 and C), of those that reached RAM (T1
     * only), and T∞. Then a memory access's per-lane values; entries from K
     * to S are padding and stay 0 where nothing else sets them.
     */
    uint64_t C[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t R[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t Tinf[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t Fin[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t mdin[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t t_of[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0}; /* the access's cost */
    uint64_t ram[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};  /* 1: the access reached RAM */
    uint64_t F[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t md[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t w[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    /* an access's bytes of lines moved, per lane (line mode) */
    uint64_t line_bytes[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    /* the batch's sums and maxima of the lane statistics, added to them at its end */
    uint64_t W[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t D[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t bytes[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t ram_loads[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t ram_stores[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    /* level 0's hits that the look found, and the bytes of the stores it sent through to RAM */
    uint64_t look_hits[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t through_bytes[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    const uint64_t *alpha = cost + (size_t)EDAN_CLASS_COUNT * S;
    const bool line_mode = e->cfg.bytes_mode == EDAN_BYTES_LINE;
    static const uint64_t no_lane[EDAN_MAX_LANES] __attribute__((aligned(32)));
    const bool look = e->simulating && (e->look_on || e->batches % LOOK_PROBE == 0);
    uint64_t looks = 0, settled = 0; /* accesses looked at, lanes they settled */
    e->batches++;
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        hot_id *h = count_execution(e, r, &ids, &cap);
        if (!h)
            break;
        const hot_op op = seen_op(e, r, h);
        const uint64_t *F0 = regF + op.src[0] * S, *F1 = regF + op.src[1] * S, *F2 = regF + op.src[2] * S;
        const uint64_t *M0 = regMd + op.src[0] * S, *M1 = regMd + op.src[1] * S, *M2 = regMd + op.src[2] * S;
        uint64_t *Fd = regF + op.dst * S, *Md = regMd + op.dst * S;
        const uint64_t *cls_cost = cost + op.cls * S;
        if (op.kind != HOT_PLAIN) {
            if (__builtin_expect(!(r->flags & EDAN_EXEC_NO_ACCESS), 1))
                goto memory_access;
            e->no_access[op.kind & 3]++;
        }
        for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
            const lane_vec f0 = VLOAD(F0 + b), f1 = VLOAD(F1 + b), f2 = VLOAD(F2 + b);
            const lane_vec m0 = VLOAD(M0 + b), m1 = VLOAD(M1 + b), m2 = VLOAD(M2 + b);
            const lane_vec t = VLOAD(cls_cost + b), tinf = VLOAD(Tinf + b);
            const lane_vec f01 = VMAX(f0, f1), m01 = VMAX(m0, m1);
            const lane_vec f = VMAX(f01, f2) + t;
            VSTORE(Fd + b, f);
            VSTORE(Md + b, VMAX(m01, m2));
            VSTORE(C + b, VLOAD(C + b) + t);
            VSTORE(Tinf + b, VMAX(tinf, f));
        }
        for (int k = 0; !simd && k < K; k++) {
            const uint64_t t = cls_cost[k];
            const uint64_t f = max_u64(max_u64(F0[k], F1[k]), F2[k]) + t;
            Md[k] = max_u64(max_u64(M0[k], M1[k]), M2[k]);
            Fd[k] = f;
            C[k] += t;
            Tinf[k] = max_u64(Tinf[k], f);
        }
        continue;
    memory_access:;
        prefetch_from(e, r);
        const uint32_t size = op.size;
        const uint64_t addr = r->addr;
        const uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1));
        const bool rd = op.kind & EDAN_MEM_LOAD, wr = op.kind & EDAN_MEM_STORE;
        edan_shadow_page *page;
        if (off + size > EDAN_SHADOW_PAGE || !(page = edan_shadow_page_for(&e->shadow, addr, wr))) {
            /*
             * page-crossing access (or no memory): the general path handles and reports it, adding to the
             * lanes' totals directly (sums and maxima, which commute with the batch's, added at its end)
             */
            if (!step_lanes(e, r))
                return;
            continue;
        }
        for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
            const lane_vec f0 = VLOAD(F0 + b), f1 = VLOAD(F1 + b), f2 = VLOAD(F2 + b);
            const lane_vec m0 = VLOAD(M0 + b), m1 = VLOAD(M1 + b), m2 = VLOAD(M2 + b);
            const lane_vec f01 = VMAX(f0, f1), m01 = VMAX(m0, m1);
            VSTORE(Fin + b, VMAX(f01, f2));
            VSTORE(mdin + b, VMAX(m01, m2));
        }
        for (int k = 0; !simd && k < K; k++) {
            Fin[k] = max_u64(max_u64(F0[k], F1[k]), F2[k]);
            mdin[k] = max_u64(max_u64(M0[k], M1[k]), M2[k]);
        }
        if (rd)
            mem_deps(&e->shadow, page, (int)S, false, off, size, Fin, mdin, true, false, simd);
        /*
         * Most accesses of most programs hit the most recently used line of
         * their set at level 0, in most caches: the look below settles those
         * lanes (the class's cost, no RAM; a store through one write-through
         * level reaches RAM and does nothing else). The other lanes, AMOs and
         * lanes without a cache are classified one by one.
         */
        uint32_t missed = e->uncached | e->simulating, through = 0;
        if (look && rd != wr && !((addr ^ (addr + size - 1)) >> e->look_shift)) {
            uint32_t hit = 0;
#pragma GCC unroll 8
            for (size_t k = 0; k < S; k++)
                hit |= look_lane(&e->look, k, addr) << k;
            if (wr) {
                hit &= e->look_write_back | e->look_through;
                for (uint32_t m = hit & e->look_write_back; m; m &= m - 1)
                    *look_slot(&e->look, (size_t)__builtin_ctz(m), addr) |= EDAN_TAG_DIRTY;
            }
            /*
             * The lanes that missed their MRU way but hold the line in the
             * next one (two streams alternating in a set): the probe's move
             * of way 1 to the front, as edan_cache_level_probe() does it.
             */
            for (uint32_t m = (wr ? e->look_second_store : e->look_second_load) & ~hit; m; m &= m - 1) {
                const size_t k = (size_t)__builtin_ctz(m);
                uint64_t *slot = look_slot(&e->look, k, addr);
                if (edan_cache_tag_holds(slot[1], addr >> e->look.line_shift[k])) {
                    const uint64_t t = slot[1] | (wr && (e->look_write_back >> k & 1) ? EDAN_TAG_DIRTY : 0);
                    slot[1] = slot[0];
                    slot[0] = t;
                    hit |= 1u << k;
                }
            }
            /*
             * A store that misses level 0's MRU way at a write-through level
             * without write-allocate also only goes on to RAM: its probe
             * moves a line it finds to the front, and fills nothing.
             */
            uint32_t probed = 0;
            if (wr) {
                probed = e->look_through_noalloc & ~hit;
                for (uint32_t m = probed; m; m &= m - 1) {
                    edan_cache_level *l0 = &e->lane[__builtin_ctz(m)].cache.level[0];
                    edan_cache_level_probe(l0, addr >> l0->line_shift, false);
                }
                through = (hit & e->look_through) | probed;
            }
            missed &= ~(hit | probed);
            looks++;
            settled += (uint32_t)__builtin_popcount(hit | probed);
            for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
                const lane_vec bit = {1, 2, 4, 8};
                const lane_vec h = (((lane_vec){0} + (int64_t)(hit >> b)) & bit) != 0; /* 0 or -1 */
                const lane_vec t = (((lane_vec){0} + (int64_t)(through >> b)) & bit) != 0;
                VSTORE(look_hits + b, VLOAD(look_hits + b) - h);
                VSTORE(through_bytes + b, VLOAD(through_bytes + b) + (t & (int64_t)size));
            }
            for (int k = 0; !simd && k < K; k++) {
                look_hits[k] += hit >> k & 1;
                through_bytes[k] += (through >> k & 1) * size;
            }
        }
        /* every lane's cost, and whether it reached RAM (0 or 1): when all hit, the class's and none */
        const uint64_t *access_cost = missed | through ? t_of : cls_cost, *reached = missed | through ? ram : no_lane;
        uint32_t rare = 0; /* lanes where the access reached RAM or moved bytes */
        if (missed | through) {
            /*
             * Lane by lane only the cache simulations, whose outcomes go to
             * bit masks (kept in registers: vector loads of values just
             * stored one lane at a time would wait for the stores); then
             * every lane's cost, bytes and counts at once.
             */
            uint32_t rd_mask = 0, wr_mask = through;
            if (line_mode) {
                memset(line_bytes, 0, S * sizeof *line_bytes); /* lanes that hit their MRU line moved nothing */
                for (uint32_t m = through; m; m &= m - 1)
                    line_bytes[__builtin_ctz(m)] = size;
                rare |= through;
            }
            for (uint32_t m = missed; m; m &= m - 1) {
                const int k = __builtin_ctz(m);
                lane_state *L = &e->lane[k];
                const edan_access_class ac = edan_cache_classify(&L->cache, L->has_cache, addr, size, rd, wr);
                rd_mask |= (uint32_t)ac.rd_ram << k;
                wr_mask |= (uint32_t)ac.wr_ram << k;
                if (line_mode) {
                    line_bytes[k] = ac.line_bytes;
                    rare |= (uint32_t)(ac.line_bytes != 0) << k;
                }
            }
            /* lanes with another lane's cache take its outcome (it comes first: cache_owner()) */
            for (uint32_t m = e->shared; m; m &= m - 1) {
                const int k = __builtin_ctz(m), o = e->lane[k].cache_owner;
                rd_mask |= (rd_mask >> o & 1) << k;
                wr_mask |= (wr_mask >> o & 1) << k;
                if (line_mode) {
                    line_bytes[k] = line_bytes[o];
                    rare |= (rare >> o & 1) << k;
                }
            }
            rare |= rd_mask | wr_mask;
            for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
                _Static_assert(LANE_BLOCK == 4, "a block's lane bits");
                const lane_vec bit = {1, 2, 4, 8};
                const lane_vec r_ram = (((lane_vec){0} + (int64_t)(rd_mask >> b)) & bit) != 0; /* 0 or -1 */
                const lane_vec w_ram = (((lane_vec){0} + (int64_t)(wr_mask >> b)) & bit) != 0;
                const lane_vec to_ram = r_ram | w_ram;
                const lane_vec sz = (lane_vec){0} + (int64_t)size;
                VSTORE(ram + b, -to_ram);
                VSTORE(t_of + b, (VLOAD(alpha + b) & to_ram) | (VLOAD(cls_cost + b) & ~to_ram));
                VSTORE(w + b, line_mode ? VLOAD(line_bytes + b) : (sz & r_ram) + (sz & w_ram));
                VSTORE(ram_loads + b, VLOAD(ram_loads + b) - r_ram);
                VSTORE(ram_stores + b, VLOAD(ram_stores + b) - w_ram);
            }
            for (int k = 0; !simd && k < K; k++) {
                const uint64_t r_ram = rd_mask >> k & 1, w_ram = wr_mask >> k & 1, to_ram = r_ram | w_ram;
                ram[k] = to_ram;
                t_of[k] = to_ram ? alpha[k] : cls_cost[k];
                w[k] = access_bytes(e, (edan_access_class){r_ram, w_ram, (uint32_t)line_bytes[k]}, size);
                ram_loads[k] += r_ram;
                ram_stores[k] += w_ram;
            }
        }
        for (int k = 0; !simd && k < K; k++) {
            const uint64_t t = access_cost[k];
            Fd[k] = F[k] = Fin[k] + t;
            Md[k] = md[k] = mdin[k] + reached[k];
            *(reached[k] ? &R[k] : &C[k]) += t;
            Tinf[k] = max_u64(Tinf[k], F[k]);
        }
        for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
            const lane_vec t = VLOAD(access_cost + b), to_ram = VLOAD(reached + b), tinf = VLOAD(Tinf + b);
            const lane_vec f = VLOAD(Fin + b) + t, m = VLOAD(mdin + b) + to_ram;
            VSTORE(F + b, f);
            VSTORE(md + b, m);
            VSTORE(Fd + b, f);
            VSTORE(Md + b, m);
            VSTORE(C + b, VLOAD(C + b) + (t & (to_ram - 1)));
            VSTORE(R + b, VLOAD(R + b) + (t & -to_ram));
            VSTORE(Tinf + b, VMAX(tinf, f));
        }
        if (rare) {
            for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
                const lane_vec to_ram = VLOAD(ram + b);
                VSTORE(W + b, VLOAD(W + b) + to_ram);
                VSTORE(D + b, VMAX(VLOAD(D + b), VLOAD(md + b) & -to_ram));
                VSTORE(bytes + b, VLOAD(bytes + b) + VLOAD(w + b));
            }
            for (int k = 0; !simd && k < K; k++) {
                W[k] += ram[k];
                D[k] = max_u64(D[k], ram[k] ? md[k] : 0);
                bytes[k] += w[k];
            }
        }
        /* lane by lane only what is scattered: the memory layers and the series */
        for (; rare; rare &= rare - 1) {
            const int k = __builtin_ctz(rare);
            edan_lane_stats *st = &e->lane[k].st;
            if ((ram[k] && !count_layer(e, st, md[k])) || (w[k] && !add_to_series(e, st, Fin[k], F[k], w[k])))
                return;
        }
        if (wr && !mem_store(&e->shadow, page, (int)S, false, off, size, F, md, simd)) {
            edan_error_set(&e->err, "out of memory for shadow state");
            return;
        }
    }
    for (int k = 0; k < K; k++) {
        edan_lane_stats *st = &e->lane[k].st;
        st->T1 += C[k] + R[k];
        st->C += C[k];
        st->Tinf = max_u64(st->Tinf, Tinf[k]);
        st->W += W[k];
        st->D = max_u64(st->D, D[k]);
        st->bytes += bytes[k];
        st->ram_loads += ram_loads[k];
        st->ram_stores += ram_stores[k];
    }
    if (look)
        e->look_on = settled * 3 >= looks * 2 * (uint32_t)__builtin_popcount(e->simulating);
    for (uint32_t m = e->simulating; m; m &= m - 1) {
        const int k = __builtin_ctz(m);
        e->lane[k].cache.level[0].hits += look_hits[k];
        e->lane[k].cache.ram_write_bytes += through_bytes[k];
    }
}

/*
 * Built twice: with vectors for x86-64 CPUs that have AVX2, with plain loops
 * for any other. Without AVX2, GCC turns the comparisons of 256-bit vectors
 * into element-by-element code that ran a sweep at half the plain loops'
 * speed (SSE4.2's 64-bit compare did not help: it was not used).
 */
static void consume_lanes_portable(edan_edag *e, const edan_exec *recs, size_t n)
{
    consume_lanes_body(e, recs, n, false, 0);
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * The AVX2 build, also for the strides of up to four and of five to eight
 * lanes as constants (a sweep of eight split between two threads, or on
 * one): register addresses are then shifts, and the loops over a
 * register's blocks unroll.
 */
__attribute__((target("avx2"))) static void consume_lanes_avx2(edan_edag *e, const edan_exec *recs, size_t n)
{
    if (e->stride == LANE_BLOCK)
        consume_lanes_body(e, recs, n, true, LANE_BLOCK);
    else if (e->stride == 2 * LANE_BLOCK)
        consume_lanes_body(e, recs, n, true, 2 * LANE_BLOCK);
    else
        consume_lanes_body(e, recs, n, true, 0);
}
#endif

static void consume_lanes(edan_edag *e, const edan_exec *recs, size_t n)
{
#if defined(__x86_64__) || defined(__i386__)
    if (e->lanes_avx2) {
        consume_lanes_avx2(e, recs, n);
        return;
    }
#endif
    consume_lanes_portable(e, recs, n);
}

static void consume_grouped(edan_edag *e, const edan_exec *recs, size_t n);

void edan_edag_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_edag *e = ctx;
    if (e->n_groups) {
        consume_grouped(e, recs, n);
        return;
    }
    if (e->err.set)
        return;
    if (!e->cfg.false_deps && !e->scoped) {
        /* the fast paths, which prefetch when the previous batch's page lookups missed often */
        e->pf_next = recs;
        e->pf_end = recs + n;
        const uint64_t misses = e->shadow.recent_misses;
        if (e->n_lanes > 1)
            consume_lanes(e, recs, n);
        else if (e->lane[0].has_cache)
            consume_one_lane(e, recs, n, true);
        else
            consume_one_lane(e, recs, n, false);
        e->prefetch = (e->shadow.recent_misses - misses) * PREFETCH_WHEN > n;
        return;
    }
    hot_id *ids = e->ids;
    size_t cap = e->id_cap;
    for (size_t i = 0; i < n; i++) {
        hot_id *h = count_execution(e, &recs[i], &ids, &cap);
        if (!h)
            return;
        seen_op(e, &recs[i], h);
        if (recs[i].flags & EDAN_EXEC_NO_ACCESS)
            e->no_access[recs[i].insn->mem & 3]++;
    }
    for (size_t i = 0; i < n && step_lanes(e, &recs[i]); i++)
        ;
}

static int finish_grouped(edan_edag *e);

int edan_edag_finish(void *ctx)
{
    edan_edag *e = ctx;
    if (e->n_groups)
        return finish_grouped(e);
    if (e->err.set)
        return -1;
    if (e->finished)
        return 0;
    e->finished = true;
    uint64_t vertices = 0, by_class[EDAN_CLASS_COUNT] = {0}, by_mem[4] = {0};
    for (size_t id = 0; id < e->id_cap; id++) {
        const uint64_t count = e->ids[id].count;
        if (!count)
            continue;
        vertices += count;
        by_class[e->id_insn[id]->cls] += count;
        by_mem[e->id_insn[id]->mem & 3] += count;
    }
    for (int k = 0; k < e->n_lanes; k++) {
        lane_state *L = &e->lane[k];
        L->st.vertices = e->cfg.lane[k].scope == EDAN_SCOPE_ALL ? vertices : e->members[k];
        memcpy(L->st.class_count, by_class, sizeof by_class);
        L->st.loads = by_mem[EDAN_MEM_LOAD] - e->no_access[EDAN_MEM_LOAD];
        L->st.stores = by_mem[EDAN_MEM_STORE] - e->no_access[EDAN_MEM_STORE];
        L->st.amos = by_mem[EDAN_MEM_AMO] - e->no_access[EDAN_MEM_AMO];
        const edan_cache *sim = &e->lane[L->cache_owner].cache; /* lanes with the same cache share one */
        for (int c = 0; c < sim->n_levels; c++) {
            L->st.cache_hits[c] = sim->level[c].hits;
            L->st.cache_misses[c] = sim->level[c].misses;
        }
        L->st.ram_read_bytes = sim->ram_read_bytes;
        L->st.ram_write_bytes = sim->ram_write_bytes;
        for (int j = 0; j < L->st.n_series; j++) {
            if (!series_finish(&L->st.series[j], L->st.Tinf)) {
                edan_error_set(&e->err, "out of memory for the data-movement series");
                return -1;
            }
        }
    }
    return 0;
}

/* edan_consumer.buffer: with lane groups on threads, the producer writes into group 1's feed, and consume_grouped()
 * need not copy the batch there. */
static edan_exec *edag_buffer(void *ctx, size_t *cap)
{
    edan_edag *e = ctx;
    if (e->n_groups < 2 || e->finished)
        return NULL;
    *cap = FEED_BATCH - e->fed[1];
    return edan_async_buffer(e->feed[1]) + e->fed[1];
}

edan_consumer edan_edag_consumer(edan_edag *e)
{
    edan_consumer c = {e, edan_edag_consume, edan_edag_finish, edag_buffer};
    return c;
}

const edan_error *edan_edag_error(const edan_edag *e)
{
    for (int g = 0; g < e->n_groups; g++) {
        const edan_edag *sub = e->group[g];
        /*
         * While a group's thread runs it publishes an error through failed
         * (release, then acquire here); once finished the threads are joined.
         */
        if (g == 0 || e->finished ? sub->err.set : atomic_load_explicit(&sub->failed, memory_order_acquire))
            return &sub->err;
    }
    return &e->err;
}
int edan_edag_n_lanes(const edan_edag *e)
{
    return e->n_lanes;
}
const edan_lane_stats *edan_edag_lane(const edan_edag *e, int k)
{
    if (e->n_groups)
        return edan_edag_lane(e->group[e->lane_group[k]], e->lane_slot[k]);
    return &e->lane[k].st;
}
const edan_edag_config *edan_edag_get_config(const edan_edag *e)
{
    return &e->cfg;
}
/* Every group sees the whole stream: group 0's shadow pages and execution counts are everyone's. */
uint64_t edan_edag_footprint(const edan_edag *e)
{
    if (e->n_groups)
        return edan_edag_footprint(e->group[0]);
    return e->shadow.pages * EDAN_SHADOW_PAGE;
}

size_t edan_edag_static_ids(const edan_edag *e)
{
    return e->n_groups ? edan_edag_static_ids(e->group[0]) : e->id_cap;
}

uint64_t edan_edag_static_count(const edan_edag *e, size_t id, const edan_insn **insn)
{
    if (e->n_groups)
        return edan_edag_static_count(e->group[0], id, insn);
    *insn = e->id_insn[id];
    return e->ids[id].count;
}

/*
 * Lane groups on threads. Lanes share nothing but the stream (and a cache
 * simulation when their caches are the same), so a sweep splits into groups
 * that run in parallel, each an edan_edag of its own fed the same records.
 */

/* The consumer a group thread runs: its group's, publishing an error once it is set. */
static void group_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_edag *sub = ctx;
    edan_edag_consume(sub, recs, n);
    if (sub->err.set)
        atomic_store_explicit(&sub->failed, true, memory_order_release);
}

static edan_edag *new_grouped(const edan_edag_config *cfg, int n_groups, edan_error *err)
{
    edan_edag *e = calloc(1, sizeof *e);
    edan_edag_config *sub = malloc(sizeof *sub);
    if (!e || !sub) {
        free(e);
        free(sub);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    e->cfg = *cfg;
    e->n_lanes = cfg->n_lanes;
    /*
     * Each cache (with all its lanes), in lane order, goes to the group with
     * the fewest lanes so far. Group 0's thread also produces the stream (it
     * reads and decodes the trace, or copies it for the others), which
     * counts as half a lane: loads are in half lanes.
     */
    int load[EDAN_MAX_GROUPS] = {1};
    for (int k = 0; k < cfg->n_lanes; k++) {
        const int owner = cache_owner(cfg, k);
        if (owner != k) {
            e->lane_group[k] = e->lane_group[owner];
            load[e->lane_group[k]] += 2;
            continue;
        }
        int best = 0;
        for (int g = 1; g < n_groups; g++)
            if (load[g] < load[best])
                best = g;
        e->lane_group[k] = (int8_t)best;
        load[best] += 2;
    }
    bool ok = true;
    for (int g = 0; g < n_groups && ok; g++) {
        *sub = *cfg;
        sub->threads = 1;
        sub->n_lanes = 0;
        for (int k = 0; k < cfg->n_lanes; k++) {
            if (e->lane_group[k] != g)
                continue;
            e->lane_slot[k] = (int8_t)sub->n_lanes;
            sub->lane[sub->n_lanes++] = cfg->lane[k];
        }
        ok = (e->group[g] = edan_edag_new(sub, err)) != NULL;
        e->n_groups = g + 1;
        if (ok && g > 0) {
            edan_consumer c = {e->group[g], group_consume, edan_edag_finish, NULL};
            if (!(e->feed[g] = edan_async_new(c, FEED_BATCH, FEED_BUFFERS))) {
                edan_error_set(err, "cannot start an analysis thread (out of memory or threads)");
                ok = false;
            }
        }
    }
    free(sub);
    if (!ok) {
        edan_edag_free(e);
        return NULL;
    }
    return e;
}

static void consume_grouped(edan_edag *e, const edan_exec *recs, size_t n)
{
    if (e->finished)
        return;
    for (int g = 1; g < e->n_groups; g++) {
        edan_async *a = e->feed[g];
        for (size_t i = 0; i < n;) {
            size_t take = FEED_BATCH - e->fed[g];
            if (take > n - i)
                take = n - i;
            edan_exec *to = edan_async_buffer(a) + e->fed[g];
            if (to != recs + i) /* else the producer wrote it there (edag_buffer()) */
                memcpy(to, recs + i, take * sizeof *recs);
            e->fed[g] += take;
            i += take;
            if (e->fed[g] == FEED_BATCH) {
                edan_async_submit(a, FEED_BATCH);
                e->fed[g] = 0;
            }
        }
    }
    edan_edag_consume(e->group[0], recs, n);
}

/* Hand over what is left, wait for every thread to finish its group, and stop the threads. */
static int stop_groups(edan_edag *e)
{
    int rc = 0;
    for (int g = 1; g < e->n_groups; g++) {
        if (!e->feed[g])
            continue;
        if (e->fed[g])
            edan_async_submit(e->feed[g], e->fed[g]);
        e->fed[g] = 0;
        if (edan_async_finish(e->feed[g]))
            rc = -1;
        edan_async_free(e->feed[g]);
        e->feed[g] = NULL;
    }
    return rc;
}

static int finish_grouped(edan_edag *e)
{
    if (e->finished)
        return edan_edag_error(e)->set ? -1 : 0;
    e->finished = true;
    int rc = stop_groups(e);
    if (edan_edag_finish(e->group[0]))
        rc = -1;
    return rc;
}

static void free_grouped(edan_edag *e)
{
    stop_groups(e);
    for (int g = 0; g < e->n_groups; g++)
        edan_edag_free(e->group[g]);
    free(e);
}
