/*
 * affine_test.c - the affine access functions of loop nests recovered from
 * the stream (analysis/whatif/affine.h) and the blocking and fusion replays
 * (analysis/whatif/whatif.h), on random generated nests whose access functions
 * are known:
 *   - nests of 1 to 4 levels with trip counts from 3 (a loop is known from its second iteration,
 *     a stride from two iterations of it after that) (some varying from
 *     entry to entry), memory instructions at every level with random bases
 *     and strides (zero and negative ones too), some non-affine (the square
 *     of the innermost counter), run once or twice, fed in random batches
 *     (so loops are discovered at different records);
 *   - each nest's levels, trip counts, entries, accesses and non-affine
 *     accesses, each instruction's verdict, base and strides against the
 *     generator's;
 *   - the traffic of a replay (each nest blocked, the tile scheme and
 *     fusion over nests of one iteration space) against a naive reference:
 *     the transformed loops written out from the generator's functions and
 *     a naive LRU list with dirty bits and the final flush, at 8 sizes;
 *     the tile scheme with the halos edan_whatif_check gives too, and its
 *     redundant points against the points the naive loops make twice;
 *   - the dependence check: a plan it calls legal gives the results of the
 *     original order when run naively (every load reads the value of the
 *     same store instance, every word ends with the same store's value).
 *
 * usage: affine_test [programs]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/whatif/affine.h"
#include "analysis/whatif/whatif.h"
#include "check.h"
#include "isa/riscv.h"
#include "random_trace.h"

#define MAX_NESTS 3
#define MAX_INSNS 12
#define CODE 256
#define LINE_SHIFT 6

typedef struct g_insn {
    int code;  /* index into the code */
    int level; /* its context's levels (1 .. nest levels) */
    bool store, affine;
    int64_t base, stride[4];
} g_insn;

typedef struct g_nest {
    int levels;
    int trip[4];
    bool varies[4];   /* the level's trip count may vary per entry; after the run: it did */
    int lo[4], hi[4]; /* the trip counts run */
    int head[4], branch[4];
    g_insn insn[MAX_INSNS];
    int n_insns;
} g_nest;

static edan_insn code[CODE];
static int n_code;
static g_nest nests[MAX_NESTS];
static int n_nests, reps;
static edan_exec *recs;
static size_t n_recs, cap_recs;

static uint64_t pc_of(int i)
{
    return 0x10000u + 4u * (uint64_t)i;
}

static int emit(const char *text)
{
    char err[128];
    const int i = n_code++;
    if (edan_rv_parse(text, pc_of(i), &code[i], err, sizeof err)) {
        fprintf(stderr, "parse '%s': %s\n", text, err);
        abort();
    }
    code[i].pc = pc_of(i);
    return i;
}

static void rec(int i, uint64_t addr)
{
    if (n_recs == cap_recs) {
        cap_recs = cap_recs ? 2 * cap_recs : 4096;
        recs = realloc(recs, cap_recs * sizeof *recs);
        if (!recs)
            abort();
    }
    recs[n_recs++] = (edan_exec){&code[i], addr, (uint32_t)i, 0, 0};
}

static uint64_t address(const g_insn *x, const int64_t *i)
{
    if (!x->affine)
        return (uint64_t)(x->base + 8 * i[x->level - 1] * i[x->level - 1]);
    int64_t a = x->base;
    for (int k = 0; k < x->level; k++)
        a += x->stride[k] * i[k];
    return (uint64_t)a;
}

/* ---- the generator ---------------------------------------------------- */

/* A nest like the one before (same levels and trip counts), or a new one; a consumer (like set) reads, first, what a
 * store of `like` at its innermost level wrote, shifted by -1, 0 or 1 per level, and keeps its other accesses in a
 * window of its own (window 0: the shared one). */
