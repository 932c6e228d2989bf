/*
 * loops.h - loops found at run time from taken backward branches, and the
 * innermost loop of every static instruction.
 *
 *   l = edan_loops_new(elf);                      elf: the program's symbols, or NULL
 *   edan_loops_observe(l, recs, n);               every batch, in trace order
 *   edan_loops_index(l);                          after the stream (or whenever lookups follow discoveries)
 *   edan_loops_innermost(l, pc)                   -> loop id, or -1
 *
 * Definitions:
 *   - a back edge is a branch at pc whose static target t is at or below pc
 *     (a conditional branch, or a jal that is not a call), seen taken: the
 *     next record of the same vCPU is at t. A jal's back edge counts only
 *     when t lies in the same function as the jal (when the symbols are
 *     known), so a tail call to a function at a lower address is no loop.
 *   - a loop is the static range [head, end]: head the target of its back
 *     edges, end the highest pc of a back-edge branch to that head. Back
 *     edges to one head (a loop with `continue`s) are one loop.
 *   - the innermost loop of a pc is the shortest loop whose range holds it
 *     (on a tie, the one with the higher head, then the lower id). Ranges
 *     usually nest; when two overlap without nesting, this rule still gives
 *     each pc one loop.
 *   - a loop's parent is the shortest other loop whose range holds its
 *     whole range; depth 1 is an outermost loop.
 *
 * Ids are assigned in the order loops are discovered (a back edge to a new
 * head first taken) and never change; a later back edge to the same head may
 * extend the loop's end. Attribution is per static instruction, by pc, from
 * the loops known when it is asked for: after the stream that is every loop,
 * so the first iteration of a loop, executed before its back edge was first
 * taken, belongs to the loop as much as the others.
 *
 * The stream side costs a table lookup and a compare per record; memory grows
 * only with new static instructions and new loops, never per record.
 */
#ifndef EDAN_ANALYSIS_LOOPS_H
#define EDAN_ANALYSIS_LOOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/exec.h"
#include "util/symbols/symbols.h"

typedef struct edan_loop {
    uint64_t head;       /* the loop's first address: the target of its back edges */
    uint64_t end;        /* its last address: the highest pc of a back-edge branch to head */
    uint64_t back_edges; /* back edges taken (each starts another iteration) */
    uint32_t branches;   /* static back-edge branches to head */
    int32_t parent;      /* after edan_loops_index(): the enclosing loop, -1 for none */
    uint32_t depth;      /* after edan_loops_index(): 1 for an outermost loop */
} edan_loop;

typedef struct edan_loops edan_loops;

/* A finder; elf (may be NULL) must outlive it. NULL when out of memory. */
edan_loops *edan_loops_new(const edan_elf *elf);
void edan_loops_free(edan_loops *l);

/* Records in trace order. 0, or -1 once out of memory (nothing more is discovered). */
int edan_loops_observe(edan_loops *l, const edan_exec *recs, size_t n);

/*
 * A number that grows whenever a loop is discovered or a loop's end moves
 * up, the only ways the loops holding a pc change (a head never moves): a
 * consumer that attributes records as they come (the load-classes tool's
 * windows per loop) re-reads the ranges when it has moved. Observing records
 * one at a time gives the same discoveries as any batching;
 * edan_loops_observe_until_change observes records until the version moves
 * (at the record that was the target of a new back edge, which is where the
 * loop becomes known), and sets *observed to how many it observed: the
 * records before the last one observed saw the old loops. 0, or -1 once out
 * of memory.
 */
uint64_t edan_loops_version(const edan_loops *l);
int edan_loops_observe_until_change(edan_loops *l, const edan_exec *recs, size_t n, size_t *observed);

/* Loops discovered so far; loop id < count. */
uint32_t edan_loops_count(const edan_loops *l);
const edan_loop *edan_loops_get(const edan_loops *l, uint32_t id);

/*
 * The index of the loops discovered so far: parents, depths and the map from
 * pc to innermost loop. 0, or -1 when out of memory.
 */
int edan_loops_index(edan_loops *l);

/* The innermost loop holding pc, or -1 (a binary search when the index is current, a scan otherwise). */
int32_t edan_loops_innermost(const edan_loops *l, uint64_t pc);

/*
 * A loop nest: a loop with the loops inside it, the instructions whose pc
 * lies in the loop's range [head, end] (for loops whose ranges nest, as a
 * program's do, the loop's own instructions and those of the loops whose
 * parent chain leads to it). edan_loops_holding writes the ids of the loops
 * whose range holds pc, in increasing order, into out (at most cap of them)
 * and returns their number; the nests pc is in. edan_loops_inside is the
 * number of loops in loop id's nest, itself included (their ranges lie
 * within its range).
 */
size_t edan_loops_holding(const edan_loops *l, uint64_t pc, uint32_t *out, size_t cap);
uint32_t edan_loops_inside(const edan_loops *l, uint32_t id);

/*
 * The rows of a report that static instructions count in, made at report time
 * for tools that keep their counts per instruction: instruction i's rows are
 * group[at[i] .. at[i + 1]). EDAN_ROWS_ONE: the row row(ctx, i) gives, or none
 * when it is negative (the whole run, a function, a thread); EDAN_ROWS_LOOP:
 * the innermost loop holding pc(ctx, i), by loop id, or none; EDAN_ROWS_NEST:
 * every loop whose range holds it (the nests it is in). row or pc may be NULL
 * where the kind does not call it. False when out of memory (g then holds
 * nothing to free).
 */
typedef enum { EDAN_ROWS_ONE, EDAN_ROWS_LOOP, EDAN_ROWS_NEST } edan_rows_kind;
typedef struct edan_insn_rows {
    uint32_t *at, *group;
} edan_insn_rows;
bool edan_insn_rows_make(edan_insn_rows *g, const edan_loops *l, edan_rows_kind kind, size_t n,
                         uint64_t (*pc)(const void *ctx, size_t i), int64_t (*row)(const void *ctx, size_t i),
                         const void *ctx);
void edan_insn_rows_free(edan_insn_rows *g);

/* Where a loop is: the function holding its head and the source line of the head. */
typedef struct edan_loop_place {
    const char *function; /* NULL when unknown */
    const char *file;     /* NULL when unknown */
    unsigned line;        /* 0 when unknown */
} edan_loop_place;

/* elf and src may be NULL; strings live as long as elf and src. */
edan_loop_place edan_loops_place(const edan_loops *l, uint32_t id, const edan_elf *elf, edan_srcmap *src);

#endif
