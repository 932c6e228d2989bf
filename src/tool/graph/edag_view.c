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
#define TEXT_LAYERS 16 /* the layers W_i text lists */

/* A cache level of a configuration. */
typedef struct edag_level {
    uint64_t hits, misses, level;
    double hit_pct;
} edag_level;

static const edan_column level_cols[] = {
    EDAN_COL_FIELD(edag_level, hits, "hits", "accesses", "the accesses that hit in this level", 0, NULL, 0, 0),
    EDAN_COL_FIELD(edag_level, misses, "misses", "accesses", "the accesses that missed it", 0, NULL, 0, 0),
    EDAN_COL_FIELD(edag_level, level, "L", "", "text: the level, 1 first", TEXT_ONLY, NULL, 0, 0),
    EDAN_COL_FIELD(edag_level, hit_pct, "hit_pct", "", "text: the share of hits", TEXT_ONLY, NULL, 0, 2),
};

/* The bounds at one m (--m), text and JSON: an edan_m_metrics. */
#define M_COL(m, key, unit, doc, flags, title) EDAN_COL_FIELD(edan_m_metrics, m, key, unit, doc, flags, title, 14, 6)
static const edan_column m_cols[] = {
    EDAN_COL_FIELD(edan_m_metrics, m, "m", "", "the memory accesses that can be in flight at once (--m)", 0, NULL, 6,
                   0),
    M_COL(lambda, "lambda", "", "(W - D) / m + D (Eq. 3)", EDAN_COL_WHOLE, NULL),
    M_COL(lambda_layered, "lambda_layered", "", "the sum over layers of ceil(W_i / m)", EDAN_COL_WHOLE, "lambda(lay.)"),
    M_COL(Lambda, "Lambda", "ratio", "lambda / (lambda x alpha0 + C)", EDAN_COL_G, NULL),
    M_COL(mem_lower, "memory_cost.lower", "cycles", "max(D, W / m) x alpha", EDAN_COL_WHOLE, "M lower"),
    M_COL(mem_upper, "memory_cost.upper", "cycles", "lambda x alpha (Eq. 2)", EDAN_COL_WHOLE, "M upper"),
    M_COL(mem_layered, "memory_cost.layered", "cycles", "lambda_layered x alpha", EDAN_COL_WHOLE, "M layered"),
    M_COL(run_lower, "runtime.lower", "cycles", "memory_cost.lower + C", JSON_ONLY, NULL),
    M_COL(run_upper, "runtime.upper", "cycles", "memory_cost.upper + C (Eq. 1)", EDAN_COL_WHOLE, "T upper"),
    M_COL(run_layered, "runtime.layered", "cycles", "memory_cost.layered + C", JSON_ONLY, NULL),
};

/* A series' text: whether its phases were coarsened, its peak phase and that phase's bytes (a row's source 1). */
typedef struct edag_peak {
    const char *coarsened;
    uint64_t at, bytes;
} edag_peak;

static const edan_column series_cols[] = {
    EDAN_COL_FIELD(edan_series, requested_tau, "requested_tau", "cycles",
                   "the phase length asked for (--tau; 0: automatic)", 0, NULL, 0, 0),
    EDAN_COL_FIELD(edan_series, tau, "tau", "cycles",
                   "the phase length used (a power-of-two multiple of it when coarsened)", 0, NULL, 0, 0),
    EDAN_COL_FIELD(edan_series, n, "phases", "", "the phases", 0, NULL, 0, 0),
    {"U", EDAN_T_U64S, "bytes", "U_i: the bytes moved by the vertices that finish in phase i", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"started", EDAN_T_U64S, "vertices", "the vertices that start in phase i", 0, NULL, 0, 0, NULL, EDAN_CELL},
    EDAN_COL_OF(1, edag_peak, coarsened, "coarsened", "", "text", TEXT_ONLY, NULL, 0, 0),
    EDAN_COL_OF(1, edag_peak, at, "peak_at", "", "text: the phase of the most bytes", TEXT_ONLY, NULL, 0, 0),
    EDAN_COL_OF(1, edag_peak, bytes, "peak", "bytes", "text: its bytes", TEXT_ONLY, NULL, 0, 0),
};

/* A configuration beside its lane's numbers: its metrics, its number (from 1) and text's label of it. */
typedef struct edag_lane {
    edan_metrics mt;
    uint64_t number;
    char label[320];
} edag_lane;

