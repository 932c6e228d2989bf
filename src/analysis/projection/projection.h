/*
 * projection.h - ExaSAT's machine-model projection (Unat et al., IJHPCA
 * 2015, Section 3.3): a piece of code with weighted floating-point work
 * C and off-chip traffic D on a machine of aggregate peak rate alpha and
 * memory bandwidth beta takes
 *
 *     T = max(T_c, T_d),   T_c = C / alpha,   T_d = D / beta,
 *
 * bound by compute when T_c > T_d, by memory otherwise (ExaSAT's "perfect
 * overlap"); its bytes per flop is D / C. A program's ExaSAT time is the sum
 * of its loops' times (each loop bound on its own), never below the max of
 * its totals.
 *
 * The traffic D of every fully associative LRU cache size at once, from a
 * stream of block accesses with their stack distances (analysis/locality/reuse.h):
 * a cache of 2^k blocks, write-back and write-allocate, reads a block on
 * every access at distance >= 2^k and on every cold one, and writes a block
 * back when it evicts it dirty. Eviction happens between two accesses to a
 * block exactly when the second one's distance is >= 2^k; the block is dirty
 * then when a store to it came after the last time it was read in, that is
 * when every access between that store and the eviction had a distance
 * below 2^k. So a block needs one word of state (edan_lru_step): whether a
 * store came since its last access, the largest distance bin since the last
 * store, and who made that store. After the stream, a block's final
 * distance (analysis/locality/reuse.h, edan_reuse_final) says at which sizes it was
 * evicted after its last access (edan_lru_finish): those write-backs
 * happened too. Blocks still dirty in the cache at the end are written to
 * memory then (the program's writes happen: a run that writes an array
 * once shows its write traffic), counted as traffic and also apart
 * (edan_lru_dirty_at_end). The cache model does not flush at the end, so
 * its traffic is completed with edan_proj_cache_dirty's ranges.
 */
#ifndef EDAN_ANALYSIS_PROJECTION_H
#define EDAN_ANALYSIS_PROJECTION_H

#include <stdbool.h>
#include <stdint.h>

#include <stddef.h>

#include "analysis/cache/cache.h"
#include "analysis/projection/opmix.h"
#include "util/symbols/symbols.h"

/* ===================================================================== */
/* The bound                                                              */
/* ===================================================================== */

typedef struct edan_proj_machine {
    double peak_flops; /* the machine's weighted flop/s: cores x one core's peak */
    double bandwidth;  /* its memory bandwidth in bytes/s: cores x one core's share */
    edan_flop_weights weights;
} edan_proj_machine;

typedef struct edan_proj {
    double flops, weighted_flops, dram_bytes;
    double bytes_per_flop; /* dram_bytes / weighted_flops (ExaSAT's B:F); NaN without flops */
    double time_compute;   /* weighted_flops / peak_flops, seconds */
    double time_memory;    /* dram_bytes / bandwidth */
    double time;           /* the larger */
    bool memory_bound;     /* time_memory >= time_compute */
} edan_proj;

/* The bound of weighted flops and DRAM bytes on a machine's peak and bandwidth. */
edan_proj edan_proj_bound(double flops, double weighted_flops, double dram_bytes, double peak_flops, double bandwidth);
/* The same from an operation mix, weighted by the machine's weights. */
edan_proj edan_proj_evaluate(const edan_opmix *mix, double dram_bytes, const edan_proj_machine *m);

/* ===================================================================== */
/* Traffic of every fully associative cache size                          */
/* ===================================================================== */

/* Cache sizes of 2^k blocks, k = 0 .. EDAN_LRU_SIZES - 1. */
#define EDAN_LRU_SIZES 48

typedef struct edan_lru_traffic {
    uint64_t accesses;                    /* block accesses */
    uint64_t cold;                        /* first accesses to a block: read at every size */
    uint64_t reuse[EDAN_LRU_SIZES];       /* reuses by distance bin: 0 for d = 0, b for d in [2^(b-1), 2^b) */
    int64_t wb_diff[EDAN_LRU_SIZES + 1];  /* write-backs charged here, a difference array over k */
    int64_t end_diff[EDAN_LRU_SIZES + 1]; /* blocks still dirty in the cache at the end, charged here, alike */
} edan_lru_traffic;

