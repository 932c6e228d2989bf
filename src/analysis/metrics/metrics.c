#include "analysis/metrics/metrics.h"

#include <string.h>

void edan_metrics_params_default(edan_metrics_params *p)
{
    memset(p, 0, sizeof *p);
    p->n_m = 1;
    p->m[0] = 4;
    p->alpha0 = 1;
    p->clock_ghz = 1;
}

void edan_metrics_compute(const edan_lane_stats *st, uint64_t alpha, const edan_metrics_params *p, edan_metrics *out)
{
    memset(out, 0, sizeof *out);
    double W = (double)st->W, D = (double)st->D, a = (double)alpha;
    out->C = p->C_given ? p->C : (double)st->C;
    out->parallelism = st->Tinf ? (double)st->T1 / (double)st->Tinf : 0;
    out->bw_bytes_per_cycle = st->Tinf ? (double)st->bytes / (double)st->Tinf : 0;
    out->bw_gbs = out->bw_bytes_per_cycle * p->clock_ghz;
    out->mem_parallelism = st->D ? W / D : 0;
    out->n_m = p->n_m;
    for (int i = 0; i < p->n_m; i++) {
        edan_m_metrics *r = &out->per_m[i];
        uint64_t m = p->m[i];
        r->m = m;
        double wm = W / (double)m;
        r->mem_lower = (D > wm ? D : wm) * a;
        r->lambda = st->W ? (W - D) / (double)m + D : 0;
        r->mem_upper = r->lambda * a;
        const uint64_t layered = edan_layers_ceil_sum(&st->layers, st->D, m);
        r->mem_layered = (double)layered * a;
        r->lambda_layered = (double)layered;
        r->run_lower = r->mem_lower + out->C;
        r->run_upper = r->mem_upper + out->C;
        r->run_layered = r->mem_layered + out->C;
        double denom = r->lambda * p->alpha0 + out->C;
        r->Lambda = denom > 0 ? r->lambda / denom : 0;
    }
}
