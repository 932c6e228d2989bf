/*
 * Wrong-path fetch (docs/model.md, Timing model, Fetch): after a conditional
 * branch predicted not taken that was taken, fetch went down the
 * fall-through until the branch resolved, and the first line there that the
 * L1i lacked was read into it. On hand-built streams with exact answers:
 *  - a branch at 0x1000 taken to 0x2000, predicted not taken (the cold
 *    bimodal predictor): the fall-through's next line, 0x1040, is read on the
 *    wrong path, so a later jump to 0x1040 finds it; the stream exposes the
 *    first fetch's miss and 0x2000's, 2 latencies, where without the wrong
 *    path 0x1040's miss is a third;
 *  - a jump seen at 0x1008 before (the path leaves there): the wrong path
 *    stops, 3 latencies;
 *  - the line is still on its way when the right path gets to it: fetch
 *    waits for the wrong path's fill, not for a miss of its own.
 * Wrong-path loads (timing_ahead.h, wrong_path_loads()):
 *  - a forward branch on a missing load, taken, predicted not taken: the
 *    wrong path runs the skipped additions and then the right path's load
 *    after the join, whose address is ready: its miss goes out with the
 *    branch's, 2 latencies exposed (the first fetch's and the loads') where
 *    the right path alone exposes 3;
 *  - the skipped additions (seen on the right path before) write the load's
 *    address register: its value on the wrong path is not known, 3;
 *  - the load's address register written by a record only the right path
 *    runs (the loop's next run found at the wrong path's first pc): 3;
 *  - the skipped bytes hold compressed instructions: counted by their sizes;
 *  - the induction registers as offsets: a loop over vertices whose visited
 *    ones skip the body (spills.gapbs-bfs's bottom-up step); a mispredicted
 *    visited vertex's wrong path runs the body at the next unvisited vertex's
 *    records with the registers the right path stepped by immediates (addi)
 *    taken back: its loads, at the records' addresses minus the steps, are the
 *    next vertices' loads, requested a memory latency early: 4 latencies
 *    exposed where the right path alone exposes 6; the step an add of a
 *    register: not known, no request, 6; with pages placed at first touch,
 *    the same 4 in one page, and 6 where the shifted address is in a page
 *    no record before the branch touched (virtual pages: 4).
 * The other half of a bisection (timing_bisect.h, wrong_path_bisect()):
 *  - a load whose value a branch tests, its steps halving (0x2000 then
 *    0x1000 bytes), the branch mispredicted: the wrong path's load of the
 *    other half, at 2L - A, fills its line, which a later load (waiting for
 *    the last one's value) finds: 3 latencies exposed where it exposes 4;
 *    and on down the other half, the steps halving, as predicted: 3 at
 *    2L - A + 0x800, 4 at 2L - A - 0x800;
 *  - steps that do not halve (0x4000 then 0x1000): no such load, 4; the
 *    next address computed from the load's value (a walk of pointers, each
 *    load waits for the last): none either, 5;
 *  - binary searches of random keys in a 64 KiB sorted array, sampled: the
 *    skips' functional warming makes the same fills (timing_bisect.h), so
 *    the counts (caches, predictor) are the unsampled model's, and a unit
 *    covering every period gives its cycles in every lane; the fills are
 *    there: the array fits the L2, and fewer lines come from memory than
 *    the right path reads.
 * Functional warming's wrong path while the arrays by id grow (test_warm_growth()).
 */
#include <string.h>

#include "analysis/timing/timing.h"
#include "check.h"
#include "isa/riscv_ops.h"
#include "timing_check.h"

static edan_machine machine(void)
{
    edan_machine m = base_machine();
    m.fetch_width = 8;
    m.frontend_cycles = 5; /* the wrong path reads 8 * 6 * 2 = 96 bytes */
    m.l1i.geo.line = m.data[0].geo.line = m.data[1].geo.line = 64;
    return m;
}

