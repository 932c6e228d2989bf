/*
 * timing_estimate.c - the sampled timing model's estimator (timing.h,
 * edan_timing_estimate()): a lane's cycles from its measured units, Cochran's
 * combined regression estimator over the counts functional warming knows
 * exactly, and its 95 % confidence interval. Runs after the stream.
 */
#include <math.h>
#include <string.h>

#include "analysis/timing/timing_internal.h"

/* ===================================================================== */
/* The estimator                                                          */
/* ===================================================================== */

/* Student's t at 97.5 % (a two-sided 95 % interval) for df degrees of freedom. */
static double t975(double df)
{
    static const double tab[31] = {12.706, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                   2.201,  2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
                                   2.074,  2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df <= 30)
        return tab[df < 1 ? 1 : (int)df];
    return 1.96 + 2.5 / df; /* within 0.002 of the quantile beyond 30 */
}

/* The end of the group of units that starts at a: its stratum, with the one-unit strata after it. */
static size_t group_end(size_t n, const uint32_t *stratum, size_t a)
{
    size_t b = a + 1;
    while (b < n && stratum[b] == stratum[a])
        b++;
    while (b < n) {
        size_t c = b + 1;
        while (c < n && stratum[c] == stratum[b])
            c++;
        if (c - b > 1)
            break;
        b = c;
    }
    return b;
}

#define NAUX EDAN_TIMING_AUX

/* The weighted means of a group's rates [a, e): mr of y / x, mq of each count's a / x; returns the weights' sum. */
static double group_means(size_t a, size_t e, const uint64_t *x, const uint64_t *w, const uint64_t *au, const double *y,
                          size_t stride, double *mr, double *mq)
{
    double sw = 0;
    *mr = 0;
    for (int j = 0; j < NAUX; j++)
        mq[j] = 0;
    for (size_t i = a; i < e; i++) {
        sw += (double)w[i];
        *mr += (double)w[i] * (y[i * stride] / (double)x[i]);
        for (int j = 0; j < NAUX; j++)
            mq[j] += (double)w[i] * ((double)au[i * NAUX + j] / (double)x[i]);
    }
    *mr /= sw;
    for (int j = 0; j < NAUX; j++)
        mq[j] /= sw;
    return sw;
}

/*
 * The coefficients b of the regression estimator (timing.h): weighted least
 * squares of the units' rates y / x on their counts' rates a / x, each
 * group of two units or more centred on its own weighted means. The groups
 * measured whole (the exact start's periods) are fitted too: they correct
 * nothing (what they stand for is what they measured), but their hundreds
 * of periods, every miss of them measured, price a count better than the
 * few sampled units that hold misses (a burst in one or two units set the
 * lines' price: 2mm's slope 17 % off in one draw of 12; with them 4 %),
 * and a count no sampled unit saw still gets one. Solved by elimination;
 * a count whose centred values are (nearly) all 0, or a combination of the
 * others, gets b = 0. Returns how many were fitted.
 *
 * cov and tau: what the fit leaves unknown of the counts it prices. The
 * estimate prices what its units missed, b times those counts
 * (edan_timing_estimate()); where no sampled unit holds a miss, the units'
 * spread around the fit is 0, and was the whole interval, though those
 * misses' cost is the fit's guess: the interval has to say how far that
 * guess may be off. As for a regression's prediction of new observations,
 * the guess is off by two parts: b's own error, whose
 * covariance is the sandwich (heteroscedasticity-consistent, White's HC0)
 * estimate S^-1 (sum w^2 e^2 q q') S^-1 from the fit's residuals e, its
 * centred counts q and S = sum w q q' (0 for a count not fitted), to be
 * taken times the counts missed on both sides; and the missed misses' own
 * spread around the fit: a unit's residual in cycles, x e, with a variance
 * taken as proportional to the lines it read from memory (a burst's cost
 * varies with its size), tau per line, the sum of (x e)^2 over the sum of
 * the lines of the fitted units that read any.
 */