static void layout(g_nest *n, const g_nest *like, bool consumer, int window)
{
    n->levels = like ? like->levels : 1 + (int)rt_below(4);
    bool any_nonaffine = false;
    for (int k = 0; k < n->levels; k++) {
        n->trip[k] = like ? like->trip[k] : 3 + (int)rt_below(k == n->levels - 1 ? 6 : 3);
        n->varies[k] = like ? like->varies[k] : rt_below(8) == 0;
    }
    n->n_insns = 0;
    memset(n->lo, 0, sizeof n->lo);
    memset(n->hi, 0, sizeof n->hi);
    for (int k = 0; k < n->levels; k++) {
        n->head[k] = emit("addi a2,a2,1");
        const int m = k == n->levels - 1 ? 1 + (int)rt_below(4) : (int)rt_below(2);
        for (int j = 0; j < m && n->n_insns < MAX_INSNS; j++) {
            g_insn *x = &n->insn[n->n_insns++];
            const g_insn *from = NULL;
            for (int y = 0; consumer && like && j == 0 && k == n->levels - 1 && y < like->n_insns; y++)
                if (like->insn[y].store && like->insn[y].affine && like->insn[y].level == n->levels)
                    from = &like->insn[y];
            x->store = !from && rt_below(3) == 0;
            x->code = emit(x->store ? "sd a0,0(a1)" : "ld a0,0(a1)");
            x->level = k + 1;
            x->affine = !(k == n->levels - 1 && !n->varies[k] && n->trip[k] >= 4 && rt_below(6) == 0);
            any_nonaffine |= !x->affine;
            x->base = 0x100000 + 0x8000 * (int64_t)window + 8 * (int64_t)rt_below(4096);
            for (int l = 0; l <= k; l++)
                x->stride[l] = rt_below(4) == 0 ? 0 : 8 * ((int64_t)rt_below(33) - 16);
            if (from) { /* the producer's store, read at a shifted point */
                x->affine = true;
                x->base = from->base;
                for (int l = 0; l <= k; l++) {
                    x->stride[l] = from->stride[l];
                    x->base += from->stride[l] * ((int64_t)rt_below(3) - 1);
                }
            }
        }
    }
    (void)any_nonaffine;
    for (int k = n->levels; k-- > 0;) {
        char buf[48];
        n->branch[k] = n_code;
        snprintf(buf, sizeof buf, "bne a2,a5,%d", (int)(pc_of(n->head[k]) - pc_of(n_code)));
        emit(buf);
    }
}

/* Level k of nest n at counters i (levels above k set). */
static void run_level(const g_nest *n, int k, int64_t *i)
{
    g_nest *w = (g_nest *)n;
    const int trip = n->varies[k] ? 3 + (int)rt_below(4) : n->trip[k];
    if (!w->lo[k] || trip < w->lo[k])
        w->lo[k] = trip;
    if (trip > w->hi[k])
        w->hi[k] = trip;
    for (i[k] = 0; i[k] < trip; i[k]++) {
        rec(n->head[k], 0);
        for (int j = 0; j < n->n_insns; j++)
            if (n->insn[j].level == k + 1)
                rec(n->insn[j].code, address(&n->insn[j], i));
        if (k + 1 < n->levels)
            run_level(n, k + 1, i);
        rec(n->branch[k], 0);
    }
}

static void generate(void)
{
    n_code = 0;
    n_recs = 0;
    emit("addi a3,a3,1");
    n_nests = 1 + (int)rt_below(MAX_NESTS);
    for (int x = 0; x < n_nests; x++) {
        const bool like = x && rt_below(2), consumer = like && rt_below(2);
        layout(&nests[x], like ? &nests[x - 1] : NULL, consumer, consumer ? x : 0);
        emit("addi a3,a3,1"); /* code between nests */
    }
    reps = 1 + (int)rt_below(2);
    for (int r = 0; r < reps; r++)
        for (int x = 0; x < n_nests; x++) {
            rec(0, 0);
            int64_t i[4] = {0};
            run_level(&nests[x], 0, i);
        }
    for (int x = 0; x < n_nests; x++) /* what ran: a varying level may have run one trip count */
        for (int k = 0; k < nests[x].levels; k++) {
            nests[x].varies[k] = nests[x].lo[k] != nests[x].hi[k];
            nests[x].trip[k] = nests[x].hi[k];
        }
}

/* ---- the naive LRU ---------------------------------------------------- */

typedef struct naive {
    uint64_t line[4096];
    bool dirty[4096];
    size_t n, cap;
    uint64_t reads, writes;
} naive;

