/*
 * table.c - tables of typed rows as text, JSON and CSV (table.h); a tool's
 * tables together in table_results.c, text forms in table_form.c.
 */
#include "report/table.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/csv.h"
#include "report/json.h"
#include "report/names.h"
#include "report/table_internal.h"

/* ===================================================================== */
/* Rows                                                                   */
/* ===================================================================== */

void edan_table_init(edan_table *t, const edan_table_decl *decl)
{
    memset(t, 0, sizeof *t);
    t->decl = decl;
    t->cols = decl->cols;
    t->n_cols = decl->n_cols;
}

int edan_table_init_cols(edan_table *t, const edan_table_decl *decl, const edan_column *cols, size_t n)
{
    edan_table_init(t, decl);
    size_t k = 0;
    for (size_t c = 0; c < n; c++) {
        if (cols[c].flags & EDAN_NO_JSON)
            continue;
        while (k < decl->n_cols && (decl->cols[k].flags & EDAN_NO_JSON))
            k++;
        if (k == decl->n_cols || strcmp(decl->cols[k].key, cols[c].key) || decl->cols[k].type != cols[c].type) {
            t->failed = true;
            return -1;
        }
        k++;
    }
    while (k < decl->n_cols && (decl->cols[k].flags & EDAN_NO_JSON))
        k++;
    if (k != decl->n_cols) {
        t->failed = true;
        return -1;
    }
    t->cols = cols;
    t->n_cols = n;
    return 0;
}

void edan_table_free(edan_table *t)
{
    for (size_t i = 0; i < t->n_owned; i++)
        free(t->owned[i]);
    free(t->owned);
    free(t->cells);
    free(t->src);
    free(t->left);
    memset(t, 0, sizeof *t);
}

edan_value *edan_table_row_of(edan_table *t, unsigned left, const void *s0, const void *s1)
{
    const size_t nc = t->n_cols;
    if (t->n_rows == t->cap) {
        const size_t cap = t->cap ? 2 * t->cap : 16;
        edan_value *cells = realloc(t->cells, cap * nc * sizeof *cells);
        if (cells)
            t->cells = cells;
        const void **src = cells ? realloc(t->src, cap * EDAN_ROW_SOURCES * sizeof *src) : NULL;
        if (src)
            t->src = src;
        unsigned char *l = src ? realloc(t->left, cap) : NULL;
        if (!l) {
            t->failed = true;
            return NULL;
        }
        t->left = l;
        t->cap = cap;
    }
    edan_value *r = &t->cells[t->n_rows * nc];
    memset(r, 0, nc * sizeof *r);
    t->src[t->n_rows * EDAN_ROW_SOURCES] = s0;
    t->src[t->n_rows * EDAN_ROW_SOURCES + 1] = s1;
    t->left[t->n_rows++] = (unsigned char)left;
    return r;
}

edan_value *edan_table_row(edan_table *t, unsigned left)
{
    return edan_table_row_of(t, left, NULL, NULL);
}

int edan_table_rows_of(edan_table *t, const void *rows, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i++)
        if (!edan_table_row_of(t, 0, (const char *)rows + i * size, NULL))
            return -1;
    return 0;
}

int edan_table_of(edan_table *t, const edan_table_decl *decl, const void *rows, size_t n, size_t size)
{
    edan_table_init(t, decl);
    return edan_table_rows_of(t, rows, n, size);
}

const char *edan_table_str(edan_table *t, const char *s)
{
    if (!s)
        return NULL;
    if (t->n_owned == t->owned_cap) {
        const size_t cap = t->owned_cap ? 2 * t->owned_cap : 16;
        char **o = realloc(t->owned, cap * sizeof *o);
        if (!o) {
            t->failed = true;
            return NULL;
        }
        t->owned = o;
        t->owned_cap = cap;
    }
    char *c = strdup(s);
    if (!c)
        t->failed = true;
    else
        t->owned[t->n_owned++] = c;
    return c;
}

int edan_table_omit(edan_table *t, const char *key)
{
    const int c = edan_table_col(t->cols, t->n_cols, key);
    if (c < 0 || c >= 64 || !(t->cols[c].flags & EDAN_COL_OPTIONAL))
        return -1;
    t->omit |= (uint64_t)1 << c;
    return 0;
}

