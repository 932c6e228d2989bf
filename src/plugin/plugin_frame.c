/*
 * plugin_frame.c - the end of a filtered region by its frame.
 *
 * A region (trace/activity.h) starts at the filtered function's first
 * instruction and ends when the call depth drops below the depth of its
 * entry. A function left by longjmp or by a C++ exception returns only in
 * the sense that control is back in a frame above its own: the depth
 * never drops, and the rest of the program was counted as the function.
 *
 * Frames. The region also ends at the first block that runs with the stack
 * pointer above the frame the function was entered with (sp at its first
 * instruction), or at that frame outside the function's own code. Code of
 * the function's extent never runs so: it has a frame of its own as soon as
 * it calls anything, and its callees run below it; a tail call from the
 * function runs at its frame, but is reached by a jump, not a return, and
 * the depth rule covers it. QEMU's plugin API (7.2) reads no register, so
 * the plugin learns sp from memory:
 *   - an access based on sp (ld ra,8(sp)) gives sp = address - offset there,
 *     and, with the block's own addi sp,sp,imm before it (known from the
 *     code), sp at the block's start;
 *   - a load into sp (longjmp's ld sp,104(a0)) gives the new sp: the loaded
 *     value, read from the guest's memory after the load.
 * The frame is sp at the start of the entry block, known from its first
 * access based on sp (the prologue's sd ra); a function whose entry block
 * has none (a leaf without a frame, which cannot be left but by returning)
 * keeps the depth rule alone.
 * longjmp loads sp above the frame: the region ends at the next block,
 * where longjmp's ret lands. An exception's unwinder sets sp by adding a
 * register and returns into the landing pad: sp is unknown there. That
 * block is a suspect: its records are kept until the first access based on
 * sp, with the addi sp,sp,imm of the blocks between, gives sp at the
 * suspect's start; if that is above the frame the region ended there, and
 * the suspect's records and all after it are dropped (but those of the
 * function if it was entered again meanwhile, which start a new region).
 * A suspect whose sp is lost (another unknown write) or whose records are
 * handed on (a full buffer) is kept in the region.
 * This costs nothing without a filter, and with one, a test per block and
 * per access based on sp; profile mode and --sample-only keep the depth
 * rule alone.
 */
#include <stdint.h>
#include <string.h>

#include "isa/riscv.h"
#include "isa/riscv_ops.h"

#include "plugin/plugin_internal.h"

#define SP EDAN_REG_X(2)

void edan_frame_analyse(slot *const *slots, size_t n, sp_block *b, int32_t *obs_delta, bool *loads_sp)
{
    int64_t d = 0;
    bool unknown = false;
    for (size_t i = 0; i < n; i++) {
        const edan_insn *in = slots[i]->insn;
        const bool writes_sp = in->n_dst == 1 && in->dst == SP;
        obs_delta[i] = INT32_MIN;
        loads_sp[i] = false;
        if (in->mem != EDAN_MEM_NONE && in->rs1 == SP && !writes_sp && !unknown && in->imm >= INT16_MIN &&
            in->imm <= INT16_MAX)
            obs_delta[i] = (int32_t)d;
        if (!writes_sp)
            continue;
        if (in->op == EDAN_OP_ADDI && in->rs1 == SP && !unknown) {
            d += in->imm;
        } else {
            unknown = true;
            loads_sp[i] = in->mem == EDAN_MEM_LOAD && in->mem_size == 8;
        }
    }
    b->delta = (int32_t)d; /* at most 512 instructions of at most 2047 each */
    b->unknown = unknown;
    b->ret_unknown = unknown && slots[n - 1]->flow == EDAN_FLOW_RETURN;
    b->in_fn = slots[0]->in_fn;
    b->entry = slots[0]->entry;
}

void edan_frame_block_slow(const sp_block *b)
{
    P.fr.pending = 0; /* the entry block had no access based on sp: the frame stays unknown */
    if (P.fr.leaving) {
        P.fr.leaving = 0;
        P.fr.suspect = 0;
        if (P.activity.active) {
            P.activity.active = false;
            P.fr.ended++;
        }
        return;
    }
    if (P.fr.suspect) {
        if (P.fr.last.unknown)
            P.fr.suspect = 0; /* sp lost again: the suspect is kept in the region */
        else
            P.fr.suspect_rel += P.fr.last.delta;
    }
    if (!P.fr.suspect && P.fr.last.ret_unknown && P.activity.active && P.fr.frame != FRAME_UNKNOWN) {
        P.fr.suspect = 1;
        P.fr.suspect_pos = P.n;
        P.fr.suspect_rel = 0;
        P.fr.suspect_in_fn = b->in_fn;
        P.fr.entry_seen = 0;
    }
}

