#include "analysis/deps.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/shadow.h"

/*
 * The last write of a register or byte. All-zero means never written: F = 0
 * and md = 0 are the identities of the max() taken over predecessors, and
 * by = 0 names no vertex, so zero_page (shadow.h) reads as "no writer".
 */
typedef struct deps_write {
    uint64_t F;  /* its finish time */
    uint64_t by; /* its index + 1; 0 = never written */
    uint32_t md;
    uint32_t pad;
} deps_write;

/*
 * The reads of a register or byte since its last write (false_deps only),
 * all-zero when there were none: the latest finish and the earliest reader
 * that has it, the largest md and the earliest reader that has it, and with
 * EDAN_DEPS_ALL_PREDS the list of every reader.
 */
typedef struct deps_reads {
    uint64_t F, F_by;
    uint64_t md_by;
    uint64_t list; /* head of a reader list (node index + 1), 0 = empty */
    uint32_t md;
    uint32_t pad;
} deps_reads;

_Static_assert(sizeof(deps_write) == 24 && sizeof(deps_reads) == 40, "shadow records are multiples of 8 bytes");

/*
 * A shadow unit covers EDAN_SHADOW_UNIT guest bytes: its record is their
 * deps_write states, then with false_deps their deps_reads states.
 */
#define UNIT_WRITES (EDAN_SHADOW_UNIT * sizeof(deps_write))

typedef struct reader_node {
    uint64_t v, next; /* next: node index + 1, 0 = end */
} reader_node;

/* The best predecessors seen so far (by: index + 1, 0 = none); ties keep the earliest vertex. */
typedef struct pick {
    uint64_t F, crit, md, deep;
} pick;

struct edan_deps {
    edan_lane_config lane;
    bool false_deps, all_preds, has_cache;
    edan_cache cache;
    edan_shadow shadow;
    edan_error err;
    deps_write reg_w[EDAN_NUM_REGS];
    deps_reads reg_r[EDAN_NUM_REGS];
    reader_node *nodes;
    size_t n_nodes, cap_nodes;
    edan_deps_pred *cands;
    size_t n_cands, cap_cands;
    /* the vertex between ready() and commit() */
    bool pending;
    edan_exec rec;
    bool rd, wr;
    edan_deps_info info;
    edan_deps_totals tot;
};

static bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

/* edan_cache_init trusts its configuration (the option parser checks it); a caller's hand-made one must not crash. */
static bool cache_config_ok(const edan_cache_config *c, edan_error *err)
{
    if (c->n_levels < 0 || c->n_levels > EDAN_CACHE_MAX_LEVELS) {
        edan_error_set(err, "%d cache levels (at most %d)", c->n_levels, EDAN_CACHE_MAX_LEVELS);
        return false;
    }
    for (int i = 0; i < c->n_levels; i++) {
        const edan_cache_level_config *l = &c->level[i];
        uint64_t way_bytes = (uint64_t)l->line * l->ways;
        if (!is_pow2(l->size) || !is_pow2(l->line) || l->line < 4 || l->line > (1u << 30) || l->ways == 0 ||
            way_bytes > l->size || !is_pow2(l->size / way_bytes) || l->size / way_bytes * way_bytes != l->size) {
            edan_error_set(err,
                           "cache level %d (%" PRIu64 " bytes, %u-byte lines, %u ways) is not a "
                           "power-of-two set-associative cache",
                           i + 1, l->size, l->line, l->ways);
            return false;
        }
    }
    return true;
}