int edan_table_omit_group(edan_table *t, const char *key)
{
    if (edan_table_omit(t, key))
        return -1;
    const size_t len = strlen(key);
    for (size_t c = 0; c < t->n_cols && c < 64; c++)
        if (!strncmp(t->cols[c].key, key, len) && t->cols[c].key[len] == '.')
            t->omit |= (uint64_t)1 << c;
    return 0;
}

int edan_table_col(const edan_column *cols, size_t n, const char *key)
{
    for (size_t c = 0; c < n; c++)
        if (!strcmp(cols[c].key, key))
            return (int)c;
    return -1;
}

/* Whether a column shows in text (EDAN_NO_TEXT) or CSV (EDAN_NO_CSV): arrays and groups never do. */
static bool shows(const edan_table *t, size_t col, unsigned format)
{
    const edan_column *c = &t->cols[col];
    return !(c->flags & format) && !(col < 64 && (t->omit >> col & 1)) && c->type != EDAN_T_U64S &&
           c->type != EDAN_T_F64S && c->type != EDAN_T_GROUP && c->type != EDAN_T_ROWS && c->type != EDAN_T_NAMED &&
           c->type != EDAN_T_I64S && c->type != EDAN_T_STRS;
}

/* An array member's cell (EDAN_COL_ARRAY): the array where it is, its length from its length's member. */
static void array_cell(const char *s, const edan_field *f, const void *m, edan_value *tmp)
{
    const void *count = s + f->count_offset;
    size_t n = 0;
    if (f->count_ctype == EDAN_F_U64)
        memcpy(&n, count, sizeof n);
    else if (f->count_ctype == EDAN_F_U32)
        n = *(const uint32_t *)count;
    else
        n = (size_t)(*(const int32_t *)count > 0 ? *(const int32_t *)count : 0);
    if (f->ctype == EDAN_F_U64S) {
        tmp->a.v = m;
        tmp->a.n = n;
        tmp->a.stride = f->stride;
    } else if (f->ctype == EDAN_F_F64S) {
        tmp->d.v = m;
        tmp->d.n = n;
        tmp->d.stride = f->stride;
    } else if (f->ctype == EDAN_F_I64S) {
        tmp->ia.v = m;
        tmp->ia.n = n;
    } else {
        tmp->strs.v = m;
        tmp->strs.n = n;
    }
}

/* Row r's value of column col: its cell, or the member of the row's struct the column is bound to (in *tmp). */
const edan_value *edan_table_cell(const edan_table *t, size_t row, size_t col, edan_value *tmp)
{
    const edan_column *c = &t->cols[col];
    const char *s = c->field.ctype ? t->src[row * EDAN_ROW_SOURCES + c->field.source] : NULL;
    if (!s)
        return &t->cells[row * t->n_cols + col];
    const void *m = s + c->field.offset;
    memset(tmp, 0, sizeof *tmp);
    switch ((edan_ctype)c->field.ctype) {
    case EDAN_F_U64:
        memcpy(&tmp->u, m, sizeof(uint64_t));
        break;
    case EDAN_F_U32:
        tmp->u = *(const uint32_t *)m;
        break;
    case EDAN_F_I64:
        memcpy(&tmp->i, m, sizeof(int64_t));
        break;
    case EDAN_F_I32:
        tmp->i = *(const int32_t *)m;
        break;
    case EDAN_F_F64:
        memcpy(&tmp->f, m, sizeof(double));
        break;
    case EDAN_F_PSTR:
        memcpy(&tmp->s, m, sizeof(const char *));
        break;
    case EDAN_F_ASTR:
        tmp->s = m;
        break;
    case EDAN_F_BOOL:
        tmp->b = *(const bool *)m;
        break;
    case EDAN_F_ROWS:
        memcpy(&tmp->rows, m, sizeof(const edan_table *));
        break;
    case EDAN_F_U64S:
    case EDAN_F_F64S:
    case EDAN_F_I64S:
    case EDAN_F_STRS:
        array_cell(s, &c->field, m, tmp);
        break;
    case EDAN_F_CELL:
        break;
    }
    return tmp;
}

