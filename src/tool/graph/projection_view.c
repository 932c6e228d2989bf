/*
 * projection_view.c - the projection's report: text, the JSON member
 * "projection" (docs/json-schema.md) and ExaSAT's Table 1 (--table).
 * Every row is the same set of numbers (row_json, row_bound): the region,
 * each function, each loop, the code outside every loop.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/edag/edag.h"
#include "analysis/metrics/metrics.h"
#include "report/report.h"
#include "report/table.h"
#include "tool/base/base.h"
#include "tool/graph/edag_tool.h"
#include "tool/graph/functions_tool.h"
#include "tool/graph/projection_tool.h"
#include "tool/graph/timing_tool.h"
#include "util/symbols/symbols.h"

#define TEXT_ROWS 10

/* Rows, symbols and lines, once the stream is over. */
static void prepare(proj_tool *t, const edan_session *s)
{
    if (!t->rows_made)
        t->timing = edan_timing_tool_model(s);
    const edan_objmap *objects = edan_session_source(s)->objects;
    edan_error ignored = {0};
    if (!t->objects_named && t->have_elf) { /* a dynamically linked program's libraries by name too */
        t->objects_named = true;
        edan_elf_add_objects(&t->elf, objects, &ignored);
    }
    if (!t->src && t->have_elf) {
        t->src = edan_srcmap_open(edan_session_source(s)->binary, &ignored);
        if (t->src)
            edan_srcmap_add_objects(t->src, objects, &ignored);
    }
    if (!proj_rows_make(t) && !t->err.set)
        edan_error_set(&t->err, "out of memory for the projection's rows");
}

/* ===================================================================== */
/* The whole region's JSON members                                        */
/* ===================================================================== */

/* The smallest k at which a cache of 2^k lines holds every line the region touched: no eviction, the traffic final. */
static unsigned holds_all(const proj_tool *t)
{
    const uint64_t blocks = edan_reuse_blocks(t->tracker);
    unsigned k = 0;
    while (k + 1 < EDAN_LRU_SIZES && (1ull << k) < blocks)
        k++;
    return k;
}

typedef struct pj_tables {
    edan_column cols[N_T][TOT_N]; /* each table's, text's bound and model columns as the timing model has them */
    edan_table t[N_T], text_loops, text_funcs; /* text: the first loops by time and the code outside them; functions */
    const edan_session *s;
    proj_row_view *views; /* the rows' numbers beside their mixes, row by row of every table */
    size_t n_views;
    /* the whole region's row, its members beside its numbers (summarize) */
    proj_total_view total;
    char lru_label[96];
    edan_table lambda, levels, caches, prediction;
    proj_lambda_row *lambda_rows;
    int n_lambda;
    proj_level_row level_rows[EDAN_MACHINE_MAX_DATA_LEVELS];
    proj_cache_row cache_rows[PROJ_MAX_MODELS];
} pj_tables;

/*
 * The members the region has beside its numbers: the machine, the traffic's
 * cache, lambda of each eDAG configuration at the first m, the timing model's
 * prediction, the traffic of every fully associative cache size up to the one
 * that holds every line (reads stop falling at the working set, the writes
 * there: beyond it every dirty line is written once, by the final flush), of
 * each data level of the machine (a fully associative LRU cache of its size),
 * and of each --cache configuration.
 */
/* The traffic's cache when no --cache is given, as the summary names it. */
static void lru_label(const proj_tool *t, char *buf, size_t cap)
{
    snprintf(buf, cap, "fully associative LRU, %.0f bytes, line=%u, write=back, alloc=yes",
             ldexp((double)(1u << t->line_shift), (int)t->machine_k), 1u << t->line_shift);
}

