/*
 * affine.c - affine access functions of loop nests from the trace
 * (affine.h says what is computed). The stream keeps a stack of the active
 * loops with their counters and, per static memory instruction, the strides
 * learnt so far and its previous access; nothing is allocated per record.
 */
#include "analysis/whatif/affine.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define AFF_STACK 64 /* active loops followed (deeper ones are not pushed) */

/* ===================================================================== */
/* State                                                                  */
/* ===================================================================== */

typedef struct aff_id {
    const edan_insn *insn;
    int32_t head_of;       /* the loop whose head this pc is, -1 */
    uint32_t head_checked; /* loops known when head_of was decided */
    uint8_t seen, levels, bad, have_last, known, moved, too_deep;
    uint8_t skipped; /* an access skipped iterations of its loops (it ran in some only) */
    int32_t nest;    /* the outermost loop of its context, -1 before its first access in a loop */
    uint64_t unresolved;
    int32_t loop[EDAN_AFFINE_LEVELS];
    int64_t stride[EDAN_AFFINE_LEVELS];
    uint64_t last_i[EDAN_AFFINE_LEVELS], first_i[EDAN_AFFINE_LEVELS];
    uint64_t last_a, first_a;
    uint64_t accesses, fitted;
    uint64_t first_seq; /* the sequence number of its first access in a loop */
} aff_id;

typedef struct aff_loop {
    aff_id bound; /* its trip count fitted over the counters of the loops around it (loop[]: their ids) */
    uint64_t entries, trip_min, trip_max;
    uint64_t accesses, in_calls; /* as the outermost loop of contexts */
    uint64_t first_access;       /* the sequence number of the first such access + 1 (0: none) */
} aff_loop;

typedef struct aff_frame {
    int32_t loop;
    uint32_t depth; /* the call depth of its function */
    uint64_t counter;
} aff_frame;

struct edan_affine {
    const edan_loops *loops;
    aff_id *ids;
    size_t ids_cap;
    aff_loop *lp;
    size_t lp_cap;
    aff_frame stack[AFF_STACK];
    unsigned sp;
    uint32_t depth; /* calls made and not returned */
    uint64_t prev_pc, seq;
    uint32_t prev_depth;
    bool have_prev, have_vcpu, nomem;
    uint16_t vcpu;
    /* after the stream */
    edan_affine_nest *nests;
    size_t n_nests;
    edan_affine_insn *insns;
    size_t n_insns;
};

edan_affine *edan_affine_new(const edan_loops *loops)
{
    edan_affine *a = calloc(1, sizeof *a);
    if (a)
        a->loops = loops;
    return a;
}

void edan_affine_free(edan_affine *a)
{
    if (!a)
        return;
    free(a->ids);
    free(a->lp);
    free(a->nests);
    free(a->insns);
    free(a);
}

static aff_loop *loop_stats(edan_affine *a, int32_t id)
{
    if ((size_t)id >= a->lp_cap) {
        const size_t cap = edan_grow_cap(a->lp_cap, (size_t)id);
        aff_loop *m = edan_grow_zeroed(a->lp, a->lp_cap, cap, sizeof *m);
        if (!m)
            return NULL;
        a->lp = m;
        a->lp_cap = cap;
    }
    return &a->lp[id];
}

/* The loop whose head is s's pc, or -1, from the loops known now (heads never move). */
static int32_t head_of(edan_affine *a, aff_id *s)
{
    const uint32_t n = edan_loops_count(a->loops);
    for (uint32_t i = s->head_checked; i < n && s->head_of < 0; i++)
        if (edan_loops_get(a->loops, i)->head == s->insn->pc)
            s->head_of = (int32_t)i;
    s->head_checked = n;
    return s->head_of;
}

/* ===================================================================== */
/* The stream                                                             */
/* ===================================================================== */

static void fit(aff_id *s, uint64_t addr, const uint64_t *i);

/* The trip count of the loop leaving from frame top fitted over the counters of the loops around it (its function's).
 */
