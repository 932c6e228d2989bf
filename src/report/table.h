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
 *   or, columns bound to a struct's members (EDAN_COL_FIELD): edan_table_rows_of(&t, rows, n, sizeof *rows),
 *   or both at once: edan_table_of(&t, &decl, rows, n, sizeof *rows);
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
    EDAN_T_U64S, /* an array of counts (JSON; in a text form, the counts separated by spaces) */
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
    EDAN_T_I64S,  /* JSON only: an array of signed counts (.ia): strides, bounds */
    EDAN_T_STRS   /* JSON only: an array of strings (.strs) */
} edan_type;

/* Where a column or a row is left out. */
#define EDAN_NO_TEXT 1u
#define EDAN_NO_JSON 2u
#define EDAN_NO_CSV 4u
/* A row JSON writes as null: an array's element without a value (a level of a nest without a bound). */
#define EDAN_ROW_NULL 8u
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
/* Text: a count in hexadecimal with 0x before it (C's %#x: none before 0). */
#define EDAN_COL_HEX_0X 16384u

/* --------------------------------------------------------------------- */
/* Number layouts of ExaSAT-style tables and of CSV files a tool names     */
/* (the projection's Table 1, sweep, regions and what-ifs)                 */
/* --------------------------------------------------------------------- */
/* JSON: an F64 rounded to a whole number (%.0f; a non-finite one null). */
#define EDAN_COL_JSON_WHOLE (1u << 15)
/* CSV: an F64 with %.6g (NaN and infinities as printf writes them), not %.10g. */
#define EDAN_COL_CSV_G6 (1u << 16)
/* CSV: an F64 with %.0f (a whole number). */
#define EDAN_COL_CSV_WHOLE (1u << 17)
/* CSV: an F64 that is NaN as an empty field (with EDAN_COL_CSV_G6 or EDAN_COL_CSV_WHOLE; the default does so). */
#define EDAN_COL_CSV_NAN_EMPTY (1u << 18)
/* CSV: a count (U64, or an OPT_U64 that is set) in hexadecimal with %#x (0x1f, and 0 as 0). */
#define EDAN_COL_CSV_HEX (1u << 19)
/*
 * Text: no space before it (a suffix such as " best" that belongs to the
 * cell before; its heading is written as for any other column).
 */
#define EDAN_COL_GLUED (1u << 20)
/*
 * Text: a string that, when set, is the row's last cell: it stands for the
 * columns after it (a row that shows why it has no numbers: "illegal"). NULL
 * leaves the column out of the row; never in the heading.
 */
#define EDAN_COL_ENDS_ROW (1u << 21)

/*
 * "Not applicable" (as R's NA): a NaN of its own for an F64 cell without a
 * value in its row (a loop's line in the row of the code outside loops):
 * blanks of the width in text, an empty CSV field, null in JSON. Any other
 * NaN is written as each format writes NaN (text and EDAN_COL_CSV_G6: nan).
 * Assign it, never compute with it (arithmetic need not keep its bits).
 */
double edan_na(void);
bool edan_is_na(double v);

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
    /* EDAN_COL_ARRAY_OF: an array member, its length another member's */
    EDAN_F_U64S,
    EDAN_F_F64S,
    EDAN_F_I64S,
    EDAN_F_STRS /* const char *[] */
} edan_ctype;

typedef struct edan_field {
    size_t offset;
    unsigned char ctype;       /* edan_ctype */
    unsigned char source;      /* the row's struct: 0 .. EDAN_ROW_SOURCES - 1 */
    unsigned char count_ctype; /* an array's: the type of its length's member (EDAN_F_U64, _U32 or _I32) */
    size_t count_offset;       /* an array's: its length's member */
    size_t stride;             /* an array's: the bytes from an element to the next (0: a C array's) */
} edan_field;

#define EDAN_ROW_SOURCES 2

/*
 * One column in several formats. A column is one value of its row, shown in
 * every format that does not leave it out (EDAN_NO_TEXT, _JSON, _CSV), each
 * with a layout of its own:
 *   JSON  its key, in the declaration's order, the value as it is (in the
 *         column's unit: the unit json-keys.md documents) and the JSON flags;
 *   text  its heading (title), width, precision and text flags, and .text;
 *   CSV   its header (csv_key, else the key), the CSV flags, and .csv.
 * .text and .csv (an edan_as each) say what that format changes beyond its
 * names and flags, so that a row's struct holds each number once and each
 * format converts it as it is written (time_s in JSON, time_ms in CSV and
 * "time ms" in text are one column of one member):
 * - scale: an F64 is shown as value * mul / div (0: 1), in the unit named.
 *   Write a conversion as code would compute it (seconds to ms: mul 1e3;
 *   bytes to GB: div 1e9), so that it is exactly the product or quotient
 *   code would have stored. A value that is not finite (NaN, edan_na(), an
 *   infinity) is shown as it is. Any other type is never scaled.
 * - at: the column's place among the format's columns, from 1. A format
 *   writes the columns placed in the order of their places, then those left
 *   0 in the declaration's order (a table whose columns leave it 0 keeps the
 *   declaration's order); no two columns share a place in a format, and a
 *   table with a placed column has at most EDAN_MAX_PLACES columns (more:
 *   the declaration's order). tests/result_keys.c checks the declarations.
 * - when: the key of another column of the table; a row whose cell of that
 *   column has no value (zero, false, NULL, "", unset, NaN, as a form's
 *   {?key}) shows this column's cell empty: blanks of its width in text, an
 *   empty field in CSV (the cost of an illegal plan: JSON has it, CSV not).
 */