static void naive_access(naive *c, uint64_t addr, bool store)
{
    const uint64_t b = addr >> LINE_SHIFT;
    size_t at = c->n;
    for (size_t x = 0; x < c->n; x++)
        if (c->line[x] == b) {
            at = x;
            break;
        }
    bool dirty = store;
    if (at == c->n) {
        c->reads++;
        if (c->n == c->cap) { /* evict the least recent, the last */
            c->n--;
            c->writes += c->dirty[c->n];
        }
        at = c->n++;
    } else {
        dirty |= c->dirty[at];
    }
    memmove(&c->line[1], &c->line[0], at * sizeof c->line[0]);
    memmove(&c->dirty[1], &c->dirty[0], at * sizeof c->dirty[0]);
    c->line[0] = b;
    c->dirty[0] = dirty;
}

#define SIZES 8
static naive cache[SIZES];

/* ---- the naive stream: each access of the naive loops, for the cache model's replay ---- */

typedef struct stream_access {
    uint64_t pc, addr;
    bool store;
} stream_access;
static stream_access *stream;
static size_t n_stream, cap_stream;

static void stream_add(uint64_t pc, uint64_t addr, bool store)
{
    if (n_stream == cap_stream) {
        cap_stream = cap_stream ? 2 * cap_stream : 4096;
        stream = realloc(stream, cap_stream * sizeof *stream);
        if (!stream)
            abort();
    }
    stream[n_stream++] = (stream_access){pc, addr, store};
}

/* Small caches, so that the stream misses at both levels: a 512-byte 2-way L1 and a 4 KiB 4-way L2. */
static const edan_cache_config small = {2, {{512, 64, 2, true, true}, {4096, 64, 4, true, true}}};
static const edan_prefetch_config small_pf[2] = {
    {EDAN_PREFETCH_STRIDE, 2, 1, 32, 1, false, 16, 4, 3, 4, 50},
    {EDAN_PREFETCH_TAGGED, 2, 1, 32, 1, false, 0, 0, 0, 0, 0},
};
static const uint32_t small_hit[2] = {2, 10};

/* A window's misses in rounds, naively: the levels sorted deepest first, cut into groups of mshrs, each a round of its
 * first (deepest) level. */
static void naive_rounds(uint32_t *lv, size_t n, uint32_t mshrs, uint64_t *rounds)
{
    for (size_t x = 1; x < n; x++) /* insertion sort, descending */
        for (size_t y = x; y > 0 && lv[y] > lv[y - 1]; y--) {
            const uint32_t t = lv[y];
            lv[y] = lv[y - 1];
            lv[y - 1] = t;
        }
    for (size_t x = 0; x < n; x += mshrs)
        rounds[lv[x]]++;
}

/* The cache model's replay of the same order under core (prefetchers or none, a window, MSHRs) against the naive
 * stream run through the cache model and its prefetchers access by access: the traffic, the level each load found
 * its data at, the rounds of misses per deepest level. */
