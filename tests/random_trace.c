#include "random_trace.h"

#include <string.h>

static uint64_t state = 0x9E3779B97F4A7C15ull;

void rt_seed(uint64_t seed)
{
    state = seed ? seed : 1;
}

static uint64_t rnd(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

uint64_t rt_below(uint64_t n)
{
    return rnd() % n;
}

static const uint8_t reg_pool[] = {1, 2, 3, 5, 8, 10, 32, 33, 40};

void rt_random_insn(edan_insn *in)
{
    memset(in, 0, sizeof *in);
    int n_src = (int)rt_below(4);
    for (int i = 0; i < n_src; i++) {
        uint8_t r = reg_pool[rt_below(sizeof reg_pool)];
        bool dup = false;
        for (int j = 0; j < in->n_src; j++)
            dup |= in->src[j] == r;
        if (!dup)
            in->src[in->n_src++] = r;
    }
    uint64_t k = rt_below(10);
    if (k < 4) {
        in->mem = EDAN_MEM_NONE;
        in->cls = (uint8_t)(rt_below(9)); /* INT .. BRANCH */
    } else if (k < 7) {
        in->mem = EDAN_MEM_LOAD;
        in->cls = EDAN_CLASS_LOAD;
    } else if (k < 9) {
        in->mem = EDAN_MEM_STORE;
        in->cls = EDAN_CLASS_STORE;
    } else {
        in->mem = EDAN_MEM_AMO;
        in->cls = EDAN_CLASS_ATOMIC;
    }
    if (in->mem != EDAN_MEM_NONE)
        in->mem_size = (uint8_t)(1 + rt_below(8));
    if (in->mem != EDAN_MEM_STORE && rt_below(5)) {
        in->n_dst = 1;
        in->dst = reg_pool[rt_below(sizeof reg_pool)];
    }
}

void rt_random_lane(edan_lane_config *l)
{
    memset(l, 0, sizeof *l);
    for (int c = 0; c < EDAN_CLASS_COUNT; c++)
        l->cost.cls[c] = rt_below(4); /* zero costs included */
    static const uint64_t alphas[] = {0, 1, 3, 7, 200};
    l->cost.alpha = alphas[rt_below(5)];
    int kind = (int)rt_below(4);
    if (kind == 0)
        return; /* no cache */
    l->cache.n_levels = kind == 3 ? 2 : 1;
    for (int i = 0; i < l->cache.n_levels; i++) {
        edan_cache_level_config *c = &l->cache.level[i];
        c->line = i == 0 ? 8u << rt_below(2) : 32;
        c->ways = rt_below(4) ? 1u << rt_below(3) : 3u << rt_below(3); /* 3, 6 and 12 ways too (48K/12) */
        c->size = (uint64_t)c->line * c->ways * (1u << rt_below(3)) * (i ? 4 : 1);
        c->write_back = rt_below(2);
        c->write_allocate = rt_below(2);
    }
}

void rt_random_records(edan_insn table[24], edan_exec *recs, size_t n)
{
    static const uint64_t bases[] = {0x1000, 0x1040, 0x2ffc, 0x7ffffff8, 0xfffffffffff0ull};
    for (int i = 0; i < 24; i++)
        rt_random_insn(&table[i]);
    uint64_t base = bases[rt_below(sizeof bases / sizeof bases[0])];
    for (size_t i = 0; i < n; i++) {
        uint32_t id = (uint32_t)rt_below(24);
        memset(&recs[i], 0, sizeof recs[i]);
        recs[i].insn = &table[id];
        recs[i].id = id;
        if (table[id].mem != EDAN_MEM_NONE) {
            if (table[id].mem == EDAN_MEM_STORE && rt_below(12) == 0)
                recs[i].flags = EDAN_EXEC_NO_ACCESS;
            else
                recs[i].addr = base + rt_below(40);
        }
    }
}
