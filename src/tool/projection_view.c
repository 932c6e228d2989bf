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
#include "report/json.h"
#include "report/names.h"
#include "report/report.h"
#include "tool/edag_tool.h"
#include "tool/functions_tool.h"
#include "tool/projection_tool.h"
#include "tool/session.h"
#include "tool/timing_tool.h"

#define TEXT_ROWS 10

static const char *const fp_names[EDAN_FP_KINDS] = {"", "add", "mul", "fma", "div", "sqrt", "other"};

/* Rows, symbols and lines, once the stream is over. */
static void prepare(proj_tool *t, const edan_session *s)
{
    if (!t->rows_made)
        t->timing = edan_timing_tool_model(s);
    if (!t->src && t->have_elf) {
        edan_error ignored = {0};
        t->src = edan_srcmap_open(edan_session_source(s)->binary, &ignored);
    }
    if (!proj_rows_make(t) && !t->err.set)
        edan_error_set(&t->err, "out of memory for the projection's rows");
}

/* ===================================================================== */
/* JSON                                                                   */
/* ===================================================================== */

static void json_num(FILE *f, const char *key, double v)
{
    fprintf(f, ",\"%s\":", key);
    edan_json_num(f, v);
}

/* A row's members (after its opening brace and first member). */
static void row_json(const proj_tool *t, FILE *f, const proj_row *r, const edan_proj_machine *m)
{
    const edan_opmix *x = &r->mix;
    fprintf(f, ",\"instructions\":%" PRIu64 ",\"classes\":{", x->instructions);
    for (int c = 0; c < EDAN_CLASS_COUNT; c++)
        fprintf(f, "%s\"%s\":%" PRIu64, c ? "," : "", edan_class_name(c), x->cls[c]);
    fputs("},\"fp\":{", f);
    for (int k = 1; k < EDAN_FP_KINDS; k++)
        fprintf(f, "%s\"%s\":%" PRIu64, k > 1 ? "," : "", fp_names[k], x->fp[k]);
    fprintf(f,
            "},\"transcendentals\":%" PRIu64 ",\"sqrt_calls\":%" PRIu64 ",\"in_calls\":{\"instructions\":%" PRIu64
            ",\"flops\":%" PRIu64 "}",
            x->transcendentals, x->sqrt_calls, x->in_calls, x->in_calls_flops);
    fprintf(f,
            ",\"loads\":%" PRIu64 ",\"stores\":%" PRIu64 ",\"atomics\":%" PRIu64 ",\"load_bytes\":%" PRIu64
            ",\"store_bytes\":%" PRIu64,
            x->loads, x->stores, x->atomics, x->load_bytes, x->store_bytes);
    fprintf(f,
            ",\"stack\":{\"loads\":%" PRIu64 ",\"stores\":%" PRIu64 ",\"load_bytes\":%" PRIu64
            ",\"store_bytes\":%" PRIu64 "}",
            x->stack_loads, x->stack_stores, x->stack_load_bytes, x->stack_store_bytes);
    double rd, wr, fl;
    proj_row_dram(t, r, t->machine_k, &rd, &wr, &fl);
    const edan_proj p = edan_proj_evaluate(x, rd + wr, m);
    json_num(f, "flops", p.flops);
    json_num(f, "weighted_flops", p.weighted_flops);
    json_num(f, "dram_read_bytes", rd);
    json_num(f, "dram_write_bytes", wr);
    json_num(f, "dirty_at_end_bytes", fl);
    json_num(f, "dram_bytes", p.dram_bytes);
    json_num(f, "bytes_per_flop", p.bytes_per_flop);
    fprintf(f, ",\"block_accesses\":%" PRIu64, r->lru.accesses);
    json_num(f, "working_set_bytes",
             r->lru.accesses ? ldexp(1.0, (int)edan_lru_working_set(&r->lru)) * (1u << t->line_shift) : 0);
    json_num(f, "peak_flops_per_s", m->peak_flops);
    json_num(f, "bandwidth_bytes_per_s", m->bandwidth);
    json_num(f, "time_compute_s", p.time_compute);
    json_num(f, "time_memory_s", p.time_memory);
    json_num(f, "time_s", p.time);
    fprintf(f, ",\"bound\":\"%s\"", p.memory_bound ? "memory" : "compute");
    fputs(",\"model_time\":", f);
    if (!t->timing) {
        fputs("null", f);
        return;
    }
    const int n = edan_timing_lanes(t->timing);
    double sec[EDAN_TIMING_MAX_LATENCIES];
    for (int k = 0; k < n; k++)
        sec[k] = r->cycles[k] / (t->machine.clock_ghz * 1e9);
    fputs("{\"cycles\":", f);
    edan_json_num_array(f, r->cycles, (size_t)n);
    fputs(",\"seconds\":", f);
    edan_json_num_array(f, sec, (size_t)n);
    fputc('}', f);
}

