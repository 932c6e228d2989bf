/*
 * timing_shared.h - the part of the timing model's step (timing_lanes.h)
 * that is the same in every lane and has no time: instruction fetch's L1i
 * line, the branch predictor, the store sets' blocks, the counts and the
 * attribution's arrays, serializing instructions, and the step of a record
 * the sampled model does not schedule (functional warming). Included by
 * timing_lanes.h only, after it has defined TIMING_TARGET and STEP_INLINE:
 * every name here is static, one copy per width's build.
 */
#ifndef EDAN_ANALYSIS_TIMING_SHARED_H
#define EDAN_ANALYSIS_TIMING_SHARED_H

#include <string.h>

#include "analysis/cache/cache.h"
#include "analysis/machine/machine.h"
#include "analysis/timing/timing_internal.h"
#include "isa/riscv_ops.h"
#include "util/grow.h"
#include "util/zgrow.h"

/* ===================================================================== */
/* What every lane shares                                                 */
/* ===================================================================== */

/*
 * A memory line (j 1) or an epoch (j 0) just counted in t->n, sampled: the
 * count of the instruction whose step counted it (t->aux_id: a data line's
 * access, a fetch's, the record after a mispredicted branch for its wrong
 * path's line), in the region and, measuring, in the unit; nothing outside
 * the region (warm_run()). Once per line from memory, not per record.
 */
static inline void aux_count(edan_timing *t, int j)
{
    timing_sampler *s = &t->smp;
    if (!s->id_aux || t->aux_off || t->aux_id >= t->id_cap)
        return;
    const size_t at = (size_t)t->aux_id * EDAN_TIMING_AUX + (size_t)j;
    s->id_aux[at]++;
    if (t->measuring)
        s->id_aux_unit[at]++;
}

/* A line brought from memory (the last level's miss) counted: in t->n and per id, sampled (aux_count()). */
static inline void count_ram_line(edan_timing *t)
{
    t->n.ram_lines++;
    aux_count(t, 1);
}

/* Instruction fetch of rec: whether it misses the L1i, and where its line comes from then. */
static __attribute__((noinline)) TIMING_TARGET bool fetch_line_any(edan_timing *t, const edan_insn *in, int *level,
                                                                   uint32_t *bytes)
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
    const uint64_t victim = edan_cache_level_fill(&t->ic.level[0], line, false);
    edan_cache_result r = {false, false, 0, 0};
    edan_cache_read_line(&t->dc, 1, in->pc, &r);
    /* the clean victim, after the fill: the L2 keeps the line young (gem5's CleanEvict, edan_cache_evict_clean()) */
    edan_cache_evict_clean(&t->dc, 1, victim, t->ic.level[0].line_shift);
    *level = (int)r.level;
    *bytes = r.ram_bytes;
    t->n.l1i_misses++;
    if (*level == t->nlev)
        count_ram_line(t);
    t->n.ram_bytes += r.ram_bytes;
    return true;
}

/*
 * fetch_line_any(), the common case inline: the instruction is in fetch's
 * line (iline: its row's, timing_fdesc; never fetch's without an address)
 */
STEP_INLINE bool fetch_line(edan_timing *t, uint64_t iline, const edan_insn *in, int *level, uint32_t *bytes)
{
    return t->iline != iline && fetch_line_any(t, in, level, bytes);
}

/*
 * Wrong-path fetch. After a conditional branch predicted not taken that was
 * taken (prev; the record after it is at pc), fetch went down the
 * fall-through until the branch resolved. It reads the lines of that path
 * from the L1i, at most t->wp_bytes of it (what fetch_width instructions a
 * cycle of the shortest size take in the frontend_cycles + 1 cycles before
 * the branch can resolve, 4 lines at most), up to a jump, call or return seen there before or
 * a branch seen there that the predictor predicts taken (the path leaves),
 * and stops at the first line the L1i lacks: that line's
 * miss is sent and fills the L1i though the path is squashed (gem5's fetch
 * does not cancel it). So a loop's branch that the cold predictor gets wrong
 * brings the code after the loop. A branch predicted taken that was not goes
 * to its target, mostly a loop's head that is there (and, cold, gem5 has no
 * target for it in its BTB and falls through): not followed. Returns the line
 * + 1 read (0: none), *level and *bytes where it comes from.
 */
