/*
 * timing_groups.c - the timing model's lanes in groups on threads
 * (edan_timing_new_threaded()). A lane's times depend on its own latency
 * alone: the cache contents, the predictor and the dependencies follow the
 * stream, which every lane shares (timing.h; with a prefetcher, the highest
 * latency's lane decides its training, and the lanes stay in one group). So K lanes split into groups of
 * whole vectors, each a model of its own fed the same records, and run in
 * parallel: each group repeats the shared work (cache, predictor, tracker),
 * and the per-lane work, which grows with K, divides among the threads.
 * Each batch is lent to every group's thread and waited for before the
 * consumer returns (a batch is valid only during consume()), so no record
 * is copied.
 */
#include <stdlib.h>

#include "analysis/timing/timing_internal.h"
#include "util/thread.h"

static void group_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_timing_consumer((edan_timing *)ctx).consume(ctx, recs, n);
}

edan_timing *edan_timing_new_threaded(const edan_machine *m, const double *lat_ns, int n, int threads, edan_error *err)
{
    const int vectors = (n + TIMING_LV - 1) / TIMING_LV;
    int groups = threads > 0 ? threads : edan_available_cores();
    if (groups > vectors)
        groups = vectors;
    if (groups > TIMING_MAX_GROUPS)
        groups = TIMING_MAX_GROUPS;
    /*
     * With a prefetcher the lanes are not independent: the highest latency's
     * lane decides which accesses find their line in flight and train it
     * (memtime.h). A group would decide in its own highest lane, so results
     * would depend on the grouping: every lane stays in one model.
     */
    for (int l = 0; l < m->n_data_levels; l++)
        if (m->data[l].prefetch.kind != EDAN_PREFETCH_NONE)
            groups = 1;
    if (groups <= 1)
        return edan_timing_new(m, lat_ns, n, err);
    edan_timing *t = edan_timing_alloc(m, lat_ns, n, err);
    if (!t)
        return NULL;
    /* group g takes vectors [g * vectors / groups, (g + 1) * vectors / groups) */
    for (int g = 0; g <= groups; g++) {
        const int lane = g * vectors / groups * TIMING_LV;
        t->group_base[g] = lane < n ? lane : n;
    }
    for (int g = 0; g < groups; g++) {
        const int base = t->group_base[g];
        t->group[g] = edan_timing_new(m, lat_ns + base, t->group_base[g + 1] - base, err);
        t->n_groups = g + 1;
        if (!t->group[g]) {
            edan_timing_free(t);
            return NULL;
        }
        if (g == 0)
            continue;
        edan_consumer c = {t->group[g], group_consume, NULL, NULL, true}; /* warm records: consume_body() */
        if (!(t->feed[g] = edan_async_new(c, 1, 2))) {
            edan_error_set(err, "cannot start a thread for the timing model (out of memory or threads)");
            edan_timing_free(t);
            return NULL;
        }
    }
    return t;
}

/* The parent's consumer: each batch to every group at once, back when all have taken it. */
void edan_timing_consume_groups(edan_timing *t, const edan_exec *recs, size_t n)
{
    for (int g = 1; g < t->n_groups; g++)
        edan_async_lend(t->feed[g], recs, n);
    edan_timing_consumer(t->group[0]).consume(t->group[0], recs, n);
    for (int g = 1; g < t->n_groups; g++)
        edan_async_wait(t->feed[g]);
}

/* Stop the groups' threads (after the stream, or when freed) and take the first group's error. */
int edan_timing_finish_groups(edan_timing *t)
{
    for (int g = 1; g < t->n_groups; g++) {
        if (t->feed[g]) {
            edan_async_finish(t->feed[g]);
            edan_async_free(t->feed[g]);
            t->feed[g] = NULL;
        }
    }
    for (int g = 0; g < t->n_groups; g++) {
        edan_timing_flush(t->group[g]);
        edan_timing_sample_close(t->group[g]);
        edan_timing_close_counts(t->group[g]);
    }
    for (int g = 0; g < t->n_groups && !t->err.set; g++)
        if (t->group[g]->err.set)
            t->err = t->group[g]->err;
    return t->err.set ? -1 : 0;
}

void edan_timing_free_groups(edan_timing *t)
{
    edan_timing_finish_groups(t);
    for (int g = 0; g < t->n_groups; g++)
        edan_timing_free(t->group[g]);
    free(t);
}

const edan_timing *edan_timing_group_of(const edan_timing *t, int *k)
{
    if (!t->n_groups)
        return t;
    int g = 0;
    while (g + 1 < t->n_groups && *k >= t->group_base[g + 1])
        g++;
    *k -= t->group_base[g];
    return t->group[g];
}