/*
 * The stream: [a jump at 0x1008 to 0x1000 when `seen`] the branch at 0x1000,
 * taken to 0x2000; `body` adds at 0x2000 (one line), a jump to 0x1040; 4 adds
 * at 0x1040. Returns the records' count.
 */
static size_t stream(edan_exec *r, edan_insn *code, bool seen, size_t body)
{
    size_t n = 0, c = 0;
    if (seen) {
        code[c] = add(EDAN_REG_X(5), EDAN_REG_X(3), 0x1008);
        code[c].flow = EDAN_FLOW_JUMP;
        r[n++] = rec(&code[c++], 0);
    }
    code[c] = branch(EDAN_REG_X(3), 0x1000, 0);
    r[n++] = rec(&code[c++], 0);
    for (size_t i = 0; i < body; i++) {
        code[c] = add(EDAN_REG_X(10 + i % 8), EDAN_REG_X(3), 0x2000 + 4 * (i % 15));
        code[c].flow = i + 1 == body ? EDAN_FLOW_JUMP : EDAN_FLOW_NONE;
        if (i + 1 == body)
            code[c].pc = 0x2000 + 4 * 15;
        r[n++] = rec(&code[c++], 0);
    }
    for (size_t i = 0; i < 4; i++) {
        code[c] = add(EDAN_REG_X(20 + i), EDAN_REG_X(3), 0x1040 + 4 * i);
        r[n++] = rec(&code[c++], 0);
    }
    return n;
}

static void test_fallthrough(void)
{
    static edan_exec r[64];
    static edan_insn code[64];
    edan_machine m = machine();
    size_t n = stream(r, code, false, 8);
    double e = exposed(&m, r, n);
    CHECK(e == 2, "the fall-through's next line read on the wrong path: %g latencies exposed, expected 2", e);
    edan_timing_counts cn;
    double c[2];
    CHECK(!predict(&m, r, n, LAT, 2, 64, c, &cn) && cn.l1i_misses == 2 && cn.ram_lines == 3 && cn.mispredicts == 1,
          "L1i misses %llu (expected 2: 0x1000, 0x2000), lines read %llu (3: and 0x1040 on the wrong path), "
          "mispredicts %llu (1)",
          (unsigned long long)cn.l1i_misses, (unsigned long long)cn.ram_lines, (unsigned long long)cn.mispredicts);

    /* a jump seen at 0x1008: the wrong path leaves there and 0x1040 is a miss of the right path */
    n = stream(r, code, true, 8);
    e = exposed(&m, r, n);
    CHECK(e == 3, "a jump on the fall-through: %g latencies exposed, expected 3", e);
}

/*
 * The right path gets to the line while the wrong path's miss of it is on its
 * way (the branch at 0x1000 taken to 0x1044, the fall-through reads 0x1040):
 * fetch waits for that fill and sends no miss of its own.
 */
static void test_wait(void)
{
    static edan_exec r[8];
    static edan_insn code[8];
    edan_machine m = machine();
    code[0] = branch(EDAN_REG_X(3), 0x1000, 0);
    r[0] = rec(&code[0], 0);
    for (size_t i = 1; i < 5; i++) {
        code[i] = add(EDAN_REG_X(20 + i), EDAN_REG_X(3), 0x1044 + 4 * (i - 1));
        r[i] = rec(&code[i], 0);
    }
    edan_timing_counts cn;
    double c[2];
    CHECK(!predict(&m, r, 5, LAT, 2, 64, c, &cn), "the model ran");
    CHECK(cn.l1i_misses == 1 && cn.ram_lines == 2, "L1i misses %llu, lines read %llu, expected 1 and 2 (0x1040 once)",
          (unsigned long long)cn.l1i_misses, (unsigned long long)cn.ram_lines);
    CHECK(c[1] - c[0] == 200, "the line on its way: %g latencies exposed, expected 2 (%g, %g cycles)",
          (c[1] - c[0]) / 100, c[0], c[1]);
}

