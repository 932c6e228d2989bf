/*
 * The timing model's sampled schedule (analysis/timing/timing.h, --sampled):
 *  - the estimator (edan_timing_estimate()) against a naive reference on
 *    random units: strata, the joining of one-unit strata, the
 *    finite-population correction, Student's t;
 *  - its 95 % interval covers the true total in about 95 % of random
 *    samples of random populations, sampled as the model does (a unit at a
 *    random place in each period);
 *  - on random streams (timing_random.h): a unit covering every period
 *    (period = unit) gives every result of the unsampled model, on 1 to 4
 *    lane groups; sampled in earnest, the counts (caches, predictor) stay
 *    exact, a pass with many latencies equals passes with one, the
 *    attribution adds up to the estimate, and the units, measured and
 *    scheduled instructions follow the parameters.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/timing.h"
#include "check.h"
#include "timing_check.h"
#include "timing_random.h"

/* ===================================================================== */
/* The estimator                                                          */
/* ===================================================================== */

#define MAXU 400

/* Student's t at 97.5 %: the textbook table, and the normal quantile with its first correction beyond. */
static double t_quantile(double df)
{
    static const double t[] = {12.706, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                               2.201,  2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
                               2.074,  2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    return df <= 30 ? t[(int)df] : 1.96 + 2.5 / df;
}

/*
 * The reference: the units as lists of strata, a one-unit stratum moved
 * into the list before it; per list the ratio estimate N * R (N the
 * instructions stood for, R = sum y / sum x, the units' rate: y / x each)
 * and the textbook variance of a total from a simple random sample,
 * N^2 (1 - f) s^2 / m with s^2 of w (r - rbar) scaled by m / N (equal
 * weights: the sample variance of the unit totals), summed.
 */
static double reference(size_t n, const uint64_t *x, const uint64_t *w, const uint32_t *st, const double *y,
                        double *half)
{
    size_t first[MAXU], count[MAXU], lists = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && st[i] == st[i - 1]) {
            count[lists - 1]++;
            continue;
        }
        const bool single = i + 1 >= n || st[i + 1] != st[i];
        if (single && lists) { /* a stratum of one unit: into the list before */
            count[lists - 1]++;
            continue;
        }
        first[lists] = i;
        count[lists++] = 1;
    }
    double total = 0, var = 0, df = 0;
    bool unknown = false;
    for (size_t l = 0; l < lists; l++) {
        double N = 0, X = 0, est = 0;
        for (size_t i = first[l]; i < first[l] + count[l]; i++) {
            N += (double)w[i];
            X += (double)x[i];
            est += (double)w[i] * y[i] / (double)x[i];
        }
        total += est;
        if (X >= N)
            continue;
        const double m = (double)count[l], rbar = est / N;
        if (count[l] < 2) {
            unknown = true;
            continue;
        }
        /* the units' contributions w r, around what their weights give at the list's rate */
        double s2 = 0;
        for (size_t i = first[l]; i < first[l] + count[l]; i++) {
            const double d = (double)w[i] * (y[i] / (double)x[i] - rbar);
            s2 += d * d;
        }
        s2 /= m - 1;
        var += m * m * (1 - X / N) * s2 / m;
        df += m - 1;
    }
    *half = unknown ? INFINITY : var > 0 ? t_quantile(df) * sqrt(var) : 0;
    return total;
}

