/*
 * timing_cores_test.c - the timing model (analysis/timing/timing.h) on other
 * cores than the validation machine, with exact answers on hand-built
 * instruction streams. The core's sizes come from the shipped machine files
 * (machines/, read with the file reader edan uses): widths, reorder buffer,
 * load queue, L1d MSHRs and the core model of gem5-validation-narrow.ini,
 * gem5-validation.ini and gem5-validation-minor.ini, put on the test machine
 * of timing_check.h (zero hit latencies, a transfer takes no time, a miss
 * the memory latency exactly), so that each answer follows from the sizes:
 *  - n independent additions take ceil(n / width) cycles more than one;
 *  - a miss every 4 instructions: rob / 4 misses overlap;
 *  - n independent misses: ceil(n / mshrs) latencies;
 *  - in order (model = inorder): a stalled instruction holds back every
 *    later one, two misses separated by a use of the first do not overlap
 *    (out of order they do), two misses side by side do (a load blocks at
 *    its first use, not at its issue); issue_width starts a cycle; the
 *    load queue caps the misses in flight; an access waits for its
 *    registers' writers to commit: a miss whose address an addition
 *    computed after an older miss waits for that miss (out of order, or
 *    with the addition first, the two overlap), an x86 load-op's load
 *    micro-operation too;
 *  - [dtlb]: each first-level miss of a chain of dependent loads adds the second level's time, each walk
 *    the walk's.
 *
 * usage: timing_cores_test MACHINES_DIR
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/machine_file.h"
#include "timing_check.h"

static const char *dir;

/* The test machine with the core of machines/NAME.ini: its widths, queues, window, L1d MSHRs and model. */
static edan_machine core_of(const char *name, edan_machine *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.ini", dir, name);
    edan_error err = {0};
    edan_machine f;
    if (edan_machine_load(path, &f, &err)) {
        CHECK(0, "%s: %s", path, err.msg);
        memset(&f, 0, sizeof f);
    }
    edan_machine m = base_machine();
    m.core_model = f.core_model;
    m.fetch_width = f.fetch_width;
    m.dispatch_width = f.dispatch_width;
    m.issue_width = f.issue_width;
    m.commit_width = f.commit_width;
    m.rob_entries = f.rob_entries;
    m.lq_entries = f.lq_entries;
    m.sq_entries = f.sq_entries;
    m.iq_entries = f.iq_entries;
    m.data[0].mshrs = f.data[0].mshrs;
    if (file)
        *file = f;
    return m;
}

/* cycles at 100 ns of recs[0..n) */
static double cycles(const edan_machine *m, const edan_exec *r, size_t n)
{
    double c[1], lat = 100;
    if (predict(m, r, n, &lat, 1, 64, c, NULL))
        return -1;
    return c[0];
}

/*
 * n independent additions (no pc: not fetched, so no L1i miss) take
 * ceil(n / width) cycles more than one does: fetch, dispatch, issue (in
 * order) and commit each take `width` a cycle.
 */
static void test_width(const char *name, uint32_t want_width)
{
    static edan_exec r[MAXN];
    static edan_insn adds[8];
    edan_machine f, m = core_of(name, &f);
    CHECK(f.dispatch_width == want_width, "%s: dispatch_width %u, expected %u", name, f.dispatch_width, want_width);
    for (int j = 0; j < 8; j++)
        adds[j] = add(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0);
    for (size_t i = 0; i < MAXN; i++)
        r[i] = rec(&adds[i % 8], 0);
    const double one = cycles(&m, r, 1);
    for (size_t n = 1; n <= 200; n += 7) {
        const double c = cycles(&m, r, n) - one, want = (double)((n + want_width - 1) / want_width - 1);
        CHECK(c == want, "%s: %zu independent additions, %g cycles after the first's, expected %g", name, n, c, want);
    }
}

/*
 * A load that misses, then 3 additions, again and again (test_rob's
 * stream): rob / 4 misses fit in the window at once, so 96 misses expose
 * 96 / (rob / 4) latencies. The load queue and MSHRs are the test
 * machine's here (they would bind first on the narrow core: 8 MSHRs).
 */