static TIMING_TARGET uint64_t wrong_path_fetch(edan_timing *t, const timing_prev *prev, uint64_t pc, int *level,
                                               uint32_t *bytes)
{
    const uint64_t from = prev->fallthrough, to = from + t->wp_bytes;
    if (!from || pc == from)
        return 0;
    uint64_t at = 0;                       /* the line looked up last, + 1 */
    for (uint64_t p = from; p < to; p++) { /* byte by byte: x86 instructions start anywhere */
        const uint64_t line = p >> t->line_shift;
        if (at != line + 1) {
            at = line + 1;
            if (!edan_cache_level_probe(&t->ic.level[0], line, false)) {
                edan_cache_level_fill(&t->ic.level[0], line, false);
                edan_cache_result r = {false, false, 0, 0};
                edan_cache_read_line(&t->dc, 1, line << t->line_shift, &r);
                *level = (int)r.level;
                *bytes = r.ram_bytes; /* not an L1i miss of the right path: not counted as one */
                if (*level == t->nlev)
                    count_ram_line(t);
                t->n.ram_bytes += r.ram_bytes;
                return line + 1;
            }
        }
        const uint64_t e = t->wp_ctl[p & (WP_CTL - 1)];
        if (e >> 1 == p && (!(e & 1) || edan_predictor_predict(&t->bp, p)))
            return 0; /* a jump, or a branch predicted taken: the path leaves */
    }
    return 0;
}

/*
 * A mispredicted conditional branch just before the record at pc, prev
 * telling what it was (the predictor learns the outcome it shows), counted
 * in *branches and *mispredicts: t->n's, or a run's locals (functional_run()).
 */
STEP_INLINE bool predict_before(edan_timing *t, const timing_prev *prev, uint64_t pc, uint64_t *branches,
                                uint64_t *mispredicts)
{
    if (!prev->fallthrough)
        return false;
    const bool wrong = edan_predictor_branch(&t->bp, prev->pc, pc != prev->fallthrough);
    ++*branches;
    *mispredicts += wrong;
    return wrong;
}

static inline TIMING_TARGET bool mispredicted(edan_timing *t, uint64_t pc)
{
    return predict_before(t, &t->prev, pc, &t->n.branches, &t->n.mispredicts);
}

#include "analysis/timing/timing_storesets.h"

STEP_INLINE void count_access(edan_timing *t, const edan_cache_result *r)
{
    if (r->level == 0) { /* the first level's hit (or a store that read nothing): the loop below's first turn */
        t->n.level_hits[0]++;
        t->n.ram_bytes += r->ram_bytes;
        return;
    }
    for (int l = 0; l < t->nlev; l++) {
        if ((int)r->level > l)
            t->n.level_misses[l]++;
        else if ((int)r->level == l) {
            t->n.level_hits[l]++;
            break;
        }
    }
    if ((int)r->level == t->nlev) {
        count_ram_line(t);
        /*
         * an epoch is the misses whose latencies overlap: one the window can hold with its first (at most
         * rob_entries records after it) and the first level's MSHRs can keep in flight with the others (at
         * most mshrs lines); a miss beyond either starts the next
         */
        if (!t->epoch_at || t->n.instructions + 1 - t->epoch_at > t->m.rob_entries ||
            t->epoch_lines >= t->m.data[0].mshrs) {
            t->n.ram_epochs++;
            aux_count(t, 0);
            t->epoch_at = t->n.instructions + 1;
            t->epoch_lines = 0;
        }
        t->epoch_lines++;
    }
    t->n.ram_bytes += r->ram_bytes;
}

/* A demand access's n prefetches (t->pf.issue): the bytes they move and their memory lines counted. */
static inline void prefetch_count(edan_timing *t, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        t->n.ram_bytes += t->pf.issue[i].bytes;
        if (t->pf.issue[i].src == t->nlev)
            count_ram_line(t);
    }
}

