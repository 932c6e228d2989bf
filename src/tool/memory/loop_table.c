/*
 * loop_table.c - the cells of a loop's and a static instruction's row
 * (loop_table.h).
 */
#include "tool/memory/loop_table.h"
#include "util/symbols/symbols.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

size_t edan_loop_cells(edan_table *t, edan_value *r, const edan_loop *l, const edan_loop_place *p, int64_t nest_loops)
{
    r[0].u = l->head;
    r[1].u = l->end;
    r[2].u = l->depth;
    r[3].u = l->back_edges;
    r[4].s = edan_table_str(t, p->function);
    r[5].s = edan_table_str(t, p->file);
    r[6].u = p->line;
    if (nest_loops < 0)
        return EDAN_LOOP_N_COLUMNS;
    r[7].u = (uint64_t)nest_loops;
    return EDAN_LOOP_N_COLUMNS + 1;
}

/* Text's name of a loop at place p: "file:line function (n)"; a copy t owns. */
static const char *loop_label(edan_table *t, const edan_loop_place *p, unsigned n)
{
    char name[1100];
    snprintf(name, sizeof name, "%s:%u %s (%u)", edan_srcmap_file_name(p->file), p->line,
             p->function ? p->function : "?", n);
    return edan_table_str(t, name);
}

edan_value *edan_loop_row(edan_table *t, const edan_loop *l, const edan_loop_place *p, int64_t nest_loops,
                          const void *s0, const void *s1)
{
    edan_value *r = edan_table_row_of(t, nest_loops >= 0 && nest_loops < 2 ? EDAN_NO_TEXT : 0, s0, s1);
    if (!r)
        return NULL;
    r[0].s = loop_label(t, p, nest_loops >= 0 ? (unsigned)nest_loops : l->depth);
    return r + 1 + edan_loop_cells(t, r + 1, l, p, nest_loops);
}

size_t edan_insn_cells(edan_table *t, edan_value *r, uint64_t pc, const char *function, const char *file, unsigned line)
{
    char name[1100];
    snprintf(name, sizeof name, "%" PRIx64 " %s %s:%u", pc, function ? function : "?", edan_srcmap_file_name(file),
             line);
    r[0].s = edan_table_str(t, name);
    r[1].u = pc;
    r[2].s = edan_table_str(t, function);
    r[3].s = edan_table_str(t, file);
    r[4].u = line;
    return 5;
}