/*
 * Two runs of: a load (x5 from a fresh line, at 0x1000), a forward branch on
 * x5 at 0x1004 to 0x1028, 8 additions at 0x1008 (x20.., or x6 first when
 * `writes`), and at 0x1028 a load of a fresh line from x6. The first run's
 * branch is not taken (predicted so) and a jump at 0x102c goes back; the
 * second's is taken, predicted not taken (the bimodal counter moved once).
 */
static size_t branch_then_load(edan_exec *r, edan_insn *code, bool writes)
{
    size_t n = 0;
    code[0] = load(EDAN_REG_X(5), EDAN_REG_X(4), 0x1000);
    code[1] = branch(EDAN_REG_X(5), 0x1004, 0x24);
    for (int i = 0; i < 8; i++)
        code[2 + i] = add(writes && !i ? EDAN_REG_X(6) : EDAN_REG_X(20 + i), EDAN_REG_X(3), 0x1008 + 4 * (uint64_t)i);
    code[10] = load(EDAN_REG_X(7), EDAN_REG_X(6), 0x1028);
    code[11] = add(EDAN_REG_X(9), EDAN_REG_X(3), 0x102c);
    code[11].flow = EDAN_FLOW_JUMP;
    for (int i = 0; i < 12; i++)
        r[n++] = rec(&code[i], i == 0 ? 0x100000 : i == 10 ? 0x200000 : 0);
    r[n++] = rec(&code[0], 0x300000);
    r[n++] = rec(&code[1], 0);
    r[n++] = rec(&code[10], 0x400000);
    return n;
}

static void test_loads(void)
{
    static edan_exec r[32];
    static edan_insn code[32];
    edan_machine m = machine();
    m.rob_entries = 64;
    size_t n = branch_then_load(r, code, false);
    double e = exposed(&m, r, n);
    CHECK(e == 2, "a wrong path's load after the join: %g latencies exposed, expected 2", e);
    n = branch_then_load(r, code, true);
    e = exposed(&m, r, n);
    CHECK(e == 3, "the skipped additions write the load's register: %g latencies exposed, expected 3", e);

    /*
     * A loop (a load of x5 from x4, x4 advanced, its branch on x5 at 0x1008
     * back to 0x1000 when taken: twice, and the bimodal counter then
     * predicts taken) whose third run's load misses and whose branch is not
     * taken: the wrong path goes back to 0x1000. The right path's records at
     * 0x100c (x4 advanced) and a jump run before the loop's next run at
     * 0x1000, whose load is from x4: a value only the right path has. (After
     * the first run's misprediction the wrong path's code after the loop
     * reads x4 too, which the loop writes: not the right path's value either.)
     */
    n = 0;
    for (int i = 0; i < 3; i++) {
        code[3 * i] = load(EDAN_REG_X(5), EDAN_REG_X(4), 0x1000);
        code[3 * i + 1] = add(EDAN_REG_X(4), EDAN_REG_X(4), 0x1004);
        code[3 * i + 2] = branch(EDAN_REG_X(5), 0x1008, -8);
        r[n++] = rec(&code[3 * i], i < 2 ? 0x100000 : 0x300000);
        r[n++] = rec(&code[3 * i + 1], 0);
        r[n++] = rec(&code[3 * i + 2], 0);
    }
    code[9] = add(EDAN_REG_X(4), EDAN_REG_X(4), 0x100c);
    code[10] = add(EDAN_REG_X(9), EDAN_REG_X(3), 0x1010);
    code[10].flow = EDAN_FLOW_JUMP;
    code[11] = load(EDAN_REG_X(5), EDAN_REG_X(4), 0x1000);
    r[n++] = rec(&code[9], 0);
    r[n++] = rec(&code[10], 0);
    r[n++] = rec(&code[11], 0x400000);
    edan_timing_counts cn;
    double c[2];
    CHECK(!predict(&m, r, n, LAT, 2, 64, c, &cn) && cn.mispredicts == 2,
          "mispredicts %llu, expected 2 (the first run's taken, the exit)", (unsigned long long)cn.mispredicts);
    e = exposed(&m, r, n);
    CHECK(e == 4, "the load's register written by the right path only: %g latencies exposed, expected 4", e);
}

