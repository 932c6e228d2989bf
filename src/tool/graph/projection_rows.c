/*
 * projection_rows.c - the projection's rows after the stream: every static
 * instruction's counts added to the whole region, to its function (by its
 * pc, from the program's symbols) and to its innermost loop (or to the code
 * outside every loop), so the loop rows and the outside row partition the
 * region, as the function rows do. Then a row's traffic and its bound.
 */
#include <stdlib.h>
#include <string.h>

#include "tool/graph/projection_tool.h"

/* ===================================================================== */
/* Rows                                                                   */
/* ===================================================================== */

/* Add static id's operation counts to row r. */
static void row_add_ops(const proj_tool *t, proj_row *r, const proj_id *s)
{
    const bool has_mem = s->insn->mem != EDAN_MEM_NONE;
    edan_opmix_add(&r->mix, s->insn, s->executions, has_mem ? s->accesses : s->executions);
    if (s->call) {
        const proj_call *c = &t->calls[s->call - 1];
        r->mix.transcendentals += c->transcendentals;
        r->mix.sqrt_calls += c->sqrt_calls;
        r->mix.in_calls += c->in_calls;
        r->mix.in_calls_flops += c->in_calls_flops;
    }
}

/* Add the traffic of memory pool entry e (a static id's in one region) to row r. */
static void row_add_mem(const proj_tool *t, proj_row *r, size_t e)
{
    edan_lru_merge(&r->lru, &t->mem[e].lru);
    if (!t->n_models)
        return; /* no --cache: no model bytes (and no array to point into) */
    const uint64_t *bytes = t->model_bytes + e * 3 * (size_t)t->n_models;
    for (int c = 0; c < t->n_models; c++) {
        r->model_read[c] += bytes[c];
        r->model_write[c] += bytes[t->n_models + c] + bytes[2 * t->n_models + c];
        r->model_flush[c] += bytes[2 * t->n_models + c];
    }
}

/* Keep the rows that ran (instructions or accesses); n becomes their number. */
static void keep_active(proj_row *rows, size_t *n)
{
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++)
        if (rows[i].mix.instructions || rows[i].lru.accesses || rows[i].mix.loads || rows[i].mix.stores)
            rows[kept++] = rows[i];
    *n = kept;
}

/* The regions' rows: every region touched, the most DRAM bytes (at the machine's cache) first. */
static void sort_regions(const proj_tool *t, proj_row *rows, size_t n)
{
    double *key = malloc((n ? n : 1) * sizeof *key);
    for (size_t i = 0; key && i < n; i++) {
        double rd, wr;
        proj_row_dram(t, &rows[i], t->machine_k, &rd, &wr, NULL);
        key[i] = rd + wr;
    }
    for (size_t i = 1; key && i < n; i++) { /* insertion sort: stable, by region index among equals */
        const proj_row r = rows[i];
        const double k = key[i];
        size_t j = i;
        while (j > 0 && key[j - 1] < k) {
            rows[j] = rows[j - 1];
            key[j] = key[j - 1];
            j--;
        }
        rows[j] = r;
        key[j] = k;
    }
    free(key);
}

/* Add the share of id's timed cycles that `executions` of its executions make to row r. */
static void row_add_time(const proj_tool *t, proj_row *r, uint32_t id, uint64_t executions)
{
    const uint64_t count = edan_timing_id_count(t->timing, id);
    if (!count || !executions)
        return;
    const double share = executions == count ? 1.0 : (double)executions / (double)count;
    for (int k = 0; k < edan_timing_lanes(t->timing); k++)
        r->cycles[k] += edan_timing_id_cycles(t->timing, id, k) * share;
}

/*
 * The timing model's cycles of each row (analysis/timing/timing.h's attribution
 * per static instruction, as its own per-function rows): an instruction's
 * to its rows, and what ran inside libm calls to the call site's rows, split
 * by executions when one instruction ran in calls from several sites.
 */
static void rows_time(proj_tool *t, proj_row **loop_of, proj_row **func_of)
{
    const uint32_t ids = edan_timing_ids(t->timing);
    for (uint32_t id = 0; id < ids && id < t->ids_cap; id++) {
        const proj_id *s = &t->ids[id];
        if (!s->seen)
            continue;
        row_add_time(t, &t->total, id, s->executions);
        row_add_time(t, loop_of[id], id, s->executions);
        row_add_time(t, func_of[id], id, s->executions);
    }
    for (size_t i = 0; i < t->n_incall; i++) {
        const proj_incall *c = &t->incall[i];
        if (c->id >= ids)
            continue;
        row_add_time(t, &t->total, c->id, c->executions);
        row_add_time(t, loop_of[c->site], c->id, c->executions);
        row_add_time(t, func_of[c->site], c->id, c->executions);
    }
}

