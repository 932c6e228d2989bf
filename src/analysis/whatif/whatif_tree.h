/*
 * whatif_tree.h - the loops of a nest of several inner loops as a tree
 * (internal to analysis/whatif: whatif.c replays and checks it).
 *
 * A loop of a tree nest. Its iterations sit at positions of its level's
 * logical index: iteration v covers [off + u v, off + u (v + 1)). Sibling
 * loops that continue one another (the next one's store starts where the
 * previous one's would go next, its stride a divisor of the previous one's:
 * GCC's loop unrolled by u and its remainder) share the index, one after
 * the other; other siblings (two inner loops of one body) each span it
 * from 0. A blocked level's tile covers T positions: a loop runs the
 * iterations whose first position lies in it. A loop whose trip count
 * varies (a bounded nest: affine in the outer counters) continues no
 * sibling and is continued by none.
 */
#ifndef EDAN_ANALYSIS_WHATIF_TREE_H
#define EDAN_ANALYSIS_WHATIF_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/whatif/affine.h"

typedef struct edan_tnode {
    int32_t loop;
    unsigned depth;        /* its level: 0 the nest's outermost loop */
    uint64_t trip, u, off; /* iterations per entry (0: varying), positions per iteration, its first position */
    uint64_t most;         /* its largest trip count */
    int64_t bbase,
        bstride[EDAN_AFFINE_LEVELS]; /* varying: the trip count bbase + bstride . i over the outer counters */
    uint64_t ratio;                  /* the previous sibling's stride over its own when it continues it, else 0 */
    size_t first_child, n_children;  /* into the tree's children[] */
    size_t first_insn, n_insns;      /* its own instructions: into the tree's insns[] */
    uint64_t min_pc;                 /* its subtree's lowest pc: its place in its parent's body */
} edan_tnode;

typedef struct edan_tree {
    edan_tnode *node; /* node[0] the nest's outermost loop */
    size_t n;
    size_t *children; /* node indices, in pc order per parent */
    const edan_affine_insn **insns;
    int64_t *shift; /* per insns[]: bytes per position of the level below its own (see edan_tree_make) */
    uint64_t extent[EDAN_AFFINE_LEVELS]; /* positions per level: the largest off + u trip */
} edan_tree;

/* The tree of nest n (n->tree); free with edan_tree_free. False when out of memory. */
bool edan_tree_make(const edan_affine *a, const edan_affine_nest *n, edan_tree *t);
void edan_tree_free(edan_tree *t);

/* Node v's trip count at the outer counters i: its constant one, or its bound there (at least 0). */
static inline uint64_t edan_tnode_trip(const edan_tnode *v, const uint64_t *i)
{
    if (v->trip)
        return v->trip;
    uint64_t b = (uint64_t)v->bbase; /* wraps as addresses do; a negative count is 0 */
    for (unsigned m = 0; m < v->depth; m++)
        b += (uint64_t)v->bstride[m] * i[m];
    return (int64_t)b < 0 ? 0 : b;
}

/* The node of loop id, or t->n. */
size_t edan_tree_find(const edan_tree *t, int32_t loop);

/* x's access function over its levels' positions, in *o (trips: the levels' extents), and its loops' nodes in path:
 * false when a stride is not a multiple of its loop's positions per iteration. */
bool edan_tree_positions(const edan_tree *t, const edan_affine_insn *x, edan_affine_insn *o, size_t *path);

/* Nodes p and q (siblings, p first, or equal) share their level's positions: equal, or in one run of continued loops.
 */
bool edan_tree_one_index(const edan_tree *t, size_t p, size_t q);

/*
 * Fusing nests g[0 .. m) of one group, one at least a tree (whatif.c): the
 * fused order walked once, each access checked against the accesses the
 * later nests made before it (granules of the group's smallest access): a
 * later nest's load before an earlier nest's store to a granule (flow), its
 * store before the earlier's load (anti) or store (output) breaks the
 * order. Exact for the nests' access functions (their one entry); *c the
 * first dependence broken, the distance in positions. False also when out
 * of memory (*nomem).
 */
struct edan_whatif_conflict; /* whatif.h's */
bool edan_tree_fuse_legal(const edan_affine *a, const edan_affine_nest *const *g, size_t m,
                          struct edan_whatif_conflict *c, bool *nomem);

#endif
