/*
 * table_results.c - the declared tables: a tool's tables rendered together, CSV files at a path (table.h).
 */
#include "report/table.h"

#include <string.h>

#include "report/csv.h"
#include "report/table_internal.h"

/* ===================================================================== */
/* A tool's results: its tables rendered together                         */
/* ===================================================================== */

/* The rows text shows as items of v->item, v->per_line a line. */
static void text_items(FILE *f, const edan_table *t, const edan_text_view *v)
{
    size_t n = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        if (t->left[r] & EDAN_NO_TEXT)
            continue;
        if (!n || (v->per_line && n % v->per_line == 0))
            fprintf(f, "%s%s", n ? "\n" : "", v->indent ? v->indent : "  ");
        else
            fputs(", ", f);
        edan_table_form_fill(f, t, r, v->item, v->wide);
        n++;
    }
    if (n)
        fputc('\n', f);
}

void edan_results_text(FILE *f, const edan_result *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const edan_table *t = r[i].t;
        const edan_text_view *v = &r[i].view;
        if (r[i].left & EDAN_NO_TEXT)
            continue;
        if (v->title) {
            edan_table_form_fill(f, t, 0, v->title, v->wide);
            fputc('\n', f);
        }
        if (t->decl->scalars)
            continue;
        if (v->item) {
            text_items(f, t, v);
            continue;
        }
        size_t shown = 0;
        for (size_t k = 0; k < t->n_rows; k++)
            shown += !(t->left[k] & EDAN_NO_TEXT);
        if (v->caption && (shown || v->heading_always) && shown >= v->min_rows)
            fprintf(f, "%s\n", v->caption);
        edan_table_text(f, t, v);
    }
}

/* Whether a table of scalars writes a member: a column JSON shows. */
static bool json_any(const edan_table *t)
{
    for (size_t c = 0; c < t->n_cols; c++)
        if (!(t->cols[c].flags & EDAN_NO_JSON) && !(c < 64 && (t->omit >> c & 1)))
            return true;
    return false;
}

void edan_results_json(FILE *f, const edan_result *r, size_t n)
{
    const char *open = ""; /* the objects open: open[0 .. len), depth of them */
    size_t len = 0;
    int depth = 0;
    bool first[EDAN_TABLE_MAX_DEPTH + 1] = {false}; /* the top level's members all follow others: ,"key" */
    for (size_t i = 0; i < n; i++) {
        const edan_table_decl *d = r[i].t->decl;
        if ((r[i].left & EDAN_NO_JSON) || d->csv_only)
            continue;
        const size_t plen = strlen(d->path), obj = d->scalars ? plen : edan_table_parent_len(d->path, plen);
        while (depth && !(len <= obj && !strncmp(open, d->path, len) && (obj == len || d->path[len] == '.'))) {
            fputc('}', f);
            len = edan_table_parent_len(open, len);
            depth--;
        }
        while (len < obj && depth < EDAN_TABLE_MAX_DEPTH) {
            const size_t from = len ? len + 1 : 0;
            const char *dot = memchr(d->path + from, '.', obj - from);
            const size_t end = dot ? (size_t)(dot - d->path) : obj;
            fprintf(f, "%s\"%.*s\":{", first[depth] ? "" : ",", (int)(end - from), d->path + from);
            first[depth++] = false;
            first[depth] = true;
            open = d->path;
            len = end;
        }
        if (d->scalars) {
            if (!json_any(r[i].t))
                continue;
            if (!first[depth])
                fputc(',', f);
            edan_table_json(f, r[i].t, 0);
        } else {
            fprintf(f, "%s\"%s\":", first[depth] ? "" : ",", d->path + (obj ? obj + 1 : 0));
            if (r[i].absent)
                fputs("null", f);
            else
                edan_table_json(f, r[i].t, r[i].json_rows);
        }
        first[depth] = false;
    }
    for (; depth; depth--)
        fputc('}', f);
}

int edan_results_csv(const edan_result *r, size_t n, const char *dir, const char *base, edan_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (!(r[i].left & EDAN_NO_CSV) && r[i].t->decl->csv && edan_table_csv(r[i].t, dir, base, err))
            return -1;
    return 0;
}

/* ===================================================================== */
/* CSV files a tool's option names                                        */
/* ===================================================================== */

int edan_table_csv_open(edan_csv *c, const edan_table *t, const char *path, const char *what, edan_error *err)
{
    char header[2048];
    edan_table_csv_header(t, header, sizeof header);
    return edan_csv_open_path(c, path, what, header, err);
}

int edan_table_csv_at(const edan_table *t, const char *path, const char *what, edan_error *err)
{
    edan_csv csv;
    if (edan_table_csv_open(&csv, t, path, what, err))
        return -1;
    edan_table_csv_rows(&csv, t);
    return edan_csv_close(&csv, err);
}

void edan_table_clear(edan_table *t)
{
    t->n_rows = 0;
}
