#include "analysis/timing_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cache.h"
#include "analysis/cost.h"
#include "analysis/deps.h"
#include "analysis/issueq.h"
#include "analysis/memtime.h"
#include "analysis/predictor.h"
#include "util/grow.h"

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
              m->l1i.geo.line == m->data[0].geo.line;
    for (int l = 0; ok && l < m->n_data_levels; l++)
        ok = m->data[l].mshrs > 0 && m->data[l].mshr_targets > 0 && m->data[l].geo.line == m->data[0].geo.line;
    if (!ok)
        edan_error_set(err, "machine %s: not a machine the timing model can schedule on", m->name);
    return ok;
}

edan_timing *edan_timing_new(const edan_machine *m, const double *lat_ns, int n, edan_error *err)
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
    t->nlev = m->n_data_levels;
    t->cyc = cycles(1);
    t->frontend = cycles(m->frontend_cycles);
    t->penalty = cycles(m->mispredict_penalty);
    for (int c = 0; c < EDAN_CLASS_COUNT; c++)
        t->lat[c] = cycles(m->latency[c]);
    /* a load or store that performed no access (a failed sc) takes a cycle */
    t->lat[EDAN_CLASS_LOAD] = t->lat[EDAN_CLASS_STORE] = t->lat[EDAN_CLASS_ATOMIC] = t->cyc;
    t->l1i_hit = cycles(m->l1i.hit_latency);
    tick memlat[MAXK];
    for (int k = 0; k < n; k++) {
        t->lat_ns[k] = lat_ns[k];
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
    const size_t K = (size_t)n;
    t->F = calloc(r * K, sizeof *t->F);
    t->stores = calloc(r, 1);
    t->st_addr = calloc(r, sizeof *t->st_addr);
    t->st_write = calloc(r * K, sizeof *t->st_write);
    t->C = calloc(r * K, sizeof *t->C);
    t->lq = calloc(m->lq_entries * K, sizeof *t->lq);
    t->sq = calloc(m->sq_entries * K, sizeof *t->sq);
    t->ss_block = calloc(SS_BLOCKS, sizeof *t->ss_block);
    t->ss_store = calloc(SS_BLOCKS, sizeof *t->ss_store);
    t->ss_store_pc = calloc(SS_BLOCKS, sizeof *t->ss_store_pc);
    t->ssit = calloc((size_t)SS_ENTRIES * (size_t)n, sizeof *t->ssit);
    t->lfst = calloc((size_t)SS_ENTRIES * (size_t)n, sizeof *t->lfst);
    t->ss_shift = m->store_set_bytes ? (uint32_t)__builtin_ctz(m->store_set_bytes) : 0;
    bool ok = t->F && t->stores && t->st_addr && t->st_write && t->C && t->lq && t->sq && t->ss_block && t->ss_store &&
              t->ss_store_pc && t->ssit && t->lfst;
    ok = ok && (t->div_units[0] = calloc((size_t)m->int_div_units * (size_t)n, sizeof(tick))) &&
         (t->div_units[1] = calloc((size_t)m->fp_div_units * (size_t)n, sizeof(tick)));
    if (!ok) {
        edan_error_set(err, "out of memory for the timing model");
        edan_timing_free(t);
        return NULL;
    }
    if (edan_memtime_init(&t->mem, m, memlat, n, err)) {
        edan_timing_free(t);
        return NULL;
    }
    t->mem_ok = true;
    if (edan_issueq_init(&t->iq, m->iq_entries, n, err)) {
        edan_timing_free(t);
        return NULL;
    }
    t->iq_ok = true;
    if (edan_predictor_init(&t->bp, m->predictor, m->predictor_entries, err)) {
        edan_timing_free(t);
        return NULL;
    }
    if (edan_cache_init(&t->dc, &dcc, err)) {
        edan_timing_free(t);
        return NULL;
    }
    t->dc_ok = true;
    if (edan_cache_init(&t->ic, &icc, err)) {
        edan_timing_free(t);
        return NULL;
    }
    t->ic_ok = true;
    if (!(t->deps = edan_deps_new(&lane, false, EDAN_DEPS_TRUE_PREDS, err))) {
        edan_timing_free(t);
        return NULL;
    }
    return t;
}