static bool close_to(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

static void test_estimator(void)
{
    static uint64_t x[MAXU], w[MAXU];
    static uint32_t st[MAXU];
    static double y[MAXU * 3];
    int bad = 0, finite = 0;
    for (int trial = 0; trial < 2000; trial++) {
        rt_seed(7000 + (uint64_t)trial);
        const size_t n = 1 + rt_below(MAXU - 1);
        uint32_t s = (uint32_t)rt_below(3);
        const bool whole = trial % 10 == 0; /* every unit stands for itself */
        for (size_t i = 0; i < n; i++) {
            if (rt_below(trial % 3 == 0 ? 2 : 30) == 0)
                s++;
            x[i] = 1 + rt_below(2000);
            w[i] = whole ? x[i] : x[i] + rt_below(trial % 4 == 0 ? 2 : 20000);
            st[i] = s;
            for (int k = 0; k < 3; k++) /* a stride of 3: the second of three values; whole ticks, as the model's */
                y[i * 3 + k] = (double)(x[i] * (1 + rt_below(64)) + rt_below(1000)) + (k == 1 ? 0 : 1e9);
        }
        double ys[MAXU];
        for (size_t i = 0; i < n; i++)
            ys[i] = y[i * 3 + 1];
        double half, ref_half;
        const double est = edan_timing_estimate(n, x, w, st, NULL, NULL, y + 1, 3, &half);
        const double ref = reference(n, x, w, st, ys, &ref_half);
        finite += isfinite(half) && half > 0;
        if (!close_to(est, ref) || !(close_to(half, ref_half) || (isinf(half) && isinf(ref_half)))) {
            if (bad++ < 4)
                fprintf(stderr, "trial %d (%zu units): estimate %.17g +- %.17g, reference %.17g +- %.17g\n", trial, n,
                        est, half, ref, ref_half);
        }
        if (whole) { /* every unit stands for itself: the sum of the values, exactly, and no interval */
            double sum = 0;
            for (size_t i = 0; i < n; i++)
                sum += ys[i];
            CHECK(est == sum && half == 0, "trial %d: whole units give %.17g +- %g, the sum is %.17g", trial, est, half,
                  sum);
        }
    }
    CHECK(bad == 0, "%d of 2000 estimates differ from the reference", bad);
    CHECK(finite > 1000, "only %d trials had an interval", finite);
}

#define NA EDAN_TIMING_AUX
_Static_assert(NA == 2, "the reference solves for two counts");

/* 2 x 2 determinant, for Cramer's rule */
static double det2(double m[2][2])
{
    return m[0][0] * m[1][1] - m[0][1] * m[1][0];
}

/*
 * The regression estimator's reference: the same lists of strata as
 * reference(); over the lists of two units or more (measured whole or
 * sampled) the weighted least-squares slopes of the rates y / x
 * on the two counts' rates a / x, each list centred on its own means,
 * by Cramer's rule; per list sum w y / x + b (sum A - sum w a / x), and
 * the textbook variance of the residual rates y / x - b a / x, with two
 * degrees of freedom fewer; plus what the fit leaves unknown of the counts
 * missed D = sum A - sum w a / x: D' cov(b) D (the sandwich covariance)
 * and, for lines missed, their count times the fitted units' squared
 * residuals in cycles per line they read.
 */
static double reference_aux(size_t n, const uint64_t *x, const uint64_t *w, const uint32_t *st, const uint64_t *au,
                            const uint64_t *A, const double *y, double *half)
{
    size_t first[MAXU], count[MAXU], lists = 0;
    for (size_t i = 0; i < n; i++) {
        const bool single = i + 1 >= n || st[i + 1] != st[i];
        if ((i && st[i] == st[i - 1]) || (single && lists)) {
            count[lists - 1]++;
            continue;
        }
        first[lists] = i;
        count[lists++] = 1;
    }
    double S[NA][NA] = {{0}}, R[NA] = {0};
    for (size_t l = 0; l < lists; l++) {
        double N = 0, X = 0, mr = 0, mq[NA] = {0};
        for (size_t i = first[l]; i < first[l] + count[l]; i++) {
            N += (double)w[i];
            X += (double)x[i];
            mr += (double)w[i] * y[i] / (double)x[i];
            for (int j = 0; j < NA; j++)
                mq[j] += (double)w[i] * (double)au[i * NA + j] / (double)x[i];
        }
        if (count[l] < 2)
            continue;
        for (size_t i = first[l]; i < first[l] + count[l]; i++)
            for (int j = 0; j < NA; j++) {
                const double qj = (double)au[i * NA + j] / (double)x[i] - mq[j] / N;
                R[j] += (double)w[i] * qj * (y[i] / (double)x[i] - mr / N);
                for (int k = 0; k < NA; k++)
                    S[j][k] += (double)w[i] * qj * ((double)au[i * NA + k] / (double)x[i] - mq[k] / N);
            }
    }
    double b[NA];
    for (int j = 0; j < NA; j++) {
        double M[NA][NA];
        memcpy(M, S, sizeof M);
        for (int r = 0; r < NA; r++)
            M[r][j] = R[r];
        b[j] = det2(M) / det2(S);
    }
    /*
     * b's covariance, S^-1 (sum (w e)^2 q q') S^-1 with S^-1 the adjugate over the determinant, e each unit's
     * residual rate and q its centred counts' rates; tau, the sum of the residuals in cycles (x e)^2 of the units
     * that read lines over the sum of their lines
     */
    const double d = det2(S), inv[NA][NA] = {{S[1][1] / d, -S[0][1] / d}, {-S[1][0] / d, S[0][0] / d}};
    double meat[NA][NA] = {{0}}, ee = 0, nl = 0;
    for (size_t l = 0; l < lists; l++) {
        if (count[l] < 2)
            continue;
        double N = 0, mr = 0, mq[NA] = {0};
        for (size_t i = first[l]; i < first[l] + count[l]; i++) {
            N += (double)w[i];
            mr += (double)w[i] * y[i] / (double)x[i];
            for (int j = 0; j < NA; j++)
                mq[j] += (double)w[i] * (double)au[i * NA + j] / (double)x[i];
        }
        for (size_t i = first[l]; i < first[l] + count[l]; i++) {
            double q[NA], e = y[i] / (double)x[i] - mr / N;
            for (int j = 0; j < NA; j++) {
                q[j] = (double)au[i * NA + j] / (double)x[i] - mq[j] / N;
                e -= b[j] * q[j];
            }
            for (int j = 0; j < NA; j++)
                for (int k = 0; k < NA; k++)
                    meat[j][k] += (double)w[i] * e * (double)w[i] * e * q[j] * q[k];
            if (au[i * NA + 1]) {
                ee += (double)x[i] * e * (double)x[i] * e;
                nl += (double)au[i * NA + 1];
            }
        }
    }
    double cov[NA][NA] = {{0}}, missed[NA] = {0};
    for (int j = 0; j < NA; j++)
        for (int k = 0; k < NA; k++)
            for (int u = 0; u < NA; u++)
                for (int v = 0; v < NA; v++)
                    cov[j][k] += inv[j][u] * meat[u][v] * inv[v][k];
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < NA; j++)
            missed[j] += (double)A[i * NA + j] - (double)w[i] * (double)au[i * NA + j] / (double)x[i];
    double total = 0, var = 0, df = -NA;
    for (int j = 0; j < NA; j++)
        for (int k = 0; k < NA; k++)
            var += missed[j] * cov[j][k] * missed[k];
    if (missed[1] > 0 && nl > 0)
        var += ee / nl * missed[1];
    bool unknown = false;
    for (size_t l = 0; l < lists; l++) {
        double N = 0, X = 0, est = 0, ebar = 0;
        for (size_t i = first[l]; i < first[l] + count[l]; i++) {
            N += (double)w[i];
            X += (double)x[i];
            double e = y[i] / (double)x[i];
            for (int j = 0; j < NA; j++)
                e -= b[j] * (double)au[i * NA + j] / (double)x[i];
            est += (double)w[i] * e;
            ebar += (double)w[i] * e;
            for (int j = 0; j < NA; j++)
                est += b[j] * (double)A[i * NA + j];
        }
        total += est;
        if (X >= N)
            continue;
        if (count[l] < 2) {
            unknown = true;
            continue;
        }
        ebar /= N;
        const double m = (double)count[l];
        double s2 = 0;
        for (size_t i = first[l]; i < first[l] + count[l]; i++) {
            double e = y[i] / (double)x[i];
            for (int j = 0; j < NA; j++)
                e -= b[j] * (double)au[i * NA + j] / (double)x[i];
            s2 += ((double)w[i] * (e - ebar)) * ((double)w[i] * (e - ebar));
        }
        var += m * (1 - X / N) * s2 / (m - 1);
        df += m - 1;
    }
    *half = unknown ? INFINITY : var > 0 ? t_quantile(df < 1 ? 1 : df) * sqrt(var) : 0;
    return total;
}

