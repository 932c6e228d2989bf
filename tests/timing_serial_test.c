/*
 * Serializing instructions in the timing model (timing_lanes.h,
 * serializing()), with exact answers:
 *  - a CSR access executes once every older instruction has committed, and
 *    the next instruction dispatches serialize_cycles after it commits: a
 *    run of n CSR accesses takes n x (serialize_cycles + 1) cycles (each
 *    starts a cycle after the one before commits, and takes one);
 *  - so n independent misses, each followed by a CSR access, cannot overlap:
 *    they expose n latencies where alone they expose one; the same with a
 *    store-conditional after each (it serializes after, and commits after
 *    the miss before it);
 *  - an instruction that does not serialize (an add) changes nothing.
 * The same holds in every lane of a pass with several latencies and
 * whichever build of the step runs (timing_lanes_test compares them).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/timing.h"
#include "check.h"
#include "isa/riscv_ops.h"
#include "timing_check.h"

/* csrrs rd, fflags, x0 (frflags) */
static edan_insn csr_read(uint8_t dst, uint64_t pc)
{
    edan_insn in = add(dst, 0, pc);
    in.n_src = 0;
    in.src[0] = 0;
    in.op = EDAN_OP_CSRRS;
    in.fmt = EDAN_FMT_CSR;
    in.csr = 1;
    return in;
}

static edan_insn store_conditional(uint8_t dst, uint8_t addr, uint64_t pc)
{
    edan_insn in = load(dst, addr, pc);
    in.cls = EDAN_CLASS_STORE;
    in.mem = EDAN_MEM_STORE;
    in.op = EDAN_OP_SC_D;
    return in;
}

/* the cycles at one latency of recs[0..n) */
static double cycles_of(const edan_machine *m, const edan_exec *recs, size_t n)
{
    double c[1];
    return predict(m, recs, n, LAT, 1, 64, c, NULL) ? -1 : c[0];
}

static void test_csr_runs(void)
{
    static edan_exec r[64];
    static edan_insn x[2];
    x[0] = csr_read(EDAN_REG_X(5), 0x1000);
    x[1] = csr_read(EDAN_REG_X(6), 0x1004);
    const uint32_t ser[] = {0, 1, 4, 10};
    for (size_t s = 0; s < sizeof ser / sizeof *ser; s++) {
        edan_machine m = base_machine();
        m.serialize_cycles = ser[s];
        for (size_t i = 0; i < 64; i++)
            r[i] = rec(&x[i % 2], 0);
        const double per = (double)(ser[s] > 1 ? ser[s] : 1) + 1;
        /* n more accesses, n x per more cycles (the first one's fetch miss is in both) */
        const double d = cycles_of(&m, r, 48) - cycles_of(&m, r, 16);
        CHECK(d == 32 * per, "32 CSR accesses with serialize_cycles %u: %g cycles, expected %g", ser[s], d, 32 * per);
    }
    /* the same run of adds overlaps: one cycle for all */
    static edan_insn a[2];
    a[0] = add(EDAN_REG_X(5), 0, 0x1000);
    a[1] = add(EDAN_REG_X(6), 0, 0x1004);
    for (size_t i = 0; i < 64; i++)
        r[i] = rec(&a[i % 2], 0);
    edan_machine m = base_machine();
    m.serialize_cycles = 4;
    const double d = cycles_of(&m, r, 48) - cycles_of(&m, r, 16);
    CHECK(d == 0, "32 independent adds: %g more cycles, expected 0", d);
}

static void test_serialized_misses(void)
{
    static edan_exec r[128];
    static edan_insn ld[2], after[3][2];
    for (int j = 0; j < 2; j++) {
        ld[j] = load(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0x1000 + 8 * (uint64_t)j);
        after[0][j] = add(EDAN_REG_X(20 + j), 0, 0x1004 + 8 * (uint64_t)j);
        after[1][j] = csr_read(EDAN_REG_X(20 + j), 0x1004 + 8 * (uint64_t)j);
        after[2][j] = store_conditional(EDAN_REG_X(20 + j), EDAN_REG_X(4), 0x1004 + 8 * (uint64_t)j);
    }
    static const char *name[3] = {"an add", "a CSR access", "an sc.d"};
    const size_t n = 32;
    for (int kind = 0; kind < 3; kind++) {
        for (size_t i = 0; i < n; i++) {
            r[2 * i] = rec(&ld[i % 2], fresh(i));
            r[2 * i + 1] = rec(&after[kind][i % 2], kind == 2 ? 0x100 : 0); /* the sc to one line: L1 hits */
        }
        for (uint32_t ser = 0; ser <= 8; ser += 8) {
            edan_machine m = base_machine();
            m.serialize_cycles = ser;
            const double e = exposed(&m, r, 2 * n), want = kind ? (double)n + 1 : 2;
            CHECK(e == want, "%zu misses, %s after each, serialize_cycles %u: %g latencies exposed, expected %g", n,
                  name[kind], ser, e, want);
        }
    }
}

int main(void)
{
    test_csr_runs();
    test_serialized_misses();
    return check_summary();
}
