/*
 * projection_whatif.c - the projection's what-ifs (--what-if=block:LEVELS,
 * --what-if=fuse): the loop nests' affine access functions recovered from
 * the stream (analysis/whatif/affine.h), their accesses replayed blocked or fused
 * (analysis/whatif/whatif.h), the traffic and ExaSAT's bound per scheme, tile size
 * and cache size, the best tile size per cache size; text, JSON and CSV.
 * docs/projection.md says what is computed.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/whatif/whatif.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/plot.h"
#include "tool/graph/projection_tool.h"
#include "util/files.h"
#include "util/parse.h"

#define WI_TILES 16

typedef struct wi_result {
    edan_whatif_order order;
    uint64_t tile;
    bool legal; /* the plan keeps every dependence; else not replayed, why says which it breaks */
    edan_whatif_conflict why;
    uint64_t halo;                  /* the tile scheme's redundant iterations: points recomputed, */
    double halo_flops, halo_wflops; /* their flops and weighted flops */
    double added;                   /* instructions the plan adds: loops run again per tile, tile loops, the halo */
    edan_lru_traffic lru;           /* the replay (the halo's recomputation included) */
    edan_lru_traffic plain;         /* with a halo: the tile scheme replayed without it (halo traffic: lru - plain) */
    edan_whatif_model cm, cm_plain; /* --what-if-cache=machine: the same through the cache model */
} wi_result;

/* A nest's work per point (iteration of its innermost loop): its loops' rows over its points. */
typedef struct wi_work {
    double flops, wflops, insns;
} wi_work;

struct proj_whatif {
    bool fuse;      /* --what-if=fuse; else block */
    unsigned block; /* the levels blocked: bit k for level k + 1 */
    uint64_t tiles[WI_TILES];
    int n_tiles; /* given by --what-if-tiles, else 0 until made */
    char csv[512];
    edan_affine *affine;
    bool made, failed;
    uint32_t *order; /* exact nests, grouped: group g is order[start[g] .. start[g + 1]) */
    size_t *start, n_groups, n_exact;
    edan_lru_traffic as_run; /* the exact nests replayed as they ran */
    bool assoc;              /* --what-if-cache=machine: replays through the machine's cache model, not the LRU */
    edan_cache_config cache; /* its configuration: the machine's data caches */
    char cache_label[256];
    edan_whatif_model as_run_cm;
    wi_result res[2 * WI_TILES + 1];
    int n_res;
    unsigned regs[PROJ_REGS]; /* --what-if-registers */
    int n_regs;
    proj_regs *model; /* per nest */
    wi_work *work;    /* per nest */
};

/* ===================================================================== */
/* Options                                                                */
/* ===================================================================== */

/* "fuse" or "block:L1,L2,..." (levels from 1, the nest's outermost loop). */
static int parse_what(const char *v, proj_whatif *w, edan_error *err)
{
    if (!strcmp(v, "fuse")) {
        w->fuse = true;
        return 0;
    }
    if (strncmp(v, "block:", 6)) {
        edan_error_set(err, "--what-if: '%s': expected block:LEVELS (levels of a nest from 1, e.g. block:2,3) or fuse",
                       v);
        return -1;
    }
    const char *p = v + 6;
    for (;;) {
        char *end;
        errno = 0;
        const long l = strtol(p, &end, 10);
        if (end == p || errno || l < 1 || l > EDAN_AFFINE_LEVELS || (*end && *end != ',')) {
            edan_error_set(err, "--what-if: '%s': a level is a number from 1 to %d", v, EDAN_AFFINE_LEVELS);
            return -1;
        }
        w->block |= 1u << (l - 1);
        if (!*end)
            return 0;
        p = end + 1;
    }
}

/* Tile sizes: numbers from 1, separated by commas, at most WI_TILES. */
static int parse_tiles(const char *v, proj_whatif *w, edan_error *err)
{
    const char *p = v;
    w->n_tiles = 0;
    for (;;) {
        char *end;
        errno = 0;
        const long long x = strtoll(p, &end, 10);
        if (end == p || errno || x < 1 || (*end && *end != ',') || w->n_tiles == WI_TILES) {
            edan_error_set(err, "--what-if-tiles: '%s': at most %d tile sizes from 1, separated by commas", v,
                           WI_TILES);
            return -1;
        }
        w->tiles[w->n_tiles++] = (uint64_t)x;
        if (!*end)
            return 0;
        p = end + 1;
    }
}

