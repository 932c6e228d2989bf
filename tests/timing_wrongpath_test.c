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
 */
#include <string.h>

#include "analysis/timing/timing.h"
#include "check.h"
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
    code[c] = add(0, EDAN_REG_X(3), 0x1000);
    code[c].flow = EDAN_FLOW_BRANCH;
    code[c].n_dst = 0;
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
    code[0] = add(0, EDAN_REG_X(3), 0x1000);
    code[0].flow = EDAN_FLOW_BRANCH;
    code[0].n_dst = 0;
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

int main(void)
{
    test_fallthrough();
    test_wait();
    return check_summary();
}