typedef struct edan_as {
    unsigned at;      /* its place among the format's columns, from 1 (0: after the placed ones, in order) */
    double mul, div;  /* shown: value * mul / div (0: 1) */
    const char *unit; /* the unit it is then in (NULL: the column's) */
    const char *when; /* a column's key: its cell without a value leaves this one empty (NULL: never) */
} edan_as;
#define EDAN_MAX_PLACES 255
/* The conversions the tables use (designators: .csv = {EDAN_AS_GB, .at = 4}). */
#define EDAN_AS_MS .mul = 1e3, .unit = "ms"
#define EDAN_AS_GB .div = 1e9, .unit = "GB"
#define EDAN_AS_GFLOP .div = 1e9, .unit = "Gflop"
#define EDAN_AS_KIB .div = 1024, .unit = "KiB"
#define EDAN_AS_PERCENT .mul = 100, .unit = "%"

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
    edan_as text, csv;   /* what text and CSV change: a scale, a place, a condition (above) */
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
/*
 * The field of a column the tool fills cell by cell, and no edan_as for text
 * and CSV (positional declarations end with it).
 */
#define EDAN_CELL                                                                                                      \
    {0}, {0},                                                                                                          \
    {                                                                                                                  \
        0                                                                                                              \
    }
#define EDAN_COL_OF(src, S, m, key_, unit_, doc_, flags_, title_, width_, precision_)                                  \
    EDAN_COL_OF_AS(src, S, m, key_, unit_, doc_, flags_, title_, width_, precision_, .text = {0})
/*
 * EDAN_COL_OF with what text and CSV change (edan_as), as designators after
 * the precision: EDAN_COL_FIELD_AS(S, time_s, "time_s", "s", ..., 12, 4,
 * .text = {EDAN_AS_MS, .at = 12}, .csv = {EDAN_AS_MS, .at = 6}).
 */
#define EDAN_COL_FIELD_AS(S, m, key, unit, doc, flags, title, width, precision, ...)                                   \
    EDAN_COL_OF_AS(0, S, m, key, unit, doc, flags, title, width, precision, __VA_ARGS__)
#define EDAN_COL_OF_AS(src, S, m, key_, unit_, doc_, flags_, title_, width_, precision_, ...)                          \
    {                                                                                                                  \
        .key = key_,                                                                                                   \
        .type = EDAN_FIELD_PICK(S, m, EDAN_T_U64, EDAN_T_U64, EDAN_T_I64, EDAN_T_I64, EDAN_T_F64, EDAN_T_STR,          \
                                EDAN_T_STR, EDAN_T_BOOL, EDAN_T_ROWS),                                                 \
        .unit = unit_, .doc = doc_, .flags = flags_, .title = title_, .width = width_, .precision = precision_,        \
        .field = {.offset = offsetof(S, m),                                                                            \
                  .ctype = EDAN_FIELD_PICK(S, m, EDAN_F_U64, EDAN_F_U32, EDAN_F_I64, EDAN_F_I32, EDAN_F_F64,           \
                                           EDAN_F_PSTR, EDAN_F_ASTR, EDAN_F_BOOL, EDAN_F_ROWS),                        \
                  .source = src},                                                                                      \
        __VA_ARGS__                                                                                                    \
    }
#define EDAN_COL_FIELD(S, m, key, unit, doc, flags, title, width, precision)                                           \
    EDAN_COL_OF(0, S, m, key, unit, doc, flags, title, width, precision)

/*
 * A column that shows the array member m of the struct S of a row (source
 * src), its length the member count of S (a size_t, an unsigned or an int):
 * an array of uint64_t, double, int64_t or const char * is a column of type
 * EDAN_T_U64S, EDAN_T_F64S, EDAN_T_I64S or EDAN_T_STRS (JSON only); any
 * other does not compile. EDAN_COL_ARRAY: of the row's first struct.
 */
