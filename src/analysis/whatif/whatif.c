/*
 * whatif.c - blocking and fusion what-ifs: the accesses of affine nests
 * replayed in the transformed order through LRU stack distances
 * (whatif.h says which order).
 */
#include "analysis/whatif/whatif.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/locality/locality.h"
#include "analysis/whatif/whatif_tree.h"
#include "util/keymap.h"

#define L EDAN_AFFINE_LEVELS

/* The fused order's dependence check (edan_tree_fuse_legal): per granule of memory, the latest nest of the group
 * that loaded it and that stored it so far, which instruction, at which position (its rank in the walk). */
typedef struct granule {
    uint32_t ld_nest, st_nest; /* 1 + the nest's index in the group; 0: none */
    uint32_t ld_insn, st_insn; /* indices into edan_affine_insns() */
    uint64_t ld_rank, st_rank;
} granule;

typedef struct fuse_check {
    edan_keymap map;         /* granule address -> granule */
    unsigned shift;          /* log2 of the granule's bytes: the group's smallest access */
    uint32_t nest;           /* the nest walking: 1 + its index in the group */
    uint64_t rank;           /* the position walking, as a rank of the positions' odometer */
    edan_whatif_conflict *c; /* the first dependence broken, */
    bool broken;             /* once found */
    const uint64_t *extent;  /* the positions per level, to turn ranks into distances */
    unsigned levels;
} fuse_check;

typedef struct replay {
    const edan_affine *a;
    edan_reuse *tracker; /* the LRU stack distances, or */
    edan_cache *model;   /* the cache model (counts: where its loads found their data; pf: NULL or its
                            prefetchers), or */
    edan_whatif_model *counts;
    edan_prefetcher *pf;
    const edan_whatif_core *core;               /* its windows of loads (NULL: none) */
    uint64_t in_window;                         /* loads of the window so far */
    uint32_t missed[EDAN_CACHE_MAX_LEVELS + 1]; /* its misses by the level they reached */
    fuse_check *check;                          /* the fused order's dependences */
    const edan_affine_insn *insn;               /* the instruction of the access touch() gets */
    edan_lru_traffic *out;
    unsigned line_shift;
    bool nomem;
} replay;

bool edan_whatif_compatible(const edan_affine_nest *a, const edan_affine_nest *b)
{
    if (!a->single_chain || !b->single_chain || !a->rectangular || !b->rectangular || a->levels != b->levels ||
        a->entries != b->entries)
        return false;
    for (unsigned k = 0; k < a->levels; k++)
        if (a->trip[k] != b->trip[k])
            return false;
    return true;
}

bool edan_whatif_positions(const edan_affine *a, const edan_affine_nest *n, uint64_t *pos)
{
    if (n->single_chain) {
        memcpy(pos, n->extent, n->levels * sizeof *pos);
        return true;
    }
    edan_tree t;
    if (!edan_tree_make(a, n, &t))
        return false;
    memcpy(pos, t.extent, n->levels * sizeof *pos);
    edan_tree_free(&t);
    return true;
}

const char *edan_whatif_unfusable(const edan_affine *a, const edan_affine_nest *x, const edan_affine_nest *y)
{
    if (!x->rectangular || !y->rectangular)
        return "a non-rectangular nest";
    if (x->levels != y->levels)
        return "different depths";
    if (x->entries != y->entries)
        return "entered a different number of times";
    uint64_t px[L], py[L];
    if (!edan_whatif_positions(a, x, px) || !edan_whatif_positions(a, y, py))
        return "out of memory";
    if (memcmp(px, py, x->levels * sizeof *px))
        return "different iteration spaces";
    return NULL;
}

/* One access of [addr, addr + size) through the LRU stack (owner 0). */
/* The distance sink - source per level from their positions' ranks. */
static void rank_distance(const fuse_check *f, uint64_t source, uint64_t sink, edan_whatif_conflict *c)
{
    c->levels = f->levels;
    c->uniform = true;
    for (unsigned k = f->levels; k-- > 0;) {
        c->lo[k] = c->hi[k] = (int64_t)(sink % f->extent[k]) - (int64_t)(source % f->extent[k]);
        sink /= f->extent[k];
        source /= f->extent[k];
    }
}