edan_deps *edan_deps_new(const edan_lane_config *lane, bool false_deps, unsigned flags, edan_error *err)
{
    if (!lane) {
        edan_error_set(err, "no cache and cost model given");
        return NULL;
    }
    if (!cache_config_ok(&lane->cache, err))
        return NULL;
    edan_deps *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    t->lane = *lane;
    t->false_deps = false_deps;
    t->all_preds = flags & EDAN_DEPS_ALL_PREDS;
    if (edan_shadow_init_records(&t->shadow, UNIT_WRITES + (false_deps ? EDAN_SHADOW_UNIT * sizeof(deps_reads) : 0))) {
        edan_error_set(err, "out of memory for the dependency tracker's shadow");
        edan_deps_free(t);
        return NULL;
    }
    t->has_cache = lane->cache.n_levels > 0;
    if (t->has_cache && edan_cache_init(&t->cache, &lane->cache, err)) {
        t->has_cache = false;
        edan_deps_free(t);
        return NULL;
    }
    return t;
}

void edan_deps_free(edan_deps *t)
{
    if (!t)
        return;
    if (t->has_cache)
        edan_cache_free(&t->cache);
    edan_shadow_free(&t->shadow);
    free(t->nodes);
    free(t->cands);
    free(t);
}

const edan_deps_totals *edan_deps_totals_get(const edan_deps *t)
{
    return &t->tot;
}

const edan_error *edan_deps_error(const edan_deps *t)
{
    return &t->err;
}

/* Registers the model tracks: x0 never carries a dependency, and a malformed instruction must not index out of range.
 */
static bool tracked_reg(uint8_t r)
{
    return r != 0 && r < EDAN_NUM_REGS;
}

/* The shadow record of the unit holding addr (for_write: made if absent), *b the byte in it; NULL when out of memory.
 */
static char *unit_of(edan_deps *t, uint64_t addr, bool for_write, unsigned *b)
{
    edan_shadow_page *pg = edan_shadow_page_for(&t->shadow, addr, for_write);
    if (!pg) {
        edan_error_set(&t->err, "out of memory for the dependency tracker's shadow (%" PRIu64 " pages)",
                       t->shadow.pages);
        return NULL;
    }
    *b = (unsigned)(addr & (EDAN_SHADOW_UNIT - 1));
    return (char *)pg + ((addr & (EDAN_SHADOW_PAGE - 1)) >> EDAN_SHADOW_UNIT_BITS) * t->shadow.unit_bytes;
}

static deps_write *unit_write(char *unit, unsigned b)
{
    return (deps_write *)unit + b;
}

static deps_reads *unit_reads(char *unit, unsigned b)
{
    return (deps_reads *)(unit + UNIT_WRITES) + b;
}

static void consider_F(pick *p, uint64_t F, uint64_t by)
{
    if (by && (!p->crit || F > p->F || (F == p->F && by < p->crit))) {
        p->F = F;
        p->crit = by;
    }
}

static void consider_md(pick *p, uint64_t md, uint64_t by)
{
    if (by && (!p->deep || md > p->md || (md == p->md && by < p->deep))) {
        p->md = md;
        p->deep = by;
    }
}

static bool add_cand(edan_deps *t, uint64_t by, bool false_dep)
{
    if (!t->all_preds || !by)
        return true;
    if (t->n_cands == t->cap_cands) {
        size_t cap = t->cap_cands ? 2 * t->cap_cands : 64;
        edan_deps_pred *n = realloc(t->cands, cap * sizeof *n);
        if (!n) {
            edan_error_set(&t->err, "out of memory for the predecessors of vertex %" PRIu64, t->tot.vertices);
            return false;
        }
        t->cands = n;
        t->cap_cands = cap;
    }
    t->cands[t->n_cands++] = (edan_deps_pred){by - 1, false_dep};
    return true;
}

/* The last writer as a predecessor (a true one, or with false_dep a WAW one). */
static bool from_write(edan_deps *t, pick *p, const deps_write *w, bool false_dep)
{
    consider_F(p, w->F, w->by);
    consider_md(p, w->md, w->by);
    return add_cand(t, w->by, false_dep);
}

/* The readers since the last write as predecessors (WAR). */
static bool from_reads(edan_deps *t, pick *p, const deps_reads *r)
{
    consider_F(p, r->F, r->F_by);
    consider_md(p, r->md, r->md_by);
    for (uint64_t i = r->list; i; i = t->nodes[i - 1].next)
        if (!add_cand(t, t->nodes[i - 1].v + 1, true))
            return false;
    return true;
}

