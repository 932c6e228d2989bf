/*
 * The timing model's rep strings (docs/model.md, Rep strings): an x86 string
 * instruction with a rep prefix is one record per element, and the model
 * folds the elements after the first in a line into it (fast-string
 * microcode moves a line at a time). Checked:
 *
 * - the decoder marks rep movs, stos, lods, cmps and scas (both vertices of
 *   a movs), not a string instruction without the prefix;
 * - on random streams of rep stosb, stosq and movsb runs (unaligned starts,
 *   elements straddling lines, a run cut by other instructions, the same
 *   instruction run again) among ordinary loads, stores and additions, the
 *   model gives exactly the cycles, memory stall and per-instruction cycles of
 *   a naive reference stream that keeps only the elements whose line differs
 *   from the last element of the same vertex in the run; its counts are the
 *   whole stream's (every element an instruction, an access and an L1d hit),
 *   exact and sampled, on one and two lane groups, in batches of 1 to 700.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/timing.h"
#include "check.h"
#include "isa/native.h"
#include "random_trace.h"
#include "timing_check.h"

static void decoder_marks_rep_strings(void)
{
    static const struct {
        uint8_t enc[4];
        size_t n;
        int part;
        bool rep;
    } cases[] = {
        {{0xf3, 0xaa}, 2, 0, true},        /* rep stosb */
        {{0xf3, 0x48, 0xab}, 3, 0, true},  /* rep stosq */
        {{0xf3, 0xa4}, 2, 0, true},        /* rep movsb: the load */
        {{0xf3, 0xa4}, 2, 1, true},        /* and the store */
        {{0xf3, 0xa6}, 2, 0, true},        /* repe cmpsb */
        {{0xf2, 0xae}, 2, 0, true},        /* repne scasb */
        {{0xaa}, 1, 0, false},             /* stosb */
        {{0xa4}, 1, 1, false},             /* movsb's store */
        {{0x48, 0x89, 0x07}, 3, 0, false}, /* mov [rdi], rax */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        edan_insn in;
        const edan_decode_status st =
            edan_native_decode_part(EDAN_ISA_X86_64, cases[i].enc, cases[i].n, 0x401000, cases[i].part, &in);
        CHECK(st == EDAN_DECODE_OK && !!(in.native & EDAN_NATIVE_REP) == cases[i].rep,
              "case %zu: status %d, rep %d, expected %d", i, (int)st, !!(in.native & EDAN_NATIVE_REP), cases[i].rep);
    }
}

enum { ID_STOSB = 1, ID_STOSQ, ID_MOVS_LOAD, ID_MOVS_STORE, ID_LOAD, ID_STORE, ID_ADD, N_ID };

static edan_insn insns[N_ID];

static void make_insns(void)
{
    edan_insn ld, op;
    load_and_add(&ld, &op);
    insns[ID_LOAD] = ld;
    insns[ID_ADD] = op;
    insns[ID_STORE] = store(EDAN_REG_X(7), EDAN_REG_X(8), 0x2000, 8);
    /* the string instructions: a store or a load of their element's size, moving their address register */
    insns[ID_STOSB] = store(EDAN_REG_X(9), EDAN_REG_X(10), 0x3000, 1);
    insns[ID_STOSQ] = store(EDAN_REG_X(9), EDAN_REG_X(10), 0x3010, 8);
    insns[ID_MOVS_LOAD] = load(EDAN_REG_X(11), EDAN_REG_X(12), 0x3020);
    insns[ID_MOVS_LOAD].mem_size = 1;
    insns[ID_MOVS_STORE] = store(EDAN_REG_X(11), EDAN_REG_X(13), 0x3020, 1);
    for (int id = ID_STOSB; id <= ID_MOVS_STORE; id++)
        insns[id].native |= EDAN_NATIVE_REP;
    for (int id = 1; id < N_ID; id++) /* an x86 stream (the model folds nothing in another ISA's) */
        insns[id].isa = EDAN_ISA_X86_64;
}

static edan_exec at(int id, uint64_t addr)
{
    edan_exec r = rec(&insns[id], addr);
    r.id = (uint32_t)id;
    return r;
}

/* A random stream: rep runs (stosb, stosq, movsb) among loads, stores and additions; its length. */
static size_t random_stream(edan_exec *recs, size_t cap)
{
    size_t n = 0;
    while (n + 2 * 300 + 4 < cap) {
        const uint64_t k = rt_below(6);
        if (k < 3) {
            recs[n++] = at(k == 0 ? ID_LOAD : k == 1 ? ID_STORE : ID_ADD, 0x100000 + rt_below(64) * 64);
            continue;
        }
        const uint64_t len = 1 + rt_below(300), src = 0x200000 + rt_below(4096), dst = 0x300000 + rt_below(4096);
        for (uint64_t e = 0; e < len; e++) {
            if (k == 3)
                recs[n++] = at(ID_STOSB, dst + e);
            else if (k == 4)
                recs[n++] = at(ID_STOSQ, dst + 8 * e);
            else {
                recs[n++] = at(ID_MOVS_LOAD, src + e);
                recs[n++] = at(ID_MOVS_STORE, dst + e);
            }
        }
    }
    return n;
}

