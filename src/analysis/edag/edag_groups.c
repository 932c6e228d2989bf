/*
 * edag_groups.c - lane groups on threads (edan_edag_config.threads). Lanes
 * share nothing but the stream (and a cache simulation when their caches
 * are the same), so a sweep splits into groups that run in parallel, each
 * an edan_edag of its own fed the same records: group 0 on the caller's
 * thread, every other on the thread of its feed (trace/async.h).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/edag/edag_internal.h"
#include "util/thread.h"

/* A group thread's stream: buffers of 8192 records (192 KiB), four in flight. */
#define FEED_BATCH 8192
#define FEED_BUFFERS 4

/* The first lane with the same cache configuration as lane k: one simulation serves both. */
int edan_edag_cache_owner(const edan_edag_config *cfg, int k)
{
    char mine[256], other[256];
    edan_cache_config_format(&cfg->lane[k].cache, mine, sizeof mine);
    for (int j = 0; j < k; j++) {
        edan_cache_config_format(&cfg->lane[j].cache, other, sizeof other);
        if (!strcmp(mine, other))
            return j;
    }
    return k;
}

/* How many lane groups: at most one per thread, per distinct cache and EDAN_MAX_GROUPS. */
int edan_edag_group_count(const edan_edag_config *cfg)
{
    int threads = cfg->threads ? cfg->threads : edan_available_cores();
    int caches = 0;
    for (int k = 0; k < cfg->n_lanes; k++)
        caches += edan_edag_cache_owner(cfg, k) == k;
    int g = threads < caches ? threads : caches;
    return g < EDAN_MAX_GROUPS ? g : EDAN_MAX_GROUPS;
}

/* edan_consumer.buffer: with lane groups on threads, the producer writes into group 1's feed, and
 * edan_edag_consume_grouped() need not copy the batch there. */
edan_exec *edan_edag_buffer(void *ctx, size_t *cap)
{
    edan_edag *e = ctx;
    if (e->n_groups < 2 || e->finished)
        return NULL;
    *cap = FEED_BATCH - e->fed[1];
    return edan_async_buffer(e->feed[1]) + e->fed[1];
}

/* The consumer a group thread runs: its group's, publishing an error once it is set. */
static void group_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_edag *sub = ctx;
    edan_edag_consume(sub, recs, n);
    if (sub->err.set)
        atomic_store_explicit(&sub->failed, true, memory_order_release);
}

edan_edag *edan_edag_new_grouped(const edan_edag_config *cfg, int n_groups, edan_error *err)
{
    edan_edag *e = calloc(1, sizeof *e);
    edan_edag_config *sub = malloc(sizeof *sub);
    if (!e || !sub) {
        free(e);
        free(sub);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    e->cfg = *cfg;
    e->n_lanes = cfg->n_lanes;
    /*
     * Each cache (with all its lanes), in lane order, goes to the group with
     * the fewest lanes so far. Group 0's thread also produces the stream (it
     * reads and decodes the trace, or copies it for the others), which
     * counts as half a lane: loads are in half lanes.
     */
    int load[EDAN_MAX_GROUPS] = {1};
    for (int k = 0; k < cfg->n_lanes; k++) {
        const int owner = edan_edag_cache_owner(cfg, k);
        if (owner != k) {
            e->lane_group[k] = e->lane_group[owner];
            load[e->lane_group[k]] += 2;
            continue;
        }
        int best = 0;
        for (int g = 1; g < n_groups; g++)
            if (load[g] < load[best])
                best = g;
        e->lane_group[k] = (int8_t)best;
        load[best] += 2;
    }
    bool ok = true;
    for (int g = 0; g < n_groups && ok; g++) {
        *sub = *cfg;
        sub->threads = 1;
        sub->n_lanes = 0;
        for (int k = 0; k < cfg->n_lanes; k++) {
            if (e->lane_group[k] != g)
                continue;
            e->lane_slot[k] = (int8_t)sub->n_lanes;
            sub->lane[sub->n_lanes++] = cfg->lane[k];
        }
        ok = (e->group[g] = edan_edag_new(sub, err)) != NULL;
        e->n_groups = g + 1;
        /* the groups get the stream as the parent does: warm records too when any lane has a cache */
        for (int k = 0; k < cfg->n_lanes; k++)
            e->warms |= cfg->lane[k].cache.n_levels > 0;
        if (ok)
            e->group[g]->warms = e->warms;
        if (ok && g > 0) {
            edan_consumer c = {e->group[g], group_consume, edan_edag_finish, NULL, e->warms};
            if (!(e->feed[g] = edan_async_new(c, FEED_BATCH, FEED_BUFFERS))) {
                edan_error_set(err, "cannot start an analysis thread (out of memory or threads)");
                ok = false;
            }
        }
    }
    free(sub);
    if (!ok) {
        edan_edag_free(e);
        return NULL;
    }
    return e;
}

void edan_edag_consume_grouped(edan_edag *e, const edan_exec *recs, size_t n)
{
    if (e->finished)
        return;
    for (int g = 1; g < e->n_groups; g++) {
        edan_async *a = e->feed[g];
        for (size_t i = 0; i < n;) {
            size_t take = FEED_BATCH - e->fed[g];
            if (take > n - i)
                take = n - i;
            edan_exec *to = edan_async_buffer(a) + e->fed[g];
            if (to != recs + i) /* else the producer wrote it there (edan_edag_buffer()) */
                memcpy(to, recs + i, take * sizeof *recs);
            e->fed[g] += take;
            i += take;
            if (e->fed[g] == FEED_BATCH) {
                edan_async_submit(a, FEED_BATCH);
                e->fed[g] = 0;
            }
        }
    }
    edan_edag_consume(e->group[0], recs, n);
}

/* Hand over what is left, wait for every thread to finish its group, and stop the threads. */
static int stop_groups(edan_edag *e)
{
    int rc = 0;
    for (int g = 1; g < e->n_groups; g++) {
        if (!e->feed[g])
            continue;
        if (e->fed[g])
            edan_async_submit(e->feed[g], e->fed[g]);
        e->fed[g] = 0;
        if (edan_async_finish(e->feed[g]))
            rc = -1;
        edan_async_free(e->feed[g]);
        e->feed[g] = NULL;
    }
    return rc;
}

int edan_edag_finish_grouped(edan_edag *e)
{
    if (e->finished)
        return edan_edag_error(e)->set ? -1 : 0;
    e->finished = true;
    int rc = stop_groups(e);
    if (edan_edag_finish(e->group[0]))
        rc = -1;
    return rc;
}

void edan_edag_free_grouped(edan_edag *e)
{
    stop_groups(e);
    for (int g = 0; g < e->n_groups; g++)
        edan_edag_free(e->group[g]);
    free(e);
}