static void test_rob(const char *name, uint32_t want_rob)
{
    static edan_exec r[MAXN];
    static edan_insn body[4];
    body[0] = load(EDAN_REG_X(10), EDAN_REG_X(3), 0);
    for (int j = 1; j < 4; j++)
        body[j] = add(EDAN_REG_X(20 + j), EDAN_REG_X(4), 0);
    const size_t misses = 96;
    for (size_t i = 0; i < 4 * misses; i++)
        r[i] = rec(&body[i % 4], fresh(i / 4));
    edan_machine m = core_of(name, NULL);
    CHECK(m.rob_entries == want_rob, "%s: rob_entries %u, expected %u", name, m.rob_entries, want_rob);
    m.lq_entries = m.iq_entries = MAXN;
    m.data[0].mshrs = 1024;
    const double e = exposed(&m, r, 4 * misses), want = (double)(misses / (m.rob_entries / 4));
    CHECK(e == want, "%s: ROB %u, a miss every 4 instructions: %g latencies exposed, expected %g", name, m.rob_entries,
          e, want);
}

/* n independent misses: ceil(n / mshrs) latencies with the file's L1d MSHRs, and with the whole file's core too. */
static void test_mshrs(const char *name, uint32_t want_mshrs)
{
    static edan_exec r[MAXN];
    static edan_insn ld[8];
    for (int j = 0; j < 8; j++)
        ld[j] = load(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0);
    const size_t n = 100;
    for (size_t i = 0; i < n; i++)
        r[i] = rec(&ld[i % 8], fresh(i));
    edan_machine m = core_of(name, NULL);
    CHECK(m.data[0].mshrs == want_mshrs, "%s: L1d mshrs %u, expected %u", name, m.data[0].mshrs, want_mshrs);
    /* the whole core: the MSHRs are its smallest bound on misses (ROB, load and issue queues hold more) */
    CHECK(m.data[0].mshrs < m.lq_entries && m.data[0].mshrs < m.iq_entries, "%s: the MSHRs bind first", name);
    double e = exposed(&m, r, n), want = (double)((n + want_mshrs - 1) / want_mshrs);
    CHECK(e == want, "%s: %zu independent misses, %u MSHRs: %g latencies exposed, expected %g", name, n, want_mshrs, e,
          want);
    /* the MSHRs alone, on an unbounded window */
    edan_machine u = base_machine();
    u.data[0].mshrs = m.data[0].mshrs;
    e = exposed(&u, r, n);
    CHECK(e == want, "%s's MSHRs alone: %g latencies exposed, expected %g", name, e, want);
}

/*
 * A miss (lda), an addition (addr) of an independent register, then last,
 * a miss at the address addr computed: in order 2 latencies (the access
 * waits for addr's commit, behind the first miss), out of order 1; with the
 * addition first, 1 in order too.
 */
static void address_after_miss(const edan_machine *in, const edan_machine *o3, const edan_insn *lda,
                               const edan_insn *addr, const edan_insn *last, const char *what)
{
    static edan_exec r[3];
    r[0] = rec(lda, fresh(0));
    r[1] = rec(addr, 0);
    r[2] = rec(last, fresh(1));
    const double ei = exposed(in, r, 3), eo = exposed(o3, r, 3);
    CHECK(ei == 2 && eo == 1,
          "miss, address, %s at it: in order %g latencies (expected 2: the address commits after the first "
          "miss), out of order %g (1)",
          what, ei, eo);
    r[0] = rec(addr, 0);
    r[1] = rec(lda, fresh(0));
    const double ef = exposed(in, r, 3);
    CHECK(ef == 1, "address, miss, %s at it: in order %g latencies (expected 1)", what, ef);
}