/* A configuration: its lane's numbers (edan_lane_stats, source 0), its metrics and label (edag_lane, 1), and cells. */
enum {
    C_CACHE,
    C_ALPHA,
    C_COSTS,
    C_CLASSES = 20,
    C_LEVELS,
    C_LAYERS_INCLUDED,
    C_LAYERS,
    C_PER_M,
    C_SERIES,
    C_NUMBER,
    C_LABEL,
    C_GIVEN,
    C_FIRST_LAYERS,
    C_MORE_LAYERS
};
#define C_LANE(m, key, unit, doc) EDAN_COL_FIELD(edan_lane_stats, m, key, unit, doc, 0, NULL, 0, 0)
#define C_METRIC(m, key, unit, doc) EDAN_COL_OF(1, edag_lane, mt.m, key, unit, doc, 0, NULL, 0, 0)
static const edan_column conf_cols[] = {
    {"cache", EDAN_T_STR, "", "the cache, as a canonical --cache text (\"none\" without one)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"alpha", EDAN_T_U64, "cycles", "alpha: the cost of a memory access that reaches RAM", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"costs", EDAN_T_NAMED, "cycles", "the cost of a vertex per cost class", 0, NULL, 0, 0, NULL, EDAN_CELL},
    C_LANE(vertices, "vertices", "instructions", "the vertices: instructions executed"),
    C_LANE(T1, "T1", "cycles", "the work: every vertex's cost, summed"),
    C_LANE(Tinf, "Tinf", "cycles", "the span: the longest path's cost"),
    C_METRIC(parallelism, "parallelism", "ratio", "T1 / Tinf"),
    C_LANE(W, "W", "accesses", "the memory work: memory-access vertices"),
    C_LANE(D, "D", "layers", "the memory depth: memory-access vertices on the deepest chain"),
    C_METRIC(C, "C", "cycles", "the non-memory cost (given with --C, else T1 - W x alpha)"),
    C_LANE(bytes, "bytes", "bytes", "the bytes moved: the sum of w(v)"),
    C_METRIC(bw_bytes_per_cycle, "bandwidth_bytes_per_cycle", "bytes per cycle", "the average bandwidth B"),
    C_METRIC(bw_gbs, "bandwidth_gbs", "GB/s", "B at the clock (--clock)"),
    C_LANE(loads, "loads", "instructions", "the loads"),
    C_LANE(stores, "stores", "instructions", "the stores"),
    C_LANE(amos, "atomics", "instructions", "the atomic memory operations"),
    C_LANE(ram_loads, "ram_loads", "accesses", "the memory-access vertices that read RAM"),
    C_LANE(ram_stores, "ram_stores", "accesses", "the memory-access vertices that wrote RAM"),
    C_LANE(ram_read_bytes, "ram_read_bytes", "bytes", "the lines' bytes read from RAM (the cache model's traffic)"),
    C_LANE(ram_write_bytes, "ram_write_bytes", "bytes", "the lines' bytes written to RAM"),
    {"classes", EDAN_T_NAMED, "instructions", "the instructions executed per cost class", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"cache_levels", EDAN_T_ROWS, "", "per cache level, L1 first", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"layers_included", EDAN_T_BOOL, "", "whether layers lists every W_i (D is at most 100000)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"layers", EDAN_T_U64S, "accesses", "W_i: the memory-access vertices of layer i, i = 1..D", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"per_m", EDAN_T_ROWS, "", "the bounds at each --m", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"series", EDAN_T_ROWS, "", "the data movement per phase, one per --tau", 0, NULL, 0, 0, NULL, EDAN_CELL},
    /* text */
    EDAN_COL_OF(1, edag_lane, number, "#", "", "text", TEXT_ONLY, NULL, 0, 0),
    EDAN_COL_OF(1, edag_lane, label, "label", "", "text", TEXT_ONLY, NULL, 0, 0),
    {"given", EDAN_T_BOOL, "", "text: whether --C gave C", TEXT_ONLY, NULL, 0, 0, NULL, EDAN_CELL},
    {"first_layers", EDAN_T_U64S, "", "text: W_1.. of the first layers", TEXT_ONLY, NULL, 0, 0, NULL, EDAN_CELL},
    {"more_layers", EDAN_T_U64, "", "text: D when there are more", TEXT_ONLY, NULL, 0, 0, NULL, EDAN_CELL},
    EDAN_COL_OF(1, edag_lane, mt.parallelism, "par", "", "text", TEXT_ONLY, NULL, 0, 4),
    EDAN_COL_OF(1, edag_lane, mt.mem_parallelism, "mem_par", "", "text", TEXT_ONLY, NULL, 0, 4),
    EDAN_COL_OF(1, edag_lane, mt.C, "C_text", "", "text", TEXT_ONLY | EDAN_COL_WHOLE, NULL, 0, 6),
    EDAN_COL_OF(1, edag_lane, mt.bw_bytes_per_cycle, "B", "", "text", TEXT_ONLY, NULL, 0, 4),
    EDAN_COL_OF(1, edag_lane, mt.bw_gbs, "B_gbs", "", "text", TEXT_ONLY, NULL, 0, 4),
};
_Static_assert(sizeof conf_cols / sizeof *conf_cols == C_MORE_LAYERS + 6, "a configuration's cells at their columns");

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

/* Text: a line per configuration when there are several (source 0 its lane, 1 its metrics). */
#define S_METRIC(m, title) EDAN_COL_OF(1, edag_lane, mt.m, title, "", "text", TEXT_ONLY | EDAN_COL_G, NULL, 10, 4)
static const edan_column summary_cols[] = {
    EDAN_COL_OF(1, edag_lane, number, "#", "", "text: the configuration's number", TEXT_ONLY | EDAN_COL_LEFT, NULL, 4,
                0),
    EDAN_COL_OF(1, edag_lane, label, "configuration", "", "text: its cache and alpha", TEXT_ONLY | EDAN_COL_CUT, NULL,
                60, 0),
    EDAN_COL_FIELD(edan_lane_stats, W, "W", "", "text", TEXT_ONLY, NULL, 12, 0),
    EDAN_COL_FIELD(edan_lane_stats, D, "D", "", "text", TEXT_ONLY, NULL, 10, 0),
    EDAN_COL_OF(1, edag_lane, mt.per_m[0].lambda, "lambda", "", "text", TEXT_ONLY | EDAN_COL_WHOLE, NULL, 14, 6),
    S_METRIC(per_m[0].Lambda, "Lambda"),
    S_METRIC(bw_gbs, "B GB/s"),
};
static const edan_table_decl summary_decl =
    EDAN_TABLE_DECL("configurations", NULL, false, "text: the summary of several configurations", summary_cols);

/* ===================================================================== */
/* Rows                                                                   */
/* ===================================================================== */

/* The tables of one report: the configurations, and per configuration its levels, bounds and series. */
typedef struct edag_view {
    edan_table top, conf, summary, levels[EDAN_MAX_LANES], per_m[EDAN_MAX_LANES], series[EDAN_MAX_LANES];
    edag_lane lane[EDAN_MAX_LANES];
    edag_level lv[EDAN_MAX_LANES][EDAN_CACHE_MAX_LEVELS];
    uint64_t *layers[EDAN_MAX_LANES];
    uint64_t first_layers[EDAN_MAX_LANES][TEXT_LAYERS];
    edag_peak peaks[EDAN_MAX_LANES][EDAN_MAX_TAUS];
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
    edan_table_free(&v->summary);
    edan_table_free(&v->top);
    free(v);
}

/* A configuration's cache levels, L1 first. */
static void levels_of(const edan_lane_stats *st, int n, edag_level *lv)
{
    for (int l = 0; l < n; l++) {
        const uint64_t h = st->cache_hits[l], m = st->cache_misses[l];
        lv[l] = (edag_level){h, m, (uint64_t)l + 1, h + m ? 100.0 * (double)h / (double)(h + m) : 0.0};
    }
}

/* Lane k's layers (all, and text's first ones) and its series' peaks; false: out of memory for its layers. */
static bool lane_data(edag_view *v, const edan_lane_stats *st, int k)
{
    for (int j = 0; j < st->n_series; j++) {
        const edan_series *s = &st->series[j];
        edag_peak *p = &v->peaks[k][j];
        p->coarsened = s->requested_tau && s->tau != s->requested_tau ? " (coarsened)" : "";
        for (size_t i = 0; i < s->n; i++)
            if (s->U[i] > p->bytes) {
                p->bytes = s->U[i];
                p->at = i;
            }
    }
    for (uint64_t i = 1; i <= st->D && i <= TEXT_LAYERS; i++)
        v->first_layers[k][i - 1] = edan_layers_get(&st->layers, i);
    if (!st->D || st->D > EDAN_JSON_MAX_LAYERS)
        return true;
    if (!(v->layers[k] = malloc(st->D * sizeof *v->layers[k])))
        return false;
    for (uint64_t i = 1; i <= st->D; i++)
        v->layers[k][i - 1] = edan_layers_get(&st->layers, i);
    return true;
}

static void fill_lane(edag_view *v, const edan_edag *e, int k, edan_value *r)
{
    const edan_lane_stats *st = edan_edag_lane(e, k);
    const edan_lane_config *lc = &edan_edag_get_config(e)->lane[k];
    const edan_metrics *mt = &v->lane[k].mt;
    char cache[256];
    edan_cache_config_format(&lc->cache, cache, sizeof cache);
    r[C_CACHE].s = edan_table_str(&v->conf, cache);
    r[C_ALPHA].u = lc->cost.alpha;
    r[C_COSTS] = (edan_value){.named = {v->class_names, lc->cost.cls, EDAN_CLASS_COUNT}};
    r[C_CLASSES] = (edan_value){.named = {v->class_names, st->class_count, EDAN_CLASS_COUNT}};
    edan_table_of(&v->levels[k], &edan_edag_tables[2], v->lv[k], (size_t)lc->cache.n_levels, sizeof *v->lv[k]);
    r[C_LEVELS].rows = &v->levels[k];
    r[C_LAYERS_INCLUDED].b = st->D <= EDAN_JSON_MAX_LAYERS;
    if (!lane_data(v, st, k))
        v->conf.failed = true;
    else if (v->layers[k])
        r[C_LAYERS] = (edan_value){.a = {v->layers[k], st->D}};
    r[C_FIRST_LAYERS] = (edan_value){.a = {v->first_layers[k], st->D < TEXT_LAYERS ? st->D : TEXT_LAYERS}};
    r[C_MORE_LAYERS].u = st->D > TEXT_LAYERS ? st->D : 0;
    edan_table_of(&v->per_m[k], &edan_edag_tables[3], mt->per_m, (size_t)mt->n_m, sizeof *mt->per_m);
    r[C_PER_M].rows = &v->per_m[k];
    edan_table_init(&v->series[k], &edan_edag_tables[4]);
    for (int j = 0; j < st->n_series; j++) {
        const edan_series *s = &st->series[j];
        edan_value *u = edan_table_row_of(&v->series[k], 0, s, &v->peaks[k][j]);
        if (!u)
            break;
        u[3] = (edan_value){.a = {s->U, s->n}};
        u[4] = (edan_value){.a = {s->started, s->n}};
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
    edan_table_init(&v->summary, &summary_decl);
    const int n = edan_edag_n_lanes(e);
    for (int k = 0; k < n; k++) {
        edag_lane *l = &v->lane[k];
        edan_metrics_compute(edan_edag_lane(e, k), edan_edag_get_config(e)->lane[k].cost.alpha, &o->metrics, &l->mt);
        levels_of(edan_edag_lane(e, k), edan_edag_get_config(e)->lane[k].cache.n_levels, v->lv[k]);
        l->number = (uint64_t)k + 1;
        edan_report_lane_label(e, k, l->label, sizeof l->label);
        edan_value *r = edan_table_row_of(&v->conf, 0, edan_edag_lane(e, k), l);
        if (r) {
            fill_lane(v, e, k, r);
            r[C_GIVEN].b = o->metrics.C_given;
        }
        edan_table_row_of(&v->summary, 0, edan_edag_lane(e, k), l);
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

static const char conf_form[] = "\n[{#}] {label}\n"
                                "  vertices (instructions)   {vertices}\n"
                                "  work T1                   {T1} cycles\n"
                                "  span Tinf                 {Tinf} cycles\n"
                                "  parallelism T1/Tinf       {par}\n"
                                "  memory work W             {W}\n"
                                "  memory depth D            {D}\n"
                                "  memory parallelism W/D    {mem_par}\n"
                                "  non-memory cost C         {C_text} cycles{?given} (given)\n"
                                "  bytes moved sum w(v)      {bytes}\n"
                                "  average bandwidth B       {B} bytes/cycle = {B_gbs} GB/s\n"
                                "  loads / stores / atomics  {loads} / {stores} / {atomics}\n"
                                "  reaching RAM: loads / stores {ram_loads} / {ram_stores}\n";
static const char layers_form[] =
    "  layers W_1..W_D          {?first_layers} {first_layers}{?more_layers} ... ({more_layers} layers)\n";
static const char level_form[] = "  L{L} hits / misses          {hits} / {misses} ({hit_pct}% hits)\n";
static const char series_form[] =
    "  data movement: tau {tau}{coarsened}, {phases} phases, peak U_{peak_at} = {peak} bytes\n";

static void text(FILE *f, const edan_edag *e, const edan_options *o, const edag_view *v)
{
    for (int k = 0; k < edan_edag_n_lanes(e); k++) {
        edan_table_form_row(f, &v->conf, (size_t)k, conf_form);
        edan_table_form(f, &v->levels[k], level_form);
        edan_table_form_row(f, &v->conf, (size_t)k, layers_form);
        edan_table_text(f, &v->per_m[k], &(edan_text_view){.heading_always = true});
        edan_table_form(f, &v->series[k], series_form);
    }
    if (edan_edag_n_lanes(e) > 1) {
        fprintf(f, "\nSummary (m = %" PRIu64 ")\n", o->metrics.m[0]);
        edan_table_text(f, &v->summary, &(edan_text_view){0});
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
