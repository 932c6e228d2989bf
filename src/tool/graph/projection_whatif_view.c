/*
 * projection_whatif_view.c - the what-ifs' reports: text, JSON, CSV and the
 * plot of projected time against tile size (projection_whatif.h's state).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/csv.h"
#include "report/json.h"
#include "report/plot.h"
#include "tool/graph/projection_whatif.h"
#include "util/files.h"

/* ===================================================================== */
/* The reports                                                            */
/* ===================================================================== */

static const char *scheme_name(const proj_whatif *w, edan_whatif_order o)
{
    if (w->fuse)
        return "fused";
    return o == EDAN_WHATIF_TILE ? "all-loops-per-block" : "traditional";
}

/* log2 of a cache size of the sweep in the machine's lines */
static unsigned cache_k(const proj_tool *t, double bytes)
{
    return (unsigned)llround(log2(bytes)) - t->line_shift;
}

/* The time of the instructions a plan adds: at the core's issue width per cycle. Reported beside the bound, not in
 * it: on an out-of-order core they overlap the memory time (added to the bound, the best tile moves to the largest,
 * away from the timing model's on the stencils: docs/projection.md). */
static double overhead(const proj_tool *t, const wi_result *r)
{
    return r->added / ((double)t->machine.issue_width * t->machine.clock_ghz * 1e9);
}

/* The caches of the rows: --projection-cache's sizes, LRU or (--what-if-cache=machine) the machine's hierarchy with
 * its last level of that size (proj_whatif.caches). */
static int n_caches(const proj_tool *t)
{
    return t->dim[0].n;
}

static double cache_size(const proj_tool *t, int c)
{
    return t->dim[0].v[c];
}

static double wi_bytes(const proj_tool *t, const edan_lru_traffic *lru, const edan_whatif_model *cm, int c)
{
    return proj_whatif_bytes(t, lru, cm, c);
}

/* The region's measured DRAM bytes at cache c: the LRU's; with the cache model, the --cache configuration's that is
 * the same hierarchy (NaN: none is). */
static double measured_bytes(const proj_tool *t, int c)
{
    if (!t->whatif->assoc)
        return edan_whatif_bytes(&t->total.lru, cache_k(t, cache_size(t, c)), t->line_shift);
    for (int m = 0; m < t->n_models; m++)
        if (!strcmp(t->model_label[m], t->whatif->cache_labels[c]))
            return (double)(t->total.model_read[m] + t->total.model_write[m]);
    return NAN;
}

static edan_proj row_bound(const proj_tool *t, const wi_result *r, int c)
{
    return proj_whatif_bound(t, r, c);
}

/* The DRAM bytes the tile scheme's recomputed halo adds (its replay less the one without the halo). */
static double halo_bytes(const proj_tool *t, const wi_result *r, int c)
{
    return r->halo ? wi_bytes(t, &r->lru, r->cm, c) - wi_bytes(t, &r->plain, r->cm_plain, c) : 0;
}

/* The best legal result at cache c: the least projected time, then the least traffic, then the smallest tile. */
static int best_at(const proj_tool *t, int c)
{
    const proj_whatif *w = t->whatif;
    int best = -1;
    double bt = 0, bb = 0;
    for (int i = 0; i < w->n_res; i++) {
        if (!w->res[i].legal)
            continue;
        const edan_proj p = row_bound(t, &w->res[i], c);
        if (best < 0 || p.time < bt || (p.time == bt && p.dram_bytes < bb)) {
            best = i;
            bt = p.time;
            bb = p.dram_bytes;
        }
    }
    return best;
}

