/*
 * whatif_check.c - whether a what-if's plan keeps every dependence of the
 * nests it transforms (whatif.h's edan_whatif_check).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/whatif/whatif.h"
#include "analysis/whatif/whatif_tree.h"

#define L EDAN_AFFINE_LEVELS

/* ===================================================================== */
/* Dependences                                                            */
/* ===================================================================== */

/* The distances (b's point - a's point) per level at which two accesses touch a common byte: ranges. */
typedef struct dist {
    int64_t lo[L], hi[L];
    bool uniform;
} dist;

/* What a plan does to one group's levels: which are blocked into more than one tile, and the tile. */
typedef struct tiling {
    const uint64_t *trip;
    unsigned d, block;
    int64_t tile;
} tiling;

static int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
    return a / b - (a % b != 0 && a < 0);
}

/* [lo, hi): the bytes an access function reaches over trips trip. */
static void footprint(const edan_affine_insn *o, const uint64_t *trip, int64_t *lo, int64_t *hi)
{
    int64_t a = o->base, b = o->base;
    for (unsigned k = 0; k < o->levels; k++) {
        const int64_t span = o->stride[k] * (int64_t)(trip[k] - 1);
        if (span < 0)
            a += span;
        else
            b += span;
    }
    *lo = a;
    *hi = b + (int64_t)o->insn->mem_size;
}

/* Integer solutions x (= q - r) of S x = rem with |x_k| < trip_k, level by level from the largest stride. */
typedef struct solver {
    const int64_t *s;
    const uint64_t *trip;
    unsigned order[L], m;
    int64_t reach[L + 1]; /* reach[j]: the sum of |s| (trip - 1) over order[j ..] */
    int64_t size_a, size_b;
    int64_t x[L];
    dist *e;
    unsigned found, visited;
    bool overflow;
} solver;

static void solve(solver *v, unsigned j, int64_t rem)
{
    if (v->overflow || ++v->visited > 64 * EDAN_WHATIF_SOLUTIONS) {
        v->overflow = true;
        return;
    }
    if (j == v->m) { /* the bytes [A, A + size_a) and [B, B + size_b) meet: B - A = rem */
        if (rem <= -v->size_a || rem >= v->size_b)
            return;
        if (++v->found > EDAN_WHATIF_SOLUTIONS) {
            v->overflow = true;
            return;
        }
        for (unsigned i = 0; i < v->m; i++) {
            const unsigned k = v->order[i];
            const int64_t e = -v->x[k];
            if (v->found == 1 || e < v->e->lo[k])
                v->e->lo[k] = e;
            if (v->found == 1 || e > v->e->hi[k])
                v->e->hi[k] = e;
        }
        return;
    }
    const unsigned k = v->order[j];
    const int64_t t = (int64_t)v->trip[k] - 1, a = v->s[k] < 0 ? -v->s[k] : v->s[k];
    /* rem - s x must stay within what the smaller levels and the sizes can make up */
    const int64_t lo = rem - v->reach[j + 1] - v->size_b + 1, hi = rem + v->reach[j + 1] + v->size_a - 1;
    int64_t xlo = -floor_div(-lo, a), xhi = floor_div(hi, a); /* s x in [lo, hi] for s > 0 */
    if (v->s[k] < 0) {
        const int64_t y = xlo;
        xlo = -xhi;
        xhi = -y;
    }
    if (xlo < -t)
        xlo = -t;
    if (xhi > t)
        xhi = t;
    for (int64_t x = xlo; x <= xhi && !v->overflow; x++) {
        v->x[k] = x;
        solve(v, j + 1, rem - v->s[k] * x);
    }
}