void edan_timing_free(edan_timing *t)
{
    if (!t)
        return;
    edan_deps_free(t->deps);
    if (t->dc_ok)
        edan_cache_free(&t->dc);
    if (t->ic_ok)
        edan_cache_free(&t->ic);
    if (t->mem_ok)
        edan_memtime_free(&t->mem);
    if (t->iq_ok)
        edan_issueq_free(&t->iq);
    free(t->div_units[0]);
    free(t->div_units[1]);
    free(t->F);
    free(t->stores);
    free(t->st_addr);
    free(t->st_write);
    free(t->C);
    free(t->lq);
    free(t->sq);
    edan_predictor_free(&t->bp);
    free(t->ss_block);
    free(t->ss_store);
    free(t->ss_store_pc);
    free(t->ssit);
    free(t->lfst);
    free(t->id_time);
    free(t->id_stall);
    free(t->id_count);
    free(t->id_pc);
    free(t);
}

/* ===================================================================== */
/* One vertex                                                             */
/* ===================================================================== */

/*
 * The in-order stage s takes one instruction no earlier than at (lane k);
 * returns when it does: at, if later than the stage's cycle; else the
 * stage's cycle, or the next one when this one has taken `width`. Written
 * as selects, which the compiler may turn into conditional moves or
 * branches (a version with explicit masks was slower: docs/changelog.md).
 */
static inline tick slot_take(slots *s, int k, tick at, uint32_t width, tick cyc)
{
    const tick cur = s->at[k];
    const uint32_t n = s->taken[k];
    const bool later = at > cur, full = n == width;
    const tick when = later ? at : cur + (full ? cyc : 0);
    s->taken[k] = later || full ? 1 : n + 1;
    s->at[k] = when;
    return when;
}

/* Instruction fetch of rec: whether it misses the L1i, and where its line comes from then. */
static bool fetch_line(edan_timing *t, const edan_insn *in, int *level, uint32_t *bytes)
{
    uint64_t line = in->pc >> t->line_shift;
    if (!in->pc) { /* a text trace's instruction: no address to fetch from */
        t->n.unaddressed++;
        return false;
    }
    if (t->iline == line + 1)
        return false;
    t->iline = line + 1;
    if (edan_cache_level_probe(&t->ic.level[0], line, false))
        return false;
    edan_cache_level_fill(&t->ic.level[0], line, false);
    edan_cache_result r = {false, false, 0, 0};
    edan_cache_read_line(&t->dc, 1, in->pc, &r);
    *level = (int)r.level;
    *bytes = r.ram_bytes;
    t->n.l1i_misses++;
    if (*level == t->nlev)
        t->n.ram_lines++;
    t->n.ram_bytes += r.ram_bytes;
    return true;
}

/* A mispredicted conditional branch just before rec (the predictor learns the outcome rec shows). */
static bool mispredicted(edan_timing *t, const edan_insn *in)
{
    if (!t->prev_fallthrough)
        return false;
    bool wrong = edan_predictor_branch(&t->bp, t->prev_pc, in->pc != t->prev_fallthrough);
    t->n.branches++;
    t->n.mispredicts += wrong;
    return wrong;
}

/*
 * The SSIT entry of an instruction: indexed by pc / 4, as gem5's
 * (StoreSet::calcIndex, offsetBits 2), so with compressed (2-byte)
 * instructions the two in one 4-byte word share an entry: a load right
 * after a store in a set is predicted to depend on that set's stores.
 */
static uint32_t ssit_index(uint64_t pc)
{
    return (uint32_t)((pc >> 2) & (SS_ENTRIES - 1));
}