/*
 * The naive reference: the records kept, each rep element kept when it is the
 * first of its vertex in the run of one rep instruction's records, or the
 * element before of its vertex in the run started in another line, or it
 * crosses into the next line.
 */
static size_t reference(const edan_exec *recs, size_t n, edan_exec *out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const edan_insn *in = recs[i].insn;
        bool keep = true;
        if (in->native & EDAN_NATIVE_REP) {
            const uint64_t line = recs[i].addr / LINE;
            keep = (recs[i].addr + in->mem_size - 1) / LINE != line;
            size_t j = i;
            while (!keep && j > 0 && (recs[j - 1].insn->native & EDAN_NATIVE_REP) && recs[j - 1].insn->pc == in->pc) {
                j--;
                if (recs[j].insn == in)
                    break;
            }
            keep = keep || recs[j].insn != in || j == i || recs[j].addr / LINE != line;
        }
        if (keep)
            out[m++] = recs[i];
    }
    return m;
}

static void model_against_reference(void)
{
    static edan_exec recs[MAXN], ref[MAXN];
    make_insns();
    int folded_some = 0;
    for (int trial = 0; trial < 24; trial++) {
        rt_seed(300 + (uint64_t)trial);
        const size_t n = random_stream(recs, MAXN), m = reference(recs, n, ref);
        folded_some += m < n;
        const bool sampled = trial % 3 == 2;
        const int threads = 1 + trial % 2;
        const size_t batch = 1 + rt_below(700);
        const edan_timing_sampling smp = {100, 50, 400, 2, 0};
        edan_machine mach = base_machine();
        mach.sq_entries = 8; /* stores take time */
        edan_timing *got = timing_run_sampled(&mach, recs, n, LAT, 2, batch, threads, sampled ? &smp : NULL);
        edan_timing *want = timing_run_sampled(&mach, ref, m, LAT, 2, batch, threads, sampled ? &smp : NULL);
        if (!got || !want) {
            edan_timing_free(got);
            edan_timing_free(want);
            return;
        }
        for (int k = 0; k < 2; k++) {
            const edan_timing_lane a = edan_timing_lane_get(got, k), b = edan_timing_lane_get(want, k);
            CHECK(a.cycles == b.cycles && a.mem_stall_cycles == b.mem_stall_cycles,
                  "trial %d lane %d: %g cycles (stall %g) folded, %g (stall %g) the reference's", trial, k, a.cycles,
                  a.mem_stall_cycles, b.cycles, b.mem_stall_cycles);
            for (uint32_t id = 1; id < N_ID; id++)
                CHECK(edan_timing_id_cycles(got, id, k) == edan_timing_id_cycles(want, id, k),
                      "trial %d lane %d id %u: %g cycles, the reference's %g", trial, k, id,
                      edan_timing_id_cycles(got, id, k), edan_timing_id_cycles(want, id, k));
        }
        const edan_timing_counts *a = edan_timing_counts_get(got), *b = edan_timing_counts_get(want);
        uint64_t loads = 0, stores = 0;
        for (size_t i = 0; i < n; i++) {
            loads += recs[i].insn->mem == EDAN_MEM_LOAD;
            stores += recs[i].insn->mem == EDAN_MEM_STORE;
        }
        CHECK(a->instructions == n && b->instructions == m && a->loads == loads && a->stores == stores &&
                  a->level_hits[0] == b->level_hits[0] + (n - m) && a->level_misses[0] == b->level_misses[0],
              "trial %d: %" PRIu64 " instructions (%" PRIu64 " loads, %" PRIu64 " stores, %" PRIu64
              " L1d hits), not %zu (%" PRIu64 ", %" PRIu64 ", %" PRIu64 " + %zu)",
              trial, a->instructions, a->loads, a->stores, a->level_hits[0], n, loads, stores, b->level_hits[0], n - m);
        for (uint32_t id = 1; id < N_ID; id++) {
            uint64_t c = 0;
            for (size_t i = 0; i < n; i++)
                c += recs[i].id == id;
            CHECK(edan_timing_id_count(got, id) == c, "trial %d id %u: %" PRIu64 " executions, not %" PRIu64, trial, id,
                  edan_timing_id_count(got, id), c);
        }
        edan_timing_sample_info si;
        edan_timing_sample_info_get(got, &si);
        CHECK(!sampled || si.measured <= n, "trial %d: %" PRIu64 " measured of %zu", trial, si.measured, n);
        edan_timing_free(got);
        edan_timing_free(want);
    }
    CHECK(folded_some == 24, "%d of 24 streams had elements to fold", folded_some);
}

int main(void)
{
    decoder_marks_rep_strings();
    model_against_reference();
    return check_summary();
}