/* Whether a and b (in nests of trips trip, d levels) touch a common byte; *e their distances b - a. */
static bool distance(const edan_affine_insn *a, const edan_affine_insn *b, const uint64_t *trip, unsigned d, dist *e)
{
    int64_t alo, ahi, blo, bhi;
    footprint(a, trip, &alo, &ahi);
    footprint(b, trip, &blo, &bhi);
    if (ahi <= blo || bhi <= alo)
        return false;
    int64_t sa[L] = {0}, sb[L] = {0};
    memcpy(sa, a->stride, a->levels * sizeof *sa);
    memcpy(sb, b->stride, b->levels * sizeof *sb);
    for (unsigned k = 0; k < d; k++) { /* any distance, unless the strides tell; an outer level's access is at 0 */
        e->lo[k] = k < a->levels ? 1 - (int64_t)trip[k] : 0;
        e->hi[k] = k < b->levels ? (int64_t)trip[k] - 1 : 0;
    }
    e->uniform = false;
    if (memcmp(sa, sb, sizeof sa))
        return true;
    dist found = *e;
    solver v = {.s = sa, .trip = trip, .size_a = a->insn->mem_size, .size_b = b->insn->mem_size, .e = &found};
    bool free_level = false;
    for (unsigned k = 0; k < d; k++) {
        if (!sa[k]) {
            free_level |= e->lo[k] < e->hi[k];
            continue;
        }
        unsigned j = v.m++;
        for (; j > 0 && llabs(sa[v.order[j - 1]]) < llabs(sa[k]); j--)
            v.order[j] = v.order[j - 1];
        v.order[j] = k;
    }
    for (unsigned j = v.m; j-- > 0;)
        v.reach[j] = v.reach[j + 1] + llabs(sa[v.order[j]]) * ((int64_t)trip[v.order[j]] - 1);
    solve(&v, 0, b->base - a->base);
    if (v.overflow)
        return true;
    if (!v.found)
        return false;
    *e = found;
    e->uniform = v.found == 1 && !free_level;
    return true;
}

static bool blocked(const tiling *g, unsigned k)
{
    return g->tile && (g->block & (1u << k)) && (uint64_t)g->tile < g->trip[k];
}

static bool has_zero(const dist *e, unsigned k)
{
    return e->lo[k] <= 0 && e->hi[k] >= 0;
}

static bool has_sign(const dist *e, unsigned k, int s)
{
    return s > 0 ? e->hi[k] >= 1 : e->lo[k] <= -1;
}

/* A distance on level k that keeps the tile, of sign s (0: any). */
static bool same_tile(const tiling *g, const dist *e, unsigned k, int s)
{
    if (!blocked(g, k))
        return s ? has_sign(e, k, s) : true;
    int64_t lo = e->lo[k], hi = e->hi[k];
    if (s > 0 && lo < 1)
        lo = 1;
    if (s < 0 && hi > -1)
        hi = -1;
    if (lo < 1 - g->tile)
        lo = 1 - g->tile;
    if (hi > g->tile - 1)
        hi = g->tile - 1;
    return lo <= hi;
}

/* A tile change of sign s on level k. */
static bool crosses(const tiling *g, const dist *e, unsigned k, int s)
{
    return blocked(g, k) && has_sign(e, k, s);
}

/* Tiling one nest: the sign s of a first nonzero distance whose first tile change can be -s; 0 when none. */
static int tiling_breaks(const tiling *g, const dist *e)
{
    for (unsigned ke = 0; ke < g->d; ke++) {
        for (int s = -1; s <= 1; s += 2) {
            if (!same_tile(g, e, ke, s))
                continue;
            for (unsigned kt = ke + 1; kt < g->d; kt++) {
                if (crosses(g, e, kt, -s))
                    return s;
                if (!same_tile(g, e, kt, 0))
                    break;
            }
        }
        if (!has_zero(e, ke))
            break;
    }
    return 0;
}

/* A later nest's point in an earlier tile than an earlier nest's (the tile scheme). */
static bool tiles_reverse(const tiling *g, const dist *e)
{
    for (unsigned k = 0; k < g->d; k++) {
        if (crosses(g, e, k, -1))
            return true;
        if (!same_tile(g, e, k, 0))
            return false;
    }
    return false;
}

/* A later nest's point before an earlier nest's (fusion). */
static bool points_reverse(const dist *e, unsigned d)
{
    for (unsigned k = 0; k < d; k++) {
        if (has_sign(e, k, -1))
            return true;
        if (!has_zero(e, k))
            return false;
    }
    return false;
}

/* The conflict of accesses i then j (indices into insns), distances e (j's point - i's). */
static void conflict(const edan_affine_insn *in, uint32_t i, uint32_t j, const dist *e, unsigned d, bool swap,
                     bool recomputed, edan_whatif_conflict *c)
{
    memset(c, 0, sizeof *c);
    c->source = swap ? j : i;
    c->sink = swap ? i : j;
    const bool src_store = in[c->source].insn->mem != EDAN_MEM_LOAD, snk_store = in[c->sink].insn->mem != EDAN_MEM_LOAD;
    c->kind = src_store && snk_store ? EDAN_DEP_OUTPUT : src_store ? EDAN_DEP_FLOW : EDAN_DEP_ANTI;
    c->uniform = e->uniform;
    c->recomputed = recomputed;
    c->levels = d;
    for (unsigned k = 0; k < d; k++) {
        c->lo[k] = swap ? -e->hi[k] : e->lo[k];
        c->hi[k] = swap ? -e->lo[k] : e->hi[k];
    }
}

