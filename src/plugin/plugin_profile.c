/*
 * plugin_profile.c - the plugin's profile mode (mode=profile): count the
 * instructions each static instruction executes, choose the functions
 * --per-function breaks down (tool/functions_tool.h: the 8 with the most
 * exclusive instructions) and write their list to out, one line. No record
 * is made: a block whose instructions share one filter state adds one to
 * its own count when it starts (as tb_plan, it is assumed to run to its
 * end); other blocks count per instruction. edan run runs the program so
 * once before its analysis, at about the cost of plain QEMU, instead of
 * recording a trace to count from.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/graph/graph.h"
#include "util/grow.h"

#include "plugin/plugin_internal.h"

/* A block of one filter state, and how often it ran. Blocks live until the process ends, as tb_plan. */
typedef struct prof_block {
    uint64_t executed;
    uint32_t n;
    uint8_t entry, flow, in_fn; /* of the first, of the last, of all */
    uint32_t ids[];
} prof_block;

static struct {
    prof_block **blocks;
    size_t n_blocks, cap_blocks;
    uint64_t *per_insn; /* by static id: executions counted per instruction */
    size_t per_insn_cap;
} R;

static inline bool counted(bool entry, uint8_t flow, bool in_fn)
{
    return !P.filtering || edan_plugin_region(entry, flow, in_fn, false);
}

static void on_tb_profile(unsigned int vcpu, void *ud)
{
    prof_block *b = ud;
    if (vcpu) {
        atomic_fetch_add_explicit(&P.other_vcpu_insns, b->n, memory_order_relaxed);
        return;
    }
    if (counted(b->entry, b->flow, b->in_fn))
        b->executed++;
}

void edan_profile_on_insn(unsigned int vcpu, void *ud)
{
    const slot *s = ud;
    if (vcpu) {
        atomic_fetch_add_explicit(&P.other_vcpu_insns, 1, memory_order_relaxed);
        return;
    }
    if (counted(s->entry, s->flow, s->in_fn))
        R.per_insn[s->id]++;
}

bool edan_profile_count_block(struct qemu_plugin_tb *tb, slot *const *slots, size_t n)
{
    if (!n || !edan_plugin_one_filter_state(slots, n))
        return false;
    if (R.n_blocks == R.cap_blocks) {
        const size_t cap = R.cap_blocks ? 2 * R.cap_blocks : 1024;
        prof_block **p = realloc(R.blocks, cap * sizeof *p);
        if (!p)
            return false;
        R.blocks = p;
        R.cap_blocks = cap;
    }
    prof_block *b = malloc(sizeof *b + n * sizeof b->ids[0]);
    if (!b)
        return false; /* the callbacks per instruction need no more than the slot */
    *b = (prof_block){0, (uint32_t)n, slots[0]->entry, slots[n - 1]->flow, slots[0]->in_fn};
    for (size_t i = 0; i < n; i++)
        b->ids[i] = slots[i]->id;
    R.blocks[R.n_blocks++] = b;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_profile, QEMU_PLUGIN_CB_NO_REGS, b);
    return true;
}

bool edan_profile_room(uint32_t id)
{
    if (id < R.per_insn_cap)
        return true;
    const size_t cap = edan_grow_cap(R.per_insn_cap, id);
    uint64_t *c = edan_grow_zeroed(R.per_insn, R.per_insn_cap, cap, sizeof *c);
    if (!c)
        return false;
    R.per_insn = c;
    R.per_insn_cap = cap;
    return true;
}

int edan_profile_finish(const char *binary)
{
    const uint32_t n = edan_code_table_size(P.code);
    edan_profile prof = {n, calloc(n ? n : 1, sizeof(uint64_t)), calloc(n ? n : 1, sizeof(edan_insn *))};
    if (!prof.counts || !prof.insn) {
        edan_profile_free(&prof);
        edan_error_set(&P.err, "out of memory");
        return -1;
    }
    for (uint32_t id = 0; id < n; id++) {
        prof.insn[id] = edan_code_table_get(P.code, id);
        prof.counts[id] = id < R.per_insn_cap ? R.per_insn[id] : 0;
    }
    for (size_t k = 0; k < R.n_blocks; k++)
        for (uint32_t i = 0; i < R.blocks[k]->n; i++)
            prof.counts[R.blocks[k]->ids[i]] += R.blocks[k]->executed;
    P.total = 0;
    for (uint32_t id = 0; id < n; id++)
        P.total += prof.counts[id];
    int rc = edan_functions_choose(&P.options, binary, NULL, &P.objects, &prof, edan_functions_to_choose(&P.options),
                                   &P.err);
    edan_profile_free(&prof);
    if (rc)
        return -1;
    FILE *f = fopen(P.out, "we");
    bool ok = f && fprintf(f, "%s\n", edan_options_last(&P.options, "functions")) > 0;
    if ((f && fclose(f)) || !ok) {
        edan_error_set(&P.err, "%s: cannot write the profile: %s", P.out, strerror(errno));
        return -1;
    }
    return 0;
}
