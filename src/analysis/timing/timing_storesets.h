/*
 * timing_storesets.h - the store sets (gem5's memory-dependence
 * prediction) of the timing model's step and of functional warming: the
 * SSIT and LFST per lane, their clearing, a violation's training, and a
 * skipped record's part (the functional rule). Included by timing_shared.h
 * only, where it stood: every name here is static, one copy per width's
 * build.
 */
#ifndef EDAN_ANALYSIS_TIMING_STORESETS_H
#define EDAN_ANALYSIS_TIMING_STORESETS_H

/*
 * The SSIT entry of an instruction: indexed by pc / 4, as gem5's
 * (StoreSet::calcIndex, offsetBits 2), so with compressed (2-byte)
 * instructions the two in one 4-byte word share an entry: a load right
 * after a store in a set is predicted to depend on that set's stores.
 */
static TIMING_TARGET uint32_t ssit_index(uint64_t pc)
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
 *
 * Whether a load is checked against a store (near) is counted in the
 * region's records (t->n.instructions, ss_store_at), not in vertices:
 * a sampled schedule's vertex numbers leave out the records a skip only
 * warmed, so a store scheduled before a skip would look a few vertices
 * old to the loads after it, and a load of its block in the warm-up, which
 * in the program comes thousands of records later, would "violate" and
 * train a set that --exact never trains, for up to SS_CLEAR_PERIOD
 * (seidel-2d: its units 6-13 % slow). Within the window the vertex
 * distance is at most the record distance, so the store's row of F is
 * still there. A set's wait for its last store stays counted in vertices,
 * as the eDAG's predecessors are: the scheduled records are one stream
 * across a skip, and the last store scheduled before it stands for the
 * set's stores the skip did not schedule. Without sampling the two counts
 * are the same. A skip's stores are the last to their blocks too, with no
 * vertex (SS_WARMED): a load near one has no time to compare and takes
 * the functional rule (store_sets_skip()), as do the skip's own loads.
 */
/* ssit changed: every pair ss_known holds is to be looked at again (a wrapped count forgets them all). */
static inline void store_sets_changed(edan_timing *t)
{
    if (__builtin_expect(++t->ss_gen == 0, 0)) {
        memset(t->ss_known, 0, (size_t)SS_BLOCKS * sizeof *t->ss_known);
        t->ss_gen = 1;
    }
}

/*
 * Counts n more loads and stores (micro-operations) of the region, and
 * forgets the store sets each time the count passes a multiple of
 * SS_CLEAR_PERIOD. Skipped records of a sampled schedule count too, each
 * at its place (store_sets_skip()), so that the tables are forgotten at
 * the same load or store as with --exact: counting only the scheduled ones
 * kept them 7-20x longer and biased lu and seidel-2d's sampled times.
 */
static __attribute__((noinline)) void store_sets_clear(edan_timing *t)
{
    memset(t->ssit, 0, (size_t)SS_ENTRIES * (size_t)t->K * sizeof *t->ssit);
    memset(t->ssit_lanes, 0, (size_t)SS_ENTRIES * sizeof *t->ssit_lanes);
    memset(t->lfst, 0, (size_t)SS_ENTRIES * (size_t)t->K * sizeof *t->lfst);
    t->ss_clear_at = (t->ss_mem_ops / SS_CLEAR_PERIOD + 1) * SS_CLEAR_PERIOD;
    store_sets_changed(t);
}

/* ss_mem_ops only grows, so it passes a multiple of the period exactly when it reaches ss_clear_at */
static inline void store_sets_count(edan_timing *t, uint64_t n)
{
    t->ss_mem_ops += n;
    if (__builtin_expect(t->ss_mem_ops >= t->ss_clear_at, 0))
        store_sets_clear(t);
}

/* The entry of a (load, store) pair of SSIT entries in ss_pairs (direct mapped: two pairs may share one). */
static inline uint32_t ss_pair(uint32_t at, uint32_t sat)
{
    return edan_memtime_slot(((uint64_t)at << 16) | sat);
}

/*
 * A violation's training in lane k: the load's SSIT entry (at, pc) and the
 * store's (sat) join one set, as gem5's StoreSet::violation does.
 */
