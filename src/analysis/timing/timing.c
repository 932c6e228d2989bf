#include "analysis/timing/timing_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cache/cache.h"
#include "analysis/deps/deps.h"
#include "analysis/edag/edag.h"
#include "analysis/machine/machine.h"
#include "analysis/timing/memtime.h"
#include "isa/native.h"
#include "util/grow.h"
#include "util/zgrow.h"

/* ===================================================================== */
/* Set-up                                                                 */
/* ===================================================================== */

static tick cycles(uint64_t c)
{
    return (tick)c * TPC;
}

/* The file reader checks all of this; a machine made by hand must not crash the model either. */
static bool machine_ok(const edan_machine *m, edan_error *err)
{
    bool ok = m->n_data_levels >= 2 && m->n_data_levels <= NLEV && m->clock_ghz > 0 && m->mem_bandwidth_gbs > 0 &&
              m->fetch_width && m->dispatch_width && m->commit_width && m->rob_entries && m->rob_entries < (1u << 24) &&
              m->lq_entries && m->sq_entries && m->iq_entries && m->int_div_units && m->fp_div_units &&
              m->l1i.geo.line == m->data[0].geo.line && (m->core_model != EDAN_CORE_INORDER || m->issue_width) &&
              m->page_fault_ns >= 0 && m->page_fault_ns <= 1e6;
    for (int l = 0; ok && l < m->n_data_levels; l++)
        ok = m->data[l].mshrs > 0 && m->data[l].mshr_targets > 0 && m->data[l].geo.line == m->data[0].geo.line;
    if (!ok)
        edan_error_set(err, "machine %s: not a machine the timing model can schedule on", m->name);
    return ok;
}

edan_timing *edan_timing_alloc(const edan_machine *m, const double *lat_ns, int n, edan_error *err)
{
    if (!machine_ok(m, err))
        return NULL;
    if (n < 1 || n > MAXK) {
        edan_error_set(err, "the timing model takes 1 to %d memory latencies, not %d", MAXK, n);
        return NULL;
    }
    edan_timing *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory for the timing model");
        return NULL;
    }
    t->m = *m;
    t->K = n;
    t->measuring = true;
    for (int k = 0; k < n; k++)
        t->lat_ns[k] = lat_ns[k];
    return t;
}

