/*
 * x86 rep strings through the one-lane analysis's run of byte accesses
 * (edag_bytes.c) against the general path, byte by byte: random traces of
 * rep stosb runs (ascending and descending, unaligned starts and ends,
 * partly over bytes stored before), rep movsb runs (a load vertex with the
 * address updates, then a plain byte store, overlapping source and
 * destination), lodsb, a byte read-modify-write with flags, mixed with random
 * loads and stores of 1 to 8 bytes over the same bytes, analysed with one lane
 * (the run) and with two lanes whose first is the same (the sweep, which hands
 * every wide instruction to the general path). Every result of the lane must be
 * the same: T1, Tinf, W, D, C, the layers, the bytes, the cache's counts and
 * the data-movement series. Caches, narrow and wide shadows (an alpha past
 * 2^32), sparse pages made full after few lookups, strings long enough to
 * make their pages full of units ahead (edan_shadow_page_units()), page
 * crossings, random batch boundaries.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/shadow/shadow.h"
#include "check.h"
#include "isa/native.h"
#include "random_trace.h"

enum {
    RAX = EDAN_X86_GPR(0),
    RCX = EDAN_X86_GPR(1),
    RSI = EDAN_X86_GPR(6),
    RDI = EDAN_X86_GPR(7),
    FL = EDAN_X86_FLAGS,
    TMP = EDAN_X86_TMP
};
enum { STOS = 16, MOVS_LOAD, MOVS_STORE, LODS, ADD_MEM, STOSD, N_INSN };

static void wide(edan_insn *in, edan_mem_kind mem, uint8_t size, edan_insn_class cls)
{
    memset(in, 0, sizeof *in);
    in->isa = EDAN_ISA_X86_64;
    in->mem = (uint8_t)mem;
    in->mem_size = size;
    in->cls = in->op_cls = (uint8_t)cls;
    in->size = 2;
}

/* The instructions: 16 random ones (registers shared with the string instructions'), then the string ones. */
static void make_table(edan_insn table[24])
{
    for (int i = 0; i < STOS; i++) {
        rt_random_insn(&table[i]);
        table[i].isa = EDAN_ISA_X86_64;
    }
    /* rep stosb: reads rdi, rcx, al and the direction flag, stores a byte, moves rdi and rcx */
    edan_insn *in = &table[STOS];
    wide(in, EDAN_MEM_STORE, 1, EDAN_CLASS_STORE);
    in->n_src = 3;
    in->src[0] = RDI, in->src[1] = RCX, in->src[2] = RAX;
    in->n_more_src = 1, in->more[0] = FL;
    in->n_dst = 1, in->dst = RDI;
    in->n_more_dst = 1, in->more[1] = RCX;
    in->addr_dst = 3;
    /* rep movsb's first vertex: loads the byte into the temporary, moves rsi, rdi and rcx */
    in = &table[MOVS_LOAD];
    wide(in, EDAN_MEM_LOAD, 1, EDAN_CLASS_LOAD);
    in->n_src = 3;
    in->src[0] = RSI, in->src[1] = RDI, in->src[2] = RCX;
    in->n_more_src = 1, in->more[0] = FL;
    in->n_dst = 1, in->dst = TMP;
    in->n_more_dst = 3, in->more[1] = RSI, in->more[2] = RDI, in->more[3] = RCX;
    in->addr_dst = 0xe;
    in->native = EDAN_NATIVE_TWO_PLACES;
    /* its second: stores the temporary (a plain byte store) */
    in = &table[MOVS_STORE];
    wide(in, EDAN_MEM_STORE, 1, EDAN_CLASS_STORE);
    in->n_src = 1, in->src[0] = TMP;
    in->native = EDAN_NATIVE_TWO_PLACES | EDAN_NATIVE_SECOND;
    /* lodsb: al from [rsi], rsi moved (from rdi's state instead, as leave's rsp from rbp: addr_from) */
    in = &table[LODS];
    wide(in, EDAN_MEM_LOAD, 1, EDAN_CLASS_LOAD);
    in->n_src = 2, in->src[0] = RSI, in->src[1] = FL;
    in->n_dst = 1, in->dst = RAX;
    in->n_more_dst = 1, in->more[0] = RSI;
    in->addr_dst = rt_below(2) ? 2 : 0;
    in->addr_from = in->addr_dst && rt_below(2) ? RDI : 0;
    /* adc byte [rdi + rsi], al: reads and writes the byte, reads and writes the flags */
    in = &table[ADD_MEM];
    wide(in, EDAN_MEM_AMO, 1, EDAN_CLASS_STORE);
    in->n_src = 3, in->src[0] = RDI, in->src[1] = RAX, in->src[2] = RSI;
    in->n_more_src = 1, in->more[0] = FL;
    in->n_dst = 1, in->dst = FL;
    /* rep stosd: four bytes at a time, the general path */
    table[STOSD] = table[STOS];
    table[STOSD].mem_size = 4;
    for (int i = 0; i < 24; i++)
        table[i].pc = 0x10000 + 4 * (uint64_t)i;
}

