/*
 * edag_view.c - the eDAG tool's section: every configuration's metrics as
 * text (a block per configuration, its bounds per m as a table, and a
 * summary when there are several) and as JSON, from the tables declared
 * here (report/table.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/metrics.h"
#include "report/report.h"
#include "tool/graph/edag_tool.h"

/* ===================================================================== */
/* Tables                                                                 */
/* ===================================================================== */

#define TEXT_ONLY (EDAN_NO_JSON | EDAN_NO_CSV)
#define JSON_ONLY (EDAN_NO_TEXT | EDAN_NO_CSV)

static const edan_column level_cols[] = {
    {"hits", EDAN_T_U64, "accesses", "the accesses that hit in this level", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"misses", EDAN_T_U64, "accesses", "the accesses that missed it", 0, NULL, 0, 0, NULL, EDAN_CELL},
};

/* The bounds at one m (--m), text and JSON. */
enum {
    M_M,
    M_LAMBDA,
    M_LAMBDA_LAYERED,
    M_LAMBDA_BIG,
    M_MEM_LOWER,
    M_MEM_UPPER,
    M_MEM_LAYERED,
    M_RUN_LOWER,
    M_RUN_UPPER,
    M_RUN_LAYERED
};
static const edan_column m_cols[] = {
    {"m", EDAN_T_U64, "", "the memory accesses that can be in flight at once (--m)", 0, NULL, 6, 0, NULL, EDAN_CELL},
    {"lambda", EDAN_T_F64, "", "(W - D) / m + D (Eq. 3)", EDAN_COL_WHOLE, NULL, 14, 6, NULL, EDAN_CELL},
    {"lambda_layered", EDAN_T_F64, "", "the sum over layers of ceil(W_i / m)", EDAN_COL_WHOLE, "lambda(lay.)", 14, 6,
     NULL, EDAN_CELL},
    {"Lambda", EDAN_T_F64, "ratio", "lambda / (lambda x alpha0 + C)", EDAN_COL_G, NULL, 14, 6, NULL, EDAN_CELL},
    {"memory_cost.lower", EDAN_T_F64, "cycles", "max(D, W / m) x alpha", EDAN_COL_WHOLE, "M lower", 14, 6, NULL,
     EDAN_CELL},
    {"memory_cost.upper", EDAN_T_F64, "cycles", "lambda x alpha (Eq. 2)", EDAN_COL_WHOLE, "M upper", 14, 6, NULL,
     EDAN_CELL},
    {"memory_cost.layered", EDAN_T_F64, "cycles", "lambda_layered x alpha", EDAN_COL_WHOLE, "M layered", 14, 6, NULL,
     EDAN_CELL},
    {"runtime.lower", EDAN_T_F64, "cycles", "memory_cost.lower + C", JSON_ONLY, NULL, 0, 0, NULL, EDAN_CELL},
    {"runtime.upper", EDAN_T_F64, "cycles", "memory_cost.upper + C (Eq. 1)", EDAN_COL_WHOLE, "T upper", 14, 6, NULL,
     EDAN_CELL},
    {"runtime.layered", EDAN_T_F64, "cycles", "memory_cost.layered + C", JSON_ONLY, NULL, 0, 0, NULL, EDAN_CELL},
};

static const edan_column series_cols[] = {
    {"requested_tau", EDAN_T_U64, "cycles", "the phase length asked for (--tau; 0: automatic)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"tau", EDAN_T_U64, "cycles", "the phase length used (a power-of-two multiple of it when coarsened)", 0, NULL, 0, 0,
     NULL, EDAN_CELL},
    {"phases", EDAN_T_U64, "", "the phases", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"U", EDAN_T_U64S, "bytes", "U_i: the bytes moved by the vertices that finish in phase i", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"started", EDAN_T_U64S, "vertices", "the vertices that start in phase i", 0, NULL, 0, 0, NULL, EDAN_CELL},
};