/* The halos of a group's nests g[0 .. m) under the tile scheme: what each later nest reads of an earlier one. */
static void halos(const edan_affine *a, const edan_affine_nest *const *g, size_t m, const tiling *t,
                  edan_whatif_halo *h)
{
    const edan_affine_insn *in = edan_affine_insns(a);
    for (size_t y = m; y-- > 1;)
        for (size_t x = 0; x < y; x++)
            for (size_t i = g[x]->first; i < g[x]->first + g[x]->n; i++)
                for (size_t j = g[y]->first; j < g[y]->first + g[y]->n; j++) {
                    dist e;
                    if (in[i].insn->mem == EDAN_MEM_LOAD || in[j].insn->mem != EDAN_MEM_LOAD ||
                        !distance(&in[i], &in[j], t->trip, t->d, &e))
                        continue;
                    for (unsigned k = 0; k < t->d; k++) { /* x must make the points y's box reads: r - e */
                        if (!blocked(t, k))
                            continue;
                        const uint64_t lo = h[y].lo[k] + (uint64_t)(e.hi[k] > 0 ? e.hi[k] : 0);
                        const uint64_t hi = h[y].hi[k] + (uint64_t)(e.lo[k] < 0 ? -e.lo[k] : 0);
                        h[x].lo[k] = lo > h[x].lo[k] ? (lo < t->trip[k] ? lo : t->trip[k]) : h[x].lo[k];
                        h[x].hi[k] = hi > h[x].hi[k] ? (hi < t->trip[k] ? hi : t->trip[k]) : h[x].hi[k];
                    }
                }
    for (size_t x = 0; x < m; x++) { /* the points of every widened block, less the domain's */
        uint64_t made = 1, domain = 1;
        for (unsigned k = 0; k < t->d; k++) {
            uint64_t sum = t->trip[k];
            if (blocked(t, k)) {
                sum = 0;
                for (uint64_t lo = 0; lo < t->trip[k]; lo += (uint64_t)t->tile) {
                    const uint64_t hi = lo + (uint64_t)t->tile < t->trip[k] ? lo + (uint64_t)t->tile : t->trip[k];
                    const uint64_t wlo = h[x].lo[k] < lo ? lo - h[x].lo[k] : 0;
                    const uint64_t whi = h[x].hi[k] < t->trip[k] - hi ? hi + h[x].hi[k] : t->trip[k];
                    sum += whi - wlo;
                }
            }
            made *= sum;
            domain *= t->trip[k];
        }
        h[x].redundant = (made - domain) * g[x]->entries;
    }
}

/*
 * Tiling a tree nest: two accesses whose loops share each level's
 * positions (the same loops, or continued siblings) as a chain's, over
 * their access functions in positions and the levels' extents (a superset
 * of their points: conservative); two of other sibling loops, at least one
 * a store, that can touch a common byte (their footprints meet) break any
 * tiling: their order across the siblings is not followed (conservative).
 */
static bool tree_legal(const edan_affine *a, const edan_affine_nest *n, const edan_whatif_plan *plan,
                       edan_whatif_conflict *c, bool *nomem)
{
    const edan_affine_insn *in = edan_affine_insns(a);
    edan_tree t;
    if (!plan->tile)
        return true; /* as it ran */
    if (!edan_tree_make(a, n, &t)) {
        *nomem = true;
        return false;
    }
    bool legal = true;
    for (size_t i = n->first; i < n->first + n->n && legal; i++)
        for (size_t j = i; j < n->first + n->n && legal; j++) {
            if (in[i].insn->mem == EDAN_MEM_LOAD && in[j].insn->mem == EDAN_MEM_LOAD)
                continue;
            edan_affine_insn x, y;
            size_t px[L], py[L];
            const unsigned d = in[i].levels > in[j].levels ? in[i].levels : in[j].levels;
            bool comparable = edan_tree_positions(&t, &in[i], &x, px) && edan_tree_positions(&t, &in[j], &y, py);
            for (unsigned k = 0; comparable && k < in[i].levels && k < in[j].levels; k++)
                comparable = edan_tree_one_index(&t, px[k], py[k]) || edan_tree_one_index(&t, py[k], px[k]);
            dist e;
            if (comparable) {
                const tiling g = {t.extent, d, plan->block, (int64_t)plan->tile};
                const int s = distance(&x, &y, t.extent, d, &e) ? tiling_breaks(&g, &e) : 0;
                if (s) {
                    conflict(in, (uint32_t)i, (uint32_t)j, &e, d, s < 0, false, c);
                    legal = false;
                }
                continue;
            }
            int64_t xlo, xhi, ylo, yhi;
            uint64_t ti[L] = {0}, tj[L] = {0}; /* their loops' largest trip counts (a bounded tree's vary) */
            for (unsigned k = 0; k < in[i].levels; k++)
                ti[k] = t.node[edan_tree_find(&t, in[i].loop[k])].most;
            for (unsigned k = 0; k < in[j].levels; k++)
                tj[k] = t.node[edan_tree_find(&t, in[j].loop[k])].most;
            footprint(&in[i], ti, &xlo, &xhi);
            footprint(&in[j], tj, &ylo, &yhi);
            if (xhi <= ylo || yhi <= xlo)
                continue;
            for (unsigned k = 0; k < d; k++) {
                e.lo[k] = 1 - (int64_t)t.extent[k];
                e.hi[k] = (int64_t)t.extent[k] - 1;
            }
            e.uniform = false;
            conflict(in, (uint32_t)i, (uint32_t)j, &e, d, false, false, c);
            legal = false;
        }
    edan_tree_free(&t);
    return legal;
}