/*
 * With the counts: random units whose cycles are a rate per instruction
 * plus fixed costs per count, plus a stratum's own rate and noise. Against the
 * reference; without noise the estimate is the population's total (the
 * units' rates times what they stand for, the costs times the counts they
 * stand for) and the interval 0; with counts proportional to the
 * instructions (nothing to fit) it is the estimate without them.
 */
static void test_estimator_aux(void)
{
    static uint64_t x[MAXU], w[MAXU], au[MAXU * NA], A[MAXU * NA], flat[MAXU * NA], flat_A[MAXU * NA];
    static uint32_t st[MAXU];
    static double y[MAXU], exact[MAXU];
    int bad = 0, inexact = 0, unfit = 0;
    for (int trial = 0; trial < 1000; trial++) {
        rt_seed(31000 + (uint64_t)trial);
        const size_t n = 20 + rt_below(MAXU - 20);
        uint32_t s = 0;
        /* the exact values' rate is the same in every stratum: a stratum of one unit is fitted with the one before */
        const double alpha0 = (double)(1 + rt_below(50));
        double alpha = alpha0, truth = 0;
        const double beta[NA] = {(double)rt_below(300), (double)rt_below(20)};
        for (size_t i = 0; i < n; i++) {
            if (rt_below(trial % 3 == 0 ? 5 : 60) == 0) {
                s++;
                alpha = (double)(1 + rt_below(50));
            }
            x[i] = 100 + rt_below(2000);
            /* in every other trial the first stratum measured whole, as the model's exact start */
            w[i] = x[i] + (rt_below(8) && (trial % 2 || s) ? rt_below(20000) : 0);
            st[i] = s;
            exact[i] = alpha0 * (double)x[i];
            truth += alpha0 * (double)w[i];
            for (int j = 0; j < NA; j++) {
                au[i * NA + j] = rt_below(1 + x[i] / (j + 1));
                A[i * NA + j] = au[i * NA + j] + (w[i] > x[i] ? rt_below(1 + (w[i] - x[i]) / (j + 1)) : 0);
                flat[i * NA + j] = x[i] * (j + 1);
                flat_A[i * NA + j] = w[i] * (j + 1);
                exact[i] += beta[j] * (double)au[i * NA + j];
                truth += beta[j] * (double)A[i * NA + j];
            }
            y[i] = exact[i] + (alpha - alpha0) * (double)x[i] + (double)rt_below(20000);
        }
        double half, ref_half, h0, h1, h2;
        const double est = edan_timing_estimate(n, x, w, st, au, A, y, 1, &half);
        const double ref = reference_aux(n, x, w, st, au, A, y, &ref_half);
        if (!(fabs(est - ref) <= 1e-7 * fabs(ref)) ||
            !(fabs(half - ref_half) <= 1e-6 * ref_half || (isinf(half) && isinf(ref_half)))) {
            if (bad++ < 4)
                fprintf(stderr, "trial %d (%zu units): estimate %.17g +- %.17g, reference %.17g +- %.17g\n", trial, n,
                        est, half, ref, ref_half);
        }
        const double e = edan_timing_estimate(n, x, w, st, au, A, exact, 1, &h0);
        if ((!(fabs(e - truth) <= 1e-7 * truth) || !(h0 <= 1e-6 * truth || isinf(h0))) && inexact++ < 4)
            fprintf(stderr, "trial %d: linear in the counts, %.17g +- %g, the total is %.17g\n", trial, e, h0, truth);
        const double plain = edan_timing_estimate(n, x, w, st, NULL, NULL, y, 1, &h1);
        const double same = edan_timing_estimate(n, x, w, st, flat, flat_A, y, 1, &h2);
        if ((!close_to(plain, same) || !(close_to(h1, h2) || (isinf(h1) && isinf(h2)))) && unfit++ < 4)
            fprintf(stderr, "trial %d: counts with nothing to fit give %.17g +- %g, without %.17g +- %g\n", trial, same,
                    h2, plain, h1);
    }
    CHECK(bad == 0, "%d of 1000 regression estimates differ from the reference", bad);
    CHECK(inexact == 0, "%d of 1000 estimates linear in the counts are not the total", inexact);
    CHECK(unfit == 0, "%d of 1000 estimates with proportional counts differ from the plain one", unfit);
}

