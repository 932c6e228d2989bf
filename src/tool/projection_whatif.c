/*
 * projection_whatif.c - the projection's what-ifs (--what-if=block:LEVELS,
 * --what-if=fuse): the loop nests' affine access functions recovered from
 * the stream (analysis/affine.h), their accesses replayed blocked or fused
 * (analysis/whatif.h), the traffic and ExaSAT's bound per scheme, tile size
 * and cache size, the best tile size per cache size; text, JSON and CSV.
 * docs/projection.md says what is computed.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/whatif.h"
#include "report/json.h"
#include "report/plot.h"
#include "tool/projection_tool.h"
#include "util/files.h"
#include "util/parse.h"

#define WI_TILES 16
#define WI_REGS 8   /* register counts of the register model */
#define WI_STATE 96 /* state variables of one nest's body: 64 registers and memory-resident ones */

/*
 * ExaSAT's register model of a nest's body (its innermost loop): the state
 * variables with their accesses per iteration, the most accessed ones in
 * the registers, the accesses of the others spilled to the cache.
 */
typedef struct wi_regs {
    int32_t loop;               /* the body: the chain's innermost loop */
    uint64_t iterations;        /* executions of its head */
    unsigned used[2];           /* registers the body names: integer, FP */
    unsigned memory_state;      /* state variables in memory: addresses invariant in the body (not the stack) */
    double stack;               /* sp-relative accesses per iteration: the compiled code's own spills */
    double spilled[2][WI_REGS]; /* per register count: accesses per iteration spilled, integer and FP */
} wi_regs;

typedef struct wi_result {
    edan_whatif_order order;
    uint64_t tile;
    edan_lru_traffic lru;
} wi_result;

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
    wi_result res[2 * WI_TILES + 1];
    int n_res;
    unsigned regs[WI_REGS]; /* --what-if-registers */
    int n_regs;
    wi_regs *model; /* per nest */
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