static void summarize(proj_tool *t, const edan_session *s, pj_tables *x)
{
    const edan_proj_machine m = proj_machine(t);
    const double line = (double)(1u << t->line_shift);
    proj_summary *u = &x->total.sum;
    u->machine = t->machine;
    u->machine_file = t->machine_path;
    u->source = t->n_models ? "cache" : "lru";
    u->cache = t->n_models ? t->model_label[0] : x->lru_label;
    u->cache_bytes = t->n_models ? NAN : ldexp(line, (int)t->machine_k);
    lru_label(t, x->lru_label, sizeof x->lru_label);
    u->line_bytes = 1u << t->line_shift;
    u->cores_s = t->machine.cores == 1 ? "" : "s";
    u->libm_calls = t->total.mix.transcendentals + t->total.mix.sqrt_calls;
    u->stack_bytes = t->total.mix.stack_load_bytes + t->total.mix.stack_store_bytes;
    u->time_sum_of_parts = proj_sum_of_parts(t, t->machine_k, &m);
    u->lambda = &x->lambda;
    u->levels = &x->levels;
    u->caches = &x->caches;
    u->functions = t->have_elf ? &x->t[T_FUNCTIONS] : NULL;
    u->loops = &x->t[T_LOOPS];
    const edan_edag *e = edan_edag_tool_analysis(s);
    x->n_lambda = e ? edan_edag_n_lanes(e) : 0;
    u->n_curve = 0;
    x->lambda_rows = calloc((size_t)x->n_lambda + 1, sizeof *x->lambda_rows);
    for (int k = 0; x->lambda_rows && k < x->n_lambda; k++) {
        edan_metrics mt;
        edan_metrics_compute(edan_edag_lane(e, k), edan_edag_get_config(e)->lane[k].cost.alpha,
                             &edan_session_options(s)->metrics, &mt);
        proj_lambda_row *r = &x->lambda_rows[k];
        *r = (proj_lambda_row){.m = mt.per_m[0].m,
                               .W = edan_edag_lane(e, k)->W,
                               .D = edan_edag_lane(e, k)->D,
                               .lambda = mt.per_m[0].lambda};
        edan_report_lane_label(e, k, r->configuration, sizeof r->configuration);
    }
    const edan_timing *tm = edan_timing_tool_model(s);
    u->has_prediction = tm != NULL;
    u->n_prediction = tm ? (size_t)edan_timing_lanes(tm) : 0;
    for (size_t k = 0; k < u->n_prediction; k++)
        u->prediction[k] = (proj_prediction){edan_timing_lane_get(tm, (int)k).mem_latency_ns,
                                             edan_timing_lane_get(tm, (int)k).seconds};
    const unsigned ws = edan_lru_working_set(&t->total.lru), all = holds_all(t);
    const unsigned top = ws > all ? ws : all;
    for (unsigned k = 0; k <= top && k < EDAN_LRU_SIZES; k++, u->n_curve++) {
        u->curve[0][k] = ldexp(1.0, (int)(k + t->line_shift));
        u->curve[1][k] = (double)edan_lru_reads(&t->total.lru, k) * (1u << t->line_shift);
        u->curve[2][k] = (double)edan_lru_writes(&t->total.lru, k) * (1u << t->line_shift);
        u->curve[3][k] = (double)edan_lru_dirty_at_end(&t->total.lru, k) * (1u << t->line_shift);
    }
    static const char *const names[EDAN_MACHINE_MAX_DATA_LEVELS] = {"l1d", "l2", "l3"};
    for (int l = 0; l < t->machine.n_data_levels; l++) {
        const uint64_t size = t->machine.data[l].geo.size;
        const unsigned k = size >> t->line_shift ? 63u - (unsigned)__builtin_clzll(size >> t->line_shift) : 0;
        x->level_rows[l] = (proj_level_row){names[l], size, (double)edan_lru_reads(&t->total.lru, k) * line,
                                            (double)edan_lru_writes(&t->total.lru, k) * line,
                                            (double)edan_lru_dirty_at_end(&t->total.lru, k) * line};
    }
    for (int c = 0; c < t->n_models; c++) {
        const double rd = (double)t->total.model_read[c], wr = (double)t->total.model_write[c];
        const edan_proj p = edan_proj_evaluate(&t->total.mix, rd + wr, &m);
        x->cache_rows[c] = (proj_cache_row){t->model_label[c],
                                            rd,
                                            wr,
                                            (double)t->total.model_flush[c],
                                            rd + wr,
                                            p.time_memory,
                                            p.time,
                                            p.memory_bound ? "memory" : "compute"};
    }
}

/* ===================================================================== */
/* Text                                                                   */
/* ===================================================================== */