/*
 * Compressed instructions: branch_then_load()'s stream (writes false) with
 * the 8 additions as 16 compressed ones (2 bytes each: the same 32 bytes to
 * 0x1028), the first run's join load of the line its first load missed (it
 * waits for that fill), and an addition and a CSR read (serializing) at
 * 0x102c and 0x1030 before the jump back at 0x1034, so that the second run
 * finds the reorder buffer empty. With 18 entries, the second run's load
 * and branch and the 16 skipped instructions before the join's load fill
 * them: the load waits for the second run's load to commit, and its miss
 * comes after that one's: 4 latencies (the first fetch's, the first run's,
 * the second run's, the join's). Counted as 4-byte instructions the 32
 * bytes are 8, the load the 11th in the buffer, and its miss would go out
 * with the branch's (3). With 20 entries it does: 3.
 */
static void test_compressed(void)
{
    static edan_exec r[32];
    static edan_insn code[32];
    edan_machine m = machine();
    m.rob_entries = 18;
    size_t n = 0;
    code[0] = load(EDAN_REG_X(5), EDAN_REG_X(4), 0x1000);
    code[1] = branch(EDAN_REG_X(5), 0x1004, 0x24);
    for (int i = 0; i < 16; i++) {
        code[2 + i] = add(EDAN_REG_X(20 + i % 8), EDAN_REG_X(3), 0x1008 + 2 * (uint64_t)i);
        code[2 + i].size = 2;
    }
    code[18] = load(EDAN_REG_X(7), EDAN_REG_X(6), 0x1028);
    code[19] = add(EDAN_REG_X(9), EDAN_REG_X(3), 0x102c);
    code[20] = add(EDAN_REG_X(10), 0, 0x1030);
    code[20].n_src = 0;
    code[20].op = EDAN_OP_CSRRS;
    code[21] = add(EDAN_REG_X(11), EDAN_REG_X(3), 0x1034);
    code[21].flow = EDAN_FLOW_JUMP;
    for (int i = 0; i < 22; i++)
        r[n++] = rec(&code[i], i == 0 ? 0x100000 : i == 18 ? 0x100008 : 0);
    r[n++] = rec(&code[0], 0x300000);
    r[n++] = rec(&code[1], 0);
    r[n++] = rec(&code[18], 0x400000);
    edan_timing_counts cn;
    double c[2];
    CHECK(!predict(&m, r, n, LAT, 2, 64, c, &cn) && cn.mispredicts == 1, "mispredicts %llu, expected 1",
          (unsigned long long)cn.mispredicts);
    const double e = exposed(&m, r, n);
    CHECK(e == 4, "16 compressed instructions skipped, an 18-entry buffer: %g latencies exposed, expected 4", e);
    m.rob_entries = 20; /* the load the 19th of 20: its miss goes out with the branch's */
    const double e20 = exposed(&m, r, n);
    CHECK(e20 == 3, "16 compressed instructions skipped, a 20-entry buffer: %g latencies exposed, expected 3", e20);
}

/*
 * A bisection: three runs of a load of x5 from x4 at 0x1000 (at Lp, L, A),
 * a branch on x5 at 0x1004 to 0x1010, the arms' x4 updates at 0x1008 and
 * 0x1010 (from x4, or from x5 when `derived`: a walk of pointers) and their jumps back (0x100c,
 * 0x1014); the first branch not taken (predicted so), the second taken
 * (mispredicted), the third not taken and its arm's jump to 0x1018: a load
 * of x7 from x5 (the last load's value) at 2L - A (or at `last`).
 */