#define EDAN_COL_ARRAY_OF(src, S, m, count, key_, unit_, doc_, flags_)                                                   \
    {                                                                                                                    \
        .key = key_,                                                                                                   \
        .type = _Generic(((S *)0)->m[0], uint64_t                                                                      \
                         : EDAN_T_U64S, double                                                                         \
                         : EDAN_T_F64S, int64_t                                                                        \
                         : EDAN_T_I64S, const char *                                                                   \
                         : EDAN_T_STRS),                                                                               \
        .unit = unit_, .doc = doc_, .flags = flags_, .field = {                                                        \
            offsetof(S, m),                                                                                            \
            _Generic(((S *)0)->m[0], uint64_t                                                                          \
                     : EDAN_F_U64S, double                                                                             \
                     : EDAN_F_F64S, int64_t                                                                            \
                     : EDAN_F_I64S, const char *                                                                       \
                     : EDAN_F_STRS),                                                                                   \
            src,                                                                                                       \
            _Generic(((S *)0)->count, size_t                                                                           \
                     : EDAN_F_U64, unsigned                                                                            \
                     : EDAN_F_U32, int                                                                                 \
                     : EDAN_F_I32),                                                                                    \
            offsetof(S, count)                                                                                         \
        } \
    }
#define EDAN_COL_ARRAY(S, m, count, key, unit, doc, flags) EDAN_COL_ARRAY_OF(0, S, m, count, key, unit, doc, flags)
/*
 * A column of the member m of each element of the array member arr of S
 * (the row's first struct), count (a member of S) of them: one number of
 * each of an array of structs (each latency's cycles) as a JSON array read
 * where it is, so that S holds the number once, in its element. m is a
 * uint64_t or a double (EDAN_T_U64S or EDAN_T_F64S); any other does not
 * compile.
 */
#define EDAN_COL_EACH(S, arr, m, count, key_, unit_, doc_, flags_)                                                     \
    {                                                                                                                  \
        .key = key_,                                                                                                   \
        .type = _Generic(((S *)0)->arr[0].m, uint64_t                                                                  \
                         : EDAN_T_U64S, double                                                                         \
                         : EDAN_T_F64S),                                                                               \
        .unit = unit_, .doc = doc_, .flags = flags_, .field = {                                                        \
            .offset = offsetof(S, arr[0].m),                                                                           \
            .ctype = _Generic(((S *)0)->arr[0].m, uint64_t                                                             \
                              : EDAN_F_U64S, double                                                                    \
                              : EDAN_F_F64S),                                                                          \
            .count_ctype = _Generic(((S *)0)->count, size_t                                                            \
                                    : EDAN_F_U64, unsigned                                                             \
                                    : EDAN_F_U32, int                                                                  \
                                    : EDAN_F_I32),                                                                     \
            .count_offset = offsetof(S, count),                                                                        \
            .stride = sizeof((S *)0)->arr[0]                                                                           \
        }                                                                                                              \
    }

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
        size_t stride; /* the bytes from an element to the next (0: sizeof *v) */
    } a;
    struct {
        const double *v; /* as s */
        size_t n;
        size_t stride; /* as a's */
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
        const int64_t *v; /* as s */
        size_t n;
    } ia;
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
/* edan_table_init and edan_table_rows_of at once: a table of decl whose rows are the structs rows[0 .. n). */
int edan_table_of(edan_table *t, const edan_table_decl *decl, const void *rows, size_t n, size_t size);
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
    /*
     * edan_results_text: a line before the table, written even when no row
     * shows, through row 0 as a form (edan_table_form: {key}, {?key}, {!key},
     * {;}; a key names the column text shows, else any so keyed; no row:
     * zero values). A table of scalars shows only this line.
     */
    const char *title;
    /* edan_results_text: a line before the heading, as it is, when the table shows (what its rows are). */
    const char *caption;
    /*
     * edan_results_text: the rows as items of a list instead of a table,
     * each this form (as title's), per_line of them on
     * a line after the indent, separated by ", ".
     */
    const char *item;
    size_t per_line;
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
/* A tool's results: its tables rendered together                         */
/* ===================================================================== */

/*
 * One of a tool's tables in its report: how text shows it and what the
 * formats leave out. A tool lists its tables in the order the report
 * writes them (a table may be listed twice, once per place, when text and
 * JSON order them differently) and the three renderers below write them
 * all, so that it writes no section of its own.
 */
typedef struct edan_result {
    const edan_table *t;
    edan_text_view view;
    unsigned left;    /* the formats that leave the table out (EDAN_NO_TEXT, EDAN_NO_JSON, EDAN_NO_CSV) */
    bool absent;      /* JSON: null (a table the run cannot have, such as functions without symbols) */
    size_t json_rows; /* JSON: at most these rows (0: all) */
} edan_result;

