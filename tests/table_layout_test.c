/*
 * table_layout_test.c - the renderer's layouts of ExaSAT-style tables and of
 * CSV files an option names (report/table.h): a cell without a value (NA)
 * blank in text, empty in CSV and null in JSON while another NaN stays NaN;
 * CSV numbers with %.6g, %.0f and hexadecimal; JSON numbers rounded; a suffix
 * glued to the cell before; a row cut short by the reason it has no numbers;
 * a CSV at a path written from one table or from a table cleared and filled
 * again; one column in several formats, each with its own name, place and
 * unit (edan_as); a member of each element of an array as one array. Every expected string is written out by hand from
 * the declaration.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "report/csv.h"
#include "report/table.h"

/* Arrays with their lengths, and whether there are any. */
typedef struct arrays {
    bool has;
    uint64_t u[3];
    size_t nu;
    double d[2];
    unsigned nd;
    int64_t i[2];
    int ni;
} arrays;

static const edan_column cols[] = {
    {"name", EDAN_T_STR, "", "cut to 6", EDAN_COL_CUT, "Name", 6, 0, NULL, EDAN_CELL},
    {"line", EDAN_T_F64, "", "NA: blank", EDAN_COL_CSV_WHOLE, "Line", 4, 0, NULL, EDAN_CELL},
    {"bpf", EDAN_T_F64, "", "%g, NaN as nan", EDAN_COL_G | EDAN_COL_CSV_G6, "B:F", 6, 3, NULL, EDAN_CELL},
    {"ratio", EDAN_T_F64, "", "a NaN empty in CSV", EDAN_COL_G | EDAN_COL_CSV_G6 | EDAN_COL_CSV_NAN_EMPTY, "R/W", 5, 2,
     NULL, EDAN_CELL},
    {"whole", EDAN_T_F64, "", "rounded", EDAN_NO_TEXT | EDAN_COL_JSON_WHOLE | EDAN_COL_CSV_WHOLE, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"addr", EDAN_T_U64, "", "hexadecimal in CSV", EDAN_NO_TEXT | EDAN_COL_CSV_HEX, NULL, 0, 0, NULL, EDAN_CELL},
    {"start", EDAN_T_OPT_U64, "", "hexadecimal or empty", EDAN_NO_TEXT | EDAN_COL_CSV_HEX, NULL, 0, 0, NULL, EDAN_CELL},
    {"why", EDAN_T_STR, "", "ends the row when set", EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_ENDS_ROW, NULL, 8, 0, NULL,
     EDAN_CELL},
    {"tail", EDAN_T_F64, "", "after the reason", 0, "Tail", 5, 1, NULL, EDAN_CELL},
    {"mark", EDAN_T_STR, "", "glued", EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_GLUED, "", 0, 0, NULL, EDAN_CELL},
};
static const edan_table_decl decl = EDAN_TABLE_DECL("t.rows", NULL, false, "layouts", cols);

static char *slurp_stream(FILE *f)
{
    static char buf[2048];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    return buf;
}

static char *text_of(const edan_table *t, int json)
{
    FILE *f = tmpfile();
    if (json)
        edan_table_json(f, t, 0);
    else
        edan_table_text(f, t, &(edan_text_view){.indent = "", .heading_always = true});
    rewind(f);
    char *s = strdup(slurp_stream(f));
    fclose(f);
    return s;
}

static char *file_of(const char *path)
{
    FILE *f = fopen(path, "r");
    char *s = strdup(f ? slurp_stream(f) : "");
    if (f)
        fclose(f);
    return s;
}

/* The CSV file edan_table_csv() writes for table t under the name "x" (freed by expect()). */
static char *csv_of(edan_table *t, const char *name)
{
    char dir[] = "/tmp/edan-csv-XXXXXX", path[256];
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    edan_error err = {0};
    CHECK(edan_table_csv(t, dir, "x", &err) == 0, "csv: %s", err.msg);
    snprintf(path, sizeof path, "%s/x-%s.csv", dir, name);
    char *s = file_of(path);
    unlink(path);
    rmdir(dir);
    return s;
}

/* s (freed) is what was wanted. */
static void expect(char *s, const char *want, const char *what)
{
    CHECK(!strcmp(s, want), "%s:\n%s\nexpected:\n%s", what, s, want);
    free(s);
}