edan_timing *edan_timing_new(const edan_machine *m, const double *lat_ns, int n, edan_error *err)
{
    edan_timing *t = edan_timing_alloc(m, lat_ns, n, err);
    if (!t)
        return NULL;
    t->width = edan_timing_width(n);
    t->Kp = (n + t->width - 1) / t->width * t->width;
    t->nlev = m->n_data_levels;
    if (m->pages == EDAN_PAGES_FIRST_TOUCH) {
        if (edan_pagemap_init(&t->pages)) {
            edan_error_set(err, "out of memory for the timing model");
            edan_timing_free(t);
            return NULL;
        }
        t->paged = true;
    }
    if (m->page_zeroing == EDAN_ZEROING_FIRST_STORE) {
        if (edan_zeroing_init(&t->zero)) {
            edan_error_set(err, "out of memory for the timing model");
            edan_timing_free(t);
            return NULL;
        }
        t->zeroing = true;
        t->fault_cycles = m->page_fault_ns * m->clock_ghz;
    }
    t->cyc = cycles(1);
    t->frontend = cycles(m->frontend_cycles);
    t->penalty = cycles(m->mispredict_penalty);
    t->serialize = cycles(m->serialize_cycles);
    for (int c = 0; c < EDAN_CLASS_COUNT; c++)
        t->lat[c] = cycles(m->latency[c]);
    /* a load or store that performed no access (a failed sc) takes a cycle */
    t->lat[EDAN_CLASS_LOAD] = t->lat[EDAN_CLASS_STORE] = t->lat[EDAN_CLASS_ATOMIC] = t->cyc;
    t->busy[EDAN_CLASS_DIV] = cycles(edan_machine_issue_interval(m, EDAN_CLASS_DIV));
    t->busy[EDAN_CLASS_FDIV] = cycles(edan_machine_issue_interval(m, EDAN_CLASS_FDIV));
    t->busy[EDAN_CLASS_FSQRT] = cycles(edan_machine_issue_interval(m, EDAN_CLASS_FSQRT));
    t->l1i_hit = cycles(m->l1i.hit_latency);
    /* wrong_path_fetch(): what fetch reads before a branch can resolve, 2-byte instructions; 4 lines at most */
    t->wp_bytes = (uint64_t)m->fetch_width * (m->frontend_cycles + 1) * 2;
    if (t->wp_bytes > 4 * (uint64_t)m->data[0].geo.line)
        t->wp_bytes = 4 * (uint64_t)m->data[0].geo.line;
    tick memlat[MAXK];
    for (int k = 0; k < n; k++) {
        double ticks = lat_ns[k] * m->clock_ghz * TPC;
        if (!(lat_ns[k] >= 0) || lat_ns[k] > 1e6 || ticks > 1e12) {
            edan_error_set(err, "memory latency %g ns is out of range", lat_ns[k]);
            edan_timing_free(t);
            return NULL;
        }
        memlat[k] = (tick)llround(ticks);
    }
    t->line_shift = (uint32_t)__builtin_ctz(m->data[0].geo.line);

    uint32_t r = 2;
    while (r < m->rob_entries + 1)
        r *= 2;
    t->rmask = r - 1;
    edan_lane_config lane;
    memset(&lane, 0, sizeof lane);
    edan_cost_default(&lane.cost);
    edan_cache_config dcc = edan_machine_data_caches(m);
    edan_cache_config icc = {.n_levels = 1, .level = {m->l1i.geo}};
    const size_t K = (size_t)n, Kp = (size_t)t->Kp;
    t->F = calloc(r * Kp, sizeof *t->F);
    t->stores = calloc(r, 1);
    t->st_addr = calloc(r, sizeof *t->st_addr);
    t->win_insn = calloc(r, sizeof *t->win_insn);
    t->st_write = calloc(r * Kp, sizeof *t->st_write);
    t->C = calloc(r * Kp, sizeof *t->C);
    t->Cx = m->core_model == EDAN_CORE_INORDER ? calloc(r * Kp, sizeof *t->Cx) : NULL;
    t->wpl_req = calloc((size_t)WPL_SLOTS * Kp, sizeof *t->wpl_req);
    t->wpl_done = calloc((size_t)m->rob_entries * Kp, sizeof *t->wpl_done);
    /*
     * the issue queue's lists (timing_internal.h): a row is kept while an entry of it is held, at most
     * iq_entries per lane, and only in the last iq_span vertices (timing_lanes.h); twice that, so that a
     * list made shorter gets shorter by at least half
     */
    t->iq_span = (uint64_t)m->rob_entries + 15u * (uint64_t)m->commit_width;
    const uint64_t held = (uint64_t)t->width * m->iq_entries;
    t->iq_cap = 2 * (held < t->iq_span ? held : t->iq_span) + 2;
    t->iq_list = calloc(t->iq_cap * Kp, sizeof *t->iq_list);
    for (int k = 0; k < n; k++)
        t->real[k] = ~(tick)0;
    t->lq = calloc(m->lq_entries * Kp, sizeof *t->lq);
    t->sq = calloc(m->sq_entries * Kp, sizeof *t->sq);
    t->sq_ram = calloc(m->sq_entries, sizeof *t->sq_ram);
    /* aligned to host lines, an entry never straddles two (SS_BLOCKS * 32 is a multiple of 64) */
    t->ss_blocks = aligned_alloc(64, (size_t)SS_BLOCKS * sizeof *t->ss_blocks);
    if (t->ss_blocks)
        memset(t->ss_blocks, 0, (size_t)SS_BLOCKS * sizeof *t->ss_blocks);
    t->ssit = calloc((size_t)SS_ENTRIES * K, sizeof *t->ssit);
    t->lfst = calloc((size_t)SS_ENTRIES * K, sizeof *t->lfst);
    t->ssit_lanes = calloc(SS_ENTRIES, sizeof *t->ssit_lanes);
    t->ss_pairs = calloc(SS_BLOCKS, sizeof *t->ss_pairs);
    t->ss_known = calloc(SS_BLOCKS, sizeof *t->ss_known);
    t->ss_gen = 1;
    t->ss_clear_at = SS_CLEAR_PERIOD;
    t->ss_shift = m->store_set_bytes ? (uint32_t)__builtin_ctz(m->store_set_bytes) : 0;
    bool ok = t->F && t->wpl_req && t->wpl_done && t->iq_list && t->stores && t->st_addr && t->win_insn &&
              t->st_write && t->C && t->lq && t->sq && t->sq_ram && t->ss_blocks && t->ssit && t->ssit_lanes &&
              t->lfst && t->ss_pairs && t->ss_known && (t->Cx || m->core_model != EDAN_CORE_INORDER);
    ok = ok && (t->div_units[0] = calloc((size_t)m->int_div_units * Kp, sizeof(tick))) &&
         (t->div_units[1] = calloc((size_t)m->fp_div_units * Kp, sizeof(tick)));
    if (!ok) {
        edan_error_set(err, "out of memory for the timing model");
        edan_timing_free(t);
        return NULL;
    }
    if (edan_memtime_init(&t->mem, m, memlat, n, (size_t)t->Kp, err)) {
        edan_timing_free(t);
        return NULL;
    }
    t->mem_ok = true;
    if (edan_predictor_init(&t->bp, m->predictor, m->predictor_entries, err)) {
        edan_timing_free(t);
        return NULL;
    }
    if (edan_cache_init(&t->dc, &dcc, err)) {
        edan_timing_free(t);
        return NULL;
    }
    t->dc_ok = true;
    if (m->dram.present) { /* the DRAM opens the rows of the lines written back */
        if (edan_cache_wb_enable(&t->dc, err)) {
            edan_timing_free(t);
            return NULL;
        }
        t->mem.wb = t->dc.wb;
    }
    edan_prefetch_config pfc[NLEV];
    uint32_t pfhit[NLEV];
    for (int l = 0; l < m->n_data_levels; l++) {
        pfc[l] = m->data[l].prefetch;
        pfhit[l] = m->data[l].hit_latency;
    }
    if (edan_prefetch_init(&t->pf, pfc, pfhit, m->n_data_levels, m->data[0].geo.line, err)) {
        edan_timing_free(t);
        return NULL;
    }
    t->pf_ok = true;
    if (edan_cache_init(&t->ic, &icc, err)) {
        edan_timing_free(t);
        return NULL;
    }
    t->ic_ok = true;
    if (m->dtlb.entries) {
        edan_cache_config tc;
        if (edan_machine_dtlb_caches(m, &tc, err) || edan_cache_init(&t->tlb, &tc, err)) {
            edan_timing_free(t);
            return NULL;
        }
        t->tlb_ok = t->has_tlb = true;
        t->tlb_l2 = cycles(m->dtlb.l2_hit_cycles);
        t->tlb_walk = cycles(m->dtlb.walk_cycles);
    }
    if (!(t->deps = edan_deps_new(&lane, false, EDAN_DEPS_TRUE_PREDS | EDAN_DEPS_ONLY_PREDS, err))) {
        edan_timing_free(t);
        return NULL;
    }
    return t;
}

