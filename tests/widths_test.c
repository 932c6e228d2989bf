/*
 * widths_test.c - the access-widths tool (tool/widths_tool.c) against a
 * naive count on random traces, through the analysis session's JSON report:
 * per width, the loads, stores, atomics, bytes and misaligned accesses, a row
 * for each width with accesses and only for those, narrowest first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "random_trace.h"
#include "session_report.h"

typedef struct want_row {
    uint64_t loads, stores, atomics, misaligned;
} want_row;

int main(int argc, char **argv)
{
    const int traces = argc > 1 ? atoi(argv[1]) : 300;
    edan_options o;
    edan_options_default(&o);
    edan_error err = {0};
    CHECK(edan_session_option_set(&o, "json", NULL, &err) == 0, "json");
    CHECK(edan_session_option_set(&o, "access-widths", NULL, &err) == 0, "access-widths: %s", err.msg);
    static const char *const only[] = {"access-widths", NULL};
    static edan_insn table[24];
    static edan_exec recs[800];
    for (int t = 0; t < traces; t++) {
        rt_seed((uint64_t)t + 7);
        for (int i = 0; i < 24; i++)
            rt_random_insn(&table[i]);
        const size_t n = 1 + rt_below(800);
        rt_random_records(table, recs, n);
        want_row want[17] = {{0}};
        for (size_t i = 0; i < n; i++) {
            if (!test_accesses_memory(&recs[i]))
                continue;
            want_row *w = &want[recs[i].insn->mem_size];
            if (recs[i].insn->mem == EDAN_MEM_LOAD)
                w->loads++;
            else if (recs[i].insn->mem == EDAN_MEM_STORE)
                w->stores++;
            else
                w->atomics++;
            w->misaligned += recs[i].addr % recs[i].insn->mem_size != 0;
        }
        char *rep = test_session_report(&o, only, NULL, recs, n, 1 + rt_below(64), false);
        if (!rep)
            break;
        const char *p = strstr(rep, ",\"access_widths\":[");
        CHECK(p != NULL, "trace %d: no access_widths: %s", t, rep);
        for (unsigned width = 1; p && width <= 16; width++) {
            const want_row *w = &want[width];
            const uint64_t all = w->loads + w->stores + w->atomics;
            if (!all)
                continue;
            unsigned long long got[6];
            p = strstr(p, "{\"width\":");
            CHECK(p && sscanf(p,
                              "{\"width\":%llu,\"loads\":%llu,\"stores\":%llu,\"atomics\":%llu,\"bytes\":%llu,"
                              "\"misaligned\":%llu",
                              &got[0], &got[1], &got[2], &got[3], &got[4], &got[5]) == 6,
                  "trace %d: the row of width %u: %s", t, width, p ? p : rep);
            if (!p)
                break;
            CHECK_EQ_U64(got[0], width, "width");
            CHECK_EQ_U64(got[1], w->loads, "loads");
            CHECK_EQ_U64(got[2], w->stores, "stores");
            CHECK_EQ_U64(got[3], w->atomics, "atomics");
            CHECK_EQ_U64(got[4], all * width, "bytes");
            CHECK_EQ_U64(got[5], w->misaligned, "misaligned");
            p++;
        }
        /* no row beyond those */
        CHECK(!p || !strstr(p, "{\"width\":"), "trace %d: a row for a width without accesses", t);
        free(rep);
    }
    return check_summary();
}