/*
 * A demand access's prefetches (prefetch.h), after the cache model did it
 * (r): they train, fill dc and are counted with the bytes they move. req:
 * the access's L1d request per lane, which decides whether an L1d hit finds
 * its line still on its way and trains (memtime.h), and, sampled, teaches
 * functional warming's rule (timing_internal.h); NULL without a time
 * (functional warming outside the region): it does not (a skip's:
 * prefetch_train_skip()). The number sent, t->pf.issue[0 ..), for the
 * hierarchy's times. A load that violated in the lane that decides
 * (store_sets(), t->ss_early: its caller's `first`, + 1; 0: none) ran once
 * before, squashed: gem5's first run reached the L1d and, finding its line on
 * its way (an MSHR hit), trained the prefetchers; so the line on its way at
 * either start trains (prefetch_test's *violation*). Its prefetches go at the
 * replay.
 */
static TIMING_TARGET uint32_t prefetch_train_pc(edan_timing *t, uint64_t pc, uint64_t addr, const edan_cache_result *r,
                                                const tick *req, tick first)
{
    bool in_flight = req && r->level == 0 && edan_memtime_pf_in_flight(&t->mem, addr >> t->line_shift, req);
    if (req && r->level == 0 && !in_flight && first) {
        tick early[EDAN_TIMING_MAX_LATENCIES] = {0}; /* only the deciding lane's is read */
        early[t->mem.pf.lane] = first - 1;
        in_flight = edan_memtime_pf_in_flight(&t->mem, addr >> t->line_shift, early);
    }
    const bool learn = req && t->wline;
    if (learn)
        warm_learn(t, pc, addr, r, in_flight);
    const uint32_t n = edan_prefetch_access(&t->pf, &t->dc, pc, addr, r, in_flight);
    prefetch_count(t, n);
    if (learn)
        warm_note(t, pc, addr, r, n);
    return n;
}

/* prefetch_train_pc() in a skip (functional warming in the region): L1d hits on their way by the rule of
 * timing_internal.h.
 */
static TIMING_TARGET void prefetch_train_skip(edan_timing *t, uint64_t pc, uint64_t addr, const edan_cache_result *r)
{
    const bool in_flight = t->wline && warm_in_flight(t, pc, addr, r);
    const uint32_t n = edan_prefetch_access(&t->pf, &t->dc, pc, addr, r, in_flight);
    prefetch_count(t, n);
    if (t->wline)
        warm_note(t, pc, addr, r, n);
}

/* prefetch_train_pc() for the access of the instruction in: the record's first training takes its violation. */
static TIMING_TARGET uint32_t prefetch_train(edan_timing *t, const edan_insn *in, uint64_t addr,
                                             const edan_cache_result *r, const tick *req)
{
    const tick first = t->ss_early;
    t->ss_early = 0;
    return prefetch_train_pc(t, in->pc, addr, r, req, first);
}

/* The sampled model's arrays by id (timing_internal.h) from old to cap ids; 0, or -1 (some grown: only larger). */
static __attribute__((noinline)) int smp_grow(timing_sampler *s, size_t old, size_t cap, size_t Kp)
{
    const size_t A = EDAN_TIMING_AUX;
    void *q;
#define GROW(p, per)                                                                                                   \
    ((q = edan_zgrow((p), old * (per) * sizeof *(p), cap * (per) * sizeof *(p))) != NULL && ((p) = q, 1))
    const bool ok = GROW(s->id_est, Kp) && GROW(s->id_stall_est, Kp) && GROW(s->id_gen, 1) && GROW(s->touched, 1) &&
                    GROW(s->id_aux, A) && GROW(s->id_aux_unit, A) && GROW(s->id_aux_est, A) && GROW(s->id_n_unit, 1) &&
                    GROW(s->id_n_est, 1);
#undef GROW
    return ok ? 0 : -1;
}

/* Room for id in the attribution arrays (they grow with the code executed, not the trace); 0 or -1. */
static __attribute__((noinline)) TIMING_TARGET int id_grow(edan_timing *t, uint32_t id)
{
    const size_t cap = edan_grow_cap(t->id_cap, id), Kp = (size_t)t->Kp;
    /* edan_zgrow(): most of these rows are never written (code outside the region), and their pages never touched */
    tick *a = edan_zgrow(t->id_time, t->id_cap * Kp * sizeof *a, cap * Kp * sizeof *a);
    if (a)
        t->id_time = a;
    tick *b = a ? edan_zgrow(t->id_stall, t->id_cap * Kp * sizeof *b, cap * Kp * sizeof *b) : NULL;
    if (b)
        t->id_stall = b;
    uint64_t *c = b ? edan_zgrow(t->id_count, t->id_cap * sizeof *c, cap * sizeof *c) : NULL;
    if (c)
        t->id_count = c;
    timing_fdesc *fd = c ? edan_zgrow(t->fdesc, t->id_cap * sizeof *fd, cap * sizeof *fd) : NULL;
    if (fd)
        t->fdesc = fd;
    uint64_t *d = fd ? edan_zgrow(t->id_pc, t->id_cap * sizeof *d, cap * sizeof *d) : NULL;
    if (d)
        t->id_pc = d;
    if (!d || (t->smp.on && smp_grow(&t->smp, t->id_cap, cap, Kp))) {
        edan_error_set(&t->err, "out of memory for the timing model's attribution (%zu instructions)", cap);
        return -1;
    }
    t->id_cap = cap;
    return 0;
}