/*
 * Populations of S strata of blocks of U instructions, each block's cycles
 * random (a stratum's own mean and spread, values from a sum of uniforms);
 * per period of k blocks one block measured at a random place, as the
 * model does; the 95 % interval must cover the true total in 92 to 98 %
 * of 2000 samples.
 */
static void test_coverage(void)
{
    enum { TRIALS = 2000, U = 100, MAXB = 6000 };
    static double pop[MAXB];
    static uint64_t x[MAXB], w[MAXB];
    static uint32_t st[MAXB];
    static double y[MAXB];
    int covered = 0, with_interval = 0;
    for (int trial = 0; trial < TRIALS; trial++) {
        rt_seed(99000 + (uint64_t)trial);
        const int strata = 1 + (int)rt_below(3);
        size_t nb = 0, n = 0;
        double truth = 0;
        for (int h = 0; h < strata; h++) {
            const uint64_t k = 2 + rt_below(20), periods = 30 + rt_below(60);
            const double mean = 50 + (double)rt_below(500), spread = 10 + (double)rt_below(200);
            for (uint64_t p = 0; p < periods && nb + k <= MAXB; p++) {
                for (uint64_t b = 0; b < k; b++) {
                    double u = 0;
                    for (int j = 0; j < 4; j++)
                        u += (double)rt_below(1000) / 1000.0;
                    pop[nb + b] = mean * U + spread * U * (u - 2);
                    truth += pop[nb + b];
                }
                const uint64_t at = rt_below(k);
                x[n] = U;
                w[n] = k * U;
                st[n] = (uint32_t)h;
                y[n++] = pop[nb + at];
                nb += k;
            }
        }
        double half;
        const double est = edan_timing_estimate(n, x, w, st, NULL, NULL, y, 1, &half);
        with_interval += isfinite(half) && half > 0;
        covered += fabs(est - truth) <= half;
    }
    CHECK(with_interval == TRIALS, "%d of %d samples have an interval", with_interval, TRIALS);
    CHECK(covered >= TRIALS * 92 / 100 && covered <= TRIALS * 98 / 100,
          "the 95%% interval covers the total in %d of %d samples", covered, TRIALS);
}

/* ===================================================================== */
/* The model                                                              */
/* ===================================================================== */

#define LONG_RECS 60000

