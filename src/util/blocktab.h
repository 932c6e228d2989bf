/*
 * blocktab.h - a direct-mapped table from a block number to a small
 * fixed-size value, the one kept per block where blocks are many and lie
 * close together: the reuse tracker's latest accesses (analysis/locality/reuse.h),
 * the footprint tool's lines.
 *
 *   #define BITS 6
 *   edan_blocktab t;  edan_blocktab_init(&t, BITS, sizeof(my_value));
 *   my_value *v = edan_blocktab_get(&t, block, BITS, sizeof *v);   zero-filled until first stored
 *   edan_blocktab_prefetch(&t, next_block, BITS, sizeof *v);        a hint, a few lookups ahead
 *   for (size_t i = 0; i < edan_blocktab_leaves(&t); i++)
 *       v = edan_blocktab_leaf(&t, i, &first);  ... blocks first .. first + 2^BITS - 1
 *   edan_blocktab_free(&t);
 *
 * The lookups are inline and take the table's leaf bits and value size
 * (those it was made with) as arguments: callers pass constants, so the
 * shifts of a lookup fold into its instructions.
 *
 * Three levels, as a page table's. A leaf holds the values of 2^leaf_bits
 * consecutive blocks (the blocks b of one leaf number b >> leaf_bits), in
 * the order of the blocks; it is made, zero-filled, when one of its blocks
 * is first looked up. The leaves lie in one array in the order they were
 * made (leaf i at i * leaf bytes), so a value has a fixed index
 * (edan_blocktab_get_id) and nothing moves when the table grows but that
 * array (the values keep their indices; a pointer from get() is valid until
 * the next get()). A region is 2^EDAN_BLOCKTAB_REGION_BITS consecutive
 * leaves: an array of their leaf indices + 1 (0: no leaf yet), made with the
 * region's first leaf, in a second array in the order made. The top level
 * is a hash table from a region's number to its index (open addressing, at
 * most half full). The leaf found last is checked first. So a lookup is a
 * probe of the top level (a slot per region: a few hundred for a footprint
 * of 2^20 lines), a read of a 4-byte leaf index in a region (4 bytes per
 * leaf: 64 KiB for 2^20 lines in leaves of 64), both small enough to stay in
 * the cache, then the value: no key is compared in a leaf and no hash table
 * of blocks grows.
 *
 * Memory, for n distinct blocks in l leaves and g regions (g <= l <= n):
 * l * (2^leaf_bits * value bytes + 8) for the leaves, g * (4 *
 * 2^EDAN_BLOCKTAB_REGION_BITS + 32..64) for the regions and the top level,
 * and the arrays' slack (each doubles; their pages are touched only where
 * leaves are). So about the value bytes per block where the blocks are dense
 * in their leaves (arrays, stacks, code), and at worst, each block alone in
 * its leaf and its region (a stride of at least 2^(leaf_bits + 6) blocks),
 * 2^leaf_bits * value bytes + 328 per block: proportional to the distinct
 * blocks, with that constant, never to the span of the addresses.
 */
#ifndef EDAN_UTIL_BLOCKTAB_H
#define EDAN_UTIL_BLOCKTAB_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EDAN_BLOCKTAB_REGION_BITS 6 /* log2 of the leaves of a region */

typedef struct edan_blocktab_slot {
    uint64_t region1; /* region number + 1; 0: an empty slot */
    uint64_t index;   /* the region's index in the array of regions */
} edan_blocktab_slot;

typedef struct edan_blocktab {
    edan_blocktab_slot *top;
    size_t tcap, tused; /* tcap a power of two; tused <= tcap / 2 */
    uint32_t *regions;  /* region k's leaf indices + 1 at k << EDAN_BLOCKTAB_REGION_BITS */
    size_t n_regions, regions_cap;
    unsigned char *vals; /* the leaves, leaf i at i << leaf_shift */
    uint64_t *leaf_nums; /* leaf i's number */
    size_t n_leaves, leaves_cap, nums_cap;
    unsigned leaf_bits;   /* log2 of the blocks of a leaf */
    unsigned value_shift; /* log2 of a value's bytes (values are 1 to 2^15 bytes, a power of two) */
    unsigned leaf_shift;  /* leaf_bits + value_shift */
    uint64_t last1;       /* the leaf number + 1 looked up last (0: none), and its index */
    size_t last_index;
} edan_blocktab;

/*
 * An empty table of leaves of 2^leaf_bits blocks (1..16), for values of
 * value_size bytes, a power of two (so a value never straddles two cache
 * lines when it is at most 64). 0, or -1 when out of memory.
 */
int edan_blocktab_init(edan_blocktab *t, unsigned leaf_bits, size_t value_size);
void edan_blocktab_free(edan_blocktab *t);

/* The slow path of a lookup: the index of leaf number `leaf`, made (with its region) when absent. SIZE_MAX when
 * out of memory or past 2^32 - 1 leaves. */
