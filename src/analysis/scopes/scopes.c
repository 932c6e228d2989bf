#include "analysis/scopes/scopes.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cache/cache.h"
#include "analysis/edag/edag.h"
#include "analysis/shadow/shadow.h"
#include "trace/activity.h"
#include "util/grow.h"

#define PAGE_BITS 12
#define PAGE_SIZE (1u << PAGE_BITS)
#define WORD_BITS 3
#define WORD_SIZE (1u << WORD_BITS)
#define PAGE_WORDS (PAGE_SIZE / WORD_SIZE)
/* A word's entry: the arena index of its bytes' vector, or SPLIT | a split block's number. */
#define SPLIT 0x80000000u
#define MAX_VECTORS SPLIT /* arena indices stay below the flag */
#define NO_BLOCK UINT32_MAX
#define RECENT 64  /* pages remembered in front of the hash table */
#define KNOWN 1024 /* depth vectors remembered, so that a store of one already in the arena reuses it */

#define SCRATCH EDAN_NUM_REGS /* the register row written by an instruction without a destination */
#define ACC_RD 1u             /* scope_id.mem: the instruction reads memory */
#define ACC_WR 2u             /* and writes it */

/* What the loop needs of a static instruction, decided at its first execution, in one place: the loop reads
 * this and not the edan_insn. */
typedef struct scope_id {
    uint32_t exclusive;        /* exclusive scopes it belongs to */
    uint32_t entry;            /* inclusive scopes it enters (the first address of one of their ranges) */
    uint64_t cost;             /* lane 0's cost of it when it does not reach RAM */
    uint8_t src[EDAN_MAX_SRC]; /* as edan_insn: x0 (depth 0 everywhere) past n_src */
    uint8_t dst;               /* SCRATCH when it writes no register */
    uint8_t n_src, mem, size;  /* ACC_* */
    uint8_t flow;              /* edan_flow */
    bool activity;             /* an entry, call or return: the inclusive scopes' activity may change */
    bool wide;                 /* registers past src[] and dst (riscv.h: more[]), read from the edan_insn */
    bool seen;
} scope_id;

/*
 * A guest page: per 8-byte word, the arena index of its bytes' last
 * writers' vector (0: depth 0 in every scope) when they share one (a whole
 * word written at once: the common case); else a split block of 8 indices,
 * one per byte. A word four times smaller than a byte's index keeps the
 * pages small (2 KiB per guest page): their cache misses were the
 * per-function breakdown's largest cost.
 */
typedef struct scope_page {
    uint64_t key;  /* page number + 1; 0 = an empty slot */
    uint32_t *idx; /* PAGE_WORDS entries */
} scope_page;

struct edan_scopes {
    int K, KP;            /* scopes, and the vector length: 8, 16 or 32 */
    edan_edag_config cfg; /* scope k is lane k: its ranges, and lane 0's cache and costs */
    edan_cache cache;
    bool has_cache;
    uint32_t exclusive_mask, inclusive_mask;
    edan_activity activity[EDAN_MAX_SCOPES];
    uint32_t active; /* inclusive scopes active now */
    /* static instructions by id */
    scope_id *ids;
    size_t id_cap;
    /* vectors: registers (x0 stays 0: never a destination), and the arena the guest bytes refer to */
    uint32_t *reg;
    uint32_t *arena;
    size_t arena_cap, arena_used; /* in vectors; vector 0 is all zeros */
    uint32_t known[KNOWN];        /* vectors stored lately, by their hash: arena indices (0 = none) */
    uint32_t last;                /* the vector stored last (0: none, the zero vector) */
    /* split blocks: WORD_SIZE byte indices each; the free ones chained through their first entry */
    uint32_t *split;
    size_t split_cap, split_used; /* in blocks */
    uint32_t split_free;          /* the first free block, or NO_BLOCK */
    /* guest pages: open addressing, at most half full */
    scope_page *pages;
    size_t page_cap, n_pages;
    /* pages looked up lately, direct-mapped by page number (a page's idx never moves) */
    struct {
        uint64_t key;
        uint32_t *idx;
    } recent[RECENT];
    edan_scope_stats st[EDAN_MAX_SCOPES]; /* complete after finish() */
    /*
     * The counts of the vertices whose membership is cur_member, not yet
     * added to each member's st: membership changes only when the program
     * enters or leaves a function, so a vertex adds to one set of counts
     * instead of one per scope. inc is cur_member as a vector (1 in each
     * member's lane); dmax holds every depth reached, lane by lane: a
     * depth grows only at a member's memory-access vertex, so the largest
     * depth anywhere in lane k is scope k's D. overflow collects the
     * depths after each increase: a lane with its top bit set passed
     * EDAN_SHADOW_MAX_MD.
     */
    uint32_t cur_member;
    edan_scope_stats cur;
    uint32_t inc[EDAN_MAX_SCOPES], dmax[EDAN_MAX_SCOPES], overflow[EDAN_MAX_SCOPES];
    bool avx2; /* consume() runs its AVX2 build (not with EDAN_NO_AVX2 set: the tests run both) */
    edan_error err;
};

