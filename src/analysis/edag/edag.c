/*
 * edag.c - the streaming eDAG analyzer (edag.h): its configuration, making
 * and freeing it, finishing it and reading its results. The rest is in the
 * files edag_internal.h lists.
 */
#include "analysis/edag/edag.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/edag/edag_internal.h"

/* ---- configuration, making and freeing --------------------------------- */

/* a set of one entry 0, which holds no line (cache.h): only ever read, since no look hits it to mark it dirty */
static uint64_t never_line;

void edan_edag_config_default(edan_edag_config *c)
{
    memset(c, 0, sizeof *c);
    c->n_lanes = 1;
    edan_cost_default(&c->lane[0].cost);
    c->n_tau = 1;
    c->tau[0] = 0;
    c->max_phases = 0;
}

edan_edag *edan_edag_new(const edan_edag_config *cfg, edan_error *err)
{
    if (cfg->n_lanes < 1 || cfg->n_lanes > EDAN_MAX_LANES) {
        edan_error_set(err, "between 1 and %d configurations can be analysed in one pass, not %d", EDAN_MAX_LANES,
                       cfg->n_lanes);
        return NULL;
    }
    if (cfg->n_tau < 0 || cfg->n_tau > EDAN_MAX_TAUS) {
        edan_error_set(err, "at most %d values of tau", EDAN_MAX_TAUS);
        return NULL;
    }
    if (cfg->threads < 0) {
        edan_error_set(err, "the number of threads must be 0 (one per core) or more, not %d", cfg->threads);
        return NULL;
    }
    const int n_groups = edan_edag_group_count(cfg);
    if (n_groups > 1)
        return edan_edag_new_grouped(cfg, n_groups, err);
    edan_edag *e = calloc(1, sizeof *e);
    if (!e) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    e->cfg = *cfg;
    e->n_lanes = cfg->n_lanes;
    const size_t lanes = (unsigned)e->n_lanes; /* 1 to EDAN_MAX_LANES, checked above */
    e->lane = calloc(lanes, sizeof *e->lane);
    e->stride = lanes == 1 ? 1 : (lanes + LANE_BLOCK - 1) / LANE_BLOCK * LANE_BLOCK;
#if defined(__x86_64__) || defined(__i386__)
    e->lanes_avx2 = !cfg->portable && __builtin_cpu_supports("avx2");
#endif
    size_t regs = (size_t)(EDAN_NUM_REGS + 1) * e->stride;
    e->regF = calloc(2 * regs, sizeof *e->regF);
    e->regMd = e->regF ? e->regF + regs : NULL; /* one block: see ONE_LANE_MD */
    e->regRF = calloc(regs, sizeof *e->regRF);
    e->regRMd = calloc(regs, sizeof *e->regRMd);
    e->cost_by_class = calloc((size_t)(EDAN_CLASS_COUNT + 1) * e->stride, sizeof *e->cost_by_class);
    if (!e->lane || !e->regF || !e->regMd || !e->regRF || !e->regRMd || !e->cost_by_class ||
        edan_shadow_init(&e->shadow, (int)e->stride, cfg->false_deps)) {
        edan_error_set(err, "out of memory");
        edan_edag_free(e);
        return NULL;
    }
    if (cfg->shadow_sparse_hot)
        e->shadow.sparse_hot = e->shadow.inline_hot = e->shadow.inline_left = cfg->shadow_sparse_hot;
    if (cfg->shadow_inline_md_bits)
        e->shadow.inline_max_md = (1u << cfg->shadow_inline_md_bits) - 1;
    for (int k = 0; k < cfg->n_lanes; k++) {
        int scope = cfg->lane[k].scope;
        e->scoped |= scope != EDAN_SCOPE_ALL;
        if (scope == EDAN_SCOPE_ALL)
            e->all_mask |= 1u << k;
        else if (scope == EDAN_SCOPE_EXCLUSIVE)
            e->exclusive_mask |= 1u << k;
        else
            e->inclusive_mask |= 1u << k;
    }
    for (int k = 0; k < cfg->n_lanes; k++) {
        lane_state *L = &e->lane[k];
        L->cache_owner = edan_edag_cache_owner(cfg, k);
        L->cost = cfg->lane[k].cost;
        for (int c = 0; c < EDAN_CLASS_COUNT; c++)
            e->cost_by_class[c * e->stride + k] = L->cost.cls[c];
        e->cost_by_class[EDAN_CLASS_COUNT * e->stride + k] = L->cost.alpha;
        L->has_cache = cfg->lane[k].cache.n_levels > 0;
        if (L->cache_owner == k)
            *(L->has_cache ? &e->simulating : &e->uncached) |= 1u << k;
        else
            e->shared |= 1u << k;
        if (L->has_cache && edan_cache_init(&L->cache, &cfg->lane[k].cache, err)) {
            edan_edag_free(e);
            return NULL;
        }
        L->st.n_series = cfg->n_tau;
        bool ok = true;
        for (int j = 0; j < cfg->n_tau; j++)
            ok = ok && edan_series_init(&L->st.series[j], cfg->tau[j], cfg->max_phases) == 0;
        if (!ok) {
            edan_error_set(err, "out of memory");
            edan_edag_free(e);
            return NULL;
        }
    }
    e->warms = e->simulating != 0;
    e->look_shift = 63;
    for (int k = 0; k < EDAN_MAX_LANES; k++)
        e->look.tags[k] = &never_line;
    for (uint32_t m = e->simulating; m; m &= m - 1) {
        const int k = __builtin_ctz(m);
        const edan_cache_level *l0 = &e->lane[k].cache.level[0];
        e->look.tags[k] = l0->tags;
        e->look.set_mask[k] = l0->set_mask;
        e->look.ways[k] = l0->ways;
        e->look.line_shift[k] = l0->line_shift;
        if (l0->line_shift < e->look_shift)
            e->look_shift = l0->line_shift;
        if (l0->write_back)
            e->look_write_back |= 1u << k;
        else if (e->lane[k].cache.n_levels == 1)
            e->look_through |= 1u << k;
        if (!l0->write_back && !l0->write_allocate && e->lane[k].cache.n_levels == 1)
            e->look_through_noalloc |= 1u << k;
        if (l0->ways >= 2)
            e->look_second_load |= 1u << k;
    }
    e->look_second_store = e->look_second_load & (e->look_write_back | (e->look_through & ~e->look_through_noalloc));
    return e;
}

