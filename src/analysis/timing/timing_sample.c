/*
 * timing_sample.c - the timing model's sampled simulation (timing.h): the
 * periods and their phases, the measured units, the estimates of each
 * lane's cycles and of the attribution (the estimator itself:
 * timing_estimate.c).
 * The step (timing_lanes.h) asks for the next phase when the current one
 * has no records left; everything here runs once per phase or after the
 * stream, never per record.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/timing_internal.h"
#include "util/zgrow.h"

#define NAUX EDAN_TIMING_AUX
_Static_assert(NAUX == 2, "edan_timing_fold_unit() folds the two counts by hand");

/* ===================================================================== */
/* Periods and phases                                                     */
/* ===================================================================== */

/*
 * The instructions measured in a period: all of it unless skipping saves at least half (a period of
 * less than 2 (unit + warm-up)): sampling a period that is mostly scheduled anyway costs accuracy
 * (fewer instructions measured, an interval to estimate) for little time.
 */
static uint64_t measure_len(const timing_sampler *s, uint64_t period)
{
    return period < 2 * (s->cfg.unit + s->cfg.warmup) ? period : s->cfg.unit;
}

/*
 * The counts the regression estimator uses (timing.h, EDAN_TIMING_AUX),
 * which functional warming counts exactly on every instruction: the epochs
 * of the lines read from memory (ram_epochs: misses that overlap, at most
 * a window long and as many lines as the first level has MSHRs), and the
 * lines. The memory latency a unit exposes, what its slope is made of, is
 * about a latency per epoch; the lines tell what an epoch's size adds. The
 * epochs come first: where the units' two counts are the same (units of
 * isolated misses), the fit keeps the epochs and gives the lines b = 0,
 * which prices a burst in the skipped stretches by its epochs, not by its
 * lines (gramschmidt's slope, by the lines: 80 % high in one draw of 12).
 */
static void aux_now(const edan_timing *t, uint64_t *c)
{
    c[0] = t->n.ram_epochs;
    c[1] = t->n.ram_lines;
}

/*
 * The current phase runs `len` more records, cut at the end of the last
 * unit's period (mark) when that comes first: the counts are taken there
 * (edan_timing_sample_next()), and the phase goes on for the rest.
 */
static void phase_len(timing_sampler *s, uint64_t now, uint64_t len)
{
    s->left = len;
    s->after_mark = 0;
    if (s->mark > now && s->mark - now < len) {
        s->left = s->mark - now;
        s->after_mark = len - s->left;
    }
}

static void start_measure(edan_timing *t)
{
    timing_sampler *s = &t->smp;
    /* its ids are new to it (smp_touch(), timing_shared.h: its first folds the unit before) */
    if (++s->gen == 0) { /* 2^32 units: the marks start again */
        memset(s->id_gen, 0, t->id_cap * sizeof *s->id_gen);
        s->gen = 1;
    }
    s->phase = SMP_MEASURE;
    phase_len(s, t->n.instructions, measure_len(s, s->period));
    s->unit_start = t->n.instructions;
    memcpy(s->snap, t->last_commit, sizeof s->snap);
    aux_now(t, s->aux_snap);
    t->measuring = true;
}

/* splitmix64's output for its counter's value z (its state after z / golden steps from 0) */
static uint64_t splitmix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#define GOLDEN 0x9e3779b97f4a7c15ull

/*
 * The random value of the period starting at `at` (its unit's offset), the
 * same in every lane group and every run. The doubling periods take the
 * sequence's draws in turn; a period at the full length P takes the draw of
 * its place on the grid of P that starts at the first one (the j-th full
 * period after it the j-th draw after the doubling ones), so which draw a
 * full period gets does not depend on what was sampled before it: dense
 * periods elsewhere (their own sequence) leave every other period's unit
 * where it was without them.
 */
static uint64_t next_random(timing_sampler *s, uint64_t at)
{
    /* another seed, other draws (cfg.seed): 0 leaves the counters as they were */
    const uint64_t salt = s->cfg.seed ? splitmix(s->cfg.seed ^ 0x6a09e667f3bcc909ull) : 0;
    if (s->dense)
        return splitmix((++s->dense_draws * GOLDEN ^ 0x5851f42d4c957f2dull) ^ salt);
    if (s->period != s->cfg.period)
        return splitmix(++s->draws * GOLDEN ^ salt);
    if (!s->full_at) { /* the first full period (never at 0: a region's first unit has no draw) */
        s->full_at = at;
        s->full_draw = s->draws;
    }
    uint64_t j = s->full_draw + 1 + (at - s->full_at) / s->cfg.period;
    if (j <= s->last_full_draw) /* off the grid (a dense stretch not a multiple of P): a draw of its own */
        j = s->last_full_draw + 1;
    s->last_full_draw = j;
    return splitmix(j * GOLDEN ^ salt);
}