/*
 * In order against out of order on the same sizes (the minor file's core,
 * and the same with model = o3).
 *  (a) miss A, a use of A, miss B (independent of A): in order B waits for
 *      the use, which waits for A: two latencies; out of order one.
 *  (b) miss A, miss B, then the uses: both in order and out of order one
 *      latency (the load does not block at its issue).
 *  (c) a 300-cycle division, an addition that waits for it, a miss: in
 *      order the miss starts after the addition, its latency adds to the
 *      division's (one latency exposed); out of order it overlaps it (none).
 *  (d) n independent misses: lq_entries in flight at once (2 on the minor
 *      core): n / 2 latencies.
 *  (e) a division, an addition that uses it, 2 independent additions: in
 *      order the 2 start no earlier than the user, 2 a cycle (one cycle
 *      more than without them); out of order long before (none more).
 */
static void test_inorder(void)
{
    static edan_exec r[MAXN];
    static edan_insn lda, use, ldb, useb, div, dep, adds[2];
    lda = load(EDAN_REG_X(10), EDAN_REG_X(3), 0);
    use = add(EDAN_REG_X(11), EDAN_REG_X(10), 0);
    ldb = load(EDAN_REG_X(12), EDAN_REG_X(3), 0);
    useb = add(EDAN_REG_X(13), EDAN_REG_X(12), 0);
    edan_machine in = core_of("gem5-validation-minor", NULL), o3 = in;
    CHECK(in.core_model == EDAN_CORE_INORDER, "gem5-validation-minor is an in-order core");
    o3.core_model = EDAN_CORE_O3;
    /* (a) */
    size_t n = 0;
    r[n++] = rec(&lda, fresh(0));
    r[n++] = rec(&use, 0);
    r[n++] = rec(&ldb, fresh(1));
    double ei = exposed(&in, r, n), eo = exposed(&o3, r, n);
    CHECK(ei == 2 && eo == 1, "miss, use, independent miss: in order %g latencies (expected 2), out of order %g (1)",
          ei, eo);
    /* (b) */
    n = 0;
    r[n++] = rec(&lda, fresh(0));
    r[n++] = rec(&ldb, fresh(1));
    r[n++] = rec(&use, 0);
    r[n++] = rec(&useb, 0);
    ei = exposed(&in, r, n), eo = exposed(&o3, r, n);
    CHECK(ei == 1 && eo == 1, "two misses, then their uses: in order %g latencies, out of order %g (expected 1)", ei,
          eo);
    /* (c) */
    div = add(EDAN_REG_X(20), EDAN_REG_X(21), 0);
    div.cls = EDAN_CLASS_DIV;
    dep = add(EDAN_REG_X(22), EDAN_REG_X(20), 0);
    n = 0;
    r[n++] = rec(&div, 0);
    r[n++] = rec(&dep, 0);
    r[n++] = rec(&ldb, fresh(2));
    edan_machine in_c = in, o3_c = o3;
    in_c.latency[EDAN_CLASS_DIV] = o3_c.latency[EDAN_CLASS_DIV] = 300;
    ei = exposed(&in_c, r, n), eo = exposed(&o3_c, r, n);
    CHECK(ei == 1 && eo == 0,
          "a miss behind a stalled addition: in order %g latencies (expected 1), out of order %g (0)", ei, eo);
    /* (d) */
    static edan_insn ld[8];
    for (int j = 0; j < 8; j++)
        ld[j] = load(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0);
    n = 64;
    for (size_t i = 0; i < n; i++)
        r[i] = rec(&ld[i % 8], fresh(i));
    ei = exposed(&in, r, n);
    CHECK(in.lq_entries == 2 && ei == (double)(n / 2),
          "%zu misses, in order, load queue %u: %g latencies, expected %zu", n, in.lq_entries, ei, n / 2);
    /* (e) */
    n = 0;
    r[n++] = rec(&div, 0);
    r[n++] = rec(&dep, 0);
    for (int j = 0; j < 2; j++) {
        adds[j] = add(EDAN_REG_X(23 + j), EDAN_REG_X(3), 0);
        r[n++] = rec(&adds[j], 0);
    }
    edan_machine in_e = in_c, o3_e = o3_c;
    in_e.commit_width = o3_e.commit_width = 1u << 20; /* commit takes them all at once: only issue orders */
    const double i2 = cycles(&in_e, r, 2), i4 = cycles(&in_e, r, n);
    const double o2 = cycles(&o3_e, r, 2), o4 = cycles(&o3_e, r, n);
    CHECK(i4 == i2 + 1 && o4 == o2,
          "a division, its user, 2 independent additions: the additions add %g cycles in "
          "order (expected 1: they start with the user, 2 a cycle), %g out of order (expected 0)",
          i4 - i2, o4 - o2);
    /* (f) a miss, an addition of an independent register, a miss at the address it computed */
    static edan_insn addr, ldc, ldop;
    addr = add(EDAN_REG_X(14), EDAN_REG_X(4), 0);
    ldc = load(EDAN_REG_X(15), EDAN_REG_X(14), 0);
    address_after_miss(&in, &o3, &lda, &addr, &ldc, "miss");
    /* (g) as (f), the second miss an x86 load-op's load micro-operation (add x16, [x14]): the same rule */
    ldop = load(EDAN_REG_X(16), EDAN_REG_X(14), 0);
    ldop.rs1 = EDAN_REG_X(14);
    ldop.n_src = 2;
    ldop.src[1] = EDAN_REG_X(16);
    ldop.op_cls = EDAN_CLASS_INT;
    ldop.uops = EDAN_UOP_LOAD | EDAN_UOP_OP;
    address_after_miss(&in, &o3, &lda, &addr, &ldop, "load-op's miss");
}