static size_t bisection(edan_exec *r, edan_insn *code, uint64_t lp, bool derived, uint64_t last)
{
    const uint64_t x = 0x100000, l = x + 0x2000, a = x + 0x1000, at[3] = {lp, l, a};
    code[0] = load(EDAN_REG_X(5), EDAN_REG_X(4), 0x1000);
    code[1] = branch(EDAN_REG_X(5), 0x1004, 0xc);
    code[2] = add(EDAN_REG_X(4), derived ? EDAN_REG_X(5) : EDAN_REG_X(4), 0x1008);
    code[3] = add(EDAN_REG_X(9), EDAN_REG_X(3), 0x100c);
    code[3].flow = EDAN_FLOW_JUMP;
    code[4] = add(EDAN_REG_X(4), derived ? EDAN_REG_X(5) : EDAN_REG_X(4), 0x1010);
    code[5] = add(EDAN_REG_X(9), EDAN_REG_X(3), 0x1014);
    code[5].flow = EDAN_FLOW_JUMP;
    code[6] = load(EDAN_REG_X(7), EDAN_REG_X(5), 0x1018);
    size_t n = 0;
    for (int i = 0; i < 3; i++) {
        r[n++] = rec(&code[0], at[i]);
        r[n++] = rec(&code[1], 0);
        r[n++] = rec(&code[i == 1 ? 4 : 2], 0);
        r[n++] = rec(&code[i == 1 ? 5 : 3], 0);
    }
    r[n++] = rec(&code[6], last ? last : 2 * l - a);
    return n;
}

static void test_bisection(void)
{
    static edan_exec r[32];
    static edan_insn code[8];
    edan_machine m = machine();
    m.rob_entries = 64;
    size_t n = bisection(r, code, 0x104000, false, 0);
    edan_timing_counts cn;
    double c[2];
    CHECK(!predict(&m, r, n, LAT, 2, 64, c, &cn) && cn.mispredicts == 1, "mispredicts %llu, expected 1",
          (unsigned long long)cn.mispredicts);
    double e = exposed(&m, r, n);
    CHECK(e == 3, "the other half's load on the wrong path: %g latencies exposed, expected 3", e);
    /*
     * the wrong path's next level: half the step (0x800), the way the bimodal
     * counter of 0x1004 predicts (not taken, back to weak after the taken):
     * the other way than the right path's taken went (A below L), up
     */
    n = bisection(r, code, 0x104000, false, 0x103800);
    e = exposed(&m, r, n);
    CHECK(e == 3, "the wrong path's next level, up: %g latencies exposed, expected 3", e);
    n = bisection(r, code, 0x104000, false, 0x102800);
    e = exposed(&m, r, n);
    CHECK(e == 4, "not its other way: %g latencies exposed, expected 4", e);
    n = bisection(r, code, 0x106000, false, 0);
    e = exposed(&m, r, n);
    CHECK(e == 4, "steps that do not halve (0x4000, 0x1000): %g latencies exposed, expected 4", e);
    n = bisection(r, code, 0x104000, true, 0);
    e = exposed(&m, r, n);
    CHECK(e == 5, "the next address from the load's value (a chain): %g latencies exposed, expected 5", e);
}

/*
 * Binary searches: per level a load of x5 from x4 at 0x1000 (the midpoint of
 * [lo, hi) in a sorted array of 8-byte elements at 0x40000000), a branch on
 * x5 at 0x1004 to 0x1010 (taken: the lower half), the arms' x4 updates at
 * 0x1008 and 0x1010 and their jumps back (0x100c, 0x1014), down to one
 * element; then the next key's set-up at 0x1018. Random directions: the
 * predictor gets about half of them wrong. Returns the records' count.
 */
#define SEARCH_N (1u << 13)
static size_t searches(edan_exec *r, edan_insn *code, size_t keys, uint64_t seed)
{
    bisection_code(code);
    code[6] = add(EDAN_REG_X(4), EDAN_REG_X(8), 0x1018);
    size_t n = 0;
    uint64_t x = seed;
    for (size_t k = 0; k < keys; k++) {
        uint64_t lo = 0, hi = SEARCH_N;
        while (hi - lo > 1) {
            const uint64_t mid = lo + (hi - lo) / 2;
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            const bool low = x >> 63;
            r[n++] = rec(&code[0], 0x40000000ull + 8 * mid);
            r[n++] = rec(&code[1], 0);
            r[n++] = rec(&code[low ? 4 : 2], 0);
            r[n++] = rec(&code[low ? 5 : 3], 0);
            if (low)
                hi = mid;
            else
                lo = mid;
        }
        r[n++] = rec(&code[6], 0);
    }
    return n;
}