void edan_timing_free(edan_timing *t)
{
    if (!t)
        return;
    if (t->n_groups) {
        edan_timing_free_groups(t);
        return;
    }
    edan_deps_free(t->deps);
    if (t->dc_ok)
        edan_cache_free(&t->dc);
    if (t->ic_ok)
        edan_cache_free(&t->ic);
    if (t->tlb_ok)
        edan_cache_free(&t->tlb);
    if (t->mem_ok)
        edan_memtime_free(&t->mem);
    if (t->pf_ok)
        edan_prefetch_free(&t->pf);
    free(t->div_units[0]);
    free(t->div_units[1]);
    free(t->F);
    free(t->stores);
    free(t->st_addr);
    free((void *)t->win_insn);
    free(t->st_write);
    free(t->C);
    free(t->Cx);
    free(t->wpl_req);
    free(t->wpl_done);
    free(t->iq_list);
    free(t->lq);
    free(t->sq);
    free(t->sq_ram);
    edan_predictor_free(&t->bp);
    free(t->ss_blocks);
    free(t->ssit);
    free(t->ssit_lanes);
    free(t->ss_pairs);
    free(t->ss_known);
    free(t->lfst);
    edan_timing_code_free(t);
    edan_timing_sample_free(t); /* before id_cap's arrays: its own are sized by it */
    /* grown by id_grow() (timing_shared.h) */
    const size_t ids = t->id_cap, Kp = (size_t)t->Kp;
    edan_zgrow_free(t->id_time, ids * Kp * sizeof *t->id_time);
    edan_zgrow_free(t->id_stall, ids * Kp * sizeof *t->id_stall);
    edan_zgrow_free(t->id_count, ids * sizeof *t->id_count);
    edan_zgrow_free(t->id_pc, ids * sizeof *t->id_pc);
    edan_zgrow_free(t->fdesc, ids * sizeof *t->fdesc);
    edan_timing_dump_free(t);
    if (t->paged)
        edan_pagemap_free(&t->pages);
    if (t->zeroing)
        edan_zeroing_free(&t->zero);
    free(t->id_side);
    free(t);
}