static inline void ss_join(edan_timing *t, uint32_t at, uint32_t sat, uint32_t k, uint64_t pc)
{
    const size_t K = (size_t)t->K;
    uint32_t *set = t->ssit + (size_t)at * K + k, *sset = t->ssit + (size_t)sat * K + k;
    if (!*set && !*sset) /* a new set, numbered from the load's pc as gem5's calcSSID */
        *set = *sset = 1 + (uint32_t)((pc ^ (pc >> 10)) % SS_ENTRIES);
    else if (!*set || !*sset)
        *set = *sset = *set ? *set : *sset;
    else
        *set = *sset = *set < *sset ? *set : *sset; /* gem5 merges into the smaller set */
    t->ssit_lanes[at] |= 1u << k;
    t->ssit_lanes[sat] |= 1u << k;
    store_sets_changed(t);
}

/*
 * The functional rule for a load near a store with no time (near: the last
 * older store to its block, at most rmask records back; the store only
 * warmed, or the load in a skip): the pair is trained as a violation in
 * the lanes where it has violated in the schedule before (ss_pairs), with
 * no refetch. See store_sets_skip().
 */
static inline void ss_join_known(edan_timing *t, uint32_t at, uint32_t sat, uint64_t pc)
{
    const size_t K = (size_t)t->K;
    const uint32_t *set = t->ssit + (size_t)at * K, *sset = t->ssit + (size_t)sat * K;
    for (uint32_t lanes = t->ss_pairs[ss_pair(at, sat)]; lanes; lanes &= lanes - 1) {
        const uint32_t k = (uint32_t)__builtin_ctz(lanes);
        /* already in one set (and so in ssit_lanes): ss_join() would change nothing */
        if (!set[k] || set[k] != sset[k])
            ss_join(t, at, sat, k, pc);
    }
}

STEP_INLINE void store_sets(edan_timing *t, const edan_exec *rec, bool is_load, tick *a)
{
    const uint64_t v = t->v, pos = t->n.instructions, pc = rec->insn->pc, block = rec->addr >> t->ss_shift;
    const uint32_t slot = edan_memtime_slot(block), K = (uint32_t)t->K, Kp = (uint32_t)STEP_KP(t);
    store_sets_count(t, 1);
    t->ss_early = 0;
    const uint32_t at = ssit_index(pc);
    uint32_t *set = t->ssit + (size_t)at * K;
    /* the last older store to the block, still in the window: the one a load can violate */
    timing_ss_block *sb = &t->ss_blocks[slot];
    bool near = is_load && sb->block == block + 1 && pos - sb->at <= t->rmask;
    const uint32_t sat = near ? ssit_index(sb->pc) : 0;
    if (near && sb->store == SS_WARMED) { /* a skip's store: no time to violate, the functional rule */
        ss_join_known(t, at, sat, pc);
        near = false;
    }
    const uint64_t st = near ? sb->store : 0;
    /* without a store to violate, only the lanes where pc is in a set (ssit_lanes) have anything to do */
    for (uint32_t lanes = near ? ~0u : t->ssit_lanes[at]; lanes;) {
        const uint32_t k = (uint32_t)__builtin_ctz(lanes);
        lanes &= lanes - 1;
        if (k >= K)
            break;
        const uint64_t last = set[k] ? t->lfst[(size_t)(set[k] - 1) * K + k] : 0;
        if (last && v - (last - 1) <= t->rmask)
            a[k] = max_t(a[k], ROW(t->F, (last - 1) & t->rmask)[k]);
        if (!near)
            continue;
        const tick st_start = ROW(t->F, st & t->rmask)[k] - t->cyc; /* a store finishes a cycle after it starts */
        if (a[k] >= st_start)
            continue;
        /* the store finds the violation when it executes: the load and all after it are fetched again */
        if ((int)k == t->mem.pf.lane) /* its squashed run reached the L1d: it trains there (prefetch_train_pc()) */
            t->ss_early = a[k] + 1;
        t->refetch[k] = max_t(t->refetch[k], st_start + t->penalty);
        a[k] = max_t(a[k], st_start + t->penalty + t->frontend);
        ss_join(t, at, sat, k, pc);
        t->ss_pairs[ss_pair(at, sat)] |= 1u << k;
    }
    if (!is_load) {
        *sb = (timing_ss_block){block + 1, v, pos, pc};
        for (uint32_t lanes = t->ssit_lanes[at]; lanes; lanes &= lanes - 1) {
            const uint32_t k = (uint32_t)__builtin_ctz(lanes);
            t->lfst[(size_t)(set[k] - 1) * K + k] = v + 1;
        }
    }
}

