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
 * A group's nests must have the same levels and trip counts
 * (edan_whatif_compatible); each group is replayed as often as its first
 * nest was entered: when every group was entered as often, the groups in
 * turn per entry (a function holding them called again), else each
 * group's entries one after the other. Redundant halo work of the tile scheme (a consumer's
 * tile needing the producer's values around it) is not replayed: the
 * replay keeps each nest's own iteration space.
 */
#ifndef EDAN_ANALYSIS_WHATIF_H
#define EDAN_ANALYSIS_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/projection/projection.h"
#include "analysis/whatif/affine.h"

typedef enum { EDAN_WHATIF_EACH, EDAN_WHATIF_TILE, EDAN_WHATIF_POINT } edan_whatif_order;

typedef struct edan_whatif_plan {
    edan_whatif_order order;
    uint64_t tile;  /* 0: no blocking */
    unsigned block; /* bit k: level k (0 the outermost) is blocked */
} edan_whatif_plan;

/* Nests a and b can run in one group: the same levels, trip counts and entries. */
bool edan_whatif_compatible(const edan_affine_nest *a, const edan_affine_nest *b);

/*
 * Replay groups of nests (indices into edan_affine_nests(a)): group g is
 * nests[start[g] .. start[g + 1]), n_groups groups, in order, into *out
 * (zeroed first), lines of 2^line_shift bytes, with the final flush of the
 * lines still dirty (projection.h's end_diff). Every nest must be exact.
 * 0, or -1 when out of memory.
 */
int edan_whatif_replay(const edan_affine *a, const uint32_t *nests, const size_t *start, size_t n_groups,
                       const edan_whatif_plan *plan, unsigned line_shift, edan_lru_traffic *out);

/* The DRAM bytes of a replay's traffic at a cache of 2^k lines (reads, write-backs, final flush). */
double edan_whatif_bytes(const edan_lru_traffic *t, unsigned k, unsigned line_shift);

#endif
