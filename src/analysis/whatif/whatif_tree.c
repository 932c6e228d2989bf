/*
 * whatif_tree.c - a nest of several inner loops as a tree of loops, with
 * each level's positions (whatif_tree.h).
 */
#include "analysis/whatif/whatif_tree.h"

#include <stdlib.h>
#include <string.h>

#define L EDAN_AFFINE_LEVELS

size_t edan_tree_find(const edan_tree *t, int32_t loop)
{
    for (size_t x = 0; x < t->n; x++)
        if (t->node[x].loop == loop)
            return x;
    return t->n;
}

/* The first store of node x's own instructions continued by one of y's, and y's positions per iteration: 0 if not. */
static uint64_t continues(const edan_tree *t, const edan_tnode *x, const edan_tnode *y)
{
    const unsigned d = x->depth;
    if (!x->trip || !y->trip)
        return 0;
    for (size_t i = x->first_insn; i < x->first_insn + x->n_insns; i++)
        for (size_t j = y->first_insn; j < y->first_insn + y->n_insns; j++) {
            const edan_affine_insn *a = t->insns[i], *b = t->insns[j];
            if (a->insn->mem == EDAN_MEM_LOAD || b->insn->mem == EDAN_MEM_LOAD || !a->stride[d] || !b->stride[d] ||
                a->stride[d] % b->stride[d] || a->stride[d] / b->stride[d] < 1 ||
                memcmp(a->stride, b->stride, d * sizeof *a->stride))
                continue;
            if ((uint64_t)a->base + (uint64_t)a->stride[d] * x->trip == (uint64_t)b->base)
                return (uint64_t)(a->stride[d] / b->stride[d]);
        }
    return 0;
}

void edan_tree_free(edan_tree *t)
{
    free(t->node);
    free(t->children);
    free(t->insns);
    free(t->shift);
}

