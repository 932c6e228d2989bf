/*
 * projection_sweep.c - the projection over many machines from one pass:
 * every combination of the sweep's cache sizes, bandwidths, peak rates,
 * cores and weights (each the machine's own value unless a list is given),
 * written as CSV in the form of ExaSAT's spreadsheet (its Table 1: per loop,
 * flops per iteration, working set, traffic, weighted flops, B:F, time; and
 * the totals), and plots: a roofline with each loop as a point, the
 * region's time against cache size and against bandwidth.
 *
 * A configuration costs arithmetic only: each row's traffic at each swept
 * cache size is read off its stack-distance counts once (the cache model's
 * traffic of --cache is for the single projection, not the sweep).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/csv.h"
#include "report/plot.h"
#include "tool/base/base.h"
#include "tool/graph/projection_tool.h"
#include "tool/graph/timing_tool.h"
#include "util/files.h"
#include "util/parse.h"

const char *const proj_dim_option[PROJ_SWEEP_DIMS] = {
    "projection-cache", "projection-bandwidth", "projection-peak",           "projection-cores",
    "projection-div",   "projection-sqrt",      "projection-transcendental",
};

/* ===================================================================== */
/* Lists                                                                  */
/* ===================================================================== */

static const char *const dim_what[PROJ_SWEEP_DIMS] = {
    "cache sizes in bytes, powers of two like 32K, 1M or 4K..64M",
    "memory bandwidths in GB/s per core, above 0 and at most 10^9, like 10,20 or 1..256",
    "peak rates in Gflop/s per core, above 0 and at most 10^9, like 10 or 1..64",
    "core counts from 1 to 1048576, like 1,2,4 or 1..64",
    "division weights from 1 to 10^6, like 39 or 20,39,60",
    "square-root weights from 1 to 10^6, like 39",
    "transcendental weights from 1 to 10^6, like 125",
};

/* One value of dimension d, s[0..len); 0, or -1 when it is not one. */
static int parse_value(int d, const char *s, size_t len, double *out)
{
    if (d == DIM_CACHE) {
        uint64_t u;
        if (edan_parse_size(s, len, &u) || !u || (u & (u - 1)) || u > (1ull << 50))
            return -1;
        *out = (double)u;
        return 0;
    }
    double v;
    if (edan_parse_double_n(s, len, &v) || !(v > 0))
        return -1;
    if (d == DIM_CORES && (v != floor(v) || v > (1 << 20)))
        return -1;
    if (d >= DIM_DIV && (v < 1 || v > 1e6))
        return -1;
    if (v > 1e9)
        return -1;
    *out = v;
    return 0;
}

int proj_dim_parse(int d, const char *v, proj_dim *out, edan_error *err)
{
    out->n = 0;
    const char *p = v ? v : "";
    if (!*p) {
        edan_error_set(err, "--%s: a list of %s", proj_dim_option[d], dim_what[d]);
        return -1;
    }
    const char *tok;
    size_t len;
    int rc;
    while ((rc = edan_list_next(&p, ",", &tok, &len)) > 0) {
        const char *dots = NULL, *const q = tok;
        for (size_t i = 0; i + 1 < len; i++)
            if (q[i] == '.' && q[i + 1] == '.')
                dots = q + i;
        double a, b;
        bool ok;
        if (dots) { /* A..B: A, 2A, 4A, ... up to B */
            ok = !parse_value(d, q, (size_t)(dots - q), &a) &&
                 !parse_value(d, dots + 2, len - (size_t)(dots - q) - 2, &b) && a <= b;
            for (double x = a; ok && x <= b * (1 + 1e-12); x *= 2) {
                ok = out->n < PROJ_SWEEP_VALUES && (d != DIM_CORES || x <= (1 << 20));
                if (ok)
                    out->v[out->n++] = x;
            }
        } else {
            ok = !parse_value(d, q, len, &a) && out->n < PROJ_SWEEP_VALUES;
            if (ok)
                out->v[out->n++] = a;
        }
        if (!ok) {
            edan_error_set(err, "--%s: '%.*s' is not in a list of %s (at most %d values)", proj_dim_option[d], (int)len,
                           q, dim_what[d], PROJ_SWEEP_VALUES);
            return -1;
        }
    }
    if (rc < 0) {
        edan_error_set(err, "--%s: an empty element in '%s' (values are separated by one ',')", proj_dim_option[d], v);
        return -1;
    }
    return 0;
}