/*
 * The period starting at instruction `at` (s->period long): its unit's
 * place, uniformly random in it (a unit at a fixed place would see the
 * same phase of a loop whose length divides the period in every period);
 * the records up to it are skipped, but for the warm-up just before it.
 */
static void next_period(edan_timing *t, uint64_t at)
{
    timing_sampler *s = &t->smp;
    const uint64_t len = measure_len(s, s->period), span = s->period - len;
    s->period_start = at;
    /* the first unit at the start: a region shorter than a period still has one */
    const uint64_t unit = at + (span && at ? next_random(s, at) % (span + 1) : 0), now = t->n.instructions;
    const uint64_t gap = unit - now, warm = gap < s->cfg.warmup ? gap : s->cfg.warmup;
    t->measuring = false;
    if (gap > warm) {
        s->phase = SMP_SKIP;
        phase_len(s, now, gap - warm);
        s->warm_next = warm;
    } else if (warm) {
        s->phase = SMP_WARM;
        phase_len(s, now, warm);
    } else {
        start_measure(t);
    }
}

int edan_timing_sampling_check(const edan_timing_sampling *cfg, edan_error *err)
{
    if (!cfg->unit || cfg->period < cfg->unit || cfg->period > (1ull << 40) || cfg->warmup > (1ull << 40) ||
        cfg->regime > (1ull << 32)) {
        edan_error_set(err,
                       "sampling: a unit of at least 1 instruction, a period of at least the unit and at most 2^40, "
                       "a warm-up of at most 2^40 (unit %llu, warm-up %llu, period %llu)",
                       (unsigned long long)cfg->unit, (unsigned long long)cfg->warmup, (unsigned long long)cfg->period);
        return -1;
    }
    return 0;
}

int edan_timing_set_sampling(edan_timing *t, const edan_timing_sampling *cfg, edan_error *err)
{
    if (edan_timing_sampling_check(cfg, err))
        return -1;
    if (t->n.instructions || t->smp.on) {
        edan_error_set(err, "sampling is set once, before the stream");
        return -1;
    }
    for (int g = 0; g < t->n_groups; g++)
        if (edan_timing_set_sampling(t->group[g], cfg, err))
            return -1;
    timing_sampler *s = &t->smp;
    s->on = true;
    s->cfg = *cfg;
    if (t->pf.any) /* the prefetchers' state the schedule rebuilds (timing.h) */
        s->cfg.warmup *= EDAN_TIMING_SAMPLE_PF_WARMUP;
    if (t->pf.any && !t->n_groups) { /* functional warming's in-flight rule (timing_internal.h) */
        t->wline = calloc((size_t)1 << EDAN_MEMTIME_INFLIGHT_BITS, sizeof *t->wline);
        t->wcell = calloc((size_t)TIMING_WARM_PCS * TIMING_WARM_KINDS * TIMING_WARM_SRCS * TIMING_WARM_BUCKETS,
                          sizeof *t->wcell);
        if (!t->wline || !t->wcell) {
            free(t->wline);
            free(t->wcell);
            t->wline = NULL;
            t->wcell = NULL;
            edan_error_set(err, "out of memory for functional warming's in-flight rule");
            return -1;
        }
    }
    s->period = cfg->regime ? cfg->unit : cfg->period;
    if (!t->n_groups)
        next_period(t, 0);
    return 0;
}

/* Unit storage: doubling, out of line (once per 1024 units and more). Each array is grown to cap * per of its
 * elements; one that fails leaves the others grown and s->cap as it was, which is safe (they are only larger). */