static void test_bisection_sampled(void)
{
    enum { KEYS = 1500 };
    static edan_exec r[KEYS * (13 * 4 + 1)];
    static edan_insn code[8];
    edan_machine m = machine();
    m.rob_entries = 64;
    const size_t n = searches(r, code, KEYS, 38);
    const double lat[3] = {50, 150, 400};
    edan_timing *e = timing_run(&m, r, n, lat, 3, 1000, 1);
    const edan_timing_sampling smp = {200, 300, 4000, 0, 0}, whole = {500, 0, 500, 0, 0};
    edan_timing *s = e ? timing_run_sampled(&m, r, n, lat, 3, 777, 1, &smp) : NULL;
    edan_timing *w = s ? timing_run_sampled(&m, r, n, lat, 3, 333, 2, &whole) : NULL;
    if (w) {
        const edan_timing_counts ce = *edan_timing_counts_get(e), cs = *edan_timing_counts_get(s),
                                 cw = *edan_timing_counts_get(w);
        edan_timing_sample_info si;
        edan_timing_sample_info_get(s, &si);
        CHECK(si.sampled && si.detailed < n / 4, "%llu of %zu records scheduled: not sampled",
              (unsigned long long)si.detailed, n);
        CHECK(ce.mispredicts > n / 20, "mispredicts %llu of %zu records", (unsigned long long)ce.mispredicts, n);
        CHECK(memcmp(&ce, &cs, sizeof ce) == 0 && memcmp(&ce, &cw, sizeof ce) == 0,
              "sampled counts differ from the unsampled model's (memory lines %llu, %llu whole, %llu exact)",
              (unsigned long long)cs.ram_lines, (unsigned long long)cw.ram_lines, (unsigned long long)ce.ram_lines);
        for (int k = 0; k < 3; k++) {
            const double a = edan_timing_lane_get(e, k).cycles, b = edan_timing_lane_get(w, k).cycles;
            CHECK(a == b, "lane %d: a unit covering every period gives %.17g cycles, unsampled %.17g", k, b, a);
        }
        /* the lines the right path reads: without the wrong path's fills each comes from memory once */
        static uint8_t seen[SEARCH_N * 8 / 64];
        uint64_t own = 0;
        memset(seen, 0, sizeof seen);
        for (size_t i = 0; i < n; i++)
            if (r[i].addr) {
                const uint64_t l = (r[i].addr - 0x40000000ull) / 64;
                own += !seen[l];
                seen[l] = 1;
            }
        CHECK(ce.ram_lines < own, "memory lines %llu, the right path's own %llu: no wrong-path fill",
              (unsigned long long)ce.ram_lines, (unsigned long long)own);
    }
    edan_timing_free(w);
    edan_timing_free(s);
    edan_timing_free(e);
}

/* RISC-V's addi rd,rs1,imm / slli / add / sub as decoded (op, raw fields, sources without x0). */
static edan_insn rv_op(uint16_t op, uint8_t rd, uint8_t rs1, uint8_t rs2, int64_t imm, uint64_t pc)
{
    edan_insn in = add(rd, rs1, pc);
    in.op = op;
    in.rd = rd;
    in.rs1 = rs1;
    in.rs2 = rs2;
    in.imm = imm;
    in.n_src = 0;
    if (rs1)
        in.src[in.n_src++] = rs1;
    if (rs2 && rs2 != rs1)
        in.src[in.n_src++] = rs2;
    return in;
}

