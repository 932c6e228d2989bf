/*
 * The paper's own examples as golden tests, read through the text-format
 * reader: Figure 6 (false dependencies), Figure 8 (lambda), and the
 * summation kernel of Figures 4, 5 and 7 (W = 4, D = 1).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/metrics.h"
#include "check.h"
#include "edag_reference.h"
#include "trace/trace_file.h"

static const char *dir;

typedef struct run {
    edan_edag *e;
    edan_exec recs[256];
    size_t n;
} run;

/* Analyse a golden text trace with unit costs (alpha given), no cache. */
static int analyze(const char *name, uint64_t alpha, bool false_deps, run *r)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    edan_error err = {0};
    edan_trace_source *src = edan_trace_source_open(path, &err);
    CHECK(src != NULL, "open %s: %s", path, err.msg);
    if (!src)
        return -1;
    long n = edan_trace_source_next(src, r->recs, 256, &err);
    CHECK(n > 0, "read %s: %s", path, err.msg);
    r->n = n > 0 ? (size_t)n : 0;
    edan_edag_config cfg;
    edan_edag_config_default(&cfg);
    edan_cost_default(&cfg.lane[0].cost);
    cfg.lane[0].cost.alpha = alpha;
    cfg.false_deps = false_deps;
    cfg.tau[0] = 1;
    r->e = edan_edag_new(&cfg, &err);
    edan_edag_consume(r->e, r->recs, r->n);
    CHECK(edan_edag_finish(r->e) == 0, "finish");
    /* the reference must agree on these too */
    static ref_result ref;
    CHECK(ref_analyze(r->recs, r->n, &cfg.lane[0], false_deps, EDAN_BYTES_ACCESS, 1, &ref) == 0, "ref");
    const edan_lane_stats *st = edan_edag_lane(r->e, 0);
    CHECK_EQ_U64(st->Tinf, ref.Tinf, name);
    CHECK_EQ_U64(st->D, ref.D, name);
    ref_free(&ref);
    /* keep the source open: records point into its code table */
    edan_trace_source_close(src);
    return 0;
}