/*
 * Memory-dependence prediction, as gem5's store sets. A load that issues
 * before an older store to the same store_set_bytes block has executed
 * (gem5 finds the order violation when the store executes; a load does
 * not know the store's address before, even one whose bytes it reads:
 * a[k] holds only its register operands here) is fetched again after the
 * store, as after a mispredicted branch, and puts its pc and the store's in one set; from
 * then on the load waits until the set's last store, older than it, has
 * executed, whatever its address, and so does a store of the set (gem5's
 * MemDepUnit asks the predictor for every load and store), so a set's
 * stores execute in order. Whether a load violates depends on the times,
 * so each lane has its own tables; all are
 * forgotten every SS_CLEAR_PERIOD loads and stores. a[k]: the start times
 * (after the eDAG's predecessors), delayed.
 */
static void store_sets(edan_timing *t, const edan_exec *rec, bool is_load, tick *a)
{
    const uint64_t v = t->v, pc = rec->insn->pc, block = rec->addr >> t->ss_shift;
    const uint32_t slot = edan_memtime_slot(block), K = (uint32_t)t->K;
    if (++t->ss_mem_ops % SS_CLEAR_PERIOD == 0) {
        memset(t->ssit, 0, (size_t)SS_ENTRIES * K * sizeof *t->ssit);
        memset(t->lfst, 0, (size_t)SS_ENTRIES * K * sizeof *t->lfst);
    }
    uint32_t *set = t->ssit + (size_t)ssit_index(pc) * K;
    /* the last older store to the block, still in the window: the one a load can violate */
    const bool near = is_load && t->ss_block[slot] == block + 1 && v - t->ss_store[slot] <= t->rmask;
    const uint64_t st = near ? t->ss_store[slot] : 0;
    uint32_t *sset = near ? t->ssit + (size_t)ssit_index(t->ss_store_pc[slot]) * K : NULL;
    for (uint32_t k = 0; k < K; k++) {
        const uint64_t last = set[k] ? t->lfst[(size_t)(set[k] - 1) * K + k] : 0;
        if (last && v - (last - 1) <= t->rmask)
            a[k] = max_t(a[k], ROW(t->F, (last - 1) & t->rmask)[k]);
        if (!near)
            continue;
        const tick st_start = ROW(t->F, st & t->rmask)[k] - t->cyc; /* a store finishes a cycle after it starts */
        if (a[k] >= st_start)
            continue;
        /* the store finds the violation when it executes: the load and all after it are fetched again */
        t->refetch[k] = max_t(t->refetch[k], st_start + t->penalty);
        a[k] = max_t(a[k], st_start + t->penalty + t->frontend);
        if (!set[k] && !sset[k]) /* a new set, numbered from the load's pc as gem5's calcSSID */
            set[k] = sset[k] = 1 + (uint32_t)((pc ^ (pc >> 10)) % SS_ENTRIES);
        else if (!set[k] || !sset[k])
            set[k] = sset[k] = set[k] ? set[k] : sset[k];
        else
            set[k] = sset[k] = set[k] < sset[k] ? set[k] : sset[k]; /* gem5 merges into the smaller set */
    }
    if (!is_load) {
        t->ss_block[slot] = block + 1;
        t->ss_store[slot] = v;
        t->ss_store_pc[slot] = pc;
        for (uint32_t k = 0; k < K; k++)
            if (set[k])
                t->lfst[(size_t)(set[k] - 1) * K + k] = v + 1;
    }
}

static void count_access(edan_timing *t, const edan_cache_result *r)
{
    for (int l = 0; l < t->nlev; l++) {
        if ((int)r->level > l)
            t->n.level_misses[l]++;
        else if ((int)r->level == l) {
            t->n.level_hits[l]++;
            break;
        }
    }
    if ((int)r->level == t->nlev)
        t->n.ram_lines++;
    t->n.ram_bytes += r->ram_bytes;
}

