/*
 * projection_whatif.h - the state of the projection's what-ifs, shared by
 * projection_whatif.c (options, replays) and projection_whatif_view.c (the
 * reports). Internal to tool/graph.
 */
#ifndef EDAN_TOOL_GRAPH_PROJECTION_WHATIF_H
#define EDAN_TOOL_GRAPH_PROJECTION_WHATIF_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/whatif/whatif.h"
#include "tool/graph/projection_tool.h"

#define WI_TILES 16
#define WI_CACHES 16 /* --projection-cache sizes the cache model's replays sweep (--what-if-cache=machine) */

typedef struct wi_result {
    edan_whatif_order order;
    uint64_t tile;
    bool legal; /* the plan keeps every dependence; else not replayed, why says which it breaks */
    edan_whatif_conflict why;
    uint64_t halo;                  /* the tile scheme's redundant iterations: points recomputed, */
    double halo_flops, halo_wflops; /* their flops and weighted flops */
    double added;                   /* instructions the plan adds: loops run again per tile, tile loops, the halo */
    edan_lru_traffic lru;           /* the replay (the halo's recomputation included) */
    edan_lru_traffic plain;         /* with a halo: the tile scheme replayed without it (halo traffic: lru - plain) */
    edan_whatif_model cm[WI_CACHES], cm_plain[WI_CACHES]; /* --what-if-cache=machine: through the cache model */
} wi_result;

/* A nest's work per point (iteration of its innermost loop): its loops' rows over its points. */
typedef struct wi_work {
    double flops, wflops, insns;
} wi_work;

struct proj_whatif {
    bool fuse;      /* --what-if=fuse; else block */
    unsigned block; /* the levels blocked: bit k for level k + 1 */
    uint64_t tiles[WI_TILES];
    int n_tiles; /* given by --what-if-tiles, else 0 until made */
    char csv[512];
    edan_affine *affine;
    bool made, failed;
    uint32_t *order; /* exact nests, grouped: group g is order[start[g] .. start[g + 1]) */
    size_t *start, n_groups, n_exact;
    edan_lru_traffic as_run; /* the exact nests replayed as they ran */
    bool assoc;              /* --what-if-cache=machine: replays through the machine's cache model, not the LRU */
    edan_cache_config cache; /* its configuration: the machine's data caches */
    char cache_label[256];
    edan_cache_config caches[WI_CACHES]; /* per --projection-cache size: the machine's with its last level resized */
    char cache_labels[WI_CACHES][256];
    edan_whatif_model as_run_cm[WI_CACHES];
    const char **pair_why; /* --what-if=fuse: per nest i > 0, why nests i - 1 and i are not fused (NULL: fused) */
    wi_result res[2 * WI_TILES + 1];
    int n_res;
    unsigned regs[PROJ_REGS]; /* --what-if-registers */
    int n_regs;
    proj_regs *model; /* per nest */
    wi_work *work;    /* per nest */
};

/* Everything the reports show, once (projection_whatif.c). False when out of memory. */
bool proj_whatif_make(proj_tool *t);

#endif