static void test_whole_periods(int trials)
{
    static edan_exec recs[NRECS];
    static edan_insn table[NIDS];
    static result sampled[EDAN_TIMING_MAX_LATENCIES], exact[EDAN_TIMING_MAX_LATENCIES];
    int bad = 0, lanes = 0;
    for (int trial = 0; trial < trials; trial++) {
        rt_seed(5150 + (uint64_t)trial);
        const size_t n = 1 + rt_below(NRECS);
        edan_machine m = small_machine();
        small_issue_intervals(&m); /* dividers partly pipelined, now and then */
        random_stream(table, recs, n);
        const int nl = 1 + (int)rt_below(12);
        double lat[EDAN_TIMING_MAX_LATENCIES];
        for (int k = 0; k < nl; k++)
            lat[k] = (double)rt_below(600);
        /* period = unit; or periods shorter than 2 (unit + warm-up), doubling: measured whole either way */
        const uint64_t u = 1 + rt_below(300);
        edan_timing_sampling smp = {u, rt_below(500), u, rt_below(4), 0};
        if (trial % 2)
            smp = (edan_timing_sampling){u, u + rt_below(100), 2 * u, 1 + rt_below(5), 0};
        const size_t batch = 1 + rt_below(700);
        if (run(&m, recs, n, lat, nl, batch, 1, exact) ||
            run_sampled(&m, recs, n, lat, nl, 1 + rt_below(700), 1 + trial % 4, &smp, sampled))
            return;
        for (int k = 0; k < nl; k++, lanes++)
            if (!same(&sampled[k], &exact[k]) && bad++ < 4)
                fprintf(stderr, "trial %d lane %d: sampled whole %g cycles (stall %g), unsampled %g (stall %g)\n",
                        trial, k, sampled[k].cycles, sampled[k].stall, exact[k].cycles, exact[k].stall);
    }
    CHECK(bad == 0, "%d of %d lanes sampled whole differ from the unsampled model", bad, lanes);
}

/* Random records: the stream of random_stream() repeated with fresh addresses, LONG_RECS long. */
static void long_stream(edan_insn *table, edan_exec *recs)
{
    random_stream(table, recs, NRECS);
    for (size_t i = NRECS; i < LONG_RECS; i++) {
        recs[i] = recs[i % NRECS];
        if (recs[i].addr)
            recs[i].addr += 8 * rt_below(256);
    }
}

static void test_sampled_stream(int trials)
{
    static edan_exec recs[LONG_RECS];
    static edan_insn table[NIDS];
    static result many[EDAN_TIMING_MAX_LATENCIES], one, exact;
    int bad = 0, lanes = 0, skipped = 0;
    for (int trial = 0; trial < trials; trial++) {
        rt_seed(8080 + (uint64_t)trial);
        edan_machine m = small_machine();
        long_stream(table, recs);
        const size_t n = LONG_RECS / 2 + rt_below(LONG_RECS / 2);
        const int nl = 1 + (int)rt_below(8);
        double lat[EDAN_TIMING_MAX_LATENCIES];
        for (int k = 0; k < nl; k++)
            lat[k] = (double)rt_below(600);
        const uint64_t u = 20 + rt_below(200), w = rt_below(400);
        const edan_timing_sampling smp = {u, w, 2 * (u + w) + rt_below(4000), rt_below(6), 0};
        edan_timing *t = timing_run_sampled(&m, recs, n, lat, nl, 1 + rt_below(700), 1 + trial % 3, &smp);
        if (!t)
            return;
        edan_timing_sample_info si;
        edan_timing_sample_info_get(t, &si);
        const edan_timing_counts c = *edan_timing_counts_get(t);
        /* units: each at most a unit long but the first periods' (measured whole while shorter than u + w) */
        CHECK(si.sampled && si.units > 0 && si.measured <= si.detailed && si.detailed <= n &&
                  si.detailed - si.measured <= (si.units + 1) * w && si.measured >= (smp.regime ? smp.regime : 1) * u,
              "trial %d: %" PRIu64 " units, %" PRIu64 " measured, %" PRIu64 " scheduled of %zu (unit %" PRIu64
              ", warm-up %" PRIu64 ")",
              trial, si.units, si.measured, si.detailed, n, u, w);
        skipped += si.detailed < n;
        for (int k = 0; k < nl; k++) {
            double sum = 0;
            for (uint32_t id = 0; id < NIDS; id++)
                sum += edan_timing_id_cycles(t, id, k);
            const edan_timing_lane l = edan_timing_lane_get(t, k);
            CHECK(close_to(sum, l.cycles) && l.cycles > 0 && isfinite(si.cycles_half[k]),
                  "trial %d lane %d: attribution %.17g, estimate %.17g +- %g", trial, k, sum, l.cycles,
                  si.cycles_half[k]);
        }
        edan_timing_free(t);
        if (run_sampled(&m, recs, n, lat, nl, 1 + rt_below(700), 1, &smp, many) ||
            run(&m, recs, n, lat, 1, 1 + rt_below(700), 1, &exact))
            return;
        /* the caches and the predictor see every record: the counts are the unsampled model's */
        CHECK(memcmp(&c, &exact.counts, sizeof c) == 0 && memcmp(&many[0].counts, &c, sizeof c) == 0,
              "trial %d: sampled counts differ from the unsampled model's", trial);
        /* the lanes stay independent: one pass with many latencies, sampled, equals a pass per latency */
        for (int k = 0; k < nl; k++, lanes++) {
            if (run_sampled(&m, recs, n, &lat[k], 1, 1 + rt_below(700), 1, &smp, &one))
                return;
            if (!same(&many[k], &one) && bad++ < 4)
                fprintf(stderr, "trial %d lane %d: sampled %g cycles in one pass, %g alone\n", trial, k, many[k].cycles,
                        one.cycles);
        }
    }
    CHECK(bad == 0, "%d of %d sampled lanes differ from the same latency alone", bad, lanes);
    CHECK(skipped > trials / 2, "only %d of %d trials skipped records", skipped, trials);
}

