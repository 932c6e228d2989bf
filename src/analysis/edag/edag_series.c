/*
 * edag_series.c - the data-movement series of a lane (edag.h: edan_series):
 * U_i kept as differences while streaming, coarsened by doubling tau when
 * it would pass max_phases, materialised at the end. series_add(), per
 * vertex that moves bytes, is inline in edag_internal.h.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/edag/edag_internal.h"

#define DEFAULT_MAX_PHASES (1u << 20)
#define AUTO_MAX_PHASES 4096u

static void series_set_shift(edan_series *s)
{
    s->tau_shift = -1;
    for (int b = 0; b < 64; b++)
        if (s->tau == 1ull << b)
            s->tau_shift = b;
}

static inline uint64_t series_div(const edan_series *s, uint64_t t)
{
    return s->tau_shift >= 0 ? t >> s->tau_shift : t / s->tau;
}

int edan_series_init(edan_series *s, uint64_t tau, uint32_t max_phases)
{
    memset(s, 0, sizeof *s);
    s->requested_tau = tau;
    s->tau = tau ? tau : 1;
    series_set_shift(s);
    s->max_phases = max_phases ? max_phases : (tau ? DEFAULT_MAX_PHASES : AUTO_MAX_PHASES);
    if (s->max_phases < 2)
        s->max_phases = 2;
    s->cap = 64;
    s->u_diff = calloc(s->cap + 1, sizeof *s->u_diff);
    s->started = calloc(s->cap, sizeof *s->started);
    return s->u_diff && s->started ? 0 : -1;
}

/* Double tau: U samples at even indices are exactly the samples of the new tau. */
static void series_coarsen(edan_series *s)
{
    int64_t run = 0;
    size_t half = (s->cap + 1) / 2;
    /* Turn u_diff into values, keep the even ones, turn back into differences. */
    int64_t prev = 0;
    for (size_t i = 0; i < s->cap; i++) {
        run += s->u_diff[i];
        if (i % 2 == 0) {
            size_t j = i / 2;
            int64_t v = run;
            s->u_diff[j] = v - prev;
            prev = v;
        }
    }
    for (size_t j = half; j <= s->cap; j++)
        s->u_diff[j] = 0;
    s->u_diff[half] = -prev;
    for (size_t i = 0; i < s->cap; i++) {
        uint64_t v = s->started[i];
        s->started[i] = 0;
        s->started[i / 2] += v;
    }
    s->tau *= 2;
    series_set_shift(s);
}

static bool series_reserve(edan_series *s, uint64_t index)
{
    while (index >= s->max_phases) {
        series_coarsen(s);
        index /= 2;
    }
    if (index < s->cap)
        return true;
    size_t cap = s->cap;
    while (cap <= index)
        cap *= 2;
    if (cap > s->max_phases)
        cap = s->max_phases;
    int64_t *d = realloc(s->u_diff, (cap + 1) * sizeof *d);
    if (!d)
        return false;
    memset(d + s->cap + 1, 0, (cap - s->cap) * sizeof *d);
    s->u_diff = d;
    uint64_t *st = realloc(s->started, cap * sizeof *st);
    if (!st)
        return false;
    memset(st + s->cap, 0, (cap - s->cap) * sizeof *st);
    s->started = st;
    s->cap = cap;
    return true;
}

/*
 * lo = ceil(S / tau) and hi = floor(F / tau) satisfy lo <= hi + 1, and when a
 * vertex falls between two samples (lo == hi + 1) the two difference updates
 * cancel: no branch is needed for that case.
 */
bool edan_series_add_general(edan_series *s, uint64_t S, uint64_t F, uint64_t w)
{
    uint64_t hi = series_div(s, F);
    if (hi >= s->cap) {
        if (!series_reserve(s, hi))
            return false;
        hi = series_div(s, F);
    }
    const uint64_t first = series_div(s, S);
    const uint64_t lo = first + (first * s->tau != S);
    s->u_diff[lo] += (int64_t)w;
    s->u_diff[hi + 1] -= (int64_t)w;
    s->started[first] += w;
    return true;
}

bool edan_series_finish(edan_series *s, uint64_t Tinf)
{
    uint64_t n = (Tinf + s->tau - 1) / s->tau;
    if (n == 0)
        n = 1;
    if (!series_reserve(s, n - 1))
        return false;
    n = (Tinf + s->tau - 1) / s->tau;
    if (n == 0)
        n = 1;
    s->U = calloc(n, sizeof *s->U);
    if (!s->U)
        return false;
    int64_t run = 0;
    for (size_t i = 0; i < n; i++) {
        run += s->u_diff[i];
        s->U[i] = (uint64_t)run;
    }
    /* Vertices starting exactly at Tinf (zero-cost tails) belong to the last phase. */
    for (size_t i = n; i < s->cap; i++) {
        s->started[n - 1] += s->started[i];
        s->started[i] = 0;
    }
    s->n = n;
    free(s->u_diff);
    s->u_diff = NULL;
    return true;
}
