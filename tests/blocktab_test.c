/*
 * blocktab_test.c - the direct-mapped block table (util/blocktab.h) against
 * a naive sorted list, on keys in dense clusters, scattered one to a leaf,
 * on regions that collide in the top level, and at the ends of the 64-bit
 * range, with every leaf size the tools use and the extremes: values read
 * back, ids stable while the table grows, hints harmless, the walk over the
 * leaves visiting every block once, and the memory as blocktab.h states it.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/blocktab.h"

typedef struct ref_entry {
    uint64_t key, value;
    size_t id;
} ref_entry;

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The naive table: sorted by key. */
static ref_entry *ref;
static size_t nref;

/* The entry of key; made (and *made true) when absent and insert, else NULL when absent. */
static ref_entry *ref_find(uint64_t key, bool insert, bool *made)
{
    size_t lo = 0, hi = nref;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (ref[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    *made = lo == nref || ref[lo].key != key;
    if (*made && !insert)
        return NULL;
    if (*made) {
        memmove(&ref[lo + 1], &ref[lo], (nref - lo) * sizeof *ref);
        ref[lo] = (ref_entry){key, 0, SIZE_MAX};
        nref++;
    }
    return &ref[lo];
}

/* A key of the given kind for leaves of 2^bits blocks of value_size bytes (at most about 8 MiB of leaves). */
static uint64_t key_of(int kind, unsigned bits, size_t value_size, const uint64_t *bases)
{
    size_t scatter = ((size_t)8 << 20) / (value_size << bits);
    scatter = scatter < 16 ? 16 : scatter > 100000 ? 100000 : scatter;
    const unsigned region = bits + EDAN_BLOCKTAB_REGION_BITS;
    switch (kind) {
    case 0: /* dense clusters */
        return bases[next() % 4] + next() % 3000;
    case 1: /* scattered, one to a leaf (or fewer) */
        return (next() % scatter) << (bits + 1);
    case 2: /* regions whose top-level homes coincide */
        return ((next() % 40) << (region + 10)) + next() % 64;
    default: /* the ends of the range */
        return next() % 2 ? UINT64_MAX - next() % 200 : next() % 200;
    }
}

/* Leaf bits and value sizes the lookups take as constants. */
#define CASE(B, V)                                                                                                     \
    static void case_##B##_##V(int round, int kind)                                                                    \
    {                                                                                                                  \
        typedef struct {                                                                                               \
            uint64_t w[(V) / 8 ? (V) / 8 : 1];                                                                         \
        } value;                                                                                                       \
        _Static_assert(sizeof(value) == ((V) < 8 ? 8 : (V)), "value size");                                            \
        edan_blocktab t;                                                                                               \
        CHECK(edan_blocktab_init(&t, B, sizeof(value)) == 0, "init");                                                  \
        const uint64_t bases[4] = {next(), next() >> 20, 1u << 20, next() >> 40};                                      \
        const size_t n = 2000 + next() % 20000;                                                                        \
        nref = 0;                                                                                                      \
        for (size_t i = 0; i < n; i++) {                                                                               \
            const uint64_t key = key_of(next() % 5 ? kind : (int)(next() % 4), B, sizeof(value), bases);               \
            edan_blocktab_prefetch(&t, next() % 3 ? key_of(kind, B, sizeof(value), bases) : next(), B, sizeof(value)); \
            bool made;                                                                                                 \
            ref_entry *e = ref_find(key, true, &made);                                                                 \
            const size_t id = edan_blocktab_get_id(&t, key, B);                                                        \
            CHECK(id != SIZE_MAX, "round %d: get_id", round);                                                          \
            CHECK(made || id == e->id, "round %d: the id of %llu moved", round, (unsigned long long)key);              \
            value *v = edan_blocktab_get(&t, key, B, sizeof(value));                                                   \
            CHECK(v == edan_blocktab_at(&t, id, sizeof(value)), "round %d: at(id) is get()", round);                   \
            CHECK(v->w[0] == e->value, "round %d (kind %d): value of %llu", round, kind, (unsigned long long)key);     \
            for (size_t k = 1; k < sizeof(v->w) / 8; k++)                                                              \
                CHECK(v->w[k] == (made ? 0 : ~e->value), "round %d: a value's other words", round);                    \
            e->value = v->w[0] = (next() | 1);                                                                         \
            for (size_t k = 1; k < sizeof(v->w) / 8; k++)                                                              \
                v->w[k] = ~e->value;                                                                                   \
            e->id = id;                                                                                                \
        }                                                                                                              \
        size_t seen = 0;                                                                                               \
        for (size_t l = 0; l < edan_blocktab_leaves(&t); l++) {                                                        \
            uint64_t first;                                                                                            \
            const value *leaf = edan_blocktab_leaf(&t, l, &first);                                                     \
            CHECK(first % (1ull << (B)) == 0, "round %d: a leaf's first block", round);                                \
            for (size_t k = 0; k < (1u << (B)); k++) {                                                                 \
                if (!leaf[k].w[0])                                                                                     \
                    continue;                                                                                          \
                seen++;                                                                                                \
                bool made;                                                                                             \
                const ref_entry *e = ref_find(first + k, false, &made);                                                \
                CHECK(e && e->value == leaf[k].w[0] && e->id == (l << (B) | k), "round %d: walk at %llu", round,       \
                      (unsigned long long)(first + k));                                                                \
            }                                                                                                          \
        }                                                                                                              \
        CHECK_EQ_U64(seen, nref, "the walk visits every block once");                                                  \
        size_t leaves = 0;                                                                                             \
        for (size_t k = 0; k < nref; k++)                                                                              \
            leaves += k == 0 || ref[k].key >> (B) != ref[k - 1].key >> (B);                                            \
        CHECK_EQ_U64(edan_blocktab_leaves(&t), leaves, "a leaf for each leaf number with a block");                    \
        CHECK(edan_blocktab_bytes(&t) >= leaves * ((sizeof(value) << (B)) + 8) &&                                      \
                  edan_blocktab_bytes(&t) <= leaves * ((sizeof(value) << (B)) + 8 + 4 * 64 + 64) + 64 * 16,            \
              "round %d: bytes %llu for %zu leaves", round, (unsigned long long)edan_blocktab_bytes(&t), leaves);      \
        edan_blocktab_free(&t);                                                                                        \
    }

CASE(1, 8)
CASE(5, 16)
CASE(6, 8)
CASE(10, 32)
CASE(16, 8)

int main(void)
{
    ref = malloc(40000 * sizeof *ref);
    for (int round = 0; round < 12; round++) {
        const int kind = round % 4;
        case_1_8(round, kind);
        case_5_16(round, kind);
        case_6_8(round, kind);
        case_10_32(round, kind);
        if (round < 4)
            case_16_8(round, kind);
    }
    edan_blocktab t;
    CHECK(edan_blocktab_init(&t, 0, 8) != 0 && edan_blocktab_init(&t, 5, 12) != 0 && edan_blocktab_init(&t, 17, 8),
          "bad leaf bits or value sizes are refused");
    free(ref);
    return check_summary();
}