/* Register counts: numbers from 1 to 1024, separated by commas, at most WI_REGS. */
static int parse_regs(const char *v, proj_whatif *w, edan_error *err)
{
    const char *p = v;
    w->n_regs = 0;
    for (;;) {
        char *end;
        errno = 0;
        const long x = strtol(p, &end, 10);
        if (end == p || errno || x < 1 || x > 1024 || (*end && *end != ',') || w->n_regs == WI_REGS) {
            edan_error_set(err, "--what-if-registers: '%s': at most %d register counts from 1 to 1024", v, WI_REGS);
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

int proj_whatif_new(proj_tool *t, const edan_options *o, edan_error *err)
{
    const char *v = edan_options_last(o, "what-if");
    const char *tiles = edan_options_last(o, "what-if-tiles");
    const char *csv = edan_options_last(o, "what-if-csv");
    const char *regs = edan_options_last(o, "what-if-registers");
    if (!v) {
        if (tiles || csv || regs) {
            edan_error_set(err, "--what-if-tiles, --what-if-registers and --what-if-csv need --what-if");
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
            if ((w->block & (1u << k)) && n[w->order[x]].trip[k] > most)
                most = n[w->order[x]].trip[k];
    for (uint64_t tile = 4; tile < most && w->n_tiles < WI_TILES; tile *= 2)
        w->tiles[w->n_tiles++] = tile;
}

static bool replay(proj_whatif *w, const proj_tool *t, edan_whatif_order order, uint64_t tile, edan_lru_traffic *out)
{
    const edan_whatif_plan p = {order, tile, w->block};
    return !edan_whatif_replay(w->affine, w->order, w->start, w->n_groups, &p, t->line_shift, out);
}

/* ---- the register model ---------------------------------------------- */

typedef struct wi_var {
    double refs; /* accesses per iteration */
    int fp;
} wi_var;

static int by_refs(const void *x, const void *y)
{
    const double a = ((const wi_var *)x)->refs, b = ((const wi_var *)y)->refs;
    return (a < b) - (a > b);
}

/*
 * The body's state variables: every register its instructions name (an
 * access per naming instruction and execution) and every memory location
 * its affine loads and stores reach at one address through the body (stride
 * 0 at the innermost level, not sp-relative: a scalar the code keeps in
 * memory), by its access function, of the class of the instruction's data.
 */
static void register_model(const proj_tool *t, const edan_affine_nest *n, wi_regs *m)
{
    const proj_whatif *w = t->whatif;
    const edan_loop *body = edan_loops_get(t->loops, (uint32_t)n->loop[n->levels - 1]);
    m->loop = n->loop[n->levels - 1];
    for (size_t i = 0; i < t->ids_cap; i++)
        if (t->ids[i].seen && t->ids[i].insn->pc == body->head)
            m->iterations += t->ids[i].executions;
    if (!m->iterations)
        return;
    const double it = (double)m->iterations;
    wi_var var[WI_STATE];
    double reg_refs[64] = {0};
    for (size_t i = 0; i < t->ids_cap; i++) {
        const proj_id *s = &t->ids[i];
        if (!s->seen || !s->executions || edan_loops_innermost(t->loops, s->insn->pc) != m->loop)
            continue;
        uint8_t named[EDAN_MAX_SRC + 1 + EDAN_MAX_MORE];
        unsigned k = 0;
        for (unsigned j = 0; j < s->insn->n_src; j++)
            named[k++] = s->insn->src[j];
        /* a native instruction's further sources, then its destinations (riscv.h: more[]) */
        const unsigned n_more = (unsigned)s->insn->n_more_src + s->insn->n_more_dst;
        for (int j = s->insn->n_dst ? -1 : (int)n_more; j < (int)n_more; j++) {
            const uint8_t r = j < 0 ? s->insn->dst : s->insn->more[j];
            bool again = false;
            for (unsigned q = 0; q < k; q++)
                again |= named[q] == r;
            if (!again)
                named[k++] = r;
        }
        for (unsigned j = 0; j < k; j++)
            if (named[j] < 64)
                reg_refs[named[j]] += (double)s->executions / it;
        if (s->stack && s->insn->mem != EDAN_MEM_NONE)
            m->stack += (double)s->accesses / it;
    }
    size_t nv = 0;
    for (unsigned r = 0; r < 64; r++)
        if (reg_refs[r] > 0) {
            var[nv++] = (wi_var){reg_refs[r], r >= 32};
            m->used[r >= 32]++;
        }
    const edan_affine_insn *in = edan_affine_insns(w->affine) + n->first;
    for (size_t j = 0; j < n->n; j++) { /* memory-resident scalars: one per access function invariant in the body */
        const edan_affine_insn *o = &in[j];
        if (!o->affine || o->levels != n->levels || o->stride[o->levels - 1] || o->insn->rs1 == EDAN_REG_X(2))
            continue;
        bool first = true;
        for (size_t x = 0; x < j && first; x++)
            first = !(in[x].affine && in[x].levels == o->levels && in[x].base == o->base &&
                      !memcmp(in[x].stride, o->stride, sizeof o->stride));
        double refs = 0;
        for (size_t x = j; x < n->n; x++)
            if (in[x].affine && in[x].levels == o->levels && in[x].base == o->base &&
                !memcmp(in[x].stride, o->stride, sizeof o->stride))
                refs += (double)in[x].accesses / it;
        if (first && nv < WI_STATE) {
            const bool fp = (o->insn->mem == EDAN_MEM_LOAD ? o->insn->rd : o->insn->rs2) >= EDAN_REG_F(0);
            var[nv++] = (wi_var){refs, fp};
            m->memory_state++;
        }
    }
    qsort(var, nv, sizeof *var, by_refs);
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < w->n_regs; r++) {
            unsigned held = 0;
            for (size_t v = 0; v < nv; v++) {
                if (var[v].fp != c)
                    continue;
                if (held < w->regs[r])
                    held++;
                else
                    m->spilled[c][r] += var[v].refs;
            }
        }
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
    if (!replay(w, t, EDAN_WHATIF_EACH, 0, &w->as_run))
        return false;
    w->model = calloc(edan_affine_n_nests(w->affine) + 1, sizeof *w->model);
    if (!w->model)
        return false;
    for (size_t i = 0; i < edan_affine_n_nests(w->affine); i++)
        register_model(t, &edan_affine_nests(w->affine)[i], &w->model[i]);
    if (w->fuse) {
        if (!make_groups(w, true))
            return false;
        w->res[0] = (wi_result){EDAN_WHATIF_POINT, 0, {0}};
        if (!replay(w, t, EDAN_WHATIF_POINT, 0, &w->res[0].lru))
            return false;
        w->n_res = 1;
        w->failed = false;
        return true;
    }
    if (!w->n_tiles)
        default_tiles(w);
    for (int i = 0; i < w->n_tiles; i++) {
        wi_result *r = &w->res[w->n_res++];
        *r = (wi_result){EDAN_WHATIF_EACH, w->tiles[i], {0}};
        if (!replay(w, t, EDAN_WHATIF_EACH, w->tiles[i], &r->lru))
            return false;
    }
    if (!make_groups(w, true))
        return false;
    if (w->n_groups < w->n_exact) /* the tile scheme differs only where nests share a block */
        for (int i = 0; i < w->n_tiles; i++) {
            wi_result *r = &w->res[w->n_res++];
            *r = (wi_result){EDAN_WHATIF_TILE, w->tiles[i], {0}};
            if (!replay(w, t, EDAN_WHATIF_TILE, w->tiles[i], &r->lru))
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

static const char *why_not(const edan_affine_nest *n)
{
    if (n->nonaffine_accesses)
        return "non-affine accesses";
    if (n->in_calls)
        return "accesses in called functions";
    if (!n->single_chain)
        return "several inner loops";
    if (!n->rectangular)
        return "trip counts vary";
    return NULL;
}

/* The best result at cache size k: the least projected time, then the least traffic, then the smallest tile. */
static int best_at(const proj_tool *t, unsigned k)
{
    const proj_whatif *w = t->whatif;
    const edan_proj_machine m = proj_machine(t);
    int best = -1;
    double bt = 0, bb = 0;
    for (int i = 0; i < w->n_res; i++) {
        const double bytes = edan_whatif_bytes(&w->res[i].lru, k, t->line_shift);
        const double time = edan_proj_evaluate(&t->total.mix, bytes, &m).time;
        if (best < 0 || time < bt || (time == bt && bytes < bb)) {
            best = i;
            bt = time;
            bb = bytes;
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
    const edan_proj_machine m = proj_machine(t);
    fprintf(f, "  what-if                   %s, from the nests' affine access functions\n",
            w->fuse ? "fusion of consecutive nests of one iteration space" : "cache blocking");
    for (size_t i = 0; i < edan_affine_n_nests(w->affine); i++) {
        const edan_loop_place p = proj_loop_place(t, n[i].loop[0]);
        fprintf(f, "  nest #%d %s:%u, %u level%s, trips", n[i].loop[0], p.function ? p.function : "?", p.line,
                n[i].levels, n[i].levels == 1 ? "" : "s");
        for (unsigned k = 0; k < n[i].levels; k++)
            fprintf(f, "%s%" PRIu64, k ? " x " : " ", n[i].trip[k]);
        const char *why = why_not(&n[i]);
        fprintf(f, ", %" PRIu64 " entr%s, %" PRIu64 " accesses: %s", n[i].entries, n[i].entries == 1 ? "y" : "ies",
                n[i].accesses + n[i].in_calls, why ? "not replayed: " : "affine");
        if (why)
            fprintf(f, "%s (%.1f %% of its accesses non-affine)", why,
                    100.0 * (double)(n[i].nonaffine_accesses + n[i].in_calls) /
                        (double)(n[i].accesses + n[i].in_calls ? n[i].accesses + n[i].in_calls : 1));
        fputc('\n', f);
        const wi_regs *g = &w->model[i];
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
    fprintf(f, "  %-20s %6s %10s %14s %14s %14s %8s %12s\n", "scheme", "tile", "cache kB", "as run bytes",
            "measured bytes", "what-if bytes", "B:F", "time ms");
    for (int c = 0; c < t->dim[0].n; c++) {
        const unsigned k = cache_k(t, t->dim[0].v[c]);
        const double as_run = edan_whatif_bytes(&w->as_run, k, t->line_shift);
        const double measured = edan_whatif_bytes(&t->total.lru, k, t->line_shift);
        const int best = best_at(t, k);
        for (int i = 0; i < w->n_res; i++) {
            const double bytes = edan_whatif_bytes(&w->res[i].lru, k, t->line_shift);
            const edan_proj p = edan_proj_evaluate(&t->total.mix, bytes, &m);
            char tile[24] = "-";
            if (w->res[i].tile)
                snprintf(tile, sizeof tile, "%" PRIu64, w->res[i].tile);
            fprintf(f, "  %-20s %6s %10.0f %14.0f %14.0f %14.0f %8.3g %12.4g%s\n", scheme_name(w, w->res[i].order),
                    tile, t->dim[0].v[c] / 1024, as_run, measured, bytes, p.bytes_per_flop, p.time * 1e3,
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
    const edan_proj_machine m = proj_machine(t);
    fprintf(f, "{\"kind\":\"%s\",\"levels\":[", w->fuse ? "fuse" : "block");
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
        const char *why = why_not(&n[i]);
        fprintf(f,
                ",\"entries\":%" PRIu64 ",\"accesses\":%" PRIu64 ",\"nonaffine_accesses\":%" PRIu64
                ",\"in_calls\":%" PRIu64 ",\"replayed\":%s,\"reason\":",
                n[i].entries, n[i].accesses, n[i].nonaffine_accesses, n[i].in_calls, why ? "false" : "true");
        edan_json_str(f, why);
        const wi_regs *g = &w->model[i];
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
    for (int c = 0, first = 1; c < t->dim[0].n && w->n_exact; c++) {
        const unsigned k = cache_k(t, t->dim[0].v[c]);
        const int best = best_at(t, k);
        for (int i = 0; i < w->n_res; i++, first = 0) {
            const double bytes = edan_whatif_bytes(&w->res[i].lru, k, t->line_shift);
            const edan_proj p = edan_proj_evaluate(&t->total.mix, bytes, &m);
            fprintf(f, "%s{\"scheme\":\"%s\",\"tile\":%" PRIu64 ",\"cache_bytes\":%.0f", first ? "" : ",",
                    scheme_name(w, w->res[i].order), w->res[i].tile, t->dim[0].v[c]);
            fprintf(f, ",\"as_run_dram_bytes\":%.0f,\"measured_dram_bytes\":%.0f,\"dram_bytes\":%.0f",
                    edan_whatif_bytes(&w->as_run, k, t->line_shift), edan_whatif_bytes(&t->total.lru, k, t->line_shift),
                    bytes);
            fprintf(f, ",\"bytes_per_flop\":");
            edan_json_num(f, p.bytes_per_flop);
            fprintf(f, ",\"time_s\":");
            edan_json_num(f, p.time);
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
    const edan_proj_machine m = proj_machine(t);
    fprintf(f, "scheme,tile,cache_bytes,as_run_traffic_gb,measured_traffic_gb,traffic_gb,weighted_gflop,"
               "bytes_per_flop,time_ms,bound,best\n");
    for (int c = 0; c < t->dim[0].n && w->n_exact; c++) {
        const unsigned k = cache_k(t, t->dim[0].v[c]);
        const int best = best_at(t, k);
        for (int i = 0; i < w->n_res; i++) {
            const double bytes = edan_whatif_bytes(&w->res[i].lru, k, t->line_shift);
            const edan_proj p = edan_proj_evaluate(&t->total.mix, bytes, &m);
            fprintf(f, "%s,%" PRIu64 ",%.0f,%.10g,%.10g,%.10g,%.10g,%.6g,%.10g,%s,%d\n",
                    scheme_name(w, w->res[i].order), w->res[i].tile, t->dim[0].v[c],
                    edan_whatif_bytes(&w->as_run, k, t->line_shift) / 1e9,
                    edan_whatif_bytes(&t->total.lru, k, t->line_shift) / 1e9, bytes / 1e9, p.weighted_flops / 1e9,
                    p.bytes_per_flop, p.time * 1e3, p.memory_bound ? "memory" : "compute", i == best && !w->fuse);
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
    const edan_proj_machine m = proj_machine(t);
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
    for (int c = 0; c < t->dim[0].n && c < EDAN_PLOT_MAX_SERIES; c++) {
        const unsigned k = cache_k(t, t->dim[0].v[c]);
        snprintf(series[c], sizeof series[c], "LRU cache of %.0f KiB", t->dim[0].v[c] / 1024);
        for (int i = 0; i < w->n_tiles; i++) {
            x[i] = (double)w->res[i].tile;
            y[c][i] = edan_proj_evaluate(&t->total.mix, edan_whatif_bytes(&w->res[i].lru, k, t->line_shift), &m).time;
        }
        spec.series[c] = series[c];
        spec.y[c] = y[c];
        spec.n_series = c + 1;
    }
    return edan_plot_xy(dir, name, &spec, err);
}
