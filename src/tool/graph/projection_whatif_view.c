/*
 * projection_whatif_view.c - the what-ifs' reports: text, JSON, CSV and the
 * plot of projected time against tile size (projection_whatif.h's state).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "tool/graph/projection_whatif.h"

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

/* A replay's DRAM bytes at cache c: an LRU cache of its size, or its cache model. */
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

/* A result's bound at cache c: the region's work with the halo's, the replay's traffic. */
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

/* The nests as they ran at cache c (text's and the CSV's "as run" row after the plans'; JSON's what_if.unblocked):
 * legal, no tile, no halo, nothing added, the measured bytes as on the plans' rows; best: at least as fast as every
 * legal plan. */
static void unblocked_row(proj_tool *t, int c, proj_wi_row *x)
{
    const proj_whatif *w = t->whatif;
    const edan_proj u = row_bound(t, &w->unblocked, c);
    *x = (proj_wi_row){.scheme = "as run",
                       .cache_bytes = cache_size(t, c),
                       .cache_model = w->assoc ? w->cache_labels[c] : NULL,
                       .as_run = wi_bytes(t, &w->as_run, w->as_run_cm, c),
                       .measured = measured_bytes(t, c),
                       .legal = true,
                       .weighted_flops = u.weighted_flops,
                       .dram = u.dram_bytes,
                       .bytes_per_flop = u.bytes_per_flop,
                       .exposed_s = proj_whatif_exposed(t, &w->unblocked, c),
                       .time_s = u.time,
                       .bound = u.memory_bound ? "memory" : "compute",
                       .best = proj_whatif_unblocked_best(t, c)};
    x->best_text = !x->best ? "" : w->fuse ? " faster" : " faster than every tile";
}

/* Every plan's row at every cache (none without a nest to transform), into rows[c * (n_res + 1) + i], the nests as
 * they ran at rows[c * (n_res + 1) + n_res]. */
static void wi_rows(proj_tool *t, proj_wi_row *rows)
{
    const proj_whatif *w = t->whatif;
    for (int c = 0; c < n_caches(t) && w->n_exact; c++) {
        const int best = best_at(t, c);
        unblocked_row(t, c, &rows[c * (w->n_res + 1) + w->n_res]);
        for (int i = 0; i < w->n_res; i++) {
            const wi_result *r = &w->res[i];
            const edan_proj p = row_bound(t, r, c);
            proj_wi_row *x = &rows[c * (w->n_res + 1) + i];
            x->scheme = scheme_name(w, r->order);
            x->tile = r->tile;
            x->cache_bytes = cache_size(t, c);
            x->cache_model = w->assoc ? w->cache_labels[c] : NULL;
            x->as_run = wi_bytes(t, &w->as_run, w->as_run_cm, c);
            x->measured = measured_bytes(t, c);
            x->legal = r->legal;
            x->best = i == best && !w->fuse;
            x->best_text = x->best ? " best" : "";
            x->illegal = r->legal ? NULL : "illegal";
            if (!r->legal)
                proj_why_illegal(t, w->affine, &r->why, r->order, x->why, sizeof x->why);
            x->reason = r->legal ? NULL : x->why;
            x->halo = r->halo;
            x->halo_flops = r->halo_flops;
            x->halo_wflops = r->halo_wflops;
            x->halo_bytes = r->legal ? halo_bytes(t, r, c) : NAN;
            x->added = r->added;
            x->overhead_s = overhead(t, r);
            x->weighted_flops = p.weighted_flops;
            x->dram = r->legal ? p.dram_bytes : NAN;
            x->bytes_per_flop = r->legal ? p.bytes_per_flop : edan_na(); /* CSV: empty, not a NaN's nan */
            x->exposed_s = r->legal ? proj_whatif_exposed(t, r, c) : NAN;
            x->time_s = r->legal ? p.time : NAN;
            x->bound = !r->legal ? NULL : p.memory_bound ? "memory" : "compute";
        }
    }
}

/* The rows' table, bound to the structs returned (the caller frees them; NULL: out of memory, the table failed): the
 * plans', and in text and CSV the nests as they ran after each cache's (JSON has them in what_if.unblocked). */