static size_t add(edan_exec *recs, size_t n, size_t cap, const edan_insn *table, int id, uint64_t addr)
{
    if (n < cap)
        recs[n] = (edan_exec){&table[id], addr, (uint32_t)id, 0, 0};
    return n + 1;
}

/* A random trace of rep strings and random accesses over a few hundred bytes around base (a page boundary). */
static size_t make_trace(const edan_insn *table, edan_exec *recs, size_t cap, uint64_t base)
{
    size_t n = 0;
    while (n < cap) {
        const uint64_t a = base - 300 + rt_below(600), b = base - 300 + rt_below(600);
        /* now and then a string longer than a sparse page's units, which makes its page full ahead (edag_bytes.c) */
        const uint64_t len = rt_below(8) ? 1 + rt_below(rt_below(4) ? 24 : 200) : 1000 + rt_below(3500);
        const bool down = rt_below(4) == 0; /* the direction flag set: descending addresses */
        switch (rt_below(6)) {
        case 0:
        case 1:
            for (uint64_t k = 0; k < len; k++)
                n = add(recs, n, cap, table, STOS, down ? a - k : a + k);
            n = add(recs, n, cap, table, (int)rt_below(STOS), 0); /* after the string, anything */
            break;
        case 2:
            for (uint64_t k = 0; k < len; k++) {
                n = add(recs, n, cap, table, MOVS_LOAD, down ? a - k : a + k);
                n = add(recs, n, cap, table, MOVS_STORE, down ? b - k : b + k);
            }
            break;
        case 3:
            for (uint64_t k = 0; k < len; k++)
                n = add(recs, n, cap, table, rt_below(3) ? LODS : ADD_MEM, a + k);
            break;
        case 4:
            for (uint64_t k = 0; k < len / 4; k++)
                n = add(recs, n, cap, table, STOSD, a + 4 * k);
            break;
        default: /* random instructions: loads and stores of 1 to 8 bytes over the same bytes */
            for (uint64_t k = 0; k < len; k++) {
                const int id = (int)rt_below(STOS);
                n = add(recs, n, cap, table, id, table[id].mem ? base - 300 + rt_below(600) : 0);
            }
        }
    }
    n = cap; /* the last run cut short */
    /* now and then a string iteration that accessed nothing (in half the traces: the others' long strings are whole) */
    for (size_t i = rt_below(2) ? 0 : n; i < n; i += 1 + rt_below(200))
        if (recs[i].insn->mem != EDAN_MEM_NONE && rt_below(2)) {
            recs[i].flags = EDAN_EXEC_NO_ACCESS;
            recs[i].addr = 0;
        }
    return n;
}

static void feed(edan_edag *e, const edan_exec *recs, size_t n)
{
    for (size_t i = 0; i < n;) {
        /* long batches too: a string's page is made full ahead only when the batch holds the stores that fill it */
        size_t b = rt_below(6) == 0 ? 1000 + rt_below(5000) : rt_below(3) ? 1 + rt_below(300) : 1 + rt_below(8);
        if (b > n - i)
            b = n - i;
        edan_edag_consume(e, recs + i, b);
        i += b;
    }
}