/* lambda of each eDAG configuration at the first m, beside the bandwidth bound. */
static void lambda_json(FILE *f, const edan_session *s)
{
    const edan_edag *e = edan_edag_tool_analysis(s);
    const edan_options *o = edan_session_options(s);
    fputs(",\"lambda\":[", f);
    for (int k = 0; e && k < edan_edag_n_lanes(e); k++) {
        edan_metrics mt;
        edan_metrics_compute(edan_edag_lane(e, k), edan_edag_get_config(e)->lane[k].cost.alpha, &o->metrics, &mt);
        char label[256];
        edan_report_lane_label(e, k, label, sizeof label);
        fprintf(f, "%s{\"configuration\":", k ? "," : "");
        edan_json_str(f, label);
        fprintf(f, ",\"m\":%" PRIu64 ",\"W\":%" PRIu64 ",\"D\":%" PRIu64, mt.per_m[0].m, edan_edag_lane(e, k)->W,
                edan_edag_lane(e, k)->D);
        json_num(f, "lambda", mt.per_m[0].lambda);
        fputc('}', f);
    }
    fputc(']', f);
}

static void prediction_json(FILE *f, const edan_session *s)
{
    const edan_timing *tm = edan_timing_tool_model(s);
    fputs(",\"prediction\":", f);
    if (!tm) {
        fputs("null", f);
        return;
    }
    double lat[EDAN_TIMING_MAX_LATENCIES], sec[EDAN_TIMING_MAX_LATENCIES];
    const int n = edan_timing_lanes(tm);
    for (int k = 0; k < n; k++) {
        lat[k] = edan_timing_lane_get(tm, k).mem_latency_ns;
        sec[k] = edan_timing_lane_get(tm, k).seconds;
    }
    fputs("{\"mem_latency_ns\":", f);
    edan_json_num_array(f, lat, (size_t)n);
    fputs(",\"seconds\":", f);
    edan_json_num_array(f, sec, (size_t)n);
    fputc('}', f);
}

/* The smallest k at which a cache of 2^k lines holds every line the region touched: no eviction, the traffic final. */
static unsigned holds_all(const proj_tool *t)
{
    const uint64_t blocks = edan_reuse_blocks(t->tracker);
    unsigned k = 0;
    while (k + 1 < EDAN_LRU_SIZES && (1ull << k) < blocks)
        k++;
    return k;
}

/*
 * The traffic of every fully associative cache size, up to the one that
 * holds every line (reads stop falling at the working set, the writes
 * there: beyond it every dirty line is written once, by the final flush).
 */
static void curve_json(const proj_tool *t, FILE *f)
{
    const unsigned ws = edan_lru_working_set(&t->total.lru), all = holds_all(t);
    const unsigned top = ws > all ? ws : all;
    fputs(",\"traffic_curve\":{\"cache_bytes\":[", f);
    for (unsigned k = 0; k <= top && k < EDAN_LRU_SIZES; k++)
        fprintf(f, "%s%.0f", k ? "," : "", ldexp(1.0, (int)(k + t->line_shift)));
    fputs("],\"read_bytes\":[", f);
    for (unsigned k = 0; k <= top && k < EDAN_LRU_SIZES; k++)
        fprintf(f, "%s%.0f", k ? "," : "", (double)edan_lru_reads(&t->total.lru, k) * (1u << t->line_shift));
    fputs("],\"write_bytes\":[", f);
    for (unsigned k = 0; k <= top && k < EDAN_LRU_SIZES; k++)
        fprintf(f, "%s%.0f", k ? "," : "", (double)edan_lru_writes(&t->total.lru, k) * (1u << t->line_shift));
    fputs("],\"dirty_at_end_bytes\":[", f);
    for (unsigned k = 0; k <= top && k < EDAN_LRU_SIZES; k++)
        fprintf(f, "%s%.0f", k ? "," : "", (double)edan_lru_dirty_at_end(&t->total.lru, k) * (1u << t->line_shift));
    fputs("]}", f);
}