size_t edan_blocktab_make_leaf(edan_blocktab *t, uint64_t leaf);

/*
 * A region's top-level slot: its number's low bits, folded with higher ones,
 * so the regions of one range of addresses take consecutive slots and never
 * collide with each other (a multiplicative hash would make them collide as
 * often as random numbers do).
 */
static inline size_t edan_blocktab_hash(uint64_t region1, size_t mask)
{
    return (size_t)(region1 ^ (region1 >> 24)) & mask;
}

/* The slow path of edan_blocktab_cell: the region is not in its home slot. */
uint32_t *edan_blocktab_cell_probe(const edan_blocktab *t, uint64_t leaf);

/* The cell of leaf number `leaf` in its region (its index + 1, 0: none yet); NULL when its region is absent. */
static inline uint32_t *edan_blocktab_cell(const edan_blocktab *t, uint64_t leaf)
{
    const uint64_t region1 = (leaf >> EDAN_BLOCKTAB_REGION_BITS) + 1;
    const edan_blocktab_slot *s = &t->top[edan_blocktab_hash(region1, t->tcap - 1)];
    if (__builtin_expect(s->region1 == region1, 1))
        return &t->regions[s->index << EDAN_BLOCKTAB_REGION_BITS |
                           (size_t)(leaf & ((1u << EDAN_BLOCKTAB_REGION_BITS) - 1))];
    return edan_blocktab_cell_probe(t, leaf);
}

/*
 * The index of block b's value, its leaf made when absent: leaf index <<
 * leaf_bits | b's place in its leaf. SIZE_MAX when out of memory.
 */
static inline size_t edan_blocktab_get_id(edan_blocktab *t, uint64_t b, unsigned leaf_bits)
{
    assert(leaf_bits == t->leaf_bits);
    const uint64_t leaf = b >> leaf_bits;
    size_t index = t->last_index;
    if (leaf + 1 != t->last1) {
        const uint32_t *cell = edan_blocktab_cell(t, leaf);
        index = cell && *cell ? *cell - 1 : edan_blocktab_make_leaf(t, leaf);
        if (index == SIZE_MAX)
            return SIZE_MAX;
        t->last1 = leaf + 1;
        t->last_index = index;
    }
    return index << leaf_bits | (size_t)(b & ((1ull << leaf_bits) - 1));
}

/* The value of index id (from edan_blocktab_get_id; valid until the next get). */
static inline void *edan_blocktab_at(const edan_blocktab *t, size_t id, size_t value_size)
{
    assert(value_size == (size_t)1 << t->value_shift);
    return t->vals + id * value_size;
}

/* Block b's value (zero-filled until the caller stores into it), its leaf made when absent; NULL when out of
 * memory. Valid until the next get. */
static inline void *edan_blocktab_get(edan_blocktab *t, uint64_t b, unsigned leaf_bits, size_t value_size)
{
    const size_t id = edan_blocktab_get_id(t, b, leaf_bits);
    return id == SIZE_MAX ? NULL : edan_blocktab_at(t, id, value_size);
}

/*
 * A hint that block b will be looked up soon (a few lookups ahead): when its
 * leaf exists, the cache line of its value is prefetched, so lookups over
 * many blocks overlap their misses. Changes nothing.
 */
static inline void edan_blocktab_prefetch(const edan_blocktab *t, uint64_t b, unsigned leaf_bits, size_t value_size)
{
    assert(leaf_bits == t->leaf_bits && value_size == (size_t)1 << t->value_shift);
    const uint32_t *cell = edan_blocktab_cell(t, b >> leaf_bits);
    if (cell && *cell)
        __builtin_prefetch(
            t->vals + (((size_t)(*cell - 1) << leaf_bits | (size_t)(b & ((1ull << leaf_bits) - 1))) * value_size), 1);
}

/* Leaves made so far: leaf i, for i below this, is edan_blocktab_leaf(t, i, ...). */
static inline size_t edan_blocktab_leaves(const edan_blocktab *t)
{
    return t->n_leaves;
}

/* Leaf i's 2^leaf_bits values (valid until the next get); *first the number of its first block. */
static inline void *edan_blocktab_leaf(const edan_blocktab *t, size_t i, uint64_t *first)
{
    *first = t->leaf_nums[i] << t->leaf_bits;
    return t->vals + (i << t->leaf_shift);
}

/* Bytes the table holds: the leaves and regions made and the top level (the arrays' unused tails apart). */
static inline uint64_t edan_blocktab_bytes(const edan_blocktab *t)
{
    return ((uint64_t)t->n_leaves << t->leaf_shift) + (uint64_t)t->n_leaves * sizeof(uint64_t) +
           ((uint64_t)t->n_regions << EDAN_BLOCKTAB_REGION_BITS) * sizeof(uint32_t) +
           (uint64_t)t->tcap * sizeof(edan_blocktab_slot);
}

#endif
