#include "analysis/layers.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK (1u << EDAN_LAYER_CHUNK_BITS)

void edan_layers_free(edan_layers *l)
{
    for (size_t c = 0; c < l->n_chunks; c++)
        free(l->chunk[c]);
    free(l->chunk);
    free(l->carry_key);
    free(l->carry_val);
    memset(l, 0, sizeof *l);
}

static size_t carry_slot(const edan_layers *l, uint64_t i)
{
    size_t h = (size_t)((i + 1) * 0x9E3779B97F4A7C15ull) & (l->carry_cap - 1);
    while (l->carry_key[h] && l->carry_key[h] != i + 1)
        h = (h + 1) & (l->carry_cap - 1);
    return h;
}

uint64_t edan_layers_get(const edan_layers *l, uint64_t i)
{
    size_t c = (size_t)(i >> EDAN_LAYER_CHUNK_BITS);
    if (c >= l->n_chunks || !l->chunk[c])
        return 0;
    uint64_t v = l->chunk[c][i & (CHUNK - 1)];
    if (l->carry_used) {
        size_t h = carry_slot(l, i);
        if (l->carry_key[h])
            v += l->carry_val[h];
    }
    return v;
}

bool edan_layers_new_chunk(edan_layers *l, uint64_t i)
{
    size_t c = (size_t)(i >> EDAN_LAYER_CHUNK_BITS);
    if (c >= l->n_chunks) {
        size_t n = l->n_chunks ? l->n_chunks : 16;
        while (n <= c)
            n *= 2;
        uint16_t **nc = realloc(l->chunk, n * sizeof *nc);
        if (!nc)
            return false;
        memset(nc + l->n_chunks, 0, (n - l->n_chunks) * sizeof *nc);
        l->chunk = nc;
        l->n_chunks = n;
    }
    l->chunk[c] = calloc(CHUNK, sizeof(uint16_t));
    return l->chunk[c] != NULL;
}

bool edan_layers_carry(edan_layers *l, uint64_t i)
{
    if ((l->carry_used + 1) * 2 > l->carry_cap) {
        size_t cap = l->carry_cap ? l->carry_cap * 2 : 64;
        uint64_t *k = calloc(cap, sizeof *k), *v = calloc(cap, sizeof *v);
        if (!k || !v) {
            free(k);
            free(v);
            return false;
        }
        edan_layers old = *l;
        l->carry_key = k;
        l->carry_val = v;
        l->carry_cap = cap;
        for (size_t j = 0; j < old.carry_cap; j++) {
            if (!old.carry_key[j])
                continue;
            size_t h = carry_slot(l, old.carry_key[j] - 1);
            l->carry_key[h] = old.carry_key[j];
            l->carry_val[h] = old.carry_val[j];
        }
        free(old.carry_key);
        free(old.carry_val);
    }
    size_t h = carry_slot(l, i);
    if (!l->carry_key[h]) {
        l->carry_key[h] = i + 1;
        l->carry_used++;
    }
    l->carry_val[h] += CHUNK;
    return true;
}
