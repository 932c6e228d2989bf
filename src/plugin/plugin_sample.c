/*
 * plugin_sample.c - the plugin's sampled tracing (--sample-only): only
 * MemGaze's samples are traced, the loads between them are counted.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/memory/memory.h"

#include "plugin/plugin_internal.h"

/*
 * The sampled tool cuts the loads into periods of P and takes the first W
 * loads of each as a sample (tool/sampled_tool.c). With --sample-only the
 * plugin traces those alone. Between samples every block is translated
 * with one callback that adds its loads to the count when it starts (a
 * block is assumed to run to its end, as for tb_plan). When the count comes
 * within SAMPLE_MARGIN loads of a sample, qemu_plugin_reset() retranslates
 * every block with a callback per load, which counts exactly and appends
 * the sample's loads; after its last, another reset returns to counting.
 * Blocks without loads get no callback (with a filter, every instruction
 * gets one, for the filter's state). The sampled tool reads loads alone,
 * so the stream holds the samples' loads, not their other instructions;
 * other threads' loads are counted for the warning. A reset takes effect before the
 * next block starts, and a block holds at most 512 loads, so the count is
 * exact, and below the sample's first load, when recording starts. The
 * session therefore sees the samples' loads one after another, and the estimates
 * equal those from the whole stream (checked by tests/locality_test.py);
 * a sample that starts late all the same is counted and reported.
 */
#define SAMPLE_MARGIN 512

static void sample_reset_done(qemu_plugin_id_t id)
{
    P.recording = P.next_recording;
    P.switching = 0;
    P.resets++;
    qemu_plugin_register_vcpu_tb_trans_cb(id, edan_plugin_on_translate);
    qemu_plugin_register_atexit_cb(id, edan_plugin_on_exit, NULL);
    edan_plugin_watch_exit(id);
}

static void sample_switch(int recording)
{
    if (P.switching || P.child)
        return;
    P.switching = 1;
    P.next_recording = recording;
    qemu_plugin_reset(P.id, sample_reset_done);
}

/* Whether an instruction (or a block) with this filter state is traced. */
static inline bool sample_active(bool entry, uint8_t flow, bool in_fn)
{
    return !P.filtering || edan_plugin_region(entry, flow, in_fn, false);
}

/* A counting block's user data: instructions, loads, the filter state of its first and last, their function. */
#define CB_INSNS(u) ((u)&0x3ffu)
#define CB_LOADS(u) (((u) >> 10) & 0x3ffu)
#define CB_ENTRY(u) (((u) >> 20) & 1u)
#define CB_IN_FN(u) (((u) >> 21) & 1u)
#define CB_FLOW(u) ((uint8_t)((u) >> 24))
#define CB_FN(u) ((uint32_t)((u) >> 32))
_Static_assert(sizeof(uintptr_t) == 8, "a counting block's user data holds 64 bits");

/* The function a load of s counts for (known from its first execution or translation on). */
static inline uint32_t slot_fn(const slot *s)
{
    if (!s->fn1)
        ((slot *)s)->fn1 = 1 + (P.n_fns ? edan_sampled_tool_function(P.sampled_tool, s->insn->pc) : 0);
    return s->fn1 - 1;
}

static void on_tb_count(unsigned int vcpu, void *ud)
{
    const uintptr_t u = (uintptr_t)ud;
    if (vcpu) {
        atomic_fetch_add_explicit(&P.other_vcpu_insns, CB_LOADS(u), memory_order_relaxed);
        return;
    }
    if (!sample_active(CB_ENTRY(u), CB_FLOW(u), CB_IN_FN(u)))
        return;
    P.loads += CB_LOADS(u);
    P.fn_loads[CB_FN(u)] += CB_LOADS(u);
    if (P.loads + SAMPLE_MARGIN >= P.sample_start)
        sample_switch(1);
}

/* One counting callback for the block: false when it needs one per instruction (the filter changes inside). */
bool edan_sample_count_block(struct qemu_plugin_tb *tb, slot *const *slots, size_t n)
{
    if (!n || !edan_plugin_one_filter_state(slots, n))
        return false;
    uintptr_t loads = 0;
    for (size_t i = 0; i < n; i++) {
        loads += slots[i]->load;
        if (slot_fn(slots[i]) != slot_fn(slots[0]))
            return false; /* a block across functions: count per load */
    }
    if (!loads && !P.filtering)
        return true; /* nothing to count: no callback at all */
    const uintptr_t u = (uintptr_t)n | loads << 10 | (uintptr_t)slots[0]->entry << 20 |
                        (uintptr_t)slots[0]->in_fn << 21 | (uintptr_t)slots[n - 1]->flow << 24 |
                        (uintptr_t)slot_fn(slots[0]) << 32;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_count, QEMU_PLUGIN_CB_NO_REGS, (void *)u);
    return true;
}

void edan_sample_on_insn_count(unsigned int vcpu, void *ud)
{
    const slot *s = ud;
    if (vcpu) {
        atomic_fetch_add_explicit(&P.other_vcpu_insns, s->load, memory_order_relaxed);
        return;
    }
    if (!sample_active(s->entry, s->flow, s->in_fn))
        return;
    P.loads += s->load;
    P.fn_loads[slot_fn(s)] += s->load;
    if (P.loads + SAMPLE_MARGIN >= P.sample_start)
        sample_switch(1);
}

/*
 * Recording: the samples' loads are appended, the others counted. Only
 * loads have this callback, and with a filter every instruction (for the
 * filter's state).
 */
void edan_sample_on_insn_record(unsigned int vcpu, void *ud)
{
    const slot *s = ud;
    if (vcpu) {
        atomic_fetch_add_explicit(&P.other_vcpu_insns, s->load, memory_order_relaxed);
        return;
    }
    P.cur = &P.sink;
    if (!sample_active(s->entry, s->flow, s->in_fn) || !s->load)
        return;
    const uint64_t i = P.loads++;
    P.fn_loads[slot_fn(s)]++;
    if (!P.in_sample && i >= P.sample_start) {
        P.late += i > P.sample_start;
        P.in_sample = 1;
        P.sample_end = i + P.window;
    }
    if (!P.in_sample)
        return;
    edan_plugin_append(s, 0);
    if (P.loads == P.sample_end) {
        P.in_sample = 0;
        while (P.sample_start <= i)
            P.sample_start += P.period;
        if (P.loads + SAMPLE_MARGIN < P.sample_start)
            sample_switch(0);
    }
}

int edan_sample_setup(void)
{
    edan_sampled *tool = edan_sampled_tool_of(P.session);
    if (!tool) {
        edan_error_set(&P.err, "--sample-only needs --sample-period");
        return -1;
    }
    edan_sampled_tool_params(tool, &P.period, &P.window);
    P.sampled_tool = tool;
    P.n_fns = edan_sampled_tool_n_functions(tool);
    P.fn_loads = calloc(P.n_fns ? P.n_fns : 1, sizeof *P.fn_loads);
    if (!P.fn_loads) {
        edan_error_set(&P.err, "out of memory");
        return -1;
    }
    P.sampling = 1;
    P.recording = 1; /* the first sample starts at the first load */
    P.sample_start = 0;
    return 0;
}

void edan_sample_finish(void)
{
    if (!P.sampling || !P.session)
        return;
    edan_sampled_tool_set_loads(P.sampled_tool, P.loads, P.n_fns ? P.fn_loads : NULL);
    if (P.late)
        fprintf(stderr,
                "edan: warning: %" PRIu64 " of the samples started after their first load (QEMU switched the "
                "translation late); their estimates still hold, but differ from the whole stream's\n",
                P.late);
}