static proj_wi_row *wi_table(proj_tool *t, edan_table *tab)
{
    const size_t per = (size_t)t->whatif->n_res + 1, n = t->whatif->n_exact ? (size_t)n_caches(t) * per : 0;
    proj_wi_row *rows = calloc(n + 1, sizeof *rows);
    edan_table_init(tab, &edan_projection_tables[T_WHATIF]);
    tab->failed = !rows;
    if (rows) {
        wi_rows(t, rows);
        for (size_t k = 0; k < n; k++)
            edan_table_row_of(tab, k % per == per - 1 ? EDAN_NO_JSON : 0, &rows[k], NULL);
    }
    return rows;
}

/* JSON's what_if.unblocked: the "as run" rows of the plans' table (rows from wi_table). */
static void unblocked_table(proj_tool *t, const proj_wi_row *rows, edan_table *tab, proj_wi_unblocked *u)
{
    const size_t per = (size_t)t->whatif->n_res + 1;
    edan_table_init(tab, &edan_projection_tables[T_UNBLOCKED]);
    for (int c = 0; rows && c < n_caches(t) && t->whatif->n_exact; c++) {
        const proj_wi_row *x = &rows[(size_t)c * per + per - 1];
        u[c] = (proj_wi_unblocked){x->cache_bytes, x->dram, x->exposed_s, x->time_s, x->best};
        edan_table_row_of(tab, 0, &u[c], NULL);
    }
}

/* The what-if's tables: its own members, nests (each with its levels' bounds and instructions), pairs, rows. */
typedef struct wi_tables {
    edan_table summary, nests, pairs, rows, unblocked;
    edan_table *sub; /* nest i's bounds sub[2 i], instructions sub[2 i + 1] */
    size_t n_nests;
    proj_wi_unblocked *ub; /* a row per cache */
    proj_nest_row *nest_rows;
    proj_pair_row *pair_rows;
    proj_wi_row *wi_rows;
    proj_wi_summary sum;
} wi_tables;

/* A pair's positions when their spaces differ: " (positions 8 x 8 against 64)" ("": none, or not known). */
static void pair_positions(const proj_whatif *w, const edan_affine_nest *n, size_t i, char *buf, size_t cap)
{
    if (strcmp(w->pair_why[i], "different iteration spaces") && strcmp(w->pair_why[i], "different depths"))
        return;
    for (size_t x = i - 1; x <= i; x++) {
        uint64_t pos[EDAN_AFFINE_LEVELS];
        if (!edan_whatif_positions(w->affine, &n[x], pos))
            break;
        snprintf(buf + strlen(buf), cap - strlen(buf), "%s", x < i ? " (positions" : " against");
        for (unsigned k = 0; k < n[x].levels; k++)
            snprintf(buf + strlen(buf), cap - strlen(buf), "%s%" PRIu64, k ? " x " : " ", pos[k]);
        snprintf(buf + strlen(buf), cap - strlen(buf), "%s", x < i ? "" : ")");
    }
}

/* Nest i's row beside its JSON members: its sentence's words, its trips' and its spills' text. */
static void nest_text(proj_tool *t, const edan_affine_nest *n, proj_nest_row *r)
{
    const proj_whatif *w = t->whatif;
    const double all = (double)(t->total.mix.loads + t->total.mix.stores + t->total.mix.atomics);
    const uint64_t own = n->accesses + n->in_calls;
    const bool nonrect = r->reason && !strncmp(r->reason, "non-rectangular", 15);
    r->loop = n->loop[0];
    r->levels_s = n->levels == 1 ? "" : "s";
    r->entries_s = n->entries == 1 ? "y" : "ies";
    r->all_accesses = own;
    r->kind = n->bounded ? "affine, non-rectangular" : "affine";
    r->pct_of = nonrect ? "the region's accesses" : "its accesses non-affine";
    r->reason_pct = nonrect ? 100.0 * (double)own / (all > 0 ? all : 1)
                            : 100.0 * (double)(n->nonaffine_accesses + n->in_calls) / (double)(own ? own : 1);
    for (unsigned k = 0; k < n->levels; k++) {
        snprintf(r->trips + strlen(r->trips), sizeof r->trips - strlen(r->trips), "%s", k ? " x " : " ");
        proj_nest_trip_text(n, k, r->trips, sizeof r->trips);
    }
    for (int k = 0; k < w->n_regs; k++)
        snprintf(r->spills + strlen(r->spills), sizeof r->spills - strlen(r->spills), "%s %u: %.3g int, %.3g FP",
                 k ? ";" : "", w->regs[k], r->regs.spilled[0][k], r->regs.spilled[1][k]);
}