/* Room for id in the attribution arrays (they grow with the code executed, not the trace); 0 or -1. */
static int id_room(edan_timing *t, uint32_t id)
{
    if (id < t->id_cap)
        return 0;
    const size_t cap = edan_grow_cap(t->id_cap, id), K = (size_t)t->K;
    tick *a = edan_grow_zeroed(t->id_time, t->id_cap * K, cap * K, sizeof *a);
    if (a)
        t->id_time = a;
    tick *b = a ? edan_grow_zeroed(t->id_stall, t->id_cap * K, cap * K, sizeof *b) : NULL;
    if (b)
        t->id_stall = b;
    uint64_t *c = b ? edan_grow_zeroed(t->id_count, t->id_cap, cap, sizeof *c) : NULL;
    if (c)
        t->id_count = c;
    uint64_t *d = c ? edan_grow_zeroed(t->id_pc, t->id_cap, cap, sizeof *d) : NULL;
    if (!d) {
        edan_error_set(&t->err, "out of memory for the timing model's attribution (%zu instructions)", cap);
        return -1;
    }
    t->id_pc = d;
    t->id_cap = cap;
    return 0;
}

/*
 * What fetch and dispatch need to know about a vertex, the same in every
 * lane, and the machine's constants they use: passed by value to the inline
 * lane_fetch() and lane_dispatch(), a copy that the issue queue's
 * out-of-line slow paths cannot change, so the compiler need not read them
 * from the model again after each call (it keeps them in registers or in
 * its own stack frame).
 */
typedef struct front {
    bool taken_rule, new_block, redirect;
    const tick *prevF;         /* F of the vertex before */
    const tick *rob, *lq, *sq; /* the entry v must wait for in each queue, or NULL */
    tick cyc, frontend, penalty, l1i_hit;
    uint32_t taken_limit, fetch_width, dispatch_width, commit_width;
} front;

/* Lane k's fetch of the vertex (before the wait for an L1i miss): when fetch takes it. */
static inline tick lane_fetch(edan_timing *t, int k, const front c)
{
    const tick fat = t->fetch.at[k];
    tick f = fat;
    if (c.taken_rule) { /* a fetch cycle ends at its fetch_taken_limit-th taken branch */
        const uint32_t nt = (t->ftaken_at[k] == fat ? t->ftaken_n[k] : 0) + 1;
        t->ftaken_at[k] = fat;
        t->ftaken_n[k] = nt;
        f += nt >= c.taken_limit ? c.cyc : 0;
    }
    /* another block is read from the L1i when fetch gets to it: its hit latency after the last fetch */
    if (c.new_block)
        f = max_t(f, fat + c.l1i_hit);
    if (c.redirect)
        f = max_t(f, c.prevF[k] + c.penalty);
    f = max_t(f, t->refetch[k]);
    /* the front end holds frontend_cycles of instructions: fetch stays that close to dispatch */
    f = max_t(f, t->disp.at[k] > c.frontend ? t->disp.at[k] - c.frontend : 0);
    return slot_take(&t->fetch, k, f, c.fetch_width, c.cyc);
}

/* Lane k's dispatch of the vertex fetched at f: when there is room in the window, the queues and the issue queue. */
static inline tick lane_dispatch(edan_timing *t, int k, tick f, const front c)
{
    tick d = f + c.frontend;
    if (c.rob)
        d = max_t(d, c.rob[k]);
    if (c.lq)
        d = max_t(d, c.lq[k]);
    if (c.sq)
        d = max_t(d, c.sq[k]);
    return slot_take(&t->disp, k, edan_issueq_room(&t->iq, k, d), c.dispatch_width, c.cyc);
}

/* The end of a vertex's step, the same in every lane: what the next record's fetch needs to know. */
static int step_end(edan_timing *t, const edan_insn *in)
{
    t->prev_fallthrough = in->flow == EDAN_FLOW_BRANCH && in->pc ? in->pc + in->size : 0;
    if (in->pc && (in->flow == EDAN_FLOW_JUMP || in->flow == EDAN_FLOW_CALL || in->flow == EDAN_FLOW_RETURN))
        edan_predictor_jump(&t->bp);
    t->prev_pc = in->pc;
    t->prev_next = in->pc ? in->pc + in->size : 0;
    t->n.instructions++;
    t->v++;
    return 0;
}