/* Rows sorted by projected time (largest first): a sorted array of pointers (NULL when out of memory). */
static const proj_row **by_time(proj_tool *t, const proj_row *rows, size_t n, const edan_proj_machine *m)
{
    const proj_row **p = malloc((n ? n : 1) * sizeof *p);
    double *tm = malloc((n ? n : 1) * sizeof *tm);
    for (size_t i = 0; p && tm && i < n; i++) {
        const double ti = proj_row_bound(t, &rows[i], t->machine_k, m).time;
        size_t j = i;
        while (j > 0 && tm[j - 1] < ti) {
            p[j] = p[j - 1];
            tm[j] = tm[j - 1];
            j--;
        }
        p[j] = &rows[i];
        tm[j] = ti;
    }
    free(tm);
    return p;
}

/* Row r's numbers beside its mix (computed): its bound, traffic, timing model seconds, a loop's place. */
static void row_view(proj_tool *t, const proj_row *r, const edan_proj_machine *m, proj_row_view *v)
{
    if (r->loop >= 0) {
        v->place = proj_loop_place(t, r->loop);
        v->loop = *edan_loops_get(t->loops, (uint32_t)r->loop);
    }
    proj_row_dram(t, r, t->machine_k, &v->rd, &v->wr, &v->fl);
    v->p = edan_proj_evaluate(&r->mix, v->rd + v->wr, m);
    v->working_set = r->lru.accesses ? ldexp(1.0, (int)edan_lru_working_set(&r->lru)) * (1u << t->line_shift) : 0;
    v->peak = m->peak_flops;
    v->bandwidth = m->bandwidth;
    v->bound = v->p.memory_bound ? "memory" : "compute";
    v->has_model = t->timing != NULL;
    v->n_model = t->timing ? (size_t)edan_timing_lanes(t->timing) : 0;
    for (size_t k = 0; k < v->n_model; k++) {
        v->cycles[k] = r->cycles[k];
        v->sec[k] = r->cycles[k] / (t->machine.clock_ghz * 1e9);
    }
    v->model_s = v->n_model ? v->sec[0] : 0;
}

/* A row of tab for r (name: its member "name"), bound to r and its numbers; its text label and timing model cells. */
static edan_value *add_row(proj_tool *t, pj_tables *x, edan_table *tab, const proj_row *r, const char *name,
                           const edan_proj_machine *m)
{
    proj_row_view *v = tab == &x->t[T_TOTAL] ? &x->total.v : &x->views[x->n_views++];
    row_view(t, r, m, v);
    v->name = name;
    if (tab == &x->t[T_FUNCTIONS]) /* the latency view beside the bounds: lambda from --per-function, if it names it */
        v->has_lambda = edan_functions_tool_lambda(x->s, r->name, v->lambda);
    if (r->loop < 0)
        snprintf(v->label, sizeof v->label, "%s",
                 r == &t->outside ? "(outside loops)"
                 : r->name        ? r->name
                                  : "(outside functions)");
    else
        snprintf(v->label, sizeof v->label, "#%d %s:%u (%s)", r->loop, edan_srcmap_file_name(v->place.file),
                 v->place.line, v->place.function ? v->place.function : "?");
    return edan_table_row_of(tab, 0, v, r);
}