/* The two rows: a whole one, and one without a line, with a NaN ratio and a reason that cuts its text short. */
static void fill(edan_table *t, double first_line)
{
    edan_value *r = edan_table_row(t, 0);
    r[0].s = "alpha_long";
    r[1].f = first_line;
    r[2].f = NAN;
    r[3].f = 1.5;
    r[4].f = 3.7;
    r[5].u = 255;
    r[6].opt.u = 0;
    r[6].opt.set = true;
    r[8].f = 1.5;
    r[9].s = " best";
    r = edan_table_row(t, 0);
    r[0].s = "b";
    r[1].f = edan_na();
    r[2].f = 2;
    r[3].f = NAN;
    r[4].f = NAN;
    r[7].s = "illegal";
    r[8].f = edan_na();
    r[9].s = "";
}

/* ===================================================================== */
/* One column in several formats (edan_as)                                */
/* ===================================================================== */

/* A plan's numbers, each once: in bytes and seconds, shown in KiB and ms in text, in GB and ms in CSV. */
typedef struct plan {
    const char *name;
    uint64_t tile; /* 0: none */
    double bytes, time_s, cost_s;
    bool legal;
} plan;

static const edan_column plan_cols[] = {
    EDAN_COL_FIELD_AS(plan, name, "name", "", "its name", EDAN_COL_LEFT, "name", 6, 0, .text = {.at = 1},
                      .csv = {.at = 1}),
    EDAN_COL_FIELD_AS(plan, tile, "tile", "", "0: none", EDAN_COL_ZERO_DASH, "tile", 4, 0, .text = {.at = 2},
                      .csv = {.at = 5}),
    EDAN_COL_FIELD_AS(plan, bytes, "bytes", "bytes", "traffic", EDAN_COL_JSON_WHOLE, "KiB", 6, 1,
                      .text = {EDAN_AS_KIB, .at = 3}, .csv = {EDAN_AS_GB, .at = 3}, .csv_key = "gb"),
    EDAN_COL_FIELD_AS(plan, time_s, "time_s", "s", "unplaced in text: after the placed", EDAN_COL_G, "ms", 7, 3,
                      .text = {EDAN_AS_MS}, .csv = {EDAN_AS_MS, .at = 2}, .csv_key = "time_ms"),
    EDAN_COL_FIELD_AS(plan, cost_s, "cost_s", "s", "empty in CSV when not legal", EDAN_NO_TEXT, NULL, 0, 0,
                      .csv = {EDAN_AS_MS, .at = 4, .when = "legal"}, .csv_key = "cost_ms"),
    EDAN_COL_FIELD(plan, legal, "legal", "", "1 or 0 in CSV", EDAN_NO_TEXT | EDAN_COL_CSV_01, NULL, 0, 0),
};
static const edan_table_decl plan_decl = EDAN_TABLE_DECL("t.plans", "plans", false, "plans", plan_cols);

/* Each format its own names, places and units of the same members; JSON the declaration's. */
static void per_format(void)
{
    const plan p[2] = {{"tiled", 8, 2048, 0.5, 0.25, true}, {"none", 0, 1536, NAN, 0.5, false}};
    edan_table t;
    edan_table_init(&t, &plan_decl);
    edan_table_rows_of(&t, p, 2, sizeof p[0]);
    expect(text_of(&t, 0),
           "name   tile    KiB      ms\n"
           "tiled     8    2.0     500\n"
           "none      -    1.5     nan\n",
           "text in KiB and ms");
    expect(text_of(&t, 1),
           "[{\"name\":\"tiled\",\"tile\":8,\"bytes\":2048,\"time_s\":0.5,\"cost_s\":0.25,"
           "\"legal\":true},{\"name\":\"none\",\"tile\":0,\"bytes\":1536,\"time_s\":null,"
           "\"cost_s\":0.5,\"legal\":false}]",
           "JSON as stored");
    expect(csv_of(&t, "plans"),
           "name,time_ms,gb,cost_ms,tile,legal\n"
           "tiled,500,2.048e-06,250,8,1\n"
           "none,,1.536e-06,,0,0\n",
           "CSV in GB and ms, its own order");
    FILE *f = tmpfile();
    edan_table_form(f, &t, "{time_s:9}|{bytes}|{tile}\n");
    rewind(f);
    expect(strdup(slurp_stream(f)), "      500|   2.0|   8\n      nan|   1.5|   -\n", "a form's {key:W}");
    fclose(f);
    edan_table_free(&t);
}