static void check_core(const edan_affine *a, const uint32_t *order, const size_t *start, size_t ng,
                       const edan_whatif_plan *p, const edan_whatif_core *core)
{
    edan_whatif_model got;
    edan_error err = {0};
    CHECK(!edan_whatif_replay_cache(a, order, start, ng, p, &small, core, &got, &err), "replay_cache: %s", err.msg);
    edan_cache c;
    edan_prefetcher pf = {0};
    CHECK(!edan_cache_init(&c, &small, &err), "cache");
    CHECK(!core->pf || !edan_prefetch_init(&pf, core->pf, core->hit, 2, 64, &err), "prefetcher");
    uint64_t loads[EDAN_CACHE_MAX_LEVELS + 1] = {0}, rounds[EDAN_CACHE_MAX_LEVELS + 1] = {0};
    uint32_t *window = calloc(core->window + 1, sizeof *window);
    size_t in_window = 0, missed = 0;
    for (size_t x = 0; window && x < n_stream; x++) {
        const edan_cache_result r = edan_cache_access(&c, stream[x].addr, 8, stream[x].store);
        if (core->pf)
            edan_prefetch_access(&pf, &c, stream[x].pc, stream[x].addr, &r, false);
        if (stream[x].store)
            continue;
        loads[r.level]++;
        if (r.level)
            window[missed++] = r.level;
        if (++in_window == core->window) {
            naive_rounds(window, missed, core->mshrs, rounds);
            in_window = missed = 0;
        }
    }
    if (window && in_window)
        naive_rounds(window, missed, core->mshrs, rounds);
    free(window);
    CHECK_EQ_U64(got.read, c.ram_read_bytes, "cache model replay: bytes read");
    for (int l = 0; l <= 2; l++) {
        CHECK(got.loads[l] == loads[l], "loads found at level %d (prefetchers %d): %llu, naive %llu", l,
              core->pf != NULL, (unsigned long long)got.loads[l], (unsigned long long)loads[l]);
        CHECK(got.rounds[l] == rounds[l],
              "rounds to level %d (window %llu, mshrs %u, prefetchers %d): %llu, naive %llu", l,
              (unsigned long long)core->window, core->mshrs, core->pf != NULL, (unsigned long long)got.rounds[l],
              (unsigned long long)rounds[l]);
    }
    if (core->pf)
        edan_prefetch_free(&pf);
    edan_cache_free(&c);
}

/* ---- the naive values: which store instance each load reads ----------- */

#define WORDS_LO (0x100000 - 0x10000)
#define WORDS (1u << 16)
#define INSTANCES (2 * MAX_NESTS * MAX_INSNS * 4096)
static bool values;            /* naive_point follows values instead of the caches */
static bool recording;         /* the original order: note each load's store */
static bool broken;            /* the transformed order: a load read another store, or a word ends otherwise */
static int rep_now;            /* the entry being run */
static uint32_t writer[WORDS]; /* per word: its last store instance + 1 */
static uint32_t final_writer[WORDS];
static uint32_t source[INSTANCES];
static uint64_t points_made; /* points of nests run (the tile scheme's halos counted again) */

static void naive_value(const g_nest *n, int j, const int64_t *i)
{
    const g_insn *x = &n->insn[j];
    const uint64_t w = (address(x, i) - WORDS_LO) >> 3;
    CHECK(address(x, i) >= WORDS_LO && w < WORDS, "address %llx in the naive memory",
          (unsigned long long)address(x, i));
    if (w >= WORDS || address(x, i) < WORDS_LO)
        return;
    uint32_t id = (uint32_t)((rep_now * MAX_NESTS + (int)(n - nests)) * MAX_INSNS + j);
    for (int k = 0; k < 4; k++)
        id = id * 8 + (uint32_t)(k < n->levels ? i[k] : 0);
    if (x->store)
        writer[w] = id + 1;
    else if (recording)
        source[id] = writer[w];
    else
        broken |= source[id] != writer[w];
}

static void naive_point(const g_nest *n, const int64_t *i)
{
    points_made++;
    for (int j = 0; j < n->n_insns; j++) {
        const g_insn *x = &n->insn[j];
        bool at = true;
        for (int k = x->level; k < n->levels; k++)
            at &= i[k] == 0;
        if (!at)
            continue;
        if (values) {
            naive_value(n, j, i);
            continue;
        }
        for (int s = 0; s < SIZES; s++)
            naive_access(&cache[s], address(x, i), x->store);
        stream_add(pc_of(x->code), address(x, i), x->store);
    }
}

/* Points of nests g[0 .. m) in the box [lo, hi), written out as loops (levels up to 4); nest x's box widened by
 * its halo h[x] (NULL: none), clipped to its trip counts. */