/* A vertex without a memory access has at most this many predecessors: its source registers' writers. */
#define SIMPLE_PREDS EDAN_MAX_SRC
/* The general path takes the latest of a vertex's predecessors this many at a time. */
#define PRED_CHUNK 16
_Static_assert(SIMPLE_PREDS == 3, "step_simple() takes the latest of three predecessors");

/*
 * The step of a vertex that accesses no memory and whose fetch did not miss
 * the L1i (most of them), every stage in one loop over the lanes: the rules
 * of step()'s general path, less those that only a memory access or an L1i
 * miss brings (load and store queues, store sets, the hierarchy, the memory
 * stall). The lanes share no state, so one lane's whole step after another's
 * gives what step() gives stage by stage (timing_lanes_test holds the two to
 * the same results). Conditions the same in every lane are tested in the
 * loop, where their branches always go the same way.
 */
static int step_simple(edan_timing *t, const edan_exec *rec, const uint64_t *preds, size_t n_preds, const front c)
{
    const edan_insn *in = rec->insn;
    const int K = t->K;
    const uint64_t v = t->v;
    const uint32_t rmask = t->rmask;
    /* the predecessors in the window (the others committed before v dispatched), padded with zero times */
    static const tick zero[MAXK];
    const tick *pf[SIMPLE_PREDS] = {zero, zero, zero};
    for (size_t i = 0, np = 0; i < n_preds; i++)
        if (v - preds[i] <= rmask)
            pf[np++] = ROW(t->F, preds[i] & rmask);
    if (id_room(t, rec->id))
        return -1;
    t->id_count[rec->id]++;
    t->id_pc[rec->id] = in->pc;
    const bool div = in->cls == EDAN_CLASS_DIV || in->cls == EDAN_CLASS_FDIV || in->cls == EDAN_CLASS_FSQRT;
    const int fpdiv = in->cls != EDAN_CLASS_DIV;
    const uint32_t units = fpdiv ? t->m.fp_div_units : t->m.int_div_units;
    const tick lat = t->lat[in->cls < EDAN_CLASS_COUNT ? in->cls : 0];
    tick *Fv = ROW(t->F, v & rmask), *Cv = ROW(t->C, v & rmask);
    tick *own = t->id_time + (size_t)rec->id * (size_t)K;
    t->stores[v & rmask] = 0;
    t->st_addr[v & rmask] = rec->addr;
    for (int k = 0; k < K; k++) {
        const tick d = lane_dispatch(t, k, lane_fetch(t, k, c), c);
        /* start and finish */
        tick a = max_t(max_t(d, pf[0][k]), max_t(pf[1][k], pf[2][k]));
        tick fin;
        if (div) {
            tick *u = t->div_units[fpdiv] + (size_t)k * units, *best = u;
            for (uint32_t i = 1; i < units; i++)
                if (u[i] < *best)
                    best = &u[i];
            a = max_t(a, *best);
            fin = *best = a + lat;
        } else {
            fin = a + lat;
        }
        edan_issueq_enter(&t->iq, k, d, a); /* it leaves the issue queue when it starts */
        /* commit */
        const tick last = t->last_commit[k];
        const tick cm = slot_take(&t->commit, k, max_t(fin, last), c.commit_width, c.cyc);
        own[k] += cm - last;
        t->last_commit[k] = cm;
        Cv[k] = cm;
        Fv[k] = fin;
    }
    return step_end(t, in);
}