STEP_INLINE int id_room(edan_timing *t, uint32_t id)
{
    return id < t->id_cap ? 0 : id_grow(t, id);
}

/*
 * The sampled model's current unit measures id (counted in id_n_unit): the ids its fold (timing_sample.c) visits, each
 * once. The unit's first id folds the unit before (its rows are folded once the next unit has begun: the last unit's
 * weight is known only at the end).
 */
STEP_INLINE void smp_touch(edan_timing *t, uint32_t id)
{
    timing_sampler *s = &t->smp;
    if (s->id_gen[id] != s->gen) {
        if (s->folded < s->n)
            edan_timing_fold_unit(t);
        s->id_gen[id] = s->gen;
        s->touched[s->n_touched++] = id;
    }
    s->id_n_unit[id]++;
}

/*
 * Serializing instructions, as gem5's O3 core treats them: a CSR access
 * (frflags and fsflags around a quiet FP comparison, rdcycle, ...), ecall,
 * ebreak and fence.i are non-speculative (they execute once every older
 * instruction has committed) and serialize after (the next instruction
 * waits at rename until they commit); a store-conditional only serializes
 * after.
 */
#define SERIAL_AFTER 1
#define SERIAL_NONSPEC 2
/* by mnemonic: a table, one load a vertex (CSR pseudo-instructions such as frflags decode to csrrs) */
static const uint8_t serial_ops[EDAN_OP_COUNT] = {
    [EDAN_OP_CSRRW] = SERIAL_AFTER | SERIAL_NONSPEC,
    [EDAN_OP_CSRRS] = SERIAL_AFTER | SERIAL_NONSPEC,
    [EDAN_OP_CSRRC] = SERIAL_AFTER | SERIAL_NONSPEC,
    [EDAN_OP_CSRRWI] = SERIAL_AFTER | SERIAL_NONSPEC,
    [EDAN_OP_CSRRSI] = SERIAL_AFTER | SERIAL_NONSPEC,
    [EDAN_OP_CSRRCI] = SERIAL_AFTER | SERIAL_NONSPEC,
    [EDAN_OP_ECALL] = SERIAL_AFTER | SERIAL_NONSPEC,
    [EDAN_OP_EBREAK] = SERIAL_AFTER | SERIAL_NONSPEC,
    [EDAN_OP_FENCE_I] = SERIAL_AFTER | SERIAL_NONSPEC,
    [EDAN_OP_SC_W] = SERIAL_AFTER,
    [EDAN_OP_SC_D] = SERIAL_AFTER,
};
static inline int serializing(const edan_insn *in)
{
    return in->op < EDAN_OP_COUNT ? serial_ops[in->op] : 0;
}