bool edan_whatif_check(const edan_affine *a, const uint32_t *nests, const size_t *start, size_t n_groups,
                       const edan_whatif_plan *plan, edan_whatif_halo *halo, edan_whatif_conflict *c)
{
    memset(halo, 0, start[n_groups] * sizeof *halo);
    const edan_affine_nest *all = edan_affine_nests(a);
    const edan_affine_insn *in = edan_affine_insns(a);
    for (size_t gi = 0; gi < n_groups; gi++) {
        const edan_affine_nest *g[EDAN_WHATIF_GROUP];
        size_t m = 0;
        for (size_t x = start[gi]; x < start[gi + 1] && m < EDAN_WHATIF_GROUP; x++)
            g[m++] = &all[nests[x]];
        if (!m)
            continue;
        edan_whatif_halo *h = halo + start[gi];
        bool tree = false;
        for (size_t x = 0; x < m; x++)
            tree |= !g[x]->single_chain;
        if (tree) { /* a tree nest: alone in its group, or fused */
            bool nomem = false;
            const bool ok = m > 1 ? edan_tree_fuse_legal(a, g, m, c, &nomem) : tree_legal(a, g[0], plan, c, &nomem);
            if (!ok) {
                if (nomem) /* no verdict: called illegal, never replayed on a guess */
                    memset(c, 0, sizeof *c);
                return false;
            }
            continue;
        }
        const tiling t = {g[0]->extent, g[0]->levels, plan->block, (int64_t)plan->tile}; /* a bounded nest's box */
        const bool scheme = plan->order == EDAN_WHATIF_TILE && plan->tile;
        if (scheme)
            halos(a, g, m, &t, h);
        for (size_t x = 0; x < m; x++)
            for (size_t y = x; y < m; y++)
                for (size_t i = g[x]->first; i < g[x]->first + g[x]->n; i++)
                    for (size_t j = x == y ? i : g[y]->first; j < g[y]->first + g[y]->n; j++) {
                        dist e;
                        if ((in[i].insn->mem == EDAN_MEM_LOAD && in[j].insn->mem == EDAN_MEM_LOAD) ||
                            !distance(&in[i], &in[j], t.trip, t.d, &e))
                            continue;
                        if (x == y && scheme && h[x].redundant) { /* recomputing a nest that depends on itself */
                            bool moves = i != j;
                            for (unsigned k = 0; k < t.d && !moves; k++)
                                moves = e.lo[k] || e.hi[k];
                            if (moves) {
                                conflict(in, (uint32_t)i, (uint32_t)j, &e, t.d, false, true, c);
                                return false;
                            }
                        } else if (x == y) {
                            const int s = tiling_breaks(&t, &e);
                            if (s) {
                                conflict(in, (uint32_t)i, (uint32_t)j, &e, t.d, s < 0, false, c);
                                return false;
                            }
                        } else if (plan->order == EDAN_WHATIF_POINT && points_reverse(&e, t.d)) {
                            conflict(in, (uint32_t)i, (uint32_t)j, &e, t.d, false, false, c);
                            return false;
                        } else if (scheme && !(in[i].insn->mem != EDAN_MEM_LOAD && in[j].insn->mem == EDAN_MEM_LOAD)) {
                            const bool again = h[x].redundant || h[y].redundant;
                            if (again || tiles_reverse(&t, &e)) {
                                conflict(in, (uint32_t)i, (uint32_t)j, &e, t.d, false, again, c);
                                return false;
                            }
                        }
                    }
    }
    return true;
}
