/*
 * table.h - a tool's results as named tables of typed rows, and the one
 * renderer that writes them as aligned text, JSON and CSV.
 *
 * A table is declared once (edan_table_decl): where it goes in the JSON
 * report, its CSV table's name, and its columns, each with its key (the
 * JSON key and the CSV header), its type, unit and meaning, and how text
 * shows it. A tool fills a table's rows (edan_table_row) and renders it in
 * each format; the declarations are also what documents the JSON keys
 * (tests/result_keys_test.py checks each against docs/schema and
 * docs/json-schema.md). A tool's scalars are a table of one row written as
 * the members of its JSON object.
 *
 *   edan_table t;
 *   edan_table_init(&t, &decl);
 *   edan_value *r = edan_table_row(&t, 0);  r[COL].u = 42; ...
 *   or, columns bound to a struct's members (EDAN_COL_FIELD): edan_table_rows_of(&t, rows, n, sizeof *rows);
 *   edan_table_text(f, &t, &view);  edan_table_json(f, &t, 0);  edan_table_csv(&t, dir, base, err);
 *   edan_table_free(&t);
 */
#ifndef EDAN_REPORT_TABLE_H
#define EDAN_REPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

/* ===================================================================== */
/* Declarations                                                           */
/* ===================================================================== */

typedef enum edan_type {
    EDAN_T_U64, /* a count: JSON and CSV as an integer */
    EDAN_T_I64,
    EDAN_T_F64,  /* JSON: whole values without a fraction, non-finite as null (report/json.h); CSV: %.10g */
    EDAN_T_STR,  /* NULL: null in JSON, an empty field in CSV, "?" in text */
    EDAN_T_U64S, /* an array of counts (JSON only) */
    EDAN_T_F64S, /* an array of numbers (JSON only) */
    /*
     * JSON only: the object its key names, whose members are the columns
     * after it keyed "key.member"; a cell of 0 writes the object as null
     * (and none of its members).
     */
    EDAN_T_GROUP,
    EDAN_T_BOOL,    /* JSON true or false; text and CSV "yes" or "no" */
    EDAN_T_OPT_U64, /* a count that may be unknown (.opt): JSON null, text "-", CSV an empty field */
    /*
     * JSON only: an array of objects, the rows of another table (.rows,
     * declared with its own path below this one's: "zoom.regions.lines");
     * NULL writes null.
     */
    EDAN_T_ROWS,
    EDAN_T_NAMED, /* JSON only: an object of counts keyed by names known when it runs (.named): {"int":3,...} */
    EDAN_T_STRS   /* JSON only: an array of strings (.strs; EDAN_COL_ARRAY of const char *) */
} edan_type;

/* Where a column or a row is left out. */
#define EDAN_NO_TEXT 1u
#define EDAN_NO_JSON 2u
#define EDAN_NO_CSV 4u
/* Text: a name, left-aligned and shortened to the width (report/names.h; whole with --wide). */
#define EDAN_COL_NAME 8u
/* Text: an F64 as a percentage, its width holding the '%' after it. */
#define EDAN_COL_PERCENT 16u
/* Text: the heading as it is, not padded to the width (a heading the view lays out itself). */
#define EDAN_COL_TITLE_AS_IS 32u
/* Text: left-aligned (a string that is no name, or a count, and its heading). */
#define EDAN_COL_LEFT 64u
/* Text: an F64 with precision significant digits (%g), not digits after the point. */
#define EDAN_COL_G 128u
/* Text: an F64 with its sign always (+12.5, -3.0). */
#define EDAN_COL_SIGNED 256u
/* Text: an F64 that is NaN (unknown) as "-". */
#define EDAN_COL_NAN_DASH 512u
/* Text: an F64 of a whole value below 1e18 as an integer, any other as EDAN_COL_G does. */
#define EDAN_COL_WHOLE 1024u
/* A member present only when the tool has it: a view may leave it out of every format (edan_table_omit). */
#define EDAN_COL_OPTIONAL 2048u
/* Text: a string cut to its width (left-aligned). */
#define EDAN_COL_CUT 4096u
/* Text: a count in hexadecimal (without 0x). */
#define EDAN_COL_HEX 8192u

/*
 * A column bound to a member of a row's struct (EDAN_COL_FIELD): its offset,
 * the member's C type (from the member itself, by _Generic) and which of the
 * row's structs it is in (edan_table_row_of). A column left {0} is a cell the
 * tool fills.
 */