/* ===================================================================== */
/* The sweep                                                              */
/* ===================================================================== */

/* What a row needs for any configuration: its flops by weight, and its DRAM bytes at every swept cache size. */
typedef struct sweep_row {
    const proj_row *row;
    double plain, div, sqrt, tr; /* weighted flops = plain + div x w_div + sqrt x w_sqrt + tr x w_tr */
    double flops;
    double *bytes;                              /* per value of the cache dimension */
    double upper[EDAN_MACHINE_MAX_DATA_LEVELS]; /* at each level above the last, its size */
} sweep_row;

static double bytes_at(const proj_tool *t, const proj_row *r, double cache)
{
    const unsigned k = (unsigned)log2(cache) - t->line_shift;
    const double line = (double)(1u << t->line_shift);
    return (double)(edan_lru_reads(&r->lru, k) + edan_lru_writes(&r->lru, k)) * line;
}

static bool sweep_rows(const proj_tool *t, const proj_dim *caches, sweep_row **out, size_t *n_out)
{
    const size_t n = t->n_loops + 1;
    sweep_row *s = calloc(n, sizeof *s);
    double *bytes = calloc(n * (size_t)caches->n, sizeof *bytes);
    if (!s || !bytes) {
        free(s);
        free(bytes);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const proj_row *r = i < t->n_loops ? &t->loop_rows[i] : &t->outside;
        const edan_opmix *x = &r->mix;
        s[i].row = r;
        s[i].plain = (double)(x->fp[EDAN_FP_ADD] + x->fp[EDAN_FP_MUL] + 2 * x->fp[EDAN_FP_FMA]);
        s[i].div = (double)x->fp[EDAN_FP_DIV];
        s[i].sqrt = (double)(x->fp[EDAN_FP_SQRT] + x->sqrt_calls);
        s[i].tr = (double)x->transcendentals;
        s[i].flops = (double)edan_opmix_flops(x);
        s[i].bytes = bytes + i * (size_t)caches->n;
        for (int c = 0; c < caches->n; c++)
            s[i].bytes[c] = bytes_at(t, r, caches->v[c]);
        for (int l = 0; l + 1 < t->machine.n_data_levels; l++)
            s[i].upper[l] = bytes_at(t, r, (double)t->machine.data[l].geo.size);
    }
    *out = s;
    *n_out = n;
    return true;
}

static void sweep_rows_free(sweep_row *s)
{
    if (s)
        free(s[0].bytes);
    free(s);
}

/* One configuration's value of every dimension: idx[d] indexes t->dim[d]. */
static void config_values(const proj_tool *t, const int *idx, double *v)
{
    for (int d = 0; d < PROJ_SWEEP_DIMS; d++)
        v[d] = t->dim[d].v[idx[d]];
}

/* A row's bound under configuration v (cache index c). */
static edan_proj sweep_bound(const sweep_row *s, const double *v, int c)
{
    const double w = s->plain + s->div * v[DIM_DIV] + s->sqrt * v[DIM_SQRT] + s->tr * v[DIM_TRANSCENDENTAL];
    return edan_proj_bound(s->flops, w, s->bytes[c], v[DIM_PEAK] * 1e9 * v[DIM_CORES],
                           v[DIM_BANDWIDTH] * 1e9 * v[DIM_CORES]);
}

proj_exasat_row proj_exasat(proj_tool *t, const proj_row *r, const edan_proj *p, double ws)
{
    const double na = edan_na();
    proj_exasat_row e = {.procedure = "(outside loops)",
                         .line = na,
                         .loop = na,
                         .iterations = na,
                         .add = na,
                         .mul = na,
                         .div = na,
                         .exp = na,
                         .level_gb = {na, na, na}};
    if (r && r->loop >= 0) {
        const edan_loop_place where = proj_loop_place(t, r->loop);
        const edan_opmix *x = &r->mix;
        const double it = r->iterations ? (double)r->iterations : 1;
        e.procedure = where.function ? where.function : "?";
        e.line = where.line;
        e.loop = r->loop;
        e.iterations = (double)r->iterations;
        e.add = (double)(x->fp[EDAN_FP_ADD] + x->fp[EDAN_FP_FMA]) / it;
        e.mul = (double)(x->fp[EDAN_FP_MUL] + x->fp[EDAN_FP_FMA]) / it;
        e.div = (double)x->fp[EDAN_FP_DIV] / it;
        e.exp = (double)(x->fp[EDAN_FP_SQRT] + x->sqrt_calls + x->transcendentals) / it;
    }
    e.ws_kb = ws / 1024;
    e.traffic_gb = p->dram_bytes / 1e9;
    e.weighted_gflop = p->weighted_flops / 1e9;
    e.bytes_per_flop = p->bytes_per_flop;
    e.time_compute_ms = p->time_compute * 1e3;
    e.time_memory_ms = p->time_memory * 1e3;
    e.time_ms = p->time * 1e3;
    e.bound = p->memory_bound ? "memory" : "compute";
    return e;
}