/* One vertex, whose true predecessors the tracker has listed (ascending). */
static int step(edan_timing *t, const edan_exec *rec, const uint64_t *preds, size_t n_preds)
{
    const edan_insn *in = rec->insn;
    const int K = t->K;
    const uint64_t v = t->v;
    const bool accessed = in->mem != EDAN_MEM_NONE && !(rec->flags & EDAN_EXEC_NO_ACCESS) && in->mem_size > 0;
    const bool is_load = accessed && in->mem != EDAN_MEM_STORE;
    const bool is_store = accessed && in->mem == EDAN_MEM_STORE;
    lanes a, b, dsp; /* dsp: the dispatch times */

    /* ---- fetch ---- */
    const bool redirect = mispredicted(t, in);
    int ilevel = 0;
    uint32_t ibytes = 0;
    const bool imiss = fetch_line(t, in, &ilevel, &ibytes);
    /* the record before went elsewhere than its next instruction: a taken branch or a jump */
    const bool after_taken = in->pc && t->prev_next && in->pc != t->prev_next;
    const uint64_t block = t->m.fetch_block_bytes && in->pc ? in->pc / t->m.fetch_block_bytes + 1 : 0;
    const bool new_block = block && t->fblock && block != t->fblock;
    if (block)
        t->fblock = block;
    const front c = {
        .taken_rule = after_taken && t->m.fetch_taken_limit,
        .new_block = new_block,
        .redirect = redirect,
        .prevF = ROW(t->F, (v - 1) & t->rmask),
        .rob = v >= t->m.rob_entries ? ROW(t->C, (v - t->m.rob_entries) & t->rmask) : NULL,
        .lq = is_load && t->n_loads >= t->m.lq_entries ? ROW(t->lq, t->lq_at) : NULL,
        .sq = is_store && t->n_stores >= t->m.sq_entries ? ROW(t->sq, t->sq_at) : NULL,
        .cyc = t->cyc,
        .frontend = t->frontend,
        .penalty = t->penalty,
        .l1i_hit = t->l1i_hit,
        .taken_limit = t->m.fetch_taken_limit,
        .fetch_width = t->m.fetch_width,
        .dispatch_width = t->m.dispatch_width,
        .commit_width = t->m.commit_width,
    };
    if (!accessed && !imiss && n_preds <= SIMPLE_PREDS)
        return step_simple(t, rec, preds, n_preds, c);
    /*
     * The stages of each lane one after the other where nothing in between
     * is shared (the lanes share no state): fetch and dispatch in one loop,
     * unless an L1i miss, looked up for every lane at once, comes between.
     */
    if (!imiss) {
        for (int k = 0; k < K; k++)
            a[k] = dsp[k] = lane_dispatch(t, k, lane_fetch(t, k, c), c);
    } else {
        for (int k = 0; k < K; k++) {
            a[k] = lane_fetch(t, k, c);
            b[k] = a[k] + t->l1i_hit + t->mem.hit[1];
        }
        edan_memtime_read(&t->mem, 1, ilevel, ibytes, b, a);
        for (int k = 0; k < K; k++) {
            a[k] += t->l1i_hit; /* the L1i's response */
            t->fetch.at[k] = a[k];
            t->fetch.taken[k] = 1;
            a[k] = dsp[k] = lane_dispatch(t, k, a[k], c);
        }
    }

    /* ---- start: a[k] becomes S(v) ---- */
    /* b[k]: a load's stores (its memory predecessors), which it cannot wait for before they execute */
    const bool split = t->m.store_set_bytes && is_load;
    bool any_b = false; /* b[k] holds something: the lanes' b are 0 otherwise */
    uint64_t src = 0;   /* a load's one store in the window, + 1 (0: none; UINT64_MAX: several) */
    /* the predecessors' finish rows, to a (registers, and bytes when not split) or b; in chunks of PRED_CHUNK */
    const tick *pa[PRED_CHUNK], *pb[PRED_CHUNK];
    size_t na = 0, nb = 0;
    for (size_t i = 0; i <= n_preds; i++) {
        if (i == n_preds || na == PRED_CHUNK || nb == PRED_CHUNK) {
            for (int k = 0; k < K; k++) {
                tick x = a[k], y = any_b ? b[k] : 0;
                for (size_t j = 0; j < na; j++)
                    x = max_t(x, pa[j][k]);
                for (size_t j = 0; j < nb; j++)
                    y = max_t(y, pb[j][k]);
                a[k] = x;
                b[k] = y;
            }
            any_b |= nb > 0;
            na = nb = 0;
            if (i == n_preds)
                break;
        }
        const uint64_t p = preds[i];
        if (v - p > t->rmask)
            continue; /* committed before v dispatched */
        const bool from_store = is_load && t->stores[p & t->rmask];
        if (from_store)
            src = src ? UINT64_MAX : p + 1;
        if (split && from_store)
            pb[nb++] = ROW(t->F, p & t->rmask);
        else
            pa[na++] = ROW(t->F, p & t->rmask);
    }
    if (t->m.store_set_bytes && accessed)
        store_sets(t, rec, is_load, a);
    if (any_b)
        for (int k = 0; k < K; k++)
            a[k] = max_t(a[k], b[k]);

    /* ---- execute: b[k] becomes F(v) ---- */
    edan_cache_result r = {false, false, 0, 0};
    bool from_ram = false;
    if (is_load) {
        r = edan_cache_access(&t->dc, rec->addr, in->mem_size, false);
        if (in->mem == EDAN_MEM_AMO) {
            edan_cache_result w = edan_cache_access(&t->dc, rec->addr, in->mem_size, true);
            r.ram_bytes += w.ram_bytes;
        }
        count_access(t, &r);
        t->n.loads++;
        /*
         * Store-to-load forwarding: a load whose bytes all come from one
         * store still waiting in the store queue (not yet sent to the L1d,
         * which it is after it commits) takes them from there, in an L1
         * hit's time: it does not wait for a line that the store's
         * write-allocate miss will bring. Once the store is sent, the load
         * reads the L1d, and waits for that line as any access does.
         */
        uint32_t forwarded = 0;
        const uint32_t sw = src && src != UINT64_MAX ? (uint32_t)((src - 1) & t->rmask) : 0;
        if (src && src != UINT64_MAX && in->mem != EDAN_MEM_AMO && t->st_addr[sw] <= rec->addr &&
            rec->addr + in->mem_size <= t->st_addr[sw] + t->stores[sw])
            for (int k = 0; k < K; k++)
                if (a[k] < ROW(t->st_write, sw)[k])
                    forwarded |= 1u << k;
        edan_memtime_access(&t->mem, rec->addr >> t->line_shift, (int)r.level, r.ram_bytes, a, forwarded, b);
        for (int k = 0; k < K; k++)
            b[k] += t->cyc; /* the loaded value written back, for its users */
        from_ram = (int)r.level == t->nlev;
    } else if (is_store) {
        r = edan_cache_access(&t->dc, rec->addr, in->mem_size, true);
        count_access(t, &r);
        t->n.stores++;
        for (int k = 0; k < K; k++)
            b[k] = a[k] + t->cyc; /* address and data into the store queue; the write comes after commit */
    } else if (in->cls == EDAN_CLASS_DIV || in->cls == EDAN_CLASS_FDIV || in->cls == EDAN_CLASS_FSQRT) {
        /* not pipelined: it waits for a free divider and holds it for its whole latency */
        const int fp = in->cls != EDAN_CLASS_DIV;
        const uint32_t n = fp ? t->m.fp_div_units : t->m.int_div_units;
        const tick lat = t->lat[in->cls];
        for (int k = 0; k < K; k++) {
            tick *u = t->div_units[fp] + (size_t)k * n, *best = u;
            for (uint32_t i = 1; i < n; i++)
                if (u[i] < *best)
                    best = &u[i];
            a[k] = max_t(a[k], *best);
            b[k] = *best = a[k] + lat;
        }
    } else {
        const tick lat = t->lat[in->cls < EDAN_CLASS_COUNT ? in->cls : 0];
        for (int k = 0; k < K; k++)
            b[k] = a[k] + lat;
    }

    /* ---- commit ---- */
    if (id_room(t, rec->id))
        return -1;
    t->id_count[rec->id]++;
    t->id_pc[rec->id] = in->pc;
    tick *Fv = ROW(t->F, v & t->rmask), *Cv = ROW(t->C, v & t->rmask);
    t->stores[v & t->rmask] = is_store ? in->mem_size : 0;
    t->st_addr[v & t->rmask] = rec->addr;
    tick *own = t->id_time + (size_t)rec->id * (size_t)K, *own_stall = t->id_stall + (size_t)rec->id * (size_t)K;
    lanes sink;                                          /* written, never read: lqrow when v is no load */
    tick *lqrow = is_load ? ROW(t->lq, t->lq_at) : sink; /* the load queue holds a load's commit */
    for (int k = 0; k < K; k++) {
        /* a load or store leaves the issue queue when it completes, anything else when it issues */
        edan_issueq_enter(&t->iq, k, dsp[k], accessed ? b[k] : a[k]);
        const tick last = t->last_commit[k];
        const tick cm = slot_take(&t->commit, k, max_t(b[k], last), c.commit_width, c.cyc);
        own[k] += cm - last;
        if (from_ram) {
            t->stall[k] += cm - last;
            own_stall[k] += cm - last;
        }
        t->last_commit[k] = cm;
        Cv[k] = cm;
        Fv[k] = b[k];
        lqrow[k] = cm;
        if (is_store) /* its write, in order after commit */
            t->drain[k] = max_t(cm, t->drain[k]);
    }
    if (is_load) {
        t->lq_at = t->lq_at + 1 == t->m.lq_entries ? 0 : t->lq_at + 1;
        t->n_loads++;
    }
    if (is_store) {
        /* the write, in order after commit (drain); its queue entry is free when it is done */
        edan_memtime_access(&t->mem, rec->addr >> t->line_shift, (int)r.level, r.ram_bytes, t->drain, 0, a);
        for (int k = 0; k < K; k++) {
            ROW(t->st_write, v & t->rmask)[k] = t->drain[k];
            ROW(t->sq, t->sq_at)[k] = a[k];
        }
        t->sq_at = t->sq_at + 1 == t->m.sq_entries ? 0 : t->sq_at + 1;
        t->n_stores++;
    }
    return step_end(t, in);
}