int edan_timing_load_image(edan_timing *t, const edan_pagemap_range *r, size_t n, edan_error *err)
{
    for (int g = 0; g < t->n_groups; g++) /* each group places its own pages (timing_groups.c) */
        if (edan_timing_load_image(t->group[g], r, n, err))
            return -1;
    if (t->paged && edan_pagemap_load(&t->pages, r, n)) {
        edan_error_set(err, "out of memory for the timing model's page map");
        return -1;
    }
    return 0;
}

/* ===================================================================== */
/* The consumer                                                          */
/* ===================================================================== */

/* One record of translate() (below). */
static inline int translate_one(edan_timing *t, edan_exec *r)
{
    if (r->insn->mem == EDAN_MEM_NONE || (r->flags & EDAN_EXEC_NO_ACCESS))
        return 0;
    if ((r->addr = edan_pagemap_translate(&t->pages, r->addr)) != UINT64_MAX)
        return 0;
    if (!t->err.set)
        edan_error_set(&t->err, "out of memory for the timing model's page map");
    return -1;
}

/*
 * With the machine's pages placed at first touch: each access of the chunk
 * recs, the model's own (t->hold), at its physical address (pagemap.h), in
 * place; -1 when out of memory. Every record passes here in stream order,
 * warm ones too, so the frames follow the whole program's first touches
 * whatever the model schedules or samples; the chunk's and the map's state
 * match whatever the producer's batches (a wrong path's load asks whether
 * its page was touched before it: the map's mark, the frames placed before
 * the chunk, timing_bisect.h).
 */
static int translate(edan_timing *t, edan_exec *recs, size_t n)
{
    t->pages.mark = t->pages.next;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) /* four records a turn, in order: the loop's own work a quarter */
        if (translate_one(t, &recs[i]) || translate_one(t, &recs[i + 1]) || translate_one(t, &recs[i + 2]) ||
            translate_one(t, &recs[i + 3]))
            return -1;
    for (; i < n; i++)
        if (translate_one(t, &recs[i]))
            return -1;
    return 0;
}

/*
 * A part recs[0..n) of a chunk: the model's own (t->hold, or zero_recs) when
 * owned, else the batch's, which other threads read too: with first-touch
 * pages that one is first copied into t->hold (empty then, consume_chunks())
 * and translated there, the batch left as it is.
 */
static void run_part(edan_timing *t, const edan_exec *recs, size_t n, bool owned)
{
    if (t->paged) {
        edan_exec *own = owned ? (edan_exec *)recs : t->hold; /* owned: the model's, written in place */
        if (!owned)
            memcpy(own, recs, n * sizeof *recs);
        if (translate(t, own, n))
            return;
        recs = own;
    }
    if (__builtin_expect(t->v < t->dump_end, 0))
        edan_timing_consume_dump(t, recs, n); /* the window ahead or in progress: the build with the dump's hooks */
    else if (t->width == TIMING_LV && t->Kp == TIMING_LV)
        edan_timing_consume_4k(t, recs, n); /* one vector: its build with the lanes a constant */
    else if (t->width == TIMING_LV && t->Kp == 2 * TIMING_LV)
        edan_timing_consume_8k(t, recs, n); /* two vectors: likewise */
    else if (t->width == TIMING_LV)
        edan_timing_consume_4(t, recs, n);
    else
        edan_timing_consume_1(t, recs, n);
}