/*
 * The store sets' part of a skipped record (functional_run()), pos its
 * place in the region: its loads and stores are counted (the clearing
 * falls where it falls with --exact), a store is the last to its block
 * (SS_WARMED: no vertex, no time), and a load near a store (its block's
 * last older store at most rmask records back, as store_sets() asks) is
 * trained by the functional rule (ss_join_known()).
 *
 * Why a rule: after each clearing --exact trains its sets again at the
 * first violations, within a few thousand instructions in lu (the first
 * violation 3 to 2,400 records after each of its 55 clearings), and the
 * sets then make loads wait for their stores (lu's schedule is 74 % slower
 * with them). Trained only in scheduled stretches, a clearing in a skip
 * left the sets empty up to the next unit, which ran with them empty until
 * its own violations (lu's units 16-18 % fast at periods of 8000 and
 * 16000, its time 4.6-5.9 % low). Whether a load violates is a matter of
 * times that a skip does not have; what the schedule shows is that a pair
 * of instructions that violated once violates again when it meets in the
 * window untrained (lu: 97 % of its untrained near checks with --exact;
 * the pairs are a program's few loops' loads and stores). So the rule
 * trains a near pair in the lanes where it has violated in the schedule
 * (ss_pairs, never forgotten), at its first meeting after a clearing: a
 * pair that has never violated in a scheduled stretch is never trained.
 */
static __attribute__((noinline)) TIMING_TARGET void ss_join_known_out(edan_timing *t, uint32_t at, uint32_t sat,
                                                                      uint64_t pc)
{
    ss_join_known(t, at, sat, pc);
}

/*
 * ss_join_known() of a skipped load near a store, out of functional_run()'s
 * loop only for a pair that has violated in some lane (ss_pairs not 0): few
 * of the near pairs have. *ss_n: the run's loads and stores not yet
 * counted (store_sets_count()), counted first: the tables it trains are
 * the ones a clearing among them leaves.
 */
STEP_INLINE void store_sets_skip_near(edan_timing *t, uint64_t pc, uint64_t spc, uint64_t *ss_n)
{
    const uint32_t at = ssit_index(pc), sat = ssit_index(spc), slot = ss_pair(at, sat);
    if (__builtin_expect(t->ss_pairs[slot] != 0, 0)) {
        store_sets_count(t, *ss_n);
        *ss_n = 0;
        /* found in one set before, and ssit not changed since: ss_join_known() would change nothing */
        timing_ss_known *m = &t->ss_known[slot];
        const uint32_t key = (at << 16 | sat) + 1;
        if (m->key != key || m->gen != t->ss_gen) {
            ss_join_known_out(t, at, sat, pc);
            *m = (timing_ss_known){key, t->ss_gen}; /* each of its lanes' ss_join() left it in one set */
        }
    }
}

/*
 * The loads and stores are counted in *ss_n (a local of functional_run(),
 * handed to store_sets_count() before the tables are read and after the
 * run): only ss_join_known() reads or trains the tables a clearing
 * forgets, so clearing them at its next call or the run's end leaves them
 * as clearing at the load or store itself does.
 */
STEP_INLINE void store_sets_skip(edan_timing *t, const edan_exec *rec, const timing_fdesc *d, uint64_t pos,
                                 uint64_t *ss_n)
{
    const uint64_t block = rec->addr >> t->ss_shift;
    timing_ss_block *sb = &t->ss_blocks[edan_memtime_slot(block)];
    /* as the step does it: a split record's load micro-op, then its store's (timing_uops.h), else one access */
    if (d->ss_ops & SS_OP_LOAD) {
        ++*ss_n;
        if (sb->block == block + 1 && pos - sb->at <= t->rmask)
            store_sets_skip_near(t, d->at.pc, sb->pc, ss_n);
    }
    if (d->ss_ops & SS_OP_STORE) {
        ++*ss_n;
        *sb = (timing_ss_block){block + 1, SS_WARMED, pos, d->at.pc};
    }
}

#endif