typedef enum edan_ctype {
    EDAN_F_CELL,
    EDAN_F_U64,
    EDAN_F_U32,
    EDAN_F_I64,
    EDAN_F_I32,
    EDAN_F_F64,
    EDAN_F_PSTR, /* a const char * */
    EDAN_F_ASTR, /* a char array */
    EDAN_F_BOOL,
    EDAN_F_ROWS, /* a const edan_table * */
    EDAN_F_F64S, /* an array of doubles, its length a size_t member (EDAN_COL_ARRAY) */
    EDAN_F_U64S, /* an array of uint64_t, likewise */
    EDAN_F_STRS  /* an array of const char *, likewise */
} edan_ctype;

typedef struct edan_field {
    size_t offset;
    unsigned char ctype;  /* edan_ctype */
    unsigned char source; /* the row's struct: 0 .. EDAN_ROW_SOURCES - 1 */
    size_t count;         /* an array's (EDAN_F_F64S, EDAN_F_U64S): the offset of its size_t length */
} edan_field;

#define EDAN_ROW_SOURCES 2

typedef struct edan_column {
    /*
     * The JSON key and the CSV header. A key "a.b" is member b of the
     * object a in JSON (the columns of one object are consecutive, after
     * its EDAN_T_GROUP column when it can be null); CSV then names it by
     * its csv_key.
     */
    const char *key;
    edan_type type;
    const char *unit; /* what one counts ("bytes", "lines", "accesses", "ratio"; "" when none) */
    const char *doc;  /* what the value is, one line */
    unsigned flags;
    /* text */
    const char *title;   /* heading (NULL: the key) */
    int width;           /* columns; a name column's are its heading's too */
    int precision;       /* an F64's digits after the point */
    const char *csv_key; /* the CSV header when it differs from the JSON key (NULL: key) */
    edan_field field;    /* {0}: a cell; else the member of the row's struct it shows */
} edan_column;

/*
 * A column that shows member m of the struct S of a row (source 0, or src
 * of edan_table_row_of), its type from the member's: a count (uint64_t,
 * size_t, uint32_t), a signed count (int64_t, int), a double, a string (a
 * const char * or a char array), a bool, or another table's rows (const
 * edan_table *); any other member type does not compile.
 */
#define EDAN_FIELD_PICK(S, m, u64, u32, i64, i32, f64, pstr, astr, b, rows)                                            \
    _Generic(&((S *)0)->m, char **: pstr, const char **: pstr,                                                         \
             default: _Generic(((S *)0)->m, uint64_t: u64, uint32_t: u32, int64_t: i64, int32_t: i32, double: f64,     \
                               char *: astr, const char *: astr, bool: b, const struct edan_table *: rows,             \
                               struct edan_table *: rows))
/* The field of a column the tool fills cell by cell (positional declarations end with it). */
#define EDAN_CELL                                                                                                      \
    {                                                                                                                  \
        0                                                                                                              \
    }
#define EDAN_COL_OF(src, S, m, key_, unit_, doc_, flags_, title_, width_, precision_)                                  \
    {                                                                                                                  \
        .key = key_,                                                                                                   \
        .type = EDAN_FIELD_PICK(S, m, EDAN_T_U64, EDAN_T_U64, EDAN_T_I64, EDAN_T_I64, EDAN_T_F64, EDAN_T_STR,          \
                                EDAN_T_STR, EDAN_T_BOOL, EDAN_T_ROWS),                                                 \
        .unit = unit_, .doc = doc_, .flags = flags_, .title = title_, .width = width_, .precision = precision_,        \
        .field = {                                                                                                     \
            offsetof(S, m),                                                                                            \
            EDAN_FIELD_PICK(S, m, EDAN_F_U64, EDAN_F_U32, EDAN_F_I64, EDAN_F_I32, EDAN_F_F64, EDAN_F_PSTR,             \
                            EDAN_F_ASTR, EDAN_F_BOOL, EDAN_F_ROWS),                                                    \
            src                                                                                                        \
        }                                                                                                              \
    }
#define EDAN_COL_FIELD(S, m, key, unit, doc, flags, title, width, precision)                                           \
    EDAN_COL_OF(0, S, m, key, unit, doc, flags, title, width, precision)

typedef struct edan_table_decl {
    const char *path; /* its place in the JSON report: "footprint.loops" (rows), "footprint" (scalars) */
    const char *csv;  /* its CSV table, <name>-<csv>.csv (NULL: none) */
    bool scalars;     /* one row, written as members of the object at path */
    const char *doc;  /* what a row is */
    const edan_column *cols;
    size_t n_cols;
    bool csv_only; /* a table of the CSV files alone (path only names it): JSON has its numbers otherwise */
} edan_table_decl;