/*
 * [dtlb]: a chain of dependent loads (ld x10, 0(x10)) over 8 pages twice, with a first level of 4 entries
 * (one set, LRU) and a second of 16: the first round walks every page, the second misses the first level
 * at every page (8 pages cycle through 4 entries) and hits the second. Exactly 8 walks and 8 second-level
 * hits more than without the TLB, in order and out of order; none for 8 loads on one page after the first.
 */
static void test_dtlb(void)
{
    static edan_exec r[MAXN];
    static edan_insn ld;
    ld = load(EDAN_REG_X(10), EDAN_REG_X(10), 0);
    edan_machine cores[2] = {core_of("gem5-validation-minor", NULL), core_of("gem5-validation", NULL)};
    for (int c = 0; c < 2; c++) {
        edan_machine m = cores[c], tl = m;
        tl.dtlb.entries = 4, tl.dtlb.ways = 4, tl.dtlb.l2_entries = 16, tl.dtlb.l2_ways = 4;
        tl.dtlb.l2_hit_cycles = 5, tl.dtlb.walk_cycles = 40;
        size_t n = 0;
        for (int round = 0; round < 2; round++)
            for (uint64_t k = 0; k < 8; k++)
                r[n++] = rec(&ld, 0x100000 + k * 4096 + 64 * k);
        const double extra = cycles(&tl, r, n) - cycles(&m, r, n);
        CHECK(extra == 8 * 40 + 8 * 5, "%s: 8 pages twice through a 4-entry TLB: %g cycles more, expected %d",
              c ? "out of order" : "in order", extra, 8 * 40 + 8 * 5);
        for (size_t i = 0; i < 8; i++)
            r[i] = rec(&ld, 0x200000 + 8 * i);
        const double one = cycles(&tl, r, 8) - cycles(&m, r, 8);
        CHECK(one == 40, "%s: 8 loads on one page: %g cycles more, expected one walk (40)",
              c ? "out of order" : "in order", one);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: timing_cores_test MACHINES_DIR\n");
        return 2;
    }
    dir = argv[1];
    test_width("gem5-validation-narrow", 4);
    test_width("gem5-validation", 8);
    test_width("gem5-validation-minor", 2);
    test_rob("gem5-validation-narrow", 64);
    test_rob("gem5-validation", 192);
    test_mshrs("gem5-validation-narrow", 8);
    test_mshrs("gem5-validation", 16);
    test_inorder();
    test_dtlb();
    return check_summary();
}