static int fit_aux(size_t n, const uint64_t *x, const uint64_t *w, const uint32_t *stratum, const uint64_t *au,
                   const double *y, size_t stride, double *b, double cov[NAUX][NAUX], double *tau)
{
    double ee = 0, lines = 0; /* tau's sums */
    /* [S | sum w q r | I]: eliminated to [diag | diag b | diag S^-1] over the fitted counts */
    double S[NAUX][2 * NAUX + 1];
    memset(S, 0, sizeof S);
    for (int j = 0; j < NAUX; j++)
        S[j][NAUX + 1 + j] = 1;
    for (size_t a = 0; a < n;) {
        const size_t e = group_end(n, stratum, a);
        if (e - a > 1) { /* sampled or measured whole: its units tell the slope */
            double mr, mq[NAUX];
            group_means(a, e, x, w, au, y, stride, &mr, mq);
            for (size_t i = a; i < e; i++) {
                double q[NAUX];
                for (int j = 0; j < NAUX; j++)
                    q[j] = (double)au[i * NAUX + j] / (double)x[i] - mq[j];
                const double r = y[i * stride] / (double)x[i] - mr;
                for (int j = 0; j < NAUX; j++) {
                    for (int l = 0; l < NAUX; l++)
                        S[j][l] += (double)w[i] * q[j] * q[l];
                    S[j][NAUX] += (double)w[i] * q[j] * r;
                }
            }
        }
        a = e;
    }
    double diag[NAUX];
    bool used[NAUX];
    int fitted = 0;
    for (int j = 0; j < NAUX; j++)
        diag[j] = S[j][j];
    for (int j = 0; j < NAUX; j++) { /* Gauss-Jordan, a column at a time; what is left of a column's own spread */
        used[j] = diag[j] > 0 && S[j][j] > 1e-9 * diag[j];
        if (!used[j])
            continue;
        fitted++;
        for (int r = 0; r < NAUX; r++) {
            if (r == j)
                continue;
            const double f = S[r][j] / S[j][j];
            for (int c = j; c <= 2 * NAUX; c++)
                S[r][c] -= f * S[j][c];
        }
    }
    double inv[NAUX][NAUX];
    for (int j = 0; j < NAUX; j++) {
        b[j] = used[j] ? S[j][NAUX] / S[j][j] : 0;
        for (int l = 0; l < NAUX; l++)
            inv[j][l] = used[j] && used[l] ? S[j][NAUX + 1 + l] / S[j][j] : 0;
    }
    /* the residuals' meat, sum (w e)^2 q q', then S^-1 meat S^-1 */
    double meat[NAUX][NAUX];
    memset(meat, 0, sizeof meat);
    for (size_t a = 0; fitted && a < n;) {
        const size_t e = group_end(n, stratum, a);
        if (e - a > 1) {
            double mr, mq[NAUX];
            group_means(a, e, x, w, au, y, stride, &mr, mq);
            for (size_t i = a; i < e; i++) {
                double q[NAUX], r = y[i * stride] / (double)x[i] - mr;
                for (int j = 0; j < NAUX; j++) {
                    q[j] = (double)au[i * NAUX + j] / (double)x[i] - mq[j];
                    r -= b[j] * q[j];
                }
                const double we = (double)w[i] * r;
                for (int j = 0; j < NAUX; j++)
                    for (int l = 0; l < NAUX; l++)
                        meat[j][l] += we * we * q[j] * q[l];
                if (au[i * NAUX + 1]) { /* a unit's own residual in cycles, and the lines it read */
                    ee += ((double)x[i] * r) * ((double)x[i] * r);
                    lines += (double)au[i * NAUX + 1];
                }
            }
        }
        a = e;
    }
    for (int j = 0; j < NAUX; j++)
        for (int l = 0; l < NAUX; l++) {
            double c = 0;
            for (int u = 0; u < NAUX; u++)
                for (int v = 0; v < NAUX; v++)
                    c += inv[j][u] * meat[u][v] * inv[v][l];
            cov[j][l] = c;
        }
    *tau = lines > 0 ? ee / lines : 0;
    return fitted;
}