/* Whether row r's cell of column col has a value: not zero, false, NULL, "", unset, NaN or omitted. */
bool edan_table_has(const edan_table *t, size_t r, size_t col)
{
    if ((col < 64 && (t->omit >> col & 1)) || r >= t->n_rows)
        return false;
    edan_value tmp;
    const edan_value *v = edan_table_cell(t, r, col, &tmp);
    switch (t->cols[col].type) {
    case EDAN_T_U64:
        return v->u != 0;
    case EDAN_T_I64:
        return v->i != 0;
    case EDAN_T_F64:
        return v->f != 0 && !isnan(v->f);
    case EDAN_T_STR:
        return v->s && *v->s;
    case EDAN_T_BOOL:
        return v->b;
    case EDAN_T_OPT_U64:
        return v->opt.set;
    case EDAN_T_U64S:
        return v->a.n != 0;
    case EDAN_T_F64S:
        return v->d.n != 0;
    case EDAN_T_I64S:
        return v->ia.n != 0;
    case EDAN_T_STRS:
        return v->strs.n != 0;
    case EDAN_T_GROUP: /* its cell, or its bool member (the rest of the value zero) */
        return v->u != 0;
    default:
        return v->rows != NULL;
    }
}

bool edan_table_shown(const edan_table *t, size_t r, const edan_as *as)
{
    const int c = as->when ? edan_table_col(t->cols, t->n_cols, as->when) : -1;
    return !as->when || (c >= 0 && edan_table_has(t, r, (size_t)c));
}

size_t edan_table_order(const edan_table *t, bool csv, unsigned char order[EDAN_MAX_PLACES])
{
    size_t n = 0, placed = 0;
    for (size_t c = 0; c < t->n_cols; c++)
        placed += (csv ? t->cols[c].csv.at : t->cols[c].text.at) != 0;
    if (!placed || t->n_cols > EDAN_MAX_PLACES)
        return 0;
    for (unsigned at = 1; at <= EDAN_MAX_PLACES && n < placed; at++) /* the placed ones, by place */
        for (size_t c = 0; c < t->n_cols; c++)
            if ((csv ? t->cols[c].csv.at : t->cols[c].text.at) == at)
                order[n++] = (unsigned char)c;
    for (size_t c = 0; c < t->n_cols; c++) /* then the others, in order */
        if (!(csv ? t->cols[c].csv.at : t->cols[c].text.at))
            order[n++] = (unsigned char)c;
    return n;
}

/* Element i of an array of counts: a C array's, or one every stride bytes (EDAN_COL_EACH). */
static uint64_t u64_at(const edan_value *v, size_t i)
{
    uint64_t x;
    memcpy(&x, (const char *)v->a.v + i * (v->a.stride ? v->a.stride : sizeof x), sizeof x);
    return x;
}

/* An F64 as a format shows it: value * mul / div (edan_as), a value that is not finite as it is. */
static double scaled(const edan_as *as, double v)
{
    if (!isfinite(v) || (!as->mul && !as->div))
        return v;
    return v * (as->mul ? as->mul : 1) / (as->div ? as->div : 1);
}

/* ===================================================================== */
/* Not applicable                                                         */
/* ===================================================================== */

#define NA_BITS 0x7ff80000000007a2ull /* a quiet NaN, payload 1954 (R's) */