/* An access of the fused order: a later nest's access made before it to a granule it stores (or, when it loads, a
 * later nest's store) breaks a dependence. */
static void check_access(replay *r, uint64_t addr, uint32_t size, bool store)
{
    fuse_check *f = r->check;
    const uint32_t id = (uint32_t)(r->insn - edan_affine_insns(r->a));
    for (uint64_t g = addr >> f->shift; g <= (addr + size - 1) >> f->shift && !f->broken; g++) {
        granule *v = edan_keymap_get(&f->map, g, 0, NULL);
        if (!v) {
            r->nomem = true;
            return;
        }
        const bool flow = store && v->ld_nest > f->nest, output = store && v->st_nest > f->nest,
                   anti = !store && v->st_nest > f->nest;
        if (flow || output || anti) {
            memset(f->c, 0, sizeof *f->c);
            f->c->kind = output ? EDAN_DEP_OUTPUT : flow ? EDAN_DEP_FLOW : EDAN_DEP_ANTI;
            f->c->source = id;
            f->c->sink = flow ? v->ld_insn : v->st_insn;
            rank_distance(f, f->rank, flow ? v->ld_rank : v->st_rank, f->c);
            f->broken = true;
            return;
        }
        if (store && f->nest >= v->st_nest)
            *v = (granule){v->ld_nest, f->nest, v->ld_insn, id, v->ld_rank, f->rank};
        if (!store && f->nest >= v->ld_nest)
            *v = (granule){f->nest, v->st_nest, id, v->st_insn, f->rank, v->st_rank};
    }
}

/* The window's misses in rounds of at most the MSHRs, the deepest first: each round waits for its deepest miss. */
static void close_window(replay *r)
{
    const uint32_t mshrs = r->core->mshrs ? r->core->mshrs : 1;
    uint32_t room = 0; /* misses the current round can still take */
    for (int j = EDAN_CACHE_MAX_LEVELS; j > 0; j--) {
        uint32_t m = r->missed[j];
        const uint32_t joined = m < room ? m : room;
        m -= joined;
        room -= joined;
        const uint32_t rounds = (m + mshrs - 1) / mshrs;
        r->counts->rounds[j] += rounds;
        room += rounds * mshrs - m;
    }
    memset(r->missed, 0, sizeof r->missed);
    r->in_window = 0;
}

static void touch(replay *r, uint64_t addr, uint32_t size, bool store)
{
    if (r->check) {
        check_access(r, addr, size, store);
        return;
    }
    if (r->model) { /* edan_cache_classify's access, with the level the data came from */
        const edan_cache_result cr = edan_cache_access(r->model, addr, size, store);
        if (!store) {
            r->counts->loads[cr.level]++;
            if (r->core && r->core->window) {
                r->missed[cr.level]++;
                if (++r->in_window == r->core->window)
                    close_window(r);
            }
        }
        if (r->pf)
            edan_prefetch_access(r->pf, r->model, r->insn->insn->pc, addr, &cr, false);
        return;
    }
    const uint64_t first = addr >> r->line_shift, last = (addr + size - 1) >> r->line_shift;
    for (uint64_t b = first; b <= last; b++) {
        uint64_t d = EDAN_REUSE_COLD, prev;
        uint32_t *word;
        if (edan_reuse_access_user(r->tracker, b, &d, &prev, &word) == EDAN_REUSE_NOMEM) {
            r->nomem = true;
            return;
        }
        edan_lru_traffic *t = r->out;
        t->accesses++;
        if (d == EDAN_REUSE_COLD)
            t->cold++;
        else
            t->reuse[edan_lru_bin(d)]++;
        const edan_lru_wb wb = edan_lru_step(word, d, store, 0);
        if (wb.lo < wb.hi)
            edan_lru_charge(t, wb.lo, wb.hi);
    }
}

/* The accesses of nest n at point i. */
static void point(replay *r, const edan_affine_nest *n, const uint64_t *i)
{
    const edan_affine_insn *in = edan_affine_insns(r->a) + n->first;
    for (size_t j = 0; j < n->n && !r->nomem; j++) {
        const edan_affine_insn *o = &in[j];
        bool at = true; /* an outer level's instruction runs where the deeper counters are 0 */
        for (unsigned k = o->levels; k < n->levels && at; k++)
            at = i[k] == 0;
        if (!at)
            continue;
        uint64_t addr = (uint64_t)o->base; /* wraps as addresses do */
        for (unsigned k = 0; k < o->levels; k++)
            addr += (uint64_t)o->stride[k] * i[k];
        r->insn = o;
        touch(r, addr, o->insn->mem_size, o->insn->mem != EDAN_MEM_LOAD);
    }
}