/* Whether the record stores: the program's store or read-modify-write that accessed memory, or the kernel's write. */
static inline bool stores(const edan_exec *r)
{
    return (r->insn->mem == EDAN_MEM_STORE || r->insn->mem == EDAN_MEM_AMO) && !(r->flags & EDAN_EXEC_NO_ACCESS);
}

/* The side counts of static instruction id (id_side), grown to hold it: NULL out of memory. */
static struct timing_id_side *id_side(edan_timing *t, uint32_t id)
{
    if (id >= t->id_side_cap) {
        const size_t cap = edan_grow_cap(t->id_side_cap, id);
        struct timing_id_side *a = edan_grow_zeroed(t->id_side, t->id_side_cap, cap, sizeof *a);
        if (!a)
            return NULL;
        t->id_side = a;
        t->id_side_cap = cap;
    }
    return &t->id_side[id];
}

/*
 * Whether r, an element of a rep string (EDAN_NATIVE_REP), is folded into
 * the element before it of the same instruction: both in one line (r not
 * crossing into the next), the records between them the same rep
 * instruction's (prev the record's before r). Keeps the state of the
 * elements kept (fold_insn, fold_line).
 */
static bool fold(edan_timing *t, const edan_exec *r, const edan_insn *prev)
{
    const edan_insn *in = r->insn;
    if (r->flags & (EDAN_EXEC_NO_ACCESS | EDAN_EXEC_KERNEL))
        return false;
    if (!prev || !(prev->native & EDAN_NATIVE_REP) || prev->pc != in->pc)
        t->fold_insn[0] = t->fold_insn[1] = NULL; /* a new run of the instruction */
    const uint64_t line = r->addr >> t->line_shift;
    const int s = t->fold_insn[0] == in ? 0 : t->fold_insn[1] == in ? 1 : -1;
    if (s >= 0 && t->fold_line[s] == line && (r->addr + in->mem_size - 1) >> t->line_shift == line)
        return true;
    const int k = s >= 0 ? s : t->fold_insn[0] == NULL ? 0 : 1;
    t->fold_insn[k] = in;
    t->fold_line[k] = line;
    return false;
}

/* A folded element of the region: counted as the instruction, the access and the L1d hit it is. 0, or -1 (OOM). */
static int count_folded(edan_timing *t, const edan_exec *r)
{
    if (r->flags & EDAN_EXEC_WARM)
        return 0;
    struct timing_id_side *side = id_side(t, r->id);
    if (!side)
        return -1;
    side->folded++;
    t->folded.instructions++;
    t->folded.loads += r->insn->mem == EDAN_MEM_LOAD;
    t->folded.stores += r->insn->mem != EDAN_MEM_LOAD;
    if (t->smp.on) { /* the phase of the records before it: the element it is folded into */
        t->folded.measured += t->smp.phase == SMP_MEASURE;
        t->folded.detailed += t->smp.phase != SMP_SKIP;
    }
    return 0;
}

/*
 * A chunk, in parts: rep strings' elements folded into the first of their
 * line (fold()) left out; with the kernel's zeroing of fresh pages
 * ([machine] page_zeroing, analysis/zeroing/zeroing.h), split before each
 * first store to a page, the page's lines handed to the model between them
 * as the kernel's writes, in ascending order (clear_page's), warm records
 * that only the caches take (timing_shared.h, kernel_writes()), and the
 * fault's time counted at the store ([machine] page_fault_ns). The splits
 * are the stream's, so the model's parts stay the same whatever the
 * producer's batches.
 */