/*
 * The store-set tests' loop: a division (20 cycles) feeds a 2-byte store
 * (pc 0x1004), and a load (0x1006, the store's 4-byte word: the same SSIT
 * entry) feeds the next division; 16-byte store-set blocks.
 */
static edan_machine ss_loop(edan_insn *div, edan_insn *st, edan_insn *ld)
{
    *div = add(EDAN_REG_X(10), EDAN_REG_X(11), 0x1000);
    div->cls = EDAN_CLASS_DIV;
    *st = store(EDAN_REG_X(10), EDAN_REG_X(2), 0x1004, 2);
    *ld = load(EDAN_REG_X(11), EDAN_REG_X(3), 0x1006);
    ld->size = 2;
    edan_machine m = base_machine();
    m.latency[EDAN_CLASS_DIV] = 20;
    m.store_set_bytes = 16;
    return m;
}

/* The cycles of r[0 .. n) at latency 0 with --exact and sampled by smp: false when either run failed. */
static bool ss_both(const edan_machine *m, const edan_exec *r, size_t n, const edan_timing_sampling *smp, double *exact,
                    double *sampled)
{
    const double lat = 0;
    edan_timing *e = timing_run(m, r, n, &lat, 1, 4096, 1);
    edan_timing *t = e ? timing_run_sampled(m, r, n, &lat, 1, 4096, 1, smp) : NULL;
    if (t) {
        *exact = edan_timing_lane_get(e, 0).cycles;
        *sampled = edan_timing_lane_get(t, 0).cycles;
    }
    edan_timing_free(t);
    edan_timing_free(e);
    return t != NULL;
}

/*
 * The store sets are forgotten every SS_CLEAR_PERIOD (250,000) loads and
 * stores of the region, sampled or not: the skipped ones count too.
 * Per iteration a division feeds a 2-byte store (pc 0x1004) and a load
 * from an unrelated address (0x1006, the store's 4-byte word: the same
 * SSIT entry) feeds the next division; a trainer load next to the store in
 * iteration 0 puts the store in a set (timing_test.c's
 * test_store_set_index()). While the set lives, the loop is one chain of
 * divisions, 22 cycles an iteration; once the tables are forgotten (after
 * 125,000 iterations) nothing trains them again and the divisions overlap.
 * Sampled with 3 instructions in 16 scheduled, a count of the scheduled
 * loads and stores alone would keep the set for the whole stream (+60 %).
 */
static void test_store_sets_cleared(void)
{
    enum { N = 200000, ITER = 22 };
    static edan_exec r[3 * N + 1];
    static edan_insn div, st, ld, trainer;
    edan_machine m = ss_loop(&div, &st, &ld);
    trainer = load(EDAN_REG_X(12), EDAN_REG_X(2), 0x2000);
    size_t n = 0;
    for (uint64_t i = 0; i < N; i++) {
        r[n++] = rec(&div, 0);
        r[n++] = rec(&st, 0x8000 + 16 * i);
        r[n++] = rec(&ld, 0x4000000 + 8 * i);
        if (i == 0)
            r[n++] = rec(&trainer, 0x8000 + 8);
    }
    const edan_timing_sampling smp = {1000, 2000, 16000, 0, 0};
    double exact, sampled;
    if (ss_both(&m, r, n, &smp, &exact, &sampled)) {
        /* the set lives 125,000 iterations of the 200,000, not all of them */
        CHECK(exact > 0.9 * ITER * N / 1.6 && exact < 0.8 * ITER * N, "exact: %g cycles", exact);
        CHECK(fabs(sampled - exact) <= 0.05 * exact, "sampled %g cycles, exact %g: the store sets lived %s", sampled,
              exact, sampled > exact ? "longer" : "shorter");
    }
}