/* Register counts: numbers from 1 to 1024, separated by commas, at most PROJ_REGS. */
static int parse_regs(const char *v, proj_whatif *w, edan_error *err)
{
    const char *p = v;
    w->n_regs = 0;
    for (;;) {
        char *end;
        errno = 0;
        const long x = strtol(p, &end, 10);
        if (end == p || errno || x < 1 || x > 1024 || (*end && *end != ',') || w->n_regs == PROJ_REGS) {
            edan_error_set(err, "--what-if-registers: '%s': at most %d register counts from 1 to 1024", v, PROJ_REGS);
            return -1;
        }
        w->regs[w->n_regs++] = (unsigned)x;
        if (!*end)
            return 0;
        p = end + 1;
    }
}

int proj_whatif_check_regs(const char *v, edan_error *err)
{
    proj_whatif w = {0};
    return parse_regs(v, &w, err);
}

int proj_whatif_check(const char *v, edan_error *err)
{
    proj_whatif w = {0};
    return parse_what(v, &w, err);
}

int proj_whatif_check_tiles(const char *v, edan_error *err)
{
    proj_whatif *w = calloc(1, sizeof *w);
    if (!w) {
        edan_error_set(err, "out of memory");
        return -1;
    }
    const int rc = parse_tiles(v, w, err);
    free(w);
    return rc;
}

int proj_whatif_check_cache(const char *v, edan_error *err)
{
    if (strcmp(v, "lru") && strcmp(v, "machine")) {
        edan_error_set(err, "--what-if-cache: '%s': expected lru (fully associative) or machine (its cache model)", v);
        return -1;
    }
    return 0;
}

int proj_whatif_new(proj_tool *t, const edan_options *o, edan_error *err)
{
    const char *v = edan_options_last(o, "what-if");
    const char *tiles = edan_options_last(o, "what-if-tiles");
    const char *csv = edan_options_last(o, "what-if-csv");
    const char *regs = edan_options_last(o, "what-if-registers");
    const char *cache = edan_options_last(o, "what-if-cache");
    if (!v) {
        if (tiles || csv || regs || cache) {
            edan_error_set(err,
                           "--what-if-tiles, --what-if-registers, --what-if-cache and --what-if-csv need --what-if");
            return -1;
        }
        return 0;
    }
    proj_whatif *w = calloc(1, sizeof *w);
    if (!w || !(w->affine = edan_affine_new(t->loops))) {
        free(w);
        edan_error_set(err, "out of memory");
        return -1;
    }
    t->whatif = w;
    if (parse_what(v, w, err) || (tiles && parse_tiles(tiles, w, err)) || parse_regs(regs ? regs : "8,16,32", w, err))
        return -1;
    snprintf(w->csv, sizeof w->csv, "%s", csv ? csv : "");
    if (cache && proj_whatif_check_cache(cache, err))
        return -1;
    w->assoc = cache && !strcmp(cache, "machine");
    w->cache = edan_machine_data_caches(&t->machine);
    edan_cache_config_format(&w->cache, w->cache_label, sizeof w->cache_label);
    return 0;
}

void proj_whatif_free(proj_whatif *w)
{
    if (!w)
        return;
    edan_affine_free(w->affine);
    free(w->order);
    free(w->start);
    free(w->model);
    free(w->work);
    free(w);
}

int proj_whatif_observe(proj_whatif *w, const edan_exec *recs, size_t n)
{
    return edan_affine_observe(w->affine, recs, n);
}

/* ===================================================================== */
/* The replays                                                            */
/* ===================================================================== */

/* Group the exact nests: consecutive compatible ones together (fusion, the tile scheme), or each alone. */
static bool make_groups(proj_whatif *w, bool together)
{
    const edan_affine_nest *n = edan_affine_nests(w->affine);
    const size_t nn = edan_affine_n_nests(w->affine);
    free(w->order);
    free(w->start);
    w->order = calloc(nn + 1, sizeof *w->order);
    w->start = calloc(nn + 2, sizeof *w->start);
    if (!w->order || !w->start)
        return false;
    w->n_exact = w->n_groups = 0;
    for (size_t i = 0; i < nn; i++) {
        if (!edan_affine_nest_exact(&n[i]))
            continue;
        const bool join = together && w->n_exact && (i > 0 && w->order[w->n_exact - 1] == i - 1) &&
                          edan_whatif_compatible(&n[w->order[w->start[w->n_groups - 1]]], &n[i]);
        if (!join)
            w->start[w->n_groups++] = w->n_exact;
        w->order[w->n_exact++] = (uint32_t)i;
    }
    w->start[w->n_groups] = w->n_exact;
    return true;
}

