/*
 * progress.c - the progress line (progress.h).
 */
#include "util/progress.h"

#include <inttypes.h>
#include <stdio.h>

/* 12.3M, 1.23G, 950: three significant digits. */
static void count(char *buf, size_t cap, double v)
{
    static const char *const unit[] = {"", "k", "M", "G", "T"};
    int u = 0;
    while (v >= 1000 && u < 4) {
        v /= 1000;
        u++;
    }
    snprintf(buf, cap, u ? (v < 10 ? "%.2f%s" : v < 100 ? "%.1f%s" : "%.0f%s") : "%.0f%s", v, unit[u]);
}

/* 0:07, 12:34, 1:02:03 */
static void clock_text(char *buf, size_t cap, double s)
{
    const uint64_t t = s < 0 ? 0 : s > 3.6e7 ? 36000000u : (uint64_t)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, cap, "%" PRIu64 ":%02" PRIu64 ":%02" PRIu64, t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, cap, "%" PRIu64 ":%02" PRIu64, t / 60, t % 60);
}

void edan_progress_format(char *buf, size_t cap, const char *phase, uint64_t done, uint64_t total, double seconds)
{
    const double rate = seconds > 0 ? (double)done / seconds : 0;
    char n[16], r[16];
    count(r, sizeof r, rate);
    if (total == 0) {
        count(n, sizeof n, (double)done);
        snprintf(buf, cap, "%s %s instructions, %s/s", phase, n, r);
        return;
    }
    count(n, sizeof n, (double)total);
    /* a total that was an estimate and is passed: 99 %, the time left unknown */
    const int pct = done >= total ? 99 : (int)(100.0 * (double)done / (double)total);
    char left[24] = "?";
    if (done < total && rate > 0)
        clock_text(left, sizeof left, (double)(total - done) / rate);
    snprintf(buf, cap, "%s %d%% of %s instructions, %s/s, %s left", phase, pct, n, r, left);
}

void edan_progress_done(char *buf, size_t cap, const char *phase, uint64_t done, double seconds)
{
    char n[16];
    count(n, sizeof n, (double)done);
    snprintf(buf, cap, "%s done: %s instructions in %.1f s", phase, n, seconds);
}
