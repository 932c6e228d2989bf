/*
 * keymap_test.c - the (key, tag) -> value table (util/keymap.h) against a
 * naive list on random keys and tags (many collisions, growth from the
 * smallest table, the largest key), find() of keys present and absent,
 * and a full walk of its slots.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/keymap.h"

typedef struct naive_entry {
    uint64_t key;
    uint32_t tag;
    uint64_t value;
} naive_entry;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

int main(void)
{
    for (int round = 0; round < 20; round++) {
        edan_keymap m;
        CHECK(edan_keymap_init(&m, sizeof(uint64_t) + 4) == 0, "init");
        const size_t n = 1000 + next() % 20000, universe = 10 + next() % 30000;
        naive_entry *ref = calloc(n, sizeof *ref);
        size_t nref = 0;
        for (size_t i = 0; i < n; i++) {
            const uint64_t key = next() % 50 == 0 ? UINT64_MAX - 1 - next() % 3 : next() % universe;
            const uint32_t tag = (uint32_t)(next() % 4 == 0 ? UINT32_MAX : next() % 5);
            bool created = false;
            uint64_t *v = edan_keymap_get(&m, key, tag, &created);
            size_t k = 0;
            while (k < nref && !(ref[k].key == key && ref[k].tag == tag))
                k++;
            CHECK(created == (k == nref), "round %d: created for (%llu, %u)", round, (unsigned long long)key, tag);
            if (k == nref)
                ref[nref++] = (naive_entry){key, tag, 0};
            CHECK(*v == ref[k].value, "round %d: value of (%llu, %u)", round, (unsigned long long)key, tag);
            *v += i + 1;
            ref[k].value += i + 1;
        }
        CHECK_EQ_U64(edan_keymap_size(&m), nref, "entries");
        for (int q = 0; q < 1000; q++) { /* find(): the value where present, NULL where absent, nothing made */
            const uint64_t key = next() % (universe + 100);
            const uint32_t tag = (uint32_t)(next() % 6);
            size_t k = 0;
            while (k < nref && !(ref[k].key == key && ref[k].tag == tag))
                k++;
            const uint64_t *v = edan_keymap_find(&m, key, tag);
            CHECK(k < nref ? v && *v == ref[k].value : !v, "round %d: find (%llu, %u)", round, (unsigned long long)key,
                  tag);
        }
        CHECK_EQ_U64(edan_keymap_size(&m), nref, "find() makes no entry");
        size_t seen = 0;
        for (size_t i = 0; i < edan_keymap_capacity(&m); i++) {
            uint64_t key;
            uint32_t tag;
            const uint64_t *v = edan_keymap_at(&m, i, &key, &tag);
            if (!v)
                continue;
            seen++;
            size_t k = 0;
            while (k < nref && !(ref[k].key == key && ref[k].tag == tag))
                k++;
            CHECK(k < nref && ref[k].value == *v, "walk: (%llu, %u)", (unsigned long long)key, tag);
        }
        CHECK_EQ_U64(seen, nref, "the walk visits every entry once");
        CHECK(2 * edan_keymap_size(&m) <= edan_keymap_capacity(&m), "at most half full");
        free(ref);
        edan_keymap_free(&m);
    }
    return check_summary();
}