/* Advance odometer i over [lo, hi) per level (level 0 slowest); false after the last. */
static bool next(uint64_t *i, const uint64_t *lo, const uint64_t *hi, unsigned d)
{
    for (unsigned k = d; k-- > 0;) {
        if (++i[k] < hi[k])
            return true;
        i[k] = lo[k];
    }
    return false;
}

static bool empty(const uint64_t *lo, const uint64_t *hi, unsigned d)
{
    for (unsigned k = 0; k < d; k++)
        if (lo[k] >= hi[k])
            return true;
    return false;
}

/* Where a tree nest's loops run: the tile vector tv of tile T over the levels blocked, or, fused, one position of
 * every level (tv, T 1, every level blocked) with each loop's own instructions once per its iteration. */
typedef struct tree_at {
    const uint64_t *tv;
    uint64_t T;
    unsigned block;
    const uint64_t *last; /* fused: each level's last position; NULL: not fused */
} tree_at;

/* Fused: whether node x's own instruction j runs at this position of the deeper levels: the first position
 * when it comes before the node's inner loops, the last when after (the loop's own instructions run once per
 * iteration, around its inner loops, as the hand-fused code runs them). */
static bool tree_own_here(const edan_tree *t, const edan_tnode *v, size_t j, const tree_at *at)
{
    const bool before = !v->n_children || t->insns[j]->insn->pc < t->node[t->children[v->first_child]].min_pc;
    for (unsigned k = v->depth + 1; k < L; k++)
        if (at->tv[k] != (before ? 0 : at->last[k]))
            return false;
    return true;
}

/* Node x's iterations on the tile vector at->tv, at the outer levels' counters i, recursively. */
static void tree_run(replay *r, const edan_tree *t, size_t x, uint64_t *i, const tree_at *at)
{
    const edan_tnode *v = &t->node[x];
    const unsigned d = v->depth;
    const uint64_t T = at->T;
    const uint64_t trip = edan_tnode_trip(v, i); /* i: the outer counters */
    uint64_t lo = 0, hi = trip;
    if (T && (at->block & (1u << d))) { /* the iterations whose first position lies in [tv T, (tv + 1) T) */
        const uint64_t plo = at->tv[d] * T, phi = plo + T;
        lo = plo > v->off ? (plo - v->off + v->u - 1) / v->u : 0;
        hi = phi > v->off ? (phi - v->off + v->u - 1) / v->u : 0;
        hi = hi < trip ? hi : trip;
    }
    for (i[d] = lo; i[d] < hi && !r->nomem; i[d]++) {
        size_t c = v->first_child, j = v->first_insn; /* own instructions and children, merged by pc */
        while (!r->nomem && (c < v->first_child + v->n_children || j < v->first_insn + v->n_insns)) {
            if (j < v->first_insn + v->n_insns &&
                (c == v->first_child + v->n_children || t->insns[j]->insn->pc < t->node[t->children[c]].min_pc)) {
                if (at->last && !tree_own_here(t, v, j, at)) {
                    j++;
                    continue;
                }
                const int64_t shift = t->shift[j];
                const edan_affine_insn *o = r->insn = t->insns[j++];
                uint64_t addr = (uint64_t)o->base; /* wraps as addresses do */
                for (unsigned k = 0; k < o->levels; k++)
                    addr += (uint64_t)o->stride[k] * i[k];
                if (!at->last && T && d + 1 < L && (at->block & (2u << d)))
                    addr += (uint64_t)shift * at->tv[d + 1] * T;
                touch(r, addr, o->insn->mem_size, o->insn->mem != EDAN_MEM_LOAD);
            } else {
                tree_run(r, t, t->children[c++], i, at);
            }
        }
    }
}