/* ===================================================================== */
/* The consumer and the results                                           */
/* ===================================================================== */

/*
 * Times past 2^62 ticks: an error, never a wrapped time. A machine within the
 * file's bounds adds at most about 2^31 ticks a vertex, so checking once a
 * batch (of fewer than 2^31 records) leaves room.
 */
#define TICK_LIMIT (1ull << 62)

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_timing *t = ctx;
    for (size_t i = 0; i < n && !t->err.set;) {
        /* the tracker over a part of the batch (its short paths), then the model over that part */
        const size_t want = n - i < PRED_BATCH ? n - i : PRED_BATCH;
        const size_t done =
            edan_deps_steps_preds(t->deps, recs + i, want, t->preds, sizeof t->preds / sizeof *t->preds, t->off);
        for (size_t j = 0; j < done; j++)
            if (step(t, &recs[i + j], t->preds + t->off[j], t->off[j + 1] - t->off[j]))
                return;
        if (done < want && edan_deps_error(t->deps)->set) {
            edan_error_set(&t->err, "%s", edan_deps_error(t->deps)->msg);
            return;
        }
        if (!done) { /* cannot be: a record's list always fits an empty buffer */
            edan_error_set(&t->err, "dependency tracker: no room for a predecessor list");
            return;
        }
        i += done;
    }
    for (int k = 0; k < t->K; k++)
        if (t->last_commit[k] > TICK_LIMIT || t->drain[k] > TICK_LIMIT)
            edan_error_set(&t->err, "the predicted time at %g ns exceeds 2^58 cycles: not supported", t->lat_ns[k]);
}

static int finish(void *ctx)
{
    edan_timing *t = ctx;
    return t->err.set ? -1 : 0;
}

edan_consumer edan_timing_consumer(edan_timing *t)
{
    edan_consumer c = {t, consume, finish, NULL};
    return c;
}