/*
 * The traffic below each data level of the machine, bytes: the levels above
 * the last at their own sizes (upper), the last at the configuration's cache
 * (last); NaN for a level the machine lacks. Each level is a fully
 * associative LRU cache of its size on the whole stream (the LRU stacks'
 * inclusion: what a level misses, every smaller one misses too).
 */
static void levels_gb(const proj_tool *t, const double *upper, double last, double *gb)
{
    for (int l = 0; l < EDAN_MACHINE_MAX_DATA_LEVELS; l++)
        gb[l] = l + 1 < t->machine.n_data_levels    ? upper[l] / 1e9
                : l + 1 == t->machine.n_data_levels ? last / 1e9
                                                    : edan_na();
}

/*
 * The sweep's rows at configuration idx (out[0 .. n]): each loop's and the
 * code outside loops' (s[0 .. n)), then ExaSAT's Total/Max: sums, the
 * largest working set, the sum of the parts' times, and the bound of the
 * parts that take the larger share of that time.
 */
static void sweep_config(proj_tool *t, const sweep_row *s, size_t n, const int *idx, long config, proj_exasat_row *out)
{
    double v[PROJ_SWEEP_DIMS];
    config_values(t, idx, v);
    double ws_max = 0, sum_up[EDAN_MACHINE_MAX_DATA_LEVELS] = {0}, t_memory_bound = 0;
    edan_proj sum = {0};
    for (size_t i = 0; i < n; i++) {
        const proj_row *r = s[i].row;
        const edan_proj p = sweep_bound(&s[i], v, idx[DIM_CACHE]);
        const double ws =
            r->lru.accesses ? ldexp((double)(1u << t->line_shift), (int)edan_lru_working_set(&r->lru)) : 0;
        sum.time += p.time;
        sum.time_compute += p.time_compute;
        sum.time_memory += p.time_memory;
        t_memory_bound += p.memory_bound ? p.time : 0;
        sum.dram_bytes += p.dram_bytes;
        sum.weighted_flops += p.weighted_flops;
        ws_max = ws > ws_max ? ws : ws_max;
        out[i] = proj_exasat(t, r, &p, ws);
        levels_gb(t, s[i].upper, p.dram_bytes, out[i].level_gb);
        for (int l = 0; l + 1 < t->machine.n_data_levels; l++)
            sum_up[l] += s[i].upper[l];
    }
    sum.bytes_per_flop = sum.weighted_flops > 0 ? sum.dram_bytes / sum.weighted_flops : NAN;
    sum.memory_bound = 2 * t_memory_bound >= sum.time;
    out[n] = proj_exasat(t, NULL, &sum, ws_max);
    out[n].procedure = "Total/Max";
    levels_gb(t, sum_up, sum.dram_bytes, out[n].level_gb);
    for (size_t i = 0; i <= n; i++) {
        out[i].config = (uint64_t)config;
        memcpy(out[i].machine, v, sizeof v);
    }
}

/* The next configuration of the sweep (the last dimension turns fastest): false after the last. */
static bool next_config(const proj_tool *t, int *idx)
{
    int d = PROJ_SWEEP_DIMS - 1;
    while (d >= 0 && ++idx[d] == t->dim[d].n)
        idx[d--] = 0;
    return d >= 0;
}