void edan_edag_free(edan_edag *e)
{
    if (!e)
        return;
    if (e->n_groups) {
        edan_edag_free_grouped(e);
        return;
    }
    if (e->lane) {
        for (int k = 0; k < e->n_lanes; k++) {
            lane_state *L = &e->lane[k];
            edan_cache_free(&L->cache);
            edan_layers_free(&L->st.layers);
            for (int j = 0; j < L->st.n_series; j++) {
                free(L->st.series[j].u_diff);
                free(L->st.series[j].U);
                free(L->st.series[j].started);
            }
        }
        free(e->lane);
    }
    edan_shadow_free(&e->shadow);
    free(e->regF);
    free(e->regRF);
    free(e->regRMd);
    free(e->cost_by_class);
    free(e->ids);
    free(e->id_insn);
    free(e->memo);
    free(e->id_member);
    free(e->id_entry);
    free(e);
}

/* ---- finishing and the results ----------------------------------------- */

int edan_edag_finish(void *ctx)
{
    edan_edag *e = ctx;
    if (e->n_groups)
        return edan_edag_finish_grouped(e);
    if (e->err.set)
        return -1;
    if (e->finished)
        return 0;
    e->finished = true;
    uint64_t vertices = 0, by_class[EDAN_CLASS_COUNT] = {0}, by_mem[4] = {0};
    for (size_t id = 0; id < e->id_cap; id++) {
        const uint64_t count = e->ids[id].count;
        if (!count)
            continue;
        vertices += count;
        by_class[e->id_insn[id]->cls] += count;
        by_mem[e->id_insn[id]->mem & 3] += count;
    }
    for (int k = 0; k < e->n_lanes; k++) {
        lane_state *L = &e->lane[k];
        L->st.vertices = e->cfg.lane[k].scope == EDAN_SCOPE_ALL ? vertices : e->members[k];
        memcpy(L->st.class_count, by_class, sizeof by_class);
        L->st.loads = by_mem[EDAN_MEM_LOAD] - e->no_access[EDAN_MEM_LOAD];
        L->st.stores = by_mem[EDAN_MEM_STORE] - e->no_access[EDAN_MEM_STORE];
        L->st.amos = by_mem[EDAN_MEM_AMO] - e->no_access[EDAN_MEM_AMO];
        const edan_cache *sim = &e->lane[L->cache_owner].cache; /* lanes with the same cache share one */
        for (int c = 0; c < sim->n_levels; c++) {
            L->st.cache_hits[c] = sim->level[c].hits;
            L->st.cache_misses[c] = sim->level[c].misses;
        }
        L->st.ram_read_bytes = sim->ram_read_bytes;
        L->st.ram_write_bytes = sim->ram_write_bytes;
        for (int j = 0; j < L->st.n_series; j++) {
            if (!edan_series_finish(&L->st.series[j], L->st.Tinf)) {
                edan_error_set(&e->err, "out of memory for the data-movement series");
                return -1;
            }
        }
    }
    return 0;
}

void edan_edag_no_warm_records(edan_edag *e)
{
    e->no_warm_records = true;
}

void edan_edag_warm_batches(edan_edag *e)
{
    e->warm_batches = true;
}

edan_consumer edan_edag_consumer(edan_edag *e)
{
    edan_consumer c = {e, edan_edag_consume, edan_edag_finish, edan_edag_buffer, e->warms};
    return c;
}

const edan_error *edan_edag_error(const edan_edag *e)
{
    for (int g = 0; g < e->n_groups; g++) {
        const edan_edag *sub = e->group[g];
        /*
         * While a group's thread runs it publishes an error through failed
         * (release, then acquire here); once finished the threads are joined.
         */
        if (g == 0 || e->finished ? sub->err.set : atomic_load_explicit(&sub->failed, memory_order_acquire))
            return &sub->err;
    }
    return &e->err;
}
int edan_edag_n_lanes(const edan_edag *e)
{
    return e->n_lanes;
}
int edan_edag_add_range(edan_edag *e, int k, uint64_t lo, uint64_t hi)
{
    return e->n_groups || k < 0 || k >= e->n_lanes ? -1 : edan_lane_add_range(&e->cfg.lane[k], lo, hi);
}

const edan_lane_stats *edan_edag_lane(const edan_edag *e, int k)
{
    if (e->n_groups)
        return edan_edag_lane(e->group[e->lane_group[k]], e->lane_slot[k]);
    return &e->lane[k].st;
}
const edan_edag_config *edan_edag_get_config(const edan_edag *e)
{
    return &e->cfg;
}
/* Every group sees the whole stream: group 0's shadow pages and execution counts are everyone's. */
uint64_t edan_edag_footprint(const edan_edag *e)
{
    if (e->n_groups)
        return edan_edag_footprint(e->group[0]);
    return e->shadow.pages * EDAN_SHADOW_PAGE;
}
const struct edan_shadow *edan_edag_shadow(const edan_edag *e)
{
    return e->n_groups ? edan_edag_shadow(e->group[0]) : &e->shadow;
}