/* The row of rec's static instruction (timing_fdesc), filled the first time it is seen; id_room() first. */
static __attribute__((noinline)) TIMING_TARGET void fdesc_fill(edan_timing *t, timing_fdesc *d, const edan_insn *in)
{
    d->at.pc = in->pc;
    d->iline = in->pc ? (in->pc >> t->line_shift) + 1 : UINT64_MAX; /* fetch's iline never is: never in it */
    d->at.fallthrough = in->flow == EDAN_FLOW_BRANCH && in->pc ? in->pc + in->size : 0;
    d->at.next = in->pc ? in->pc + in->size : 0;
    d->jump = in->pc && (in->flow == EDAN_FLOW_JUMP || in->flow == EDAN_FLOW_CALL || in->flow == EDAN_FLOW_RETURN);
    d->ctl = d->jump || d->at.fallthrough;
    d->serial = (uint8_t)serializing(in);
    d->fblock = t->m.fetch_block_bytes && in->pc ? in->pc / t->m.fetch_block_bytes + 1 : 0;
    d->access = in->mem != EDAN_MEM_NONE && in->mem_size > 0;
    d->store = d->access && in->mem == EDAN_MEM_STORE;
    d->amo = d->access && in->mem == EDAN_MEM_AMO;
    const bool split = in->uops && !d->serial; /* step() hands it to step_uops(): a call per load and store */
    d->ss_ops =
        !t->m.store_set_bytes || !d->access ? 0
        : split
            ? (uint8_t)(((in->uops & EDAN_UOP_LOAD) ? SS_OP_LOAD : 0) | ((in->uops & EDAN_UOP_STORE) ? SS_OP_STORE : 0))
        : in->mem != EDAN_MEM_STORE ? SS_OP_LOAD
                                    : SS_OP_STORE;
    d->any = (uint8_t)((d->access && !d->amo ? WARM_LOADSTORE : 0) | (d->amo ? WARM_AMO : 0) |
                       (d->store ? WARM_STORE : 0) | (d->ctl ? WARM_CTL : 0) | (d->serial ? WARM_SERIAL : 0));
    d->insn = in;
    if ((size_t)(d - t->fdesc) >= t->id_n)
        t->id_n = (size_t)(d - t->fdesc) + 1;
    (void)edan_timing_code_add(t, in); /* out of memory: err set, the run stops */
}

STEP_INLINE const timing_fdesc *fdesc_of(edan_timing *t, const edan_exec *rec)
{
    timing_fdesc *d = &t->fdesc[rec->id];
    if (__builtin_expect(d->insn != rec->insn, 0))
        fdesc_fill(t, d, rec->insn);
    return d;
}

/*
 * What a record's row d (scheduled or not) leaves besides what the next
 * record's fetch knows of it (its row's at: t->prev, or functional_run()'s
 * pointer to the row): a jump in the predictor's history, a jump's or a
 * branch's pc in wrong-path fetch's table.
 */
STEP_INLINE void record_ctl(edan_timing *t, const timing_fdesc *d)
{
    if (d->ctl) {
        if (d->jump)
            edan_predictor_jump(&t->bp);
        t->wp_ctl[d->at.pc & (WP_CTL - 1)] = d->at.pc << 1 | (d->at.fallthrough != 0);
    }
}

/* record_ctl(), and t->prev; the record is counted. */
STEP_INLINE void record_end(edan_timing *t, const timing_fdesc *d)
{
    record_ctl(t, d);
    t->prev = d->at;
    t->n.instructions++;
}

/* The end of a vertex's step, the same in every lane: one more vertex scheduled (d: its row, fdesc_of()). */
STEP_INLINE int step_end(edan_timing *t, const edan_exec *rec, const timing_fdesc *d)
{
#ifdef TIMING_DUMP
    if (t->dump)
        edan_timing_dump_end(t, rec);
#endif
    record_end(t, d);
    const edan_insn *in = rec->insn;
    if (in->n_dst) /* a wide instruction's other destinations: miss_ahead() looks past none */
        t->lastw[in->dst] = t->v + 1;
    t->v++;
    t->u++;
    return 0;
}

/*
 * The data TLB's time for an access at addr (0 without a [dtlb]): a first-level hit none, a second-level hit
 * tlb_l2, a miss in both tlb_walk; the TLB takes the page either way. The same for every lane (its contents
 * follow the stream, as the caches' do); warming calls it for its accesses too.
 */
static __attribute__((noinline)) tick tlb_lookup(edan_timing *t, uint64_t addr)
{
    const edan_cache_result r = edan_cache_access(&t->tlb, addr, 1, false);
    t->n.tlb_translations++; /* the region's only: warm_run() keeps t->n */
    t->n.tlb_misses += r.level != 0;
    t->n.tlb_walks += r.level > 1;
    return r.level == 0 ? 0 : r.level == 1 ? t->tlb_l2 : t->tlb_walk;
}

/* the test inline: without a [dtlb] an access pays no call (GCC left the whole function out of line) */
static inline __attribute__((always_inline)) tick tlb_time(edan_timing *t, uint64_t addr)
{
    return __builtin_expect(!t->has_tlb, 1) ? 0 : tlb_lookup(t, addr);
}