static void fit_bound(edan_affine *a, aff_loop *l, unsigned top, uint64_t trip)
{
    unsigned f = top;
    while (f > 0 && a->stack[f - 1].depth == a->stack[top].depth)
        f--;
    const unsigned d = top - f;
    aff_id *s = &l->bound;
    if (d > EDAN_AFFINE_LEVELS) {
        s->too_deep = 1;
        return;
    }
    bool same = s->seen && s->levels == d;
    for (unsigned k = 0; same && k < d; k++)
        same = s->loop[k] == a->stack[f + k].loop;
    if (!same) { /* a new context: the fit starts again */
        memset(s, 0, sizeof *s);
        s->seen = 1;
        s->levels = (uint8_t)d;
        for (unsigned k = 0; k < d; k++)
            s->loop[k] = a->stack[f + k].loop;
    }
    uint64_t i[EDAN_AFFINE_LEVELS];
    for (unsigned k = 0; k < d; k++)
        i[k] = a->stack[f + k].counter;
    fit(s, trip, i);
}

static bool pop(edan_affine *a)
{
    const aff_frame *f = &a->stack[--a->sp];
    aff_loop *l = loop_stats(a, f->loop);
    if (!l)
        return false;
    const uint64_t trip = f->counter + 1;
    fit_bound(a, l, a->sp, trip);
    if (!l->entries++ || trip < l->trip_min)
        l->trip_min = trip;
    if (trip > l->trip_max)
        l->trip_max = trip;
    return true;
}

/* The loops left before the record at pc runs, and the head it may be. False when out of memory. */
static bool follow(edan_affine *a, aff_id *s, uint64_t pc)
{
    while (a->sp) {
        const aff_frame *top = &a->stack[a->sp - 1];
        if (top->depth < a->depth)
            break; /* in a function called from the loop */
        const edan_loop *l = edan_loops_get(a->loops, (uint32_t)top->loop);
        if (top->depth == a->depth && pc >= l->head && pc <= l->end)
            break;
        if (!pop(a)) /* its function returned, or the record is outside its range */
            return false;
    }
    const int32_t h = head_of(a, s);
    if (h < 0)
        return true;
    for (unsigned j = a->sp; j-- > 0 && a->stack[j].depth == a->depth;)
        if (a->stack[j].loop == h) {
            while (a->sp > j + 1)
                if (!pop(a))
                    return false;
            a->stack[j].counter++;
            return true;
        }
    if (a->sp == AFF_STACK)
        return true;
    const edan_loop *l = edan_loops_get(a->loops, (uint32_t)h);
    const bool back = a->have_prev && a->prev_depth == a->depth && a->prev_pc >= pc && a->prev_pc <= l->end;
    a->stack[a->sp++] = (aff_frame){h, a->depth, back ? 1 : 0};
    return true;
}

/* Check one access of s at addr with iteration vector i against its strides. */
static void fit(aff_id *s, uint64_t addr, const uint64_t *i)
{
    const unsigned d = s->levels;
    s->fitted++;
    if (!s->have_last) {
        s->have_last = 1;
        s->first_a = s->last_a = addr;
        memcpy(s->first_i, i, d * sizeof *i);
        memcpy(s->last_i, i, d * sizeof *i);
        return;
    }
    /* an instruction run in every iteration of its own loop steps it by 1 (or starts it over at 0: the loop entered
     * again), the levels inside the one that moved starting over at 0; else it ran in some iterations only (code
     * the compiler made conditional) */
    for (unsigned k = 0; k < d; k++)
        if (i[k] != s->last_i[k]) {
            for (unsigned m = k + 1; m < d; m++)
                s->skipped |= i[m] != 0;
            s->skipped |= k + 1 == d && i[k] != s->last_i[k] + 1 && i[k] != 0;
            break;
        }
    /* addr - last = sum_k stride[k] * (i[k] - last_i[k]), in two's complement */
    uint64_t rest = addr - s->last_a;
    int unknown = -1, n_unknown = 0;
    for (unsigned k = 0; k < d; k++) {
        const int64_t delta = (int64_t)(i[k] - s->last_i[k]);
        if (!delta)
            continue;
        s->moved |= (uint8_t)(1u << k);
        if (s->known & (1u << k)) {
            rest -= (uint64_t)s->stride[k] * (uint64_t)delta;
        } else {
            unknown = (int)k;
            n_unknown++;
        }
    }
    if (n_unknown == 1) {
        const int64_t delta = (int64_t)(i[unknown] - s->last_i[unknown]);
        /* in 64-bit two's complement: no signed overflow (INT64_MIN / -1) on any address difference */
        const uint64_t mag = delta < 0 ? 0 - (uint64_t)delta : (uint64_t)delta;
        const uint64_t r = delta < 0 ? 0 - rest : rest; /* rest / delta = r / |delta| */
        const bool neg = r >> 63;
        const uint64_t abs_r = neg ? 0 - r : r;
        if (abs_r % mag)
            s->bad = 1;
        else {
            s->stride[unknown] = (int64_t)(neg ? 0 - abs_r / mag : abs_r / mag);
            s->known |= (uint8_t)(1u << unknown);
        }
    } else if (n_unknown > 1) {
        s->unresolved++;
    } else if (rest) {
        s->bad = 1;
    }
    s->last_a = addr;
    memcpy(s->last_i, i, d * sizeof *i);
}