enum {
    C_CACHE,
    C_ALPHA,
    C_COSTS,
    C_VERTICES,
    C_T1,
    C_TINF,
    C_PARALLELISM,
    C_W,
    C_D,
    C_C,
    C_BYTES,
    C_BW_CYCLE,
    C_BW_GBS,
    C_LOADS,
    C_STORES,
    C_ATOMICS,
    C_RAM_LOADS,
    C_RAM_STORES,
    C_RAM_READ,
    C_RAM_WRITE,
    C_CLASSES,
    C_LEVELS,
    C_LAYERS_INCLUDED,
    C_LAYERS,
    C_PER_M,
    C_SERIES
};
static const edan_column conf_cols[] = {
    {"cache", EDAN_T_STR, "", "the cache, as a canonical --cache text (\"none\" without one)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"alpha", EDAN_T_U64, "cycles", "alpha: the cost of a memory access that reaches RAM", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"costs", EDAN_T_NAMED, "cycles", "the cost of a vertex per cost class", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"vertices", EDAN_T_U64, "instructions", "the vertices: instructions executed", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"T1", EDAN_T_U64, "cycles", "the work: every vertex's cost, summed", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"Tinf", EDAN_T_U64, "cycles", "the span: the longest path's cost", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"parallelism", EDAN_T_F64, "ratio", "T1 / Tinf", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"W", EDAN_T_U64, "accesses", "the memory work: memory-access vertices", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"D", EDAN_T_U64, "layers", "the memory depth: memory-access vertices on the deepest chain", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"C", EDAN_T_F64, "cycles", "the non-memory cost (given with --C, else T1 - W x alpha)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"bytes", EDAN_T_U64, "bytes", "the bytes moved: the sum of w(v)", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"bandwidth_bytes_per_cycle", EDAN_T_F64, "bytes per cycle", "the average bandwidth B", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"bandwidth_gbs", EDAN_T_F64, "GB/s", "B at the clock (--clock)", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"loads", EDAN_T_U64, "instructions", "the loads", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"stores", EDAN_T_U64, "instructions", "the stores", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"atomics", EDAN_T_U64, "instructions", "the atomic memory operations", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"ram_loads", EDAN_T_U64, "accesses", "the memory-access vertices that read RAM", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"ram_stores", EDAN_T_U64, "accesses", "the memory-access vertices that wrote RAM", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"ram_read_bytes", EDAN_T_U64, "bytes", "the lines' bytes read from RAM (the cache model's traffic)", 0, NULL, 0, 0,
     NULL, EDAN_CELL},
    {"ram_write_bytes", EDAN_T_U64, "bytes", "the lines' bytes written to RAM", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"classes", EDAN_T_NAMED, "instructions", "the instructions executed per cost class", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"cache_levels", EDAN_T_ROWS, "", "per cache level, L1 first", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"layers_included", EDAN_T_BOOL, "", "whether layers lists every W_i (D is at most 100000)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"layers", EDAN_T_U64S, "accesses", "W_i: the memory-access vertices of layer i, i = 1..D", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"per_m", EDAN_T_ROWS, "", "the bounds at each --m", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"series", EDAN_T_ROWS, "", "the data movement per phase, one per --tau", 0, NULL, 0, 0, NULL, EDAN_CELL},
};

static const edan_column top_cols[] = {
    {"footprint_bytes", EDAN_T_U64, "bytes", "the guest memory touched, in 4 KiB pages", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"configurations", EDAN_T_ROWS, "", "one per (cache, alpha) pair, in the options' order", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
};

const edan_table_decl edan_edag_tables[] = {
    EDAN_TABLE_DECL("", NULL, true, "the eDAG tool's members of the report", top_cols),
    EDAN_TABLE_DECL("configurations", NULL, false, "a configuration of the eDAG's analysis", conf_cols),
    EDAN_TABLE_DECL("configurations.cache_levels", NULL, false, "a level of the configuration's cache", level_cols),
    EDAN_TABLE_DECL("configurations.per_m", NULL, false, "the configuration's bounds at one m", m_cols),
    EDAN_TABLE_DECL("configurations.series", NULL, false, "a data-movement series", series_cols),
    {NULL}};

/* ===================================================================== */
/* Rows                                                                   */
/* ===================================================================== */

/* The tables of one report: the configurations, and per configuration its levels, bounds and series. */
typedef struct edag_view {
    edan_table top, conf, levels[EDAN_MAX_LANES], per_m[EDAN_MAX_LANES], series[EDAN_MAX_LANES];
    edan_metrics mt[EDAN_MAX_LANES];
    uint64_t *layers[EDAN_MAX_LANES];
    const char *class_names[EDAN_CLASS_COUNT];
} edag_view;

static void view_free(edag_view *v, int n)
{
    for (int k = 0; k < n; k++) {
        edan_table_free(&v->levels[k]);
        edan_table_free(&v->per_m[k]);
        edan_table_free(&v->series[k]);
        free(v->layers[k]);
    }
    edan_table_free(&v->conf);
    edan_table_free(&v->top);
    free(v);
}

static void fill_lane(edag_view *v, const edan_edag *e, int k, edan_value *r)
{
    const edan_lane_stats *st = edan_edag_lane(e, k);
    const edan_lane_config *lc = &edan_edag_get_config(e)->lane[k];
    const edan_metrics *mt = &v->mt[k];
    char cache[256];
    edan_cache_config_format(&lc->cache, cache, sizeof cache);
    r[C_CACHE].s = edan_table_str(&v->conf, cache);
    r[C_ALPHA].u = lc->cost.alpha;
    r[C_COSTS].named.names = v->class_names;
    r[C_COSTS].named.v = lc->cost.cls;
    r[C_COSTS].named.n = EDAN_CLASS_COUNT;
    r[C_VERTICES].u = st->vertices;
    r[C_T1].u = st->T1;
    r[C_TINF].u = st->Tinf;
    r[C_PARALLELISM].f = mt->parallelism;
    r[C_W].u = st->W;
    r[C_D].u = st->D;
    r[C_C].f = mt->C;
    r[C_BYTES].u = st->bytes;
    r[C_BW_CYCLE].f = mt->bw_bytes_per_cycle;
    r[C_BW_GBS].f = mt->bw_gbs;
    r[C_LOADS].u = st->loads;
    r[C_STORES].u = st->stores;
    r[C_ATOMICS].u = st->amos;
    r[C_RAM_LOADS].u = st->ram_loads;
    r[C_RAM_STORES].u = st->ram_stores;
    r[C_RAM_READ].u = st->ram_read_bytes;
    r[C_RAM_WRITE].u = st->ram_write_bytes;
    r[C_CLASSES].named.names = v->class_names;
    r[C_CLASSES].named.v = st->class_count;
    r[C_CLASSES].named.n = EDAN_CLASS_COUNT;
    edan_table_init(&v->levels[k], &edan_edag_tables[2]);
    for (int l = 0; l < lc->cache.n_levels; l++) {
        edan_value *h = edan_table_row(&v->levels[k], 0);
        if (h) {
            h[0].u = st->cache_hits[l];
            h[1].u = st->cache_misses[l];
        }
    }
    r[C_LEVELS].rows = &v->levels[k];
    r[C_LAYERS_INCLUDED].b = st->D <= EDAN_JSON_MAX_LAYERS;
    if (r[C_LAYERS_INCLUDED].b && st->D && (v->layers[k] = malloc(st->D * sizeof *v->layers[k]))) {
        for (uint64_t i = 1; i <= st->D; i++)
            v->layers[k][i - 1] = edan_layers_get(&st->layers, i);
        r[C_LAYERS].a.v = v->layers[k];
        r[C_LAYERS].a.n = st->D;
    } else if (r[C_LAYERS_INCLUDED].b && st->D) {
        v->conf.failed = true;
    }
    edan_table_init(&v->per_m[k], &edan_edag_tables[3]);
    for (int i = 0; i < mt->n_m; i++) {
        const edan_m_metrics *p = &mt->per_m[i];
        edan_value *m = edan_table_row(&v->per_m[k], 0);
        if (!m)
            break;
        m[M_M].u = p->m;
        m[M_LAMBDA].f = p->lambda;
        m[M_LAMBDA_LAYERED].f = p->lambda_layered;
        m[M_LAMBDA_BIG].f = p->Lambda;
        m[M_MEM_LOWER].f = p->mem_lower;
        m[M_MEM_UPPER].f = p->mem_upper;
        m[M_MEM_LAYERED].f = p->mem_layered;
        m[M_RUN_LOWER].f = p->run_lower;
        m[M_RUN_UPPER].f = p->run_upper;
        m[M_RUN_LAYERED].f = p->run_layered;
    }
    r[C_PER_M].rows = &v->per_m[k];
    edan_table_init(&v->series[k], &edan_edag_tables[4]);
    for (int j = 0; j < st->n_series; j++) {
        const edan_series *s = &st->series[j];
        edan_value *u = edan_table_row(&v->series[k], 0);
        if (!u)
            break;
        u[0].u = s->requested_tau;
        u[1].u = s->tau;
        u[2].u = s->n;
        u[3].a.v = s->U;
        u[3].a.n = s->n;
        u[4].a.v = s->started;
        u[4].a.n = s->n;
    }
    r[C_SERIES].rows = &v->series[k];
}

/* Every configuration's tables and metrics (NULL: out of memory). */
static edag_view *view_new(const edan_edag *e, const edan_options *o)
{
    edag_view *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    for (int c = 0; c < EDAN_CLASS_COUNT; c++)
        v->class_names[c] = edan_class_name(c);
    edan_table_init(&v->top, &edan_edag_tables[0]);
    edan_table_init(&v->conf, &edan_edag_tables[1]);
    const int n = edan_edag_n_lanes(e);
    for (int k = 0; k < n; k++) {
        edan_metrics_compute(edan_edag_lane(e, k), edan_edag_get_config(e)->lane[k].cost.alpha, &o->metrics, &v->mt[k]);
        edan_value *r = edan_table_row(&v->conf, 0);
        if (r)
            fill_lane(v, e, k, r);
    }
    edan_value *r = edan_table_row(&v->top, 0);
    if (r) {
        r[0].u = edan_edag_footprint(e);
        r[1].rows = &v->conf;
    }
    return v;
}

/* ===================================================================== */
/* Text and JSON                                                          */
/* ===================================================================== */

static void fmt_num(double v, char *buf, size_t cap)
{
    if (v == floor(v) && fabs(v) < 1e18)
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.6g", v);
}

static void text(FILE *f, const edan_edag *e, const edan_options *o, const edag_view *v)
{
    for (int k = 0; k < edan_edag_n_lanes(e); k++) {
        const edan_lane_stats *st = edan_edag_lane(e, k);
        const edan_lane_config *lc = &edan_edag_get_config(e)->lane[k];
        const edan_metrics *mt = &v->mt[k];
        char label[320], c[64];
        edan_report_lane_label(e, k, label, sizeof label);
        fprintf(f, "\n[%d] %s\n", k + 1, label);
        fprintf(f, "  vertices (instructions)   %" PRIu64 "\n", st->vertices);
        fprintf(f, "  work T1                   %" PRIu64 " cycles\n", st->T1);
        fprintf(f, "  span Tinf                 %" PRIu64 " cycles\n", st->Tinf);
        fprintf(f, "  parallelism T1/Tinf       %.4f\n", mt->parallelism);
        fprintf(f, "  memory work W             %" PRIu64 "\n", st->W);
        fprintf(f, "  memory depth D            %" PRIu64 "\n", st->D);
        fprintf(f, "  memory parallelism W/D    %.4f\n", mt->mem_parallelism);
        fmt_num(mt->C, c, sizeof c);
        fprintf(f, "  non-memory cost C         %s cycles%s\n", c, o->metrics.C_given ? " (given)" : "");
        fprintf(f, "  bytes moved sum w(v)      %" PRIu64 "\n", st->bytes);
        fprintf(f, "  average bandwidth B       %.4f bytes/cycle = %.4f GB/s\n", mt->bw_bytes_per_cycle, mt->bw_gbs);
        fprintf(f, "  loads / stores / atomics  %" PRIu64 " / %" PRIu64 " / %" PRIu64 "\n", st->loads, st->stores,
                st->amos);
        fprintf(f, "  reaching RAM: loads / stores %" PRIu64 " / %" PRIu64 "\n", st->ram_loads, st->ram_stores);
        for (int l = 0; l < lc->cache.n_levels; l++) {
            uint64_t h = st->cache_hits[l], m = st->cache_misses[l];
            fprintf(f, "  L%d hits / misses          %" PRIu64 " / %" PRIu64 " (%.2f%% hits)\n", l + 1, h, m,
                    h + m ? 100.0 * (double)h / (double)(h + m) : 0.0);
        }
        fprintf(f, "  layers W_1..W_D          ");
        uint64_t shown = st->D < 16 ? st->D : 16;
        for (uint64_t i = 1; i <= shown; i++)
            fprintf(f, " %" PRIu64, edan_layers_get(&st->layers, i));
        if (st->D > shown)
            fprintf(f, " ... (%" PRIu64 " layers)", st->D);
        fprintf(f, "\n");
        edan_table_text(f, &v->per_m[k], &(edan_text_view){.heading_always = true});
        for (int j = 0; j < st->n_series; j++) {
            const edan_series *s = &st->series[j];
            uint64_t peak = 0;
            size_t at = 0;
            for (size_t i = 0; i < s->n; i++)
                if (s->U[i] > peak) {
                    peak = s->U[i];
                    at = i;
                }
            fprintf(f, "  data movement: tau %" PRIu64 "%s, %zu phases, peak U_%zu = %" PRIu64 " bytes\n", s->tau,
                    s->requested_tau && s->tau != s->requested_tau ? " (coarsened)" : "", s->n, at, peak);
        }
    }
    if (edan_edag_n_lanes(e) > 1) {
        fprintf(f, "\nSummary (m = %" PRIu64 ")\n", o->metrics.m[0]);
        fprintf(f, "  %-4s %-60s %12s %10s %14s %10s %10s\n", "#", "configuration", "W", "D", "lambda", "Lambda",
                "B GB/s");
        for (int k = 0; k < edan_edag_n_lanes(e); k++) {
            const edan_lane_stats *st = edan_edag_lane(e, k);
            char label[320], lam[32];
            edan_report_lane_label(e, k, label, sizeof label);
            fmt_num(v->mt[k].per_m[0].lambda, lam, sizeof lam);
            fprintf(f, "  %-4d %-60.60s %12" PRIu64 " %10" PRIu64 " %14s %10.4g %10.4g\n", k + 1, label, st->W, st->D,
                    lam, v->mt[k].per_m[0].Lambda, v->mt[k].bw_gbs);
        }
    }
}

void edan_edag_view(FILE *f, const edan_edag *e, const edan_options *o, bool json)
{
    edag_view *v = view_new(e, o);
    if (!v) {
        fputs(json ? ",\"footprint_bytes\":null,\"configurations\":null" : "\neDAG: out of memory\n", f);
        return;
    }
    if (json) {
        fputc(',', f);
        edan_table_json(f, &v->top, 0);
    } else {
        text(f, e, o, v);
    }
    view_free(v, edan_edag_n_lanes(e));
}