/* The nests' and pairs' rows and the what-if's own members (computed; x's arrays allocated). */
static void wi_table_rows(proj_tool *t, wi_tables *x)
{
    const proj_whatif *w = t->whatif;
    const edan_affine_nest *n = edan_affine_nests(w->affine);
    const size_t nn = x->n_nests;
    for (size_t i = 0; i < nn; i++) {
        proj_nest_row *r = &x->nest_rows[i];
        r->place = proj_loop_place(t, n[i].loop[0]);
        r->reason = proj_nest_why_not(&n[i]);
        r->replayed = !r->reason;
        r->regs = w->model[i];
        r->n_regs = w->n_regs;
        for (int k = 0; k < w->n_regs; k++)
            r->reg_counts[k] = w->regs[k];
        r->bounds = &x->sub[2 * i];
        r->insns = &x->sub[2 * i + 1];
        r->levels = n[i].levels;
        for (unsigned k = 0; k < n[i].levels; k++) {
            r->loops[k] = (uint64_t)n[i].loop[k];
            r->bound_rows[k].base = n[i].bound_base[k];
            r->bound_rows[k].n = k;
            memcpy(r->bound_rows[k].strides, n[i].bound_stride[k], sizeof r->bound_rows[k].strides);
        }
        nest_text(t, &n[i], r);
    }
    for (size_t i = 1; w->fuse && i < nn; i++) { /* each consecutive pair */
        proj_pair_row *p = &x->pair_rows[i - 1];
        *p = (proj_pair_row){n[i - 1].loop[0], n[i].loop[0], !w->pair_why[i], w->pair_why[i], ""};
        if (w->pair_why[i])
            pair_positions(w, n, i, p->positions, sizeof p->positions);
    }
    x->sum =
        (proj_wi_summary){.kind = w->fuse ? "fuse" : "block",
                          .cache_model = w->assoc ? w->cache_label : NULL,
                          .time = w->assoc ? "bound+exposed" : "bound",
                          .nests = &x->nests,
                          .pairs = &x->pairs,
                          .rows = &x->rows,
                          .unblocked = &x->unblocked,
                          .complete = w->n_exact == nn,
                          .what = w->fuse ? "fusion of consecutive nests of one iteration space" : "cache blocking",
                          .prefetch = w->prefetch ? " with the machine's prefetchers"
                                                  : " (the machine has no prefetcher: every miss waits)"};
    for (unsigned k = 0; k < EDAN_AFFINE_LEVELS; k++)
        if (w->block & (1u << k))
            x->sum.levels[x->sum.n_levels++] = k + 1;
}

static void wi_tables_free(wi_tables *x)
{
    for (size_t i = 0; x->sub && i < 2 * x->n_nests; i++)
        edan_table_free(&x->sub[i]);
    edan_table_free(&x->summary);
    edan_table_free(&x->nests);
    edan_table_free(&x->pairs);
    edan_table_free(&x->rows);
    edan_table_free(&x->unblocked);
    free(x->wi_rows);
    free(x->ub);
    free(x->sub);
    free(x->nest_rows);
    free(x->pair_rows);
}