double edan_na(void)
{
    const uint64_t bits = NA_BITS;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

bool edan_is_na(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits == NA_BITS;
}

/* A cell without a value in its row (edan_na). */
static bool blank_cell(const edan_column *c, const edan_value *v)
{
    return c->type == EDAN_T_F64 && edan_is_na(v->f);
}

/* ===================================================================== */
/* Text                                                                   */
/* ===================================================================== */

void edan_table_text_cell(FILE *f, const edan_column *c, const edan_value *v, bool wide)
{
    edan_value sv;
    if (c->type == EDAN_T_F64) { /* in text's unit */
        sv.f = scaled(&c->text, v->f);
        v = &sv;
    }
    if (blank_cell(c, v)) {
        fprintf(f, "%*s", c->width, "");
        return;
    }
    switch (c->type) {
    case EDAN_T_U64:
        if ((c->flags & EDAN_COL_ZERO_DASH) && !v->u) {
            fprintf(f, "%*s", c->width, "-");
            break;
        }
        fprintf(f,
                c->flags & EDAN_COL_HEX_0X ? "%#*" PRIx64
                : c->flags & EDAN_COL_HEX  ? "%*" PRIx64
                : c->flags & EDAN_COL_LEFT ? "%-*" PRIu64
                                           : "%*" PRIu64,
                c->width, v->u);
        break;
    case EDAN_T_I64:
        fprintf(f, "%*" PRId64, c->width, v->i);
        break;
    case EDAN_T_F64:
        if ((c->flags & EDAN_COL_NAN_DASH) && isnan(v->f))
            fprintf(f, "%*s", c->width, "-");
        else if (c->flags & EDAN_COL_PERCENT)
            fprintf(f, c->flags & EDAN_COL_SIGNED ? "%+*.*f%%" : "%*.*f%%", c->width - 1, c->precision, v->f);
        else if (c->flags & EDAN_COL_SIGNED)
            fprintf(f, "%+*.*f", c->width, c->precision, v->f);
        else if ((c->flags & EDAN_COL_WHOLE) && v->f == floor(v->f) && fabs(v->f) < 1e18)
            fprintf(f, "%*.0f", c->width, v->f);
        else if (c->flags & EDAN_COL_WHOLE)
            fprintf(f, "%*.*g", c->width, c->precision, v->f);
        else if (c->flags & EDAN_COL_G)
            fprintf(f, "%*.*g", c->width, c->precision, v->f);
        else
            fprintf(f, "%*.*f", c->width, c->precision, v->f);
        break;
    case EDAN_T_STR:
        if (c->flags & EDAN_COL_NAME)
            edan_name_field(f, v->s ? v->s : "?", (size_t)c->width, wide);
        else if (c->flags & EDAN_COL_CUT)
            fprintf(f, "%-*.*s", c->width, c->width, v->s ? v->s : "?");
        else
            fprintf(f, c->flags & EDAN_COL_LEFT ? "%-*s" : "%*s", c->width, v->s ? v->s : "?");
        break;
    case EDAN_T_BOOL:
        fprintf(f, "%*s", c->width, v->b ? "yes" : "no");
        break;
    case EDAN_T_OPT_U64:
        if (v->opt.set)
            fprintf(f, "%*" PRIu64, c->width, v->opt.u);
        else
            fprintf(f, "%*s", c->width, "-");
        break;
    case EDAN_T_U64S: /* a form's: the counts, separated by spaces (never a column of a text table) */
        for (size_t i = 0; i < v->a.n; i++)
            fprintf(f, i ? " %" PRIu64 : "%" PRIu64, u64_at(v, i));
        break;
    default: /* the other arrays and groups are JSON's */
        break;
    }
}

void edan_table_text(FILE *f, const edan_table *t, const edan_text_view *v)
{
    const char *indent = v->indent ? v->indent : "  ";
    size_t shown = 0;
    for (size_t r = 0; r < t->n_rows; r++)
        shown += !(t->left[r] & EDAN_NO_TEXT);
    if ((!shown && !v->heading_always) || shown < v->min_rows)
        return;
    bool first = true;
    if (!v->no_heading)
        fputs(indent, f);
    unsigned char order[EDAN_MAX_PLACES];
    const size_t ordered = edan_table_order(t, false, order);
    for (size_t k = 0; !v->no_heading && k < t->n_cols; k++) {
        const size_t c = ordered ? order[k] : k;
        const edan_column *col = &t->cols[c];
        if (!shows(t, c, EDAN_NO_TEXT) || (col->flags & EDAN_COL_ENDS_ROW))
            continue;
        const char *title = col->title ? col->title : col->key;
        const int width = col->flags & EDAN_COL_TITLE_AS_IS ? 0 : col->width;
        fprintf(f, col->flags & (EDAN_COL_NAME | EDAN_COL_LEFT | EDAN_COL_CUT) ? "%s%-*s" : "%s%*s",
                first || (col->flags & EDAN_COL_GLUED) ? "" : " ", width, title);
        first = false;
    }
    if (!v->no_heading)
        fputc('\n', f);
    size_t n = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        if (t->left[r] & EDAN_NO_TEXT)
            continue;
        if (v->max_rows && n == v->max_rows)
            break;
        n++;
        fputs(indent, f);
        first = true;
        for (size_t k = 0; k < t->n_cols; k++) {
            const size_t c = ordered ? order[k] : k;
            if (!shows(t, c, EDAN_NO_TEXT))
                continue;
            edan_value tmp;
            const edan_value *val = edan_table_cell(t, r, c, &tmp);
            const bool ends = t->cols[c].flags & EDAN_COL_ENDS_ROW;
            if (ends && !val->s)
                continue;
            if (!first && !(t->cols[c].flags & EDAN_COL_GLUED))
                fputc(' ', f);
            first = false;
            if (edan_table_shown(t, r, &t->cols[c].text))
                edan_table_text_cell(f, &t->cols[c], val, v->wide);
            else
                fprintf(f, "%*s", t->cols[c].width, "");
            if (ends)
                break;
        }
        fputc('\n', f);
    }
    if (shown > n)
        fprintf(f, "%s(%zu more%s)\n", indent, shown - n, v->more ? v->more : "");
}