static __attribute__((noinline)) int units_grow(edan_timing *t)
{
    timing_sampler *s = &t->smp;
    const size_t cap = s->cap ? s->cap * 2 : 1024, Kp = (size_t)t->Kp;
    void *q;
#define GROW(p, per) ((q = realloc((p), cap * (per) * sizeof *(p))) != NULL && ((p) = q, 1))
    if (!(GROW(s->stands, 1) && GROW(s->meas, 1) && GROW(s->stratum, 1) && GROW(s->y, Kp) && GROW(s->aux_unit, NAUX) &&
          GROW(s->aux_stands, NAUX) && GROW(s->aux_start, NAUX))) {
        edan_error_set(&t->err, "out of memory for the sampled timing model's units (%zu)", cap);
        return -1;
    }
#undef GROW
    s->cap = cap;
    return 0;
}

/*
 * Memory phases. The misses that make a program's slope can come in phases
 * (spills.tsp: 6 of the last regime's 198 units held any, its last four
 * periods 74 % of that regime's memory lines), where a unit per period sees
 * too few of them for the estimate, and for the fit of its counts, to hold
 * (its slope 14.5 % off --exact, 2.7 times its interval's half-width). The
 * counts are exact on every instruction, so at each period's end the
 * stretch since the last decision (a period P at least) tells what phase
 * the stream is in: where it read lines from memory at more than DENSE
 * times the rate of the region so far, the next periods are DENSE times
 * shorter (a unit every P / DENSE instructions), until a stretch of P is
 * at twice the region's rate or below (a phase's own lines raise the
 * region's rate: a line per 4 instructions after one per 1500 falls below
 * 8 times it in the phase's third period of 16000). That is Neyman's
 * allocation over the two strata, DENSE times the units where a unit's
 * spread is DENSE times the rest's, the spread taken as proportional to
 * the rate of lines (the most it allocates: a spread that grew as the
 * rate's square root, Poisson misses, would ask for DENSE^2 times the
 * rate). Entered at twice the region's rate, dense periods took regular
 * kernels whose later loops read more lines than their first (syr2k: 3
 * times, for half its run) to their end: twice the instructions
 * scheduled. The decision is made before the next period's unit is
 * drawn, from what ran before that period, so each unit is still uniform
 * in its period and the estimate unbiased; the dense periods' units form a stratum of their own (their
 * own weights, intercept and spread), and take draws of their own
 * (next_random()): every other unit is where it would be without them. A
 * region whose misses are spread evenly (no stretch at DENSE times its
 * rate) is sampled as before. The period where a phase starts keeps its
 * one unit (what the decision cannot see yet).
 */
#define DENSE 8
#define DENSE_STRATUM 0x80000000u

static uint64_t dense_period(const timing_sampler *s)
{
    return s->cfg.period / DENSE > s->cfg.unit ? s->cfg.period / DENSE : s->cfg.unit;
}

/* At a period's end at the full period (or a dense one): the next period's length; whether it changed. */
static bool dense_next(edan_timing *t)
{
    timing_sampler *s = &t->smp;
    const uint64_t ins = t->n.instructions, lines = t->n.ram_lines;
    const uint64_t ri = ins - s->dec_ins, rl = lines - s->dec_lines;
    if (s->dense && ri < s->cfg.period) /* a stretch of a whole period at least, dense or not */
        return false;
    s->dec_ins = ins;
    s->dec_lines = lines;
    if (dense_period(s) == s->cfg.period)
        return false;
    /* rl / ri > DENSE (in a phase: 2) lines / ins, in integers (counts below 2^64: the products in 128 bits) */
    const unsigned above = s->dense ? 2 : DENSE;
    const bool dense = rl && (unsigned __int128)rl * ins > (unsigned __int128)above * lines * ri;
    if (dense == s->dense)
        return false;
    s->dense = dense;
    s->period = dense ? dense_period(s) : s->cfg.period;
    return true;
}

/*
 * The units in strata, each consecutive (edan_timing_estimate()): the dense
 * periods' units, spread among the others, moved after them, both parts in
 * stream order. 0, or -1 with t->err set.
 */