/* Each element's member as one array (EDAN_COL_EACH): the numbers where they are, in JSON and a form. */
typedef struct lane {
    double ns;
    uint64_t reads;
    char pad[3];
} lane;
typedef struct lanes {
    lane l[3];
    size_t n;
} lanes;

static void each_member(void)
{
    static const edan_column each_cols[] = {
        EDAN_COL_EACH(lanes, l, ns, n, "ns", "ns", "each lane's latency", 0),
        EDAN_COL_EACH(lanes, l, reads, n, "reads", "", "each lane's reads", 0),
    };
    static const edan_table_decl each_decl = EDAN_TABLE_DECL("t.lanes", NULL, true, "lanes", each_cols);
    CHECK(each_cols[0].type == EDAN_T_F64S && each_cols[1].type == EDAN_T_U64S, "an element's member's type");
    const lanes x = {{{50, 7, ""}, {100.5, 9, ""}, {300, 11, ""}}, 2};
    edan_table t;
    edan_table_init(&t, &each_decl);
    edan_table_row_of(&t, 0, &x, NULL);
    expect(text_of(&t, 1), "\"ns\":[50,100.5],\"reads\":[7,9]", "each element's member, n of them");
    FILE *f = tmpfile();
    edan_table_form(f, &t, "reads {reads}\n");
    rewind(f);
    expect(strdup(slurp_stream(f)), "reads 7 9\n", "an array of counts in a form");
    fclose(f);
    edan_table_free(&t);
}