static inline __attribute__((always_inline)) void run_in_parts(edan_timing *t, const edan_exec *recs, size_t n,
                                                               bool owned, bool x86)
{
    size_t from = 0;
    for (size_t i = 0; i < n && !t->err.set; i++) {
        if (x86 && (recs[i].insn->native & EDAN_NATIVE_REP) && fold(t, &recs[i], i ? recs[i - 1].insn : t->fold_prev)) {
            if (i > from)
                run_part(t, recs + from, i - from, owned);
            from = i + 1;
            if (count_folded(t, &recs[i]))
                edan_error_set(&t->err, "out of memory for the timing model's rep strings");
            continue;
        }
        if (!t->zeroing || !stores(&recs[i]))
            continue;
        const int first = edan_zeroing_first(&t->zero, recs[i].addr);
        if (!first)
            continue;
        if (first < 0) {
            edan_error_set(&t->err, "out of memory for the timing model's written pages");
            return;
        }
        if (i > from)
            run_part(t, recs + from, i - from, owned);
        const uint64_t page = recs[i].addr >> EDAN_ZEROING_SHIFT << EDAN_ZEROING_SHIFT;
        const size_t lines = sizeof t->zero_recs / sizeof *t->zero_recs;
        for (size_t j = 0; j < lines; j++)
            t->zero_recs[j] = edan_exec_kernel_write(page + j * EDAN_KERNEL_LINE, recs[i].vcpu);
        if (!(recs[i].flags & EDAN_EXEC_WARM)) { /* the region's stores' (outside warm_run(), which keeps the counts) */
            t->n.pages_zeroed++;
            struct timing_id_side *side = t->fault_cycles > 0 ? id_side(t, recs[i].id) : NULL;
            if (t->fault_cycles > 0 && !side) {
                edan_error_set(&t->err, "out of memory for the timing model's page faults");
                return;
            }
            if (side)
                side->faults++;
        }
        run_part(t, t->zero_recs, lines, true);
        from = i;
    }
    if (n > from && !t->err.set)
        run_part(t, recs + from, n - from, owned);
    t->fold_prev = recs[n - 1].insn;
}

static void run(edan_timing *t, const edan_exec *recs, size_t n, bool owned)
{
    /* a stream is of one ISA, and only x86's has rep strings: the others' loop looks at the stores alone */
    const bool x86 = n && recs[0].insn->isa == EDAN_ISA_X86_64;
    if (!n || (!t->zeroing && !x86))
        run_part(t, recs, n, owned);
    else if (x86)
        run_in_parts(t, recs, n, owned, true);
    else
        run_in_parts(t, recs, n, owned, false);
}

/*
 * The stream in chunks of PRED_BATCH records whatever the batches: whole
 * chunks straight from the batch, the rest held (copied) until the chunk is
 * whole or the stream ends (edan_timing_flush()).
 */
static void consume_chunks(edan_timing *t, const edan_exec *recs, size_t n)
{
    while (n) {
        if (!t->held && n >= PRED_BATCH) {
            run(t, recs, PRED_BATCH, false); /* hold is empty: a copy goes there */
            recs += PRED_BATCH;
            n -= PRED_BATCH;
            continue;
        }
        const size_t take = n < PRED_BATCH - t->held ? n : PRED_BATCH - t->held;
        memcpy(t->hold + t->held, recs, take * sizeof *recs);
        t->held += take;
        recs += take;
        n -= take;
        if (t->held == PRED_BATCH) {
            t->held = 0;
            run(t, t->hold, PRED_BATCH, true);
        }
    }
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_timing *t = ctx;
    if (t->n_groups) /* each group's own consume() places the pages (timing_groups.c) */
        edan_timing_consume_groups(t, recs, n);
    else
        consume_chunks(t, recs, n);
}

void edan_timing_flush(edan_timing *t)
{
    const size_t n = t->held;
    t->held = 0;
    if (n)
        run(t, t->hold, n, true);
}

static int finish(void *ctx)
{
    edan_timing *t = ctx;
    if (t->n_groups)
        return edan_timing_finish_groups(t);
    edan_timing_flush(t);
    edan_timing_sample_close(t);
    edan_timing_close_counts(t);
    return t->err.set ? -1 : 0;
}