/* A tree nest under the plan: the tile loops over its levels' positions outside, the nest inside. */
static void tree_nest(replay *r, const edan_affine_nest *n, const edan_whatif_plan *p)
{
    edan_tree t;
    if (!edan_tree_make(r->a, n, &t)) {
        r->nomem = true;
        return;
    }
    uint64_t tv[L] = {0}, tlo[L] = {0}, thi[L], i[L] = {0};
    for (unsigned k = 0; k < L; k++)
        thi[k] = p->tile && (p->block & (1u << k)) && t.extent[k] ? (t.extent[k] + p->tile - 1) / p->tile : 1;
    const tree_at at = {tv, p->tile, p->block, NULL};
    do
        tree_run(r, &t, 0, i, &at);
    while (!r->nomem && next(tv, tlo, thi, L));
    edan_tree_free(&t);
}

/* Nests g[0 .. m) fused, one of them at least a tree (edan_whatif_fusable: the same positions per level): at each
 * position of every level, each nest's iterations that start there, one nest after the other. */
static void tree_fused(replay *r, const edan_affine_nest *const *g, size_t m)
{
    edan_tree t[EDAN_WHATIF_GROUP];
    size_t made = 0;
    for (; made < m && made < EDAN_WHATIF_GROUP; made++)
        if (!edan_tree_make(r->a, g[made], &t[made])) {
            r->nomem = true;
            break;
        }
    uint64_t tv[L] = {0}, tlo[L] = {0}, thi[L], last[L], i[L] = {0};
    for (unsigned k = 0; k < L; k++) {
        thi[k] = made && t[0].extent[k] ? t[0].extent[k] : 1;
        last[k] = thi[k] - 1;
    }
    const tree_at at = {tv, 1, (1u << L) - 1, last};
    if (!r->nomem)
        do {
            for (size_t x = 0; x < made && !r->nomem; x++) {
                if (r->check)
                    r->check->nest = (uint32_t)x + 1;
                tree_run(r, &t[x], 0, i, &at);
            }
            if (r->check && r->check->broken)
                break;
            if (r->check)
                r->check->rank++;
        } while (!r->nomem && next(tv, tlo, thi, L));
    for (size_t x = 0; x < made; x++)
        edan_tree_free(&t[x]);
}

bool edan_tree_fuse_legal(const edan_affine *a, const edan_affine_nest *const *g, size_t m, edan_whatif_conflict *c,
                          bool *nomem)
{
    fuse_check f = {.shift = 3, .c = c, .levels = g[0]->levels};
    for (size_t x = 0; x < m; x++) /* granules of the smallest access: two accesses in one granule meet */
        for (size_t j = g[x]->first; j < g[x]->first + g[x]->n; j++) {
            const uint32_t size = edan_affine_insns(a)[j].insn->mem_size;
            while (f.shift && (1u << f.shift) > size)
                f.shift--;
        }
    edan_tree t;
    uint64_t extent[L];
    if (!edan_tree_make(a, g[0], &t)) {
        *nomem = true;
        return false;
    }
    memcpy(extent, t.extent, sizeof extent);
    edan_tree_free(&t);
    f.extent = extent;
    if (edan_keymap_init(&f.map, sizeof(granule))) {
        *nomem = true;
        return false;
    }
    replay r = {.a = a, .check = &f};
    tree_fused(&r, g, m);
    edan_keymap_free(&f.map);
    *nomem = r.nomem;
    return !r.nomem && !f.broken;
}

/* The end of level k's range at the outer counters i: the box's, cut at a bounded nest's trip count there. */
static uint64_t level_hi(const edan_affine_nest *n, const uint64_t *i, const uint64_t *hi, unsigned k)
{
    if (n->trip[k])
        return hi[k];
    uint64_t b = (uint64_t)n->bound_base[k]; /* wraps as addresses do; a negative count is 0 */
    for (unsigned m = 0; m < k; m++)
        b += (uint64_t)n->bound_stride[k][m] * i[m];
    return (int64_t)b < 0 ? 0 : b < hi[k] ? b : hi[k];
}

/* A bounded nest's odometer: levels below k valid, i[k] a candidate; on to the first point from there (false: none). */
static bool settle(const edan_affine_nest *n, uint64_t *i, const uint64_t *lo, const uint64_t *hi, unsigned d,
                   unsigned k)
{
    for (;;) {
        if (k == d)
            return true;
        if (i[k] < level_hi(n, i, hi, k)) {
            if (++k < d)
                i[k] = lo[k];
            continue;
        }
        if (k == 0)
            return false;
        i[--k]++;
    }
}

