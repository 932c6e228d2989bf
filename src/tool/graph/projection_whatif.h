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
    edan_whatif_model lat[WI_CACHES]; /* where its loads found their data: cm, or with the machine's prefetchers */
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
    /* the machine's prefetchers and hit latencies on each size's hierarchy (prefetch: some level has one) */
    bool prefetch;
    edan_prefetch_config pf_cfg[WI_CACHES][EDAN_CACHE_MAX_LEVELS];
    uint32_t pf_hit[WI_CACHES][EDAN_CACHE_MAX_LEVELS];
    wi_result unblocked;   /* the nests as they ran, a candidate beside the tiles (tile 0) */
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

/* A replay's DRAM bytes at cache c: an LRU cache of its size, or (--what-if-cache=machine) its cache model. */
double proj_whatif_bytes(const proj_tool *t, const edan_lru_traffic *lru, const edan_whatif_model *cm, int c);

/* The seconds result r's loads wait on the hierarchy at cache c beyond the L1d's hit (0 with the LRU caches). */
double proj_whatif_exposed(const proj_tool *t, const wi_result *r, int c);

/* Result r's projected time at cache c: ExaSAT's bound of the region's work with the halo's and the replay's
 * traffic, plus its exposed latency (docs/projection.md). */
edan_proj proj_whatif_bound(const proj_tool *t, const wi_result *r, int c);

/* Whether the nests as they ran are at least as fast at cache c as every legal tile: blocking does not pay. */
bool proj_whatif_unblocked_best(const proj_tool *t, int c);

#endif