/* ===================================================================== */
/* JSON                                                                   */
/* ===================================================================== */

static void json_strs(FILE *f, const edan_value *v)
{
    fputc('[', f);
    for (size_t i = 0; i < v->strs.n; i++) {
        if (i)
            fputc(',', f);
        edan_json_str(f, v->strs.v[i]);
    }
    fputc(']', f);
}

static void json_g(FILE *f, const edan_column *c, double v)
{
    if (isfinite(v))
        fprintf(f, "%.*g", c->precision, v);
    else
        fputs("null", f);
}

/* An array's numbers, each where it is (a stride, EDAN_COL_EACH), as edan_json_num_array writes them. */
static void json_f64s(FILE *f, const edan_value *v)
{
    fputc('[', f);
    for (size_t i = 0; i < v->d.n; i++) {
        double x;
        memcpy(&x, (const char *)v->d.v + i * v->d.stride, sizeof x);
        if (i)
            fputc(',', f);
        edan_json_num(f, x);
    }
    fputc(']', f);
}

static void json_cell(FILE *f, const edan_column *c, const edan_value *v)
{
    switch (c->type) {
    case EDAN_T_U64:
        fprintf(f, "%" PRIu64, v->u);
        break;
    case EDAN_T_I64:
        fprintf(f, "%" PRId64, v->i);
        break;
    case EDAN_T_F64:
        if ((c->flags & EDAN_COL_JSON_WHOLE) && isfinite(v->f))
            fprintf(f, "%.0f", v->f);
        else if (c->flags & EDAN_COL_JSON_G)
            json_g(f, c, v->f);
        else
            edan_json_num(f, v->f);
        break;
    case EDAN_T_STR:
        edan_json_str(f, v->s);
        break;
    case EDAN_T_U64S:
        if ((c->flags & EDAN_COL_EMPTY_NULL) && !v->a.n) {
            fputs("null", f);
            break;
        }
        fputc('[', f);
        for (size_t i = 0; i < v->a.n; i++)
            fprintf(f, "%s%" PRIu64, i ? "," : "", u64_at(v, i));
        fputc(']', f);
        break;
    case EDAN_T_F64S:
        if ((c->flags & EDAN_COL_EMPTY_NULL) && !v->d.n)
            fputs("null", f);
        else if (v->d.stride)
            json_f64s(f, v);
        else
            edan_json_num_array(f, v->d.v, v->d.n);
        break;
    case EDAN_T_BOOL:
        fputs(v->b ? "true" : "false", f);
        break;
    case EDAN_T_OPT_U64:
        if (v->opt.set)
            fprintf(f, "%" PRIu64, v->opt.u);
        else
            fputs("null", f);
        break;
    case EDAN_T_ROWS:
        if (v->rows)
            edan_table_json(f, v->rows, 0);
        else
            fputs("null", f);
        break;
    case EDAN_T_NAMED:
        fputc('{', f);
        for (size_t i = 0; i < v->named.n; i++)
            fprintf(f, "%s\"%s\":%" PRIu64, i ? "," : "", v->named.names[i], v->named.v[i]);
        fputc('}', f);
        break;
    case EDAN_T_I64S:
        fputc('[', f);
        for (size_t i = 0; i < v->ia.n; i++)
            fprintf(f, "%s%" PRId64, i ? "," : "", v->ia.v[i]);
        fputc(']', f);
        break;
    case EDAN_T_STRS:
        json_strs(f, v);
        break;
    case EDAN_T_GROUP:
        break;
    }
}

