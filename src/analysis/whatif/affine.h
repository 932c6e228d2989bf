/*
 * affine.h - affine access functions of loop nests, recovered from the trace.
 *
 *   a = edan_affine_new(loops);                   loops: the finder the stream also feeds
 *   edan_loops_observe(loops, recs, n);           every batch, first,
 *   edan_affine_observe(a, recs, n);              then the same batch
 *   edan_affine_finish(a);                        after the stream
 *   edan_affine_nests(a), edan_affine_insns(a)    the nests and their memory instructions
 *
 * Definitions:
 *   - the loops active at a record are kept on a stack: a loop is entered
 *     when its head runs while it is not active (its counter set to 0, or
 *     to 1 when the head was reached by a backward transfer from inside its
 *     range: the back edge that made the loop known), counts one more
 *     iteration when its head runs while it is active (the loops above it
 *     leave), and leaves when a record of its function (the same call
 *     depth) lies outside its range [head, end] or its function returns.
 *     Only the first vCPU's records are followed (the main thread).
 *   - a memory access's context is the active loops of its own function,
 *     outermost first (at most EDAN_AFFINE_LEVELS), and its iteration
 *     vector their counters. Its nest is the context's outermost loop. An
 *     access made in a function called from inside a nest is the nest's,
 *     counted apart (in_calls): it has no access function here.
 *   - a static memory instruction is affine when every access it made in
 *     its last context satisfies addr = base + sum_k stride[k] * i[k]:
 *     checked between consecutive accesses, each difference of addresses
 *     equal to the strides times the difference of iteration vectors, a
 *     stride learnt at the first access that moves its level alone among
 *     the unknown ones. By induction every access of the context then lies
 *     on the function. It is not affine when a difference contradicts the
 *     strides, when two unknown strides move at once and never get
 *     separated, or when a level with more than one iteration never moved
 *     between its accesses (it ran in some iterations only). A change of
 *     context (the loop around it discovered late, a function run from two
 *     nests) starts the fit again: the accesses before count as warm-up.
 *   - the nests are the outermost loops of the instructions' last contexts;
 *     an instruction's accesses are all its nest's (its warm-up too).
 *   - a loop's trip count per entry is its counter + 1 when it leaves; a
 *     nest is rectangular when every loop's trip count (every loop of its
 *     instructions' contexts) is the same at every entry.
 *   - a loop's trip count is also fitted, as an access's address is, to
 *     t = base + sum_m stride[m] * i[m] over the counters of the loops
 *     around it in its function, at each exit: a non-rectangular nest
 *     (one chain, or a tree) whose varying loops all fit, each over more
 *     exits than it has unknowns and over the loops of its path, is
 *     bounded (triangular: for j < i; a sibling inner loop for j <= i). A level not entered at some outer point (a trip
 * of 0) makes no exit there.
 *   - a nest's contexts form a chain when each is a prefix of the deepest
 *     one, else a tree when every loop in them has one parent (the loop
 *     before it in every context holding it): sibling inner loops, as a
 *     body with two inner loops, or GCC's unrolled loop and its remainder.
 *
 * The stream costs a stack check and, per memory access, a fixed amount of
 * arithmetic over the levels; memory grows only with static instructions
 * and loops, never per record.
 */
#ifndef EDAN_ANALYSIS_AFFINE_H
#define EDAN_ANALYSIS_AFFINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/loops/loops.h"
#include "trace/exec.h"

#define EDAN_AFFINE_LEVELS 6 /* loops of one context whose counters are followed */

/* A static memory instruction of a nest and its access function. */
typedef struct edan_affine_insn {
    const edan_insn *insn;
    uint32_t id;                        /* the static instruction id */
    uint32_t nest;                      /* index into edan_affine_nests() */
    unsigned levels;                    /* loops of its context (a prefix of its nest's chain when on it) */
    int32_t loop[EDAN_AFFINE_LEVELS];   /* the context's loop ids, outermost first */
    bool affine;                        /* see above */
    bool on_chain;                      /* its context is a prefix of its nest's deepest context */
    int64_t base;                       /* the address at iteration vector 0 */
    int64_t stride[EDAN_AFFINE_LEVELS]; /* bytes per iteration of each level (0 when it never moved) */
    uint64_t trip[EDAN_AFFINE_LEVELS];  /* its context's loops' trip counts per entry; 0 when one varied */
    uint64_t accesses;                  /* all its accesses */
    uint64_t fitted;                    /* of those, the ones in its last context */
} edan_affine_insn;

/* A loop nest: an outermost loop of the contexts seen, and the chain of loops of its deepest context. */
typedef struct edan_affine_nest {
    int32_t loop[EDAN_AFFINE_LEVELS]; /* the chain, outermost first */
    unsigned levels;
    uint64_t trip[EDAN_AFFINE_LEVELS]; /* each level's trip count per entry; 0 when it varied */
    uint64_t entries;                  /* entries of the outermost loop */
    uint64_t accesses;                 /* accesses made in its own function by its instructions (warm-up too) */
    uint64_t nonaffine_accesses;       /* of those, by instructions not affine */
    uint64_t in_calls;                 /* accesses made in functions it called */
    bool single_chain;                 /* every instruction's context is a prefix of the chain */
    bool tree;                         /* else: the contexts form a tree (each loop one parent: sibling loops) */
    bool rectangular;                  /* every loop's trip count constant (each loop of the tree) */
    bool bounded; /* not rectangular, each varying loop's trip count affine in the counters of the loops around it
                     (a triangular nest): bound_base + bound_stride . i along the chain; a tree's other loops:
                     edan_affine_loop_bound */
    uint64_t extent[EDAN_AFFINE_LEVELS];                          /* each level's largest trip count */
    int64_t bound_base[EDAN_AFFINE_LEVELS];                       /* where trip[k] is 0 and bounded */
    int64_t bound_stride[EDAN_AFFINE_LEVELS][EDAN_AFFINE_LEVELS]; /* [k][m]: per iteration of outer level m < k */
    size_t first, n; /* its instructions: edan_affine_insns()[first .. first + n), by pc */
} edan_affine_nest;

typedef struct edan_affine edan_affine;

/* A tracker over loops (which must outlive it); NULL when out of memory. */
edan_affine *edan_affine_new(const edan_loops *loops);
void edan_affine_free(edan_affine *a);

/* A batch, after edan_loops_observe has seen it. 0, or -1 once out of memory. */
int edan_affine_observe(edan_affine *a, const edan_exec *recs, size_t n);

/* After the stream: the nests in order of their first access, their instructions. 0, or -1 (out of memory). */
int edan_affine_finish(edan_affine *a);
size_t edan_affine_n_nests(const edan_affine *a);
const edan_affine_nest *edan_affine_nests(const edan_affine *a);
const edan_affine_insn *edan_affine_insns(const edan_affine *a);

/* Loop id's trip count fitted as base + stride . i over the counters of the loops outer[0 .. k) around it (its path,
 * outermost first), *max its largest: false when it does not fit (or was not fitted over those loops). */
bool edan_affine_loop_bound(const edan_affine *a, int32_t loop, const int32_t *outer, unsigned k, int64_t *base,
                            int64_t *stride, uint64_t *max);

/* A nest can be replayed (what-ifs): rectangular, one chain or a tree, or bounded; every access affine, none in
 * calls. */
bool edan_affine_nest_exact(const edan_affine_nest *n);

#endif
