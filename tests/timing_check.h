/*
 * timing_check.h - what the timing model's tests with exact answers share
 * (timing_test.c, timing_serial_test.c): a test machine, the model over a
 * stream, and instructions built by hand.
 *
 * A test machine has zero hit latencies and a bandwidth so high that a
 * transfer takes no time, unless a case says otherwise, so a miss costs the
 * memory latency exactly. Its first fetch misses the L1i: every stream
 * starts one memory latency late.
 */
#ifndef EDAN_TESTS_TIMING_CHECK_H
#define EDAN_TESTS_TIMING_CHECK_H

#include <string.h>

#include "analysis/timing/timing.h"
#include "check.h"

#define LINE 128u
#define MAXN 4096

static inline edan_machine base_machine(void)
{
    edan_machine m;
    memset(&m, 0, sizeof m);
    strcpy(m.name, "test");
    m.clock_ghz = 1.0;
    m.fetch_width = m.dispatch_width = m.issue_width = m.commit_width = 1u << 20;
    m.rob_entries = m.lq_entries = m.sq_entries = m.iq_entries = MAXN;
    m.int_div_units = m.fp_div_units = 1024;
    m.predictor = EDAN_PRED_BIMODAL;
    m.predictor_entries = 16;
    for (int c = 0; c < EDAN_CLASS_COUNT; c++)
        m.latency[c] = 1;
    edan_cache_level_config wb = {1u << 15, LINE, 2, true, true};
    m.l1i = (edan_machine_cache){{1u << 14, LINE, 2, false, false}, 0, 1024, 1024, {0}};
    m.n_data_levels = 2;
    m.data[0] = (edan_machine_cache){wb, 0, 1024, 1024, {0}};
    wb.size = 1u << 18;
    wb.ways = 8;
    m.data[1] = (edan_machine_cache){wb, 0, 1024, 1024, {0}};
    m.mem_latency_ns = 100;
    m.mem_bandwidth_gbs = 1e6;
    return m;
}

/* An 8-wide core with 16 L1d and 32 L2 MSHRs: enough misses in flight that a burst's cost is not its lines'. */
static inline edan_machine wide_machine(void)
{
    edan_machine m = base_machine();
    m.fetch_width = m.dispatch_width = m.issue_width = m.commit_width = 8;
    m.rob_entries = 192;
    m.lq_entries = m.sq_entries = 64;
    m.iq_entries = 64;
    m.data[0].mshrs = 16;
    m.data[1].mshrs = 32;
    return m;
}

/*
 * The model, on `threads` lane groups (edan_timing_new_threaded()), sampled
 * as smp says (NULL: not), over recs in batches of `batch`, finished: NULL
 * after a failed check. The caller frees it.
 */
static inline edan_timing *timing_run_sampled(const edan_machine *m, const edan_exec *recs, size_t n, const double *lat,
                                              int nl, size_t batch, int threads, const edan_timing_sampling *smp)
{
    edan_error err = {0};
    edan_timing *t = edan_timing_new_threaded(m, lat, nl, threads, &err);
    CHECK(t != NULL, "timing_new: %s", err.msg);
    if (!t)
        return NULL;
    if (smp && edan_timing_set_sampling(t, smp, &err)) {
        CHECK(0, "set_sampling: %s", err.msg);
        edan_timing_free(t);
        return NULL;
    }
    edan_consumer c = edan_timing_consumer(t);
    for (size_t i = 0; i < n; i += batch)
        c.consume(c.ctx, recs + i, n - i < batch ? n - i : batch);
    int rc = c.finish(c.ctx);
    CHECK(rc == 0, "finish: %s", edan_timing_error(t)->msg);
    if (rc) {
        edan_timing_free(t);
        return NULL;
    }
    return t;
}

/* timing_run_sampled() unsampled. */
static inline edan_timing *timing_run(const edan_machine *m, const edan_exec *recs, size_t n, const double *lat, int nl,
                                      size_t batch, int threads)
{
    return timing_run_sampled(m, recs, n, lat, nl, batch, threads, NULL);
}