/* The traffic below each data level of the machine: a fully associative LRU cache of its size (the machine's lines). */
static void levels_json(const proj_tool *t, FILE *f)
{
    static const char *const names[EDAN_MACHINE_MAX_DATA_LEVELS] = {"l1d", "l2", "l3"};
    const double line = (double)(1u << t->line_shift);
    fputs(",\"levels\":[", f);
    for (int l = 0; l < t->machine.n_data_levels; l++) {
        const uint64_t size = t->machine.data[l].geo.size;
        const unsigned k = size >> t->line_shift ? 63u - (unsigned)__builtin_clzll(size >> t->line_shift) : 0;
        fprintf(f, "%s{\"name\":\"%s\",\"cache_bytes\":%" PRIu64, l ? "," : "", names[l], size);
        json_num(f, "read_bytes", (double)edan_lru_reads(&t->total.lru, k) * line);
        json_num(f, "write_bytes", (double)edan_lru_writes(&t->total.lru, k) * line);
        json_num(f, "dirty_at_end_bytes", (double)edan_lru_dirty_at_end(&t->total.lru, k) * line);
        fputc('}', f);
    }
    fputc(']', f);
}

static void report_json(proj_tool *t, const edan_session *s, FILE *f)
{
    const edan_machine *mc = &t->machine;
    const edan_proj_machine m = proj_machine(t);
    fputs(",\"projection\":{\"machine\":{\"name\":", f);
    edan_json_str(f, mc->name);
    fputs(",\"file\":", f);
    edan_json_str(f, t->machine_path);
    json_num(f, "peak_gflops_per_core", mc->peak_gflops);
    json_num(f, "bandwidth_gbs_per_core", mc->mem_bandwidth_gbs);
    fprintf(f, ",\"cores\":%u", mc->cores);
    json_num(f, "div_weight", mc->div_weight);
    json_num(f, "sqrt_weight", mc->sqrt_weight);
    json_num(f, "transcendental_weight", mc->transcendental_weight);
    fprintf(f, "},\"traffic\":{\"source\":\"%s\",\"cache\":", t->n_models ? "cache" : "lru");
    if (t->n_models) {
        edan_json_str(f, t->model_label[0]);
        fputs(",\"cache_bytes\":null", f);
    } else {
        char label[96];
        snprintf(label, sizeof label, "fully associative LRU, %.0f bytes, line=%u, write=back, alloc=yes",
                 ldexp(1.0, (int)(t->machine_k + t->line_shift)), 1u << t->line_shift);
        edan_json_str(f, label);
        json_num(f, "cache_bytes", ldexp(1.0, (int)(t->machine_k + t->line_shift)));
    }
    fprintf(f, ",\"line_bytes\":%u}", 1u << t->line_shift);
    row_json(t, f, &t->total, &m);
    json_num(f, "time_sum_of_parts_s", proj_sum_of_parts(t, t->machine_k, &m));
    lambda_json(f, s);
    prediction_json(f, s);
    curve_json(t, f);
    levels_json(t, f);
    fputs(",\"caches\":[", f);
    for (int c = 0; c < t->n_models; c++) {
        const double rd = (double)t->total.model_read[c], wr = (double)t->total.model_write[c];
        const edan_proj p = edan_proj_evaluate(&t->total.mix, rd + wr, &m);
        fprintf(f, "%s{\"cache\":", c ? "," : "");
        edan_json_str(f, t->model_label[c]);
        json_num(f, "dram_read_bytes", rd);
        json_num(f, "dram_write_bytes", wr);
        json_num(f, "dirty_at_end_bytes", (double)t->total.model_flush[c]);
        json_num(f, "dram_bytes", rd + wr);
        json_num(f, "time_memory_s", p.time_memory);
        json_num(f, "time_s", p.time);
        fprintf(f, ",\"bound\":\"%s\"}", p.memory_bound ? "memory" : "compute");
    }
    fputs("],\"functions\":", f);
    if (!t->have_elf) {
        fputs("null", f);
    } else {
        fputc('[', f);
        for (size_t i = 0; i < t->n_funcs; i++) {
            fputs(i ? ",{\"name\":" : "{\"name\":", f);
            edan_json_str(f, t->funcs[i].name ? t->funcs[i].name : "(outside known functions)");
            row_json(t, f, &t->funcs[i], &m);
            /* the latency view beside the bounds: lambda from the per-function breakdown, when it names it */
            double lambda[2];
            if (edan_functions_tool_lambda(s, t->funcs[i].name, lambda)) {
                fputs(",\"lambda\":{\"exclusive\":", f);
                edan_json_num(f, lambda[0]);
                fputs(",\"inclusive\":", f);
                edan_json_num(f, lambda[1]);
                fputc('}', f);
            } else {
                fputs(",\"lambda\":null", f);
            }
            fputc('}', f);
        }
        fputc(']', f);
    }
    fputs(",\"loops\":[", f);
    for (size_t i = 0; i < t->n_loops; i++) {
        const proj_row *r = &t->loop_rows[i];
        const edan_loop *l = edan_loops_get(t->loops, (uint32_t)r->loop);
        const edan_loop_place where = proj_loop_place(t, r->loop);
        fprintf(f, "%s{\"id\":%d,\"function\":", i ? "," : "", r->loop);
        edan_json_str(f, where.function);
        fputs(",\"file\":", f);
        edan_json_str(f, where.file);
        fprintf(f,
                ",\"line\":%u,\"head\":%" PRIu64 ",\"end\":%" PRIu64
                ",\"depth\":%u,\"parent\":%d,\"iterations\":%" PRIu64 ",\"back_edges\":%" PRIu64,
                where.line, l->head, l->end, l->depth, l->parent, r->iterations, l->back_edges);
        row_json(t, f, r, &m);
        fputc('}', f);
    }
    fputs("],\"outside_loops\":{\"name\":\"(outside loops)\"", f);
    row_json(t, f, &t->outside, &m);
    fputc('}', f);
    proj_regions_json(t, f);
    proj_whatif_json(t, f);
    fputc('}', f);
}