/* The what-if's tables in *x (zeroed first; wi_tables_free frees them): false when out of memory. */
static bool wi_tables_make(proj_tool *t, wi_tables *x)
{
    proj_whatif *w = t->whatif;
    const size_t nn = proj_whatif_make(t) ? edan_affine_n_nests(w->affine) : 0;
    *x = (wi_tables){.sub = calloc(2 * nn + 1, sizeof *x->sub),
                     .n_nests = nn,
                     .nest_rows = calloc(nn + 1, sizeof *x->nest_rows),
                     .pair_rows = calloc(nn + 1, sizeof *x->pair_rows),
                     .ub = calloc((size_t)n_caches(t) + 1, sizeof *x->ub)};
    if (!proj_whatif_make(t) || !x->sub || !x->nest_rows || !x->pair_rows || !x->ub)
        return false;
    const edan_affine_nest *n = edan_affine_nests(w->affine);
    const edan_affine_insn *in = edan_affine_insns(w->affine);
    wi_table_rows(t, x);
    edan_table_init(&x->nests, &edan_projection_tables[T_NESTS]);
    for (size_t i = 0; i < nn; i++) {
        edan_table_init(&x->sub[2 * i], &edan_projection_tables[T_BOUNDS]);
        edan_table_init(&x->sub[2 * i + 1], &edan_projection_tables[T_INSNS]);
        for (unsigned k = 0; k < n[i].levels; k++) /* a level whose trip count is no bound: null */
            edan_table_row_of(&x->sub[2 * i], n[i].trip[k] || !n[i].bounded ? EDAN_ROW_NULL : 0,
                              &x->nest_rows[i].bound_rows[k], NULL);
        for (size_t j = n[i].first; j < n[i].first + n[i].n; j++) {
            edan_value *v = edan_table_row_of(&x->sub[2 * i + 1], 0, NULL, &in[j]);
            if (!v)
                break;
            v[IN_PC].u = in[j].insn->pc;
            v[IN_STORE].b = in[j].insn->mem != EDAN_MEM_LOAD;
            v[IN_SIZE].u = in[j].insn->mem_size;
        }
        edan_table_row_of(&x->nests, 0, &x->nest_rows[i], &n[i]);
    }
    edan_table_of(&x->pairs, &edan_projection_tables[T_PAIRS], x->pair_rows, w->fuse && nn ? nn - 1 : 0,
                  sizeof *x->pair_rows);
    x->wi_rows = wi_table(t, &x->rows);
    unblocked_table(t, x->wi_rows, &x->unblocked, x->ub);
    edan_table_of(&x->summary, &edan_projection_tables[T_WHATIF_SUMMARY], &x->sum, 1, sizeof x->sum);
    return x->wi_rows != NULL;
}

/* The text: forms of the what-if's own row, its nests', its pairs' and its illegal plans', then the plans' table. */
static const char head_form[] =
    "  what-if                   {what}, from the nests' affine access functions\n"
    "{?cache_model}  what-if traffic           the machine's cache model ({cache_model}), started empty; at each "
    "cache size its last level resized, the levels above kept where smaller\n"
    "{?cache_model}  what-if time              ExaSAT's bound plus the loads' exposed latency on that "
    "hierarchy{prefetch}\n"
    "{!cache_model}  what-if time              ExaSAT's bound only: the LRU caches have no levels, so no load latency "
    "(--what-if-cache=machine adds it)\n";
static const char nest_form[] =
    "  nest #{loop} {function}:{line}, {levels} level{levels_s}, trips{trips_text}, {entries} entr{entries_s}, "
    "{all_accesses} accesses: {?reason}not replayed: {reason} ({reason_pct} % of {pct_of}){;}{!reason}{kind}\n"
    "{?registers.iterations}    registers of its body (loop #{registers.body_loop}): {registers.int_used} integer "
    "and {registers.fp_used} FP named, {registers.memory_state} state variables in memory, {stack} stack accesses "
    "per iteration; spilled per iteration (ExaSAT's model) at{spills}\n";
static const char pair_form[] =
    "  nests #{first} and #{second}: {?fused}fused{;}{!fused}not fused: {reason}{positions}\n";
static const char illegal_form[] = "{?illegal}{?tile}  illegal: {scheme:0} tile {tile:0}: {illegal_reason}\n"
                                   "{?illegal}{!tile}  illegal: {scheme:0}: {illegal_reason}\n";

void proj_whatif_write(proj_tool *t, FILE *f, bool json)
{
    if (!t->whatif)
        return;
    wi_tables x;
    const bool made = wi_tables_make(t, &x);
    if (json) {
        if (made)
            edan_table_json_object(f, &x.summary);
        else
            fputs(",\"what_if\":null", f);
    } else if (!made) {
        fprintf(f, "  what-if: out of memory\n");
    } else {
        edan_table_form(f, &x.summary, head_form);
        edan_table_form(f, &x.nests, nest_form);
        edan_table_form(f, &x.pairs, pair_form);
        if (!t->whatif->n_exact)
            fprintf(f, "  no nest to transform\n");
        for (int i = 0; t->whatif->n_exact && i < t->whatif->n_res; i++) /* each illegal plan once */
            edan_table_form_row(f, &x.rows, (size_t)i, illegal_form);
        if (t->whatif->n_exact)
            edan_table_text(f, &x.rows, &(edan_text_view){.heading_always = true});
    }
    wi_tables_free(&x);
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
    edan_table tab;
    proj_wi_row *rows = wi_table(t, &tab);
    int rc = -1;
    if (rows)
        rc = edan_table_csv_at(&tab, w->csv, "--what-if-csv", err);
    else
        edan_error_set(err, "out of memory for the what-if");
    edan_table_free(&tab);
    free(rows);
    return rc;
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