static void naive_box(const g_nest *const *g, int m, const int64_t *lo, const int64_t *hi, bool fused,
                      const edan_whatif_halo *hl)
{
    const int d = g[0]->levels;
    for (int x = 0; x < (fused ? 1 : m); x++) {
        int64_t l[4] = {0}, h[4] = {1, 1, 1, 1};
        for (int k = 0; k < d; k++) {
            l[k] = hl ? lo[k] - (int64_t)hl[x].lo[k] : lo[k];
            h[k] = hl ? hi[k] + (int64_t)hl[x].hi[k] : hi[k];
            l[k] = l[k] < 0 ? 0 : l[k];
            h[k] = h[k] > g[0]->trip[k] ? g[0]->trip[k] : h[k];
        }
        for (int64_t a = l[0]; a < h[0]; a++)
            for (int64_t b = l[1]; b < h[1]; b++)
                for (int64_t c = l[2]; c < h[2]; c++)
                    for (int64_t e = l[3]; e < h[3]; e++) {
                        const int64_t i[4] = {a, b, c, e};
                        if (fused)
                            for (int y = 0; y < m; y++)
                                naive_point(g[y], i);
                        else
                            naive_point(g[x], i);
                    }
    }
}

/* The tiles of the plan, in order, over nests g[0 .. m) (one nest for the traditional scheme); h: their halos. */
static void naive_tiles(const g_nest *const *g, int m, const edan_whatif_plan *p, const edan_whatif_halo *h)
{
    const int d = g[0]->levels;
    int64_t nt[4] = {1, 1, 1, 1};
    for (int k = 0; k < d; k++)
        if (p->tile && (p->block & (1u << k)))
            nt[k] = (g[0]->trip[k] + (int64_t)p->tile - 1) / (int64_t)p->tile;
    for (int64_t a = 0; a < nt[0]; a++)
        for (int64_t b = 0; b < nt[1]; b++)
            for (int64_t c = 0; c < nt[2]; c++)
                for (int64_t e = 0; e < nt[3]; e++) {
                    const int64_t t[4] = {a, b, c, e};
                    int64_t lo[4], hi[4];
                    for (int k = 0; k < d; k++) {
                        const bool bl = p->tile && (p->block & (1u << k));
                        lo[k] = bl ? t[k] * (int64_t)p->tile : 0;
                        hi[k] =
                            bl ? (lo[k] + (int64_t)p->tile < g[0]->trip[k] ? lo[k] + (int64_t)p->tile : g[0]->trip[k])
                               : g[0]->trip[k];
                    }
                    naive_box(g, m, lo, hi, p->order == EDAN_WHATIF_POINT, h);
                }
}

/* ---- the checks ------------------------------------------------------- */

static int legal_plans, illegal_confirmed, illegal_unconfirmed, halo_plans;

/* Run the groups under plan p (halos h per entry of the groups' nests, NULL: none), naively. */
static void naive_run(const g_nest *const members[][MAX_NESTS], const int *nm, const size_t *start, size_t ng,
                      const edan_whatif_plan *p, const edan_whatif_halo *h)
{
    for (int r = 0; r < reps; r++)
        for (size_t g = 0; g < ng; g++) {
            rep_now = r;
            if (p->order == EDAN_WHATIF_EACH)
                for (int x = 0; x < nm[g]; x++)
                    naive_tiles(&members[g][x], 1, p, NULL);
            else
                naive_tiles(members[g], nm[g], p, h && p->order == EDAN_WHATIF_TILE ? h + start[g] : NULL);
        }
}

/* The replay's traffic under p (p->halo: with those halos) against the naive loops'. */
static void check_traffic(const edan_affine *a, const uint32_t *order, const size_t *start, size_t ng,
                          const g_nest *const members[][MAX_NESTS], const int *nm, const edan_whatif_plan *p)
{
    edan_lru_traffic got;
    CHECK(!edan_whatif_replay(a, order, start, ng, p, LINE_SHIFT, &got), "replay");
    for (int s = 0; s < SIZES; s++) {
        memset(&cache[s], 0, sizeof cache[s]);
        cache[s].cap = (size_t)1 << s;
    }
    n_stream = 0;
    naive_run(members, nm, start, ng, p, p->halo);
    for (int pf = 0; pf < 2; pf++) {
        const edan_whatif_core core = {pf ? small_pf : NULL, small_hit, 1 + rt_below(40), 1 + (uint32_t)rt_below(4)};
        check_core(a, order, start, ng, p, &core);
    }
    for (int s = 0; s < SIZES; s++) {
        naive *c = &cache[s];
        uint64_t flush = 0;
        for (size_t x = 0; x < c->n; x++)
            flush += c->dirty[x];
        const double want = (double)((c->reads + c->writes + flush) << LINE_SHIFT);
        const double have = edan_whatif_bytes(&got, (unsigned)s, LINE_SHIFT);
        CHECK(have == want, "order %d tile %llu block %x halo %d, %zu lines: %.0f bytes, naive %.0f", p->order,
              (unsigned long long)p->tile, p->block, p->halo != NULL, c->cap, have, want);
    }
}

