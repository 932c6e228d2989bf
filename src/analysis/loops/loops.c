/*
 * loops.c - loops from taken backward branches (see loops.h for the
 * definitions).
 *
 * State per static instruction id, one word: 0 not seen yet, NOT_EDGE, or
 * EDGE_NEW (a branch whose static target is at or below it, not yet seen
 * taken), or FIRST_LOOP + the id of the loop it is a back edge of. A record
 * that may be a back edge leaves one pending target; the next record of its
 * vCPU settles it. The index is a sorted list of disjoint segments of
 * addresses, each with its innermost loop.
 */
#include "analysis/loops/loops.h"

#include <stdlib.h>
#include <string.h>

#include "isa/riscv_ops.h"
#include "util/grow.h"

enum { UNSEEN = 0, NOT_EDGE = 1, EDGE_NEW = 2, FIRST_LOOP = 3 };

typedef struct segment {
    uint64_t lo;  /* the segment is [lo, next segment's lo) */
    int32_t loop; /* innermost loop there, -1 for none */
} segment;

struct edan_loops {
    const edan_elf *elf;
    uint32_t *state; /* per static id, see above */
    size_t state_cap;
    edan_loop *loops;
    uint32_t n_loops, loops_cap;
    /* the pending back edge: set by a candidate branch, settled by the next record of its vCPU */
    bool pending;
    uint16_t pend_vcpu;
    uint32_t pend_id;
    uint64_t pend_pc, pend_target;
    bool failed;
    uint64_t version; /* loops discovered and ends extended so far */
    /* the index */
    segment *seg;
    size_t n_seg;
    bool indexed; /* the index holds every loop discovered */
};

/* ===================================================================== */
/* Discovery                                                              */
/* ===================================================================== */

edan_loops *edan_loops_new(const edan_elf *elf)
{
    edan_loops *l = calloc(1, sizeof *l);
    if (l)
        l->elf = elf;
    return l;
}

void edan_loops_free(edan_loops *l)
{
    if (!l)
        return;
    free(l->state);
    free(l->loops);
    free(l->seg);
    free(l);
}

/* Whether a static instruction can be a back edge: a branch or a non-call jal to a target at or below it. */
static uint32_t classify(const edan_loops *l, const edan_insn *in)
{
    const bool branch = in->flow == EDAN_FLOW_BRANCH;
    const bool jump = in->flow == EDAN_FLOW_JUMP &&
                      (in->isa == EDAN_ISA_RISCV64 ? in->op == EDAN_OP_JAL : (in->native & EDAN_NATIVE_DIRECT) != 0);
    if ((!branch && !jump) || in->imm > 0)
        return NOT_EDGE;
    if (jump && l->elf) {
        /* a jump to another function is a tail call, not a loop */
        const edan_elf_func *f = edan_elf_func_at(l->elf, in->pc);
        const uint64_t t = in->pc + (uint64_t)in->imm;
        if (!f || t < f->start)
            return NOT_EDGE;
    }
    return EDGE_NEW;
}

/* The back edge of static id (at pc, to target) was taken for the first time: its loop, new or known. */
static void first_taken(edan_loops *l, uint32_t id, uint64_t pc, uint64_t target)
{
    uint32_t k = 0;
    while (k < l->n_loops && l->loops[k].head != target) /* rare: once per static back edge */
        k++;
    if (k == l->n_loops) {
        if (l->n_loops == l->loops_cap) {
            const uint32_t cap = l->loops_cap ? 2 * l->loops_cap : 64;
            edan_loop *m = realloc(l->loops, cap * sizeof *m);
            if (!m) {
                l->failed = true;
                return;
            }
            l->loops = m;
            l->loops_cap = cap;
        }
        l->loops[k] = (edan_loop){target, pc, 0, 0, -1, 1};
        l->n_loops++;
        l->version++;
    }
    edan_loop *lp = &l->loops[k];
    lp->branches++;
    if (pc > lp->end) {
        lp->end = pc;
        l->version++;
    }
    l->state[id] = FIRST_LOOP + k;
    l->indexed = false;
}