/*
 * A store scheduled before a skip is as far from the loads after it as in
 * --exact: the window is counted in the region's records, not in the
 * scheduled vertices. Per iteration i a division feeds a 2-byte store
 * (pc 0x1004) to block i mod 100 (16-byte blocks), and a load (0x1006, the
 * store's SSIT entry) from the other half of block (i - 50) mod 100 feeds
 * the next division. The last store to the load's block is 50 iterations
 * (150 records) back, beyond the window of a 64-entry ROB (128 records):
 * no load is ever checked against a store, nothing trains, and the
 * divisions overlap, about a cycle an iteration. Sampled, a skip brings
 * the stores of the iterations before it within 128 scheduled vertices of
 * the loads after it; counted in vertices, a load of one's block
 * (iterations 50 apart modulo 100, one skip in five) would issue before the
 * store, still waiting for its division, "violate", and put the load into
 * the store's set: from then on the loop is a chain of divisions, 22
 * cycles an iteration (+1000 %).
 */
static void test_store_sets_skip(void)
{
    enum { N = 100000, M = 100, D = 50 };
    static edan_exec r[3 * N];
    static edan_insn div, st, ld;
    edan_machine m = ss_loop(&div, &st, &ld);
    size_t n = 0;
    for (uint64_t i = 0; i < N; i++) {
        r[n++] = rec(&div, 0);
        r[n++] = rec(&st, 0x8000 + 16 * (i % M));
        r[n++] = rec(&ld, 0x8000 + 16 * ((i + M - D) % M) + 8);
    }
    m.rob_entries = m.lq_entries = m.sq_entries = m.iq_entries = 64;
    const edan_timing_sampling smp = {1000, 1000, 8000, 0, 0};
    double exact, sampled;
    if (ss_both(&m, r, n, &smp, &exact, &sampled)) {
        CHECK(exact < 3.0 * N, "exact: %g cycles, a chain?", exact);
        CHECK(fabs(sampled - exact) <= 0.05 * exact, "sampled %g cycles, exact %g", sampled, exact);
    }
}

/*
 * After a clearing the store sets are trained again where a pair that has
 * violated meets in a skip, as --exact trains them at the pair's next
 * violation (store_sets_skip()'s functional rule). Per iteration a
 * division feeds a 2-byte store (pc 0x1004) and a load (0x1006, the same
 * SSIT entry) feeds the next division, with three loads of a small array
 * that hits (the loads and stores of the clearing's count: 5 an
 * iteration, a clearing every 50,000 iterations). The load reads an
 * unrelated address, but every R-th iteration the store's own bytes: it
 * issues before the store, still waiting for its division, and violates.
 * Trained, the loop is a chain of divisions, 22 cycles an iteration;
 * untrained they overlap. With --exact the sets are untrained for at most
 * R iterations after each clearing; sampled, a clearing in a skip left
 * them untrained until a unit (1000 of every 16,000 records, after a
 * warm-up of 2000) held a meeting, one in R / 500 units: its time 10-20 %
 * low.
 */
static void test_store_sets_retrained(void)
{
    enum { N = 120000, R = 2500, PER = 6 };
    static edan_exec r[PER * N];
    static edan_insn div, st, ld, other[3];
    edan_machine m = ss_loop(&div, &st, &ld);
    for (int j = 0; j < 3; j++)
        other[j] = load(EDAN_REG_X(12 + j), EDAN_REG_X(4), 0x1008 + 4 * (uint64_t)j);
    size_t n = 0;
    for (uint64_t i = 0; i < N; i++) {
        r[n++] = rec(&div, 0);
        r[n++] = rec(&st, 0x8000 + 16 * (i % 1024));
        r[n++] = rec(&ld, i % R ? 0x4000000 + 8 * (i % 4096) : 0x8000 + 16 * (i % 1024));
        for (int j = 0; j < 3; j++)
            r[n++] = rec(&other[j], 0x100000 + 8 * (uint64_t)j);
    }
    const edan_timing_sampling smp = {1000, 2000, 16000, 0, 0};
    double exact, sampled;
    if (ss_both(&m, r, n, &smp, &exact, &sampled)) {
        CHECK(exact > 0.9 * 22 * N, "exact: %g cycles, not a chain of divisions", exact);
        CHECK(fabs(sampled - exact) <= 0.03 * exact, "sampled %g cycles, exact %g", sampled, exact);
    }
}

/*
 * The epochs of the lines from memory (ram_epochs), against their
 * definition: random gaps of additions between loads of fresh lines
 * (each from memory); a line starts an epoch when it is more than
 * rob_entries records after the current epoch's first line, or that epoch
 * holds the L1d's mshrs lines already. Dense misses (one record in 4)
 * with few MSHRs make epochs of mshrs lines: a window-long run of misses
 * counted as one epoch (a line within a window of the last) priced a
 * streaming burst as one latency, so the regression's coefficient on the
 * lines had to carry the bursts (trmm's slope 11 % high, 2mm's 9 % low).
 */
