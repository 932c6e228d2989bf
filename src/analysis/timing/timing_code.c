/*
 * timing_code.c - the RISC-V instructions the timing model has decoded, by
 * pc (added as their timing_fdesc rows are made, fdesc_fill()), and what
 * the bytes a forward branch skips hold (edan_timing_skip(): what the
 * wrong path of a branch taken that was predicted not taken runs before it
 * rejoins the right path, wrong_path_loads() in timing_ahead.h).
 */
#include <stdlib.h>

#include "analysis/timing/timing_internal.h"

static uint64_t code_slot(uint64_t pc, uint64_t mask)
{
    return ((pc * 0x9E3779B97F4A7C15ull) >> 20) & mask;
}

int edan_timing_code_add(edan_timing *t, const edan_insn *in)
{
    if (!in->pc || in->isa)
        return 0;
    if (2 * (t->code_n + 1) > t->code_cap) { /* at most half full: probes stay short */
        const uint64_t cap = t->code_cap ? 2 * t->code_cap : 1024;
        uint64_t *pc = calloc(cap, sizeof *pc);
        const edan_insn **ins = calloc(cap, sizeof *ins);
        if (!pc || !ins) {
            free(pc);
            free((void *)ins);
            edan_error_set(&t->err, "out of memory for the timing model's table of %llu instructions",
                           (unsigned long long)cap / 2);
            return -1;
        }
        for (uint64_t i = 0; i < t->code_cap; i++) {
            if (!t->code_pc[i])
                continue;
            uint64_t s = code_slot(t->code_pc[i], cap - 1);
            while (pc[s])
                s = (s + 1) & (cap - 1);
            pc[s] = t->code_pc[i];
            ins[s] = t->code_insn[i];
        }
        free(t->code_pc);
        free((void *)t->code_insn);
        t->code_pc = pc;
        t->code_insn = ins;
        t->code_cap = cap;
    }
    const uint64_t mask = t->code_cap - 1;
    uint64_t s = code_slot(in->pc, mask);
    while (t->code_pc[s] && t->code_pc[s] != in->pc)
        s = (s + 1) & mask;
    const edan_insn *was = t->code_insn[s];
    if (!t->code_pc[s])
        t->code_n++;
    else if (was->size != in->size || was->n_dst != in->n_dst || was->dst != in->dst)
        t->code_changed++; /* another instruction at a pc: what a skip of its bytes holds is made again */
    t->code_pc[s] = in->pc;
    t->code_insn[s] = in;
    return 0;
}

/* The instruction decoded at pc, NULL: none. */
static const edan_insn *code_at(const edan_timing *t, uint64_t pc)
{
    if (!t->code_cap)
        return NULL;
    const uint64_t mask = t->code_cap - 1;
    for (uint64_t s = code_slot(pc, mask);; s = (s + 1) & mask) {
        if (t->code_pc[s] == pc)
            return t->code_insn[s];
        if (!t->code_pc[s])
            return NULL;
    }
}

void edan_timing_code_free(edan_timing *t)
{
    free(t->code_pc);
    free((void *)t->code_insn);
    free(t->skips);
    t->code_pc = NULL;
    t->code_insn = NULL;
    t->skips = NULL;
    t->code_cap = t->code_n = 0;
}

const timing_skip *edan_timing_skip(edan_timing *t, uint64_t from, uint64_t to)
{
    if (!t->skips && !(t->skips = calloc(SKIP_SLOTS, sizeof *t->skips))) {
        edan_error_set(&t->err, "out of memory for the timing model's skipped bytes");
        return NULL;
    }
    timing_skip *e = &t->skips[code_slot(from ^ (to << 1), SKIP_SLOTS - 1)];
    if (e->from == from && e->to == to && e->changed == t->code_changed && (e->ok || e->code_n == t->code_n))
        return e->ok ? e : NULL; /* made already; not known then and nothing new decoded since */
    *e = (timing_skip){.from = from, .to = to, .code_n = t->code_n, .changed = t->code_changed};
    uint64_t pc = from, count = 0;
    for (const edan_insn *in; pc < to && count < t->m.rob_entries && (in = code_at(t, pc)) && in->size;
         pc += in->size) {
        count++;
        if (in->n_dst)
            e->regs[in->dst >> 6] |= 1ull << (in->dst & 63);
    }
    e->count = (uint32_t)count;
    /* every instruction decoded, one after another up to `to` exactly, fewer than the reorder buffer holds */
    e->ok = pc == to && count < t->m.rob_entries;
    return e->ok ? e : NULL;
}