/* The bin of a stack distance (the last bin is open-ended). */
static inline unsigned edan_lru_bin(uint64_t d)
{
    const unsigned b = d ? 64u - (unsigned)__builtin_clzll(d) : 0;
    return b < EDAN_LRU_SIZES ? b : EDAN_LRU_SIZES - 1;
}

/* Blocks a cache of 2^k blocks reads: the cold accesses and the reuses at distance >= 2^k. */
uint64_t edan_lru_reads(const edan_lru_traffic *t, unsigned k);
/* Blocks it writes back (charged here). */
uint64_t edan_lru_writebacks(const edan_lru_traffic *t, unsigned k);
/* Blocks it holds dirty at the end of the stream (charged here): written to memory then. */
uint64_t edan_lru_dirty_at_end(const edan_lru_traffic *t, unsigned k);
/* Blocks it writes to memory: its write-backs and the final flush of the blocks dirty at the end. */
uint64_t edan_lru_writes(const edan_lru_traffic *t, unsigned k);
/* The smallest k at which every reuse hits: a working set of 2^k blocks (0 without reuses). */
unsigned edan_lru_working_set(const edan_lru_traffic *t);
void edan_lru_merge(edan_lru_traffic *to, const edan_lru_traffic *from);

/* The block state word: a store since ... (bit 31), the largest distance bin since it (bits 25-30), its owner. */
#define EDAN_LRU_DIRTY 0x80000000u
#define EDAN_LRU_OWNERS (1u << 25) /* owners are below this */

/* Write-backs of an access: at every size 2^k with lo <= k < hi, charged to owner. */
typedef struct edan_lru_wb {
    unsigned lo, hi;
    uint32_t owner;
} edan_lru_wb;

/*
 * One access to a block: d its stack distance (EDAN_REUSE_COLD, i.e.
 * UINT64_MAX, for its first), store whether it writes, *word the block's
 * state (0 for a new block), owner (< EDAN_LRU_OWNERS) what a store is
 * charged to. Returns the write-backs that happened before this access (the
 * block's eviction, dirty); updates *word.
 */
static inline edan_lru_wb edan_lru_step(uint32_t *word, uint64_t d, bool store, uint32_t owner)
{
    edan_lru_wb wb = {0, 0, 0};
    const uint32_t w = *word;
    unsigned since = (w >> 25) & 63u; /* bin of the largest distance since the block's last store */
    if (d != UINT64_MAX) {
        const unsigned b = edan_lru_bin(d);
        /* evicted at 2^k when d >= 2^k (k < b), dirty when every access since the store was nearer (k >= since) */
        if ((w & EDAN_LRU_DIRTY) && since < b)
            wb = (edan_lru_wb){since, b, w & (EDAN_LRU_OWNERS - 1)};
        if (b > since)
            since = b;
    }
    if (store)
        *word = EDAN_LRU_DIRTY | owner; /* since = 0: the store itself is the last access */
    else if (w & EDAN_LRU_DIRTY)
        *word = EDAN_LRU_DIRTY | ((uint32_t)since << 25) | (w & (EDAN_LRU_OWNERS - 1));
    return wb;
}

/*
 * The end of the stream for a block with state word and final distance f:
 * the write-backs of its eviction after its last access (sizes [lo, hi)),
 * and *dirty_from, the smallest k at which it is still held dirty
 * (EDAN_LRU_SIZES when at none).
 */
static inline edan_lru_wb edan_lru_finish(uint32_t word, uint64_t f, unsigned *dirty_from)
{
    edan_lru_wb wb = {0, 0, word & (EDAN_LRU_OWNERS - 1)};
    *dirty_from = EDAN_LRU_SIZES;
    if (!(word & EDAN_LRU_DIRTY))
        return wb;
    const unsigned since = (word >> 25) & 63u, b = edan_lru_bin(f);
    if (since < b) { /* evicted at 2^k for k < b, dirty then for k >= since */
        wb.lo = since;
        wb.hi = b;
    }
    *dirty_from = since > b ? since : b;
    return wb;
}