/* The default tile sizes: powers of two from 4 below the longest blocked level's trip count. */
static void default_tiles(proj_whatif *w)
{
    const edan_affine_nest *n = edan_affine_nests(w->affine);
    uint64_t most = 0;
    for (size_t x = 0; x < w->n_exact; x++)
        for (unsigned k = 0; k < n[w->order[x]].levels; k++)
            if ((w->block & (1u << k)) && n[w->order[x]].extent[k] > most)
                most = n[w->order[x]].extent[k];
    for (uint64_t tile = 4; tile < most && w->n_tiles < WI_TILES; tile *= 2)
        w->tiles[w->n_tiles++] = tile;
}

/* Plan p replayed through the LRU stack (*lru), or with --what-if-cache=machine through the cache model (*cm). */
static bool replay(proj_whatif *w, const proj_tool *t, const edan_whatif_plan *p, edan_lru_traffic *lru,
                   edan_whatif_model *cm)
{
    edan_error err = {0};
    if (w->assoc)
        return !edan_whatif_replay_cache(w->affine, w->order, w->start, w->n_groups, p, &w->cache, cm, &err);
    return !edan_whatif_replay(w->affine, w->order, w->start, w->n_groups, p, t->line_shift, lru);
}

/* The row of loop id (NULL when it has none). */
static const proj_row *loop_row(const proj_tool *t, int32_t id)
{
    for (size_t r = 0; r < t->n_loops; r++)
        if (t->loop_rows[r].loop == id)
            return &t->loop_rows[r];
    return NULL;
}

/* Each nest's flops, weighted flops and instructions per point: its loops' rows over its points. */
static bool nest_work(proj_tool *t)
{
    proj_whatif *w = t->whatif;
    const size_t nn = edan_affine_n_nests(w->affine);
    const edan_affine_nest *n = edan_affine_nests(w->affine);
    w->work = calloc(nn + 1, sizeof *w->work);
    if (!w->work || !proj_rows_make(t))
        return false;
    const edan_proj_machine m = proj_machine(t);
    for (size_t i = 0; i < nn; i++) {
        if (!edan_affine_nest_exact(&n[i]))
            continue;
        edan_opmix mix = {0};
        for (unsigned k = 0; k < n[i].levels; k++)
            if (loop_row(t, n[i].loop[k]))
                edan_opmix_merge(&mix, &loop_row(t, n[i].loop[k])->mix);
        double points = (double)n[i].entries;
        for (unsigned k = 0; k < n[i].levels; k++)
            points *= (double)n[i].trip[k];
        const proj_row *inner = loop_row(t, n[i].loop[n[i].levels - 1]);
        if (n[i].bounded) /* a bounded nest's points: its innermost loop's iterations */
            points = inner ? (double)inner->iterations : 0;
        if (points > 0)
            w->work[i] =
                (wi_work){(double)edan_opmix_flops(&mix) / points, edan_opmix_weighted_flops(&mix, &m.weights) / points,
                          (double)mix.instructions / points};
    }
    return true;
}

/*
 * The instructions plan p adds to nest n (halo: its halo in the tile
 * scheme): a level's loop runs again for every tile of a deeper blocked
 * level (its row's instructions once more per extra run); the tile loops
 * iterate (each iteration at the blocked level's instructions per
 * iteration), once per group in the tile scheme (tile_loops); the
 * recomputed points at the nest's instructions per point.
 */