static void test_ram_epochs(void)
{
    enum { N = 6000 };
    static edan_exec r[N];
    static edan_insn ld, op;
    load_and_add(&ld, &op);
    int full = 0;
    for (int trial = 0; trial < 20; trial++) {
        rt_seed(4242 + (uint64_t)trial);
        edan_machine m = base_machine();
        m.rob_entries = 16 + (uint32_t)rt_below(200);
        if (trial % 4 < 2)
            m.data[0].mshrs = 1 + (uint32_t)rt_below(24);
        uint64_t want = 0, loads = 0, lines = 0;
        long first = -1;
        for (size_t i = 0; i < N; i++) {
            const bool miss = rt_below(trial % 2 ? 4 : 100) == 0;
            r[i] = miss ? rec(&ld, fresh(loads++)) : rec(&op, 0);
            if (!miss)
                continue;
            if (first < 0 || (long)i - first > (long)m.rob_entries || lines >= m.data[0].mshrs) {
                want++;
                full += first >= 0 && (long)i - first <= (long)m.rob_entries;
                first = (long)i;
                lines = 0;
            }
            lines++;
        }
        const double lat = 100;
        edan_timing *t = timing_run(&m, r, N, &lat, 1, 1 + rt_below(900), 1);
        if (!t)
            return;
        const edan_timing_counts *c = edan_timing_counts_get(t);
        CHECK(c->ram_epochs == want && c->ram_lines >= loads,
              "trial %d (rob %u, mshrs %u): %" PRIu64 " epochs, %" PRIu64 " expected", trial, m.rob_entries,
              m.data[0].mshrs, c->ram_epochs, want);
        edan_timing_free(t);
    }
    CHECK(full > 100, "only %d epochs were ended by the MSHRs", full);
}

/* tests/timing_sample_slope.c: the slope where misses come in bursts and in a phase; its checks' counts */
void timing_sample_slope_tests(unsigned long *passed, unsigned long *failed, int streams);
void timing_sample_prefetch_tests(unsigned long *passed, unsigned long *failed, int streams);
void timing_sample_warm_tests(unsigned long *passed, unsigned long *failed);

static void test_bad_parameters(void)
{
    edan_machine m = small_machine();
    const double lat = 100;
    edan_error err = {0};
    edan_timing *t = edan_timing_new(&m, &lat, 1, &err);
    CHECK(t != NULL, "timing_new: %s", err.msg);
    if (!t)
        return;
    const edan_timing_sampling bad[] = {{0, 0, 10, 0, 0}, {100, 0, 99, 0, 0}, {1, 0, (1ull << 40) + 1, 0, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(&err, 0, sizeof err);
        CHECK(edan_timing_set_sampling(t, &bad[i], &err) == -1 && strstr(err.msg, "sampling"),
              "parameters %zu refused: %s", i, err.msg);
    }
    edan_timing_free(t);
}

/*
 * timing_sample_test [TRIALS [multi-lane]]: TRIALS random long streams sampled (24 by default), 5/3 as many
 * whole-period ones, a quarter as many of the slope's bursts and phases (6 each) and a sixth as many of the
 * prefetchers' stride streams (4); the sanitizer build gives fewer (tests/tests.cmake). With multi-lane only the
 * parts that run the model with more than one latency: EDAN_NO_AVX2 chooses the build of the step for those alone
 * (edan_timing_width()), so that timing_sampled_one_at_a_time need not repeat the others, the estimator's and
 * the single-latency ones, which compute exactly what timing_sampled's run of them does.
 */
int main(int argc, char **argv)
{
    const int trials = argc > 1 ? atoi(argv[1]) : 24;
    const bool all = argc <= 2;
    if (trials < 2 || argc > 3 || (!all && strcmp(argv[2], "multi-lane"))) {
        fprintf(stderr, "usage: timing_sample_test [TRIALS >= 2 [multi-lane]]\n");
        return 2;
    }
    if (all) {
        test_estimator();
        test_estimator_aux();
        test_coverage();
    }
    test_whole_periods(trials * 40 / 24);
    test_sampled_stream(trials);
    if (all) {
        test_store_sets_cleared();
        test_store_sets_skip();
        test_store_sets_retrained();
        test_ram_epochs();
    }
    timing_sample_slope_tests(&check_passed, &check_failed, (trials + 3) / 4);
    timing_sample_prefetch_tests(&check_passed, &check_failed, (trials + 5) / 6);
    if (all) {
        timing_sample_warm_tests(&check_passed, &check_failed);
        test_bad_parameters();
    }
    return check_summary();
}
