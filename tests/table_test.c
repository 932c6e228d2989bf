/*
 * table_test.c - the result tables' renderer (report/table.h): a table of
 * every column type and flag written as text, JSON and CSV and compared with
 * what the declaration says each format shows: headings and widths, names
 * shortened, rows left out of a format, "N more", nested objects and a null
 * group in JSON, CSV quoting and headers; booleans, counts that may be
 * unknown and another table's rows in a cell; run-time columns that change
 * the JSON layout refused; columns bound to the members of a row's structs
 * (every member type), rendered as the same rows filled cell by cell; a
 * tool's tables rendered together (edan_results_*): titles with {key}s,
 * captions, nested JSON paths, tables left out of a format; bound arrays
 * (numbers, counts, strings, empty as null), objects present by a bool
 * member or absent (edan_table_omit_group), a number as %g in JSON, a table
 * of scalars as an object, and text forms with their conditions.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "report/table.h"

/* A row's structs for the bound columns: every member type a column binds to. */
typedef struct bound_row {
    uint32_t small;
    char name[12];
    double x;
    bool ok;
    int64_t d;
    const char *s;
    int k;
    uint64_t n;
} bound_row;
typedef struct bound_more {
    const struct edan_table *sub;
    uint64_t extra;
} bound_more;
static const edan_column bound_cols[] = {
    EDAN_COL_FIELD(bound_row, name, "name", "", "a char array", EDAN_COL_LEFT, NULL, 6, 0),
    EDAN_COL_FIELD(bound_row, n, "n", "", "a uint64_t", 0, NULL, 4, 0),
    EDAN_COL_FIELD(bound_row, small, "small", "", "a uint32_t", 0, NULL, 6, 0),
    EDAN_COL_FIELD(bound_row, d, "d", "", "an int64_t", 0, NULL, 4, 0),
    EDAN_COL_FIELD(bound_row, k, "k", "", "an int", 0, NULL, 3, 0),
    EDAN_COL_FIELD(bound_row, x, "x", "", "a double", 0, NULL, 6, 2),
    EDAN_COL_FIELD(bound_row, ok, "ok", "", "a bool", 0, NULL, 4, 0),
    EDAN_COL_FIELD(bound_row, s, "s", "", "a const char *", 0, NULL, 3, 0),
    {"cell", EDAN_T_U64, "", "a cell among bound columns", 0, NULL, 5, 0, NULL, EDAN_CELL},
    EDAN_COL_OF(1, bound_more, extra, "extra", "", "a member of the row's second struct", 0, NULL, 6, 0),
    EDAN_COL_OF(1, bound_more, sub, "sub", "", "another table's rows", 0, NULL, 0, 0),
};

static const edan_column cols[] = {
    {"label", EDAN_T_STR, "", "text's name", EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_NAME, "name", 10, 0, NULL,
     EDAN_CELL},
    {"name", EDAN_T_STR, "", "the name", EDAN_NO_TEXT, NULL, 0, 0, "who", EDAN_CELL},
    {"n", EDAN_T_U64, "accesses", "a count", 0, "count", 6, 0, NULL, EDAN_CELL},
    {"d", EDAN_T_I64, "", "a difference", 0, NULL, 4, 0, NULL, EDAN_CELL},
    {"share", EDAN_T_F64, "%", "a percentage", EDAN_COL_PERCENT, "%", 7, 1, NULL, EDAN_CELL},
    {"g", EDAN_T_F64, "", "a %g", EDAN_COL_G | EDAN_NO_CSV, NULL, 8, 3, NULL, EDAN_CELL},
    {"k", EDAN_T_STR, "", "a left string", EDAN_COL_LEFT, "kind", 5, 0, NULL, EDAN_CELL},
    {"obj", EDAN_T_GROUP, "", "an object or null", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"obj.a", EDAN_T_U64, "", "its a", EDAN_NO_TEXT, NULL, 0, 0, "obj_a", EDAN_CELL},
    {"obj.in.b", EDAN_T_U64S, "", "its array in an object", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"after", EDAN_T_F64S, "", "an array after it", 0, NULL, 0, 0, NULL, EDAN_CELL},
};
static const edan_table_decl decl = EDAN_TABLE_DECL("x.rows", "rows", false, "a test table", cols);