static double added_instructions(const proj_tool *t, const edan_affine_nest *n, const wi_work *work,
                                 const edan_whatif_plan *p, const edan_whatif_halo *halo, bool tile_loops)
{
    uint64_t tiles[EDAN_AFFINE_LEVELS];
    for (unsigned k = 0; k < n->levels; k++)
        tiles[k] =
            p->tile && (p->block & (1u << k)) && p->tile < n->extent[k] ? (n->extent[k] + p->tile - 1) / p->tile : 1;
    double added = (double)halo->redundant * work->insns, runs = (double)n->entries;
    for (unsigned k = 0; k < n->levels; k++) {
        const proj_row *row = loop_row(t, n->loop[k]);
        if (!row || !row->iterations)
            continue;
        double again = 1;
        for (unsigned l = k + 1; l < n->levels; l++)
            again *= (double)tiles[l];
        added += (again - 1) * (double)row->mix.instructions;
        runs *= (double)tiles[k];
        if (tile_loops && tiles[k] > 1)
            added += runs * (double)row->mix.instructions / (double)row->iterations;
    }
    return added;
}

/*
 * Result r: the plan checked for dependences (not replayed when it breaks
 * one), the tile scheme's halos recomputed, their work counted, and the
 * replay without the halo beside (its traffic the difference).
 */
static bool result(proj_whatif *w, const proj_tool *t, wi_result *r)
{
    edan_whatif_halo *halo = calloc(w->n_exact + 1, sizeof *halo);
    if (!halo)
        return false;
    edan_whatif_plan p = {r->order, r->tile, w->block, NULL};
    r->legal = edan_whatif_check(w->affine, w->order, w->start, w->n_groups, &p, halo, &r->why);
    const edan_affine_nest *n = edan_affine_nests(w->affine);
    for (size_t g = 0; g < w->n_groups; g++)
        for (size_t x = w->start[g]; x < w->start[g + 1]; x++) {
            const wi_work *work = &w->work[w->order[x]];
            r->halo += halo[x].redundant;
            r->halo_flops += (double)halo[x].redundant * work->flops;
            r->halo_wflops += (double)halo[x].redundant * work->wflops;
            if (r->order != EDAN_WHATIF_POINT) /* fusion's saved loop control is not estimated */
                r->added += added_instructions(t, &n[w->order[x]], work, &p, &halo[x],
                                               r->order == EDAN_WHATIF_EACH || x == w->start[g]);
        }
    bool ok = true;
    if (r->legal) {
        p.halo = halo;
        ok = replay(w, t, &p, &r->lru, &r->cm);
        p.halo = NULL;
        if (ok && r->halo)
            ok = replay(w, t, &p, &r->plain, &r->cm_plain);
    }
    free(halo);
    return ok;
}

/* Everything the reports show, once. False when out of memory. */
static bool make(proj_tool *t)
{
    proj_whatif *w = t->whatif;
    if (w->made)
        return !w->failed;
    w->made = true;
    w->failed = true;
    if (edan_affine_finish(w->affine) || !make_groups(w, false))
        return false;
    const edan_whatif_plan as_run = {EDAN_WHATIF_EACH, 0, w->block, NULL};
    if (!replay(w, t, &as_run, &w->as_run, &w->as_run_cm))
        return false;
    w->model = calloc(edan_affine_n_nests(w->affine) + 1, sizeof *w->model);
    if (!w->model)
        return false;
    for (size_t i = 0; i < edan_affine_n_nests(w->affine); i++)
        proj_register_model(t, w->affine, w->regs, w->n_regs, &edan_affine_nests(w->affine)[i], &w->model[i]);
    if (!nest_work(t))
        return false;
    if (w->fuse) {
        if (!make_groups(w, true))
            return false;
        w->res[0] = (wi_result){.order = EDAN_WHATIF_POINT};
        if (!result(w, t, &w->res[0]))
            return false;
        w->n_res = 1;
        w->failed = false;
        return true;
    }
    if (!w->n_tiles)
        default_tiles(w);
    for (int i = 0; i < w->n_tiles; i++) {
        wi_result *r = &w->res[w->n_res++];
        *r = (wi_result){.order = EDAN_WHATIF_EACH, .tile = w->tiles[i]};
        if (!result(w, t, r))
            return false;
    }
    if (!make_groups(w, true))
        return false;
    if (w->n_groups < w->n_exact) /* the tile scheme differs only where nests share a block */
        for (int i = 0; i < w->n_tiles; i++) {
            wi_result *r = &w->res[w->n_res++];
            *r = (wi_result){.order = EDAN_WHATIF_TILE, .tile = w->tiles[i]};
            if (!result(w, t, r))
                return false;
        }
    w->failed = false;
    return true;
}

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

/* The caches of the rows: --projection-cache's sizes (LRU), or the machine's hierarchy (its last level's size). */
static int n_caches(const proj_tool *t)
{
    return t->whatif->assoc ? 1 : t->dim[0].n;
}