#define EDAN_TABLE_DECL(path, csv, scalars, doc, cols)                                                                 \
    {                                                                                                                  \
        path, csv, scalars, doc, cols, sizeof cols / sizeof cols[0], false                                             \
    }
/* A table of the CSV files alone, such as a row per window size that JSON writes as arrays. */
#define EDAN_CSV_TABLE_DECL(path, csv, doc, cols)                                                                      \
    {                                                                                                                  \
        path, csv, false, doc, cols, sizeof cols / sizeof cols[0], true                                                \
    }

/* ===================================================================== */
/* Rows                                                                   */
/* ===================================================================== */

typedef union edan_value {
    uint64_t u;
    int64_t i;
    double f;
    const char *s; /* lives as long as the table: edan_table_str copies one that does not */
    struct {
        const uint64_t *v; /* as s */
        size_t n;
    } a;
    struct {
        const double *v; /* as s */
        size_t n;
    } d;
    bool b;
    struct {
        uint64_t u;
        bool set; /* false: unknown */
    } opt;
    const struct edan_table *rows; /* lives as long as the table */
    struct {
        const char *const *names; /* as s */
        const uint64_t *v;        /* as s */
        size_t n;
    } named;
    struct {
        const char *const *v; /* as s */
        size_t n;
    } strs;
} edan_value;

typedef struct edan_table {
    const edan_table_decl *decl;
    /*
     * The columns of its rows: the declaration's, or (edan_table_init_cols)
     * a list a view makes when it is run, such as a column per cache size,
     * whose JSON columns are still exactly the declaration's.
     */
    const edan_column *cols;
    size_t n_cols;
    size_t n_rows, cap;
    edan_value *cells;   /* row r's column c: cells[r * n_cols + c] */
    const void **src;    /* row r's structs: src[r * EDAN_ROW_SOURCES + k] (NULL: its bound columns are zero) */
    unsigned char *left; /* per row: the formats that leave it out (EDAN_NO_TEXT...) */
    char **owned;        /* copies edan_table_str made */
    size_t n_owned, owned_cap;
    uint64_t omit; /* columns 0 .. 63 left out of every format (edan_table_omit) */
    bool failed;   /* out of memory: a row or a string is missing (the renderer writes what there is) */
} edan_table;

void edan_table_init(edan_table *t, const edan_table_decl *decl);
/*
 * With the columns cols[0 .. n) (they must outlive the table): those JSON
 * shows must be the declaration's, in its order; the others show only in text
 * or CSV. 0, or -1 (the table then has the declaration's columns and is
 * marked failed) when they are not.
 */
int edan_table_init_cols(edan_table *t, const edan_table_decl *decl, const edan_column *cols, size_t n);
void edan_table_free(edan_table *t);
/* A new row of zeros (NULL: out of memory, the table marked failed); left: the formats that leave it out. */
edan_value *edan_table_row(edan_table *t, unsigned left);
/*
 * A new row whose bound columns (EDAN_COL_FIELD, EDAN_COL_OF) show the
 * members of s0 and s1 (which must outlive the table), its other columns
 * zero cells (returned, as edan_table_row's).
 */
edan_value *edan_table_row_of(edan_table *t, unsigned left, const void *s0, const void *s1);
/* A row per struct of the array rows[0 .. n), each size bytes (its source 0); -1 when out of memory. */
int edan_table_rows_of(edan_table *t, const void *rows, size_t n, size_t size);
/* A copy of s the table owns (NULL for NULL, and when out of memory). */
const char *edan_table_str(edan_table *t, const char *s);
/* Leave the column keyed key out of every format: 0, or -1 when it is not among the first 64 or not EDAN_COL_OPTIONAL.
 */
int edan_table_omit(edan_table *t, const char *key);
/* The index of the column keyed key among cols[0 .. n), or -1. */
int edan_table_col(const edan_column *cols, size_t n, const char *key);

/* ===================================================================== */
/* Rendering                                                              */
/* ===================================================================== */

typedef struct edan_text_view {
    const char *indent;  /* before every line (NULL: two spaces) */
    size_t min_rows;     /* fewer rows to show: nothing at all, not even the heading */
    size_t max_rows;     /* at most these rows (0: all), then "(N more<more>)" */
    const char *more;    /* e.g. " loops; --json lists all" */
    bool wide;           /* names whole (--wide) */
    bool no_heading;     /* the rows alone (a view that heads them itself) */
    bool heading_always; /* the heading even without a row to show */
} edan_text_view;

