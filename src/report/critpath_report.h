/*
 * critpath_report.h - the critical path and the memory chain attributed to
 * functions and source lines (DWARF, through src/util/symbols/srcmap.h), like an
 * annotated profile: which lines make up the span and the memory depth.
 */
#ifndef EDAN_REPORT_CRITPATH_REPORT_H
#define EDAN_REPORT_CRITPATH_REPORT_H

#include <stdio.h>

#include "analysis/critpath/critpath.h"
#include "report/table.h"
#include "util/error.h"
#include "util/symbols/symbols.h"

/* The paths' tables (JSON: each path's object and its lines) and the CSV table of every path's lines. */
extern const edan_table_decl edan_critpath_tables[];

/*
 * The paths as text, or (json) as `,"critical_path":{...},"memory_chain":{...}` and with data
 * `,"data_critical_path":{...},"data_memory_chain":{...}` (no surrounding braces). binary may be NULL (then pcs
 * only); top = how many lines to list per path; data: the paths of the data eDAG (critpath.h), listed after cp's,
 * or NULL. Each line names what carries its links (via: registers, bytes).
 */
void edan_report_critpath(FILE *f, const edan_critpath *cp, const edan_critpath *data, const char *binary,
                          const edan_objmap *objects, int top, bool json);
/* --csv-dir: <base>-critical-path.csv, every line of every path (a column names the path). 0, or -1 with err.
 * objects (NULL: none): the shared objects the program mapped, named with their lines (edan_srcmap_add_objects). */
int edan_report_critpath_csv(const edan_critpath *cp, const edan_critpath *data, const char *binary,
                             const edan_objmap *objects, const char *dir, const char *base, edan_error *err);

#endif