/* One record; false once out of memory. */
static inline __attribute__((always_inline)) bool observe_one(edan_loops *l, const edan_exec *r)
{
    if (l->pending && r->vcpu == l->pend_vcpu) {
        l->pending = false;
        if (r->insn->pc == l->pend_target) {
            const uint32_t s = l->state[l->pend_id];
            if (s == EDGE_NEW)
                first_taken(l, l->pend_id, l->pend_pc, l->pend_target);
            if (l->failed)
                return false;
            l->loops[l->state[l->pend_id] - FIRST_LOOP].back_edges++;
        }
    }
    if (r->id >= l->state_cap) {
        const size_t cap = edan_grow_cap(l->state_cap, r->id);
        uint32_t *m = edan_grow_zeroed(l->state, l->state_cap, cap, sizeof *m);
        if (!m) {
            l->failed = true;
            return false;
        }
        l->state = m;
        l->state_cap = cap;
    }
    uint32_t s = l->state[r->id];
    if (s == UNSEEN)
        s = l->state[r->id] = classify(l, r->insn);
    if (s >= EDGE_NEW) {
        l->pending = true;
        l->pend_vcpu = r->vcpu;
        l->pend_id = r->id;
        l->pend_pc = r->insn->pc;
        l->pend_target = r->insn->pc + (uint64_t)r->insn->imm;
    }
    return true;
}

int edan_loops_observe(edan_loops *l, const edan_exec *recs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (l->failed || !observe_one(l, &recs[i]))
            return -1;
    return l->failed ? -1 : 0;
}

int edan_loops_observe_until_change(edan_loops *l, const edan_exec *recs, size_t n, size_t *observed)
{
    const uint64_t version = l->version;
    size_t i = 0;
    while (i < n && l->version == version)
        if (l->failed || !observe_one(l, &recs[i++]))
            break;
    *observed = i;
    return l->failed ? -1 : 0;
}

uint64_t edan_loops_version(const edan_loops *l)
{
    return l->version;
}

uint32_t edan_loops_count(const edan_loops *l)
{
    return l->n_loops;
}

const edan_loop *edan_loops_get(const edan_loops *l, uint32_t id)
{
    return id < l->n_loops ? &l->loops[id] : NULL;
}

/* ===================================================================== */
/* The index                                                              */
/* ===================================================================== */

