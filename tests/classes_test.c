/*
 * classes_test.c - the load-classes tool (--classes) on hand-built
 * instruction streams whose classes are known by construction: a pointer
 * chase, a strided stream, a gather, the same through stack slots (-O0
 * code), a CSR row loop, scalars; exact counts of each class's accesses,
 * static loads, dependent accesses and footprints, read from the session's
 * JSON report. Batch sizes change nothing.
 *
 * Per innermost loop, on random programs with nested loops
 * (tests/random_loops.h): each loop's accesses by class are the sums of its
 * static loads' (from the per-load rows), its loads' and stores' accesses
 * and distinct blocks equal a naive count over the records whose
 * instruction is in the loop (analysis/loops/loops.h run over the stream first).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/loops/loops.h"
#include "check.h"
#include "random_loops.h"
#include "random_trace.h"
#include "session_report.h"
#include "tool/session.h"

enum { A0 = 10, A1, A2, A3, A4, A5, A6, SP = 2, S0 = 8, GP = 3 };

static edan_insn insn(uint64_t pc, int mem, uint8_t rd, uint8_t rs1, uint8_t rs2, int64_t imm)
{
    edan_insn in;
    memset(&in, 0, sizeof in);
    in.pc = pc;
    in.size = 4;
    in.mem = (uint8_t)mem;
    in.mem_size = mem ? 8 : 0;
    in.cls = mem == EDAN_MEM_LOAD ? EDAN_CLASS_LOAD : mem == EDAN_MEM_STORE ? EDAN_CLASS_STORE : EDAN_CLASS_INT;
    in.rd = rd;
    in.rs1 = rs1;
    in.rs2 = rs2;
    in.imm = imm;
    if (rs1)
        in.src[in.n_src++] = rs1;
    if (rs2 && rs2 != rs1)
        in.src[in.n_src++] = rs2;
    if (rd && mem != EDAN_MEM_STORE) {
        in.n_dst = 1;
        in.dst = rd;
    }
    return in;
}

/* A stream being built: records pointing into a table of static instructions. */
typedef struct stream {
    edan_insn tab[16];
    int n_tab;
    edan_exec rec[20000];
    size_t n;
} stream;

static int add_insn(stream *s, edan_insn in)
{
    s->tab[s->n_tab] = in;
    return s->n_tab++;
}

static void emit(stream *s, int id, uint64_t addr)
{
    s->rec[s->n] = (edan_exec){&s->tab[id], addr, (uint32_t)id, 0, 0};
    s->n++;
}

static uint64_t rng = 12345;
static uint64_t rnd(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return rng >> 11;
}

/* The session's JSON report of records recs[0..n), fed in batches of `batch`. */
static char *report_recs(const edan_exec *recs, size_t n, size_t batch)
{
    edan_options o;
    edan_options_default(&o);
    edan_error err = {0};
    CHECK(edan_session_option_set(&o, "json", NULL, &err) == 0, "json");
    CHECK(edan_session_option_set(&o, "classes", NULL, &err) == 0, "classes: %s", err.msg);
    static const char *const only[] = {"load-classes", NULL};
    char *buf = test_session_report(&o, only, NULL, recs, n, batch, false);
    return buf ? buf : strdup("");
}

static char *report(const stream *s, size_t batch)
{
    return report_recs(s->rec, s->n, batch);
}

/* The number after "key": in the object that follows `within` in json (-1 if absent). */
/* The load row of pc: its "class" value in cls, and *dep its dependent accesses. */
static void load_row(const char *json, uint64_t pc, char *cls, size_t cap, long long *dep, long long *acc)
{
    char pat[64];
    snprintf(pat, sizeof pat, "{\"pc\":%llu,", (unsigned long long)pc);
    const char *p = strstr(json, pat);
    cls[0] = '\0';
    *dep = *acc = -1;
    if (!p)
        return;
    const char *c = strstr(p, "\"class\":\"");
    if (c) {
        c += 9;
        size_t n = strcspn(c, "\"");
        snprintf(cls, cap, "%.*s", (int)(n < cap ? n : cap - 1), c);
    }
    *dep = test_json_num(p, "{", "dependent");
    *acc = test_json_num(p, "{", "accesses");
}

