/*
 * projection_registers.c - ExaSAT's register model of a loop nest's body
 * for the projection's what-ifs (projection_whatif.c): the state
 * variables with their accesses per iteration, the most accessed held in
 * the registers, the accesses of the others spilled; and how the
 * what-ifs describe a nest: why it is not replayed, its trip counts, a
 * non-rectangular nest's bounds in its outer counters, the dependence a
 * plan breaks. docs/projection.md
 * says what is counted.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tool/graph/projection_tool.h"

#define PROJ_STATE 96 /* state variables of one nest's body: 64 registers and memory-resident ones */

typedef struct wi_var {
    double refs; /* accesses per iteration */
    int fp;
} wi_var;

static int by_refs(const void *x, const void *y)
{
    const double a = ((const wi_var *)x)->refs, b = ((const wi_var *)y)->refs;
    return (a < b) - (a > b);
}

/*
 * The body's state variables: every register its instructions name (an
 * access per naming instruction and execution) and every memory location
 * its affine loads and stores reach at one address through the body (stride
 * 0 at the innermost level, not sp-relative: a scalar the code keeps in
 * memory), by its access function, of the class of the instruction's data.
 */
void proj_register_model(const proj_tool *t, const edan_affine *a, const unsigned *regs, int n_regs,
                         const edan_affine_nest *n, proj_regs *m)
{
    const edan_loop *body = edan_loops_get(t->loops, (uint32_t)n->loop[n->levels - 1]);
    m->loop = n->loop[n->levels - 1];
    for (size_t i = 0; i < t->ids_cap; i++)
        if (t->ids[i].seen && t->ids[i].insn->pc == body->head)
            m->iterations += t->ids[i].executions;
    if (!m->iterations)
        return;
    const double it = (double)m->iterations;
    wi_var var[PROJ_STATE];
    double reg_refs[64] = {0};
    for (size_t i = 0; i < t->ids_cap; i++) {
        const proj_id *s = &t->ids[i];
        if (!s->seen || !s->executions || edan_loops_innermost(t->loops, s->insn->pc) != m->loop)
            continue;
        uint8_t named[EDAN_MAX_SRC + 1 + EDAN_MAX_MORE];
        unsigned k = 0;
        for (unsigned j = 0; j < s->insn->n_src; j++)
            named[k++] = s->insn->src[j];
        /* the destination, then a native instruction's further sources and destinations (riscv.h: more[]) */
        const unsigned n_more = (unsigned)s->insn->n_more_src + s->insn->n_more_dst;
        for (int j = s->insn->n_dst ? -1 : 0; j < (int)n_more; j++) {
            const uint8_t r = j < 0 ? s->insn->dst : s->insn->more[j];
            bool again = false;
            for (unsigned q = 0; q < k; q++)
                again |= named[q] == r;
            if (!again)
                named[k++] = r;
        }
        for (unsigned j = 0; j < k; j++)
            if (named[j] < 64)
                reg_refs[named[j]] += (double)s->executions / it;
        if (s->stack && s->insn->mem != EDAN_MEM_NONE)
            m->stack += (double)s->accesses / it;
    }
    size_t nv = 0;
    for (unsigned r = 0; r < 64; r++)
        if (reg_refs[r] > 0) {
            var[nv++] = (wi_var){reg_refs[r], r >= 32};
            m->used[r >= 32]++;
        }
    const edan_affine_insn *in = edan_affine_insns(a) + n->first;
    for (size_t j = 0; j < n->n; j++) { /* memory-resident scalars: one per access function invariant in the body */
        const edan_affine_insn *o = &in[j];
        if (!o->affine || o->levels != n->levels || o->stride[o->levels - 1] || o->insn->rs1 == EDAN_REG_X(2))
            continue;
        bool first = true;
        for (size_t x = 0; x < j && first; x++)
            first = !(in[x].affine && in[x].levels == o->levels && in[x].base == o->base &&
                      !memcmp(in[x].stride, o->stride, sizeof o->stride));
        double refs = 0;
        for (size_t x = j; x < n->n; x++)
            if (in[x].affine && in[x].levels == o->levels && in[x].base == o->base &&
                !memcmp(in[x].stride, o->stride, sizeof o->stride))
                refs += (double)in[x].accesses / it;
        if (first && nv < PROJ_STATE) {
            const bool fp = (o->insn->mem == EDAN_MEM_LOAD ? o->insn->rd : o->insn->rs2) >= EDAN_REG_F(0);
            var[nv++] = (wi_var){refs, fp};
            m->memory_state++;
        }
    }
    qsort(var, nv, sizeof *var, by_refs);
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < n_regs; r++) {
            unsigned held = 0;
            for (size_t v = 0; v < nv; v++) {
                if (var[v].fp != c)
                    continue;
                if (held < regs[r])
                    held++;
                else
                    m->spilled[c][r] += var[v].refs;
            }
        }
}

