/*
 * critpath_report.h - the critical path and the memory chain attributed to
 * functions and source lines (DWARF, through src/util/srcmap.h), like an
 * annotated profile: which lines make up the span and the memory depth.
 */
#ifndef EDAN_REPORT_CRITPATH_REPORT_H
#define EDAN_REPORT_CRITPATH_REPORT_H

#include <stdio.h>

#include "analysis/critpath/critpath.h"

/* binary may be NULL (then pcs only); top = how many lines to list per path. */
void edan_report_critpath_text(FILE *f, const edan_critpath *cp, const char *binary, int top);
/* Writes `"critical_path":{...},"memory_chain":{...}` (no surrounding braces). */
void edan_report_critpath_json(FILE *f, const edan_critpath *cp, const char *binary, int top);

#endif