static int group_dense(edan_timing *t)
{
    timing_sampler *s = &t->smp;
    size_t nd = 0;
    for (size_t i = 0; i < s->n; i++)
        nd += (s->stratum[i] & DENSE_STRATUM) != 0;
    if (!nd || nd == s->n)
        return 0;
    const size_t Kp = (size_t)t->Kp, n = s->n;
    size_t *order = malloc(n * sizeof *order);
    uint64_t *u64 = malloc(n * NAUX * sizeof *u64);
    tick *ty = malloc(n * Kp * sizeof *ty);
    uint32_t *u32 = malloc(n * sizeof *u32);
    int rc = 0;
    if (!order || !u64 || !ty || !u32) {
        edan_error_set(&t->err, "out of memory for the sampled timing model's strata");
        rc = -1;
        goto out;
    }
    size_t a = 0, b = n - nd;
    for (size_t i = 0; i < n; i++)
        order[(s->stratum[i] & DENSE_STRATUM) ? b++ : a++] = i;
#define PERMUTE(arr, per, tmp)                                                                                         \
    do {                                                                                                               \
        for (size_t i = 0; i < n; i++)                                                                                 \
            memcpy((tmp) + i * (per), (arr) + order[i] * (per), (per) * sizeof *(arr));                                \
        memcpy((arr), (tmp), n *(per) * sizeof *(arr));                                                                \
    } while (0)
    PERMUTE(s->stands, 1, u64);
    PERMUTE(s->meas, 1, u64);
    PERMUTE(s->aux_unit, NAUX, u64);
    PERMUTE(s->aux_stands, NAUX, u64);
    PERMUTE(s->stratum, 1, u32);
    PERMUTE(s->y, Kp, ty);
#undef PERMUTE
out:
    free(order);
    free(u64);
    free(ty);
    free(u32);
    return rc;
}

/* The unit that started at unit_start, `measured` instructions long, just ended; it stands for its period. */
static void record_unit(edan_timing *t, uint64_t measured)
{
    timing_sampler *s = &t->smp;
    if (s->n == s->cap && units_grow(t))
        return;
    s->stands[s->n] = s->period;
    s->last_period_start = s->period_start;
    s->meas[s->n] = measured;
    s->stratum[s->n] = s->regime | (s->dense ? DENSE_STRATUM : 0);
    tick *y = s->y + s->n * (size_t)t->Kp;
    for (int k = 0; k < t->Kp; k++)
        y[k] = t->last_commit[k] - s->snap[k];
    uint64_t c[NAUX];
    aux_now(t, c);
    for (int j = 0; j < NAUX; j++) { /* what it stands for: when its period ends (period_end()) */
        s->aux_unit[s->n * NAUX + j] = c[j] - s->aux_snap[j];
        s->aux_start[s->n * NAUX + j] = s->aux_period[j];
        s->aux_stands[s->n * NAUX + j] = c[j] - s->aux_period[j];
    }
    s->measured += measured;
    s->n++;
}

/* The last unit's period ends here: the counts it stands for; the next period's start. */
static void period_end(edan_timing *t)
{
    timing_sampler *s = &t->smp;
    aux_now(t, s->aux_period);
    for (int j = 0; s->n && j < NAUX; j++)
        s->aux_stands[(s->n - 1) * NAUX + j] = s->aux_period[j] - s->aux_start[(s->n - 1) * NAUX + j];
}

/*
 * The attribution of the last unit recorded (record_unit()), each id it
 * scheduled weighted as the estimator weights the unit's cycles (what it
 * stands for over what it measured; exactly 1 for a unit measured whole),
 * added to the estimates; its rows start again. A unit is folded at the
 * next unit's first record (smp_touch(), timing_shared.h) or at the end:
 * only then is its weight known (the last unit stands for what ran after
 * it too, and a stream can end just as a unit begins). The rows' sum is
 * the estimator's expansion, Sum w y / x, to the rounding
 * (edan_timing_sample_close() adds the rest). A unit not recorded (out of
 * memory: t->err) is dropped with its rows.
 */
