/*
 * mg_tree.h - MemGaze's execution-interval tree, built as a stream.
 *
 * MemGaze cuts each sample into leaves of 8 traced loads and joins them
 * pairwise, round after round, into one tree per sample (Window::buildTree in
 * its analyzer); the sample trees are then joined the same way into one tree
 * of the whole trace. A round pairs its elements in order, (0,1), (2,3), ...;
 * when it has an odd number of elements, three or more, the last one gets a
 * parent of its own with no right child; a round of two makes their parent the
 * root, and a round of one is the root itself.
 *
 * Here a round holds at most one element waiting for its right partner, so
 * the tree is built like a binary counter while the loads stream in, and
 * nodes are made in post-order: a node's right (or only) child is the node
 * made just before it.
 *
 * Each element keeps its distinct addresses in ascending order with a count
 * of loads per class; joining two is a merge. A node's values follow
 * MemGaze's own definitions, quirks included (docs/locality.md):
 *
 *   - its footprint is the number of distinct addresses under it;
 *   - an address's class share is 1 for its only class, or each class's
 *     fraction of its loads when it has several; the constant (skipped)
 *     loads take part in the fractions only for the loads of one leaf: the
 *     last leaf, reached through right children only (MemGaze's addWindow
 *     copies a left child's addresses without them, and merges a right
 *     child's map with them);
 *   - its size is its traced loads plus their skipped constant loads, and
 *     its level (key) ceil(log2(size)), at least 3.
 */
#ifndef EDAN_MEMGAZE_MG_TREE_H
#define EDAN_MEMGAZE_MG_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* The classes a traced load can have, as slots of the per-address counts. */
enum { EDAN_MG_SLOT_UNKNOWN, EDAN_MG_SLOT_STRIDED, EDAN_MG_SLOT_IRREGULAR, EDAN_MG_SLOT_STORE, EDAN_MG_SLOTS };

/* Loads in a leaf (MemGaze's min_window_size + 1). */
#define EDAN_MG_LEAF 8
/* Levels: a size of up to 2^64 loads. */
#define EDAN_MG_LEVELS 65

/* A traced load, as the tree sees it. */
typedef struct edan_mg_rec {
    uint64_t addr;
    uint64_t skipped; /* constant loads folded into this one */
    uint8_t slot;     /* EDAN_MG_SLOT_* */
} edan_mg_rec;

/* A node of the tree, kept for the visit in MemGaze's order. */
enum { EDAN_MG_LEAF_NODE, EDAN_MG_SINGLE, EDAN_MG_PAIR, EDAN_MG_SAMPLE };
typedef struct edan_mg_node {
    double share[3]; /* unknown, strided, irregular: the sums of its addresses' class shares */
    uint32_t left;   /* PAIR: the left child (the right one is the node before); SAMPLE: the sample's number */
    uint8_t key;     /* its level */
    uint8_t kind;    /* EDAN_MG_LEAF_NODE .. EDAN_MG_SAMPLE */
} edan_mg_node;

/* The sums over the nodes of one level that do not depend on the order they are visited in. */
typedef struct edan_mg_level {
    uint64_t nodes;
    uint64_t fp;      /* distinct addresses, summed over the nodes */
    uint64_t size;    /* traced + skipped loads */
    uint64_t skipped; /* skipped constant loads */
    double share[3];  /* unknown, strided, irregular; summed in MemGaze's visiting order by the caller */
    bool in_sample;   /* whether the node visited last lies inside a sample (MemGaze's IN_SAMPLE) */
} edan_mg_level;

typedef struct edan_mg_tree edan_mg_tree;

/*
 * A tree builder. With levels, every node made is kept with its values and
 * counted in levels[its key]; without, only the addresses are merged (to
 * hand the root to another tree).
 */
edan_mg_tree *edan_mg_tree_new(edan_mg_level *levels);
void edan_mg_tree_free(edan_mg_tree *t);
/* Forget the nodes and elements (buffers are kept) for the next tree. */
void edan_mg_tree_reset(edan_mg_tree *t);

/* Add a leaf of 1 .. EDAN_MG_LEAF loads. 0, or -1 with err. */
int edan_mg_tree_leaf(edan_mg_tree *t, const edan_mg_rec *recs, size_t n, edan_error *err);
/* Finish the rounds: the root is made. 0, or -1 with err (no element at all). */
int edan_mg_tree_finish(edan_mg_tree *t, edan_error *err);
/* Size (traced + skipped loads) of the finished tree's root. */
uint64_t edan_mg_tree_root_size(const edan_mg_tree *t);
/*
 * Move the finished root of from into t as its next element, a SAMPLE node
 * numbered sample (from is then reset). 0, or -1 with err.
 */
int edan_mg_tree_add_tree(edan_mg_tree *t, edan_mg_tree *from, uint32_t sample, edan_error *err);

/* The nodes kept, in the order made. */
const edan_mg_node *edan_mg_tree_nodes(const edan_mg_tree *t, size_t *n);
/*
 * The finished tree's nodes in MemGaze's visiting order (a node, then its
 * left subtree, then its right one) into *order (grown as needed, *cap its
 * capacity); their number, or -1 with err.
 */
long edan_mg_tree_preorder(const edan_mg_tree *t, uint32_t **order, size_t *cap, edan_error *err);

#endif