/* ===================================================================== */
/* Text                                                                   */
/* ===================================================================== */

/* "kernel:17" for a loop, a function's name */
static void row_name(proj_tool *t, const proj_row *r, char *buf, size_t cap)
{
    if (r->loop < 0) {
        snprintf(buf, cap, "%s", r == &t->outside ? "(outside loops)" : r->name ? r->name : "(outside functions)");
        return;
    }
    const edan_loop_place p = proj_loop_place(t, r->loop);
    const char *base = p.file ? strrchr(p.file, '/') : NULL;
    snprintf(buf, cap, "#%d %s:%u (%s)", r->loop,
             base     ? base + 1
             : p.file ? p.file
                      : "?",
             p.line, p.function ? p.function : "?");
}

static void text_row(proj_tool *t, FILE *f, const proj_row *r, const edan_proj_machine *m, bool wide)
{
    char name[1100];
    row_name(t, r, name, sizeof name);
    const edan_proj p = proj_row_bound(t, r, t->machine_k, m);
    fputs("  ", f);
    edan_name_field(f, name, 34, wide);
    fprintf(f, " %12" PRIu64 " %12.0f %12.0f %13.0f %7.3g %10.3g %10.3g %10.3g %-*s", r->mix.instructions, p.flops,
            p.weighted_flops, p.dram_bytes, p.bytes_per_flop, p.time_compute, p.time_memory, p.time, t->timing ? 7 : 0,
            p.memory_bound ? "memory" : "compute");
    if (t->timing) /* the timing model's time at its first latency */
        fprintf(f, " %10.3g", r->cycles[0] / (t->machine.clock_ghz * 1e9));
    fputc('\n', f);
}

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