static void check_replay(const edan_affine *a, const int *gmap, const edan_whatif_plan *p, bool groups)
{
    /* groups of consecutive compatible exact nests (or each alone) */
    uint32_t order[MAX_NESTS];
    size_t start[MAX_NESTS + 1], ng = 0, ne = 0;
    const g_nest *members[MAX_NESTS][MAX_NESTS];
    int nm[MAX_NESTS] = {0};
    const edan_affine_nest *an = edan_affine_nests(a);
    for (int x = 0; x < n_nests; x++) {
        const int e = gmap[x];
        bool exact = true;
        for (int k = 0; k < nests[x].levels; k++)
            exact &= !nests[x].varies[k];
        for (int j = 0; j < nests[x].n_insns; j++)
            exact &= nests[x].insn[j].affine;
        if (!exact || e < 0)
            continue;
        CHECK(edan_affine_nest_exact(&an[e]), "nest %d is exact", x);
        const bool join = groups && ne && order[ne - 1] + 1 == (uint32_t)e &&
                          edan_whatif_compatible(&an[order[start[ng - 1]]], &an[e]);
        if (!join) {
            start[ng] = ne;
            nm[ng++] = 0;
        }
        members[ng - 1][nm[ng - 1]++] = &nests[x];
        order[ne++] = (uint32_t)e;
    }
    start[ng] = ne;
    check_traffic(a, order, start, ng, members, nm, p);
    /* the dependence check against the values the naive loops read */
    edan_whatif_halo halo[MAX_NESTS];
    edan_whatif_conflict why;
    const bool legal = edan_whatif_check(a, order, start, ng, p, halo, &why);
    const edan_whatif_plan as_run = {EDAN_WHATIF_EACH, 0, 0, NULL};
    values = recording = true;
    broken = false;
    memset(writer, 0, sizeof writer);
    naive_run(members, nm, start, ng, &as_run, NULL);
    memcpy(final_writer, writer, sizeof writer);
    recording = false;
    memset(writer, 0, sizeof writer);
    points_made = 0;
    naive_run(members, nm, start, ng, p, halo);
    broken |= memcmp(final_writer, writer, sizeof writer) != 0;
    values = false;
    CHECK(!legal || !broken, "order %d tile %llu block %x: called legal, but the naive run reads other values",
          p->order, (unsigned long long)p->tile, p->block);
    legal_plans += legal;
    illegal_confirmed += !legal && broken;
    illegal_unconfirmed += !legal && !broken;
    uint64_t domain = 0, redundant = 0;
    for (size_t x = 0; x < ne; x++) {
        uint64_t pts = an[order[x]].entries;
        for (unsigned k = 0; k < an[order[x]].levels; k++)
            pts *= an[order[x]].trip[k];
        domain += pts;
        redundant += halo[x].redundant;
        CHECK(p->order == EDAN_WHATIF_TILE || !halo[x].redundant, "a halo only in the tile scheme");
    }
    CHECK_EQ_U64(points_made, domain + redundant, "points made: the domain and the recomputed halo");
    if (legal && redundant) { /* the replay with the halos against the naive loops' */
        edan_whatif_plan q = *p;
        q.halo = halo;
        check_traffic(a, order, start, ng, members, nm, &q);
        halo_plans++;
    }
}

