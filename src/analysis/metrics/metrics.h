/*
 * metrics.h - the EDAN cost model applied to the streamed counts: memory-cost
 * and runtime bounds (Eq. 1-2), lambda (Eq. 3), Lambda (Eq. 4) and average
 * bandwidth (Eq. 5). Everything here is arithmetic on an edan_lane_stats, so
 * any number of m or alpha0 values costs no second pass.
 */
#ifndef EDAN_ANALYSIS_METRICS_H
#define EDAN_ANALYSIS_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/edag/edag.h"

#define EDAN_MAX_M 16

typedef struct edan_metrics_params {
    int n_m;
    uint64_t m[EDAN_MAX_M]; /* memory issue slots; default {4} */
    double alpha0;          /* baseline latency for Lambda; default 1 */
    bool C_given;           /* use C below instead of the total cost of non-memory-access vertices */
    double C;
    double clock_ghz; /* for bandwidth in GB/s; default 1 */
} edan_metrics_params;

void edan_metrics_params_default(edan_metrics_params *p);

typedef struct edan_m_metrics {
    uint64_t m;
    double mem_lower;                         /* max(D, W/m) * alpha */
    double mem_upper;                         /* ((W - D)/m + D) * alpha */
    double mem_layered;                       /* sum over layers of ceil(W_i / m) * alpha: never above mem_upper */
    double run_lower, run_upper, run_layered; /* the above + C */
    double lambda;                            /* (W - D)/m + D, Eq. 3 */
    double lambda_layered;                    /* sum over layers of ceil(W_i / m): the slope of the layered bound */
    double Lambda;                            /* lambda / (lambda * alpha0 + C) */
} edan_m_metrics;

typedef struct edan_metrics {
    double C;
    double parallelism;        /* T1 / Tinf */
    double bw_bytes_per_cycle; /* sum w / Tinf */
    double bw_gbs;             /* at clock_ghz */
    double mem_parallelism;    /* W / D: average memory-access vertices per layer */
    int n_m;
    edan_m_metrics per_m[EDAN_MAX_M];
} edan_metrics;

void edan_metrics_compute(const edan_lane_stats *st, uint64_t alpha, const edan_metrics_params *p, edan_metrics *out);

#endif