/* A memory access of s at addr in the current loops. False when out of memory. */
static bool access(edan_affine *a, aff_id *s, uint64_t addr)
{
    if (!a->sp)
        return true;    /* outside every loop */
    unsigned f = a->sp; /* the active loops of the accessing function: the stack's top */
    while (f > 0 && a->stack[f - 1].depth == a->depth)
        f--;
    aff_loop *outer = loop_stats(a, a->stack[0].loop);
    if (!outer)
        return false;
    if (!outer->first_access)
        outer->first_access = a->seq + 1;
    if (!s->first_seq)
        s->first_seq = a->seq + 1;
    a->seq++;
    s->accesses++;
    if (f > 0 || f == a->sp) { /* made in a function called from the nest */
        outer->in_calls++;
        return true;
    }
    outer->accesses++;
    const unsigned d = a->sp < EDAN_AFFINE_LEVELS ? a->sp : EDAN_AFFINE_LEVELS;
    bool same = s->nest == a->stack[0].loop && s->levels == d;
    for (unsigned k = 0; same && k < d; k++)
        same = s->loop[k] == a->stack[k].loop;
    if (!same) { /* a new context: the fit starts again */
        s->nest = a->stack[0].loop;
        s->levels = (uint8_t)d;
        for (unsigned k = 0; k < d; k++)
            s->loop[k] = a->stack[k].loop;
        s->have_last = s->known = s->moved = s->bad = s->skipped = 0;
        s->unresolved = s->fitted = 0;
        memset(s->stride, 0, sizeof s->stride);
    }
    s->too_deep = a->sp > EDAN_AFFINE_LEVELS;
    uint64_t i[EDAN_AFFINE_LEVELS];
    for (unsigned k = 0; k < d; k++)
        i[k] = a->stack[k].counter;
    fit(s, addr, i);
    return true;
}

int edan_affine_observe(edan_affine *a, const edan_exec *recs, size_t n)
{
    if (a->nomem)
        return -1;
    for (size_t x = 0; x < n; x++) {
        const edan_exec *r = &recs[x];
        if (!a->have_vcpu) {
            a->have_vcpu = true;
            a->vcpu = r->vcpu;
        }
        if (r->vcpu != a->vcpu)
            continue;
        if (r->id >= a->ids_cap) {
            const size_t cap = edan_grow_cap(a->ids_cap, r->id);
            aff_id *m = edan_grow_zeroed(a->ids, a->ids_cap, cap, sizeof *m);
            if (!m) {
                a->nomem = true;
                return -1;
            }
            a->ids = m;
            a->ids_cap = cap;
        }
        aff_id *s = &a->ids[r->id];
        if (!s->seen) {
            s->seen = 1;
            s->insn = r->insn;
            s->head_of = s->nest = -1;
        }
        const uint64_t pc = r->insn->pc;
        bool ok = follow(a, s, pc);
        if (ok && r->insn->mem != EDAN_MEM_NONE && r->insn->mem_size && !(r->flags & EDAN_EXEC_NO_ACCESS))
            ok = access(a, s, r->addr);
        if (!ok) {
            a->nomem = true;
            return -1;
        }
        a->prev_pc = pc;
        a->prev_depth = a->depth;
        a->have_prev = true;
        if (r->insn->flow == EDAN_FLOW_CALL) {
            a->depth++;
        } else if (r->insn->flow == EDAN_FLOW_RETURN) {
            if (a->depth)
                a->depth--;
            else /* the traced root returned: its loops are left */
                while (a->sp)
                    if (!pop(a)) {
                        a->nomem = true;
                        return -1;
                    }
        }
    }
    return 0;
}

/* ===================================================================== */
/* After the stream                                                       */
/* ===================================================================== */

