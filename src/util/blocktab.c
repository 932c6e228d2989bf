/*
 * blocktab.c - the direct-mapped table of blocktab.h: making leaves and
 * regions, growing the top level and the arrays.
 */
#include "util/blocktab.h"

#include "util/bigmem.h"

#include <string.h>

#define MIN_TOP 64u     /* top-level slots at first */
#define MIN_ENTRIES 16u /* leaves, and regions, the arrays hold at first */
#define REGION_CELLS ((size_t)1 << EDAN_BLOCKTAB_REGION_BITS)

/* *p (used of cap elements of 2^shift bytes) into a zeroed array of twice the elements; false when out of memory. */
static bool double_array(void *p, size_t *cap, size_t used, unsigned shift)
{
    unsigned char **a = p;
    const size_t n = *cap ? 2 * *cap : MIN_ENTRIES;
    if (n > (SIZE_MAX >> shift))
        return false;
    unsigned char *q = edan_big_zalloc(n << shift);
    if (!q)
        return false;
    if (used)
        memcpy(q, *a, used << shift);
    edan_big_free(*a, *cap << shift);
    *a = q;
    *cap = n;
    return true;
}

static bool grow_top(edan_blocktab *t)
{
    const size_t cap = t->tcap ? 2 * t->tcap : MIN_TOP;
    edan_blocktab_slot *d = edan_big_zalloc(cap * sizeof *d);
    if (!d)
        return false;
    for (size_t i = 0; i < t->tcap; i++) {
        if (!t->top[i].region1)
            continue;
        size_t j = edan_blocktab_hash(t->top[i].region1, cap - 1);
        while (d[j].region1)
            j = (j + 1) & (cap - 1);
        d[j] = t->top[i];
    }
    edan_big_free(t->top, t->tcap * sizeof *t->top);
    t->top = d;
    t->tcap = cap;
    return true;
}

/* Room for one more leaf: its values and its number (the two arrays' capacities may differ after a failure). */
static bool grow_leaves(edan_blocktab *t)
{
    if (t->nums_cap == t->n_leaves && !double_array(&t->leaf_nums, &t->nums_cap, t->n_leaves, 3))
        return false;
    return double_array(&t->vals, &t->leaves_cap, t->n_leaves, t->leaf_shift);
}

int edan_blocktab_init(edan_blocktab *t, unsigned leaf_bits, size_t value_size)
{
    memset(t, 0, sizeof *t);
    if (leaf_bits < 1 || leaf_bits > 16 || !value_size || (value_size & (value_size - 1)) || value_size > (1u << 15))
        return -1;
    t->leaf_bits = leaf_bits;
    t->value_shift = (unsigned)__builtin_ctzll(value_size);
    t->leaf_shift = leaf_bits + t->value_shift;
    if (!grow_top(t)) {
        edan_blocktab_free(t);
        return -1;
    }
    return 0;
}

void edan_blocktab_free(edan_blocktab *t)
{
    edan_big_free(t->top, t->tcap * sizeof *t->top);
    edan_big_free(t->regions, (t->regions_cap * REGION_CELLS) * sizeof *t->regions);
    edan_big_free(t->vals, t->leaves_cap << t->leaf_shift);
    edan_big_free(t->leaf_nums, t->nums_cap * sizeof *t->leaf_nums);
    memset(t, 0, sizeof *t);
}

uint32_t *edan_blocktab_cell_probe(const edan_blocktab *t, uint64_t leaf)
{
    const uint64_t region1 = (leaf >> EDAN_BLOCKTAB_REGION_BITS) + 1;
    const size_t mask = t->tcap - 1;
    size_t j = edan_blocktab_hash(region1, mask);
    while (t->top[j].region1 && t->top[j].region1 != region1)
        j = (j + 1) & mask;
    return t->top[j].region1 ? &t->regions[t->top[j].index * REGION_CELLS + (size_t)(leaf & (REGION_CELLS - 1))] : NULL;
}

size_t edan_blocktab_make_leaf(edan_blocktab *t, uint64_t leaf)
{
    const uint64_t region1 = (leaf >> EDAN_BLOCKTAB_REGION_BITS) + 1;
    size_t mask = t->tcap - 1, j = edan_blocktab_hash(region1, mask);
    while (t->top[j].region1 && t->top[j].region1 != region1)
        j = (j + 1) & mask;
    if (!t->top[j].region1) { /* a new region: its cells, and its slot */
        if ((t->n_regions == t->regions_cap &&
             !double_array(&t->regions, &t->regions_cap, t->n_regions, EDAN_BLOCKTAB_REGION_BITS + 2)) ||
            (2 * (t->tused + 1) > t->tcap && !grow_top(t)))
            return SIZE_MAX;
        mask = t->tcap - 1;
        j = edan_blocktab_hash(region1, mask);
        while (t->top[j].region1)
            j = (j + 1) & mask;
        t->top[j] = (edan_blocktab_slot){region1, t->n_regions++};
        t->tused++;
    }
    uint32_t *cell = &t->regions[t->top[j].index * REGION_CELLS + (size_t)(leaf & (REGION_CELLS - 1))];
    if (*cell)
        return *cell - 1;
    if (t->n_leaves >= UINT32_MAX - 1 || (t->n_leaves == t->leaves_cap && !grow_leaves(t)))
        return SIZE_MAX;
    t->leaf_nums[t->n_leaves] = leaf;
    *cell = (uint32_t)(t->n_leaves + 1);
    return t->n_leaves++;
}