/* The length of the object path of key: up to its last '.' (0: a member of the row itself). */
size_t edan_table_parent_len(const char *key, size_t len)
{
    while (len && key[len - 1] != '.')
        len--;
    return len ? len - 1 : 0;
}

/* Whether key is inside the object path[0 .. len) (always, for the row's own: len 0). */
static bool inside(const char *key, const char *path, size_t len)
{
    return !len || (!strncmp(key, path, len) && key[len] == '.');
}

/*
 * Row r's members: "key":value,..., a key "a.b" as member b of the object
 * a. The objects open (path[0 .. len), depth of them) are closed when a
 * column is outside them and opened when it is inside one not yet open; a
 * group whose cell is 0 is written as null and its members skipped.
 */
static void json_members(FILE *f, const edan_table *t, size_t r)
{
    const char *path = "";
    size_t len = 0, null_len = 0;
    int depth = 0;
    bool first[EDAN_TABLE_MAX_DEPTH + 1] = {true};
    const char *null_group = NULL;
    for (size_t c = 0; c < t->n_cols; c++) {
        const edan_column *col = &t->cols[c];
        if ((col->flags & EDAN_NO_JSON) || (c < 64 && (t->omit >> c & 1)) ||
            (null_group && inside(col->key, null_group, null_len)))
            continue;
        null_group = NULL;
        while (depth && !inside(col->key, path, len)) {
            fputc('}', f);
            len = edan_table_parent_len(path, len);
            depth--;
        }
        const size_t want = edan_table_parent_len(col->key, strlen(col->key));
        while (len < want && depth < EDAN_TABLE_MAX_DEPTH) {
            const size_t from = len ? len + 1 : 0;
            const char *dot = memchr(col->key + from, '.', want - from);
            const size_t end = dot ? (size_t)(dot - col->key) : want;
            fprintf(f, "%s\"%.*s\":{", first[depth] ? "" : ",", (int)(end - from), col->key + from);
            first[depth++] = false;
            first[depth] = true;
            path = col->key;
            len = end;
        }
        const char *name = col->key + (len ? len + 1 : 0);
        edan_value tmp;
        const edan_value *v = edan_table_cell(t, r, c, &tmp);
        if (col->type == EDAN_T_GROUP && v->u)
            continue; /* present: its members open it */
        fprintf(f, "%s\"%s\":", first[depth] ? "" : ",", name);
        first[depth] = false;
        if (col->type == EDAN_T_GROUP) {
            fputs("null", f);
            null_group = col->key;
            null_len = strlen(col->key);
        } else {
            json_cell(f, col, v);
        }
    }
    for (; depth; depth--)
        fputc('}', f);
}

void edan_table_json(FILE *f, const edan_table *t, size_t max_rows)
{
    if (t->decl->scalars) {
        if (t->n_rows) {
            json_members(f, t, 0);
            return;
        }
        /* no row (out of memory): every member null, so that the object around stays valid */
        bool first = true;
        for (size_t c = 0; c < t->n_cols; c++)
            if (!(t->cols[c].flags & EDAN_NO_JSON) && !(c < 64 && (t->omit >> c & 1)) && !strchr(t->cols[c].key, '.')) {
                fprintf(f, "%s\"%s\":null", first ? "" : ",", t->cols[c].key);
                first = false;
            }
        return;
    }
    fputc('[', f);
    size_t n = 0;
    for (size_t r = 0; r < t->n_rows && (!max_rows || n < max_rows); r++) {
        if (t->left[r] & EDAN_NO_JSON)
            continue;
        if (t->left[r] & EDAN_ROW_NULL) {
            fputs(n++ ? ",null" : "null", f);
            continue;
        }
        fputs(n++ ? ",{" : "{", f);
        json_members(f, t, r);
        fputc('}', f);
    }
    fputc(']', f);
}

void edan_table_json_member(FILE *f, const edan_table *t, bool absent, size_t max_rows)
{
    const char *dot = strrchr(t->decl->path, '.');
    fprintf(f, ",\"%s\":", dot ? dot + 1 : t->decl->path);
    if (absent)
        fputs("null", f);
    else
        edan_table_json(f, t, max_rows);
}