void edan_timing_close_counts(edan_timing *t)
{
    /* the rep strings' folded elements: after the sampler's close, whose estimates stand for the records scheduled */
    t->n.instructions += t->folded.instructions;
    t->n.loads += t->folded.loads;
    t->n.stores += t->folded.stores;
    t->n.level_hits[0] += t->folded.instructions;
    t->folded.instructions = t->folded.loads = t->folded.stores = 0; /* measured and detailed stay */
    if (!t->pf.any)
        return;
    edan_prefetch_collect(&t->pf, &t->dc);
    for (int l = 0; l < t->nlev; l++)
        t->n.prefetch[l] = t->pf.n[l];
}

edan_consumer edan_timing_consumer(edan_timing *t)
{
    /* the caches, the L1i and the predictor follow warm records (timing_shared.h, warm_run()) */
    edan_consumer c = {t, consume, finish, NULL, true};
    return c;
}

/* ===================================================================== */
/* The instructions decoded, by pc                                        */
/* ===================================================================== */

/*
 * The RISC-V instructions the timing model has decoded, by pc (added as
 * their timing_fdesc rows are made, fdesc_fill()), and what the bytes a
 * forward branch skips hold (edan_timing_skip(): what the wrong path of a
 * branch taken that was predicted not taken runs before it rejoins the right
 * path, wrong_path_loads() in timing_ahead.h).
 */

/* A skipped range's slot in the direct-mapped table of SKIP_SLOTS. */
static uint64_t skip_slot(uint64_t from, uint64_t to)
{
    return (((from ^ (to << 1)) * 0x9E3779B97F4A7C15ull) >> 20) & (SKIP_SLOTS - 1);
}

int edan_timing_code_add(edan_timing *t, const edan_insn *in)
{
    if (!in->pc || in->isa)
        return 0;
    if (!t->code.cap && edan_keymap_init(&t->code, sizeof(const edan_insn *)) < 0) {
        edan_error_set(&t->err, "out of memory for the timing model's table of instructions");
        return -1;
    }
    bool created;
    const edan_insn **at = edan_keymap_get(&t->code, in->pc, 0, &created);
    if (!at) {
        edan_error_set(&t->err, "out of memory for the timing model's table of %zu instructions",
                       edan_keymap_size(&t->code));
        return -1;
    }
    const edan_insn *was = *at;
    if (!created && (was->size != in->size || was->n_dst != in->n_dst || was->dst != in->dst))
        t->code_changed++; /* another instruction at a pc: what a skip of its bytes holds is made again */
    *at = in;
    return 0;
}

/* The instruction decoded at pc, NULL: none. */
static const edan_insn *code_at(const edan_timing *t, uint64_t pc)
{
    const edan_insn *const *at = edan_keymap_find(&t->code, pc, 0);
    return at ? *at : NULL;
}

void edan_timing_code_free(edan_timing *t)
{
    if (t->code.cap)
        edan_keymap_free(&t->code);
    free(t->skips);
    t->skips = NULL;
    t->code_changed = 0;
}

const timing_skip *edan_timing_skip(edan_timing *t, uint64_t from, uint64_t to)
{
    if (!t->skips && !(t->skips = calloc(SKIP_SLOTS, sizeof *t->skips))) {
        edan_error_set(&t->err, "out of memory for the timing model's skipped bytes");
        return NULL;
    }
    timing_skip *e = &t->skips[skip_slot(from, to)];
    if (e->from == from && e->to == to && e->changed == t->code_changed &&
        (e->ok || e->code_n == edan_keymap_size(&t->code)))
        return e->ok ? e : NULL; /* made already; not known then and nothing new decoded since */
    *e = (timing_skip){.from = from, .to = to, .code_n = edan_keymap_size(&t->code), .changed = t->code_changed};
    uint64_t pc = from, count = 0;
    for (const edan_insn *in; pc < to && count < t->m.rob_entries && (in = code_at(t, pc)) && in->size;
         pc += in->size) {
        count++;
        if (in->n_dst)
            e->regs[in->dst >> 6] |= 1ull << (in->dst & 63);
    }
    e->count = (uint32_t)count;
    /* every instruction decoded, one after another up to `to` exactly, fewer than the reorder buffer holds */
    e->ok = pc == to && count < t->m.rob_entries;
    return e->ok ? e : NULL;
}