/* The points of nests g[0 .. m) in the box [lo, hi): one nest after another, or all at each point; a nest's box
 * widened by its halo h[x] (h NULL: none), clipped to its domain. */
static void box(replay *r, const edan_affine_nest *const *g, size_t m, const uint64_t *lo, const uint64_t *hi,
                bool fused, const edan_whatif_halo *h)
{
    const unsigned d = g[0]->levels;
    if (empty(lo, hi, d))
        return;
    uint64_t i[L];
    if (!g[0]->rectangular) { /* a bounded nest: alone (edan_whatif_compatible), no halo */
        memcpy(i, lo, sizeof i);
        for (bool more = settle(g[0], i, lo, hi, d, 0); more && !r->nomem;
             i[d - 1]++, more = settle(g[0], i, lo, hi, d, d - 1))
            point(r, g[0], i);
        return;
    }
    if (fused) {
        memcpy(i, lo, sizeof i);
        do
            for (size_t x = 0; x < m; x++)
                point(r, g[x], i);
        while (!r->nomem && next(i, lo, hi, d));
        return;
    }
    for (size_t x = 0; x < m && !r->nomem; x++) {
        uint64_t wlo[L] = {0}, whi[L] = {0};
        for (unsigned k = 0; k < d; k++) {
            const uint64_t below = h ? h[x].lo[k] : 0, above = h ? h[x].hi[k] : 0;
            wlo[k] = below < lo[k] ? lo[k] - below : 0;
            whi[k] = above < g[x]->trip[k] - hi[k] ? hi[k] + above : g[x]->trip[k];
        }
        memcpy(i, wlo, sizeof i);
        do
            point(r, g[x], i);
        while (!r->nomem && next(i, wlo, whi, d));
    }
}

/* The block of tile vector t on level k: [lo, hi). */
static void block_of(const edan_affine_nest *n, const edan_whatif_plan *p, const uint64_t *t, uint64_t *lo,
                     uint64_t *hi)
{
    for (unsigned k = 0; k < n->levels; k++) {
        const bool blocked = p->tile && (p->block & (1u << k));
        lo[k] = blocked ? t[k] * p->tile : 0;
        hi[k] = blocked ? (lo[k] + p->tile < n->extent[k] ? lo[k] + p->tile : n->extent[k]) : n->extent[k];
    }
}

/* Nests g[0 .. m) (compatible) under the plan: the tile loops outside, the nests' boxes inside; h: their halos. */
static void group(replay *r, const edan_affine_nest *const *g, size_t m, const edan_whatif_plan *p,
                  const edan_whatif_halo *h)
{
    const edan_affine_nest *n = g[0];
    const unsigned d = n->levels;
    if (p->order == EDAN_WHATIF_POINT && m > 1) {
        bool tree = false;
        for (size_t x = 0; x < m; x++)
            tree |= !g[x]->single_chain;
        if (tree) { /* fused with a tree nest: every nest of the group as a tree, over their positions */
            tree_fused(r, g, m);
            return;
        }
    }
    if (!n->single_chain) { /* alone under every other order (edan_whatif_compatible) */
        tree_nest(r, n, p);
        return;
    }
    uint64_t t[L] = {0}, tlo[L] = {0}, thi[L], lo[L] = {0}, hi[L] = {0};
    for (unsigned k = 0; k < d; k++) {
        const bool blocked = p->tile && (p->block & (1u << k));
        thi[k] = blocked ? (n->extent[k] + p->tile - 1) / p->tile : 1;
    }
    if (p->order != EDAN_WHATIF_EACH) {
        do {
            block_of(n, p, t, lo, hi);
            box(r, g, m, lo, hi, p->order == EDAN_WHATIF_POINT, p->order == EDAN_WHATIF_TILE ? h : NULL);
        } while (!r->nomem && next(t, tlo, thi, d));
        return;
    }
    for (size_t x = 0; x < m && !r->nomem; x++) { /* each nest over the whole domain in turn */
        memset(t, 0, sizeof t);
        do {
            block_of(n, p, t, lo, hi);
            box(r, &g[x], 1, lo, hi, false, NULL);
        } while (!r->nomem && next(t, tlo, thi, d));
    }
}