int main(int argc, char **argv)
{
    dir = argc > 1 ? argv[1] : "tests/golden";
    run r;

    /* Figure 6: T1 = 10; Tinf = 5 with true dependencies, 6 with false ones kept. */
    if (!analyze("figure6.txt", 1, false, &r)) {
        const edan_lane_stats *st = edan_edag_lane(r.e, 0);
        CHECK_EQ_U64(st->T1, 10, "figure 6, true deps");
        CHECK_EQ_U64(st->Tinf, 5, "figure 6, true deps");
        edan_edag_free(r.e);
    }
    if (!analyze("figure6.txt", 1, true, &r)) {
        const edan_lane_stats *st = edan_edag_lane(r.e, 0);
        CHECK_EQ_U64(st->T1, 10, "figure 6, false deps kept");
        CHECK_EQ_U64(st->Tinf, 6, "figure 6, false deps kept");
        edan_edag_free(r.e);
    }

    /* Figure 8 with m = 3: G1 (chain) lambda 3; G2 (independent) layered lambda 1. */
    edan_metrics_params p;
    edan_metrics_params_default(&p);
    p.n_m = 1;
    p.m[0] = 3;
    edan_metrics mt;
    if (!analyze("figure8a.txt", 200, false, &r)) {
        const edan_lane_stats *st = edan_edag_lane(r.e, 0);
        edan_metrics_compute(st, 200, &p, &mt);
        CHECK_EQ_U64(st->W, 3, "figure 8a");
        CHECK_EQ_U64(st->D, 3, "figure 8a");
        CHECK(fabs(mt.per_m[0].lambda - 3) < 1e-12, "figure 8a: lambda = %g, expected 3", mt.per_m[0].lambda);
        CHECK(fabs(mt.per_m[0].lambda_layered - 3) < 1e-12, "figure 8a: layered lambda = %g, expected 3",
              mt.per_m[0].lambda_layered);
        edan_edag_free(r.e);
    }
    if (!analyze("figure8b.txt", 200, false, &r)) {
        const edan_lane_stats *st = edan_edag_lane(r.e, 0);
        edan_metrics_compute(st, 200, &p, &mt);
        CHECK_EQ_U64(st->W, 3, "figure 8b");
        CHECK_EQ_U64(st->D, 1, "figure 8b");
        CHECK(fabs(mt.per_m[0].lambda_layered - 1) < 1e-12, "figure 8b: layered lambda = %g, expected 1",
              mt.per_m[0].lambda_layered);
        /* Eq. 3 itself gives (W - D)/m + D = 5/3 for this graph. */
        CHECK(fabs(mt.per_m[0].lambda - 5.0 / 3.0) < 1e-12, "figure 8b: lambda = %g, expected 5/3", mt.per_m[0].lambda);
        /* With m = 1 both graphs cost 3 per unit of alpha. */
        p.m[0] = 1;
        edan_metrics_compute(st, 200, &p, &mt);
        CHECK(fabs(mt.per_m[0].lambda - 3) < 1e-12, "figure 8b, m=1: lambda = %g", mt.per_m[0].lambda);
        p.m[0] = 3;
        edan_edag_free(r.e);
    }

    /* Summation kernel, n = 4, in the original tracer's layout: W = 4, D = 1. */
    if (!analyze("summation.txt", 200, false, &r)) {
        const edan_lane_stats *st = edan_edag_lane(r.e, 0);
        CHECK_EQ_U64(st->vertices, 22, "summation");
        CHECK_EQ_U64(st->W, 4, "summation");
        CHECK_EQ_U64(st->D, 1, "summation");
        CHECK_EQ_U64(edan_layers_get(&st->layers, 1), 4, "summation");
        CHECK_EQ_U64(st->bytes, 16, "summation");
        edan_edag_free(r.e);
    }
    /* Layer storage: a layer of more than 65535 vertices, and more than 65536 layers. */
    {
        static edan_insn ld_indep, ld_chain;
        edan_insn_clear(&ld_indep);
        ld_indep.mem = EDAN_MEM_LOAD;
        ld_indep.mem_size = 8;
        ld_indep.cls = EDAN_CLASS_LOAD;
        ld_indep.n_src = 1;
        ld_indep.src[0] = EDAN_REG_X(10);
        ld_indep.n_dst = 1;
        ld_indep.dst = EDAN_REG_X(11);
        ld_chain = ld_indep;
        ld_chain.dst = EDAN_REG_X(10); /* ld a0,0(a0): a pointer chase */
        enum { WIDE = 200000, DEEP = 70000 };
        static edan_exec recs[WIDE + DEEP];
        for (size_t i = 0; i < WIDE; i++)
            recs[i] = (edan_exec){.insn = &ld_indep, .id = 0, .addr = 0x100000 + 8 * i};
        for (size_t i = 0; i < DEEP; i++)
            recs[WIDE + i] = (edan_exec){.insn = &ld_chain, .id = 1, .addr = 0x900000 + 8 * i};
        edan_edag_config cfg;
        edan_edag_config_default(&cfg);
        edan_error err = {0};
        edan_edag *e = edan_edag_new(&cfg, &err);
        edan_edag_consume(e, recs, WIDE + DEEP);
        CHECK(edan_edag_finish(e) == 0, "finish");
        const edan_lane_stats *st = edan_edag_lane(e, 0);
        CHECK_EQ_U64(st->W, WIDE + DEEP, "layers");
        CHECK_EQ_U64(st->D, DEEP, "layers");
        CHECK_EQ_U64(edan_layers_get(&st->layers, 1), WIDE + 1, "a layer past 65535");
        CHECK_EQ_U64(edan_layers_get(&st->layers, 65536), 1, "layer 65536");
        CHECK_EQ_U64(edan_layers_get(&st->layers, DEEP), 1, "the last layer");
        CHECK_EQ_U64(edan_layers_get(&st->layers, DEEP + 1), 0, "past the last layer");
        uint64_t sum = 0;
        for (uint64_t i = 1; i <= st->D; i++)
            sum += edan_layers_get(&st->layers, i);
        CHECK_EQ_U64(sum, st->W, "layers sum to W");
        static const uint64_t ms[] = {1, 2, 3, 4, 7, 65535, 65536, 65537, 200001, 1ull << 40, UINT64_MAX};
        for (size_t j = 0; j < sizeof ms / sizeof ms[0]; j++) {
            uint64_t naive = 0;
            for (uint64_t i = 1; i <= st->D; i++)
                naive += edan_layers_get(&st->layers, i) / ms[j] + (edan_layers_get(&st->layers, i) % ms[j] != 0);
            CHECK_EQ_U64(edan_layers_ceil_sum(&st->layers, st->D, ms[j]), naive, "sum of ceil(W_i / m)");
        }
        edan_edag_free(e);
    }
    /*
     * The sum of ceil(W_i / m) against division, layer by layer: counts of
     * every size up to past 65535 (some wrapping, some in the carry map),
     * empty layers and chunks, sums over part of the layers, and a count in
     * layer 0, which no sum includes.
     */
    {
        edan_layers l = {0};
        enum { LAYERS = 3 << EDAN_LAYER_CHUNK_BITS };
        static uint64_t count[LAYERS + 1];
        bool inc_ok = true;
        for (uint64_t i = 0; i <= LAYERS; i++) {
            if ((i >> EDAN_LAYER_CHUNK_BITS) == 1)
                continue; /* the second chunk stays empty */
            /* layer 0 is outside every sum */
            count[i] = i == 0 ? 5 : i % 97 == 0 ? 65536 + i % 3000 : i < 1000 ? i : (i * 7919) % 1300;
            for (uint64_t k = 0; k < count[i]; k++)
                inc_ok &= edan_layers_inc(&l, i);
        }
        CHECK(inc_ok, "layer counts");
        static const uint64_t ms[] = {1, 2, 3, 5, 8, 10, 13, 64, 100, 999, 1000, 4096, 65535, 65536, 65537, 1ull << 33};
        static const uint64_t upto[] = {0, 1, 999, 65535, 65536, 140000, LAYERS};
        for (size_t j = 0; j < sizeof ms / sizeof ms[0]; j++) {
            for (size_t u = 0; u < sizeof upto / sizeof upto[0]; u++) {
                uint64_t naive = 0;
                for (uint64_t i = 1; i <= upto[u]; i++)
                    naive += (count[i] + ms[j] - 1) / ms[j];
                CHECK(edan_layers_ceil_sum(&l, upto[u], ms[j]) == naive,
                      "sum of ceil(W_i / %" PRIu64 ") over %" PRIu64 " layers: %" PRIu64 ", expected %" PRIu64, ms[j],
                      upto[u], edan_layers_ceil_sum(&l, upto[u], ms[j]), naive);
            }
        }
        edan_layers_free(&l);
    }
    return check_summary();
}
