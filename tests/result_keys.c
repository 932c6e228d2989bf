/*
 * result_keys.c - the tool contract's declarations, for
 * tests/result_keys_test.py: every registered tool's result tables, one line
 * per JSON key (path, key, type, unit, meaning), and a check of the tools'
 * uses (each in the registry, no cycle: the session can order them).
 *
 * With --markdown it writes the JSON key reference, docs/json-keys.md, from
 * the same declarations (tests/json_keys_test.py fails when the committed
 * file differs).
 *
 * usage: result_keys              prints "PATH<TAB>rows|scalars<TAB>KEY<TAB>TYPE<TAB>UNIT<TAB>DOC" lines; exit 1 on
 *                                 a bad declaration
 *        result_keys --markdown   prints docs/json-keys.md
 */
#include <stdio.h>
#include <string.h>

#include "tool/registry.h"

static const char *const type_name[] = {"u64",  "i64",  "f64",  "string", "u64[]", "f64[]",   "group",
                                        "bool", "u64?", "rows", "named",  "i64[]", "string[]"};

static int index_of(const edan_tool_def *d)
{
    for (int t = 0; t < edan_n_tools; t++)
        if (edan_tools[t] == d)
            return t;
    return -1;
}

/* Depth-first over uses: 1 when a cycle passes through tool t. state: 0 unseen, 1 on the path, 2 done. */
static int cycle(int t, char *state)
{
    if (state[t] == 1)
        return 1;
    if (state[t] == 2)
        return 0;
    state[t] = 1;
    for (const edan_tool_def *const *u = edan_tools[t]->uses; u && *u; u++)
        if (index_of(*u) >= 0 && cycle(index_of(*u), state))
            return 1;
    state[t] = 2;
    return 0;
}

/* ===================================================================== */
/* The JSON key reference                                                 */
/* ===================================================================== */

/* What each type is in the JSON report. */
static const char *const type_json[] = {"integer",
                                        "integer",
                                        "number (null: not finite)",
                                        "string or null",
                                        "integer array",
                                        "number array",
                                        "object or null",
                                        "true or false",
                                        "integer or null",
                                        "array of objects",
                                        "object of counts by name",
                                        "signed integer array",
                                        "string array"};

_Static_assert(sizeof type_json / sizeof *type_json == EDAN_T_STRS + 1, "a JSON type for every column type");
_Static_assert(sizeof type_name / sizeof *type_name == EDAN_T_STRS + 1, "a name for every column type");

/* Text in a Markdown table's cell: '|' escaped. */
static void md_cell(const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            putchar('\\');
        putchar(*s);
    }
}

static int markdown(void)
{
    puts("# JSON keys\n");
    puts("<!-- Generated from the tools' result tables (report/table.h) by `build/result_keys --markdown`");
    puts("     (python3 tests/json_keys_test.py build . --update); the json_keys_doc test fails when this file");
    puts("     differs. Do not edit. -->\n");
    puts("Every key of the JSON report that the report's header or a tool declares in its result tables, the");
    puts("tools in the registry's order, with its type, unit and meaning, from the declaration the report is");
    puts("written from. A key `a.b` is member `b` of the object `a`; a table's path is where its rows (an");
    puts("array) or its scalars (members of an object) are in the report. The report's structure, and the");
    puts("sections still written without a table, are in [json-schema.md](json-schema.md) and the formal");
    puts("schema [schema/edan.analysis.1.json](schema/edan.analysis.1.json).\n");
    const char *by_hand[64];
    int n_by_hand = 0;
    /* the report's header (report/report.h), then each tool's members */
    static const edan_tool_def header = {.name = "the report's header",
                                         .summary = "The schema, the source and the model's options, before every "
                                                    "tool's members",
                                         .tables = edan_report_tables};
    for (int t = -1; t < edan_n_tools; t++) {
        const edan_tool_def *d = t < 0 ? &header : edan_tools[t];
        if (!d->tables || !d->tables->path) {
            if (n_by_hand < 64)
                by_hand[n_by_hand++] = d->name;
            continue;
        }
        printf("## %s\n\n%s.\n", d->name, d->summary);
        for (const edan_table_decl *tab = d->tables; tab->path; tab++) {
            if (tab->csv_only)
                continue;
            if (*tab->path)
                printf("\n### `%s%s`\n\n", tab->path, tab->scalars ? "" : "[]");
            else
                printf("\n### the report's top level\n\n");
            printf("%s: %s", tab->scalars ? "Members of an object" : "An array, one object per row", tab->doc);
            if (tab->csv)
                printf(" (also the CSV table `%s` of `--csv-dir`)", tab->csv);
            puts(".\n\n| key | type | unit | meaning |\n|---|---|---|---|");
            for (size_t c = 0; c < tab->n_cols; c++) {
                const edan_column *col = &tab->cols[c];
                if (col->flags & EDAN_NO_JSON)
                    continue;
                printf("| `%s` | %s | %s | ", col->key, type_json[col->type], col->unit);
                md_cell(col->doc);
                puts(" |");
            }
        }
        putchar('\n');
    }
    printf("## Tools whose report is written without a table\n\n");
    for (int i = 0; i < n_by_hand; i++)
        printf("%s`%s`", i ? ", " : "", by_hand[i]);
    puts(": see [json-schema.md](json-schema.md).");
    return fflush(stdout) || ferror(stdout);
}