static void one_program(void)
{
    generate();
    edan_loops *l = edan_loops_new(NULL);
    edan_affine *a = edan_affine_new(l);
    for (size_t at = 0; at < n_recs;) {
        size_t m = 1 + (size_t)rt_below(rt_below(2) ? 4 : 200);
        if (m > n_recs - at)
            m = n_recs - at;
        CHECK(!edan_loops_observe(l, recs + at, m), "loops");
        CHECK(!edan_affine_observe(a, recs + at, m), "observe");
        at += m;
    }
    CHECK(!edan_affine_finish(a), "finish");
    CHECK_EQ_U64(edan_affine_n_nests(a), n_nests, "nests");
    const edan_affine_nest *an = edan_affine_nests(a);
    const edan_affine_insn *ai = edan_affine_insns(a);
    int gmap[MAX_NESTS];
    for (int x = 0; x < n_nests; x++) {
        const g_nest *g = &nests[x];
        gmap[x] = -1;
        for (size_t e = 0; e < edan_affine_n_nests(a); e++)
            if (edan_loops_get(l, (uint32_t)an[e].loop[0])->head == pc_of(g->head[0]))
                gmap[x] = (int)e;
        CHECK(gmap[x] >= 0, "nest %d found", x);
        if (gmap[x] < 0)
            continue;
        const edan_affine_nest *n = &an[gmap[x]];
        CHECK_EQ_U64(n->levels, g->levels, "levels");
        CHECK_EQ_U64(n->entries, reps, "entries");
        uint64_t acc = 0, bad = 0, outer = 1;
        bool rect = true;
        for (int k = 0; k < g->levels && k < (int)n->levels; k++) {
            CHECK_EQ_U64(edan_loops_get(l, (uint32_t)n->loop[k])->head, pc_of(g->head[k]), "chain");
            CHECK_EQ_U64(n->trip[k], g->varies[k] ? 0 : g->trip[k], "trip");
            rect &= !g->varies[k];
        }
        CHECK(n->rectangular == rect, "rectangular");
        for (int j = 0; j < g->n_insns; j++) {
            const g_insn *x = &g->insn[j];
            const edan_affine_insn *o = NULL;
            for (size_t y = n->first; y < n->first + n->n; y++)
                if (ai[y].insn->pc == pc_of(x->code))
                    o = &ai[y];
            CHECK(o != NULL, "instruction found");
            if (!o)
                continue;
            acc += o->accesses;
            bad += x->affine ? 0 : o->accesses;
            CHECK(o->affine == x->affine, "affine verdict at level %d of %d", x->level, g->levels);
            CHECK_EQ_U64(o->levels, x->level, "instruction levels");
            if (!x->affine || !o->affine)
                continue;
            CHECK(o->base == x->base, "base %lld, expected %lld", (long long)o->base, (long long)x->base);
            for (int k = 0; k < x->level; k++) {
                /* a level that never moved for it has no stride to find (its trip count is 1 there) */
                const int64_t want = x->stride[k];
                CHECK(o->stride[k] == want, "stride %d: %lld, expected %lld", k, (long long)o->stride[k],
                      (long long)want);
            }
        }
        (void)outer;
        CHECK_EQ_U64(n->accesses, acc, "accesses");
        CHECK_EQ_U64(n->nonaffine_accesses, bad, "non-affine accesses");
    }
    /* replays: as run, blocked, the tile scheme and fusion */
    edan_whatif_plan p = {EDAN_WHATIF_EACH, 0, 0, NULL};
    check_replay(a, gmap, &p, false);
    p.tile = 1 + rt_below(4);
    p.block = 1u + (unsigned)rt_below(15);
    check_replay(a, gmap, &p, false);
    p.order = EDAN_WHATIF_TILE;
    check_replay(a, gmap, &p, true);
    p = (edan_whatif_plan){EDAN_WHATIF_POINT, 0, 0, NULL};
    check_replay(a, gmap, &p, true);
    edan_affine_free(a);
    edan_loops_free(l);
}

int main(int argc, char **argv)
{
    const int programs = argc > 1 ? atoi(argv[1]) : 200;
    rt_seed(41);
    for (int i = 0; i < programs; i++)
        one_program();
    printf("dependence check: %d plans legal (%d with a recomputed halo), %d illegal (%d of them change the naive "
           "run's values)\n",
           legal_plans, halo_plans, illegal_confirmed + illegal_unconfirmed, illegal_confirmed);
    CHECK(legal_plans > 0 && halo_plans > 0 && illegal_confirmed > 0, "both verdicts and halos seen");
    free(recs);
    free(stream);
    return check_summary();
}