/* Charge write-backs [lo, hi) to t. */
static inline void edan_lru_charge(edan_lru_traffic *t, unsigned lo, unsigned hi)
{
    t->wb_diff[lo]++;
    t->wb_diff[hi]--;
}

/* ===================================================================== */
/* The final flush of a cache model                                       */
/* ===================================================================== */

/* A range of bytes [lo, hi). */
typedef struct edan_proj_range {
    uint64_t lo, hi;
} edan_proj_range;

/*
 * The bytes the cache model holds dirty at the end, at any write-back level:
 * flushing the hierarchy writes each to memory once (a line dirty at two
 * levels is one write of the newest data). Sorted, disjoint ranges in a
 * new array *out (the caller frees it; NULL when none), their number in *n.
 * -1 when out of memory. The model is read, not changed.
 */
int edan_proj_cache_dirty(const edan_cache *c, edan_proj_range **out, size_t *n);

/* ===================================================================== */
/* Memory regions                                                         */
/* ===================================================================== */

/*
 * The region of memory an address is in: each data object of the program
 * (an ELF OBJECT symbol with a size; of aliases at one address the largest,
 * then a name not starting with '_', then the first by name; an object
 * inside an earlier one is that one's), the rest of its loaded segments
 * (static data), the stack, and the heap (everything else: brk and mmap
 * memory alike). The trace carries no register values, so neither the stack
 * pointer nor malloc's results are known: the stack is the pages between the
 * lowest and the highest sp-relative access so far (a frame's locals
 * reached through a pointer lie between them), and the heap is one region.
 */
enum { EDAN_REGION_STACK, EDAN_REGION_HEAP, EDAN_REGION_STATIC, EDAN_REGION_OBJECT };

#define EDAN_REGION_PAGE 4096u

typedef struct edan_proj_region {
    const char *name;    /* an object's name (the program's data owns it), or "(stack)", "(heap)", ... */
    uint64_t start, end; /* an object's [start, end); 0, 0 for the others */
    int kind;            /* EDAN_REGION_* */
} edan_proj_region;

typedef struct edan_proj_regions {
    edan_proj_region *r; /* [0] the stack, [1] the heap, [2] static data, then the objects by address */
    size_t n;
    edan_elf_segment seg[EDAN_ELF_MAX_SEGMENTS];
    size_t n_seg;
    uint64_t stack_lo, stack_hi; /* [lo, hi): the pages of the sp-relative accesses so far (empty: lo == hi) */
} edan_proj_regions;

/* The regions of a program's data (d NULL: no program, so no objects and no static data); -1 when out of memory. */
int edan_proj_regions_init(edan_proj_regions *m, const edan_elf_data *d);
void edan_proj_regions_free(edan_proj_regions *m);

/* An sp-relative access of size bytes at addr: the stack covers its pages from now on. */
static inline void edan_proj_regions_sp(edan_proj_regions *m, uint64_t addr, uint32_t size)
{
    const uint64_t lo = addr & ~(uint64_t)(EDAN_REGION_PAGE - 1);
    const uint64_t hi = ((addr + (size ? size : 1) - 1) | (EDAN_REGION_PAGE - 1)) + 1;
    if (m->stack_lo == m->stack_hi) {
        m->stack_lo = lo;
        m->stack_hi = hi;
        return;
    }
    if (lo < m->stack_lo)
        m->stack_lo = lo;
    if (hi > m->stack_hi)
        m->stack_hi = hi;
}

/*
 * The index of the region holding addr; [*lo, *hi) an interval around addr
 * whose addresses outside the stack are in that region too, for the caller
 * to skip the search next time (empty for the stack: check it first).
 */
uint32_t edan_proj_region_of(const edan_proj_regions *m, uint64_t addr, uint64_t *lo, uint64_t *hi);

#endif
