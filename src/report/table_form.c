/*
 * table_form.c - the declared tables: text forms, a table of scalars as an object (table.h).
 */
#include "report/table.h"

#include <stdlib.h>
#include <string.h>

#include "report/table_internal.h"

/* ===================================================================== */
/* Absent objects and text forms (the prediction's section)            */
/* ===================================================================== */

/* The column keyed key[0 .. len) that text shows (else any so keyed), or -1. */
static int form_col(const edan_table *t, const char *key, size_t len)
{
    int any = -1;
    for (size_t c = 0; c < t->n_cols; c++)
        if (strlen(t->cols[c].key) == len && !strncmp(t->cols[c].key, key, len)) {
            if (!(t->cols[c].flags & EDAN_NO_TEXT))
                return (int)c;
            any = any < 0 ? (int)c : any;
        }
    return any;
}

/*
 * Row r through the form (table.h): the one template engine, also of the text
 * views' title and item (table_results.c). A key names the column text shows
 * (else any so keyed); a row the table lacks has zero values.
 */
void edan_table_form_fill(FILE *f, const edan_table *t, size_t r, const char *p, bool wide)
{
    bool line_started = false;
    while (*p) {
        const char *open = strpbrk(p, "{\n");
        if (!open) {
            fputs(p, f);
            return;
        }
        fwrite(p, 1, (size_t)(open - p), f);
        line_started |= open > p;
        if (*open == '\n') {
            fputc('\n', f);
            line_started = false;
            p = open + 1;
            continue;
        }
        if (!strncmp(open, "{;}", 3)) { /* the end of a condition's text that was kept */
            p = open + 3;
            continue;
        }
        const char *close = strchr(open, '}');
        if (!close) {
            fputs(open, f);
            return;
        }
        const bool test = open[1] == '?' || open[1] == '!';
        const char *key = open + 1 + test, *colon = memchr(key, ':', (size_t)(close - key));
        const int col = form_col(t, key, (size_t)((colon ? colon : close) - key));
        p = close + 1;
        if (col < 0) {
            fputs("{?}", f);
            line_started = true;
        } else if (!test) {
            edan_value tmp = {0};
            edan_column c = t->cols[col];
            if (colon) { /* {key:W} or {key:W.P}: this use's width (and precision) */
                char *end;
                c.width = (int)strtol(colon + 1, &end, 10);
                c.precision = *end == '.' ? atoi(end + 1) : c.precision;
            }
            if (edan_table_shown(t, r, &c.text))
                edan_table_text_cell(f, &c, r < t->n_rows ? edan_table_cell(t, r, (size_t)col, &tmp) : &tmp, wide);
            else
                fprintf(f, "%*s", c.width, "");
            line_started = true;
        } else if (edan_table_has(t, r, (size_t)col) != (open[1] == '?')) {
            const char *end = strchr(p, '\n'), *alt = strstr(p, "{;}"); /* the rest of the line left out */
            if (alt && (!end || alt < end))
                p = alt + 3;
            else
                p = end ? end + (line_started ? 0 : 1) : p + strlen(p);
        }
    }
}

void edan_table_form_row(FILE *f, const edan_table *t, size_t r, const char *form)
{
    if (r < t->n_rows && !(t->left[r] & EDAN_NO_TEXT))
        edan_table_form_fill(f, t, r, form, false);
}

void edan_table_form(FILE *f, const edan_table *t, const char *form)
{
    for (size_t r = 0; r < t->n_rows; r++)
        if (!(t->left[r] & EDAN_NO_TEXT))
            edan_table_form_fill(f, t, r, form, false);
}

void edan_table_json_object(FILE *f, const edan_table *t)
{
    const char *dot = strrchr(t->decl->path, '.');
    fprintf(f, ",\"%s\":{", dot ? dot + 1 : t->decl->path);
    edan_table_json(f, t, 0);
    fputc('}', f);
}