void edan_timing_fold_unit(edan_timing *t)
{
    timing_sampler *s = &t->smp;
    const size_t Kp = (size_t)t->Kp, A = NAUX;
    const bool keep = s->folded < s->n;
    double w = 0;
    if (keep) {
        const size_t i = s->n - 1;
        w = s->stands[i] == s->meas[i] ? 1 : (double)s->stands[i] / (double)s->meas[i];
        s->folded = s->n;
    }
    /* ticks below 2^63: converted as signed (one instruction; an unsigned 64-bit one takes several) */
    for (size_t u = 0; u < s->n_touched; u++) {
        const size_t id = s->touched[u];
        tick *ti = t->id_time + id * Kp, *st = t->id_stall + id * Kp;
        double *e = s->id_est + id * Kp, *es = s->id_stall_est + id * Kp;
        uint64_t *au = s->id_aux_unit + id * A;
        for (size_t k = 0; k < Kp; k++) {
            if (keep) {
                e[k] += (double)(int64_t)ti[k] * w;
                es[k] += (double)(int64_t)st[k] * w;
            }
            ti[k] = 0;
            st[k] = 0;
        }
        if (keep)
            s->id_n_est[id] += (double)s->id_n_unit[id] * w;
        s->id_n_unit[id] = 0;
        if (au[0] | au[1]) {
            if (keep) {
                s->id_aux_est[id * A] += (double)(int64_t)au[0] * w;
                s->id_aux_est[id * A + 1] += (double)(int64_t)au[1] * w;
            }
            au[0] = au[1] = 0;
        }
    }
    for (int k = 0; k < t->Kp; k++) {
        if (keep)
            s->stall_est[k] += (double)t->stall[k] * w;
        t->stall[k] = 0;
    }
    s->n_touched = 0;
}

static void sample_step(edan_timing *t)
{
    timing_sampler *s = &t->smp;
    if (s->mark && t->n.instructions == s->mark) { /* the last unit's period ends: the phase goes on */
        period_end(t);
        s->mark = 0;
        /*
         * the next period's length from everything before it: in a skip (its unit not begun), a change plans
         * it again, its unit drawn anew (a warm-up begun before it keeps the plan)
         */
        if (s->phase == SMP_SKIP && (s->period == s->cfg.period || s->dense) && dense_next(t)) {
            next_period(t, t->n.instructions);
            return;
        }
        s->left = s->after_mark;
        s->after_mark = 0;
        if (s->left)
            return;
    }
    if (s->phase == SMP_SKIP) {
        s->phase = SMP_WARM;
        phase_len(s, t->n.instructions, s->warm_next);
        if (!s->warm_next)
            start_measure(t);
        return;
    }
    if (s->phase == SMP_WARM) {
        start_measure(t);
        return;
    }
    /* the end of a measured unit: the next period, maybe a longer one */
    record_unit(t, measure_len(s, s->period));
    const uint64_t end = s->period_start + s->period;
    if (t->n.instructions == end) /* measured whole, or the unit at its period's end */
        period_end(t);
    else
        s->mark = end;
    if (s->cfg.regime && !s->dense && s->period < s->cfg.period && ++s->in_regime >= s->cfg.regime) {
        s->period = s->period * 2 < s->cfg.period ? s->period * 2 : s->cfg.period;
        s->in_regime = 0;
        s->regime++;
    } else if (t->n.instructions == end && (s->period == s->cfg.period || s->dense)) {
        dense_next(t); /* the unit ended its period; else at its end (mark, above) */
    }
    next_period(t, end);
}

void edan_timing_sample_next(edan_timing *t)
{
    do
        sample_step(t);
    while (!t->smp.left);
}

/* ===================================================================== */
/* After the stream                                                       */
/* ===================================================================== */

/*
 * The rows as ratios, before the lanes are priced: each id's weighted
 * cycles, stall and counts (id_est, id_stall_est, id_aux_est) times its
 * executions in the region over its weighted executions measured
 * (id_n_est). A unit's weight stands for its period, and code that ran
 * once, in a unit, is not its period's (a libc function measured whole in
 * a unit of weight 16 was 16 times its cycles); per id the weights' sum is
 * its own count, and a row measured whole is exact. What the units did
 * not measure at all (id_n_est 0) stays 0 here: price_rows() gives it its
 * share.
 */
static void ratio_rows(edan_timing *t, const uint32_t *live, size_t n_live)
{
    timing_sampler *s = &t->smp;
    const size_t Kp = (size_t)t->Kp;
    for (size_t u = 0; u < n_live; u++) {
        const size_t id = live[u];
        if (!(s->id_n_est[id] > 0))
            continue;
        const double r = (double)edan_timing_id_count(t, (uint32_t)id) / s->id_n_est[id];
        for (size_t k = 0; k < Kp; k++) {
            s->id_est[id * Kp + k] *= r;
            s->id_stall_est[id * Kp + k] *= r;
        }
        for (size_t j = 0; j < NAUX; j++)
            s->id_aux_est[id * NAUX + j] *= r;
    }
}