static void make_tables(proj_tool *t, const edan_session *s, pj_tables *x)
{
    const edan_proj_machine m = proj_machine(t);
    x->s = s;
    x->views = calloc(2 * (t->n_funcs + t->n_loops + 2), sizeof *x->views);
    x->n_views = 0;
    for (int k = 0; k < N_T; k++) {
        const edan_table_decl *d = &edan_projection_tables[k];
        memcpy(x->cols[k], d->cols, d->n_cols * sizeof *d->cols);
        for (size_t c = 0; c < d->n_cols; c++) {
            if (!strcmp(d->cols[c].key, "bound"))
                x->cols[k][c].width = t->timing ? 7 : 0;
            if (!strcmp(d->cols[c].key, "model_s") && !t->timing)
                x->cols[k][c].flags |= EDAN_NO_TEXT;
        }
        edan_table_init_cols(&x->t[k], d, x->cols[k], d->n_cols);
    }
    const edan_table_decl *o = &edan_projection_tables[T_OUTSIDE];
    edan_table_init_cols(&x->text_loops, o, x->cols[T_OUTSIDE], o->n_cols);
    edan_table_init_cols(&x->text_funcs, o, x->cols[T_OUTSIDE], o->n_cols);
    summarize(t, s, x);
    const edan_table_decl *d = edan_projection_tables;
    edan_table_of(&x->lambda, &d[T_LAMBDA], x->lambda_rows, x->lambda_rows ? (size_t)x->n_lambda : 0,
                  sizeof *x->lambda_rows);
    edan_table_of(&x->levels, &d[T_LEVELS], x->level_rows, (size_t)t->machine.n_data_levels, sizeof *x->level_rows);
    edan_table_of(&x->caches, &d[T_CACHES], x->cache_rows, (size_t)t->n_models, sizeof *x->cache_rows);
    edan_table_of(&x->prediction, &d[T_PREDICTION], x->total.sum.prediction, x->total.sum.n_prediction,
                  sizeof *x->total.sum.prediction);
    if (!x->views)
        return;
    add_row(t, x, &x->t[T_TOTAL], &t->total, NULL, &m);
    add_row(t, x, &x->t[T_OUTSIDE], &t->outside, "(outside loops)", &m);
    for (size_t i = 0; i < t->n_funcs; i++)
        add_row(t, x, &x->t[T_FUNCTIONS], &t->funcs[i], t->funcs[i].name ? t->funcs[i].name : EDAN_NO_FUNCTION, &m);
    for (size_t i = 0; i < t->n_loops; i++)
        add_row(t, x, &x->t[T_LOOPS], &t->loop_rows[i], NULL, &m);
    /* text: the loops and functions taking the longest, by the projection's time */
    const proj_row **order = by_time(t, t->loop_rows, t->n_loops, &m);
    for (size_t i = 0; order && i < t->n_loops && i < TEXT_ROWS; i++)
        add_row(t, x, &x->text_loops, order[i], NULL, &m);
    free(order);
    add_row(t, x, &x->text_loops, &t->outside, NULL, &m);
    order = t->have_elf ? by_time(t, t->funcs, t->n_funcs, &m) : NULL;
    for (size_t i = 0; order && i < t->n_funcs && i < TEXT_ROWS; i++)
        add_row(t, x, &x->text_funcs, order[i], NULL, &m);
    free(order);
}

static void free_tables(pj_tables *x)
{
    for (int k = 0; k < N_T; k++)
        edan_table_free(&x->t[k]);
    edan_table_free(&x->text_loops);
    edan_table_free(&x->text_funcs);
    edan_table_free(&x->lambda);
    edan_table_free(&x->levels);
    edan_table_free(&x->caches);
    edan_table_free(&x->prediction);
    free(x->lambda_rows);
    free(x->views);
}

static void report_json(proj_tool *t, const pj_tables *x, FILE *f)
{
    fputs(",\"projection\":{", f);
    edan_table_json(f, &x->t[T_TOTAL], 0);
    edan_table_json_object(f, &x->t[T_OUTSIDE]);
    proj_regions_write(t, f, true, NULL);
    proj_whatif_write(t, f, true);
    fputc('}', f);
}

/* The whole region's text: a form of its row (T_TOTAL). */
static const char summary_form[] =
    "\nprojection on machine {machine.name} ({machine.file}): ExaSAT's T = max(weighted flops / peak, DRAM bytes / "
    "bandwidth)\n"
    "  peak                      {machine.peak_gflops_per_core} Gflop/s x {machine.cores} core{cores_s}; bandwidth "
    "{machine.bandwidth_gbs_per_core} GB/s x {machine.cores} core{cores_s}\n"
    "  weights                   div {machine.div_weight}, sqrt {machine.sqrt_weight}, transcendental "
    "{machine.transcendental_weight}\n"
    "{!traffic.cache_bytes}  traffic                   cache model {traffic.cache}\n"
    "{?traffic.cache_bytes}  traffic                   fully associative LRU of {traffic.cache_bytes} KiB "
    "({traffic.line_bytes}-byte lines, write-back)\n"
    "  instructions              {instructions:0} ({loads} loads, {stores} stores, {atomics} atomics)\n"
    "  FP operations             {fp.add} add, {fp.mul} mul, {fp.fma} fma, {fp.div} div, {fp.sqrt} sqrt, {fp.other} "
    "other\n"
    "{?libm_calls}  libm calls                {transcendentals} transcendental, {sqrt_calls} sqrt "
    "({in_calls.instructions} instructions inside, {in_calls.flops} of their flops apart)\n"
    "  stack traffic             {stack.loads} loads, {stack.stores} stores ({stack_bytes} bytes)\n"
    "  flops / weighted          {flops:0} / {weighted_flops:0}\n"
    "  DRAM bytes                {dram_bytes:0} ({dram_read_bytes} read, {dram_write_bytes} written, "
    "{dirty_at_end_bytes} of them the final flush of dirty lines); {bytes_per_flop:0.4} bytes per weighted flop\n"
    "  time compute / memory     {time_compute_s:0.4} s / {time_memory_s:0.4} s\n"
    "  time                      {time_s:0.4} s ({bound:0} bound); ExaSAT's sum over loops {time_sum_of_parts_s} s\n";
