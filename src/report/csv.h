/*
 * csv.h - tables as CSV files (--csv-dir): RFC 4180 quoting, one header
 * row, written under a temporary name and renamed when complete, so a
 * failed run leaves no half-written table under the final name.
 */
#ifndef EDAN_REPORT_CSV_H
#define EDAN_REPORT_CSV_H

#include <stdint.h>
#include <stdio.h>

#include "util/error.h"
#include "util/files.h"

typedef struct edan_csv {
    FILE *f;
    int fields; /* fields written in the current row */
    char path[1200];
    edan_output out; /* util/files.h: a temporary renamed into place by edan_csv_close */
} edan_csv;

/*
 * Into dir (made if missing): <name>-<table>.csv with the header row
 * (comma-separated column names). 0, or -1 with err naming the file.
 */
int edan_csv_open(edan_csv *c, const char *dir, const char *name, const char *table, const char *header,
                  edan_error *err);
/* At path, a file an option names (what: the option, for errors), with the header row. 0, or -1 with err. */
int edan_csv_open_path(edan_csv *c, const char *path, const char *what, const char *header, edan_error *err);
/* A field: text (quoted when it holds a comma, a quote or a line break; a byte that is not UTF-8 becomes U+FFFD,
 * as in the JSON report; NULL is empty), or a number. */
void edan_csv_str(edan_csv *c, const char *s);
/* The same field quoted whatever it holds. */
void edan_csv_quoted(edan_csv *c, const char *s);
/* The same field's text alone, for a CSV file written without an edan_csv (no separator). */
void edan_csv_text(FILE *f, const char *s);
void edan_csv_u64(edan_csv *c, uint64_t v);
void edan_csv_num(edan_csv *c, double v);
/* The end of a row. */
void edan_csv_end_row(edan_csv *c);
/* Close and rename into place: 0, or -1 with err (a write failed: nothing is left). */
int edan_csv_close(edan_csv *c, edan_error *err);

#endif