/*
 * How a lane's correction is shared among the rows (price_rows()): at
 * b[0] cycles an epoch and b[1] a line missed, the rest of memory's
 * correction (what those do not explain) at rest cycles a cycle of the
 * row's own, and what the ratios leave of the lane's estimate at d
 * cycles a line from memory; a row's misses' price, line cycles a line.
 */
typedef struct row_share {
    double b[NAUX], rest, line, d;
} row_share;

/* id's share of the lane's correction: its counts missed (its instructions' less their units') at b, rest and d. */
static double row_correction(const timing_sampler *s, size_t id, const double *e0, size_t Kp, const row_share *h)
{
    return h->b[0] * ((double)s->id_aux[id * NAUX] - s->id_aux_est[id * NAUX]) +
           h->b[1] * ((double)s->id_aux[id * NAUX + 1] - s->id_aux_est[id * NAUX + 1]) + h->rest * e0[id * Kp] +
           h->d * (double)s->id_aux[id * NAUX + 1];
}

/* id's misses' price: its lines in the whole region at h->line (or, that not above 0, its cycles). */
static double row_price(const timing_sampler *s, size_t id, const double *e0, size_t Kp, const row_share *h)
{
    return h->line > 0 ? h->line * (double)s->id_aux[id * NAUX + 1] : e0[id * Kp];
}

/* What the rows shared as h lack below 0, in all. */
static double share_deficit(const timing_sampler *s, const uint32_t *live, size_t n_live, const double *e0, size_t Kp,
                            const row_share *h)
{
    double d = 0;
    for (size_t u = 0; u < n_live; u++) {
        const size_t id = live[u];
        const double v = e0[id * Kp] + row_correction(s, id, e0, Kp, h);
        d += v < 0 ? -v : 0;
    }
    return d;
}

/*
 * Lane k's rows, after the stream and ratio_rows(). The lane's estimate
 * corrects the units' weighted cycles by b . M, b the counts' prices and M
 * the counts the units missed (edan_timing_estimate_b()); the rows share
 * it by their own counts missed (their instructions' in the region less
 * their ratios'), so that a row measured whole gets none, one no unit
 * measured its misses' price, and a row without a miss keeps its own
 * cycles. What the ratios' sum and b . M leave of the estimate (the two
 * weightings of the rare code's misses, code no unit measured) goes to
 * the lines from memory alike (to the rows' cycles in a lane without
 * one): the rows sum to the estimate. Memory's share two ways, the one
 * that leaves less below 0 in this lane (the lanes stay independent: a lane's rows depend
 * on its latency alone, timing_sample_test's one-at-a-time check): at the prices b (what tells bursts from isolated
 * misses); or at one price a line, b's combination at the region's mix of epochs and lines, with what the lines missed
 * leave of b . M shared by the rows' own cycles. Epochs and lines move together in most programs, so that the fit pins
 * down their combination along the units' counts, not each price (trsv 1500: -13,284 cycles an epoch, +2,116 a line),
 * and at b a row with another mix of the two got thousands of cycles either way: below 0, and taken from the others.
 * The share is memory's cost: the stall's too.
 *
 * A row whose few units held misses that cost less than the price can
 * still come out below 0: it is 0, and what it
 * lacked lowers the price of every other row's lines alike (a row taken
 * below 0 by that being 0 in turn; where the prices cannot hold it, every
 * row is scaled). A row's stall is at most its cycles; the lane's is the
 * rows' sum.
 */