/* ===================================================================== */
/* CSV                                                                    */
/* ===================================================================== */

/* The header: the CSV keys of the columns CSV shows, comma-separated. */
void edan_table_csv_header(const edan_table *t, char *header, size_t size)
{
    size_t h = 0;
    header[0] = '\0';
    unsigned char order[EDAN_MAX_PLACES];
    const size_t ordered = edan_table_order(t, true, order);
    for (size_t k = 0, c; k < t->n_cols && h < size; k++)
        if (shows(t, c = ordered ? order[k] : k, EDAN_NO_CSV))
            h += (size_t)snprintf(header + h, size - h, "%s%s", h ? "," : "",
                                  t->cols[c].csv_key ? t->cols[c].csv_key : t->cols[c].key);
}

/* A count: decimal, or with EDAN_COL_CSV_HEX %#x. */
static void csv_count(edan_csv *csv, const edan_column *col, uint64_t u)
{
    if (!(col->flags & EDAN_COL_CSV_HEX)) {
        edan_csv_u64(csv, u);
        return;
    }
    char num[24];
    snprintf(num, sizeof num, "%#" PRIx64, u);
    edan_csv_str(csv, num);
}

/* A number: %.10g and a non-finite one empty (edan_csv_num), or as the column's EDAN_COL_CSV_* flags say; NA empty. */
static void csv_f64(edan_csv *csv, const edan_column *col, double f)
{
    f = scaled(&col->csv, f); /* in CSV's unit */
    if (edan_is_na(f) || !(col->flags & (EDAN_COL_CSV_G6 | EDAN_COL_CSV_WHOLE))) {
        edan_csv_num(csv, f);
        return;
    }
    char num[400];
    snprintf(num, sizeof num, col->flags & EDAN_COL_CSV_G6 ? "%.6g" : "%.0f", f);
    edan_csv_str(csv, (col->flags & EDAN_COL_CSV_NAN_EMPTY) && isnan(f) ? NULL : num);
}

/* Every row CSV shows, a line each. */
void edan_table_csv_rows(edan_csv *csv, const edan_table *t)
{
    unsigned char order[EDAN_MAX_PLACES];
    const size_t ordered = edan_table_order(t, true, order);
    for (size_t r = 0; r < t->n_rows; r++) {
        if (t->left[r] & EDAN_NO_CSV)
            continue;
        for (size_t k = 0; k < t->n_cols; k++) {
            const size_t c = ordered ? order[k] : k;
            const edan_column *col = &t->cols[c];
            edan_value tmp;
            const edan_value *v = edan_table_cell(t, r, c, &tmp);
            if (!shows(t, c, EDAN_NO_CSV))
                continue;
            if (!edan_table_shown(t, r, &col->csv))
                edan_csv_str(csv, NULL);
            else if (col->type == EDAN_T_U64)
                csv_count(csv, col, v->u);
            else if (col->type == EDAN_T_I64) {
                char num[24];
                snprintf(num, sizeof num, "%" PRId64, v->i);
                edan_csv_str(csv, num);
            } else if (col->type == EDAN_T_F64)
                csv_f64(csv, col, v->f);
            else if (col->type == EDAN_T_STR && (col->flags & EDAN_COL_CSV_QUOTED))
                edan_csv_quoted(csv, v->s);
            else if (col->type == EDAN_T_STR)
                edan_csv_str(csv, v->s);
            else if (col->type == EDAN_T_BOOL && (col->flags & EDAN_COL_CSV_01))
                edan_csv_u64(csv, v->b);
            else if (col->type == EDAN_T_BOOL)
                edan_csv_str(csv, v->b ? "yes" : "no");
            else if (col->type == EDAN_T_OPT_U64)
                v->opt.set ? csv_count(csv, col, v->opt.u) : edan_csv_str(csv, NULL);
        }
        edan_csv_end_row(csv);
    }
}

int edan_table_csv(const edan_table *t, const char *dir, const char *base, edan_error *err)
{
    char header[2048];
    edan_table_csv_header(t, header, sizeof header);
    edan_csv csv;
    if (edan_csv_open(&csv, dir, base, t->decl->csv, header, err))
        return -1;
    edan_table_csv_rows(&csv, t);
    return edan_csv_close(&csv, err);
}
