/*
 * edag_rule.h - the eDAG rule: a vertex's finish time and memory depth from
 * its predecessors', defined once for every analysis that computes them (the
 * streaming analyzer's loops, edag.h, and the dependency tracker, deps.h).
 * Part of the edag contract (edag.h includes it).
 *
 * For a vertex v with predecessors u (docs/model.md):
 *   ready(v) = max F(u)                 0 for an input
 *   F(v)     = S(v) + t(v)              S(v) = ready(v) in the eDAG (a timing
 *                                       model may start v later, deps.h)
 *   md(v)    = max md(u) + [v counts]   v counts: a memory-access vertex (it
 *                                       reaches RAM) of the lane's scope
 *   t(v)     = alpha for a memory-access vertex, else its class's cost
 *
 * What varies between the analyses is what they feed the rule, not the
 * rule: which predecessors there are (false dependencies add the last
 * writer of a destination and the readers since, the loops fold the same
 * join over them), whether a vertex counts (a scoped lane counts only its
 * members), when it starts (the tracker's commit() takes a later start),
 * and whether the analysis also names the predecessor that gave the
 * maximum (the tracker's critical and deep predecessors, edan_rule_pick).
 *
 * Two forms from one definition, EDAN_RULE_FORM: the scalar one here, on
 * uint64_t (edan_rule_join() ...), and the lanes' one on vectors of 64-bit
 * lanes, edag_internal.h's lane_vec (edan_rule_join_vec() ...), which the
 * multi-lane sweep calls. A change of the model is a change here;
 * tests/edag_rule_test.py fails if the rule is written out elsewhere.
 */
#ifndef EDAN_ANALYSIS_EDAG_RULE_H
#define EDAN_ANALYSIS_EDAG_RULE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The rule's functions on values of type T, each named edan_rule_NAME##sfx.
 * MAX(a, b) is the larger of two values (lane by lane for vectors);
 * SELECT(m, a, b) is a where m is 1 and b where m is 0. mem is 1 for a
 * vertex that counts as a memory-access vertex, else 0 (per lane).
 */
#define EDAN_RULE_FORM(sfx, T, MAX, SELECT)                                                                            \
    /* one more predecessor's F (or md) joined into the ready time (or the depth) so far */                            \
    static inline __attribute__((always_inline)) T edan_rule_join##sfx(T so_far, T u)                                  \
    {                                                                                                                  \
        return MAX(so_far, u);                                                                                         \
    }                                                                                                                  \
    /* the writers of an instruction's (up to) three source registers: x0's state is 0, no predecessor */              \
    static inline __attribute__((always_inline)) T edan_rule_join3##sfx(T a, T b, T c)                                 \
    {                                                                                                                  \
        return edan_rule_join##sfx(edan_rule_join##sfx(a, b), c);                                                      \
    }                                                                                                                  \
    /* t(v): alpha for a memory-access vertex, else the cost of its class (cost.h) */                                  \
    static inline __attribute__((always_inline)) T edan_rule_cost##sfx(T mem, T alpha, T cls)                          \
    {                                                                                                                  \
        return SELECT(mem, alpha, cls);                                                                                \
    }                                                                                                                  \
    /* F(v) = S(v) + t(v) */                                                                                           \
    static inline __attribute__((always_inline)) T edan_rule_finish##sfx(T start, T cost)                              \
    {                                                                                                                  \
        return start + cost;                                                                                           \
    }                                                                                                                  \
    /* md(v) = max md(u) + [v counts] */                                                                               \
    static inline __attribute__((always_inline)) T edan_rule_depth##sfx(T md_in, T mem)                                \
    {                                                                                                                  \
        return md_in + mem;                                                                                            \
    }

#define EDAN_RULE_MAX(a, b) ((a) > (b) ? (a) : (b))
#define EDAN_RULE_SELECT(m, a, b) ((m) ? (a) : (b))
EDAN_RULE_FORM(, uint64_t, EDAN_RULE_MAX, EDAN_RULE_SELECT)

/*
 * The tracker's bookkeeping of which predecessor gave the maximum: the
 * critical one (crit: its F is ready(v)) and the deep one (deep: its md is
 * md_in(v)), each as index + 1 (by; 0: none). A candidate beats the best so
 * far when its value is larger, or equal and its vertex earlier, so the
 * choice does not depend on the order predecessors are looked at. A state
 * never written is all-zero (value 0, by 0: by - 1 is then the largest
 * index) and never beats; the best so far starts all-zero.
 */
typedef struct edan_rule_pick {
    uint64_t F, crit, md, deep;
} edan_rule_pick;

static inline bool edan_rule_beats(uint64_t x, uint64_t by, uint64_t best, uint64_t best_by)
{
    return x > best || (x == best && by - 1 < best_by - 1);
}

/* A predecessor by its finish time (the critical one), by its depth (the deep one), or both (its last writer). */
static inline void edan_rule_pick_F(edan_rule_pick *p, uint64_t F, uint64_t by)
{
    if (edan_rule_beats(F, by, p->F, p->crit)) {
        p->F = F;
        p->crit = by;
    }
}

static inline void edan_rule_pick_md(edan_rule_pick *p, uint64_t md, uint64_t by)
{
    if (edan_rule_beats(md, by, p->md, p->deep)) {
        p->md = md;
        p->deep = by;
    }
}

static inline void edan_rule_pick_write(edan_rule_pick *p, uint64_t F, uint64_t md, uint64_t by)
{
    edan_rule_pick_F(p, F, by);
    edan_rule_pick_md(p, md, by);
}

#endif