/* Insertion sort of the nests' loops by their order keys (nests are few). */
static void sort_nests(int32_t *v, size_t n, const uint64_t *key)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && key[v[j - 1]] > key[v[j]]; j--) {
            const int32_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

static int by_nest_pc(const void *x, const void *y)
{
    const edan_affine_insn *a = x, *b = y;
    if (a->nest != b->nest)
        return a->nest < b->nest ? -1 : 1;
    return (a->insn->pc > b->insn->pc) - (a->insn->pc < b->insn->pc);
}

/*
 * The nests: the outermost loops of the instructions' last contexts, in the
 * order of their first accesses; accesses in calls go to the nest whose
 * contexts hold the loop that was outermost when they were made (a context
 * before the loops around it were known), else to a nest of their own.
 */
int edan_affine_finish(edan_affine *a)
{
    while (a->sp)
        if (!pop(a))
            return -1;
    if (a->nomem)
        return -1;
    const size_t nl = a->lp_cap;
    int32_t *order = calloc(nl + 1, sizeof *order), *index = calloc(nl + 1, sizeof *index);
    int32_t *owner = calloc(nl + 1, sizeof *owner); /* the nest loop whose contexts hold loop l, + 1 */
    uint64_t *key = calloc(nl + 1, sizeof *key);
    int32_t *parent = calloc(nl + 1, sizeof *parent); /* per loop: its parent in the contexts + 1, -1 none, 0 unseen */
    size_t ni = 0;
    for (size_t id = 0; id < a->ids_cap; id++)
        ni += a->ids[id].seen && a->ids[id].nest >= 0;
    a->insns = calloc(ni + 1, sizeof *a->insns);
    a->nests = calloc(nl + 1, sizeof *a->nests);
    if (!order || !index || !owner || !key || !parent || !a->insns || !a->nests) {
        free(parent);
        free(order);
        free(index);
        free(owner);
        free(key);
        return -1;
    }
    for (size_t id = 0; id < a->ids_cap; id++) {
        const aff_id *s = &a->ids[id];
        if (!s->seen || s->nest < 0)
            continue;
        if (!key[s->nest] || s->first_seq < key[s->nest])
            key[s->nest] = s->first_seq;
        for (unsigned k = 0; k < s->levels; k++)
            owner[s->loop[k]] = s->nest + 1;
    }
    for (size_t l = 0; l < nl; l++)
        if (a->lp[l].in_calls && !owner[l]) { /* only accesses in calls */
            owner[l] = (int32_t)l + 1;
            key[l] = a->lp[l].first_access;
        }
    size_t nn = 0;
    for (size_t l = 0; l < nl; l++)
        if (owner[l] == (int32_t)l + 1 && key[l])
            order[nn++] = (int32_t)l;
    sort_nests(order, nn, key);
    for (size_t i = 0; i < nn; i++) {
        index[order[i]] = (int32_t)i;
        edan_affine_nest *n = &a->nests[i];
        n->loop[0] = order[i];
        n->levels = 1;
        n->entries = a->lp[order[i]].entries;
        n->single_chain = n->rectangular = n->tree = true;
    }
    a->n_nests = nn;
    for (size_t l = 0; l < nl; l++)
        if (a->lp[l].in_calls && owner[l])
            a->nests[index[owner[l] - 1]].in_calls += a->lp[l].in_calls;
    ni = 0;
    for (size_t id = 0; id < a->ids_cap; id++) {
        const aff_id *s = &a->ids[id];
        if (!s->seen || s->nest < 0)
            continue;
        edan_affine_insn *o = &a->insns[ni++];
        o->insn = s->insn;
        o->id = (uint32_t)id;
        o->nest = (uint32_t)index[s->nest];
        o->levels = s->levels;
        memcpy(o->loop, s->loop, sizeof o->loop);
        o->accesses = s->accesses;
        o->fitted = s->fitted;
        bool affine = !s->bad && !s->unresolved && !s->too_deep && !s->skipped;
        uint64_t base = s->first_a; /* wraps as addresses do */
        for (unsigned k = 0; k < s->levels; k++) {
            if (a->lp[s->loop[k]].trip_max > 1 && !(s->moved & (1u << k)))
                affine = false; /* it ran in some iterations of the level only */
            o->stride[k] = s->moved & (1u << k) ? s->stride[k] : 0;
            const aff_loop *lk = &a->lp[s->loop[k]];
            o->trip[k] = lk->trip_min == lk->trip_max ? lk->trip_max : 0;
            base -= (uint64_t)o->stride[k] * s->first_i[k];
        }
        o->affine = affine;
        o->base = (int64_t)base;
        edan_affine_nest *n = &a->nests[o->nest];
        n->accesses += o->accesses;
        if (!affine)
            n->nonaffine_accesses += o->accesses;
        if (s->levels > n->levels) {
            n->levels = s->levels;
            memcpy(n->loop, s->loop, sizeof n->loop);
        }
    }
    a->n_insns = ni;
    qsort(a->insns, ni, sizeof *a->insns, by_nest_pc);
    for (size_t i = 0; i < ni; i++) {
        edan_affine_nest *n = &a->nests[a->insns[i].nest];
        if (!n->n)
            n->first = i;
        n->n++;
    }
    for (size_t i = 0; i < nn; i++) {
        edan_affine_nest *n = &a->nests[i];
        n->bounded = true;
        for (unsigned k = 0; k < n->levels; k++) {
            const aff_loop *lk = &a->lp[n->loop[k]];
            n->trip[k] = lk->trip_min == lk->trip_max ? lk->trip_max : 0;
            n->extent[k] = lk->trip_max;
            n->rectangular &= n->trip[k] > 0;
            /* the trip count's fit, over the chain's loops, from more exits than unknowns */
            uint64_t most;
            if (!n->trip[k] &&
                !edan_affine_loop_bound(a, n->loop[k], n->loop, k, &n->bound_base[k], n->bound_stride[k], &most))
                n->bounded = false;
        }
        for (size_t j = n->first; j < n->first + n->n; j++) {
            edan_affine_insn *o = &a->insns[j];
            bool prefix = o->levels <= n->levels;
            for (unsigned k = 0; prefix && k < o->levels; k++)
                prefix = o->loop[k] == n->loop[k];
            o->on_chain = prefix;
            n->single_chain &= prefix;
            for (unsigned k = 0; k < o->levels; k++) { /* each loop one parent (parent[] holds it + 1) */
                n->rectangular &= o->trip[k] > 0;
                int64_t base, stride[EDAN_AFFINE_LEVELS];
                uint64_t most;
                if (!o->trip[k] && !edan_affine_loop_bound(a, o->loop[k], o->loop, k, &base, stride, &most))
                    n->bounded = false; /* a tree's varying loop, off the chain too, fits over its own path */
                const int32_t up = k ? o->loop[k - 1] + 1 : -1;
                if (!parent[o->loop[k]])
                    parent[o->loop[k]] = up;
                n->tree &= parent[o->loop[k]] == up;
            }
        }
        n->bounded &= !n->rectangular && (n->single_chain || n->tree);
    }
    free(parent);
    free(order);
    free(index);
    free(owner);
    free(key);
    return 0;
}

bool edan_affine_loop_bound(const edan_affine *a, int32_t loop, const int32_t *outer, unsigned k, int64_t *base,
                            int64_t *stride, uint64_t *max)
{
    if (loop < 0 || (size_t)loop >= a->lp_cap)
        return false;
    *max = a->lp[loop].trip_max;
    const aff_id *b = &a->lp[loop].bound;
    bool fits = b->levels == k && !b->bad && !b->unresolved && !b->too_deep && b->fitted > k + 1u;
    for (unsigned m = 0; fits && m < k; m++)
        fits = b->loop[m] == outer[m];
    if (!fits)
        return false;
    uint64_t at = b->first_a; /* wraps as addresses do */
    for (unsigned m = 0; m < k; m++) {
        stride[m] = b->moved & (1u << m) ? b->stride[m] : 0;
        at -= (uint64_t)stride[m] * b->first_i[m];
    }
    *base = (int64_t)at;
    return true;
}

size_t edan_affine_n_nests(const edan_affine *a)
{
    return a->n_nests;
}
const edan_affine_nest *edan_affine_nests(const edan_affine *a)
{
    return a->nests;
}
const edan_affine_insn *edan_affine_insns(const edan_affine *a)
{
    return a->insns;
}

bool edan_affine_nest_exact(const edan_affine_nest *n)
{
    return ((n->rectangular && (n->single_chain || n->tree)) || n->bounded) && !n->nonaffine_accesses && !n->in_calls &&
           n->levels > 0 && n->levels <= EDAN_AFFINE_LEVELS;
}