/*
 * A loop over vertices u (spills.gapbs-bfs's bottom-up step): at 0x1000 a load
 * of parent[u] (x5 from x6, a line per vertex at 0x100000), at 0x1004 a branch
 * on x5 to the body at 0x1040 (taken: u not visited), at 0x1008 x6's step (addi
 * x6,x6,64, or add x6,x6,x10 when `unknown`), at 0x100c addi x12,x12,1 (u), at
 * 0x1010 the loop's branch back; the body: slli x11,x12,6, add x13,x8,x11, a
 * load of index[u] (x7 from x13, a line per vertex at 0x200000) and a jump back
 * to 0x1008. The vertices' directions: `taken` (bit u). Returns the records'
 * count.
 */
static size_t vertices(edan_exec *r, edan_insn *code, unsigned nv, uint32_t taken, bool unknown, int64_t stride)
{
    code[0] = load(EDAN_REG_X(5), EDAN_REG_X(6), 0x1000);
    code[0].rs1 = EDAN_REG_X(6);
    code[1] = branch(EDAN_REG_X(5), 0x1004, 0x3c);
    code[2] = unknown ? rv_op(EDAN_OP_ADD, EDAN_REG_X(6), EDAN_REG_X(6), EDAN_REG_X(10), 0, 0x1008)
                      : rv_op(EDAN_OP_ADDI, EDAN_REG_X(6), EDAN_REG_X(6), 0, stride, 0x1008);
    code[3] = rv_op(EDAN_OP_ADDI, EDAN_REG_X(12), EDAN_REG_X(12), 0, 1, 0x100c);
    code[4] = branch(EDAN_REG_X(3), 0x1010, -0x10);
    code[5] = rv_op(EDAN_OP_SLLI, EDAN_REG_X(11), EDAN_REG_X(12), 0, 6, 0x1040);
    code[6] = rv_op(EDAN_OP_ADD, EDAN_REG_X(13), EDAN_REG_X(8), EDAN_REG_X(11), 0, 0x1044);
    code[7] = load(EDAN_REG_X(7), EDAN_REG_X(13), 0x1048);
    code[7].rs1 = EDAN_REG_X(13);
    code[8] = add(EDAN_REG_X(9), EDAN_REG_X(3), 0x104c);
    code[8].flow = EDAN_FLOW_JUMP;
    size_t n = 0;
    for (unsigned u = 0; u < nv; u++) {
        r[n++] = rec(&code[0], 0x100000 + (uint64_t)stride * u);
        r[n++] = rec(&code[1], 0);
        if (taken >> u & 1) {
            r[n++] = rec(&code[5], 0);
            r[n++] = rec(&code[6], 0);
            r[n++] = rec(&code[7], 0x200000 + 64 * (uint64_t)u);
            r[n++] = rec(&code[8], 0);
        }
        r[n++] = rec(&code[2], 0);
        r[n++] = rec(&code[3], 0);
        r[n++] = rec(&code[4], 0);
    }
    return n;
}

/*
 * vertices() over 7 vertices, 0, 1 and 4 to 6 not visited (taken), 2 and 3
 * visited. The bimodal counter of 0x1004 (cold: not taken) mispredicts u0,
 * u2, u3 and u4, the loop's branch its first run (5). Without the rule the
 * exposed latencies are the first fetch's, parent[0]'s, then parent[1],
 * index[0..1] and parent[2] together, parent[3] (fetched once u2's branch
 * resolves), parent[4] (once u3's does), and index[4] with vertices 5 and
 * 6: 6. With it, u2's wrong path goes to the body, whose first right-path
 * record is u4's: x6 and x12 are stepped twice before it (offsets -128, -2),
 * and the wrong path's loads are u2's and the next vertices': index[2] (the
 * slli and add carry x12's offset), parent[3], index[3], parent[4] and
 * index[4], all requested while parent[2] is on its way: u3's and u4's loads
 * find their lines there, 4. x6 stepped by an add (not an immediate): its
 * value is not known, no parent[] request, 6.
 */