/*
 * Depth vectors are handled eight scopes at a time (GCC's vector extension:
 * two SSE2 operations on x86-64's baseline, one AVX2 operation where the
 * CPU has it, chosen at run time: consume()). Vectors are 8, 16 or 32
 * scopes long. Depths stay below 2^31 (EDAN_SHADOW_MAX_MD), so a signed
 * comparison orders them.
 */
typedef int32_t v4 __attribute__((vector_size(32)));
#define VL 8 /* scopes per v4 */

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* v = the vector at p (a statement, not a function: a function returning a 32-byte vector would change the ABI) */
#define LOAD(v, p) memcpy(&(v), (p), sizeof(v))

/*
 * A depth vector in the host's vector registers while a vertex is handled
 * (KP / VL of its v4 are used); memory holds vectors as arrays of uint32_t.
 */
typedef struct vec {
    v4 v[EDAN_MAX_SCOPES / VL];
} vec;
typedef uint64_t v4q __attribute__((vector_size(32)));

static ALWAYS_INLINE void vec_load(vec *x, const uint32_t *p, int KP)
{
    for (int k = 0; k < KP / VL; k++)
        LOAD(x->v[k], p + k * VL);
}

static ALWAYS_INLINE void vec_store(uint32_t *p, const vec *x, int KP)
{
    for (int k = 0; k < KP / VL; k++)
        memcpy(p + k * VL, &x->v[k], sizeof x->v[k]);
}

/*
 * The eDAG rule's form on depth vectors (edag_rule.h: edan_rule_join_scopes()
 * ...), of which this analysis uses md's half. Always inlined, so no vector
 * crosses a call: GCC's note that a 32-byte vector argument's ABI depends
 * on AVX is moot, and off for this file.
 */
#define V4_MAX(a, b) (((a) & ((a) > (b))) | ((b) & ~((a) > (b))))
#define V4_SELECT(m, a, b) (((a) & -(m)) | ((b) & ((m)-1)))
#pragma GCC diagnostic ignored "-Wpsabi"
EDAN_RULE_FORM(_scopes, v4, V4_MAX, V4_SELECT)

/* x = the rule's join of x and the vector at p (the predecessors' md so far and one more), lane by lane */
static ALWAYS_INLINE void vec_max_mem(vec *x, const uint32_t *p, int KP)
{
    for (int k = 0; k < KP / VL; k++) {
        v4 y;
        LOAD(y, p + k * VL);
        x->v[k] = edan_rule_join_scopes(x->v[k], y);
    }
}

/* the vector at p = max(it, x) */
static ALWAYS_INLINE void mem_max_vec(uint32_t *p, const vec *x, int KP)
{
    vec y;
    vec_load(&y, p, KP);
    for (int k = 0; k < KP / VL; k++) {
        const v4 gt = x->v[k] > y.v[k];
        y.v[k] = (x->v[k] & gt) | (y.v[k] & ~gt);
    }
    vec_store(p, &y, KP);
}

/* the vector at p |= x */
static ALWAYS_INLINE void mem_or_vec(uint32_t *p, const vec *x, int KP)
{
    vec y;
    vec_load(&y, p, KP);
    for (int k = 0; k < KP / VL; k++)
        y.v[k] |= x->v[k];
    vec_store(p, &y, KP);
}