void edan_plugin_entry(bool at_block_start)
{
    P.entered++;
    if (!P.fr.checking)
        return;
    if (!P.activity.active) { /* a region starts: its entry block's first access based on sp tells the frame */
        P.fr.frame = FRAME_UNKNOWN;
        P.fr.pending = at_block_start;
    } else if (P.fr.suspect && !P.fr.entry_seen) { /* entered again while the last region may have ended */
        P.fr.entry_seen = 1;
        P.fr.entry_pos = P.n;
        P.fr.entry_rel = P.fr.suspect_rel;
        P.fr.entry_depth = P.activity.depth;
    }
}

/* A pointer into the buffer after records [cut, from) were removed: moved down, or to where a removed one goes. */
static edan_exec *moved(edan_exec *p, size_t cut, size_t from, edan_exec *gone)
{
    const uintptr_t at = (uintptr_t)p, lo = (uintptr_t)(P.buf + cut), mid = (uintptr_t)(P.buf + from),
                    hi = (uintptr_t)(P.buf + BATCH);
    if (at >= mid && at < hi)
        return p - (from - cut);
    return at >= lo && at < mid ? gone : p;
}

void edan_frame_observe(uint64_t sp_at_block_start)
{
    if (P.fr.pending) {
        P.fr.frame = sp_at_block_start;
        P.fr.pending = 0;
    }
    if (!P.fr.suspect)
        return;
    P.fr.suspect = 0;
    const uint64_t at = sp_at_block_start - (uint64_t)P.fr.suspect_rel; /* sp at the suspect's start */
    if (P.fr.frame == FRAME_UNKNOWN || at < P.fr.frame || (at == P.fr.frame && P.fr.suspect_in_fn))
        return;
    /* the region ended at the suspect: its records go (or only warm, P.warming), but a new region's from the
     * entry on */
    const size_t cut = P.fr.suspect_pos, from = P.fr.entry_seen ? P.fr.entry_pos : P.n;
    if (P.warming) {
        for (size_t i = cut; i < from; i++) {
            P.warmed += !(P.buf[i].flags & EDAN_EXEC_WARM);
            P.buf[i].flags |= EDAN_EXEC_WARM;
        }
    } else {
        memmove(P.buf + cut, P.buf + from, (P.n - from) * sizeof *P.buf);
        P.tb = moved(P.tb, cut, from, P.tb_sink);
        P.cur = moved(P.cur, cut, from, &P.sink);
        P.n -= from - cut;
    }
    P.fr.ended++;
    if (P.fr.entry_seen) {
        P.activity.active = true;
        P.activity.marker = P.fr.entry_depth;
        P.fr.frame = at + (uint64_t)P.fr.entry_rel;
    } else {
        P.activity.active = false;
    }
}

void edan_frame_sp_loaded(uint64_t value)
{
    if (P.activity.active && P.fr.frame != FRAME_UNKNOWN && value >= P.fr.frame)
        P.fr.leaving = 1;
}

void edan_frame_flushing(void)
{
    P.fr.suspect = 0;
}

/* ---- the callbacks of accesses based on sp (edan_plugin.c registers them) ---- */

static inline void observe_sp(uint64_t vaddr, uintptr_t u)
{
    if (P.fr.pending | P.fr.suspect)
        edan_frame_observe(vaddr - (uint64_t)SP_OBS_IMM(u) - (uint64_t)SP_OBS_D(u));
}

static inline void loaded_sp(uint64_t vaddr)
{
    uint64_t v;
    memcpy(&v, (const void *)(uintptr_t)(vaddr + P.guest_base), sizeof v); /* the load has just read it */
    edan_frame_sp_loaded(v);
}

void edan_frame_on_mem_tb_sp(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    edan_plugin_on_mem_tb(vcpu, info, vaddr, (void *)(uintptr_t)SP_OBS_I((uintptr_t)ud));
    if (!vcpu)
        observe_sp(vaddr, (uintptr_t)ud);
}

void edan_frame_on_mem_tb_load_sp(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    edan_plugin_on_mem_tb(vcpu, info, vaddr, ud);
    if (!vcpu)
        loaded_sp(vaddr);
}

/* The same for blocks with a callback per instruction: the block's start, and the accesses' second callbacks. */
void edan_frame_on_tb(unsigned int vcpu, void *ud)
{
    if (!vcpu)
        edan_frame_block(ud);
}

void edan_frame_on_mem_sp(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    (void)info;
    if (!vcpu)
        observe_sp(vaddr, (uintptr_t)ud);
}

void edan_frame_on_mem_load_sp(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    (void)info;
    (void)ud;
    if (!vcpu)
        loaded_sp(vaddr);
}
