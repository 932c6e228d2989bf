/*
 * reuse.h - exact LRU stack distance and reuse time of a stream of block
 * accesses, in one streaming pass.
 *
 *   r = edan_reuse_new(true);
 *   for each access of block b (an address >> log2 of the block size):
 *       edan_reuse_access(r, b, &d)     -> reuse time, or EDAN_REUSE_COLD
 *   edan_reuse_free(r);
 *
 * Definitions (MemGaze's and Mattson's):
 *   - the reuse time (reuse interval) of an access is the number of accesses
 *     since the previous access to the same block: 1 for an immediate
 *     repeat;
 *   - its stack distance is the number of distinct OTHER blocks accessed
 *     since then: 0 for an immediate repeat. A fully associative LRU cache of
 *     C blocks hits exactly the accesses with distance < C;
 *   - the first access to a block is cold: both are EDAN_REUSE_COLD.
 *
 * How (the invariant): every block has the position of its latest access in
 * a window of positions, and the window's bitmap has a bit set exactly at
 * those positions, so the distance of an access is the number of set bits
 * after its block's previous position. Counting uses popcounts within
 * 512-bit groups and a Fenwick tree over the completed groups (a few
 * thousand counters, which stay in the cache); the window is compacted to
 * the live positions when it fills, so it holds O(distinct blocks)
 * positions and the cost per access is O(log(distinct blocks)) with small
 * constants. Each block's latest access is in a direct-mapped table
 * (util/blocktab.h) of 16 bytes a block with distances (in leaves of 32
 * consecutive blocks), 8 without (leaves of 64), so an access costs no hash
 * of the block, no probe and no rehash when the blocks grow. Memory is
 * proportional to the distinct blocks: about those bytes per block where
 * blocks are dense in their leaves, at worst 512 + 328 bytes for a block
 * alone in its leaf (blocktab.h), and with distances the window (4 to 8
 * positions of 4.1 bytes per block).
 */
#ifndef EDAN_ANALYSIS_REUSE_H
#define EDAN_ANALYSIS_REUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EDAN_REUSE_COLD UINT64_MAX

typedef struct edan_reuse edan_reuse;

/* A tracker; distances: also stack distances (reuse times alone are cheaper, and smaller). NULL when out of
 * memory. */
edan_reuse *edan_reuse_new(bool distances);
/* The same with a smallest window of min_window positions (rounded up to a power of two >= 512): tests use a
 * small one so that compactions happen often. */
edan_reuse *edan_reuse_new_window(bool distances, size_t min_window);
void edan_reuse_free(edan_reuse *r);

/*
 * Access block b: returns its reuse time (EDAN_REUSE_COLD on its first
 * access) and sets *distance to its stack distance (EDAN_REUSE_COLD on the
 * first access; unchanged without distances). *prev receives the index of
 * the previous access to b (accesses count from 0; unchanged when cold).
 * Returns EDAN_REUSE_COLD - 1 when out of memory (nothing is recorded).
 */
uint64_t edan_reuse_access(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev);

/*
 * The same access, and *user points at a 32-bit word the caller keeps for
 * block b: 0 at the block's first access, then whatever the caller stored
 * there, for as long as the tracker lives (so per-block state needs no
 * second table). The pointer is valid until the next access. *user is NULL
 * when out of memory (EDAN_REUSE_NOMEM), and for a tracker without
 * distances, which has no room for the word (EDAN_REUSE_NOMEM too; nothing
 * is recorded).
 */
uint64_t edan_reuse_access_user(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, uint32_t **user);

/*
 * After the stream, with distances: fn(ctx, b, f, user) for every block b,
 * in no particular order, f the number of distinct other blocks accessed
 * after its last access (what its stack distance would be if it were
 * accessed now: a fully associative LRU cache of C blocks still holds it
 * when f < C), user its caller's word.
 */
void edan_reuse_final(const edan_reuse *r, void (*fn)(void *ctx, uint64_t b, uint64_t f, uint32_t user), void *ctx);

/*
 * A hint that block b will be accessed soon (a few accesses ahead): the
 * cache line of its entry is prefetched (when its leaf exists), so a stream
 * over a large footprint overlaps the table's cache misses. Changes nothing.
 */
void edan_reuse_prefetch(const edan_reuse *r, uint64_t b);

/* Accesses so far, and distinct blocks. */
uint64_t edan_reuse_accesses(const edan_reuse *r);
uint64_t edan_reuse_blocks(const edan_reuse *r);
/* Bytes the tracker holds (for the memory target: proportional to the distinct blocks). */
uint64_t edan_reuse_bytes(const edan_reuse *r);

#define EDAN_REUSE_NOMEM (EDAN_REUSE_COLD - 1)

#endif