static void expect_load(const char *what, const stream *s, uint64_t pc, const char *cls, long long dep_lo,
                        long long dep_hi)
{
    for (size_t batch = 1; batch <= 1024; batch *= 32) {
        char *j = report(s, batch);
        char got[32];
        long long dep, acc;
        load_row(j, pc, got, sizeof got, &dep, &acc);
        CHECK(!strcmp(got, cls), "%s (batch %zu): load %llx is %s, expected %s", what, batch, (unsigned long long)pc,
              got, cls);
        CHECK(dep >= dep_lo && dep <= dep_hi, "%s (batch %zu): %lld dependent accesses, expected %lld..%lld", what,
              batch, dep, dep_lo, dep_hi);
        free(j);
    }
}

/* ===================================================================== */
/* Per innermost loop, on random programs                                 */
/* ===================================================================== */

typedef struct loop_want {
    uint64_t head;
    uint64_t cls[3]; /* accesses by class, summed from the per-load rows */
    uint64_t loads, stores, load_blocks, store_blocks;
} loop_want;

static void test_loops(int programs)
{
    static rl_program prog;
    static edan_exec recs[4000];
    static loop_want want[RL_MAX_CODE];
    static uint64_t lb[8000], sb[8000];
    static const char *const cls[] = {"constant", "strided", "irregular"};
    int checked_sums = 0;
    for (int t = 0; t < programs; t++) {
        rt_seed((uint64_t)t + 300);
        const size_t n = rl_random_run(&prog, recs, 4000);
        edan_loops *l = edan_loops_new(NULL);
        edan_loops_observe(l, recs, n);
        edan_loops_index(l);
        const uint32_t n_loops = edan_loops_count(l);
        char *j = report_recs(recs, n, 1 + (size_t)t % 50);
        /* the per-load rows: every static load when there are at most 100 */
        const char *loads = strstr(j, "\"loads\":[");
        int n_load_rows = 0, n_static_loads = 0;
        bool seen[RL_MAX_CODE] = {false};
        for (size_t i = 0; i < n; i++) {
            const edan_insn *in = recs[i].insn;
            if (in->mem != EDAN_MEM_NONE && in->mem != EDAN_MEM_STORE && in->mem_size && !seen[recs[i].id]) {
                seen[recs[i].id] = true;
                n_static_loads++;
            }
        }
        memset(want, 0, sizeof want);
        for (const char *p = loads; p && (p = strstr(p, "{\"pc\":")); p++) {
            const uint64_t pc = (uint64_t)atoll(p + 6);
            const int32_t id = edan_loops_innermost(l, pc);
            n_load_rows++;
            for (int c = 0; c < 3 && id >= 0; c++)
                want[id].cls[c] += (uint64_t)test_json_num(p, "{", cls[c]);
        }
        const bool all_rows = n_load_rows == n_static_loads;
        checked_sums += all_rows;
        for (uint32_t id = 0; id < n_loops; id++) {
            want[id].head = edan_loops_get(l, id)->head;
            size_t nl = 0, ns = 0;
            for (size_t i = 0; i < n; i++) {
                const edan_insn *in = recs[i].insn;
                if (in->mem == EDAN_MEM_NONE || (recs[i].flags & EDAN_EXEC_NO_ACCESS) || !in->mem_size ||
                    edan_loops_innermost(l, in->pc) != (int32_t)id)
                    continue;
                const bool store = in->mem == EDAN_MEM_STORE;
                for (uint64_t b = recs[i].addr >> 6; b <= (recs[i].addr + in->mem_size - 1) >> 6; b++) {
                    if (store)
                        sb[ns++] = b;
                    else
                        lb[nl++] = b;
                }
                if (store)
                    want[id].stores++;
                else
                    want[id].loads++;
            }
            want[id].load_blocks = test_distinct_u64(lb, nl);
            want[id].store_blocks = test_distinct_u64(sb, ns);
        }
        /* the loop rows */
        const char *p = strstr(j, "\"loops\":[");
        uint32_t rows = 0, with_accesses = 0;
        for (uint32_t id = 0; id < n_loops; id++)
            with_accesses += want[id].loads + want[id].stores > 0;
        const char *end = p ? strstr(p, "\"loop_nests\":[") : NULL;
        while (p && (p = strstr(p, "{\"head\":")) && (!end || p < end)) {
            const uint64_t head = (uint64_t)atoll(p + 8);
            uint32_t id = 0;
            while (id < n_loops && want[id].head != head)
                id++;
            CHECK(id < n_loops, "program %d: no loop at %llx", t, (unsigned long long)head);
            if (id < n_loops) {
                const loop_want *w = &want[id];
                const char *c = strstr(p, "\"classes\":");
                CHECK_EQ_U64(test_json_num(c, "{", "load_accesses"), w->loads, "a loop's load accesses");
                CHECK_EQ_U64(test_json_num(c, "{", "load_blocks"), w->load_blocks, "a loop's load blocks");
                CHECK_EQ_U64(test_json_num(c, "\"store\":{", "accesses"), w->stores, "a loop's stores");
                CHECK_EQ_U64(test_json_num(c, "\"store\":{", "blocks"), w->store_blocks, "a loop's store blocks");
                for (int k = 0; k < 3 && all_rows; k++) {
                    char within[32];
                    snprintf(within, sizeof within, "\"%s\":{", cls[k]);
                    CHECK_EQ_U64(test_json_num(c, within, "accesses"), w->cls[k], "a loop's accesses of a class");
                }
            }
            rows++;
            p++;
        }
        CHECK_EQ_U64(rows, with_accesses, "loop rows");
        free(j);
        edan_loops_free(l);
    }
    CHECK(checked_sums > programs / 2, "only %d of %d programs had every load in the rows", checked_sums, programs);
}