/* The CSV of ExaSAT's spreadsheet: a table of each configuration's rows in turn. */
static int write_csv(proj_tool *t, const sweep_row *s, size_t n, edan_error *err)
{
    proj_exasat_row *rows = calloc(n + 1, sizeof *rows);
    edan_table tab;
    edan_table_init(&tab, &edan_projection_tables[T_EXASAT]);
    edan_csv csv;
    int idx[PROJ_SWEEP_DIMS] = {0}, rc = -1;
    if (!rows)
        edan_error_set(err, "out of memory for the sweep");
    else if (!edan_table_csv_open(&csv, &tab, t->csv_path, "--projection-csv", err)) {
        long config = 1;
        do {
            sweep_config(t, s, n, idx, config++, rows);
            edan_table_clear(&tab);
            edan_table_rows_of(&tab, rows, n + 1, sizeof *rows);
            edan_table_csv_rows(&csv, &tab);
        } while (!tab.failed && next_config(t, idx));
        if (tab.failed) {
            edan_output_abort(&csv.out);
            edan_error_set(err, "out of memory for the sweep");
        } else {
            rc = edan_csv_close(&csv, err);
        }
    }
    edan_table_free(&tab);
    free(rows);
    return rc;
}

/* ===================================================================== */
/* Plots                                                                  */
/* ===================================================================== */

/* The machine's own configuration, with the cache value c (an index into caches). */
static void machine_values(const proj_tool *t, double cache, double bandwidth, double *v)
{
    const edan_machine *m = &t->machine;
    v[DIM_CACHE] = cache;
    v[DIM_BANDWIDTH] = bandwidth;
    v[DIM_PEAK] = m->peak_gflops;
    v[DIM_CORES] = m->cores;
    v[DIM_DIV] = m->div_weight;
    v[DIM_SQRT] = m->sqrt_weight;
    v[DIM_TRANSCENDENTAL] = m->transcendental_weight;
}

/* The region's times (ExaSAT's sum over its parts, memory and compute of the whole) over caches or bandwidths. */
static int plot_times(proj_tool *t, const char *dir, const char *name, const char *ident, bool over_cache,
                      edan_error *err)
{
    proj_dim *xs = calloc(1, sizeof *xs);
    if (!xs) {
        edan_error_set(err, "out of memory");
        return -1;
    }
    const double line = (double)(1u << t->line_shift), own_cache = ldexp(line, (int)t->machine_k);
    const double own_bw = t->machine.mem_bandwidth_gbs;
    const proj_dim *swept = &t->dim[over_cache ? DIM_CACHE : DIM_BANDWIDTH];
    if (swept->n > 1) {
        *xs = *swept;
    } else if (over_cache) { /* from one line to a cache that holds every line, at least to the machine's cache */
        unsigned top = edan_lru_working_set(&t->total.lru) + 1;
        while (top + 1 < EDAN_LRU_SIZES && (1ull << top) < edan_reuse_blocks(t->tracker))
            top++;
        for (unsigned k = 0; k < EDAN_LRU_SIZES && (k <= top || ldexp(line, (int)k) <= own_cache); k++)
            xs->v[xs->n++] = ldexp(line, (int)k);
    } else {
        for (int e = -4; e <= 4; e++)
            xs->v[xs->n++] = ldexp(own_bw, e);
    }
    proj_dim caches = {1, {own_cache}};
    const proj_dim *cd = over_cache ? xs : &caches;
    sweep_row *s;
    size_t n;
    double *y = calloc(3 * (size_t)xs->n, sizeof *y);
    if (!y || !sweep_rows(t, cd, &s, &n)) {
        free(y);
        free(xs);
        edan_error_set(err, "out of memory");
        return -1;
    }
    sweep_row total = {&t->total, 0, 0, 0, 0, 0, NULL, {0}};
    double *tb = calloc((size_t)cd->n, sizeof *tb);
    for (int c = 0; tb && c < cd->n; c++)
        tb[c] = bytes_at(t, &t->total, cd->v[c]);
    const edan_opmix *x = &t->total.mix;
    total.plain = (double)(x->fp[EDAN_FP_ADD] + x->fp[EDAN_FP_MUL] + 2 * x->fp[EDAN_FP_FMA]);
    total.div = (double)x->fp[EDAN_FP_DIV];
    total.sqrt = (double)(x->fp[EDAN_FP_SQRT] + x->sqrt_calls);
    total.tr = (double)x->transcendentals;
    total.flops = (double)edan_opmix_flops(x);
    total.bytes = tb;
    for (int i = 0; tb && i < xs->n; i++) {
        double v[PROJ_SWEEP_DIMS];
        machine_values(t, over_cache ? xs->v[i] : own_cache, over_cache ? own_bw : xs->v[i], v);
        const int c = over_cache ? i : 0;
        for (size_t r = 0; r < n; r++)
            y[i] += sweep_bound(&s[r], v, c).time;
        const edan_proj p = sweep_bound(&total, v, c);
        y[xs->n + i] = p.time_memory;
        y[2 * xs->n + i] = p.time_compute;
    }
    int rc = -1;
    if (tb) {
        const edan_plot_xy_spec spec = {
            over_cache ? "projection-cache" : "projection-bandwidth",
            over_cache ? "Projected time against cache size" : "Projected time against memory bandwidth",
            over_cache ? "fully associative LRU cache (bytes)" : "memory bandwidth per core (GB/s)",
            "seconds",
            true,
            true,
            3,
            {"ExaSAT time (sum over loops)", "memory time of the region", "compute time of the region"},
            (size_t)xs->n,
            xs->v,
            {y, y + xs->n, y + 2 * xs->n},
            ident,
            over_cache ? EDAN_AXIS_BYTES : EDAN_AXIS_PLAIN,
            EDAN_AXIS_PLAIN,
            false,
        };
        rc = edan_plot_xy(dir, name, &spec, err);
    } else {
        edan_error_set(err, "out of memory");
    }
    free(tb);
    free(y);
    sweep_rows_free(s);
    free(xs);
    return rc;
}

