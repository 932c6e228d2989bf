#include "analysis/edag/layers.h"

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

static uint64_t ceil_div(uint64_t a, uint64_t m)
{
    return a / m + (a % m != 0);
}

/*
 * ceil(v / m) of a 16-bit count v, for 1 <= m <= CHUNK: floor(n / m) with
 * n = v + m - 1 < 2^17, which is (n * r) >> 40 with r = ceil(2^40 / m): a
 * multiply and a shift, where a 64-bit division takes tens of cycles, and
 * with n held in 32 bits GCC vectorises the loop over a whole chunk. Exact:
 * r = (2^40 + e) / m with 0 <= e < m, so n * r / 2^40 = n / m + n * e /
 * (m * 2^40), and n * e < 2^17 * 2^16 < 2^40 keeps the excess under 1 / m,
 * the least distance from a non-integer n / m up to the next integer.
 * (m = 1 has e = 0. chunk_ceil_sum() takes m > CHUNK, where every count
 * rounds up to 0 or 1, apart.)
 */
typedef struct ceil_by {
    uint32_t m_1; /* m - 1 */
    uint64_t r;   /* ceil(2^40 / m) */
} ceil_by;

static inline uint64_t ceil_small(uint16_t v, ceil_by d)
{
    return ((uint64_t)(uint32_t)(v + d.m_1) * d.r) >> 40;
}

/* The first n counts of a chunk (all of it, n = CHUNK, in a loop of known length, which GCC vectorises). */
static uint64_t chunk_ceil_sum(const uint16_t *w, size_t n, uint64_t m)
{
    uint64_t sum = 0;
    if (m > CHUNK) {
        for (size_t i = 0; i < n; i++)
            sum += w[i] != 0;
        return sum;
    }
    const ceil_by d = {(uint32_t)(m - 1), ((1ull << 40) + m - 1) / m};
    if (n == CHUNK) {
        for (size_t i = 0; i < CHUNK; i++)
            sum += ceil_small(w[i], d);
        return sum;
    }
    for (size_t i = 0; i < n; i++)
        sum += ceil_small(w[i], d);
    return sum;
}

uint64_t edan_layers_ceil_sum(const edan_layers *l, uint64_t D, uint64_t m)
{
    uint64_t sum = 0;
    const uint64_t last = D >> EDAN_LAYER_CHUNK_BITS;
    for (size_t c = 0; c < l->n_chunks && c <= last; c++) {
        const uint16_t *w = l->chunk[c];
        if (w)
            sum += chunk_ceil_sum(w, c == last ? (size_t)(D & (CHUNK - 1)) + 1 : CHUNK, m);
    }
    /* layer 0 (never counted by the analysis, but the sum starts at layer 1) */
    if (l->n_chunks && l->chunk[0])
        sum -= ceil_div(l->chunk[0][0], m);
    /* the layers whose counts wrapped: their low 16 bits were summed above */
    for (size_t h = 0; h < l->carry_cap; h++) {
        const uint64_t i = l->carry_key[h] - 1;
        if (!l->carry_key[h] || i < 1 || i > D)
            continue;
        const uint64_t low = l->chunk[i >> EDAN_LAYER_CHUNK_BITS][i & (CHUNK - 1)];
        sum += ceil_div(low + l->carry_val[h], m) - ceil_div(low, m);
    }
    return sum;
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
