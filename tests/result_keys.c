/*
 * result_keys.c - the tool contract's declarations, for
 * tests/result_keys_test.py: every registered tool's result tables, one line
 * per JSON key (path, key, type, unit, meaning), and a check of the tools'
 * uses (each in the registry, no cycle: the session can order them).
 *
 * usage: result_keys   prints "PATH<TAB>rows|scalars<TAB>KEY<TAB>TYPE<TAB>UNIT<TAB>DOC" lines; exit 1 on a bad
 *                      declaration
 */
#include <stdio.h>
#include <string.h>

#include "tool/registry.h"

static const char *const type_name[] = {"u64",   "i64",   "f64",  "string", "u64[]",
                                        "f64[]", "group", "bool", "u64?",   "rows"};

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

int main(void)
{
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
        for (const edan_table_decl *tab = d->tables; tab && tab->path; tab++) {
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
                if ((col->flags & EDAN_NO_JSON) || tab->csv_only)
                    continue;
                printf("%s\t%s\t%s\t%s\t%s\t%s\n", tab->path, tab->scalars ? "scalars" : "rows", col->key,
                       type_name[col->type], col->unit, col->doc);
            }
        }
    }
    return bad;
}
