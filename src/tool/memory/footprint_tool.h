/*
 * footprint_tool.h - the footprint tool's state, shared by its two files:
 * footprint_tool.c (the stream, the tool) and footprint_view.c (the rows
 * it reports: the whole run, functions, threads, innermost loops, loop
 * nests). Private to the tool.
 */
#ifndef EDAN_TOOL_MEMORY_FOOTPRINT_TOOL_H
#define EDAN_TOOL_MEMORY_FOOTPRINT_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/loops/loops.h"
#include "report/table.h"
#include "tool/base/base.h"
#include "util/blocktab.h"
#include "util/keymap.h"
#include "util/symbols/symbols.h"

#define LINE 64u
#define ALL UINT32_MAX      /* the whole run's row */
#define UNKNOWN 0xfffffffeu /* an access from code outside every known function */
#define NO_LINE UINT64_MAX

typedef struct fp_total {
    uint64_t bytes, lines, accesses;
} fp_total;

/*
 * One static memory instruction as one vCPU (thread) executed it: the
 * "instruction" of the (line, instruction) pairs. A static instruction that
 * several vCPUs executed has one of these per vCPU, in a ring (`next`); the
 * rows of the whole run, functions and loops are unions over them, so they
 * are the same however the threads interleave, and a thread's row is the
 * union over its own.
 */
typedef struct fp_insn {
    uint64_t pc, accesses;
    uint64_t line, mask; /* its current line (NO_LINE: none) and the bytes it touched there, not yet stored */
    uint64_t entry;      /* where they go: the line's entry's index in `lines` (OTHER: a pair in `map`) */
    uint64_t ahead;      /* the line of its latest record looked up ahead (NO_LINE: none) */
    uint32_t fn;         /* function index, UNKNOWN without symbols or outside every function: set once the
                            stream is over (the shared objects are known then) */
    uint32_t next;       /* the next index of the same static instruction (another vCPU's; itself: none) */
    uint16_t vcpu;       /* the vCPU whose accesses these are */
} fp_insn;
#define OTHER UINT64_MAX

/*
 * A line's entry: the first instruction that touched it (index + 1; 0: none
 * yet) and the bytes it touched; shared once another instruction touched it
 * too (whose pair is in the map).
 */
typedef struct fp_line {
    uint32_t insn1, shared;
    uint64_t mask;
} fp_line;
#define LINE_LEAF_BITS 5 /* 32 lines of 16 bytes: leaves of 512 bytes */
#define HINT_AHEAD 32    /* records between a hint and the access it is for */

typedef struct footprint_tool {
    edan_blocktab lines; /* line -> fp_line */
    edan_keymap map;     /* (line, instruction index) -> mask of the line's bytes touched, but the line's first's */
    uint32_t *id_insn;   /* instruction index of static instruction id, +1 (0: not seen yet): the ring's
                            member of the vCPU that executed it last */
    size_t id_cap;
    fp_insn *insns;
    size_t n_insns, insns_cap;
    edan_elf elf;
    bool elf_open; /* the program's symbols were read (for the loops' tail-call test, as the reuse tool) */
    bool have_elf; /* and they are at the addresses traced (not a PIE): functions and source lines */
    bool named;    /* the shared objects' functions were added to elf, and each instruction's fn set */
    edan_loops *loops;
    edan_error err;
} footprint_tool;

/* The results the session renders and freeing them (footprint_view.c). */
int edan_footprint_results(void *tool, const edan_session *s, edan_tool_results *x);
void edan_footprint_free_results(void *own);
/* Its tables (footprint_view.c), ending with a {NULL} entry. */
extern const edan_table_decl edan_footprint_tables[];

#endif