static int pred_cmp(const void *a, const void *b)
{
    const edan_deps_pred *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    /* true dependencies first, so the merged predecessor keeps "true" */
    return (int)x->false_dep - (int)y->false_dep;
}

/* Sort the candidates and keep one per vertex: info->preds. */
static void merge_preds(edan_deps *t, edan_deps_info *info)
{
    if (t->n_cands > 1)
        qsort(t->cands, t->n_cands, sizeof *t->cands, pred_cmp);
    size_t m = 0;
    for (size_t i = 0; i < t->n_cands; i++)
        if (!m || t->cands[m - 1].v != t->cands[i].v)
            t->cands[m++] = t->cands[i];
    t->n_cands = m;
    info->preds = t->cands;
    info->n_preds = m;
}

uint64_t edan_deps_ready(edan_deps *t, const edan_exec *rec, edan_deps_info *info)
{
    if (t->pending)
        edan_error_set(&t->err, "dependency tracker: ready() twice without commit()");
    if (t->err.set)
        return EDAN_DEPS_FAILED;
    const edan_insn *in = rec->insn;
    /* mem_size 0 would make the cache walk every line of the address space */
    const bool accessed = in->mem != EDAN_MEM_NONE && !(rec->flags & EDAN_EXEC_NO_ACCESS) && in->mem_size > 0;
    const bool rd = accessed && in->mem != EDAN_MEM_STORE, wr = accessed && in->mem != EDAN_MEM_LOAD;
    const int n_src = in->n_src < EDAN_MAX_SRC ? in->n_src : EDAN_MAX_SRC;
    pick p = {0, 0, 0, 0};
    t->n_cands = 0;
    bool ok = true;
    for (int i = 0; ok && i < n_src; i++)
        if (tracked_reg(in->src[i]))
            ok = from_write(t, &p, &t->reg_w[in->src[i]], false);
    for (uint32_t b = 0; ok && rd && b < in->mem_size; b++) {
        unsigned o;
        char *unit = unit_of(t, rec->addr + b, false, &o);
        ok = unit && from_write(t, &p, unit_write(unit, o), false);
    }
    if (t->false_deps) {
        if (ok && in->n_dst && tracked_reg(in->dst))
            ok = from_write(t, &p, &t->reg_w[in->dst], true) && from_reads(t, &p, &t->reg_r[in->dst]);
        for (uint32_t b = 0; ok && wr && b < in->mem_size; b++) {
            unsigned o;
            char *unit = unit_of(t, rec->addr + b, false, &o);
            ok = unit && from_write(t, &p, unit_write(unit, o), true) && from_reads(t, &p, unit_reads(unit, o));
        }
    }
    if (!ok)
        return EDAN_DEPS_FAILED;
    memset(info, 0, sizeof *info);
    /* the single definition of a memory-access vertex (cache.h), as the analyzer calls it */
    info->access = edan_cache_classify(&t->cache, t->has_cache && accessed, rec->addr, in->mem_size, rd, wr);
    info->v = t->tot.vertices;
    info->mem = info->access.rd_ram || info->access.wr_ram;
    info->cost = info->mem ? t->lane.cost.alpha : t->lane.cost.cls[in->cls < EDAN_CLASS_COUNT ? in->cls : 0];
    info->ready = p.F;
    info->md = p.md + info->mem;
    info->crit = p.crit;
    info->deep = p.deep;
    if (info->md > UINT32_MAX) {
        edan_error_set(&t->err, "memory depth exceeds %u: not supported", UINT32_MAX);
        return EDAN_DEPS_FAILED;
    }
    if (t->all_preds)
        merge_preds(t, info);
    t->pending = true;
    t->rec = *rec;
    t->rd = rd;
    t->wr = wr;
    t->info = *info;
    return info->ready;
}