/* The heading and the rows text shows, each column right-aligned to its width (a name column left-aligned). */
void edan_table_text(FILE *f, const edan_table *t, const edan_text_view *v);
/*
 * Rows: [{"key":value,...},...], at most max_rows (0: all). Scalars: "key":value,... of row 0 (no braces;
 * without a row, out of memory: every key null).
 */
void edan_table_json(FILE *f, const edan_table *t, size_t max_rows);
/* ,"name":[...] (name: the last part of the table's path), or ,"name":null for a table that is absent (t->decl set). */
void edan_table_json_member(FILE *f, const edan_table *t, bool absent, size_t max_rows);
/* Its CSV table in dir, <base>-<decl->csv>.csv: the header and every row CSV shows. 0, or -1 with err. */
int edan_table_csv(const edan_table *t, const char *dir, const char *base, edan_error *err);

/* ===================================================================== */
/* Bound arrays, absent objects and text forms (the prediction's section) */
/* ===================================================================== */

/*
 * A column that shows the array member m (double[], uint64_t[] or const
 * char *[]) of the struct S of a row as an array (F64S, U64S, STRS: JSON only), its length the
 * size_t member n of S; any other member type does not compile.
 */
#define EDAN_COL_ARRAY_OF(src, S, m, n, key_, unit_, doc_, flags_)                                                       \
    {                                                                                                                    \
        .key = key_, .type = _Generic(((S *)0)->m[0], double: EDAN_T_F64S, uint64_t: EDAN_T_U64S,                      \
                                      const char *: EDAN_T_STRS),                                                      \
        .unit = unit_, .doc = doc_, .flags = flags_,                                                                   \
        .field = {offsetof(S, m),                                                                                      \
                  _Generic(((S *)0)->m[0], double: EDAN_F_F64S, uint64_t: EDAN_F_U64S, const char *: EDAN_F_STRS),     \
                  src, _Generic(((S *)0)->n, size_t: offsetof(S, n))} \
    }
#define EDAN_COL_ARRAY(S, m, n, key, unit, doc, flags) EDAN_COL_ARRAY_OF(0, S, m, n, key, unit, doc, flags)
/* An object (EDAN_T_GROUP, its members the columns after it) present when the bool member m of S is true, else null. */
#define EDAN_COL_GROUP_OF(src, S, m, key_, doc_, flags_)                                                               \
    {                                                                                                                  \
        .key = key_, .type = EDAN_T_GROUP, .unit = "", .doc = doc_, .flags = flags_, .field = {                        \
            offsetof(S, m),                                                                                            \
            _Generic(((S *)0)->m, bool                                                                                 \
                     : EDAN_F_BOOL),                                                                                   \
            src,                                                                                                       \
            0                                                                                                          \
        }                                                                                                              \
    }
#define EDAN_COL_GROUP_FIELD(S, m, key, doc, flags) EDAN_COL_GROUP_OF(0, S, m, key, doc, flags)
/* JSON: an array of no values (length 0) as null. */
#define EDAN_COL_EMPTY_NULL (1u << 20)
/* JSON: an F64 with precision significant digits (%g): a constant such as 0.95 as it is written. */
#define EDAN_COL_JSON_G (1u << 21)

/*
 * Leave the column keyed key (EDAN_COL_OPTIONAL, among the first 64) and
 * every member of the object it names ("key.member") out of every format:
 * an object that is absent rather than null. 0, or -1 as edan_table_omit.
 */
int edan_table_omit_group(edan_table *t, const char *key);

/*
 * Each row text shows, written through a form: the form's text as it is,
 * but "{key}" is the row's cell of the column keyed key as text shows it
 * (its width, precision and flags), and "{?key}" ("{!key}") leaves the rest
 * of the line out when that cell is (is not) zero, false, NULL, "", unset,
 * NaN or omitted, up to "{;}" if it comes first (an alternative after it:
 * "{?k}...{;}{!k}...\n"); a line left out from its start is left out
 * whole, its end too. A key the table lacks writes "{?}".
 */
void edan_table_form(FILE *f, const edan_table *t, const char *form);
/* Row r alone through the form (nothing when text leaves it out). */
void edan_table_form_row(FILE *f, const edan_table *t, size_t r, const char *form);
/* ,"name":{...}: a table of scalars as the object its path's last part names (t->decl->path). */
void edan_table_json_object(FILE *f, const edan_table *t);

#endif