static int check_tables(const edan_table_decl *tables);

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--markdown"))
        return markdown();
    int bad = 0;
    char state[64] = {0};
    for (int t = 0; t < edan_n_tools; t++) {
        const edan_tool_def *d = edan_tools[t];
        for (const edan_tool_def *const *u = d->uses; u && *u; u++)
            if (index_of(*u) < 0 || *u == d) {
                fprintf(stderr, "FAILED: tool %s uses a tool that is not in the registry (or itself)\n", d->name);
                bad = 1;
            }
        if (cycle(t, state)) {
            fprintf(stderr, "FAILED: the uses of tool %s form a cycle\n", d->name);
            bad = 1;
        }
        bad |= check_tables(d->tables);
    }
    return bad | check_tables(edan_report_tables);
}

/*
 * What a format changes of column c (edan_as, report/table.h): a scale only
 * of a number and with its unit, a place no other column of the format has in
 * a table of at most EDAN_MAX_PLACES columns, a condition that names a column
 * of the table. 1 when it does not.
 */
static int check_as(const edan_table_decl *tab, size_t c, const edan_as *as, const char *format)
{
    const edan_column *col = &tab->cols[c];
    const char *bad = NULL;
    if ((as->mul || as->div) && (col->type != EDAN_T_F64 || !as->unit))
        bad = "a scale of a column that is no number, or without its unit";
    else if (as->when && edan_table_col(tab->cols, tab->n_cols, as->when) < 0)
        bad = "a condition on a column the table lacks";
    else if (as->at && tab->n_cols > EDAN_MAX_PLACES)
        bad = "a place in a table of too many columns";
    for (size_t k = 0; k < c && as->at && !bad; k++)
        if ((as == &col->text ? tab->cols[k].text.at : tab->cols[k].csv.at) == as->at)
            bad = "a place another column has";
    if (bad)
        fprintf(stderr, "FAILED: %s: column %s: %s in %s\n", tab->path, col->key, bad, format);
    return bad != NULL;
}

/* Each column's key, unit and meaning, no key twice in a format; a line per JSON key. 1 on a bad declaration. */
static int check_tables(const edan_table_decl *tables)
{
    int bad = 0;
    for (const edan_table_decl *tab = tables; tab && tab->path; tab++) {
        for (size_t c = 0; c < tab->n_cols; c++) {
            const edan_column *col = &tab->cols[c];
            if (!col->key || !col->doc || !*col->doc || !col->unit) {
                fprintf(stderr, "FAILED: %s: a column without a key, unit or meaning\n", tab->path);
                bad = 1;
                continue;
            }
            /* a key twice in one format (a column may have a different twin in each) */
            for (size_t k = 0; k < c; k++) {
                const edan_column *o = &tab->cols[k];
                const bool json = !((col->flags | o->flags) & EDAN_NO_JSON) && !strcmp(o->key, col->key);
                const bool csv = !((col->flags | o->flags) & EDAN_NO_CSV) &&
                                 !strcmp(o->csv_key ? o->csv_key : o->key, col->csv_key ? col->csv_key : col->key);
                if (json || csv) {
                    fprintf(stderr, "FAILED: %s: key %s declared twice in %s\n", tab->path, col->key,
                            json ? "JSON" : "CSV");
                    bad = 1;
                }
            }
            bad |= check_as(tab, c, &col->text, "text") | check_as(tab, c, &col->csv, "CSV");
            if ((col->flags & EDAN_NO_JSON) || tab->csv_only)
                continue;
            printf("%s\t%s\t%s\t%s\t%s\t%s\n", tab->path, tab->scalars ? "scalars" : "rows", col->key,
                   type_name[col->type], col->unit, col->doc);
        }
    }
    return bad;
}