/*
 * A record's memory access in the state every lane shares and that follows
 * the stream without a time: the data caches' contents, the prefetchers'
 * training and the counts (t->n). The whole of it, for any access (an AMO,
 * a prefetcher's); functional_run() takes the common ones itself. region: a
 * skip's (the prefetchers train by functional warming's in-flight rule).
 */
static __attribute__((noinline)) TIMING_TARGET void functional_access(edan_timing *t, const edan_exec *rec, bool region)
{
    const edan_insn *in = rec->insn;
    const bool store = in->mem == EDAN_MEM_STORE;
    edan_cache_result r = edan_cache_access(&t->dc, rec->addr, in->mem_size, store);
    tlb_time(t, rec->addr);
    if (in->mem == EDAN_MEM_AMO) {
        edan_cache_result w = edan_cache_access(&t->dc, rec->addr, in->mem_size, true);
        if (in->uops & EDAN_UOP_STORE) { /* a store micro-operation of its own (timing_uops.h) */
            count_access(t, &w);
            t->n.stores++;
        } else {
            r.ram_bytes += w.ram_bytes;
        }
    }
    count_access(t, &r);
    if (t->pf.any && region) /* a skip: functional warming's in-flight rule (timing_internal.h) */
        prefetch_train_skip(t, in->pc, rec->addr, &r);
    else if (t->pf.any)
        (void)prefetch_train(t, in, rec->addr, &r, NULL);
    t->n.loads += !store;
    t->n.stores += store;
}

#include "analysis/timing/timing_bisect.h"

/*
 * Functional warming of a run of records: what each does to the state every
 * lane shares and that follows the stream without a time (the L1i and the
 * data caches' contents, the branch predictor, fetch's L1i line and
 * previous record, a mispredicted branch's wrong-path fills: wrong_path_fetch()
 * and wrong_path_bisect()), as the scheduled step does it (timing_lanes.h,
 * with the same functions), and the counts (t->n). One loop that keeps in registers
 * what changes on every record, so that a record without a memory access,
 * or whose access finds the most recently used line of its set in the L1d,
 * costs a few dozen host instructions; the counts it keeps in locals are
 * added to t->n after the run, and what only a few records do (a
 * conditional branch, a new L1i line, a miss, an AMO, a prefetcher's
 * training) goes through the functions that count into t->n directly.
 *
 * region: a skip of the sampled model (timing.h), the region's records not
 * scheduled, up to n of them or to the next warm record (recs[0] is
 * measured), with their counts, the attribution's per-id counts and the
 * store sets' part without a time (store_sets_skip(): the count of loads
 * and stores, the blocks' last stores, the functional rule's training).
 * Nothing with a time changes (nor fetch's block: the first record
 * scheduled after a skip may wait to read its block), and the dependency
 * tracker does not see them: the scheduled records form one stream of
 * their own (the vertex numbers t->v and the tracker's), whose first
 * records after a skip are the warm-up that makes its window and queues
 * realistic again. Else records outside the region (warm_run()): up to n
 * of them or to the next kernel's write, counted nowhere. Returns how many,
 * or -1 (t->err set).
 */
/* A warmed access that edan_cache_try_mru() did not take, out of functional_run()'s loop. */
static __attribute__((noinline)) TIMING_TARGET void warm_past_mru(edan_timing *t, uint64_t addr, uint32_t size, bool st)
{
    const edan_cache_result r = edan_cache_access_past_mru(&t->dc, addr, size, st, NULL);
    count_access(t, &r);
}

/* records functional_run() reads ahead of the one it warms (a prefetch; reading past the batch is harmless) */
#define RUN_AHEAD 32
/*
 * The prediction of the conditional branch whose row's at is br, just
 * before the record rec at pc (predict_before()), and after a misprediction
 * the wrong path's fetch and, in the chunk (t->part), loads
 * (wrong_path_bisect()). br may be a row of t->fdesc, which id_grow() moves:
 * what the wrong path needs of it is copied before rec's id gets its room.
 */