bool proj_rows_make(proj_tool *t)
{
    if (t->rows_made)
        return true;
    if (edan_loops_index(t->loops))
        return false;
    const size_t n_loops = edan_loops_count(t->loops), n_funcs = t->have_elf ? t->elf.n_funcs : 0;
    const size_t n_regions = t->regions.n;
    proj_row *loops = calloc(n_loops ? n_loops : 1, sizeof *loops);
    proj_row *funcs = calloc(n_funcs + 1, sizeof *funcs); /* the last: code outside every known function */
    proj_row *regions = calloc(n_regions, sizeof *regions);
    proj_row **loop_of = calloc(t->ids_cap ? t->ids_cap : 1, sizeof *loop_of);
    proj_row **func_of = calloc(t->ids_cap ? t->ids_cap : 1, sizeof *func_of);
    if (!loops || !funcs || !regions || !loop_of || !func_of) {
        free(loops);
        free(funcs);
        free(regions);
        free(loop_of);
        free(func_of);
        return false;
    }
    memset(&t->total, 0, sizeof t->total);
    memset(&t->outside, 0, sizeof t->outside);
    t->total.loop = t->outside.loop = -1;
    for (size_t k = 0; k < n_loops; k++)
        loops[k].loop = (int32_t)k;
    for (size_t f = 0; f <= n_funcs; f++) {
        funcs[f].loop = -1;
        funcs[f].name = f < n_funcs ? t->elf.funcs[f].name : NULL;
    }
    for (size_t g = 0; g < n_regions; g++) {
        regions[g].loop = -1;
        regions[g].region = (uint32_t)g;
        regions[g].name = t->regions.r[g].name;
    }
    for (size_t id = 0; id < t->ids_cap; id++) {
        const proj_id *s = &t->ids[id];
        if (!s->seen)
            continue;
        const uint64_t pc = s->insn->pc;
        const int32_t loop = edan_loops_innermost(t->loops, pc);
        proj_row *lr = loop >= 0 ? &loops[loop] : &t->outside;
        const edan_elf_func *f = t->have_elf ? edan_elf_func_at(&t->elf, pc) : NULL;
        loop_of[id] = lr;
        func_of[id] = &funcs[f ? (size_t)(f - t->elf.funcs) : n_funcs];
        row_add_ops(t, &t->total, s);
        row_add_ops(t, lr, s);
        row_add_ops(t, func_of[id], s);
        if (loop >= 0 && edan_loops_get(t->loops, (uint32_t)loop)->head == pc)
            lr->iterations += s->executions; /* every iteration starts at the head */
    }
    for (size_t e = 0; e < t->n_mem; e++) {
        const proj_mem *m = &t->mem[e];
        row_add_mem(t, &t->total, e);
        row_add_mem(t, loop_of[m->id], e);
        row_add_mem(t, func_of[m->id], e);
        proj_row *g = &regions[m->region];
        row_add_mem(t, g, e);
        g->mix.loads += m->loads;
        g->mix.stores += m->stores;
        g->mix.load_bytes += m->load_bytes;
        g->mix.store_bytes += m->store_bytes;
    }
    if (t->timing)
        rows_time(t, loop_of, func_of);
    free(loop_of);
    free(func_of);
    /* loops that ran: a loop inside a libm function ran only inside calls, charged to their call sites */
    size_t kept = n_loops;
    keep_active(loops, &kept);
    /* functions that executed, most instructions first */
    size_t n = n_funcs + 1;
    keep_active(funcs, &n);
    for (size_t i = 1; i < n; i++) { /* insertion sort: stable, and rows are few */
        proj_row r = funcs[i];
        size_t j = i;
        while (j > 0 && funcs[j - 1].mix.instructions < r.mix.instructions) {
            funcs[j] = funcs[j - 1];
            j--;
        }
        funcs[j] = r;
    }
    size_t n_reg = n_regions;
    keep_active(regions, &n_reg);
    sort_regions(t, regions, n_reg);
    t->loop_rows = loops;
    t->n_loops = kept;
    t->funcs = funcs;
    t->n_funcs = n;
    t->region_rows = regions;
    t->n_region_rows = n_reg;
    t->rows_made = true;
    return true;
}

/* ===================================================================== */
/* Bounds                                                                 */
/* ===================================================================== */

edan_proj_machine proj_machine(const proj_tool *t)
{
    const edan_machine *m = &t->machine;
    edan_proj_machine p;
    p.peak_flops = m->peak_gflops * 1e9 * m->cores;
    p.bandwidth = m->mem_bandwidth_gbs * 1e9 * m->cores;
    p.weights = (edan_flop_weights){m->div_weight, m->sqrt_weight, m->transcendental_weight};
    return p;
}

void proj_row_dram(const proj_tool *t, const proj_row *r, unsigned k, double *read, double *write, double *flushed)
{
    double fl;
    if (t->n_models > 0) {
        *read = (double)r->model_read[0];
        *write = (double)r->model_write[0];
        fl = (double)r->model_flush[0];
    } else {
        const double line = (double)(1u << t->line_shift);
        *read = (double)edan_lru_reads(&r->lru, k) * line;
        *write = (double)edan_lru_writes(&r->lru, k) * line;
        fl = (double)edan_lru_dirty_at_end(&r->lru, k) * line;
    }
    if (flushed)
        *flushed = fl;
}

edan_proj proj_row_bound(const proj_tool *t, const proj_row *r, unsigned k, const edan_proj_machine *m)
{
    double rd, wr;
    proj_row_dram(t, r, k, &rd, &wr, NULL);
    return edan_proj_evaluate(&r->mix, rd + wr, m);
}

double proj_sum_of_parts(const proj_tool *t, unsigned k, const edan_proj_machine *m)
{
    double sum = proj_row_bound(t, &t->outside, k, m).time;
    for (size_t i = 0; i < t->n_loops; i++)
        sum += proj_row_bound(t, &t->loop_rows[i], k, m).time;
    return sum;
}

edan_loop_place proj_loop_place(proj_tool *t, int32_t loop)
{
    return edan_loops_place(t->loops, (uint32_t)loop, t->have_elf ? &t->elf : NULL, t->src);
}
