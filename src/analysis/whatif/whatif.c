/*
 * whatif.c - blocking and fusion what-ifs: the accesses of affine nests
 * replayed in the transformed order through LRU stack distances
 * (whatif.h says which order).
 */
#include "analysis/whatif/whatif.h"

#include <string.h>

#include "analysis/locality/locality.h"

#define L EDAN_AFFINE_LEVELS

typedef struct replay {
    const edan_affine *a;
    edan_reuse *tracker;
    edan_lru_traffic *out;
    unsigned line_shift;
    bool nomem;
} replay;

bool edan_whatif_compatible(const edan_affine_nest *a, const edan_affine_nest *b)
{
    if (a->levels != b->levels || a->entries != b->entries)
        return false;
    for (unsigned k = 0; k < a->levels; k++)
        if (a->trip[k] != b->trip[k])
            return false;
    return true;
}

/* One access of [addr, addr + size) through the LRU stack (owner 0). */
static void touch(replay *r, uint64_t addr, uint32_t size, bool store)
{
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

/* The points of nests g[0 .. m) in the box [lo, hi): one nest after another, or all at each point. */
static void box(replay *r, const edan_affine_nest *const *g, size_t m, const uint64_t *lo, const uint64_t *hi,
                bool fused)
{
    const unsigned d = g[0]->levels;
    if (empty(lo, hi, d))
        return;
    uint64_t i[L];
    if (fused) {
        memcpy(i, lo, sizeof i);
        do
            for (size_t x = 0; x < m; x++)
                point(r, g[x], i);
        while (!r->nomem && next(i, lo, hi, d));
        return;
    }
    for (size_t x = 0; x < m && !r->nomem; x++) {
        memcpy(i, lo, sizeof i);
        do
            point(r, g[x], i);
        while (!r->nomem && next(i, lo, hi, d));
    }
}

/* Nests g[0 .. m) (compatible) under the plan: the tile loops outside, the nests' boxes inside. */
static void group(replay *r, const edan_affine_nest *const *g, size_t m, const edan_whatif_plan *p)
{
    const edan_affine_nest *n = g[0];
    const unsigned d = n->levels;
    uint64_t t[L] = {0}, tlo[L] = {0}, thi[L], lo[L] = {0}, hi[L];
    for (unsigned k = 0; k < d; k++) {
        const bool blocked = p->tile && (p->block & (1u << k));
        thi[k] = blocked ? (n->trip[k] + p->tile - 1) / p->tile : 1;
        hi[k] = n->trip[k];
    }
    memcpy(t, tlo, sizeof t);
    do {
        for (unsigned k = 0; k < d; k++) {
            const bool blocked = p->tile && (p->block & (1u << k));
            lo[k] = blocked ? t[k] * p->tile : 0;
            hi[k] = blocked ? (lo[k] + p->tile < n->trip[k] ? lo[k] + p->tile : n->trip[k]) : n->trip[k];
        }
        if (p->order == EDAN_WHATIF_EACH) /* each nest over the whole domain in turn */
            break;
        box(r, g, m, lo, hi, p->order == EDAN_WHATIF_POINT);
    } while (!r->nomem && next(t, tlo, thi, d));
    if (p->order != EDAN_WHATIF_EACH)
        return;
    for (size_t x = 0; x < m && !r->nomem; x++) {
        memset(t, 0, sizeof t);
        do {
            for (unsigned k = 0; k < d; k++) {
                const bool blocked = p->tile && (p->block & (1u << k));
                lo[k] = blocked ? t[k] * p->tile : 0;
                hi[k] = blocked ? (lo[k] + p->tile < n->trip[k] ? lo[k] + p->tile : n->trip[k]) : n->trip[k];
            }
            box(r, &g[x], 1, lo, hi, false);
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

int edan_whatif_replay(const edan_affine *a, const uint32_t *nests, const size_t *start, size_t n_groups,
                       const edan_whatif_plan *plan, unsigned line_shift, edan_lru_traffic *out)
{
    memset(out, 0, sizeof *out);
    replay r = {a, edan_reuse_new(true), out, line_shift, false};
    if (!r.tracker)
        return -1;
    const edan_affine_nest *all = edan_affine_nests(a);
    /* the groups entered alike run in turn per entry (a function holding them called again), others apart */
    bool alike = true;
    for (size_t gi = 1; gi < n_groups; gi++)
        alike &= all[nests[start[gi]]].entries == all[nests[start[0]]].entries;
    const uint64_t rounds = alike && n_groups ? all[nests[start[0]]].entries : 1;
    for (uint64_t e = 0; e < rounds && !r.nomem; e++)
        for (size_t gi = 0; gi < n_groups && !r.nomem; gi++) {
            const edan_affine_nest *g[64];
            size_t m = 0;
            for (size_t x = start[gi]; x < start[gi + 1] && m < 64; x++)
                g[m++] = &all[nests[x]];
            for (uint64_t f = 0; m && f < (alike ? 1 : g[0]->entries) && !r.nomem; f++)
                group(&r, g, m, plan);
        }
    if (!r.nomem)
        edan_reuse_final(r.tracker, final_block, out);
    edan_reuse_free(r.tracker);
    return r.nomem ? -1 : 0;
}

double edan_whatif_bytes(const edan_lru_traffic *t, unsigned k, unsigned line_shift)
{
    return (double)(edan_lru_reads(t, k) + edan_lru_writes(t, k)) * (double)(1u << line_shift);
}