/* Each table's text in turn: its title, its caption and edan_table_text (a table of scalars: its title alone). */
void edan_results_text(FILE *f, const edan_result *r, size_t n);
/*
 * Each table at its path as members of the report's top-level object
 * (,"key":value): a table of scalars as the members of the object its path
 * names, a table of rows as the array its path's last part names, the
 * objects of the paths opened and closed around them in turn. Tables of the
 * CSV files alone are not written.
 */
void edan_results_json(FILE *f, const edan_result *r, size_t n);
/* Each table with a CSV table (decl->csv) as its file: 0, or -1 with err at the first that fails. */
int edan_results_csv(const edan_result *r, size_t n, const char *dir, const char *base, edan_error *err);

/* ===================================================================== */
/* CSV files a tool's option names (--projection-csv=PATH)                */
/* ===================================================================== */

struct edan_csv;
/*
 * A CSV file at path (what: the option that names it, for errors) with the
 * header of t's columns; then its rows, from one table or (a table cleared
 * and filled again, edan_table_clear) many; edan_csv_close (report/csv.h)
 * renames it into place. 0, or -1 with err.
 */
int edan_table_csv_open(struct edan_csv *c, const edan_table *t, const char *path, const char *what, edan_error *err);
void edan_table_csv_rows(struct edan_csv *c, const edan_table *t);
/* The three at once: t's header and rows at path. 0, or -1 with err. */
int edan_table_csv_at(const edan_table *t, const char *path, const char *what, edan_error *err);
/* No row any more (its columns, its strings and its room kept): a table filled again. */
void edan_table_clear(edan_table *t);

/* ===================================================================== */
/* Absent objects and text forms (the prediction's section)            */
/* ===================================================================== */

/*
 * An object (EDAN_T_GROUP, its members the columns after it) present when the
 * bool member m of S is true, else null (the one way to declare such an
 * object; edan_table_omit_group leaves one out instead: absent, not null).
 */
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
#define EDAN_COL_EMPTY_NULL (1u << 22)
/* JSON: an F64 with precision significant digits (%g): a constant such as 0.95 as it is written. */
#define EDAN_COL_JSON_G (1u << 23)
/* CSV: a BOOL as 1 or 0, not yes or no. */
#define EDAN_COL_CSV_01 (1u << 24)
/* Text: a count of 0 as "-" (a tile that is none). */
#define EDAN_COL_ZERO_DASH (1u << 25)
/* CSV: a string quoted even when it holds no comma, quote or line break (--series-csv's cache, as it always was). */
#define EDAN_COL_CSV_QUOTED (1u << 26)
/*
 * A column's flags each have a bit of their own (EDAN_NO_* and EDAN_COL_*,
 * 1u << 0 .. 1u << 26): the sum of them all equals their union only when no
 * two share one. The next free bit is 1u << 27; a new flag is added to the
 * list below.
 */
#define EDAN_COL_FLAGS_(op)                                                                                            \
    (EDAN_NO_TEXT op EDAN_NO_JSON op EDAN_NO_CSV op EDAN_COL_NAME op EDAN_COL_PERCENT op EDAN_COL_TITLE_AS_IS op       \
         EDAN_COL_LEFT op EDAN_COL_G op EDAN_COL_SIGNED op EDAN_COL_NAN_DASH op EDAN_COL_WHOLE op EDAN_COL_OPTIONAL op \
             EDAN_COL_CUT op EDAN_COL_HEX op EDAN_COL_HEX_0X op EDAN_COL_JSON_WHOLE op EDAN_COL_CSV_G6 op              \
                 EDAN_COL_CSV_WHOLE op EDAN_COL_CSV_NAN_EMPTY op EDAN_COL_CSV_HEX op EDAN_COL_GLUED op                 \
                     EDAN_COL_ENDS_ROW op EDAN_COL_EMPTY_NULL op EDAN_COL_JSON_G op EDAN_COL_CSV_01 op                 \
                         EDAN_COL_ZERO_DASH op EDAN_COL_CSV_QUOTED)
_Static_assert(EDAN_COL_FLAGS_(+) == EDAN_COL_FLAGS_(|), "two column flags share a bit");
_Static_assert(EDAN_COL_FLAGS_(|) == (1u << 27) - 1, "the column flags are the bits below 1u << 27");
#undef EDAN_COL_FLAGS_

/*
 * Leave the column keyed key (EDAN_COL_OPTIONAL, among the first 64) and
 * every member of the object it names ("key.member") out of every format:
 * an object that is absent rather than null. 0, or -1 as edan_table_omit.
 */
int edan_table_omit_group(edan_table *t, const char *key);

/*
 * Each row text shows, written through a form: the form's text as it is,
 * but "{key}" is the row's cell of the column keyed key as text shows it
 * (its width, precision, flags and .text; "{key:W}" at width W, "{key:W.P}"
 * with precision P too), and "{?key}" ("{!key}") leaves the rest
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