static double cache_size(const proj_tool *t, int c)
{
    return t->whatif->assoc ? (double)t->machine.data[t->machine.n_data_levels - 1].geo.size : t->dim[0].v[c];
}

/* A replay's DRAM bytes: at an LRU cache of 2^k lines, or under the cache model. */
static double wi_bytes(const proj_tool *t, const edan_lru_traffic *lru, const edan_whatif_model *cm, unsigned k)
{
    return t->whatif->assoc ? (double)(cm->read + cm->write) : edan_whatif_bytes(lru, k, t->line_shift);
}

/* The region's measured DRAM bytes at 2^k lines: the LRU's, or with the cache model the projection's (--cache's). */
static double measured_bytes(const proj_tool *t, unsigned k)
{
    if (!t->whatif->assoc)
        return edan_whatif_bytes(&t->total.lru, k, t->line_shift);
    double rd, wr;
    proj_row_dram(t, &t->total, k, &rd, &wr, NULL);
    return rd + wr;
}

/* A result's bound at a cache of 2^k lines: the region's work with the halo's, the replay's traffic. */
static edan_proj row_bound(const proj_tool *t, const wi_result *r, unsigned k)
{
    const edan_proj_machine m = proj_machine(t);
    return edan_proj_bound((double)edan_opmix_flops(&t->total.mix) + r->halo_flops,
                           edan_opmix_weighted_flops(&t->total.mix, &m.weights) + r->halo_wflops,
                           wi_bytes(t, &r->lru, &r->cm, k), m.peak_flops, m.bandwidth);
}

/* The DRAM bytes the tile scheme's recomputed halo adds (its replay less the one without the halo). */
static double halo_bytes(const proj_tool *t, const wi_result *r, unsigned k)
{
    return r->halo ? wi_bytes(t, &r->lru, &r->cm, k) - wi_bytes(t, &r->plain, &r->cm_plain, k) : 0;
}

/* The best legal result at cache size k: the least projected time, then the least traffic, then the smallest tile. */
static int best_at(const proj_tool *t, unsigned k)
{
    const proj_whatif *w = t->whatif;
    int best = -1;
    double bt = 0, bb = 0;
    for (int i = 0; i < w->n_res; i++) {
        if (!w->res[i].legal)
            continue;
        const edan_proj p = row_bound(t, &w->res[i], k);
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
    if (!make(t)) {
        fprintf(f, "  what-if: out of memory\n");
        return;
    }
    const edan_affine_nest *n = edan_affine_nests(w->affine);
    fprintf(f, "  what-if                   %s, from the nests' affine access functions\n",
            w->fuse ? "fusion of consecutive nests of one iteration space" : "cache blocking");
    if (w->assoc)
        fprintf(f, "  what-if traffic           the machine's cache model (%s), started empty\n", w->cache_label);
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
        const unsigned k = cache_k(t, cache_size(t, c));
        const double as_run = wi_bytes(t, &w->as_run, &w->as_run_cm, k);
        const double measured = measured_bytes(t, k);
        const int best = best_at(t, k);
        for (int i = 0; i < w->n_res; i++) {
            const wi_result *r = &w->res[i];
            char tile[24] = "-";
            if (r->tile)
                snprintf(tile, sizeof tile, "%" PRIu64, r->tile);
            fprintf(f, "  %-20s %6s %10.0f %14.0f %14.0f ", scheme_name(w, r->order), tile, cache_size(t, c) / 1024,
                    as_run, measured);
            if (!r->legal) {
                fprintf(f, "%14s\n", "illegal");
                continue;
            }
            const edan_proj p = row_bound(t, r, k);
            fprintf(f, "%14.0f %12" PRIu64 " %12.0f %12.0f %12.0f %8.3g %12.4g%s\n", p.dram_bytes, r->halo,
                    r->halo_wflops, halo_bytes(t, r, k), r->added, p.bytes_per_flop, p.time * 1e3,
                    i == best && !w->fuse ? " best" : "");
        }
    }
}

