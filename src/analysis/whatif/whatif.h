/*
 * whatif.h - the traffic of loop nests transformed: cache blocking and
 * fusion, from their affine access functions (analysis/whatif/affine.h).
 *
 * A what-if replays the accesses of exact nests (edan_affine_nest_exact)
 * in the order the transformed code would make them, from each static
 * memory instruction's access function, through the projection's
 * fully associative LRU stack distances (analysis/projection/projection.h): one replay
 * gives the traffic at every cache size. The order:
 *   - a point of a nest is an iteration vector i (level k from 0 to
 *     trip[k] - 1); at a point the nest's instructions make their accesses
 *     in the order of their pcs, an instruction of an outer level (its
 *     context shorter than the chain) only at the points whose deeper
 *     counters are all 0;
 *   - blocking levels B with tile T: the tile loops (one per level of B,
 *     in level order, tile t covering [t T, min((t + 1) T, trip))) outside
 *     the nest's own loops in their order, each restricted to its tile;
 *     T = 0 is the nest as it ran;
 *   - EDAN_WHATIF_EACH (ExaSAT's traditional scheme): each nest of the
 *     group over the whole domain, block by block, then the next nest;
 *   - EDAN_WHATIF_TILE (the alternative ExaSAT takes from Woodward et al.):
 *     all nests of the group on one block before the next block;
 *   - EDAN_WHATIF_POINT (fusion): all nests of the group at one point
 *     before the next point (their bodies one after the other).
 * A nest of several inner loops (a tree, affine.h) runs alone under the
 * other orders: at each iteration of a loop, its own instructions and its inner
 * loops (each at the place of its lowest pc) in pc order; blocking tiles
 * each level's positions (whatif_tree.h: an unrolled loop and its remainder
 * share them), the tile loops outside, and an instruction of a loop with a
 * blocked level below it follows the tile's start (the loads GCC places
 * before an unrolled loop). Fused with other nests (edan_whatif_fusable:
 * the same positions per level), every nest of the group runs as a tree
 * over the positions: at each position of every level (the outermost
 * slowest), each nest in turn runs its loops' iterations that start there,
 * a loop's own instructions once per its iteration (those before its inner
 * loops at their first position, the others at their last).
 * A group's nests must have the same levels and trip counts
 * (edan_whatif_compatible: chains only; edan_whatif_fusable for fusion,
 * trees too); each group is replayed as often as its first
 * nest was entered: when every group was entered as often, the groups in
 * turn per entry (a function holding them called again), else each
 * group's entries one after the other. In the tile scheme a nest's box
 * may reach beyond the block (plan.halo): the halo a later nest of the
 * group reads from it, recomputed on every block that needs it (the
 * redundant work of Woodward et al.'s scheme), clipped to its domain.
 *
 * Dependences (edan_whatif_check). Two accesses of the replayed nests, at
 * least one a store, depend when they can touch a common byte: for access
 * functions with equal strides, the distance r - q between the point q of
 * the first and r of the second is every integer solution of
 * S (q - r) = base_b - base_a within the trip counts (found level by level
 * from the largest stride, at most EDAN_WHATIF_SOLUTIONS of them), any
 * value on a level both leave at one address (stride 0); with different
 * strides, any distance when their footprints overlap. An instruction of
 * an outer level runs where the deeper counters are 0: its point there is 0. Each level's
 * distances are kept as a range (a superset: the check is conservative).
 * A plan is legal when it keeps the order of every dependent pair:
 *   - tiling a nest (tile loops outside): no pair whose first nonzero
 *     distance is of one sign and whose first tile change (on a blocked
 *     level with more than one tile) can be of the other;
 *   - fusion (EDAN_WHATIF_POINT): no pair from an earlier nest to a later
 *     one whose distance can be lexicographically negative (the later
 *     nest's point before the earlier's); in a group with a tree nest, the
 *     fused order is walked once and each access checked against what the
 *     later nests touched before it (exact: whatif_tree.h's
 *     edan_tree_fuse_legal);
 *   - the tile scheme: a store of an earlier nest read by a later one
 *     gives the earlier nest the halo the later one's box needs (so every
 *     such flow holds); any other dependence between two nests of which
 *     one is recomputed, or inside a recomputed nest, breaks (recomputing
 *     would read overwritten values or write twice); between nests not
 *     recomputed, no pair whose first tile change can be negative.
 */
#ifndef EDAN_ANALYSIS_WHATIF_H
#define EDAN_ANALYSIS_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/prefetch/prefetch.h"
#include "analysis/projection/projection.h"
#include "analysis/whatif/affine.h"

typedef enum { EDAN_WHATIF_EACH, EDAN_WHATIF_TILE, EDAN_WHATIF_POINT } edan_whatif_order;

/* How far a nest's box reaches beyond the block on each level (the tile scheme), and what that costs. */
typedef struct edan_whatif_halo {
    uint64_t lo[EDAN_AFFINE_LEVELS], hi[EDAN_AFFINE_LEVELS]; /* points below the block's first, above its last */
    uint64_t redundant; /* points it computes more than once, over all its entries: the recomputed halo */
} edan_whatif_halo;

typedef struct edan_whatif_plan {
    edan_whatif_order order;
    uint64_t tile;                /* 0: no blocking */
    unsigned block;               /* bit k: level k (0 the outermost) is blocked */
    const edan_whatif_halo *halo; /* EDAN_WHATIF_TILE: per entry of nests[] (edan_whatif_check's); NULL: none */
} edan_whatif_plan;