STEP_INLINE void warm_predict(edan_timing *t, const timing_prev *br, const edan_exec *rec, uint64_t pc,
                              uint64_t *branches, uint64_t *mispredicts)
{
    if (predict_before(t, br, pc, branches, mispredicts)) {
        const timing_prev prev = *br;
        /* the wrong path's line is the record's after the branch (wrong_path(), as the scheduled step's) */
        if (rec->id < t->id_cap || !id_grow(t, rec->id))
            t->aux_id = rec->id;
        int wlevel = 0;
        uint32_t wbytes = 0;
        if (wrong_path_fetch(t, &prev, pc, &wlevel, &wbytes))
            t->wp_line = 0; /* no times here: the line is simply there */
        /* the wrong path's loads of a bisection's other half, as the scheduled step's (the chunk's index) */
        const uintptr_t at = (uintptr_t)rec - (uintptr_t)t->part;
        if (t->part && at < t->part_n * sizeof *rec)
            wrong_path_bisect(t, at / sizeof *rec, false);
    }
}

STEP_INLINE long functional_run(edan_timing *t, const edan_exec *recs, size_t n, const bool region, const bool plain)
{
    uint64_t branches = 0, mispredicts = 0, accesses = 0, stores = 0, l1_hits = 0, serial = 0;
    uint64_t ss_n = 0;                       /* the store sets' loads and stores not yet counted (store_sets_skip()) */
    const uint64_t base = t->n.instructions; /* recs[j] is the region's record base + j */
    const uint16_t stop = region ? EDAN_EXEC_WARM : EDAN_EXEC_KERNEL; /* a skip's recs[0] is measured */
    /*
     * A conditional branch is predicted at its own row, once the record
     * after it is known to be warmed here (the same order as predicting at
     * that record: nothing happens between), so that a record's loop needs
     * no test of the one before; only the first record's branch, t->prev,
     * is predicted before the loop, and the last record's is left in t->prev.
     */
    if (n && !(recs[0].flags & stop) && t->prev.fallthrough) {
        const timing_prev first = t->prev;
        warm_predict(t, &first, &recs[0], recs[0].insn->pc, &branches, &mispredicts);
    }
    size_t j = 0;
    for (; j < n; j++) {
        const edan_exec *rec = &recs[j];
        /* the batch was written on the producer's core: reading it is most of a plain record's wait */
        __builtin_prefetch((const void *)((uintptr_t)rec + RUN_AHEAD * sizeof *rec));
        if (rec->flags & stop)
            break;
        const uint32_t id = rec->id;
        if (__builtin_expect(id >= t->id_cap, 0) && id_grow(t, rec->id)) /* id_room() */
            goto fail;
        timing_fdesc *d = &t->fdesc[id];
        if (__builtin_expect(d->insn != rec->insn, 0))
            fdesc_fill(t, d, rec->insn);
        if (t->iline != d->iline) { /* fetch leaves its line (fetch_line()) */
            int ilevel = 0;
            uint32_t ibytes = 0;
            t->aux_id = id; /* what the rare paths count is this record's (aux_count()) */
            (void)fetch_line_any(t, rec->insn, &ilevel, &ibytes);
        }
        if (region) /* the row's count (edan_timing_id_count()); its pc is the row's */
            d->skipped++;
        const unsigned w = d->any;
        if (!w) /* fetched and counted: most records */
            continue;
        /* a load or store (any access without a plain cache: the prefetchers see it), or an AMO */
        const unsigned mem = plain ? WARM_LOADSTORE : WARM_LOADSTORE | WARM_AMO;
        if ((w & mem) && !(rec->flags & EDAN_EXEC_NO_ACCESS)) {
            if (!plain) {
                if (region) /* count_access() numbers a memory line's epoch by the record */
                    t->n.instructions = base + j;
                t->aux_id = id;
                functional_access(t, rec, region);
            } else {
                const bool store = (w & WARM_STORE) != 0;
                const uint32_t size = rec->insn->mem_size;
                tlb_time(t, rec->addr);
                if (edan_cache_try_mru(&t->dc, rec->addr, size, store)) {
                    l1_hits++; /* count_access() of a first level's hit that moved no bytes */
                } else {
                    if (region) /* as above */
                        t->n.instructions = base + j;
                    t->aux_id = id;
                    warm_past_mru(t, rec->addr, size, store);
                }
                accesses++; /* loads and stores of this path: the loads are those less the stores */
                stores += store;
            }
            if (region && d->ss_ops)
                store_sets_skip(t, rec, d, base + j, &ss_n);
        } else if (plain && (w & WARM_AMO) && !(rec->flags & EDAN_EXEC_NO_ACCESS)) {
            t->aux_id = id;
            if (region) /* as above */
                t->n.instructions = base + j;
            functional_access(t, rec, region);
            if (region && d->ss_ops)
                store_sets_skip(t, rec, d, base + j, &ss_n);
        }
        if (w & (WARM_CTL | WARM_SERIAL)) {
            serial += (w & WARM_SERIAL) != 0;
            record_ctl(t, d);
            /* a conditional branch with a record after it here: predicted now (above) */
            if (d->at.fallthrough && j + 1 < n && !(rec[1].flags & stop))
                warm_predict(t, &d->at, &rec[1], rec[1].insn->pc, &branches, &mispredicts);
        }
    }
    /* the last record's row (never predicted above): its branch is predicted at the next record, wherever that goes */
    if (j)
        t->prev = t->fdesc[recs[j - 1].id].at;
    if (region) {
        store_sets_count(t, ss_n);
        t->n.instructions = base + j;
        t->n.branches += branches;
        t->n.mispredicts += mispredicts;
        t->n.loads += accesses - stores;
        t->n.stores += stores;
        t->n.level_hits[0] += l1_hits;
        t->n.serializing += serial;
    }
    return (long)j;
fail:
    store_sets_count(t, ss_n);
    if (j)
        t->prev = t->fdesc[recs[j - 1].id].at;
    return -1;
}