int main(void)
{
    static stream s;
    const int N = 200;

    /* a pointer chase: ld a0, 0(a0) at random addresses; every access after the first depends on the last */
    memset(&s, 0, sizeof s);
    int ld = add_insn(&s, insn(0x1000, EDAN_MEM_LOAD, A0, A0, 0, 0));
    for (int i = 0; i < N; i++)
        emit(&s, ld, 0x100000 + (rnd() % 100000) * 8);
    expect_load("pointer chase", &s, 0x1000, "irregular", N - 1, N - 1);
    /* the chase through nodes laid out at a constant step is still irregular: its addresses are data */
    s.n = 0;
    for (int i = 0; i < N; i++)
        emit(&s, ld, 0x100000 + (uint64_t)i * 64);
    expect_load("pointer chase at a constant step", &s, 0x1000, "irregular", N - 1, N - 1);

    /* a stream: ld a1, 0(a0); addi a0, a0, 8 */
    memset(&s, 0, sizeof s);
    ld = add_insn(&s, insn(0x2000, EDAN_MEM_LOAD, A1, A0, 0, 0));
    int addi = add_insn(&s, insn(0x2004, 0, A0, A0, 0, 8));
    for (int i = 0; i < N; i++) {
        emit(&s, ld, 0x200000 + (uint64_t)i * 8);
        emit(&s, addi, 0);
    }
    expect_load("stream", &s, 0x2000, "strided", 0, 0);
    {
        char *j = report(&s, 64);
        CHECK(test_json_num(j, "\"strided\":{", "accesses") == N, "stream: %d strided accesses: %s", N, j);
        CHECK(test_json_num(j, "\"strided\":{", "blocks") == (N * 8 + 63) / 64, "stream: footprint %d blocks",
              (N * 8 + 63) / 64);
        CHECK(test_json_num(j, "\"loads\":[", "stride") == 8, "stream: stride 8");
        free(j);
    }

    /* a gather: ld a2, 0(a0) (col[j]); add a3, a4, a2; ld a5, 0(a3) (x[col[j]]); addi a0, a0, 8 */
    memset(&s, 0, sizeof s);
    int col = add_insn(&s, insn(0x3000, EDAN_MEM_LOAD, A2, A0, 0, 0));
    int add = add_insn(&s, insn(0x3004, 0, A3, A4, A2, 0));
    int x = add_insn(&s, insn(0x3008, EDAN_MEM_LOAD, A5, A3, 0, 0));
    addi = add_insn(&s, insn(0x300c, 0, A0, A0, 0, 8));
    for (int i = 0; i < N; i++) {
        emit(&s, col, 0x300000 + (uint64_t)i * 8);
        emit(&s, add, 0);
        emit(&s, x, 0x400000 + (rnd() % 5000) * 8);
        emit(&s, addi, 0);
    }
    expect_load("gather: col[j]", &s, 0x3000, "strided", 0, 0);
    expect_load("gather: x[col[j]]", &s, 0x3008, "irregular", N - 1, N - 1);

    /* -O0: the index through a stack slot. ld a5,-20(s0); add a3,a4,a5; ld a6,0(a3); addi a5,a5,8; sd a5,-20(s0) */
    memset(&s, 0, sizeof s);
    int ldi = add_insn(&s, insn(0x4000, EDAN_MEM_LOAD, A5, S0, 0, -20));
    add = add_insn(&s, insn(0x4004, 0, A3, A4, A5, 0));
    int la = add_insn(&s, insn(0x4008, EDAN_MEM_LOAD, A6, A3, 0, 0));
    addi = add_insn(&s, insn(0x400c, 0, A5, A5, 0, 8));
    int sd = add_insn(&s, insn(0x4010, EDAN_MEM_STORE, 0, S0, A5, -20));
    for (int i = 0; i < N; i++) {
        emit(&s, ldi, 0x7fff0000 - 20);
        emit(&s, add, 0);
        emit(&s, la, 0x500000 + (uint64_t)i * 8);
        emit(&s, addi, 0);
        emit(&s, sd, 0x7fff0000 - 20);
    }
    expect_load("-O0 index: the frame slot", &s, 0x4000, "constant", 0, 0);
    expect_load("-O0 index: a[i]", &s, 0x4008, "strided", 0, 0);

    /* -O0 pointer chase through a stack slot: ld a5,-24(s0); ld a5,8(a5); sd a5,-24(s0) */
    memset(&s, 0, sizeof s);
    ldi = add_insn(&s, insn(0x5000, EDAN_MEM_LOAD, A5, S0, 0, -24));
    int next = add_insn(&s, insn(0x5004, EDAN_MEM_LOAD, A5, A5, 0, 8));
    sd = add_insn(&s, insn(0x5008, EDAN_MEM_STORE, 0, S0, A5, -24));
    for (int i = 0; i < N; i++) {
        emit(&s, ldi, 0x7fff0000 - 24);
        emit(&s, next, 0x600000 + (uint64_t)i * 32 + 8); /* even at a constant step */
        emit(&s, sd, 0x7fff0000 - 24);
    }
    expect_load("-O0 chase: p->next", &s, 0x5004, "irregular", N - 1, N - 1);

    /* CSR rows of 8: ld a0,0(a1) (rowptr[i]); 8 x { ld a2,0(a0) (val[j]); addi a0,a0,8 }; addi a1,a1,8 */
    memset(&s, 0, sizeof s);
    int rp = add_insn(&s, insn(0x6000, EDAN_MEM_LOAD, A0, A1, 0, 0));
    int val = add_insn(&s, insn(0x6004, EDAN_MEM_LOAD, A2, A0, 0, 0));
    addi = add_insn(&s, insn(0x6008, 0, A0, A0, 0, 8));
    int addi1 = add_insn(&s, insn(0x600c, 0, A1, A1, 0, 8));
    const int rows = 40;
    for (int r = 0; r < rows; r++) {
        emit(&s, rp, 0x700000 + (uint64_t)r * 8);
        for (int k = 0; k < 8; k++) {
            emit(&s, val, 0x800000 + (uint64_t)(r * 8 + k) * 8);
            emit(&s, addi, 0);
        }
        emit(&s, addi1, 0);
    }
    /* the first access of each row depends on rowptr[i] loaded since the last val[j] (not the first row's) */
    expect_load("CSR: val[j]", &s, 0x6004, "strided", rows - 1, rows - 1);
    expect_load("CSR: rowptr[i]", &s, 0x6000, "strided", 0, 0);

    /* scalars: a global read every iteration (ld a1,16(gp)) and one read once; a[n] from the global */
    memset(&s, 0, sizeof s);
    int g = add_insn(&s, insn(0x7000, EDAN_MEM_LOAD, A1, GP, 0, 16));
    add = add_insn(&s, insn(0x7004, 0, A3, A4, A1, 0));
    la = add_insn(&s, insn(0x7008, EDAN_MEM_LOAD, A6, A3, 0, 0));
    int once = add_insn(&s, insn(0x700c, EDAN_MEM_LOAD, A2, GP, 0, 24));
    emit(&s, once, 0x900018);
    for (int i = 0; i < N; i++) {
        emit(&s, g, 0x900010);
        emit(&s, add, 0);
        emit(&s, la, 0xa00000);
    }
    expect_load("global scalar", &s, 0x7000, "constant", 0, 0);
    expect_load("a[n] from a global", &s, 0x7008, "constant", 0, 0);
    expect_load("a load that ran once", &s, 0x700c, "constant", 0, 0);
    {
        char *j = report(&s, 7);
        CHECK(test_json_num(j, "\"constant\":{", "static") == 3 &&
                  test_json_num(j, "\"constant\":{", "accesses") == 2 * N + 1,
              "scalars: 3 constant loads, %d accesses: %s", 2 * N + 1, j);
        CHECK(test_json_num(j, "\"load_classes\":", "load_blocks") == 2, "scalars: two blocks (the globals share one)");
        free(j);
    }
    test_loops(200);
    return check_summary();
}