/* x = the rule's md(v) from md_in x: the vector at p is 1 in the scopes v counts in (a memory-access vertex) */
static ALWAYS_INLINE void vec_depth_mem(vec *x, const uint32_t *p, int KP)
{
    for (int k = 0; k < KP / VL; k++) {
        v4 y;
        LOAD(y, p + k * VL);
        x->v[k] = edan_rule_depth_scopes(x->v[k], y);
    }
}

static ALWAYS_INLINE bool v4_zero(const v4 *a) /* by address: a 32-byte vector argument would change the ABI */
{
    const v4q q = (v4q)*a;
    return !(q[0] | q[1] | q[2] | q[3]);
}

static ALWAYS_INLINE bool vec_zero(const vec *x, int KP)
{
    v4 acc = x->v[0];
    for (int k = 1; k < KP / VL; k++)
        acc |= x->v[k];
    return v4_zero(&acc);
}

static ALWAYS_INLINE bool vec_equal_mem(const vec *x, const uint32_t *p, int KP)
{
    v4 diff = {0};
    for (int k = 0; k < KP / VL; k++) {
        v4 y;
        LOAD(y, p + k * VL);
        diff |= x->v[k] ^ y;
    }
    return v4_zero(&diff);
}

/* A vector's hash: its 64-bit halves times odd constants, summed (independent multiplies), then mixed. */
static ALWAYS_INLINE uint64_t vec_hash(const vec *x, const int KP)
{
    static const uint64_t mul[EDAN_MAX_SCOPES / 2] = {
        0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull, 0xd6e8feb86659fd93ull,
        0xff51afd7ed558ccdull, 0xc4ceb9fe1a85ec53ull, 0x94d049bb133111ebull, 0xbf58476d1ce4e5b9ull,
        0x2545f4914f6cdd1dull, 0x9fb21c651e98df25ull, 0x8cb92ba72f3d8dd7ull, 0xe7037ed1a0b428dbull,
        0xa0761d6478bd642full, 0x8ebc6af09c88c6e3ull, 0x589965cc75374cc3ull, 0x1d8e4e27c47d124full};
    uint64_t h = 0;
    for (int k = 0; k < KP / VL; k++) {
        const v4q q = (v4q)x->v[k];
        h += q[0] * mul[4 * k] + q[1] * mul[4 * k + 1] + q[2] * mul[4 * k + 2] + q[3] * mul[4 * k + 3];
    }
    return (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull >> 40;
}

/* ===================================================================== */
/* Configuration                                                          */
/* ===================================================================== */

bool edan_scopes_supported(const edan_edag_config *cfg)
{
    if (cfg->n_lanes < 1 || cfg->n_lanes > EDAN_MAX_SCOPES || cfg->false_deps)
        return false;
    for (int k = 0; k < cfg->n_lanes; k++) {
        const edan_lane_config *l = &cfg->lane[k];
        if (l->scope == EDAN_SCOPE_ALL || memcmp(&l->cache, &cfg->lane[0].cache, sizeof l->cache) ||
            memcmp(&l->cost, &cfg->lane[0].cost, sizeof l->cost))
            return false;
    }
    return true;
}

static bool grow_arena(edan_scopes *s, size_t cap)
{
    uint32_t *a = realloc(s->arena, cap * (size_t)s->KP * sizeof *a);
    if (!a)
        return false;
    s->arena = a;
    s->arena_cap = cap;
    return true;
}

edan_scopes *edan_scopes_new(const edan_edag_config *cfg, edan_error *err)
{
    if (!edan_scopes_supported(cfg)) {
        edan_error_set(err,
                       "the per-function fast path takes 1 to %d scoped lanes with one cache and cost "
                       "model and no false dependencies",
                       EDAN_MAX_SCOPES);
        return NULL;
    }
    edan_scopes *s = calloc(1, sizeof *s);
    if (!s) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    s->K = cfg->n_lanes;
    s->KP = s->K <= 8 ? 8 : s->K <= 16 ? 16 : 32; /* the vector lengths step() is compiled for */
    s->cfg = *cfg;
    for (int k = 0; k < s->K; k++) {
        if (cfg->lane[k].scope == EDAN_SCOPE_EXCLUSIVE)
            s->exclusive_mask |= 1u << k;
        else
            s->inclusive_mask |= 1u << k;
    }
    s->reg = calloc((size_t)(EDAN_NUM_REGS + 1) * (size_t)s->KP, sizeof *s->reg); /* + SCRATCH */
    s->page_cap = 1024;
    s->pages = calloc(s->page_cap, sizeof *s->pages);
    if (!s->reg || !s->pages || !grow_arena(s, 4096) || edan_cache_init(&s->cache, &cfg->lane[0].cache, err)) {
        if (!err->set)
            edan_error_set(err, "out of memory");
        edan_scopes_free(s);
        return NULL;
    }
    memset(s->arena, 0, (size_t)s->KP * sizeof *s->arena);
    s->arena_used = 1;
    s->split_free = NO_BLOCK;
#if defined(__x86_64__) && defined(__GNUC__)
    s->avx2 = __builtin_cpu_supports("avx2") && !getenv("EDAN_NO_AVX2");
#endif
    s->has_cache = cfg->lane[0].cache.n_levels > 0;
    return s;
}

/* Scope membership of a static instruction at pc, from the configuration's ranges, and what the loop needs of it. */
static scope_id classify_id(const edan_edag_config *cfg, const edan_insn *in)
{
    scope_id d = {.cost = cfg->lane[0].cost.cls[in->cls],
                  .dst = in->n_dst ? in->dst : SCRATCH,
                  .n_src = in->n_src,
                  .mem = (uint8_t)(in->mem == EDAN_MEM_NONE    ? 0
                                   : in->mem == EDAN_MEM_LOAD  ? ACC_RD
                                   : in->mem == EDAN_MEM_STORE ? ACC_WR
                                                               : ACC_RD | ACC_WR),
                  .size = in->mem_size,
                  .flow = in->flow,
                  .wide = edan_insn_wide(in),
                  .seen = true};
    memcpy(d.src, in->src, sizeof d.src);
    d.exclusive = edan_lane_members(cfg->lane, cfg->n_lanes, in->pc, &d.entry);
    d.activity = d.entry || in->flow == EDAN_FLOW_CALL || in->flow == EDAN_FLOW_RETURN;
    return d;
}

/* ===================================================================== */
/* Guest pages and the arena                                              */
/* ===================================================================== */

static uint64_t page_hash(uint64_t key)
{
    key *= 0x9e3779b97f4a7c15ull;
    return key ^ (key >> 31);
}

static bool grow_pages(edan_scopes *s)
{
    const size_t cap = 2 * s->page_cap;
    scope_page *p = calloc(cap, sizeof *p);
    if (!p)
        return false;
    for (size_t i = 0; i < s->page_cap; i++) {
        if (!s->pages[i].key)
            continue;
        size_t j = page_hash(s->pages[i].key) & (cap - 1);
        while (p[j].key)
            j = (j + 1) & (cap - 1);
        p[j] = s->pages[i];
    }
    free(s->pages);
    s->pages = p;
    s->page_cap = cap;
    return true;
}

/* The word entries of the page holding addr, from the hash table; NULL as page_of(). */
static uint32_t *page_lookup(edan_scopes *s, uint64_t addr, bool create)
{
    const uint64_t key = (addr >> PAGE_BITS) + 1;
    size_t j = page_hash(key) & (s->page_cap - 1);
    while (s->pages[j].key && s->pages[j].key != key)
        j = (j + 1) & (s->page_cap - 1);
    if (s->pages[j].key) {
        s->recent[key % RECENT].key = key;
        return s->recent[key % RECENT].idx = s->pages[j].idx;
    }
    if (!create)
        return NULL;
    if (2 * (s->n_pages + 1) > s->page_cap) {
        if (!grow_pages(s))
            return NULL;
        return page_lookup(s, addr, create);
    }
    uint32_t *idx = calloc(PAGE_WORDS, sizeof *idx);
    if (!idx)
        return NULL;
    s->pages[j] = (scope_page){key, idx};
    s->n_pages++;
    s->recent[key % RECENT].key = key;
    return s->recent[key % RECENT].idx = idx;
}

/* The word entries of the page holding addr; NULL for a page never written (when !create) or out of memory. */
static ALWAYS_INLINE uint32_t *page_of(edan_scopes *s, uint64_t addr, bool create)
{
    const uint64_t key = (addr >> PAGE_BITS) + 1;
    if (s->recent[key % RECENT].key == key)
        return s->recent[key % RECENT].idx;
    return page_lookup(s, addr, create);
}

/*
 * The arena is full: keep the vectors some byte still refers to, moved to
 * the front in order, and rewrite the bytes' indices; grow it when more
 * than half of it is live. false when out of memory.
 */
static bool compact(edan_scopes *s)
{
    uint32_t *to = calloc(s->arena_cap, sizeof *to); /* new index of each live vector, 0 = dead */
    if (!to)
        return false;
    for (size_t i = 0; i < s->page_cap; i++) {
        for (uint32_t w = 0; s->pages[i].key && w < PAGE_WORDS; w++) {
            const uint32_t e = s->pages[i].idx[w];
            if (!(e & SPLIT))
                to[e] = 1;
            else
                for (uint32_t b = 0; b < WORD_SIZE; b++)
                    to[s->split[(size_t)(e & ~SPLIT) * WORD_SIZE + b]] = 1;
        }
    }
    to[0] = 0; /* the zero vector stays at 0 */
    size_t live = 1;
    for (size_t v = 1; v < s->arena_used; v++) {
        if (!to[v])
            continue;
        memmove(s->arena + live * (size_t)s->KP, s->arena + v * (size_t)s->KP, (size_t)s->KP * sizeof *s->arena);
        to[v] = (uint32_t)live++;
    }
    for (size_t i = 0; i < s->page_cap; i++) {
        for (uint32_t w = 0; s->pages[i].key && w < PAGE_WORDS; w++) {
            uint32_t *e = &s->pages[i].idx[w];
            if (!(*e & SPLIT))
                *e = to[*e];
            else
                for (uint32_t b = 0; b < WORD_SIZE; b++) {
                    uint32_t *x = &s->split[(size_t)(*e & ~SPLIT) * WORD_SIZE + b];
                    *x = to[*x];
                }
        }
    }
    for (int i = 0; i < KNOWN; i++)
        s->known[i] = to[s->known[i]]; /* 0 for a vector no byte refers to any more */
    s->last = to[s->last];
    free(to);
    s->arena_used = live;
    /* room for at least as many new vectors as live ones, and a compaction's scan amortised over them */
    size_t want = 2 * live;
    const size_t words = s->n_pages * PAGE_WORDS;
    if (want < words)
        want = words;
    if (want > s->arena_cap && (want > MAX_VECTORS || !grow_arena(s, want)))
        return live < s->arena_cap;
    return true;
}

/* A vector for the arena: its index, the last one stored when equal to it; 0 on failure (the error set). */
static ALWAYS_INLINE uint32_t store_vector(edan_scopes *s, const vec *v, const int KP)
{
    if (vec_equal_mem(v, s->arena + (size_t)s->last * (size_t)KP, KP))
        return s->last;
    uint32_t *known = &s->known[vec_hash(v, KP) & (KNOWN - 1)];
    if (*known && vec_equal_mem(v, s->arena + (size_t)*known * (size_t)KP, KP))
        return s->last = *known;
    if (s->arena_used == s->arena_cap && !compact(s)) {
        edan_error_set(&s->err, "out of memory for the per-function depths");
        return 0;
    }
    vec_store(s->arena + s->arena_used * (size_t)KP, v, KP);
    return s->last = *known = (uint32_t)s->arena_used++;
}

/* ===================================================================== */
/* The stream                                                             */
/* ===================================================================== */

static bool grow_ids(edan_scopes *s, uint32_t id)
{
    const size_t cap = edan_grow_cap(s->id_cap, id);
    scope_id *d = edan_grow_zeroed(s->ids, s->id_cap, cap, sizeof *d);
    if (!d) {
        edan_error_set(&s->err, "out of memory for %zu static instructions", cap);
        return false;
    }
    s->ids = d;
    s->id_cap = cap;
    return true;
}

/* A split block for a word whose bytes all had index e; NO_BLOCK when out of memory. */
static uint32_t split_word(edan_scopes *s, uint32_t e)
{
    uint32_t blk = s->split_free;
    if (blk != NO_BLOCK) {
        s->split_free = s->split[(size_t)blk * WORD_SIZE];
    } else {
        if (s->split_used == s->split_cap) {
            const size_t cap = s->split_cap ? 2 * s->split_cap : 1024;
            uint32_t *p = cap < SPLIT ? realloc(s->split, cap * WORD_SIZE * sizeof *p) : NULL;
            if (!p)
                return NO_BLOCK;
            s->split = p;
            s->split_cap = cap;
        }
        blk = (uint32_t)s->split_used++;
    }
    for (uint32_t b = 0; b < WORD_SIZE; b++)
        s->split[(size_t)blk * WORD_SIZE + b] = e;
    return blk;
}

static void free_split(edan_scopes *s, uint32_t blk)
{
    s->split[(size_t)blk * WORD_SIZE] = s->split_free;
    s->split_free = blk;
}

/*
 * md = max(md, the vectors of the bytes [addr, addr + size)), a word at a
 * time (the bytes of an unsplit word share one vector).
 */
static ALWAYS_INLINE void read_max(edan_scopes *s, uint64_t addr, uint32_t size, vec *md, const int KP)
{
    if ((addr & (WORD_SIZE - 1)) + size <= WORD_SIZE) { /* within one word, the common case */
        const uint32_t *page = page_of(s, addr, false);
        const uint32_t e = page ? page[(addr & (PAGE_SIZE - 1)) >> WORD_BITS] : 0;
        if (!(e & SPLIT)) {
            if (e)
                vec_max_mem(md, s->arena + (size_t)e * (size_t)KP, KP);
            return;
        }
    }
    uint32_t last = 0;
    for (uint64_t a = addr; size;) {
        const uint32_t off = (uint32_t)(a & (PAGE_SIZE - 1)), b0 = off & (WORD_SIZE - 1);
        const uint32_t n = WORD_SIZE - b0 < size ? WORD_SIZE - b0 : size;
        const uint32_t *page = page_of(s, a, false);
        const uint32_t e = page ? page[off >> WORD_BITS] : 0;
        if (!(e & SPLIT)) {
            if (e != last)
                vec_max_mem(md, s->arena + (size_t)e * (size_t)KP, KP);
            last = e;
        } else {
            const uint32_t *blk = s->split + (size_t)(e & ~SPLIT) * WORD_SIZE;
            for (uint32_t b = b0; b < b0 + n; b++) {
                if (blk[b] != last)
                    vec_max_mem(md, s->arena + (size_t)blk[b] * (size_t)KP, KP);
                last = blk[b];
            }
        }
        a += n; /* wraps at the top of the address space, as the access does */
        size -= n;
    }
}

/* Set the bytes [addr, addr + size) to index v; false when out of memory. */
static bool write_indices_slow(edan_scopes *s, uint64_t addr, uint32_t size, uint32_t v)
{
    for (uint64_t a = addr; size;) {
        const uint32_t off = (uint32_t)(a & (PAGE_SIZE - 1)), b0 = off & (WORD_SIZE - 1);
        const uint32_t n = WORD_SIZE - b0 < size ? WORD_SIZE - b0 : size;
        a += n;
        size -= n;
        uint32_t *page = page_of(s, a - n, v != 0);
        if (!page) {
            if (v)
                return false;
            continue; /* never written: its bytes are 0 already */
        }
        uint32_t *e = &page[off >> WORD_BITS];
        if (n == WORD_SIZE) { /* the whole word */
            if (*e & SPLIT)
                free_split(s, *e & ~SPLIT);
            *e = v;
            continue;
        }
        if (!(*e & SPLIT)) {
            if (*e == v)
                continue;
            const uint32_t blk = split_word(s, *e);
            if (blk == NO_BLOCK)
                return false;
            *e = SPLIT | blk;
        }
        uint32_t *bytes = s->split + (size_t)(*e & ~SPLIT) * WORD_SIZE;
        for (uint32_t b = b0; b < b0 + n; b++)
            bytes[b] = v;
        bool same = true;
        for (uint32_t b = 1; b < WORD_SIZE; b++)
            same &= bytes[b] == bytes[0];
        if (same) { /* one writer again: unsplit (freeing the block reuses its first entry) */
            const uint32_t one = bytes[0];
            free_split(s, *e & ~SPLIT);
            *e = one;
        }
    }
    return true;
}

/* write_indices_slow() with its common case inline: a whole aligned word. */
static ALWAYS_INLINE bool write_indices(edan_scopes *s, uint64_t addr, uint32_t size, uint32_t v)
{
    if (size != WORD_SIZE || (addr & (WORD_SIZE - 1)))
        return write_indices_slow(s, addr, size, v);
    uint32_t *page = page_of(s, addr, v != 0);
    if (!page)
        return !v; /* never written: its bytes are 0 already */
    uint32_t *e = &page[(addr & (PAGE_SIZE - 1)) >> WORD_BITS];
    if (*e & SPLIT)
        free_split(s, *e & ~SPLIT);
    *e = v;
    return true;
}

/* Add the counts of cur_member's vertices to each member's. */
static void flush_member(edan_scopes *s)
{
    for (uint32_t m = s->cur_member; m; m &= m - 1) {
        edan_scope_stats *st = &s->st[__builtin_ctz(m)];
        st->vertices += s->cur.vertices;
        st->W += s->cur.W;
        st->C += s->cur.C;
    }
    s->cur = (edan_scope_stats){0};
}

static void switch_member(edan_scopes *s, uint32_t member)
{
    flush_member(s);
    s->cur_member = member;
    for (int k = 0; k < s->KP; k++)
        s->inc[k] = member >> k & 1;
}

/*
 * One vertex; false when the analysis must stop (the error set). KP is
 * s->KP, a constant where step() is inlined, so the vector loops unroll
 * (as a loop of variable count GCC would make them calls of memcpy).
 */
static ALWAYS_INLINE bool step(edan_scopes *s, const edan_exec *r, const int KP)
{
    if (r->id >= s->id_cap && !grow_ids(s, r->id))
        return false;
    scope_id *d = &s->ids[r->id];
    if (!d->seen)
        *d = classify_id(&s->cfg, r->insn);
    /* membership: exclusive by pc, inclusive by activity (trace/activity.h, as the analyzer's lanes) */
    uint32_t member = d->exclusive;
    if (d->activity) {
        for (uint32_t m = s->inclusive_mask; m; m &= m - 1) {
            const int k = __builtin_ctz(m);
            if (edan_activity_step(&s->activity[k], d->entry >> k & 1, d->flow))
                member |= 1u << k;
            s->active = s->activity[k].active ? s->active | 1u << k : s->active & ~(1u << k);
        }
    } else {
        member |= s->active;
    }
    vec md;
    vec_load(&md, s->reg + (size_t)d->src[0] * (size_t)KP, KP);
    vec_max_mem(&md, s->reg + (size_t)d->src[1] * (size_t)KP, KP); /* x0's zeros when there is no second source */
    if (d->n_src > 2)
        vec_max_mem(&md, s->reg + (size_t)d->src[2] * (size_t)KP, KP);
    for (int i = 0; d->wide && i < r->insn->n_more_src; i++)
        vec_max_mem(&md, s->reg + (size_t)r->insn->more[i] * (size_t)KP, KP);
    const unsigned acc = r->flags & EDAN_EXEC_NO_ACCESS ? 0 : d->mem;
    if (acc & ACC_RD)
        read_max(s, r->addr, d->size, &md, KP);
    bool to_ram = false;
    if (acc) {
        const edan_access_class ac =
            edan_cache_classify(&s->cache, s->has_cache, r->addr, d->size, acc & ACC_RD, acc & ACC_WR);
        to_ram = ac.rd_ram || ac.wr_ram;
    }
    if (member) {
        if (member != s->cur_member)
            switch_member(s, member);
        s->cur.vertices++;
        if (to_ram) {
            s->cur.W++;
            vec_depth_mem(&md, s->inc, KP);
            mem_max_vec(s->dmax, &md, KP);
            mem_or_vec(s->overflow, &md, KP);
        } else {
            s->cur.C += d->cost;
        }
    }
    /* address updates (edan_insn.addr_dst) first: their register's depths before, as an instruction of their own */
    const edan_insn *in = r->insn;
    for (int i = 0; d->wide && in->addr_dst && i <= in->n_more_dst; i++) {
        const uint8_t g = i ? in->more[in->n_more_src + i - 1] : in->dst, f = edan_insn_addr_from(in, g);
        if (in->addr_dst >> i & 1)
            memmove(s->reg + (size_t)g * (size_t)KP, s->reg + (size_t)f * (size_t)KP, sizeof(uint32_t) * (size_t)KP);
    }
    const uint16_t addr = d->wide ? in->addr_dst : 0;
    if (!(addr & 1))
        vec_store(s->reg + (size_t)d->dst * (size_t)KP, &md, KP);
    for (int i = 0; d->wide && i < in->n_more_dst; i++)
        if (!(addr >> (i + 1) & 1))
            vec_store(s->reg + (size_t)in->more[in->n_more_src + i] * (size_t)KP, &md, KP);
    if (acc & ACC_WR) {
        uint32_t v = 0;
        if (!vec_zero(&md, KP) && !(v = store_vector(s, &md, KP)))
            return false;
        if (!write_indices(s, r->addr, d->size, v)) {
            edan_error_set(&s->err, "out of memory for the per-function depths");
            return false;
        }
    }
    return true;
}

static ALWAYS_INLINE void consume_body(edan_scopes *s, const edan_exec *recs, size_t n)
{
    size_t i = 0;
    if (s->KP == 8)
        while (i < n && step(s, &recs[i], 8))
            i++;
    else if (s->KP == 16)
        while (i < n && step(s, &recs[i], 16))
            i++;
    else
        while (i < n && step(s, &recs[i], 32))
            i++;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) static void consume_avx2(edan_scopes *s, const edan_exec *recs, size_t n)
{
    consume_body(s, recs, n);
}
#endif

static void consume_plain(edan_scopes *s, const edan_exec *recs, size_t n)
{
    consume_body(s, recs, n);
}

static void warm(void *ctx, const edan_exec *recs, size_t n)
{
    edan_scopes *s = ctx;
    if (s->has_cache)
        edan_cache_warm(&s->cache, recs, n);
}

static void consume_measured(void *ctx, const edan_exec *recs, size_t n)
{
    edan_scopes *s = ctx;
    if (s->err.set)
        return;
#if defined(__x86_64__) && defined(__GNUC__)
    if (s->avx2)
        consume_avx2(s, recs, n);
    else
#endif
        consume_plain(s, recs, n);
    for (int k = 0; k < s->KP; k++)
        if (s->overflow[k] > EDAN_SHADOW_MAX_MD && !s->err.set)
            edan_error_set(&s->err, "memory depth exceeds %u: not supported", EDAN_SHADOW_MAX_MD);
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_exec_split(recs, n, ctx, consume_measured, warm);
}

static int finish(void *ctx)
{
    edan_scopes *s = ctx;
    flush_member(s);
    for (int k = 0; k < s->K; k++)
        s->st[k].D = s->dmax[k];
    return s->err.set ? -1 : 0;
}

edan_consumer edan_scopes_consumer(edan_scopes *s)
{
    return (edan_consumer){s, consume, finish, NULL, s->has_cache};
}

const edan_error *edan_scopes_error(const edan_scopes *s)
{
    return &s->err;
}

int edan_scopes_add_range(edan_scopes *s, int k, uint64_t lo, uint64_t hi)
{
    return k < 0 || k >= s->K ? -1 : edan_lane_add_range(&s->cfg.lane[k], lo, hi);
}

const edan_scope_stats *edan_scopes_get(const edan_scopes *s, int k)
{
    return &s->st[k];
}

void edan_scopes_free(edan_scopes *s)
{
    if (!s)
        return;
    for (size_t i = 0; s->pages && i < s->page_cap; i++)
        free(s->pages[i].idx);
    free(s->pages);
    free(s->arena);
    free(s->split);
    free(s->reg);
    free(s->ids);
    edan_cache_free(&s->cache);
    free(s);
}
