/*
 * loop_table.c - the cells of a loop's row (loop_table.h).
 */
#include "tool/memory/loop_table.h"

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

const char *edan_loop_label(edan_table *t, const edan_loop_place *p, unsigned n)
{
    const char *base = p->file ? strrchr(p->file, '/') : NULL;
    char name[1100];
    snprintf(name, sizeof name, "%s:%u %s (%u)",
             base      ? base + 1
             : p->file ? p->file
                       : "?",
             p->line, p->function ? p->function : "?", n);
    return edan_table_str(t, name);
}