/* The tree of nest n (n->tree). False when out of memory. */
bool edan_tree_make(const edan_affine *a, const edan_affine_nest *n, edan_tree *t)
{
    memset(t, 0, sizeof *t);
    const edan_affine_insn *in = edan_affine_insns(a) + n->first;
    t->node = calloc(n->n * L + 1, sizeof *t->node);
    t->children = calloc(n->n * L + 1, sizeof *t->children);
    t->insns = calloc(n->n + 1, sizeof *t->insns);
    t->shift = calloc(n->n + 1, sizeof *t->shift);
    size_t *parent = calloc(n->n * L + 1, sizeof *parent);
    if (!t->node || !t->children || !t->insns || !t->shift || !parent) {
        free(parent);
        edan_tree_free(t);
        return false;
    }
    for (size_t j = 0; j < n->n; j++) /* the loops, parents before children */
        for (unsigned k = 0; k < in[j].levels; k++)
            if (edan_tree_find(t, in[j].loop[k]) == t->n) {
                parent[t->n] = k ? edan_tree_find(t, in[j].loop[k - 1]) : SIZE_MAX;
                edan_tnode *v = &t->node[t->n++];
                *v = (edan_tnode){.loop = in[j].loop[k],
                                  .depth = k,
                                  .trip = in[j].trip[k],
                                  .most = in[j].trip[k],
                                  .u = 1,
                                  .min_pc = UINT64_MAX};
                if (!v->trip) /* not affine: a bound of 0 trips (edan_affine_nest_exact rules such nests out) */
                    edan_affine_loop_bound(a, v->loop, in[j].loop, k, &v->bbase, v->bstride, &v->most);
            }
    size_t at = 0;
    for (size_t x = 0; x < t->n; x++) { /* own instructions (by pc, as insns are), the subtree's lowest pc */
        edan_tnode *v = &t->node[x];
        v->first_insn = at;
        for (size_t j = 0; j < n->n; j++)
            if (in[j].loop[in[j].levels - 1] == v->loop) {
                t->insns[at++] = &in[j];
                for (size_t y = x; y != SIZE_MAX; y = parent[y])
                    if (in[j].insn->pc < t->node[y].min_pc)
                        t->node[y].min_pc = in[j].insn->pc;
            }
        v->n_insns = at - v->first_insn;
    }
    at = 0;
    for (size_t x = 0; x < t->n; x++) { /* children by their lowest pc; continued siblings share positions */
        edan_tnode *v = &t->node[x];
        v->first_child = at;
        for (size_t y = 0; y < t->n; y++)
            if (parent[y] == x) {
                size_t z = at++;
                for (; z > v->first_child && t->node[t->children[z - 1]].min_pc > t->node[y].min_pc; z--)
                    t->children[z] = t->children[z - 1];
                t->children[z] = y;
            }
        v->n_children = at - v->first_child;
        for (size_t c = v->first_child + 1; c < at; c++)
            t->node[t->children[c]].ratio = continues(t, &t->node[t->children[c - 1]], &t->node[t->children[c]]);
        for (size_t c = at; c-- > v->first_child + 1;) { /* positions per iteration: the run's last loop counts 1 */
            const edan_tnode *next = &t->node[t->children[c]];
            if (next->ratio)
                t->node[t->children[c - 1]].u = next->u * next->ratio;
        }
        for (size_t c = v->first_child + 1; c < at; c++) {
            const edan_tnode *prev = &t->node[t->children[c - 1]];
            edan_tnode *cur = &t->node[t->children[c]];
            if (cur->ratio)
                cur->off = prev->off + prev->u * prev->trip;
        }
    }
    /* An instruction of a loop with loops inside (GCC's loads before an unrolled loop, reused by its first
     * iterations) follows, when the level below is tiled, the tile's first position: it moves by the bytes per
     * position of the nearest access below with its strides above (within 4 positions), as the code blocked by
     * hand makes it at each tile's start. */
    for (size_t x = 0; x < t->n; x++)
        for (size_t j = t->node[x].first_insn; j < t->node[x].first_insn + t->node[x].n_insns; j++) {
            const edan_affine_insn *o = t->insns[j];
            const unsigned d = o->levels;
            uint64_t near = UINT64_MAX;
            for (size_t y = 0; y < t->n && d < L; y++)
                for (size_t q = t->node[y].first_insn; q < t->node[y].first_insn + t->node[y].n_insns; q++) {
                    const edan_affine_insn *b = t->insns[q];
                    if (t->node[y].depth != d || parent[y] != x || b->stride[d] % (int64_t)t->node[y].u ||
                        memcmp(b->stride, o->stride, d * sizeof *b->stride))
                        continue;
                    const int64_t s = b->stride[d] / (int64_t)t->node[y].u;
                    const uint64_t gap = (uint64_t)(b->base > o->base ? b->base - o->base : o->base - b->base);
                    if (s && gap < near && gap <= 4 * (uint64_t)(s < 0 ? -s : s)) {
                        near = gap;
                        t->shift[j] = s;
                    }
                }
        }
    for (size_t x = 0; x < t->n; x++) {
        const edan_tnode *v = &t->node[x];
        if (v->off + v->u * v->most > t->extent[v->depth])
            t->extent[v->depth] = v->off + v->u * v->most;
    }
    free(parent);
    return true;
}

/* x's access function over its levels' positions (tree.h's index), in *o: false when a stride does not divide. */
bool edan_tree_positions(const edan_tree *t, const edan_affine_insn *x, edan_affine_insn *o, size_t *path)
{
    *o = *x;
    for (unsigned k = 0; k < x->levels; k++) {
        path[k] = edan_tree_find(t, x->loop[k]);
        const edan_tnode *v = &t->node[path[k]];
        if (x->stride[k] % (int64_t)v->u)
            return false;
        o->stride[k] = x->stride[k] / (int64_t)v->u;
        o->base = (int64_t)((uint64_t)o->base - (uint64_t)o->stride[k] * v->off);
        o->trip[k] = t->extent[k];
    }
    return true;
}

/* Nodes p and q (siblings, p first or equal) share their level's positions: equal, or a run of continued loops. */
bool edan_tree_one_index(const edan_tree *t, size_t p, size_t q)
{
    if (p == q)
        return true;
    const edan_tnode *parent = NULL;
    for (size_t x = 0; x < t->n && !parent; x++)
        for (size_t c = t->node[x].first_child; c < t->node[x].first_child + t->node[x].n_children; c++)
            if (t->children[c] == p)
                parent = &t->node[x];
    if (!parent)
        return false;
    bool in = false;
    for (size_t c = parent->first_child; c < parent->first_child + parent->n_children; c++) {
        const size_t y = t->children[c];
        if (in && !t->node[y].ratio)
            return false;
        if (y == p || y == q) {
            if (in)
                return true;
            in = true;
        }
    }
    return false;
}