/* ===================================================================== */
/* A nest's description                                                   */
/* ===================================================================== */

const char *proj_nest_why_not(const edan_affine_nest *n)
{
    if (n->nonaffine_accesses)
        return "non-affine accesses";
    if (n->in_calls)
        return "accesses in called functions";
    if (!n->single_chain && !n->tree)
        return "inner loops of two parents";
    if (!n->rectangular && !n->bounded)
        return n->single_chain ? "non-rectangular: trip counts not affine in the outer counters"
                               : "non-rectangular: trip counts vary in sibling loops";
    return NULL;
}

/* Level k's trip count: a number, or a bounded nest's affine bound in the outer counters, levels from 1 ("i1+1",
 * "2*i1-i2"), with its largest. */
void proj_nest_trip_text(const edan_affine_nest *n, unsigned k, char *buf, size_t cap)
{
#define ADD(...) snprintf(buf + strlen(buf), cap - strlen(buf), __VA_ARGS__) /* after buf's text */
    if (n->trip[k] || !n->bounded) {
        ADD("%" PRIu64, n->trip[k]);
        return;
    }
    bool any = false;
    for (unsigned m = 0; m < k; m++) {
        const int64_t c = n->bound_stride[k][m];
        if (!c)
            continue;
        ADD("%s", c < 0 ? "-" : any ? "+" : "");
        if (c != 1 && c != -1)
            ADD("%" PRIu64 "*", c < 0 ? 0 - (uint64_t)c : (uint64_t)c);
        ADD("i%u", m + 1);
        any = true;
    }
    if (n->bound_base[k] || !any)
        ADD(any ? "%+" PRId64 : "%" PRId64, n->bound_base[k]);
    ADD(" (at most %" PRIu64 ")", n->extent[k]);
#undef ADD
}

/* "the store at stencils.c:52 (0x10a4c, nest #2)" */
static int access_name(proj_tool *t, const edan_affine *a, const edan_affine_insn *o, char *buf, size_t n)
{
    const int32_t nest = edan_affine_nests(a)[o->nest].loop[0];
    edan_srcloc loc = {0};
    if (t->src)
        edan_srcmap_lookup(t->src, o->insn->pc, &loc);
    const char *what = o->insn->mem == EDAN_MEM_LOAD ? "load" : "store";
    if (loc.file && loc.line)
        return snprintf(buf, n, "the %s at %s:%u (%#" PRIx64 ", nest #%d)", what, edan_srcmap_file_name(loc.file),
                        loc.line, o->insn->pc, nest);
    return snprintf(buf, n, "the %s at %#" PRIx64 " (nest #%d)", what, o->insn->pc, nest);
}

/* Why a result is illegal: the dependence it breaks and how. */
void proj_why_illegal(proj_tool *t, const edan_affine *a, const edan_whatif_conflict *c, edan_whatif_order order,
                      char *buf, size_t n)
{
    static const char *const kind[] = {"flow", "anti", "output"};
    const edan_affine_insn *in = edan_affine_insns(a);
    const edan_affine_nest *nest = edan_affine_nests(a);
    char src[160], snk[160], d[160] = "";
    access_name(t, a, &in[c->source], src, sizeof src);
    access_name(t, a, &in[c->sink], snk, sizeof snk);
    size_t at = 0;
    const uint64_t *trip = nest[in[c->source].nest].extent;
    for (unsigned k = 0; k < c->levels && at < sizeof d; k++) {
        const char *sep = k ? "," : "";
        if (c->lo[k] == c->hi[k])
            at += (size_t)snprintf(d + at, sizeof d - at, c->lo[k] ? "%s%+" PRId64 : "%s%" PRId64, sep, c->lo[k]);
        else if (c->lo[k] == -c->hi[k] && (uint64_t)c->hi[k] + 1 == trip[k])
            at += (size_t)snprintf(d + at, sizeof d - at, "%s*", sep);
        else
            at += (size_t)snprintf(d + at, sizeof d - at, "%s%" PRId64 "..%" PRId64, sep, c->lo[k], c->hi[k]);
    }
    const bool same = in[c->source].nest == in[c->sink].nest;
    const char *how = c->recomputed                ? "recomputing the halo on each block would change it"
                      : same                       ? "the tiling runs the sink's point first"
                      : order == EDAN_WHATIF_POINT ? "fused, the sink's point runs before the source's"
                                                   : "the blocks run the sink's point first";
    snprintf(buf, n, "%s dependence from %s to %s, distance (%s): %s", kind[c->kind], src, snk, d, how);
}