double edan_timing_estimate_b(size_t n, const uint64_t *measured, const uint64_t *stands, const uint32_t *stratum,
                              const uint64_t *aux_unit, const uint64_t *aux_stands, const double *y, size_t stride,
                              double *half, double *b)
{
    double cov[NAUX][NAUX] = {{0}}, missed_counts[NAUX] = {0}, tau = 0;
    for (int j = 0; j < NAUX; j++)
        b[j] = 0;
    const int fitted = aux_unit ? fit_aux(n, measured, stands, stratum, aux_unit, y, stride, b, cov, &tau) : 0;
    double est = 0, var = 0, df = 0;
    bool unknown = false;
    for (size_t a = 0; a < n;) {
        const size_t e = group_end(n, stratum, a);
        double sw = 0, sx = 0, swr = 0;
        for (size_t i = a; i < e; i++) {
            const uint64_t w = stands[i];
            const double yi = y[i * stride];
            sw += (double)w;
            sx += (double)measured[i];
            /* a unit that stands for itself adds its own value, exactly */
            swr += w == measured[i] ? yi : (double)w * (yi / (double)measured[i]);
            for (int j = 0; fitted && j < NAUX; j++) /* the counts the sample's weighting missed */
                missed_counts[j] +=
                    (double)aux_stands[i * NAUX + j] -
                    (w == measured[i] ? (double)aux_unit[i * NAUX + j]
                                      : (double)w * ((double)aux_unit[i * NAUX + j] / (double)measured[i]));
        }
        est += swr;
        const double m = (double)(e - a), f = sw > 0 ? sx / sw : 1;
        if (f < 1) {
            if (e - a < 2) {
                unknown = true;
            } else {
                /* each unit's rate less the fit's part of it, around the stratum's mean of that */
                double mean = 0;
                for (size_t i = a; i < e; i++)
                    mean += (double)stands[i] * (y[i * stride] / (double)measured[i]);
                for (int j = 0; fitted && j < NAUX; j++)
                    for (size_t i = a; i < e; i++)
                        mean -= (double)stands[i] * b[j] * ((double)aux_unit[i * NAUX + j] / (double)measured[i]);
                mean /= sw;
                double ss = 0;
                for (size_t i = a; i < e; i++) {
                    double r = y[i * stride] / (double)measured[i];
                    for (int j = 0; fitted && j < NAUX; j++)
                        r -= b[j] * ((double)aux_unit[i * NAUX + j] / (double)measured[i]);
                    const double d = (double)stands[i] * (r - mean);
                    ss += d * d;
                }
                var += (1 - f) * m / (m - 1) * ss;
                df += m - 1;
            }
        }
        a = e;
    }
    /*
     * b times the counts missed; its own error on them, and the spread of the lines missed around it (fit_aux()):
     * lines the units stand for more of than ran are no misses of their own
     */
    for (int j = 0; fitted && j < NAUX; j++) {
        est += b[j] * missed_counts[j];
        for (int l = 0; l < NAUX; l++)
            var += missed_counts[j] * cov[j][l] * missed_counts[l];
    }
    if (fitted && missed_counts[1] > 0)
        var += tau * missed_counts[1];
    df -= fitted;
    *half = unknown ? INFINITY : var > 0 ? t975(df < 1 ? 1 : df) * sqrt(var) : 0;
    return est;
}

double edan_timing_estimate(size_t n, const uint64_t *measured, const uint64_t *stands, const uint32_t *stratum,
                            const uint64_t *aux_unit, const uint64_t *aux_stands, const double *y, size_t stride,
                            double *half)
{
    double b[NAUX];
    return edan_timing_estimate_b(n, measured, stands, stratum, aux_unit, aux_stands, y, stride, half, b);
}