/* A latency of the timing model (T_PREDICTION's rows). */
static const char prediction_form[] = "  timing model              {seconds} s at {mem_latency_ns} ns\n";

static void report_text(proj_tool *t, const edan_session *s, const pj_tables *tabs, FILE *f)
{
    edan_table_form(f, &tabs->t[T_TOTAL], summary_form);
    edan_table_form(f, &tabs->prediction, prediction_form);
    const bool wide = edan_session_options(s)->wide;
    edan_table_text(f, &tabs->text_loops, &(edan_text_view){.wide = wide});
    if (t->n_loops > TEXT_ROWS)
        fprintf(f, "  (%zu more loops; --json lists all)\n", t->n_loops - TEXT_ROWS);
    if (t->have_elf) {
        fprintf(f, "  %-34s\n", "function (by time)");
        edan_table_text(f, &tabs->text_funcs, &(edan_text_view){.wide = wide, .no_heading = true});
    }
    proj_regions_write(t, f, false, NULL);
    proj_whatif_write(t, f, false);
}

/* ===================================================================== */
/* ExaSAT's Table 1                                                       */
/* ===================================================================== */

/* ExaSAT's Table 1's rows (out[0 .. n_loops + 2)): each loop, the code outside loops, the total (computed). */
static void table1_rows(proj_tool *t, const edan_proj_machine *m, proj_exasat_row *out)
{
    edan_proj sum = {0};
    double ws_max = 0;
    for (size_t i = 0; i <= t->n_loops; i++) {
        const proj_row *r = i < t->n_loops ? &t->loop_rows[i] : &t->outside;
        const edan_proj b = proj_row_bound(t, r, t->machine_k, m);
        const double ws = r->lru.accesses ? ldexp(1.0, (int)edan_lru_working_set(&r->lru)) * (1u << t->line_shift) : 0;
        out[i] = proj_exasat(t, r, &b, ws);
        ws_max = i < t->n_loops && ws > ws_max ? ws : ws_max;
        sum.dram_bytes += b.dram_bytes;
        sum.weighted_flops += b.weighted_flops;
    }
    sum.bytes_per_flop = sum.weighted_flops > 0 ? sum.dram_bytes / sum.weighted_flops : NAN;
    sum.time = proj_sum_of_parts(t, t->machine_k, m);
    out[t->n_loops].ws_kb = edan_na(); /* ExaSAT's table has none for the code outside loops */
    out[t->n_loops + 1] = proj_exasat(t, NULL, &sum, ws_max);
    out[t->n_loops + 1].procedure = "Total/Max";
}

static void report_table(proj_tool *t, FILE *f)
{
    const edan_proj_machine m = proj_machine(t);
    proj_exasat_row *rows = calloc(t->n_loops + 2, sizeof *rows);
    edan_table tab;
    edan_table_init(&tab, &edan_projection_tables[T_EXASAT]);
    if (rows) {
        table1_rows(t, &m, rows);
        edan_table_rows_of(&tab, rows, t->n_loops + 2, sizeof *rows);
    }
    fprintf(f, "\nExaSAT's Table 1 on %s (per iteration of each loop; GB and Gflop = 10^9)\n", t->machine.name);
    edan_table_text(f, &tab, &(edan_text_view){.indent = "", .heading_always = true});
    edan_table_free(&tab);
    free(rows);
}

void edan_projection_report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    proj_tool *t = tool;
    prepare(t, s);
    if (!t->rows_made)
        return;
    if (fmt == EDAN_FORMAT_TABLE) {
        report_table(t, f);
        return;
    }
    pj_tables x = {0};
    make_tables(t, s, &x);
    if (fmt == EDAN_FORMAT_JSON)
        report_json(t, &x, f);
    else
        report_text(t, s, &x, f);
    free_tables(&x);
}