static void price_rows(edan_timing *t, int k, const double *b, const uint32_t *live, size_t n_live)
{
    timing_sampler *s = &t->smp;
    const size_t Kp = (size_t)t->Kp;
    double *e0 = s->id_est + (size_t)k, *st0 = s->id_stall_est + (size_t)k;
    double M[NAUX] = {0, 0}, own = 0;
    /* a line's price at the region's mix of epochs and lines (A): the fit's combination along its data */
    double A[NAUX] = {0, 0};
    for (size_t u = 0; u < n_live; u++) {
        const size_t id = live[u];
        for (int j = 0; j < NAUX; j++) {
            M[j] += (double)s->id_aux[id * NAUX + (size_t)j] - s->id_aux_est[id * NAUX + (size_t)j];
            A[j] += (double)s->id_aux[id * NAUX + (size_t)j];
        }
        own += e0[id * Kp];
    }
    const double C = b[0] * M[0] + b[1] * M[1], D = s->est[k] - own - C;
    const double line = A[1] > 0 ? b[0] * A[0] / A[1] + b[1] : 0, d = A[1] > 0 ? D / A[1] : 0;
    const double left = A[1] > 0 || !(own > 0) ? 0 : D / own; /* no line from memory: by the rows' cycles */
    const row_share by_counts = {{b[0], b[1]}, left, line, d},
                    by_lines = {{0, line}, own > 0 ? (C - line * M[1]) / own + left : 0, line, d};
    const double d_counts = share_deficit(s, live, n_live, e0, Kp, &by_counts),
                 d_lines = share_deficit(s, live, n_live, e0, Kp, &by_lines);
    const row_share *h = d_counts <= d_lines ? &by_counts : &by_lines;
    double deficit = 0;
    for (size_t u = 0; u < n_live; u++) {
        const size_t id = live[u];
        const double c = row_correction(s, id, e0, Kp, h);
        e0[id * Kp] += c;
        st0[id * Kp] += c;
        if (e0[id * Kp] < 0)
            deficit -= e0[id * Kp];
    }
    bool *zero = deficit > 0 ? calloc(n_live, sizeof *zero) : NULL; /* rows held at 0, by their place in live */
    for (size_t u = 0; zero && u < n_live; u++) {
        const size_t id = live[u];
        if (e0[id * Kp] < 0) {
            st0[id * Kp] -= e0[id * Kp];
            e0[id * Kp] = 0;
            zero[u] = true;
        }
    }
    for (int round = 0; zero && deficit > 0 && round < 8; round++) {
        double priced = 0;
        for (size_t u = 0; u < n_live; u++) {
            const double p = row_price(s, live[u], e0, Kp, h);
            priced += !zero[u] && p > 0 ? p : 0;
        }
        if (priced <= 0)
            break;
        const double f = deficit / priced;
        deficit = 0;
        for (size_t u = 0; u < n_live; u++) {
            const size_t id = live[u];
            double *e = &e0[id * Kp], *st = &st0[id * Kp];
            const double p = row_price(s, id, e0, Kp, h);
            if (zero[u] || p <= 0)
                continue;
            double cut = f * p;
            if (cut >= *e) { /* 0, the rest to the next round */
                deficit += cut - *e;
                cut = *e;
                zero[u] = true;
            }
            *e -= cut;
            *st -= cut;
        }
    }
    free(zero);
    double pos = 0;
    for (size_t u = 0; deficit > 0 && u < n_live; u++)
        pos += e0[live[u] * Kp] > 0 ? e0[live[u] * Kp] : 0;
    const double f = deficit > 0 && pos > deficit ? (pos - deficit) / pos : 1; /* the last resort */
    double stall = 0;
    for (size_t u = 0; u < n_live; u++) {
        double *e = &e0[live[u] * Kp], *st = &st0[live[u] * Kp];
        const double v = *e < 0 ? 0 : *e * f;
        *st += v - *e;
        *e = v;
        *st = *st < 0 ? 0 : *st > *e ? *e : *st;
        stall += *st;
    }
    s->stall_est[k] = stall;
}

void edan_timing_sample_close(edan_timing *t)
{
    timing_sampler *s = &t->smp;
    if (!s->on || s->closed || t->n_groups)
        return;
    s->closed = true;
    const uint64_t total = t->n.instructions;
    if (s->phase == SMP_MEASURE && total > s->unit_start)
        record_unit(t, total - s->unit_start);
    /* the last unit stands for what ran of its period, and for any instructions after it (no unit of their own) */
    if (s->n) {
        s->stands[s->n - 1] = total - s->last_period_start;
        uint64_t c[NAUX];
        aux_now(t, c);
        for (int j = 0; j < NAUX; j++)
            s->aux_stands[(s->n - 1) * NAUX + j] = c[j] - s->aux_start[(s->n - 1) * NAUX + j];
    }
    edan_timing_fold_unit(t); /* the last unit, at its weight now known */
    s->covered = s->measured == total;
    if (group_dense(t))
        return;
    double *y = malloc((s->n ? s->n : 1) * sizeof *y);
    if (!y) {
        edan_error_set(&t->err, "out of memory for the sampled timing model's estimate");
        return;
    }
    double b[MAXK][NAUX];
    for (int k = 0; k < t->K; k++) {
        for (size_t i = 0; i < s->n; i++)
            y[i] = (double)s->y[i * (size_t)t->Kp + (size_t)k];
        s->est[k] = edan_timing_estimate_b(s->n, s->meas, s->stands, s->stratum, s->aux_unit, s->aux_stands, y, 1,
                                           &s->half[k], b[k]);
        /* every instruction measured: the unsampled model's results, as they are */
        if (s->covered) {
            s->est[k] = (double)t->last_commit[k];
            s->half[k] = 0;
        }
    }
    free(y);
    if (s->covered)
        return;
    /*
     * the rows with a count in the region, in order: every other id's rows are 0 throughout (the sums below add
     * nothing for them), and their pages of the sampler's arrays were never touched (util/zgrow.h)
     */
    uint32_t *live = malloc((t->id_n ? t->id_n : 1) * sizeof *live);
    if (!live) {
        edan_error_set(&t->err, "out of memory for the sampled timing model's rows");
        return;
    }
    size_t n_live = 0;
    for (uint32_t id = 0; id < t->id_n; id++)
        if (edan_timing_id_count(t, id))
            live[n_live++] = id;
    ratio_rows(t, live, n_live);
    for (int k = 0; k < t->K; k++)
        price_rows(t, k, b[k], live, n_live);
    free(live);
}