static int compare(const edan_lane_stats *a, const edan_lane_stats *b, int trial)
{
    char ctx[64];
    snprintf(ctx, sizeof ctx, "trial %d", trial);
    const unsigned long before = check_failed;
    CHECK_EQ_U64(a->vertices, b->vertices, ctx);
    CHECK_EQ_U64(a->T1, b->T1, ctx);
    CHECK_EQ_U64(a->Tinf, b->Tinf, ctx);
    CHECK_EQ_U64(a->W, b->W, ctx);
    CHECK_EQ_U64(a->D, b->D, ctx);
    CHECK_EQ_U64(a->C, b->C, ctx);
    CHECK_EQ_U64(a->bytes, b->bytes, ctx);
    CHECK_EQ_U64(a->loads, b->loads, ctx);
    CHECK_EQ_U64(a->stores, b->stores, ctx);
    CHECK_EQ_U64(a->amos, b->amos, ctx);
    CHECK_EQ_U64(a->ram_loads, b->ram_loads, ctx);
    CHECK_EQ_U64(a->ram_stores, b->ram_stores, ctx);
    CHECK_EQ_U64(a->ram_read_bytes, b->ram_read_bytes, ctx);
    CHECK_EQ_U64(a->ram_write_bytes, b->ram_write_bytes, ctx);
    for (int l = 0; l < EDAN_CACHE_MAX_LEVELS; l++) {
        CHECK_EQ_U64(a->cache_hits[l], b->cache_hits[l], ctx);
        CHECK_EQ_U64(a->cache_misses[l], b->cache_misses[l], ctx);
    }
    bool layers = true;
    for (uint64_t i = 1; i <= a->D && i <= b->D; i++)
        layers &= edan_layers_get(&a->layers, i) == edan_layers_get(&b->layers, i);
    CHECK(layers, "%s: layers differ", ctx);
    const edan_series *s = &a->series[0], *t = &b->series[0];
    CHECK_EQ_U64(s->n, t->n, ctx);
    bool same = s->n == t->n;
    for (size_t i = 0; same && i < s->n; i++)
        same = s->U[i] == t->U[i] && s->started[i] == t->started[i];
    CHECK(same, "%s: series differ", ctx);
    return check_failed == before ? 0 : -1;
}

static edan_edag *analyze(const edan_edag_config *cfg, const edan_exec *recs, size_t n, uint64_t seed)
{
    edan_error err = {0};
    edan_edag *e = edan_edag_new(cfg, &err);
    CHECK(e != NULL, "edan_edag_new: %s", err.msg);
    if (!e)
        return NULL;
    edan_edag_no_warm_records(e);
    rt_seed(seed); /* the same batches in both analyses */
    feed(e, recs, n);
    CHECK(edan_edag_finish(e) == 0, "finish: %s", edan_edag_error(e)->msg);
    return e;
}

int main(int argc, char **argv)
{
    rt_seed(0x5DEECE66Dull);
    const int trials = argc > 1 ? atoi(argv[1]) : 400;
    enum { CAP = 6000 };
    static edan_exec recs[CAP];
    int failed = 0, widened = 0, ahead = 0;
    uint64_t bytes = 0;
    for (int trial = 0; trial < trials && failed < 5; trial++) {
        edan_insn table[24];
        make_table(table);
        const size_t n = make_trace(table, recs, 200 + rt_below(CAP - 200), 0x7f0000001000ull + 4096 * rt_below(3));
        for (size_t i = 0; i < n; i++)
            bytes += recs[i].insn->mem_size == 1 && recs[i].id >= STOS && !(recs[i].flags & EDAN_EXEC_NO_ACCESS);
        edan_edag_config one;
        edan_edag_config_default(&one);
        one.n_lanes = 1;
        rt_random_lane(&one.lane[0]);
        one.bytes_mode = rt_below(2) ? EDAN_BYTES_LINE : EDAN_BYTES_ACCESS;
        one.n_tau = 1;
        one.tau[0] = 1 + rt_below(5);
        one.threads = 1;
        const bool huge = trial % 8 == 3; /* F past 2^32: the narrow shadow widens mid-run */
        if (huge) {
            one.lane[0].cost.alpha = (1ull << 27) + rt_below(1u << 27);
            one.tau[0] = 1ull << 28;
        }
        if (rt_below(3) == 0)
            one.shadow_sparse_hot = 1 + (uint32_t)rt_below(400);
        edan_edag_config two = one;
        two.n_lanes = 2;
        two.lane[1] = one.lane[0];
        if (rt_below(2))
            rt_random_lane(&two.lane[1]);
        const uint64_t seed = rt_below(UINT64_MAX);
        edan_edag *a = analyze(&one, recs, n, seed), *b = analyze(&two, recs, n, seed);
        if (a && b && compare(edan_edag_lane(a, 0), edan_edag_lane(b, 0), trial))
            failed++;
        widened += huge && a && edan_edag_lane(a, 0)->Tinf > UINT32_MAX;
        ahead += a && edan_edag_shadow(a)->units_ahead > 0;
        rt_seed(seed ^ 0x2545F4914F6CDD1Dull);
        edan_edag_free(a);
        edan_edag_free(b);
    }
    printf("%d random traces of rep strings, %" PRIu64
           " string bytes; %d widened the narrow shadow, %d made a page full for the stores ahead\n",
           trials, bytes, widened, ahead);
    CHECK(trials < 100 || widened >= trials / 20, "too few traces widened the narrow shadow: %d", widened);
    CHECK(trials < 100 || ahead >= trials / 20, "too few traces made a page full for the stores ahead: %d", ahead);
    return check_summary();
}