/* A block after the replay: its write-back after its last access, or its final flush (as the projection's). */
static void final_block(void *ctx, uint64_t b, uint64_t f, uint32_t word)
{
    (void)b;
    edan_lru_traffic *t = ctx;
    unsigned dirty_from;
    const edan_lru_wb wb = edan_lru_finish(word, f, &dirty_from);
    if (!(word & EDAN_LRU_DIRTY))
        return;
    if (wb.lo < wb.hi)
        edan_lru_charge(t, wb.lo, wb.hi);
    t->end_diff[dirty_from]++;
    t->end_diff[EDAN_LRU_SIZES]--;
}

/* The groups in turn: those entered alike per entry (a function holding them called again), others apart. */
static void run(replay *r, const uint32_t *nests, const size_t *start, size_t n_groups, const edan_whatif_plan *plan)
{
    const edan_affine_nest *all = edan_affine_nests(r->a);
    bool alike = true;
    for (size_t gi = 1; gi < n_groups; gi++)
        alike &= all[nests[start[gi]]].entries == all[nests[start[0]]].entries;
    const uint64_t rounds = alike && n_groups ? all[nests[start[0]]].entries : 1;
    for (uint64_t e = 0; e < rounds && !r->nomem; e++)
        for (size_t gi = 0; gi < n_groups && !r->nomem; gi++) {
            const edan_affine_nest *g[EDAN_WHATIF_GROUP];
            size_t m = 0;
            for (size_t x = start[gi]; x < start[gi + 1] && m < EDAN_WHATIF_GROUP; x++)
                g[m++] = &all[nests[x]];
            const edan_whatif_halo *h = plan->halo ? plan->halo + start[gi] : NULL;
            for (uint64_t f = 0; m && f < (alike ? 1 : g[0]->entries) && !r->nomem; f++)
                group(r, g, m, plan, h);
        }
}

int edan_whatif_replay(const edan_affine *a, const uint32_t *nests, const size_t *start, size_t n_groups,
                       const edan_whatif_plan *plan, unsigned line_shift, edan_lru_traffic *out)
{
    memset(out, 0, sizeof *out);
    replay r = {.a = a, .tracker = edan_reuse_new(true), .out = out, .line_shift = line_shift};
    if (!r.tracker)
        return -1;
    run(&r, nests, start, n_groups, plan);
    if (!r.nomem)
        edan_reuse_final(r.tracker, final_block, out);
    edan_reuse_free(r.tracker);
    return r.nomem ? -1 : 0;
}

int edan_whatif_replay_cache(const edan_affine *a, const uint32_t *nests, const size_t *start, size_t n_groups,
                             const edan_whatif_plan *plan, const edan_cache_config *cfg, const edan_whatif_core *core,
                             edan_whatif_model *out, edan_error *err)
{
    memset(out, 0, sizeof *out);
    edan_cache c;
    if (edan_cache_init(&c, cfg, err))
        return -1;
    const bool pf = core && core->pf;
    edan_prefetcher p = {0};
    if (pf && edan_prefetch_init(&p, core->pf, core->hit, cfg->n_levels, cfg->level[0].line, err)) {
        edan_cache_free(&c);
        return -1;
    }
    replay r = {.a = a, .model = &c, .counts = out, .pf = pf && p.any ? &p : NULL, .core = core};
    run(&r, nests, start, n_groups, plan);
    if (core && core->window && r.in_window) /* the last window, partly filled */
        close_window(&r);
    if (pf)
        edan_prefetch_free(&p);
    edan_proj_range *dirty = NULL;
    size_t n = 0;
    const int rc = edan_proj_cache_dirty(&c, &dirty, &n);
    out->read = c.ram_read_bytes;
    for (size_t i = 0; i < n; i++)
        out->flushed += dirty[i].hi - dirty[i].lo;
    out->write = c.ram_write_bytes + out->flushed;
    free(dirty);
    edan_cache_free(&c);
    if (rc)
        edan_error_set(err, "out of memory");
    return rc ? -1 : 0;
}

double edan_whatif_bytes(const edan_lru_traffic *t, unsigned k, unsigned line_shift)
{
    return (double)(edan_lru_reads(t, k) + edan_lru_writes(t, k)) * (double)(1u << line_shift);
}