void edan_timing_sample_free(edan_timing *t)
{
    timing_sampler *s = &t->smp;
    free(s->stands);
    free(s->meas);
    free(s->stratum);
    free(s->y);
    free(s->aux_unit);
    free(s->aux_stands);
    free(s->aux_start);
    /* grown with t->id_cap by smp_grow() (timing_shared.h) */
    const size_t n = t->id_cap, Kp = (size_t)t->Kp, A = EDAN_TIMING_AUX;
    edan_zgrow_free(s->id_est, n * Kp * sizeof *s->id_est);
    edan_zgrow_free(s->id_stall_est, n * Kp * sizeof *s->id_stall_est);
    edan_zgrow_free(s->id_gen, n * sizeof *s->id_gen);
    edan_zgrow_free(s->touched, n * sizeof *s->touched);
    edan_zgrow_free(s->id_aux, n * A * sizeof *s->id_aux);
    edan_zgrow_free(s->id_aux_unit, n * A * sizeof *s->id_aux_unit);
    edan_zgrow_free(s->id_aux_est, n * A * sizeof *s->id_aux_est);
    edan_zgrow_free(s->id_n_unit, n * sizeof *s->id_n_unit);
    edan_zgrow_free(s->id_n_est, n * sizeof *s->id_n_est);
    free(t->wline);
    free(t->wcell);
}

void edan_timing_sample_info_get(const edan_timing *t, edan_timing_sample_info *out)
{
    memset(out, 0, sizeof *out);
    const edan_timing *g0 = t->n_groups ? t->group[0] : t;
    const timing_sampler *s = &g0->smp;
    out->sampled = s->on;
    if (!s->on)
        return;
    out->covered = s->covered;
    out->cfg = s->cfg;
    out->units = s->n;
    out->measured = s->measured + g0->folded.measured; /* rep strings' elements folded into measured ones */
    out->detailed = s->detailed + g0->folded.detailed;
    for (int k = 0; k < t->K; k++) {
        int j = k;
        const edan_timing *g = edan_timing_group_of(t, &j);
        out->cycles_half[k] = g->smp.half[j] / TPC;
    }
    if (s->covered || t->K < 2 || !s->n)
        return;
    /* the slope is linear in the lanes' cycles: the same estimator over each unit's slope */
    double ones[MAXK], w[MAXK];
    for (int k = 0; k < t->K; k++)
        ones[k] = 1;
    const double base = edan_timing_slope_of(t, ones);
    for (int k = 0; k < t->K; k++) {
        ones[k] = 2;
        w[k] = edan_timing_slope_of(t, ones) - base;
        ones[k] = 1;
    }
    double *y = malloc(s->n * sizeof *y);
    if (!y) {
        out->slope_half = NAN;
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        double v = 0;
        for (int k = 0; k < t->K; k++) {
            int j = k;
            const edan_timing *g = edan_timing_group_of(t, &j);
            v += w[k] * (double)g->smp.y[i * (size_t)g->Kp + (size_t)j] / TPC;
        }
        y[i] = v;
    }
    edan_timing_estimate(s->n, s->meas, s->stands, s->stratum, s->aux_unit, s->aux_stands, y, 1, &out->slope_half);
    free(y);
}