void proj_whatif_text(proj_tool *t, FILE *f)
{
    proj_whatif *w = t->whatif;
    if (!w)
        return;
    if (!proj_whatif_make(t)) {
        fprintf(f, "  what-if: out of memory\n");
        return;
    }
    const edan_affine_nest *n = edan_affine_nests(w->affine);
    fprintf(f, "  what-if                   %s, from the nests' affine access functions\n",
            w->fuse ? "fusion of consecutive nests of one iteration space" : "cache blocking");
    if (w->assoc)
        fprintf(f,
                "  what-if traffic           the machine's cache model (%s), started empty; at each cache size its "
                "last level "
                "resized, the levels above kept where smaller\n",
                w->cache_label);
    for (size_t i = 0; i < edan_affine_n_nests(w->affine); i++) {
        const edan_loop_place p = proj_loop_place(t, n[i].loop[0]);
        fprintf(f, "  nest #%d %s:%u, %u level%s, trips", n[i].loop[0], p.function ? p.function : "?", p.line,
                n[i].levels, n[i].levels == 1 ? "" : "s");
        for (unsigned k = 0; k < n[i].levels; k++) {
            fprintf(f, "%s", k ? " x " : " ");
            proj_nest_trip_text(&n[i], k, f);
        }
        const char *why = proj_nest_why_not(&n[i]);
        fprintf(f, ", %" PRIu64 " entr%s, %" PRIu64 " accesses: %s", n[i].entries, n[i].entries == 1 ? "y" : "ies",
                n[i].accesses + n[i].in_calls,
                why            ? "not replayed: "
                : n[i].bounded ? "affine, non-rectangular"
                               : "affine");
        const double all = (double)(t->total.mix.loads + t->total.mix.stores + t->total.mix.atomics);
        if (why && !strncmp(why, "non-rectangular", 15))
            fprintf(f, "%s (%.1f %% of the region's accesses)", why,
                    100.0 * (double)(n[i].accesses + n[i].in_calls) / (all > 0 ? all : 1));
        else if (why)
            fprintf(f, "%s (%.1f %% of its accesses non-affine)", why,
                    100.0 * (double)(n[i].nonaffine_accesses + n[i].in_calls) /
                        (double)(n[i].accesses + n[i].in_calls ? n[i].accesses + n[i].in_calls : 1));
        fputc('\n', f);
        const proj_regs *g = &w->model[i];
        if (!g->iterations)
            continue;
        fprintf(f,
                "    registers of its body (loop #%d): %u integer and %u FP named, %u state variables in memory, "
                "%.3g stack accesses per iteration; spilled per iteration (ExaSAT's model) at",
                g->loop, g->used[0], g->used[1], g->memory_state, g->stack);
        for (int r = 0; r < w->n_regs; r++)
            fprintf(f, "%s %u: %.3g int, %.3g FP", r ? ";" : "", w->regs[r], g->spilled[0][r], g->spilled[1][r]);
        fputc('\n', f);
    }
    for (size_t i = 1; w->fuse && i < edan_affine_n_nests(w->affine); i++) { /* each consecutive pair */
        fprintf(f, "  nests #%d and #%d: ", n[i - 1].loop[0], n[i].loop[0]);
        if (!w->pair_why[i]) {
            fprintf(f, "fused\n");
            continue;
        }
        fprintf(f, "not fused: %s", w->pair_why[i]);
        if (!strcmp(w->pair_why[i], "different iteration spaces") || !strcmp(w->pair_why[i], "different depths"))
            for (size_t x = i - 1; x <= i; x++) {
                uint64_t pos[EDAN_AFFINE_LEVELS];
                if (!edan_whatif_positions(w->affine, &n[x], pos))
                    break;
                fprintf(f, "%s", x < i ? " (positions" : " against");
                for (unsigned k = 0; k < n[x].levels; k++)
                    fprintf(f, "%s%" PRIu64, k ? " x " : " ", pos[k]);
                fprintf(f, "%s", x < i ? "" : ")");
            }
        fputc('\n', f);
    }
    if (!w->n_exact) {
        fprintf(f, "  no nest to transform\n");
        return;
    }
    for (int i = 0; i < w->n_res; i++) /* each illegal plan once, with the dependence it breaks */
        if (!w->res[i].legal) {
            char why[640];
            proj_why_illegal(t, w->affine, &w->res[i].why, w->res[i].order, why, sizeof why);
            fprintf(f, "  illegal: %s", scheme_name(w, w->res[i].order));
            if (w->res[i].tile)
                fprintf(f, " tile %" PRIu64, w->res[i].tile);
            fprintf(f, ": %s\n", why);
        }
    fprintf(f, "  %-20s %6s %10s %14s %14s %14s %12s %12s %12s %12s %8s %12s\n", "scheme", "tile", "cache kB",
            "as run bytes", "measured bytes", "what-if bytes", "halo iters", "halo wflops", "halo bytes", "added insns",
            "B:F", "time ms");
    for (int c = 0; c < n_caches(t); c++) {
        const double as_run = wi_bytes(t, &w->as_run, w->as_run_cm, c);
        const double measured = measured_bytes(t, c);
        const int best = best_at(t, c);
        for (int i = 0; i < w->n_res; i++) {
            const wi_result *r = &w->res[i];
            char tile[24] = "-";
            if (r->tile)
                snprintf(tile, sizeof tile, "%" PRIu64, r->tile);
            char meas[32] = "-"; /* none: no --cache configuration is the row's hierarchy */
            if (!isnan(measured))
                snprintf(meas, sizeof meas, "%.0f", measured);
            fprintf(f, "  %-20s %6s %10.0f %14.0f %14s ", scheme_name(w, r->order), tile, cache_size(t, c) / 1024,
                    as_run, meas);
            if (!r->legal) {
                fprintf(f, "%14s\n", "illegal");
                continue;
            }
            const edan_proj p = row_bound(t, r, c);
            fprintf(f, "%14.0f %12" PRIu64 " %12.0f %12.0f %12.0f %8.3g %12.4g%s\n", p.dram_bytes, r->halo,
                    r->halo_wflops, halo_bytes(t, r, c), r->added, p.bytes_per_flop, p.time * 1e3,
                    i == best && !w->fuse ? " best" : "");
        }
        const edan_proj u = row_bound(t, &w->unblocked, c);
        fprintf(f, "  %-20s %6s %10.0f %14.0f %14s %14.0f %12d %12d %12d %12d %8.3g %12.4g%s\n", "as run", "-",
                cache_size(t, c) / 1024, as_run, "", u.dram_bytes, 0, 0, 0, 0, u.bytes_per_flop, u.time * 1e3,
                proj_whatif_unblocked_best(t, c) ? (w->fuse ? " faster" : " faster than every tile") : "");
    }
}