/* Whether loop a is inner to loop b at a pc both hold: shorter, then the higher head, then the lower id. */
static bool inner(const edan_loop *ls, int32_t a, int32_t b)
{
    const uint64_t la = ls[a].end - ls[a].head, lb = ls[b].end - ls[b].head;
    if (la != lb)
        return la < lb;
    if (ls[a].head != ls[b].head)
        return ls[a].head > ls[b].head;
    return a < b;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int edan_loops_index(edan_loops *l)
{
    if (l->indexed)
        return 0;
    const uint32_t n = l->n_loops;
    edan_loop *ls = l->loops;
    /* parents: the innermost other loop holding the whole range (a range strictly larger: no cycles) */
    for (uint32_t a = 0; a < n; a++) {
        int32_t best = -1;
        for (uint32_t b = 0; b < n; b++) {
            if (b == a || ls[b].head > ls[a].head || ls[b].end < ls[a].end)
                continue;
            if (best < 0 || inner(ls, (int32_t)b, best))
                best = (int32_t)b;
        }
        ls[a].parent = best;
    }
    for (uint32_t a = 0; a < n; a++) {
        uint32_t d = 1;
        for (int32_t p = ls[a].parent; p >= 0 && d <= n; p = ls[p].parent)
            d++;
        ls[a].depth = d;
    }
    /* segments: between consecutive boundaries (heads and ends + 1) the set of loops holding a pc is fixed */
    uint64_t *pts = malloc((2 * (size_t)n + 1) * sizeof *pts);
    segment *seg = malloc((2 * (size_t)n + 1) * sizeof *seg);
    int32_t *active = malloc(((size_t)n + 1) * sizeof *active);
    if (!pts || !seg || !active) {
        free(pts);
        free(seg);
        free(active);
        return -1;
    }
    size_t np = 0;
    for (uint32_t a = 0; a < n; a++) {
        pts[np++] = ls[a].head;
        if (ls[a].end != UINT64_MAX)
            pts[np++] = ls[a].end + 1;
    }
    qsort(pts, np, sizeof *pts, cmp_u64);
    size_t ns = 0;
    for (size_t i = 0; i < np; i++) {
        if (i && pts[i] == pts[i - 1])
            continue;
        /* the loops holding pts[i]: at most the nesting depth in a program's loops */
        size_t na = 0;
        for (uint32_t a = 0; a < n; a++)
            if (ls[a].head <= pts[i] && pts[i] <= ls[a].end)
                active[na++] = (int32_t)a;
        int32_t best = -1;
        for (size_t k = 0; k < na; k++)
            if (best < 0 || inner(ls, active[k], best))
                best = active[k];
        if (ns && seg[ns - 1].loop == best)
            continue; /* the same innermost loop goes on */
        seg[ns++] = (segment){pts[i], best};
    }
    free(pts);
    free(active);
    free(l->seg);
    l->seg = seg;
    l->n_seg = ns;
    l->indexed = true;
    return 0;
}

int32_t edan_loops_innermost(const edan_loops *l, uint64_t pc)
{
    const edan_loop *ls = l->loops;
    if (!l->indexed) {
        int32_t best = -1;
        for (uint32_t a = 0; a < l->n_loops; a++)
            if (ls[a].head <= pc && pc <= ls[a].end && (best < 0 || inner(ls, (int32_t)a, best)))
                best = (int32_t)a;
        return best;
    }
    /* the last segment starting at or below pc */
    size_t lo = 0, hi = l->n_seg;
    while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (l->seg[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? l->seg[lo - 1].loop : -1;
}

size_t edan_loops_holding(const edan_loops *l, uint64_t pc, uint32_t *out, size_t cap)
{
    size_t n = 0;
    for (uint32_t a = 0; a < l->n_loops; a++) {
        if (l->loops[a].head <= pc && pc <= l->loops[a].end) {
            if (n < cap)
                out[n] = a;
            n++;
        }
    }
    return n;
}

uint32_t edan_loops_inside(const edan_loops *l, uint32_t id)
{
    uint32_t n = 0;
    for (uint32_t a = 0; id < l->n_loops && a < l->n_loops; a++)
        n += l->loops[id].head <= l->loops[a].head && l->loops[a].end <= l->loops[id].end;
    return n;
}

edan_loop_place edan_loops_place(const edan_loops *l, uint32_t id, const edan_elf *elf, edan_srcmap *src)
{
    edan_loop_place p = {NULL, NULL, 0};
    if (id >= l->n_loops)
        return p;
    const uint64_t head = l->loops[id].head;
    edan_srcloc loc = {NULL, NULL, 0};
    if (src && edan_srcmap_lookup(src, head, &loc)) {
        p.file = loc.file;
        p.line = loc.line;
    }
    /* the symbol's function, as every per-function row names it (inlined code: the function it was inlined into) */
    const edan_elf_func *f = elf ? edan_elf_func_at(elf, head) : NULL;
    p.function = f ? f->name : loc.function;
    return p;
}

/* ===================================================================== */
/* Rows of instructions, for the reports                                   */
/* ===================================================================== */

bool edan_insn_rows_make(edan_insn_rows *g, const edan_loops *l, edan_rows_kind kind, size_t n,
                         uint64_t (*pc)(const void *ctx, size_t i), int64_t (*row)(const void *ctx, size_t i),
                         const void *ctx)
{
    const uint32_t loops = l ? edan_loops_count(l) : 0;
    const size_t per = kind == EDAN_ROWS_NEST ? (size_t)loops : 1;
    g->at = malloc((n + 1) * sizeof *g->at);
    g->group = malloc((n * per + 1) * sizeof *g->group);
    if (!g->at || !g->group) {
        edan_insn_rows_free(g);
        return false;
    }
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++) {
        g->at[i] = k;
        if (kind == EDAN_ROWS_NEST) {
            k += (uint32_t)edan_loops_holding(l, pc(ctx, i), &g->group[k], loops);
        } else {
            const int64_t r = kind == EDAN_ROWS_LOOP ? edan_loops_innermost(l, pc(ctx, i)) : row(ctx, i);
            if (r >= 0)
                g->group[k++] = (uint32_t)r;
        }
    }
    g->at[n] = k;
    return true;
}

void edan_insn_rows_free(edan_insn_rows *g)
{
    free(g->at);
    free(g->group);
    g->at = g->group = NULL;
}