#define EDAN_WHATIF_SOLUTIONS 64 /* distances of one pair enumerated before it counts as any distance */

typedef enum { EDAN_DEP_FLOW, EDAN_DEP_ANTI, EDAN_DEP_OUTPUT } edan_dep_kind;

/* A dependence a plan breaks. */
typedef struct edan_whatif_conflict {
    edan_dep_kind kind;
    uint32_t source, sink; /* indices into edan_affine_insns(): the access first in the original order, the other */
    bool uniform;          /* one distance vector (lo == hi on every level) */
    bool recomputed;       /* broken by recomputing a halo (the tile scheme) */
    unsigned levels;
    int64_t lo[EDAN_AFFINE_LEVELS], hi[EDAN_AFFINE_LEVELS]; /* the distance sink point - source point per level */
} edan_whatif_conflict;

#define EDAN_WHATIF_GROUP 64 /* nests of one group at most */

/* Nests a and b can run in one group: the same levels, trip counts and entries (chains). */
bool edan_whatif_compatible(const edan_affine_nest *a, const edan_affine_nest *b);

/*
 * Whether exact nests x then y can be fused (EDAN_WHATIF_POINT in one
 * group): NULL when they can, else why not: a bounded (non-rectangular)
 * nest, other depths, other positions per level (pos, as
 * edan_whatif_positions), other entries, out of memory. Chains and trees
 * alike; the dependences are edan_whatif_check's.
 */
const char *edan_whatif_unfusable(const edan_affine *a, const edan_affine_nest *x, const edan_affine_nest *y);

/* The positions of exact nest n per level into pos[0 .. n->levels): a chain's trip counts, a tree's positions
 * (whatif_tree.h), a bounded nest's largest trip counts. False when out of memory. */
bool edan_whatif_positions(const edan_affine *a, const edan_affine_nest *n, uint64_t *pos);

/*
 * Replay groups of nests (indices into edan_affine_nests(a)): group g is
 * nests[start[g] .. start[g + 1]), n_groups groups, in order, into *out
 * (zeroed first), lines of 2^line_shift bytes, with the final flush of the
 * lines still dirty (projection.h's end_diff). Every nest must be exact.
 * 0, or -1 when out of memory.
 */
int edan_whatif_replay(const edan_affine *a, const uint32_t *nests, const size_t *start, size_t n_groups,
                       const edan_whatif_plan *plan, unsigned line_shift, edan_lru_traffic *out);

/*
 * Whether the plan keeps every dependence of the groups (as for
 * edan_whatif_replay). halo (per entry of nests[], zeroed first) gets each
 * nest's halo and redundant points under the tile scheme (set plan.halo to
 * it to replay them). True when legal; else *c is the first dependence
 * broken. It allocates only for a tree nest (its tree; out of memory: not
 * legal, *c zeroed). A tree nest's accesses in loops sharing each level's
 * positions are checked as a chain's, over their positions; two in other
 * sibling loops whose footprints meet, one a store, break any tiling.
 */
bool edan_whatif_check(const edan_affine *a, const uint32_t *nests, const size_t *start, size_t n_groups,
                       const edan_whatif_plan *plan, edan_whatif_halo *halo, edan_whatif_conflict *c);

/* A replay's DRAM traffic under the cache model: bytes read, written (the final flush included), of those flushed;
 * where each load found its data (loads[0] the first level, loads[k] level k, loads[n_levels] RAM); and its
 * rounds of overlapped misses by the deepest level one of them reached (edan_whatif_core: rounds[0] unused). */
typedef struct edan_whatif_model {
    uint64_t read, write, flushed;
    uint64_t loads[EDAN_CACHE_MAX_LEVELS + 1];
    uint64_t rounds[EDAN_CACHE_MAX_LEVELS + 1];
} edan_whatif_model;

/*
 * The core around the replay's cache model, as the machine file gives it.
 * Prefetchers (analysis/prefetch/prefetch.h; pf NULL: none): one
 * configuration and hit latency per level of the cache configuration.
 * Overlap (Karkhanis and Smith's first-order model): the loads in one window
 * of `window` consecutive loads (the reorder buffer's share of them) are in
 * flight together, so the misses among them wait once, in rounds of at most
 * `mshrs` (the L1d's), each as long as its deepest miss; 0: no windows.
 */
typedef struct edan_whatif_core {
    const edan_prefetch_config *pf;
    const uint32_t *hit;
    uint64_t window;
    uint32_t mshrs;
} edan_whatif_core;

/*
 * The same replay through a cache model of configuration cfg
 * (analysis/cache/cache.h: set-associative levels, the one model every
 * analysis uses) instead of the LRU stack distances, started empty; the
 * lines it holds dirty at the end are written once (projection.h's
 * edan_proj_cache_dirty). With core (NULL: none) its prefetchers train on
 * every access, in the order replayed, at the instruction's pc and the
 * lines they name are brought in (their traffic counted), as the timing
 * model's cache does (a load that finds a prefetched line hits), and the
 * loads' misses are counted in rounds. 0, or -1 with err set (a bad
 * configuration, out of memory).
 */
int edan_whatif_replay_cache(const edan_affine *a, const uint32_t *nests, const size_t *start, size_t n_groups,
                             const edan_whatif_plan *plan, const edan_cache_config *cfg, const edan_whatif_core *core,
                             edan_whatif_model *out, edan_error *err);

/* The DRAM bytes of a replay's traffic at a cache of 2^k lines (reads, write-backs, final flush). */
double edan_whatif_bytes(const edan_lru_traffic *t, unsigned k, unsigned line_shift);

#endif
