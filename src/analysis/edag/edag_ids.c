/*
 * edag_ids.c - static instructions: the hot_op entry each gets at its first
 * execution, its executions, and for per-function lanes (edag.h: scopes)
 * which lanes it belongs to. count_execution() and seen_op(), per record,
 * are inline in edag_internal.h; this is their rare path.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/edag/edag_internal.h"

/* Which scoped lanes a static instruction belongs to (exclusive) or starts (inclusive). */
static void scope_id(edan_edag *e, uint32_t id, uint64_t pc)
{
    uint32_t entry;
    e->id_member[id] = edan_lane_members(e->cfg.lane, e->n_lanes, pc, &entry);
    e->id_entry[id] = entry;
}

bool edan_edag_grow_ids(edan_edag *e, uint32_t id)
{
    size_t cap = e->id_cap ? e->id_cap : 1024;
    while (cap <= id)
        cap *= 2;
    hot_id *h = realloc(e->ids, cap * sizeof *h);
    if (h)
        e->ids = h;
    const edan_insn **p = realloc(e->id_insn, cap * sizeof *p);
    if (p)
        e->id_insn = p;
    page_memo *pm = realloc(e->memo, cap * sizeof *pm);
    if (pm)
        e->memo = pm;
    if (!h || !p || !pm) {
        edan_error_set(&e->err, "out of memory for %zu static instructions", cap);
        return false;
    }
    if (e->scoped) {
        uint32_t *m = realloc(e->id_member, cap * sizeof *m);
        if (m)
            e->id_member = m;
        uint32_t *en = m ? realloc(e->id_entry, cap * sizeof *en) : NULL;
        if (!m || !en) {
            edan_error_set(&e->err, "out of memory for %zu static instructions", cap);
            return false;
        }
        e->id_entry = en;
        memset(e->id_member + e->id_cap, 0, (cap - e->id_cap) * sizeof *m);
        memset(e->id_entry + e->id_cap, 0, (cap - e->id_cap) * sizeof *en);
    }
    memset(e->ids + e->id_cap, 0, (cap - e->id_cap) * sizeof *h);
    for (size_t id = e->id_cap; id < cap; id++)
        e->ids[id].op.kind = HOT_UNSEEN;
    memset(e->id_insn + e->id_cap, 0, (cap - e->id_cap) * sizeof *p);
    memset(e->memo + e->id_cap, 0, (cap - e->id_cap) * sizeof *pm);
    e->id_cap = cap;
    return true;
}

/* The first execution of static instruction id (with room for it): record what the hot loop needs. */
void edan_edag_new_id(edan_edag *e, uint32_t id, const edan_insn *in)
{
    e->id_insn[id] = in;
    hot_op *o = &e->ids[id].op;
    memcpy(o->src, in->src, sizeof o->src);
    o->dst = in->n_dst ? in->dst : REG_SINK;
    o->dst2 = REG_SINK;
    o->kind = (uint8_t)(in->mem | HOT_SEEN);
    if (in->isa != EDAN_ISA_RISCV64)
        e->native = true;
    o->size = in->mem_size;
    if (!in->n_more_src && !in->addr_dst && in->n_more_dst == 1) {
        o->kind = (uint8_t)(HOT_SEEN | HOT_DST2 | (in->mem & 3));
        o->dst2 = in->more[0];
    } else if (edan_insn_wide(in)) {
        o->kind = HOT_SEEN | HOT_WIDE | (in->mem & 3);
    }
    o->cls = in->cls;
    if (e->scoped)
        scope_id(e, id, in->pc);
}

size_t edan_edag_static_ids(const edan_edag *e)
{
    return e->n_groups ? edan_edag_static_ids(e->group[0]) : e->id_cap;
}

uint64_t edan_edag_static_count(const edan_edag *e, size_t id, const edan_insn **insn)
{
    if (e->n_groups)
        return edan_edag_static_count(e->group[0], id, insn);
    *insn = e->id_insn[id];
    return e->ids[id].count;
}