void proj_whatif_json(proj_tool *t, FILE *f)
{
    proj_whatif *w = t->whatif;
    if (!w)
        return;
    fprintf(f, ",\"what_if\":");
    if (!proj_whatif_make(t)) {
        fprintf(f, "null");
        return;
    }
    const edan_affine_nest *n = edan_affine_nests(w->affine);
    const edan_affine_insn *in = edan_affine_insns(w->affine);
    fprintf(f, "{\"kind\":\"%s\",\"cache_model\":", w->fuse ? "fuse" : "block");
    edan_json_str(f, w->assoc ? w->cache_label : NULL);
    fprintf(f, ",\"levels\":[");
    for (unsigned k = 0, c = 0; k < EDAN_AFFINE_LEVELS; k++)
        if (w->block & (1u << k))
            fprintf(f, "%s%u", c++ ? "," : "", k + 1);
    fprintf(f, "],\"nests\":[");
    for (size_t i = 0; i < edan_affine_n_nests(w->affine); i++) {
        const edan_loop_place p = proj_loop_place(t, n[i].loop[0]);
        fprintf(f, "%s{\"loops\":", i ? "," : "");
        for (unsigned k = 0; k < n[i].levels; k++)
            fprintf(f, "%s%d", k ? "," : "[", n[i].loop[k]);
        fprintf(f, "],\"function\":");
        edan_json_str(f, p.function);
        fprintf(f, ",\"line\":%u,\"trips\":", p.line);
        edan_json_u64_array(f, n[i].trip, n[i].levels);
        proj_nest_bounds_json(&n[i], f);
        const char *why = proj_nest_why_not(&n[i]);
        fprintf(f,
                ",\"entries\":%" PRIu64 ",\"accesses\":%" PRIu64 ",\"nonaffine_accesses\":%" PRIu64
                ",\"in_calls\":%" PRIu64 ",\"replayed\":%s,\"reason\":",
                n[i].entries, n[i].accesses, n[i].nonaffine_accesses, n[i].in_calls, why ? "false" : "true");
        edan_json_str(f, why);
        const proj_regs *g = &w->model[i];
        fprintf(f, ",\"registers\":{\"body_loop\":%d,\"iterations\":%" PRIu64 ",\"int_used\":%u,\"fp_used\":%u",
                g->loop, g->iterations, g->used[0], g->used[1]);
        fprintf(f, ",\"memory_state\":%u,\"stack_per_iteration\":", g->memory_state);
        edan_json_num(f, g->stack);
        fprintf(f, ",\"register_counts\":[");
        for (int r = 0; r < w->n_regs; r++)
            fprintf(f, "%s%u", r ? "," : "", w->regs[r]);
        fprintf(f, "],\"int_spilled_per_iteration\":");
        edan_json_num_array(f, g->spilled[0], (size_t)w->n_regs);
        fprintf(f, ",\"fp_spilled_per_iteration\":");
        edan_json_num_array(f, g->spilled[1], (size_t)w->n_regs);
        fprintf(f, "},\"instructions\":[");
        for (size_t j = n[i].first; j < n[i].first + n[i].n; j++) {
            fprintf(f, "%s{\"pc\":%" PRIu64 ",\"store\":%s,\"size\":%u,\"affine\":%s,\"base\":%" PRId64 ",\"strides\":",
                    j > n[i].first ? "," : "", in[j].insn->pc, in[j].insn->mem != EDAN_MEM_LOAD ? "true" : "false",
                    in[j].insn->mem_size, in[j].affine ? "true" : "false", in[j].base);
            fputc('[', f);
            for (unsigned k = 0; k < in[j].levels; k++)
                fprintf(f, "%s%" PRId64, k ? "," : "", in[j].stride[k]);
            fprintf(f, "],\"accesses\":%" PRIu64 "}", in[j].accesses);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "],\"pairs\":[");
    for (size_t i = 1; w->fuse && i < edan_affine_n_nests(w->affine); i++) {
        fprintf(f, "%s{\"first\":%d,\"second\":%d,\"fused\":%s,\"reason\":", i > 1 ? "," : "", n[i - 1].loop[0],
                n[i].loop[0], w->pair_why[i] ? "false" : "true");
        edan_json_str(f, w->pair_why[i]);
        fputc('}', f);
    }
    fprintf(f, "],\"complete\":%s,\"rows\":[", w->n_exact == edan_affine_n_nests(w->affine) ? "true" : "false");
    for (int c = 0, first = 1; c < n_caches(t) && w->n_exact; c++) {
        const int best = best_at(t, c);
        for (int i = 0; i < w->n_res; i++, first = 0) {
            const wi_result *r = &w->res[i];
            const edan_proj p = row_bound(t, r, c);
            fprintf(f, "%s{\"scheme\":\"%s\",\"tile\":%" PRIu64 ",\"cache_bytes\":%.0f", first ? "" : ",",
                    scheme_name(w, r->order), r->tile, cache_size(t, c));
            fprintf(f, ",\"cache_model\":");
            edan_json_str(f, w->assoc ? w->cache_labels[c] : NULL);
            fprintf(f,
                    ",\"as_run_dram_bytes\":%.0f,\"measured_dram_bytes\":", wi_bytes(t, &w->as_run, w->as_run_cm, c));
            edan_json_num(f, measured_bytes(t, c));
            fprintf(f, ",\"legal\":%s,\"illegal_reason\":", r->legal ? "true" : "false");
            char why[640];
            if (!r->legal)
                proj_why_illegal(t, w->affine, &r->why, r->order, why, sizeof why);
            edan_json_str(f, r->legal ? NULL : why);
            fprintf(f, ",\"halo_iterations\":%" PRIu64 ",\"halo_flops\":%.0f,\"halo_weighted_flops\":%.0f", r->halo,
                    r->halo_flops, r->halo_wflops);
            fprintf(f, ",\"halo_dram_bytes\":");
            edan_json_num(f, r->legal ? halo_bytes(t, r, c) : NAN);
            fprintf(f, ",\"added_instructions\":%.0f,\"overhead_s\":", r->added);
            edan_json_num(f, overhead(t, r));
            fprintf(f, ",\"weighted_flops\":");
            edan_json_num(f, p.weighted_flops);
            fprintf(f, ",\"dram_bytes\":");
            edan_json_num(f, r->legal ? p.dram_bytes : NAN);
            fprintf(f, ",\"bytes_per_flop\":");
            edan_json_num(f, r->legal ? p.bytes_per_flop : NAN);
            fprintf(f, ",\"exposed_s\":");
            edan_json_num(f, r->legal ? proj_whatif_exposed(t, r, c) : NAN);
            fprintf(f, ",\"time_s\":");
            edan_json_num(f, r->legal ? p.time : NAN);
            fprintf(f, ",\"best\":%s}", i == best && !w->fuse ? "true" : "false");
        }
    }
    fprintf(f, "],\"unblocked\":[");
    for (int c = 0; c < n_caches(t) && w->n_exact; c++) {
        const edan_proj u = row_bound(t, &w->unblocked, c);
        fprintf(f, "%s{\"cache_bytes\":%.0f,\"dram_bytes\":%.0f,\"exposed_s\":", c ? "," : "", cache_size(t, c),
                u.dram_bytes);
        edan_json_num(f, proj_whatif_exposed(t, &w->unblocked, c));
        fprintf(f, ",\"time_s\":");
        edan_json_num(f, u.time);
        fprintf(f, ",\"best\":%s}", proj_whatif_unblocked_best(t, c) ? "true" : "false");
    }
    fprintf(f, "]}");
}

int proj_whatif_csv(proj_tool *t, edan_error *err)
{
    proj_whatif *w = t->whatif;
    if (!w || !w->csv[0])
        return 0;
    if (!proj_whatif_make(t)) {
        edan_error_set(err, "out of memory for the what-if");
        return -1;
    }
    edan_output out;
    FILE *f = edan_output_fopen(&out, w->csv, "--what-if-csv", err);
    if (!f)
        return -1;
    fprintf(f, "scheme,tile,cache_bytes,as_run_traffic_gb,measured_traffic_gb,traffic_gb,weighted_gflop,"
               "bytes_per_flop,time_ms,bound,best,legal,halo_iterations,halo_weighted_gflop,halo_traffic_gb,"
               "added_instructions,overhead_ms,illegal_reason\n");
    for (int c = 0; c < n_caches(t) && w->n_exact; c++) {
        const int best = best_at(t, c);
        for (int i = 0; i < w->n_res; i++) {
            const wi_result *r = &w->res[i];
            const edan_proj p = row_bound(t, r, c);
            fprintf(f, "%s,%" PRIu64 ",%.0f,%.10g,", scheme_name(w, r->order), r->tile, cache_size(t, c),
                    wi_bytes(t, &w->as_run, w->as_run_cm, c) / 1e9);
            if (!isnan(measured_bytes(t, c))) /* empty: no --cache configuration is the row's hierarchy */
                fprintf(f, "%.10g", measured_bytes(t, c) / 1e9);
            fputc(',', f);
            if (r->legal)
                fprintf(f, "%.10g,%.10g,%.6g,%.10g,%s,%d,1,%" PRIu64 ",%.10g,%.10g,%.0f,%.10g,\n", p.dram_bytes / 1e9,
                        p.weighted_flops / 1e9, p.bytes_per_flop, p.time * 1e3, p.memory_bound ? "memory" : "compute",
                        i == best && !w->fuse, r->halo, r->halo_wflops / 1e9, halo_bytes(t, r, c) / 1e9, r->added,
                        overhead(t, r) * 1e3);
            else {
                char why[640];
                proj_why_illegal(t, w->affine, &r->why, r->order, why, sizeof why);
                fprintf(f, ",%.10g,,,,0,0,%" PRIu64 ",%.10g,,%.0f,,", p.weighted_flops / 1e9, r->halo,
                        r->halo_wflops / 1e9, r->added);
                edan_csv_text(f, why);
                fputc('\n', f);
            }
        }
    }
    return edan_output_commit(&out, err) ? -1 : 0;
}

int proj_whatif_plot(proj_tool *t, const char *dir, const char *name, const char *ident, edan_error *err)
{
    proj_whatif *w = t->whatif;
    if (!w || w->fuse)
        return 0;
    if (!proj_whatif_make(t)) {
        edan_error_set(err, "out of memory for the what-if");
        return -1;
    }
    if (!w->n_exact || !w->n_tiles)
        return 0;
    /* the traditional scheme's rows come first, one per tile, in the order of the tiles; the first caches */
    char series[EDAN_PLOT_MAX_SERIES][48];
    double x[WI_TILES], y[EDAN_PLOT_MAX_SERIES][WI_TILES];
    edan_plot_xy_spec spec = {"what-if-tiles",
                              "Projected time against tile size (traditional blocking)",
                              "tile size",
                              "seconds",
                              true,
                              false,
                              0,
                              {0},
                              (size_t)w->n_tiles,
                              x,
                              {0},
                              ident,
                              EDAN_AXIS_COUNT,
                              EDAN_AXIS_PLAIN,
                              false};
    for (int c = 0; c < n_caches(t) && c < EDAN_PLOT_MAX_SERIES; c++) {
        if (w->assoc)
            snprintf(series[c], sizeof series[c], "the machine's, last level %.0f KiB", t->dim[0].v[c] / 1024);
        else
            snprintf(series[c], sizeof series[c], "LRU cache of %.0f KiB", t->dim[0].v[c] / 1024);
        for (int i = 0; i < w->n_tiles; i++) {
            x[i] = (double)w->res[i].tile;
            y[c][i] = w->res[i].legal ? row_bound(t, &w->res[i], c).time : NAN;
        }
        spec.series[c] = series[c];
        spec.y[c] = y[c];
        spec.n_series = c + 1;
    }
    return edan_plot_xy(dir, name, &spec, err);
}