/* The model over recs in batches of `batch`; cycles[i] at lat[i]. 0 or -1. */
static inline int predict(const edan_machine *m, const edan_exec *recs, size_t n, const double *lat, int nl,
                          size_t batch, double *cycles, edan_timing_counts *counts)
{
    for (int k = 0; k < nl; k++)
        cycles[k] = -1;
    edan_timing *t = timing_run(m, recs, n, lat, nl, batch, 1);
    if (!t)
        return -1;
    for (int k = 0; k < nl; k++)
        cycles[k] = edan_timing_lane_get(t, k).cycles;
    if (counts)
        *counts = *edan_timing_counts_get(t);
    edan_timing_free(t);
    return 0;
}

static inline edan_insn load(uint8_t dst, uint8_t src, uint64_t pc)
{
    edan_insn in;
    memset(&in, 0, sizeof in);
    in.pc = pc;
    in.size = 4;
    in.cls = EDAN_CLASS_LOAD;
    in.mem = EDAN_MEM_LOAD;
    in.mem_size = 8;
    in.n_src = 1;
    in.src[0] = src;
    in.n_dst = 1;
    in.dst = dst;
    return in;
}

static inline edan_insn add(uint8_t dst, uint8_t src, uint64_t pc)
{
    edan_insn in = load(dst, src, pc);
    in.cls = EDAN_CLASS_INT;
    in.mem = EDAN_MEM_NONE;
    in.mem_size = 0;
    return in;
}

/* A store of `size` bytes of register data to the address in register addr. */
static inline edan_insn store(uint8_t data, uint8_t addr, uint64_t pc, uint8_t size)
{
    edan_insn in = load(0, addr, pc);
    in.size = size;
    in.cls = EDAN_CLASS_STORE;
    in.mem = EDAN_MEM_STORE;
    in.n_src = 2;
    in.src[1] = data;
    in.n_dst = 0;
    return in;
}

static inline edan_exec rec(const edan_insn *in, uint64_t addr)
{
    edan_exec r;
    memset(&r, 0, sizeof r);
    r.insn = in;
    r.addr = addr;
    return r;
}

/*
 * A stream's two instructions where misses are counted: a load (x5 from
 * x6's address, at 0x1000) given fresh() lines, and an addition (x7 += x7,
 * at 0x1004) between them.
 */
static inline void load_and_add(edan_insn *ld, edan_insn *op)
{
    *ld = load(EDAN_REG_X(5), EDAN_REG_X(6), 0x1000);
    *op = add(EDAN_REG_X(7), EDAN_REG_X(7), 0x1004);
}

/* A conditional branch on `src` at `pc` whose taken target is pc + imm. */
static inline edan_insn branch(uint8_t src, uint64_t pc, int64_t imm)
{
    edan_insn b = add(0, src, pc);
    b.flow = EDAN_FLOW_BRANCH;
    b.n_dst = 0;
    b.imm = imm;
    return b;
}

/*
 * A binary search's code (timing_wrongpath_test.c, pagemap_test.c), code[0 ..
 * 5]: a load of x5 from x4 at 0x1000 (the midpoint), a branch on x5 at 0x1004
 * to 0x1010 (taken: the lower half), the arms' x4 updates at 0x1008 and 0x1010
 * and their jumps back (0x100c, 0x1014).
 */
static inline void bisection_code(edan_insn *code)
{
    code[0] = load(EDAN_REG_X(5), EDAN_REG_X(4), 0x1000);
    code[1] = branch(EDAN_REG_X(5), 0x1004, 0xc);
    code[2] = add(EDAN_REG_X(4), EDAN_REG_X(4), 0x1008);
    code[3] = add(EDAN_REG_X(9), EDAN_REG_X(3), 0x100c);
    code[3].flow = EDAN_FLOW_JUMP;
    code[4] = add(EDAN_REG_X(4), EDAN_REG_X(4), 0x1010);
    code[5] = add(EDAN_REG_X(9), EDAN_REG_X(3), 0x1014);
    code[5].flow = EDAN_FLOW_JUMP;
}

/* A distinct line for the i-th access: every access misses every level. */
static inline uint64_t fresh(size_t i)
{
    return 0x10000000ull + i * LINE;
}

static const double LAT[2] = {100, 200};

/* cycles at 200 ns minus cycles at 100 ns, in units of 100 cycles: how many latencies the stream exposes */
static inline double exposed(const edan_machine *m, const edan_exec *recs, size_t n)
{
    double c[2];
    if (predict(m, recs, n, LAT, 2, 64, c, NULL))
        return -1;
    return (c[1] - c[0]) / 100.0;
}

#endif
