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
#include "tool/graph/projection_whatif.h"
#include "util/files.h"
#include "util/parse.h"

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

/* The machine's data caches m with the last level of s bytes (a power of two, at least a line): the levels above it
 * kept where smaller than s, the last level's line, policies and ways (at most s / line, and a power of two where
 * its own number is not); from[i]: the level of m that c's level i is. */
static void sized_caches(const edan_cache_config *m, uint64_t s, edan_cache_config *c, int *from)
{
    *c = *m;
    if (m->n_levels < 1)
        return;
    c->n_levels = 0;
    for (int i = 0; i + 1 < m->n_levels; i++)
        if (m->level[i].size < s) {
            from[c->n_levels] = i;
            c->level[c->n_levels++] = m->level[i];
        }
    from[c->n_levels] = m->n_levels - 1;
    edan_cache_level_config last = m->level[m->n_levels - 1];
    last.size = s;
    if ((uint64_t)last.ways * last.line > s)
        last.ways = (uint32_t)(s / last.line);
    /* a power-of-two number of sets: ways not a power of two (12) become the largest power of two below */
    uint64_t way_bytes = (uint64_t)last.ways * last.line;
    if (s % way_bytes || ((s / way_bytes) & (s / way_bytes - 1)))
        while (last.ways & (last.ways - 1))
            last.ways &= last.ways - 1;
    c->level[c->n_levels++] = last;
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
    if (w->assoc && t->dim[0].n > WI_CACHES) {
        edan_error_set(err, "--what-if-cache=machine: at most %d --projection-cache sizes (%d given)", WI_CACHES,
                       t->dim[0].n);
        return -1;
    }
    for (int c = 0; w->assoc && c < t->dim[0].n; c++) {
        int from[EDAN_CACHE_MAX_LEVELS] = {0};
        sized_caches(&w->cache, (uint64_t)t->dim[0].v[c], &w->caches[c], from);
        edan_cache_config_format(&w->caches[c], w->cache_labels[c], sizeof w->cache_labels[c]);
        for (int l = 0; l < w->caches[c].n_levels; l++) { /* each level keeps its prefetcher and hit latency */
            w->pf_cfg[c][l] = t->machine.data[from[l]].prefetch;
            w->pf_hit[c][l] = t->machine.data[from[l]].hit_latency;
            w->prefetch |= w->pf_cfg[c][l].kind != EDAN_PREFETCH_NONE;
        }
    }
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
    free(w->pair_why);
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
    free(w->pair_why);
    w->order = calloc(nn + 1, sizeof *w->order);
    w->start = calloc(nn + 2, sizeof *w->start);
    w->pair_why = calloc(nn + 1, sizeof *w->pair_why);
    if (!w->order || !w->start || !w->pair_why)
        return false;
    w->n_exact = w->n_groups = 0;
    for (size_t i = 0; i < nn; i++) {
        const bool exact = edan_affine_nest_exact(&n[i]);
        const bool after = w->n_exact && i > 0 && w->order[w->n_exact - 1] == i - 1; /* the nest before is exact */
        const char *why = !after ? "the first is not replayed" : !exact ? "the second is not replayed" : NULL;
        if (!why && w->n_exact - w->start[w->n_groups - 1] >= EDAN_WHATIF_GROUP)
            why = "the group holds its most nests";
        if (!why && w->fuse)
            why = edan_whatif_unfusable(w->affine, &n[i - 1], &n[i]);
        else if (!why && !edan_whatif_compatible(&n[w->order[w->start[w->n_groups - 1]]], &n[i]))
            why = "not of one iteration space";
        w->pair_why[i] = why;
        if (!exact)
            continue;
        if (!together || why)
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

/* The core around the cache model at cache c (whatif.h): the machine's prefetchers (pf) or none, its reorder buffer's
 * share of the region's loads, the L1d's MSHRs. */
static edan_whatif_core replay_core(const proj_whatif *w, const proj_tool *t, int c, bool pf)
{
    const edan_opmix *mix = &t->total.mix;
    const double share = mix->instructions ? (double)mix->loads / (double)mix->instructions : 0;
    const double window = ceil((double)t->machine.rob_entries * share);
    return (edan_whatif_core){pf ? w->pf_cfg[c] : NULL, w->pf_hit[c], window >= 1 ? (uint64_t)window : 1,
                              t->machine.data[0].mshrs};
}

/* Plan p replayed through the LRU stack (*lru), or with --what-if-cache=machine through the cache model (*cm), and
 * where its loads found their data and their rounds of misses (*lat: cm's, or when the machine has prefetchers a
 * replay with them; its traffic, the prefetches' included, is not the what-if's: that stays comparable with
 * --cache's). lat may be NULL. */
static bool replay(proj_whatif *w, const proj_tool *t, const edan_whatif_plan *p, edan_lru_traffic *lru,
                   edan_whatif_model *cm, edan_whatif_model *lat)
{
    edan_error err = {0};
    for (int c = 0; w->assoc && c < t->dim[0].n; c++) { /* each size of the sweep through the one cache model */
        const edan_whatif_core plain = replay_core(w, t, c, false), pf = replay_core(w, t, c, true);
        if (edan_whatif_replay_cache(w->affine, w->order, w->start, w->n_groups, p, &w->caches[c], &plain, &cm[c],
                                     &err))
            return false;
        if (lat && !w->prefetch)
            lat[c] = cm[c];
        else if (lat && edan_whatif_replay_cache(w->affine, w->order, w->start, w->n_groups, p, &w->caches[c], &pf,
                                                 &lat[c], &err))
            return false;
    }
    if (w->assoc)
        return true;
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
        ok = replay(w, t, &p, &r->lru, r->cm, r->lat);
        p.halo = NULL;
        if (ok && r->halo)
            ok = replay(w, t, &p, &r->plain, r->cm_plain, NULL);
    }
    free(halo);
    return ok;
}

/* Everything the reports show, once. False when out of memory. */
bool proj_whatif_make(proj_tool *t)
{
    proj_whatif *w = t->whatif;
    if (w->made)
        return !w->failed;
    w->made = true;
    w->failed = true;
    if (edan_affine_finish(w->affine) || !make_groups(w, false))
        return false;
    const edan_whatif_plan as_run = {EDAN_WHATIF_EACH, 0, w->block, NULL};
    wi_result *u = &w->unblocked;
    *u = (wi_result){.order = EDAN_WHATIF_EACH, .legal = true};
    if (!replay(w, t, &as_run, &w->as_run, w->as_run_cm, u->lat))
        return false;
    u->lru = w->as_run;
    memcpy(u->cm, w->as_run_cm, sizeof u->cm);
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
/* Projected time                                                         */
/* ===================================================================== */

double proj_whatif_bytes(const proj_tool *t, const edan_lru_traffic *lru, const edan_whatif_model *cm, int c)
{
    return t->whatif->assoc
               ? (double)(cm[c].read + cm[c].write)
               : edan_whatif_bytes(lru, (unsigned)llround(log2(t->dim[0].v[c])) - t->line_shift, t->line_shift);
}

/*
 * The exposed latency (Karkhanis and Smith's first-order model): the
 * loads of one window of the reorder buffer are in flight together, so
 * their misses overlap and wait once per round of at most the L1d's MSHRs,
 * each round as long as its deepest miss: beyond the L1d's hit, the hit
 * latencies of the levels below it down to the one that had the line, and
 * the memory's latency when none had. A store waits in the store queue,
 * not the core. With the machine's prefetchers the rounds are those of the
 * replay with them: a stream they follow finds its lines near and costs
 * the bound's bandwidth only; without, every miss waits. The LRU caches
 * have no hierarchy: 0.
 */
double proj_whatif_exposed(const proj_tool *t, const wi_result *r, int c)
{
    const proj_whatif *w = t->whatif;
    if (!w->assoc)
        return 0;
    const edan_machine *m = &t->machine;
    const int nlev = w->caches[c].n_levels;
    double cycles = 0, wait = 0;
    for (int j = 1; j <= nlev; j++) {
        wait += j < nlev ? (double)w->pf_hit[c][j] : m->mem_latency_ns * m->clock_ghz;
        cycles += (double)r->lat[c].rounds[j] * wait;
    }
    return cycles / (m->clock_ghz * 1e9);
}

edan_proj proj_whatif_bound(const proj_tool *t, const wi_result *r, int c)
{
    const edan_proj_machine m = proj_machine(t);
    edan_proj p = edan_proj_bound((double)edan_opmix_flops(&t->total.mix) + r->halo_flops,
                                  edan_opmix_weighted_flops(&t->total.mix, &m.weights) + r->halo_wflops,
                                  proj_whatif_bytes(t, &r->lru, r->cm, c), m.peak_flops, m.bandwidth);
    p.time += proj_whatif_exposed(t, r, c);
    return p;
}

bool proj_whatif_unblocked_best(const proj_tool *t, int c)
{
    const proj_whatif *w = t->whatif;
    const double u = proj_whatif_bound(t, &w->unblocked, c).time;
    for (int i = 0; i < w->n_res; i++)
        if (w->res[i].legal && proj_whatif_bound(t, &w->res[i], c).time < u)
            return false;
    return true;
}
