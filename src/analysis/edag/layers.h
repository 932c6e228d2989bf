/*
 * layers.h - W_i, the number of memory-access vertices in each layer i.
 *
 * D can be as large as the trace is long (a pointer chase has one layer per
 * step), so the counts must be small: each layer keeps the low 16 bits of
 * its count in chunked arrays that are allocated as layers appear (no
 * reallocation, no copy), and the rare layer whose count wraps past 65535
 * carries into a small hash map. A billion-step chase costs 2 bytes a layer.
 */
#ifndef EDAN_ANALYSIS_LAYERS_H
#define EDAN_ANALYSIS_LAYERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EDAN_LAYER_CHUNK_BITS 16

typedef struct edan_layers {
    uint16_t **chunk; /* chunk[i >> CHUNK_BITS][i & mask] = low 16 bits of W_i */
    size_t n_chunks;
    uint64_t *carry_key; /* i + 1, 0 = empty */
    uint64_t *carry_val; /* multiples of 65536 */
    size_t carry_cap, carry_used;
} edan_layers;

void edan_layers_free(edan_layers *l);
/* W_i (0 for a layer never seen). */
uint64_t edan_layers_get(const edan_layers *l, uint64_t i);
/* Slow paths of edan_layers_inc; false when out of memory. */
bool edan_layers_new_chunk(edan_layers *l, uint64_t i);
bool edan_layers_carry(edan_layers *l, uint64_t i);
/*
 * The sum over layers 1..D of ceil(W_i / m), m >= 1: the layered memory
 * cost's slope (metrics.h). One pass over the 16-bit counts with no
 * division per layer: a chase has a layer per step, and a report computes
 * this for every configuration and value of m.
 */
uint64_t edan_layers_ceil_sum(const edan_layers *l, uint64_t D, uint64_t m);

static inline bool edan_layers_inc(edan_layers *l, uint64_t i)
{
    size_t c = (size_t)(i >> EDAN_LAYER_CHUNK_BITS);
    if (c >= l->n_chunks || !l->chunk[c]) {
        if (!edan_layers_new_chunk(l, i))
            return false;
    }
    uint16_t *slot = &l->chunk[c][i & ((1u << EDAN_LAYER_CHUNK_BITS) - 1)];
    if (++*slot == 0)
        return edan_layers_carry(l, i);
    return true;
}

#endif