/*
 * A skip of the sampled model: functional_run() of the region's records. A
 * function of its own, not inlined into the scheduling step, whose many live
 * values would otherwise crowd this loop's registers.
 */
static __attribute__((noinline)) TIMING_TARGET long skip_run(edan_timing *t, const edan_exec *recs, size_t n)
{
    /* plain: without prefetchers an access's result is only counted (a build of the loop for each) */
    return t->pf.any ? functional_run(t, recs, n, true, false) : functional_run(t, recs, n, true, true);
}

/*
 * Records that ran outside the measured region (EDAN_EXEC_WARM,
 * trace/exec.h): the same state as functional warming, and no count: the
 * region starts with the caches, the L1i and the predictor the program
 * left, and its counts are its own. Taking the counts back once per run of
 * warm records (those its rare paths made in t->n) keeps functional_run()
 * the one definition of that state.
 */
/*
 * The kernel's writes (EDAN_EXEC_KERNEL, trace/exec.h) among warm records:
 * the data caches take each line as a store does; they are no instruction,
 * so the predictor, the L1i and the prefetchers (which train on a pc) do
 * not see them.
 */
static __attribute__((noinline)) TIMING_TARGET void kernel_writes(edan_timing *t, const edan_exec *recs, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        const edan_cache_result r = edan_cache_access(&t->dc, recs[j].addr, recs[j].insn->mem_size, true);
        count_access(t, &r);
    }
}

STEP_INLINE int warm_run(edan_timing *t, const edan_exec *recs, size_t n)
{
    const edan_timing_counts keep = t->n;
    edan_prefetch_counts pf[NLEV];
    if (t->pf.any) /* the region's lines evicted unused so far are the region's */
        edan_prefetch_collect(&t->pf, &t->dc);
    memcpy(pf, t->pf.n, sizeof pf);
    t->aux_off = true; /* nor per id (aux_count()) */
    /* runs of the program's records (functional_run() stops at a kernel's write) and of the kernel's writes */
    for (size_t i = 0, k; i < n; i += k) {
        if (recs[i].flags & EDAN_EXEC_KERNEL) {
            for (k = 1; i + k < n && (recs[i + k].flags & EDAN_EXEC_KERNEL); k++)
                ;
            kernel_writes(t, recs + i, k);
        } else {
            const long j = functional_run(t, recs + i, n - i, false, !t->pf.any);
            if (j < 0) {
                t->aux_off = false;
                return -1;
            }
            k = (size_t)j;
        }
    }
    t->n = keep;
    t->aux_off = false;
    if (t->pf.any) { /* the prefetchers' counts too, and the lines they brought that were evicted unused */
        edan_prefetch_collect(&t->pf, &t->dc);
        memcpy(t->pf.n, pf, sizeof pf);
    }
    return 0;
}

#endif