/* Vertex v (finish F, depth md) read the state *r: later writers must wait for it. */
static bool note_read(edan_deps *t, deps_reads *r, uint64_t v, uint64_t F, uint32_t md)
{
    /* readers come in stream order: strict comparisons keep the earliest on ties */
    if (!r->F_by || F > r->F) {
        r->F = F;
        r->F_by = v + 1;
    }
    if (!r->md_by || md > r->md) {
        r->md = md;
        r->md_by = v + 1;
    }
    if (!t->all_preds)
        return true;
    if (t->n_nodes == t->cap_nodes) {
        size_t cap = t->cap_nodes ? 2 * t->cap_nodes : 1024;
        reader_node *n = realloc(t->nodes, cap * sizeof *n);
        if (!n) {
            edan_error_set(&t->err, "out of memory for the reader lists (%zu readers)", t->n_nodes);
            return false;
        }
        t->nodes = n;
        t->cap_nodes = cap;
    }
    t->nodes[t->n_nodes++] = (reader_node){v, r->list};
    r->list = t->n_nodes;
    return true;
}

int edan_deps_commit(edan_deps *t, uint64_t start, uint64_t cost)
{
    if (!t->pending)
        edan_error_set(&t->err, "dependency tracker: commit() without ready()");
    else if (start < t->info.ready)
        edan_error_set(&t->err, "dependency tracker: vertex %" PRIu64 " starts at %" PRIu64 ", before %" PRIu64,
                       t->info.v, start, t->info.ready);
    else if (start + cost < start)
        edan_error_set(&t->err, "dependency tracker: the finish time of vertex %" PRIu64 " overflows", t->info.v);
    if (t->err.set)
        return -1;
    t->pending = false;
    const edan_insn *in = t->rec.insn;
    const uint64_t v = t->info.v, F = start + cost;
    const uint32_t md = (uint32_t)t->info.md;
    const deps_write w = {F, v + 1, md, 0};
    const int n_src = in->n_src < EDAN_MAX_SRC ? in->n_src : EDAN_MAX_SRC;
    const bool has_dst = in->n_dst && tracked_reg(in->dst);
    /* reads first: an instruction that reads and writes a register (or an AMO its bytes) is then their writer */
    bool ok = true;
    if (t->false_deps) {
        for (int i = 0; ok && i < n_src; i++)
            if (tracked_reg(in->src[i]))
                ok = note_read(t, &t->reg_r[in->src[i]], v, F, md);
        for (uint32_t b = 0; ok && t->rd && !t->wr && b < in->mem_size; b++) {
            unsigned o;
            char *unit = unit_of(t, t->rec.addr + b, true, &o);
            ok = unit && note_read(t, unit_reads(unit, o), v, F, md);
        }
    }
    if (has_dst) {
        t->reg_w[in->dst] = w;
        memset(&t->reg_r[in->dst], 0, sizeof t->reg_r[in->dst]);
    }
    for (uint32_t b = 0; ok && t->wr && b < in->mem_size; b++) {
        unsigned o;
        char *unit = unit_of(t, t->rec.addr + b, true, &o);
        ok = unit != NULL;
        if (ok) {
            *unit_write(unit, o) = w;
            if (t->false_deps)
                memset(unit_reads(unit, o), 0, sizeof(deps_reads));
        }
    }
    if (!ok)
        return -1;
    edan_deps_totals *tot = &t->tot;
    if (F > tot->Tinf || v == 0) {
        tot->Tinf = F;
        tot->tinf_v = v;
    }
    if (t->info.mem) {
        tot->W++;
        if (md > tot->D) {
            tot->D = md;
            tot->depth_v = v;
        }
    }
    tot->T1 += cost;
    tot->vertices++;
    return 0;
}

int edan_deps_step(edan_deps *t, const edan_exec *rec, edan_deps_info *info)
{
    uint64_t ready = edan_deps_ready(t, rec, info);
    return ready == EDAN_DEPS_FAILED ? -1 : edan_deps_commit(t, ready, info->cost);
}