static void report_text(proj_tool *t, const edan_session *s, FILE *f)
{
    const edan_machine *mc = &t->machine;
    const edan_proj_machine m = proj_machine(t);
    const edan_opmix *x = &t->total.mix;
    fprintf(f, "\nprojection on machine %s (%s): ExaSAT's T = max(weighted flops / peak, DRAM bytes / bandwidth)\n",
            mc->name, t->machine_path);
    fprintf(f, "  peak                      %g Gflop/s x %u core%s; bandwidth %g GB/s x %u core%s\n", mc->peak_gflops,
            mc->cores, mc->cores == 1 ? "" : "s", mc->mem_bandwidth_gbs, mc->cores, mc->cores == 1 ? "" : "s");
    fprintf(f, "  weights                   div %g, sqrt %g, transcendental %g\n", mc->div_weight, mc->sqrt_weight,
            mc->transcendental_weight);
    if (t->n_models)
        fprintf(f, "  traffic                   cache model %s\n", t->model_label[0]);
    else
        fprintf(f, "  traffic                   fully associative LRU of %.0f KiB (%u-byte lines, write-back)\n",
                ldexp(1.0, (int)(t->machine_k + t->line_shift)) / 1024, 1u << t->line_shift);
    fprintf(f, "  instructions              %" PRIu64 " (%" PRIu64 " loads, %" PRIu64 " stores, %" PRIu64 " atomics)\n",
            x->instructions, x->loads, x->stores, x->atomics);
    fprintf(f,
            "  FP operations             %" PRIu64 " add, %" PRIu64 " mul, %" PRIu64 " fma, %" PRIu64 " div, %" PRIu64
            " sqrt, %" PRIu64 " other\n",
            x->fp[EDAN_FP_ADD], x->fp[EDAN_FP_MUL], x->fp[EDAN_FP_FMA], x->fp[EDAN_FP_DIV], x->fp[EDAN_FP_SQRT],
            x->fp[EDAN_FP_OTHER]);
    if (x->transcendentals || x->sqrt_calls)
        fprintf(f,
                "  libm calls                %" PRIu64 " transcendental, %" PRIu64 " sqrt (%" PRIu64
                " instructions inside, %" PRIu64 " of their flops apart)\n",
                x->transcendentals, x->sqrt_calls, x->in_calls, x->in_calls_flops);
    fprintf(f, "  stack traffic             %" PRIu64 " loads, %" PRIu64 " stores (%" PRIu64 " bytes)\n",
            x->stack_loads, x->stack_stores, x->stack_load_bytes + x->stack_store_bytes);
    const edan_proj p = proj_row_bound(t, &t->total, t->machine_k, &m);
    double rd, wr, fl;
    proj_row_dram(t, &t->total, t->machine_k, &rd, &wr, &fl);
    fprintf(f, "  flops / weighted          %.0f / %.0f\n", p.flops, p.weighted_flops);
    fprintf(f,
            "  DRAM bytes                %.0f (%.0f read, %.0f written, %.0f of them the final flush of dirty lines); "
            "%.4g bytes per weighted flop\n",
            p.dram_bytes, rd, wr, fl, p.bytes_per_flop);
    fprintf(f, "  time compute / memory     %.4g s / %.4g s\n", p.time_compute, p.time_memory);
    fprintf(f, "  time                      %.4g s (%s bound); ExaSAT's sum over loops %.4g s\n", p.time,
            p.memory_bound ? "memory" : "compute", proj_sum_of_parts(t, t->machine_k, &m));
    const edan_timing *tm = edan_timing_tool_model(s);
    for (int k = 0; tm && k < edan_timing_lanes(tm); k++)
        fprintf(f, "  timing model              %.4g s at %g ns\n", edan_timing_lane_get(tm, k).seconds,
                edan_timing_lane_get(tm, k).mem_latency_ns);
    fprintf(f, "  %-34s %12s %12s %12s %13s %7s %10s %10s %10s %-*s", "loop (by time)", "instructions", "flops",
            "weighted", "DRAM bytes", "B/F", "T_c s", "T_d s", "T s", t->timing ? 7 : 0, "bound");
    if (t->timing)
        fprintf(f, " %10s", "model s");
    fputc('\n', f);
    const proj_row **order = by_time(t, t->loop_rows, t->n_loops, &m);
    for (size_t i = 0; order && i < t->n_loops && i < TEXT_ROWS; i++)
        text_row(t, f, order[i], &m, edan_session_options(s)->wide);
    free(order);
    text_row(t, f, &t->outside, &m, edan_session_options(s)->wide);
    if (t->n_loops > TEXT_ROWS)
        fprintf(f, "  (%zu more loops; --json lists all)\n", t->n_loops - TEXT_ROWS);
    if (t->have_elf) {
        fprintf(f, "  %-34s\n", "function (by time)");
        order = by_time(t, t->funcs, t->n_funcs, &m);
        for (size_t i = 0; order && i < t->n_funcs && i < TEXT_ROWS; i++)
            text_row(t, f, order[i], &m, edan_session_options(s)->wide);
        free(order);
    }
    proj_regions_text(t, f);
    proj_whatif_text(t, f);
}