/* Each loop (and the code outside loops) at its intensity and attainable rate on the machine. */
static int plot_roofline(proj_tool *t, const char *dir, const char *name, const char *ident, edan_error *err)
{
    const size_t n = t->n_loops + 1;
    double *x = calloc(2 * n, sizeof *x);
    char(*labels)[48] = calloc(n, sizeof *labels);
    const char **lp = calloc(n, sizeof *lp);
    if (!x || !labels || !lp) {
        free(x);
        free(labels);
        free(lp);
        edan_error_set(err, "out of memory");
        return -1;
    }
    const edan_proj_machine m = proj_machine(t);
    for (size_t i = 0; i < n; i++) {
        const proj_row *r = i < t->n_loops ? &t->loop_rows[i] : &t->outside;
        const edan_proj p = proj_row_bound(t, r, t->machine_k, &m);
        x[i] = p.dram_bytes > 0 ? p.weighted_flops / p.dram_bytes : 0;
        x[n + i] = p.time > 0 ? p.weighted_flops / p.time : 0;
        if (r->loop >= 0) {
            const edan_loop_place where = proj_loop_place(t, r->loop);
            snprintf(labels[i], sizeof labels[i], "%s:%u", where.function ? where.function : "#", where.line);
        } else {
            snprintf(labels[i], sizeof labels[i], "outside-loops");
        }
        lp[i] = labels[i];
    }
    const edan_plot_roofline_spec spec = {
        "roofline", "Roofline of the projection: each loop", m.peak_flops, m.bandwidth, n, x, x + n, lp, ident};
    const int rc = edan_plot_roofline(dir, name, &spec, err);
    free(x);
    free(labels);
    free(lp);
    return rc;
}

int edan_projection_outputs(void *tool, const edan_session *s, edan_error *err)
{
    proj_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    if (!t->rows_made)
        t->timing = edan_timing_tool_model(s);
    if (!t->rows_made && !proj_rows_make(t)) {
        edan_error_set(err, "out of memory for the projection's rows");
        return -1;
    }
    if ((t->regions_csv[0] && proj_regions_write(t, NULL, false, err)) || proj_whatif_csv(t, err))
        return -1;
    if (t->csv_path[0]) {
        sweep_row *rows;
        size_t n;
        if (!sweep_rows(t, &t->dim[DIM_CACHE], &rows, &n)) {
            edan_error_set(err, "out of memory");
            return -1;
        }
        const int rc = write_csv(t, rows, n, err);
        sweep_rows_free(rows);
        if (rc)
            return -1;
    }
    if (!o->plot_dir[0])
        return 0;
    char name[1100];
    edan_session_file_base(s, name, sizeof name);
    char ident[1600];
    edan_session_plot_ident(s, ident, sizeof ident);
    if (plot_roofline(t, o->plot_dir, name, ident, err) || plot_times(t, o->plot_dir, name, ident, true, err) ||
        plot_times(t, o->plot_dir, name, ident, false, err) || proj_whatif_plot(t, o->plot_dir, name, ident, err))
        return -1;
    return 0;
}
