/*
 * progress_test.c - the progress line (util/progress.h): the percentage and
 * the time left against a naive computation, the rate alone without a
 * total, and a total passed (an estimate that was too low).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "util/progress.h"

int main(void)
{
    char buf[160], want[160];
    /* done of total after s seconds: the rate is done/s, the time left (total-done)/rate, rounded */
    static const struct {
        unsigned long long done, total;
        double s;
    } cases[] = {{
                     42,
                     100,
                     4.2,
                 },
                 {1000000, 3000000, 2.0},
                 {5, 3600 * 10 + 5, 5},
                 {0, 10, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        edan_progress_format(buf, sizeof buf, "tracing", cases[i].done, cases[i].total, cases[i].s);
        const int pct = (int)(100.0 * (double)cases[i].done / (double)cases[i].total);
        CHECK(strstr(buf, "tracing ") == buf, "%s", buf);
        snprintf(want, sizeof want, "tracing %d%% of ", pct);
        CHECK(!strncmp(buf, want, strlen(want)), "%s: starts with %s", buf, want);
        const double rate = (double)cases[i].done / cases[i].s;
        if (rate > 0) {
            const unsigned long long left = (unsigned long long)((double)(cases[i].total - cases[i].done) / rate + 0.5);
            if (left >= 3600)
                snprintf(want, sizeof want, ", %llu:%02llu:%02llu left", left / 3600, left / 60 % 60, left % 60);
            else
                snprintf(want, sizeof want, ", %llu:%02llu left", left / 60, left % 60);
        } else {
            snprintf(want, sizeof want, ", ? left");
        }
        CHECK(strlen(buf) >= strlen(want) && !strcmp(buf + strlen(buf) - strlen(want), want), "%s: ends with %s", buf,
              want);
    }
    edan_progress_format(buf, sizeof buf, "tracing", 1000000, 3000000, 2.0);
    CHECK(!strcmp(buf, "tracing 33% of 3.00M instructions, 500k/s, 0:04 left"), "%s", buf);
    edan_progress_format(buf, sizeof buf, "analysing", 12345678, 0, 1.0);
    CHECK(!strcmp(buf, "analysing 12.3M instructions, 12.3M/s"), "%s", buf);
    edan_progress_format(buf, sizeof buf, "tracing", 200, 100, 1.0); /* the count was an estimate */
    CHECK(!strcmp(buf, "tracing 99% of 100 instructions, 200/s, ? left"), "%s", buf);
    edan_progress_done(buf, sizeof buf, "counting", 19900000, 0.24);
    CHECK(!strcmp(buf, "counting done: 19.9M instructions in 0.2 s"), "%s", buf);
    return check_summary();
}