/* EDAN_COL_CSV_QUOTED: a string quoted whatever it holds, quotes doubled; NULL still an empty field. */
typedef struct cache_row {
    const char *plain, *quoted;
} cache_row;
static const edan_column quoted_cols[] = {
    EDAN_COL_FIELD(cache_row, plain, "plain", "", "quoted when it must be", EDAN_NO_TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(cache_row, quoted, "quoted", "", "always quoted", EDAN_NO_TEXT | EDAN_COL_CSV_QUOTED, NULL, 0, 0),
};
static const edan_table_decl quoted_decl = EDAN_TABLE_DECL("t.quoted", "quoted", false, "quoting", quoted_cols);

static void csv_quoted(void)
{
    const cache_row r[4] = {{"none", "none"}, {"32K,line=64", "32K,line=64"}, {NULL, NULL}, {"a\"b", "a\"b"}};
    edan_table t;
    edan_table_init(&t, &quoted_decl);
    edan_table_rows_of(&t, r, 4, sizeof r[0]);
    expect(csv_of(&t, "quoted"),
           "plain,quoted\n"
           "none,\"none\"\n"
           "\"32K,line=64\",\"32K,line=64\"\n"
           ",\n"
           "\"a\"\"b\",\"a\"\"b\"\n",
           "CSV quoted when it must be, or always");
    edan_table_free(&t);
}

int main(void)
{
    per_format();
    csv_quoted();
    each_member();
    CHECK(isnan(edan_na()) && edan_is_na(edan_na()) && !edan_is_na(NAN) && !edan_is_na(0), "NA is a NaN of its own");
    edan_table t;
    edan_table_init(&t, &decl);
    fill(&t, 12);

    expect(text_of(&t, 0),
           "Name   Line    B:F   R/W  Tail\n"
           "alpha_   12    nan   1.5   1.5 best\n"
           "b                2   nan  illegal\n",
           "text");

    expect(text_of(&t, 1),
           "[{\"name\":\"alpha_long\",\"line\":12,\"bpf\":null,\"ratio\":1.5,\"whole\":4,\"addr\":255,"
           "\"start\":0,\"tail\":1.5},"
           "{\"name\":\"b\",\"line\":null,\"bpf\":2,\"ratio\":null,\"whole\":null,\"addr\":0,"
           "\"start\":null,\"tail\":null}]",
           "JSON");

    char dir[] = "/tmp/edan-layout-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char path[256];
    snprintf(path, sizeof path, "%s/named.csv", dir);
    edan_error err = {0};
    CHECK(edan_table_csv_at(&t, path, "--test-csv", &err) == 0, "csv at a path: %s", err.msg);
    expect(file_of(path),
           "name,line,bpf,ratio,whole,addr,start,tail\n"
           "alpha_long,12,nan,1.5,4,0xff,0,1.5\n"
           "b,,2,,nan,0,,\n",
           "CSV");

    /* one file from a table cleared and filled again: the header once */
    edan_csv c;
    CHECK(edan_table_csv_open(&c, &t, path, "--test-csv", &err) == 0, "open: %s", err.msg);
    edan_table_csv_rows(&c, &t);
    edan_table_clear(&t);
    CHECK(t.n_rows == 0, "cleared");
    fill(&t, 7);
    edan_table_csv_rows(&c, &t);
    CHECK(edan_csv_close(&c, &err) == 0, "close: %s", err.msg);
    expect(file_of(path),
           "name,line,bpf,ratio,whole,addr,start,tail\n"
           "alpha_long,12,nan,1.5,4,0xff,0,1.5\n"
           "b,,2,,nan,0,,\n"
           "alpha_long,7,nan,1.5,4,0xff,0,1.5\n"
           "b,,2,,nan,0,,\n",
           "CSV of a table filled twice");
    unlink(path);

    /* a path that cannot be written: an error naming the option, nothing left */
    snprintf(path, sizeof path, "%s/missing/x.csv", dir);
    CHECK(edan_table_csv_at(&t, path, "--test-csv", &err) == -1 && strstr(err.msg, "--test-csv"),
          "an unwritable path: %s", err.msg);
    rmdir(dir);
    edan_table_free(&t);

    /* signed arrays, and a row JSON writes as null (an array's element without a value) */
    static const edan_column signed_cols[] = {
        {"base", EDAN_T_I64, "", "a signed count", 0, NULL, 0, 0, NULL, EDAN_CELL},
        {"strides", EDAN_T_I64S, "", "signed counts", 0, NULL, 0, 0, NULL, EDAN_CELL},
    };
    static const edan_table_decl sdecl = EDAN_TABLE_DECL("t.bounds", NULL, false, "signed", signed_cols);
    static const int64_t strides[] = {-2, 0, 3};
    edan_table_init(&t, &sdecl);
    edan_table_row(&t, EDAN_ROW_NULL);
    edan_value *r = edan_table_row(&t, 0);
    r[0].i = -1;
    r[1].ia.v = strides;
    r[1].ia.n = 3;
    edan_table_row(&t, EDAN_ROW_NULL);
    expect(text_of(&t, 1), "[null,{\"base\":-1,\"strides\":[-2,0,3]},null]", "signed arrays and null rows");
    edan_table_free(&t);

    /* arrays bound to a struct's members with their lengths' members, and a group bound to a bool */
    static const edan_column array_cols[] = {
        EDAN_COL_GROUP_FIELD(arrays, has, "g", "null when has is false", 0),
        EDAN_COL_ARRAY(arrays, u, nu, "g.u", "", "counts, a size_t length", 0),
        EDAN_COL_ARRAY(arrays, d, nd, "g.d", "", "numbers, an unsigned length", 0),
        EDAN_COL_ARRAY(arrays, i, ni, "g.i", "", "signed counts, an int length", 0),
    };
    static const edan_table_decl adecl = EDAN_TABLE_DECL("t.arrays", NULL, false, "arrays", array_cols);
    CHECK(array_cols[1].type == EDAN_T_U64S && array_cols[2].type == EDAN_T_F64S && array_cols[3].type == EDAN_T_I64S,
          "an array column's type from its elements'");
    const arrays a[2] = {{true, {1, 2, 3}, 2, {0.5}, 1, {-4, 5}, 2}, {false, {0}, 0, {0}, 0, {0}, -1}};
    edan_table_init(&t, &adecl);
    edan_table_rows_of(&t, a, 2, sizeof a[0]);
    expect(text_of(&t, 1), "[{\"g\":{\"u\":[1,2],\"d\":[0.5],\"i\":[-4,5]}},{\"g\":null}]", "bound arrays");
    edan_table_free(&t);
    return check_summary();
}