static char *render(const edan_table *t, int fmt, const edan_text_view *v, size_t max)
{
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    if (fmt == 0)
        edan_table_text(f, t, v);
    else
        edan_table_json(f, t, max);
    fclose(f);
    return buf;
}

/* ===================================================================== */
/* A tool's results rendered together                                     */
/* ===================================================================== */

static char *render_results(const edan_result *r, size_t n, int fmt)
{
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    if (fmt == 0)
        edan_results_text(f, r, n);
    else
        edan_results_json(f, r, n);
    fclose(f);
    return buf;
}

/*
 * Tables at nested paths written as one tool's JSON section, titles with
 * their {key}s, captions only over rows, and each format leaving out what
 * the results say.
 */
static void results_test(void)
{
    static const edan_column top_cols[] = {
        {"n", EDAN_T_U64, "", "a count", 0, NULL, 0, 0, NULL, EDAN_CELL},
        {"x", EDAN_T_F64, "", "a %g", EDAN_COL_G, NULL, 0, 3, NULL, EDAN_CELL},
        {"addr", EDAN_T_U64, "", "hexadecimal with 0x", EDAN_COL_HEX_0X, NULL, 8, 0, NULL, EDAN_CELL},
        {"note", EDAN_T_STR, "", "text only", EDAN_NO_JSON | EDAN_NO_CSV, NULL, 0, 0, NULL, EDAN_CELL},
    };
    static const edan_column sub_cols[] = {{"m", EDAN_T_U64, "", "a count", 0, NULL, 0, 0, NULL, EDAN_CELL}};
    static const edan_column row_cols[] = {{"v", EDAN_T_U64, "", "a count", 0, NULL, 4, 0, NULL, EDAN_CELL}};
    static const edan_table_decl decls[] = {
        EDAN_TABLE_DECL("t", NULL, true, "scalars", top_cols),
        EDAN_TABLE_DECL("t.sub.deep", NULL, true, "scalars in an object in an object", sub_cols),
        EDAN_TABLE_DECL("t.rows", "t-rows", false, "rows", row_cols),
        EDAN_TABLE_DECL("t.none", "t-none", false, "rows the run cannot have", row_cols),
        EDAN_CSV_TABLE_DECL("t.csv", "t-csv", "rows of the CSV files alone", row_cols),
        EDAN_TABLE_DECL("top", "top", false, "rows at the top level", row_cols),
    };
    edan_table t[6];
    for (int k = 0; k < 6; k++) {
        edan_table_init(&t[k], &decls[k]);
        for (uint64_t i = 0; k >= 2 && i < 3; i++)
            edan_table_row(&t[k], 0)->u = 10 * (uint64_t)k + i;
    }
    edan_value *v = edan_table_row(&t[0], 0);
    v[0].u = 7;
    v[1].f = 12.3456;
    v[2].u = 255;
    v[3].s = "fine";
    edan_table_row(&t[1], 0)->u = 5;
    const edan_result r[] = {
        {.t = &t[0], .view = {.title = "\nt: {n} things, x {x} at {addr} ({note}), {unknown} {n"}},
        {.t = &t[1], .left = EDAN_NO_TEXT},
        {.t = &t[2], .view = {.caption = "  the rows", .max_rows = 2}, .json_rows = 2},
        {.t = &t[3], .view = {.caption = "  never shown", .min_rows = 4}, .absent = true, .left = EDAN_NO_CSV},
        {.t = &t[4], .left = EDAN_NO_TEXT},
        {.t = &t[5], .left = EDAN_NO_TEXT},
    };
    char *text = render_results(r, 6, 0), *json = render_results(r, 6, 1);
    CHECK(!strcmp(text, "\nt: 7 things, x 12.3 at     0xff (fine), {?} {n\n"
                        "  the rows\n     v\n    20\n    21\n  (1 more)\n"),
          "results text:\n%s", text);
    CHECK(!strcmp(json, ",\"t\":{\"n\":7,\"x\":12.345599999999999,\"addr\":255,\"sub\":{\"deep\":{\"m\":5}},"
                        "\"rows\":[{\"v\":20},{\"v\":21}],\"none\":null},\"top\":[{\"v\":50},{\"v\":51},{\"v\":52}]"),
          "results JSON:\n%s", json);
    free(text);
    free(json);
    /* a section whose first table is rows in an object: no comma before its first member */
    json = render_results(&r[2], 1, 1);
    CHECK(!strcmp(json, ",\"t\":{\"rows\":[{\"v\":20},{\"v\":21}]}"), "rows first in an object: %s", json);
    free(json);
    char dir[] = "/tmp/edan-results-XXXXXX", path[256];
    edan_error err = {0};
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    CHECK(edan_results_csv(r, 6, dir, "b", &err) == 0, "results CSV: %s", err.msg);
    static const char *const files[] = {"b-t-rows.csv", "b-t-csv.csv", "b-top.csv"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        CHECK(access(path, R_OK) == 0, "results CSV: %s written", files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/b-t-none.csv", dir);
    CHECK(access(path, R_OK) != 0, "results CSV: a table left out of CSV is not written");
    rmdir(dir);
    for (int k = 0; k < 6; k++)
        edan_table_free(&t[k]);
}

/* ---- bound arrays, absent objects and text forms ---- */

typedef struct form_row {
    double v[3];
    uint64_t u[3];
    const char *s[2];
    size_t n, n0, ns;
    bool has, opt;
    uint64_t c;
    const char *name;
    double x;
} form_row;

static const edan_column form_cols[] = {
    EDAN_COL_FIELD(form_row, name, "name", "", "a name", 0, NULL, 0, 0),
    EDAN_COL_ARRAY(form_row, v, n, "v", "", "numbers", 0),
    EDAN_COL_ARRAY(form_row, u, n0, "u", "", "counts, none: null", EDAN_COL_EMPTY_NULL),
    EDAN_COL_ARRAY(form_row, s, ns, "s", "", "strings", 0),
    EDAN_COL_GROUP_FIELD(form_row, has, "g", "an object present when has", 0),
    EDAN_COL_FIELD(form_row, c, "g.c", "", "its count", 0, NULL, 3, 0),
    EDAN_COL_GROUP_FIELD(form_row, opt, "o", "an object that may be absent", EDAN_COL_OPTIONAL),
    EDAN_COL_FIELD(form_row, c, "o.c", "", "its count", 0, NULL, 0, 0),
    EDAN_COL_FIELD(form_row, x, "x", "", "a number as %g", EDAN_COL_JSON_G, NULL, 0, 2),
};

static char *form_text(const edan_table *t, const char *form)
{
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    edan_table_form(f, t, form);
    fclose(f);
    return buf;
}

static void forms_and_arrays(void)
{
    static const edan_table_decl fdecl = EDAN_TABLE_DECL("top.f", "f", false, "forms", form_cols);
    static const edan_table_decl fone = EDAN_TABLE_DECL("top.one", NULL, true, "scalars", form_cols);
    form_row rows[2] = {{{0.5, 2, 3}, {4, 5, 6}, {"a", "b\""}, 2, 0, 2, true, true, 7, "first", 0.95},
                        {{1}, {1}, {NULL}, 1, 1, 0, false, false, 0, NULL, NAN}};
    edan_table t;
    edan_table_init(&t, &fdecl);
    CHECK(edan_table_rows_of(&t, rows, 2, sizeof rows[0]) == 0, "form rows");
    char *json = render(&t, 1, NULL, 0);
    const char *want = "[{\"name\":\"first\",\"v\":[0.5,2],\"u\":null,\"s\":[\"a\",\"b\\\"\"],\"g\":{\"c\":7},"
                       "\"o\":{\"c\":7},\"x\":0.95},"
                       "{\"name\":null,\"v\":[1],\"u\":[1],\"s\":[],\"g\":null,\"o\":null,\"x\":null}]";
    CHECK(!strcmp(json, want), "bound arrays and objects:\n%s\nexpected:\n%s", json, want);
    free(json);
    CHECK(edan_table_omit_group(&t, "o") == 0 && edan_table_omit_group(&t, "g") == -1, "omit a group");
    json = render(&t, 1, NULL, 1);
    CHECK(!strcmp(json, "[{\"name\":\"first\",\"v\":[0.5,2],\"u\":null,\"s\":[\"a\",\"b\\\"\"],\"g\":{\"c\":7},"
                        "\"x\":0.95}]"),
          "an object omitted, its members too: %s", json);
    free(json);
    char dir[] = "/tmp/edan_table_formXXXXXX", path[256], got[256];
    edan_error err = {0};
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    CHECK(edan_table_csv(&t, dir, "base", &err) == 0, "csv: %s", err.msg);
    snprintf(path, sizeof path, "%s/base-f.csv", dir);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    got[n] = '\0';
    if (f)
        fclose(f);
    CHECK(!strcmp(got, "name,g.c,x\nfirst,7,0.95\n,0,\n"), "CSV without arrays and groups:\n%s", got);
    unlink(path);
    rmdir(dir);
    /* forms: cells as text shows them, conditions to the line's end or to {;}, lines left out whole */
    char *text = form_text(&t, "row {name}:{g.c}{?g} g{;}{!g} no g{;}, x {x}\n{?o}o {o.c}\n{!g}  not g\n{nope}.");
    const char *want_text = "row first:  7 g, x 0.95\n{?}.row ?:  0 no g, x nan\n  not g\n{?}.";
    CHECK(!strcmp(text, want_text), "form:\n%s\nexpected:\n%s", text, want_text);
    free(text);
    text = form_text(&t, "{name}{?u}, u\n");
    CHECK(!strcmp(text, "first\n?, u\n"), "a condition after text keeps the line's end: '%s'", text);
    free(text);
    edan_table_free(&t);
    edan_table one;
    edan_table_init(&one, &fone);
    edan_table_row_of(&one, 0, &rows[1], NULL);
    char *buf = NULL;
    size_t len;
    f = open_memstream(&buf, &len);
    edan_table_json_object(f, &one);
    fclose(f);
    CHECK(!strcmp(buf, ",\"one\":{\"name\":null,\"v\":[1],\"u\":[1],\"s\":[],\"g\":null,\"o\":null,\"x\":null}"),
          "scalars as an object: %s", buf);
    free(buf);
    edan_table_free(&one);
}

int main(void)
{
    edan_table t;
    edan_table_init(&t, &decl);
    static const uint64_t arr[] = {1, 2};
    static const double num[] = {0.5, 3};
    edan_value *r = edan_table_row(&t, 0);
    r[0].s = "a_rather_long_name";
    r[1].s = "x,\"y\"";
    r[2].u = 42;
    r[3].i = -3;
    r[4].f = 12.25;
    r[5].f = 0.0001220703125; /* 2^-13: exact in binary */
    r[6].s = "io";
    r[7].u = 1;
    r[8].u = 7;
    r[9].a.v = arr;
    r[9].a.n = 2;
    r[10].d.v = num;
    r[10].d.n = 2;
    r = edan_table_row(&t, EDAN_NO_TEXT); /* JSON and CSV only; its group null */
    r[0].s = "hidden";
    r[2].u = 1;
    r[10].d.v = num;
    r[10].d.n = 1;
    r = edan_table_row(&t, EDAN_NO_JSON | EDAN_NO_CSV);
    r[0].s = "b";
    r[2].u = 5;
    r[6].s = NULL;

    char *text = render(&t, 0, &(edan_text_view){.max_rows = 1, .more = "; more"}, 0);
    const char *want_text = "  name        count    d       %        g kind \n"
                            "  a_rather_…     42   -3   12.2% 0.000122 io   \n"
                            "  (1 more; more)\n";
    CHECK(!strcmp(text, want_text), "text:\n%s\nexpected:\n%s", text, want_text);
    free(text);
    text = render(&t, 0, &(edan_text_view){.indent = "| ", .min_rows = 3, .wide = true, .no_heading = true}, 0);
    CHECK(!strcmp(text, ""), "fewer rows than min_rows: nothing, got %s", text);
    free(text);
    text = render(&t, 0, &(edan_text_view){.indent = "| ", .wide = true, .no_heading = true}, 0);
    const char *want_rows = "| a_rather_long_name     42   -3   12.2% 0.000122 io   \n"
                            "| b               5    0    0.0%        0 ?    \n";
    CHECK(!strcmp(text, want_rows), "rows alone, wide:\n%s\nexpected:\n%s", text, want_rows);
    free(text);

    char *json = render(&t, 1, NULL, 0);
    const char *want_json =
        "[{\"name\":\"x,\\\"y\\\"\",\"n\":42,\"d\":-3,\"share\":12.25,\"g\":0.0001220703125,\"k\":\"io\","
        "\"obj\":{\"a\":7,\"in\":{\"b\":[1,2]}},\"after\":[0.5,3]},"
        "{\"name\":null,\"n\":1,\"d\":0,\"share\":0,\"g\":0,\"k\":null,\"obj\":null,\"after\":[0.5]}]";
    CHECK(!strcmp(json, want_json), "JSON:\n%s\nexpected:\n%s", json, want_json);
    free(json);
    json = render(&t, 1, NULL, 1);
    CHECK(strstr(json, "hidden") == NULL && strchr(json, '}') && !strstr(json, "},{"), "max_rows 1: %s", json);
    free(json);

    char dir[] = "/tmp/edan-table-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    edan_error err = {0};
    CHECK(edan_table_csv(&t, dir, "base", &err) == 0, "csv: %s", err.msg);
    char path[256], got[512] = "";
    snprintf(path, sizeof path, "%s/base-rows.csv", dir);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    got[n] = '\0';
    if (f)
        fclose(f);
    const char *want_csv = "who,n,d,share,k,obj_a\n"
                           "\"x,\"\"y\"\"\",42,-3,12.25,io,7\n"
                           ",1,0,0,,0\n";
    CHECK(!strcmp(got, want_csv), "CSV:\n%s\nexpected:\n%s", got, want_csv);
    unlink(path);
    rmdir(dir);

    /* scalars: row 0's members; without a row every top-level key null */
    static const edan_table_decl one = EDAN_TABLE_DECL("x", NULL, true, "scalars", cols);
    edan_table sc;
    edan_table_init(&sc, &one);
    json = render(&sc, 1, NULL, 0);
    CHECK(!strcmp(json, "\"name\":null,\"n\":null,\"d\":null,\"share\":null,\"g\":null,\"k\":null,\"obj\":null,"
                        "\"after\":null"),
          "scalars without a row: %s", json);
    free(json);
    r = edan_table_row(&sc, 0);
    r[2].u = 9;
    json = render(&sc, 1, NULL, 0);
    CHECK(!strncmp(json, "\"name\":null,\"n\":9,", 17), "scalars: %s", json);
    free(json);
    edan_table_free(&sc);

    /* run-time columns: JSON's must be the declaration's */
    edan_column more[sizeof cols / sizeof cols[0] + 1];
    memcpy(more, cols, sizeof cols);
    more[11] =
        (edan_column){"extra", EDAN_T_U64, "", "text only", EDAN_NO_JSON | EDAN_NO_CSV, NULL, 3, 0, NULL, EDAN_CELL};
    edan_table u;
    CHECK(edan_table_init_cols(&u, &decl, more, 12) == 0 && u.n_cols == 12, "a text-only column is accepted");
    edan_table_free(&u);
    more[11].flags = 0;
    CHECK(edan_table_init_cols(&u, &decl, more, 12) == -1 && u.failed && u.n_cols == decl.n_cols,
          "a JSON column the declaration lacks is refused");
    edan_table_free(&u);
    more[2].type = EDAN_T_F64;
    CHECK(edan_table_init_cols(&u, &decl, more, 11) == -1, "a JSON column of another type is refused");
    edan_table_free(&u);
    CHECK(edan_table_col(cols, 11, "obj.a") == 8 && edan_table_col(cols, 11, "nope") == -1, "edan_table_col");
    edan_table_free(&t);

    /* a boolean, a count that may be unknown, and another table's rows (or null) in a cell */
    static const edan_column inner_cols[] = {{"v", EDAN_T_U64, "", "a value", 0, NULL, 0, 0, NULL, EDAN_CELL}};
    static const edan_column outer_cols[] = {
        {"ok", EDAN_T_BOOL, "", "a boolean", 0, NULL, 4, 0, NULL, EDAN_CELL},
        {"opt", EDAN_T_OPT_U64, "", "a count or unknown", 0, NULL, 4, 0, NULL, EDAN_CELL},
        {"sub", EDAN_T_ROWS, "", "the rows of another table", 0, NULL, 0, 0, NULL, EDAN_CELL},
    };
    static const edan_table_decl inner = EDAN_TABLE_DECL("y.rows.sub", NULL, false, "inner", inner_cols);
    static const edan_table_decl outer = EDAN_TABLE_DECL("y.rows", "outer", false, "outer", outer_cols);
    edan_table in, out;
    edan_table_init(&in, &inner);
    edan_table_init(&out, &outer);
    edan_table_row(&in, 0)[0].u = 3;
    edan_table_row(&in, EDAN_NO_JSON)[0].u = 4;
    r = edan_table_row(&out, 0);
    r[0].b = true;
    r[1].opt.u = 0;
    r[1].opt.set = true;
    r[2].rows = &in;
    edan_table_row(&out, 0); /* false, unknown, null */
    json = render(&out, 1, NULL, 0);
    const char *want_nested = "[{\"ok\":true,\"opt\":0,\"sub\":[{\"v\":3}]},{\"ok\":false,\"opt\":null,\"sub\":null}]";
    CHECK(!strcmp(json, want_nested), "booleans, unknown counts, rows:\n%s\nexpected:\n%s", json, want_nested);
    free(json);
    text = render(&out, 0, &(edan_text_view){0}, 0);
    CHECK(!strcmp(text, "    ok  opt\n   yes    0\n    no    -\n"), "text of booleans and unknown counts:\n%s", text);
    free(text);
    char dir2[] = "/tmp/edan-table-XXXXXX";
    CHECK(mkdtemp(dir2) != NULL, "mkdtemp");
    CHECK(edan_table_csv(&out, dir2, "base", &err) == 0, "csv: %s", err.msg);
    snprintf(path, sizeof path, "%s/base-outer.csv", dir2);
    f = fopen(path, "r");
    n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    got[n] = '\0';
    if (f)
        fclose(f);
    CHECK(!strcmp(got, "ok,opt\nyes,0\nno,\n"), "CSV of booleans and unknown counts:\n%s", got);
    unlink(path);
    rmdir(dir2);
    edan_table_free(&in);
    /* heading_always: the heading of a table without a row */
    edan_table_init(&in, &inner);
    text = render(&in, 0, &(edan_text_view){.heading_always = true}, 0);
    CHECK(!strcmp(text, "  v\n"), "the heading alone: '%s'", text);
    free(text);
    text = render(&in, 0, &(edan_text_view){0}, 0);
    CHECK(!strcmp(text, ""), "nothing without a row: '%s'", text);
    free(text);
    edan_table_free(&in);
    edan_table_free(&out);

    /* a signed percentage and a signed number, NaN as "-" */
    static const edan_column sign_cols[] = {
        {"p", EDAN_T_F64, "percent", "signed", EDAN_COL_PERCENT | EDAN_COL_SIGNED | EDAN_COL_NAN_DASH, NULL, 7, 1, NULL,
         EDAN_CELL},
        {"x", EDAN_T_F64, "", "signed", EDAN_COL_SIGNED | EDAN_COL_NAN_DASH, NULL, 5, 1, NULL, EDAN_CELL},
    };
    static const edan_table_decl sign = EDAN_TABLE_DECL("z", NULL, false, "signs", sign_cols);
    edan_table_init(&out, &sign);
    r = edan_table_row(&out, 0);
    r[0].f = 12.5;
    r[1].f = -3;
    r = edan_table_row(&out, 0);
    r[0].f = r[1].f = NAN;
    text = render(&out, 0, &(edan_text_view){0}, 0);
    CHECK(!strcmp(text, "        p     x\n   +12.5%  -3.0\n        -     -\n"), "signs and NaN:\n%s", text);
    free(text);
    json = render(&out, 1, NULL, 0);
    CHECK(!strcmp(json, "[{\"p\":12.5,\"x\":-3},{\"p\":null,\"x\":null}]"), "JSON of NaN: %s", json);
    free(json);
    edan_table_free(&out);

    /* counts keyed by names known when it runs (JSON only), whole numbers as integers in text */
    static const edan_column named_cols[] = {
        {"w", EDAN_T_F64, "", "whole or %g", EDAN_COL_WHOLE, NULL, 8, 3, NULL, EDAN_CELL},
        {"by", EDAN_T_NAMED, "", "counts by name", 0, NULL, 0, 0, NULL, EDAN_CELL},
    };
    static const edan_table_decl named = EDAN_TABLE_DECL("n", "named", false, "named", named_cols);
    static const char *const names[] = {"int", "load"};
    static const uint64_t counts[] = {5, 0};
    edan_table_init(&out, &named);
    r = edan_table_row(&out, 0);
    r[0].f = 12345;
    r[1].named.names = names;
    r[1].named.v = counts;
    r[1].named.n = 2;
    edan_table_row(&out, 0)[0].f = 0.123456;
    text = render(&out, 0, &(edan_text_view){0}, 0);
    CHECK(!strcmp(text, "         w\n     12345\n     0.123\n"), "whole numbers and %%g:\n%s", text);
    free(text);
    json = render(&out, 1, NULL, 0);
    CHECK(!strcmp(json, "[{\"w\":12345,\"by\":{\"int\":5,\"load\":0}},{\"w\":0.123456,\"by\":{}}]"),
          "counts by name: %s", json);
    free(json);
    edan_table_free(&out);

    /* columns bound to members: the same text, JSON and CSV as the rows filled cell by cell */
    static const edan_table_decl bound = EDAN_TABLE_DECL("b", "bound", false, "bound", bound_cols);
    const bound_row rows[2] = {{7, "first", 1.5, true, -2, "s", -1, 42}, {0, "", -0.25, false, 5, NULL, 3, 0}};
    edan_table_init(&in, &inner);
    edan_table_row(&in, 0)[0].u = 3;
    const bound_more more2[2] = {{&in, 9}, {NULL, 0}};
    edan_table bt, ct;
    edan_table_init(&bt, &bound);
    edan_table_init(&ct, &bound);
    for (int i = 0; i < 2; i++) {
        edan_table_row_of(&bt, 0, &rows[i], &more2[i])[8].u = 10u + (unsigned)i;
        r = edan_table_row(&ct, 0);
        r[0].s = rows[i].name;
        r[1].u = rows[i].n;
        r[2].u = rows[i].small;
        r[3].i = rows[i].d;
        r[4].i = rows[i].k;
        r[5].f = rows[i].x;
        r[6].b = rows[i].ok;
        r[7].s = rows[i].s;
        r[8].u = 10u + (unsigned)i;
        r[9].u = more2[i].extra;
        r[10].rows = more2[i].sub;
    }
    CHECK(bound_cols[0].type == EDAN_T_STR && bound_cols[2].type == EDAN_T_U64 && bound_cols[4].type == EDAN_T_I64 &&
              bound_cols[6].type == EDAN_T_BOOL && bound_cols[10].type == EDAN_T_ROWS &&
              bound_cols[10].field.source == 1,
          "a bound column's type and source from its member");
    char *bj = render(&bt, 1, NULL, 0), *cj = render(&ct, 1, NULL, 0);
    const char *want_bound = "[{\"name\":\"first\",\"n\":42,\"small\":7,\"d\":-2,\"k\":-1,\"x\":1.5,\"ok\":true,"
                             "\"s\":\"s\",\"cell\":10,\"extra\":9,\"sub\":[{\"v\":3}]},"
                             "{\"name\":\"\",\"n\":0,\"small\":0,\"d\":5,\"k\":3,\"x\":-0.25,\"ok\":false,"
                             "\"s\":null,\"cell\":11,\"extra\":0,\"sub\":null}]";
    CHECK(!strcmp(bj, want_bound) && !strcmp(bj, cj), "bound JSON:\n%s\ncells:\n%s", bj, cj);
    free(bj);
    free(cj);
    bj = render(&bt, 0, &(edan_text_view){0}, 0);
    cj = render(&ct, 0, &(edan_text_view){0}, 0);
    CHECK(!strcmp(bj, cj) && strstr(bj, "  first    42      7   -2  -1   1.50  yes   s    10      9\n"),
          "bound text:\n%s\ncells:\n%s", bj, cj);
    free(bj);
    free(cj);
    char dir3[] = "/tmp/edan-table-XXXXXX";
    CHECK(mkdtemp(dir3) != NULL, "mkdtemp");
    CHECK(edan_table_csv(&bt, dir3, "base", &err) == 0, "csv: %s", err.msg);
    snprintf(path, sizeof path, "%s/base-bound.csv", dir3);
    f = fopen(path, "r");
    n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    got[n] = '\0';
    if (f)
        fclose(f);
    CHECK(
        !strcmp(got, "name,n,small,d,k,x,ok,s,cell,extra\nfirst,42,7,-2,-1,1.5,yes,s,10,9\n,0,0,5,3,-0.25,no,,11,0\n"),
        "bound CSV:\n%s", got);
    unlink(path);
    rmdir(dir3);
    edan_table_free(&ct);
    edan_table_free(&bt);
    /* an array of row structs in one call */
    static const edan_column array_cols[] = {
        EDAN_COL_FIELD(bound_row, name, "name", "", "a char array", 0, NULL, 6, 0),
        EDAN_COL_FIELD(bound_row, n, "n", "", "a uint64_t", 0, NULL, 4, 0),
    };
    static const edan_table_decl array = EDAN_TABLE_DECL("a", NULL, false, "array", array_cols);
    edan_table_init(&bt, &array);
    CHECK(edan_table_rows_of(&bt, rows, 2, sizeof rows[0]) == 0 && bt.n_rows == 2, "rows of an array");
    bj = render(&bt, 1, NULL, 0);
    CHECK(!strcmp(bj, "[{\"name\":\"first\",\"n\":42},{\"name\":\"\",\"n\":0}]"), "rows of an array: %s", bj);
    free(bj);
    edan_table_free(&bt);
    edan_table_free(&in);
    results_test();
    forms_and_arrays();
    return check_summary();
}
