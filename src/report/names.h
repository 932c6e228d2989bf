/*
 * names.h - function names in text tables: shortened to a column's width by
 * what a reader can spare first, never cut in the middle of a word.
 */
#ifndef EDAN_REPORT_NAMES_H
#define EDAN_REPORT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * name shortened to at most width columns (a UTF-8 character a column) into
 * buf: as it is when it fits; else each parameter list's contents become
 * "…" ("f(Domain&, double)" -> "f(…)"); then each template's arguments
 * ("std::vector<int>" -> "std::vector<…>"); then the leading qualifiers
 * ("ns::Cls::f(…)" -> "…::f(…)"); then the text is cut before the last word
 * that does not fit and "…" appended. A single word wider than the column is
 * the only text cut inside a word (its first width - 1 columns and "…").
 * Returns the columns of buf. cap >= 4 * width + 4 is always enough.
 */
size_t edan_name_shorten(const char *name, size_t width, char *buf, size_t cap);

/*
 * A table's name column: name shortened to width (unless wide, then whole)
 * and padded with spaces to width columns.
 */
void edan_name_field(FILE *f, const char *name, size_t width, bool wide);

#endif