static void test_offsets(void)
{
    static edan_exec r[64];
    static edan_insn code[16];
    edan_machine m = machine();
    m.rob_entries = 64;
    const uint32_t taken = 0x73;
    size_t n = vertices(r, code, 7, taken, false, 64);
    edan_timing_counts cn;
    double c[2];
    CHECK(!predict(&m, r, n, LAT, 2, 64, c, &cn) && cn.mispredicts == 5, "mispredicts %llu, expected 5",
          (unsigned long long)cn.mispredicts);
    double e = exposed(&m, r, n);
    CHECK(e == 4, "the wrong path's next vertices at their offsets: %g latencies exposed, expected 4", e);
    n = vertices(r, code, 7, taken, true, 64);
    e = exposed(&m, r, n);
    CHECK(e == 6, "the parent pointer stepped by an add: %g latencies exposed, expected 6", e);
    /*
     * Pages placed at first touch: the wrong path's address is the program's (virtual) one plus the
     * offset, in its page's frame when a record before the branch touched the page. parent[] a line
     * apart (one page, touched): 4 as with virtual pages; a page apart (parent[3]'s and parent[4]'s
     * pages first touched after the branch): no request, 6, where virtual pages give 4.
     */
    edan_machine mp = m;
    mp.pages = EDAN_PAGES_FIRST_TOUCH;
    n = vertices(r, code, 7, taken, false, 64);
    e = exposed(&mp, r, n);
    CHECK(e == 4, "first-touch pages, parent[] in one page: %g latencies exposed, expected 4", e);
    n = vertices(r, code, 7, taken, false, 4096);
    e = exposed(&m, r, n);
    CHECK(e == 4, "virtual pages, parent[] a page apart: %g latencies exposed, expected 4", e);
    e = exposed(&mp, r, n);
    CHECK(e == 6, "first-touch pages, parent[] a page apart, untouched: %g latencies exposed, expected 6", e);
}

/*
 * Records outside the region (warmed only), each a conditional branch (a new
 * static instruction, its predictor entry cold: predicted not taken) taken to
 * a new static instruction, so every branch is mispredicted and the record
 * after it is the one whose id outgrows the model's arrays by id when the
 * arrays' turn comes (their capacities are even, the targets' ids too).
 * Functional warming's wrong-path fetch then reads the branch's row after the
 * arrays moved: before warm_predict() copied it, a read of freed memory
 * (QEMU killed by SIGSEGV under the plugin, at random; ASan's
 * heap-use-after-free here). Checked: the stream runs to its end, its region
 * empty.
 */
static void test_warm_growth(void)
{
    enum { PAIRS = 20000 };
    static edan_insn code[2 * PAIRS];
    static edan_exec r[2 * PAIRS];
    edan_machine m = machine();
    m.predictor_entries = 1u << 17; /* a cold entry for each branch: (pc >> 1) & mask differ */
    for (size_t i = 0; i < PAIRS; i++) {
        const uint64_t pc = 0x100000 + 8 * (uint64_t)i;
        code[2 * i] = branch(EDAN_REG_X(3), pc, 0x100000);
        code[2 * i + 1] = add(EDAN_REG_X(5), EDAN_REG_X(3), pc + 0x100000);
        for (size_t j = 0; j < 2; j++) {
            r[2 * i + j] = rec(&code[2 * i + j], 0);
            r[2 * i + j].id = (uint32_t)(2 * i + j + 1);
            r[2 * i + j].flags = EDAN_EXEC_WARM;
        }
    }
    edan_timing *t = timing_run(&m, r, 2 * PAIRS, LAT, 2, 4096, 1);
    if (!t)
        return;
    const edan_timing_counts *c = edan_timing_counts_get(t);
    CHECK(c->instructions == 0 && c->branches == 0 && edan_timing_lane_get(t, 0).cycles == 0,
          "warm records only: %llu instructions, %llu branches counted, %g cycles", (unsigned long long)c->instructions,
          (unsigned long long)c->branches, edan_timing_lane_get(t, 0).cycles);
    edan_timing_free(t);
}

int main(void)
{
    test_warm_growth();
    test_offsets();
    test_fallthrough();
    test_wait();
    test_loads();
    test_compressed();
    test_bisection();
    test_bisection_sampled();
    return check_summary();
}