/* ===================================================================== */
/* ExaSAT's Table 1                                                       */
/* ===================================================================== */

static void table_row(proj_tool *t, FILE *f, const proj_row *r, const edan_proj_machine *m)
{
    const edan_loop_place p = proj_loop_place(t, r->loop);
    const edan_opmix *x = &r->mix;
    const double it = r->iterations ? (double)r->iterations : 1;
    const edan_proj b = proj_row_bound(t, r, t->machine_k, m);
    const double ws = r->lru.accesses ? ldexp(1.0, (int)edan_lru_working_set(&r->lru)) * (1u << t->line_shift) : 0;
    /* ExaSAT's columns: an FMA is one add and one multiply; square roots and libm calls are its "Exp" */
    fprintf(f, "%-16.16s %6u %12" PRIu64 " %8.2f %8.2f %8.2f %8.2f %12.4g %12.4g %14.4g %8.3g %12.4g\n",
            p.function ? p.function : "?", p.line, r->iterations,
            (double)(x->fp[EDAN_FP_ADD] + x->fp[EDAN_FP_FMA]) / it,
            (double)(x->fp[EDAN_FP_MUL] + x->fp[EDAN_FP_FMA]) / it, (double)x->fp[EDAN_FP_DIV] / it,
            (double)(x->fp[EDAN_FP_SQRT] + x->sqrt_calls + x->transcendentals) / it, ws / 1024, b.dram_bytes / 1e9,
            b.weighted_flops / 1e9, b.bytes_per_flop, b.time * 1e3);
}

static void report_table(proj_tool *t, FILE *f)
{
    const edan_proj_machine m = proj_machine(t);
    fprintf(f, "\nExaSAT's Table 1 on %s (per iteration of each loop; GB and Gflop = 10^9)\n", t->machine.name);
    fprintf(f, "%-16s %6s %12s %8s %8s %8s %8s %12s %12s %14s %8s %12s\n", "Procedure", "Line", "Iterations", "Add",
            "Mul", "Div", "Exp", "WS (kB)", "Traffic GB", "Weighted Gflop", "B:F", "Time (ms)");
    double ws = 0, bytes = 0, wflops = 0;
    for (size_t i = 0; i < t->n_loops; i++) {
        const proj_row *r = &t->loop_rows[i];
        table_row(t, f, r, &m);
        const edan_proj b = proj_row_bound(t, r, t->machine_k, &m);
        const double w = r->lru.accesses ? ldexp(1.0, (int)edan_lru_working_set(&r->lru)) * (1u << t->line_shift) : 0;
        ws = w > ws ? w : ws;
        bytes += b.dram_bytes;
        wflops += b.weighted_flops;
    }
    const edan_proj out = proj_row_bound(t, &t->outside, t->machine_k, &m);
    fprintf(f, "%-16s %6s %12s %8s %8s %8s %8s %12s %12.4g %14.4g %8.3g %12.4g\n", "(outside loops)", "", "", "", "",
            "", "", "", out.dram_bytes / 1e9, out.weighted_flops / 1e9, out.bytes_per_flop, out.time * 1e3);
    bytes += out.dram_bytes;
    wflops += out.weighted_flops;
    fprintf(f, "%-16s %6s %12s %8s %8s %8s %8s %12.4g %12.4g %14.4g %8.3g %12.4g\n", "Total/Max", "", "", "", "", "",
            "", ws / 1024, bytes / 1e9, wflops / 1e9, wflops > 0 ? bytes / wflops : NAN,
            proj_sum_of_parts(t, t->machine_k, &m) * 1e3);
}

void edan_projection_report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    proj_tool *t = tool;
    prepare(t, s);
    if (!t->rows_made)
        return;
    if (fmt == EDAN_FORMAT_JSON)
        report_json(t, s, f);
    else if (fmt == EDAN_FORMAT_TABLE)
        report_table(t, f);
    else
        report_text(t, s, f);
}