void proj_whatif_json(proj_tool *t, FILE *f)
{
    proj_whatif *w = t->whatif;
    if (!w)
        return;
    fprintf(f, ",\"what_if\":");
    if (!make(t)) {
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
    fprintf(f, "],\"complete\":%s,\"rows\":[", w->n_exact == edan_affine_n_nests(w->affine) ? "true" : "false");
    for (int c = 0, first = 1; c < n_caches(t) && w->n_exact; c++) {
        const unsigned k = cache_k(t, cache_size(t, c));
        const int best = best_at(t, k);
        for (int i = 0; i < w->n_res; i++, first = 0) {
            const wi_result *r = &w->res[i];
            const edan_proj p = row_bound(t, r, k);
            fprintf(f, "%s{\"scheme\":\"%s\",\"tile\":%" PRIu64 ",\"cache_bytes\":%.0f", first ? "" : ",",
                    scheme_name(w, r->order), r->tile, cache_size(t, c));
            fprintf(f, ",\"as_run_dram_bytes\":%.0f,\"measured_dram_bytes\":%.0f,\"legal\":%s,\"illegal_reason\":",
                    wi_bytes(t, &w->as_run, &w->as_run_cm, k), measured_bytes(t, k), r->legal ? "true" : "false");
            char why[640];
            if (!r->legal)
                proj_why_illegal(t, w->affine, &r->why, r->order, why, sizeof why);
            edan_json_str(f, r->legal ? NULL : why);
            fprintf(f, ",\"halo_iterations\":%" PRIu64 ",\"halo_flops\":%.0f,\"halo_weighted_flops\":%.0f", r->halo,
                    r->halo_flops, r->halo_wflops);
            fprintf(f, ",\"halo_dram_bytes\":");
            edan_json_num(f, r->legal ? halo_bytes(t, r, k) : NAN);
            fprintf(f, ",\"added_instructions\":%.0f,\"overhead_s\":", r->added);
            edan_json_num(f, overhead(t, r));
            fprintf(f, ",\"weighted_flops\":");
            edan_json_num(f, p.weighted_flops);
            fprintf(f, ",\"dram_bytes\":");
            edan_json_num(f, r->legal ? p.dram_bytes : NAN);
            fprintf(f, ",\"bytes_per_flop\":");
            edan_json_num(f, r->legal ? p.bytes_per_flop : NAN);
            fprintf(f, ",\"time_s\":");
            edan_json_num(f, r->legal ? p.time : NAN);
            fprintf(f, ",\"best\":%s}", i == best && !w->fuse ? "true" : "false");
        }
    }
    fprintf(f, "]}");
}

int proj_whatif_csv(proj_tool *t, edan_error *err)
{
    proj_whatif *w = t->whatif;
    if (!w || !w->csv[0])
        return 0;
    if (!make(t)) {
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
        const unsigned k = cache_k(t, cache_size(t, c));
        const int best = best_at(t, k);
        for (int i = 0; i < w->n_res; i++) {
            const wi_result *r = &w->res[i];
            const edan_proj p = row_bound(t, r, k);
            fprintf(f, "%s,%" PRIu64 ",%.0f,%.10g,%.10g,", scheme_name(w, r->order), r->tile, cache_size(t, c),
                    wi_bytes(t, &w->as_run, &w->as_run_cm, k) / 1e9, measured_bytes(t, k) / 1e9);
            if (r->legal)
                fprintf(f, "%.10g,%.10g,%.6g,%.10g,%s,%d,1,%" PRIu64 ",%.10g,%.10g,%.0f,%.10g,\n", p.dram_bytes / 1e9,
                        p.weighted_flops / 1e9, p.bytes_per_flop, p.time * 1e3, p.memory_bound ? "memory" : "compute",
                        i == best && !w->fuse, r->halo, r->halo_wflops / 1e9, halo_bytes(t, r, k) / 1e9, r->added,
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
    if (!make(t)) {
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
        const unsigned k = cache_k(t, cache_size(t, c));
        if (w->assoc)
            snprintf(series[c], sizeof series[c], "the machine's caches");
        else
            snprintf(series[c], sizeof series[c], "LRU cache of %.0f KiB", t->dim[0].v[c] / 1024);
        for (int i = 0; i < w->n_tiles; i++) {
            x[i] = (double)w->res[i].tile;
            y[c][i] = w->res[i].legal ? row_bound(t, &w->res[i], k).time : NAN;
        }
        spec.series[c] = series[c];
        spec.y[c] = y[c];
        spec.n_series = c + 1;
    }
    return edan_plot_xy(dir, name, &spec, err);
}
