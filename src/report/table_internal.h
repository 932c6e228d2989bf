/*
 * table_internal.h - what the renderer's files share (report/table.c,
 * table_results.c, table_form.c); no other file includes it: the contract of
 * the declared tables is report/table.h.
 */
#ifndef EDAN_REPORT_TABLE_INTERNAL_H
#define EDAN_REPORT_TABLE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/table.h"

/* The deepest JSON object path a table's keys or a tool's tables open. */
#define EDAN_TABLE_MAX_DEPTH 8

/* Row r's value of column col: its cell, or the member of the row's struct the column is bound to (in *tmp). */
const edan_value *edan_table_cell(const edan_table *t, size_t row, size_t col, edan_value *tmp);
/* Whether row r's cell of column col has a value: not zero, false, NULL, "", unset, NaN or omitted. */
bool edan_table_has(const edan_table *t, size_t r, size_t col);
/* Whether row r shows a cell that a format's as leaves empty when its `when` column has no value (table.h). */
bool edan_table_shown(const edan_table *t, size_t r, const edan_as *as);
/*
 * The order text (csv false) or CSV writes t's columns in (edan_as.at):
 * order[k] is the k-th column. The count of them, t->n_cols; 0 when it is
 * the declaration's (no column placed, or more than EDAN_MAX_PLACES columns).
 */
size_t edan_table_order(const edan_table *t, bool csv, unsigned char order[EDAN_MAX_PLACES]);
/* One cell as text shows it: the column's width, precision and flags (wide: names whole). */
void edan_table_text_cell(FILE *f, const edan_column *c, const edan_value *v, bool wide);
/* The length of the object path of key: up to its last '.' (0: a member of the row itself). */
size_t edan_table_parent_len(const char *key, size_t len);
/* The CSV header: the CSV keys of the columns CSV shows, comma-separated. */
void edan_table_csv_header(const edan_table *t, char *header, size_t size);
/*
 * Row r of t through a form (edan_table_form; row r absent: zero values),
 * each cell as text shows it (wide: names whole): text views' titles and items too.
 */
void edan_table_form_fill(FILE *f, const edan_table *t, size_t r, const char *form, bool wide);

#endif
