/*
 * loop_table.h - the columns of a loop's row, declared once for every tool
 * whose result tables have rows per innermost loop or loop nest (footprint,
 * reuse, load classes): head, end, depth, iterations and the head's
 * function, file and line in JSON and CSV, a nest's loops after them, and
 * text's name for the row, "file:line function (depth)" (a nest: its
 * loops); and the cells of a static instruction's row (reuse, load classes).
 */
#ifndef EDAN_TOOL_MEMORY_LOOP_TABLE_H
#define EDAN_TOOL_MEMORY_LOOP_TABLE_H

#include "analysis/loops/loops.h"
#include "report/table.h"

#define EDAN_LOOP_TITLE "loop (head's line, function, depth)"
#define EDAN_NEST_TITLE "loop nest (head's line, function, loops)"

/* The seven columns of a loop's place and shape (not in text). */
#define EDAN_LOOP_COLUMNS                                                                                               \
    {"head", EDAN_T_U64, "address", "the loop's first instruction", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},         \
        {"end", EDAN_T_U64, "address", "the loop's last instruction", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},       \
        {"depth", EDAN_T_U64, "", "nesting depth (1: outermost)", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},           \
        {"iterations", EDAN_T_U64, "", "its back edges taken", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},              \
        {"function", EDAN_T_STR, "", "the head's function (null: unknown)", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL}, \
        {"file", EDAN_T_STR, "", "the head's source file (null: unknown)", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},  \
    {                                                                                                                   \
        "line", EDAN_T_U64, "", "the head's source line (0: unknown)", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL        \
    }
/* A loop nest's: the loop's, then how many loops it holds. */
#define EDAN_NEST_COLUMNS                                                                                              \
    EDAN_LOOP_COLUMNS,                                                                                                 \
    {                                                                                                                  \
        "loops", EDAN_T_U64, "", "the loops in the nest, itself included", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL   \
    }
#define EDAN_LOOP_N_COLUMNS 7

/*
 * Loop l's cells r[0 .. 7) at place p (strings copied into t), and with
 * nest_loops >= 0 a nest's loops in r[7]. The index of the next column.
 */
size_t edan_loop_cells(edan_table *t, edan_value *r, const edan_loop *l, const edan_loop_place *p, int64_t nest_loops);
/*
 * A new row of t for loop l at place p: text's name, "file:line function
 * (depth)", file without its directories, then loop l's cells; with
 * nest_loops >= 0 a nest's (its name's number its loops), left out of text
 * when it holds no other loop; its bound columns (EDAN_COL_OF) show the
 * members of s0 and s1 (edan_table_row_of). The cell after them, or NULL
 * when out of memory.
 */
edan_value *edan_loop_row(edan_table *t, const edan_loop *l, const edan_loop_place *p, int64_t nest_loops,
                          const void *s0, const void *s1);
/*
 * A static instruction's cells r[0 .. 5): text's name, "pc function
 * file:line" (file without its directories, "?" when unknown), then its pc,
 * function, file and line (copies t owns). 5.
 */
size_t edan_insn_cells(edan_table *t, edan_value *r, uint64_t pc, const char *function, const char *file,
                       unsigned line);

#endif
