/*
 * timing_code.c - the RISC-V instructions the timing model has decoded, by
 * pc (added as their timing_fdesc rows are made, fdesc_fill()), and what
 * the bytes a forward branch skips hold (edan_timing_skip(): what the
 * wrong path of a branch taken that was predicted not taken runs before it
 * rejoins the right path, wrong_path_loads() in timing_ahead.h).
 */
#include <stdlib.h>

#include "analysis/timing/timing_internal.h"

/* A skipped range's slot in the direct-mapped table of SKIP_SLOTS. */
static uint64_t skip_slot(uint64_t from, uint64_t to)
{
    return (((from ^ (to << 1)) * 0x9E3779B97F4A7C15ull) >> 20) & (SKIP_SLOTS - 1);
}

int edan_timing_code_add(edan_timing *t, const edan_insn *in)
{
    if (!in->pc || in->isa)
        return 0;
    if (!t->code.cap && edan_keymap_init(&t->code, sizeof(const edan_insn *)) < 0) {
        edan_error_set(&t->err, "out of memory for the timing model's table of instructions");
        return -1;
    }
    bool created;
    const edan_insn **at = edan_keymap_get(&t->code, in->pc, 0, &created);
    if (!at) {
        edan_error_set(&t->err, "out of memory for the timing model's table of %zu instructions",
                       edan_keymap_size(&t->code));
        return -1;
    }
    const edan_insn *was = *at;
    if (!created && (was->size != in->size || was->n_dst != in->n_dst || was->dst != in->dst))
        t->code_changed++; /* another instruction at a pc: what a skip of its bytes holds is made again */
    *at = in;
    return 0;
}

/* The instruction decoded at pc, NULL: none. */
static const edan_insn *code_at(const edan_timing *t, uint64_t pc)
{
    const edan_insn *const *at = edan_keymap_find(&t->code, pc, 0);
    return at ? *at : NULL;
}

void edan_timing_code_free(edan_timing *t)
{
    if (t->code.cap)
        edan_keymap_free(&t->code);
    free(t->skips);
    t->skips = NULL;
    t->code_changed = 0;
}

const timing_skip *edan_timing_skip(edan_timing *t, uint64_t from, uint64_t to)
{
    if (!t->skips && !(t->skips = calloc(SKIP_SLOTS, sizeof *t->skips))) {
        edan_error_set(&t->err, "out of memory for the timing model's skipped bytes");
        return NULL;
    }
    timing_skip *e = &t->skips[skip_slot(from, to)];
    if (e->from == from && e->to == to && e->changed == t->code_changed &&
        (e->ok || e->code_n == edan_keymap_size(&t->code)))
        return e->ok ? e : NULL; /* made already; not known then and nothing new decoded since */
    *e = (timing_skip){.from = from, .to = to, .code_n = edan_keymap_size(&t->code), .changed = t->code_changed};
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
