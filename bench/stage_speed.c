/*
 * stage_speed: how fast each stage of offline analysis runs on its own.
 *
 *   stage_speed TRACE [CACHE[;CACHE...]]
 *
 * "reader" decodes the binary trace (decompression included) into records
 * and drops them; "analyzer" runs the eDAG analysis over records already in
 * memory (all of them: about 24 bytes per traced instruction), fed in the
 * batches `edan analyze` uses. Each is run three times and the median rate
 * printed, so `edan analyze`'s rate can be split into its two parts. CACHE
 * takes edan's --cache syntax, a list included (one lane per cache, as in a
 * sweep). STAGE_SPEED_ANALYZER_ONLY=1 skips the reader, for A/B runs of the
 * analyzer alone. STAGE_SPEED_MACHINE=FILE adds "timing": the timing model
 * alone on that machine at the memory latencies of STAGE_SPEED_LATENCIES
 * (ns, comma-separated; the machine's by default). STAGE_SPEED_CRITPATH=1
 * adds "critpath": the critical-path consumer alone (--critical-path's
 * thread: tracker, spill and the walk at the end), and =2 runs it alone
 * (no reader, no analyzer: A/B runs of the critical path). STAGE_SPEED_CPU=1
 * takes the rates from the process's CPU time rather than the wall clock.
 * STAGE_SPEED_SAMPLED=U,W,P,R samples the timing model (timing.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/critpath/critpath.h"
#include "analysis/edag/edag.h"
#include "analysis/timing/timing.h"
#include "config/machine_file.h"
#include "config/options.h"
#include "trace/trace_file.h"

enum { BATCH = 1024, RUNS = 3 };

/* STAGE_SPEED_CPU=1: rates from the process's CPU time, not the wall clock (a machine shared with other jobs) */
static double now(void)
{
    static int cpu = -1;
    if (cpu < 0) {
        const char *e = getenv("STAGE_SPEED_CPU");
        cpu = e && *e == '1';
    }
    struct timespec t;
    clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double median3(double a, double b, double c)
{
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    return c < a ? a : c > b ? b : c;
}

/* Reads the whole trace; keeps the records when *all is not NULL. Returns the count, or -1. */
static long read_trace(const char *path, edan_exec **all, edan_trace_reader **keep)
{
    edan_error err = {0};
    edan_trace_reader *r = edan_trace_reader_open(path, &err);
    if (!r) {
        fprintf(stderr, "stage_speed: %s\n", err.msg);
        return -1;
    }
    size_t cap = all ? 1u << 20 : BATCH, total = 0;
    edan_exec *buf = malloc(cap * sizeof *buf);
    long n = 0;
    while (buf) {
        if (all && total + BATCH > cap) {
            edan_exec *more = realloc(buf, 2 * cap * sizeof *buf);
            if (!more)
                break;
            buf = more;
            cap *= 2;
        }
        n = edan_trace_reader_next(r, buf + (all ? total : 0), BATCH, &err);
        if (n <= 0)
            break;
        total += (size_t)n;
    }
    if (!buf || n < 0) {
        fprintf(stderr, "stage_speed: %s\n", buf ? err.msg : "out of memory");
        free(buf);
        edan_trace_reader_close(r);
        return -1;
    }
    if (all) {
        *all = buf;
        *keep = r; /* the records point into its code table */
    } else {
        free(buf);
        edan_trace_reader_close(r);
    }
    return (long)total;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: stage_speed TRACE [CACHE[;CACHE...]]\n");
        return 2;
    }
    /* CACHE takes edan's --cache syntax, a sweep list included: the command line's own parser */
    edan_options o;
    edan_options_default(&o);
    edan_edag_config cfg;
    edan_error err = {0};
    if ((argc == 3 && edan_options_set(&o, "cache", argv[2], &err)) || edan_options_edag_config(&o, &cfg, &err)) {
        fprintf(stderr, "stage_speed: %s\n", err.msg);
        return 2;
    }
    cfg.threads = 1; /* stage rates on one core: a sweep's lanes are not split among threads */
    double t[RUNS];
    long n = 0;
    /* STAGE_SPEED_ANALYZER_ONLY=1 skips the reader's measurement (A/B runs of the analyzer) */
    const char *only = getenv("STAGE_SPEED_ANALYZER_ONLY"), *cp = getenv("STAGE_SPEED_CRITPATH");
    const bool cp_only = cp && *cp == '2';
    for (int i = 0; i < RUNS && !(only && *only == '1') && !cp_only; i++) {
        double t0 = now();
        n = read_trace(argv[1], NULL, NULL);
        if (n < 0)
            return 2;
        t[i] = now() - t0;
        if (i == RUNS - 1)
            printf("reader    %ld records, %.1f M/s\n", n, (double)n / median3(t[0], t[1], t[2]) / 1e6);
    }
    edan_exec *all = NULL;
    edan_trace_reader *keep = NULL;
    n = read_trace(argv[1], &all, &keep);
    if (n < 0)
        return 2;
    for (int i = 0; i < RUNS && !cp_only; i++) {
        edan_edag *e = edan_edag_new(&cfg, &err);
        if (!e) {
            fprintf(stderr, "stage_speed: %s\n", err.msg);
            return 2;
        }
        double t0 = now();
        for (long j = 0; j < n; j += BATCH)
            edan_edag_consume(e, all + j, (size_t)(n - j < BATCH ? n - j : BATCH));
        if (edan_edag_finish(e)) {
            fprintf(stderr, "stage_speed: %s\n", edan_edag_error(e)->msg);
            return 2;
        }
        t[i] = now() - t0;
        edan_edag_free(e);
    }
    if (!cp_only)
        printf("analyzer  %ld records, %.1f M/s (cache %s)\n", n, (double)n / median3(t[0], t[1], t[2]) / 1e6,
               argc == 3 ? argv[2] : "none");
    for (int i = 0; i < RUNS && cp && (*cp == '1' || cp_only); i++) {
        edan_critpath *c = edan_critpath_new(&cfg.lane[0], cfg.false_deps, false, &err);
        if (!c) {
            fprintf(stderr, "stage_speed: %s\n", err.msg);
            return 2;
        }
        double t0 = now();
        for (long j = 0; j < n; j += BATCH)
            edan_critpath_consume(c, all + j, (size_t)(n - j < BATCH ? n - j : BATCH));
        const double t1 = now();
        if (edan_critpath_finish(c)) {
            fprintf(stderr, "stage_speed: %s\n", edan_critpath_error(c)->msg);
            return 2;
        }
        t[i] = now() - t0;
        if (i == RUNS - 1)
            printf("critpath  %ld records, %.1f M/s (the walk at the end %.3f s; cache %s)\n", n,
                   (double)n / median3(t[0], t[1], t[2]) / 1e6, now() - t1, argc == 3 ? argv[2] : "none");
        edan_critpath_free(c);
    }
    const char *machine = getenv("STAGE_SPEED_MACHINE");
    if (machine && *machine) {
        edan_machine m;
        double lat[EDAN_TIMING_MAX_LATENCIES];
        int nl = 0;
        if (edan_machine_load(machine, &m, &err)) {
            fprintf(stderr, "stage_speed: %s\n", err.msg);
            return 2;
        }
        const char *list = getenv("STAGE_SPEED_LATENCIES");
        for (const char *p = list && *list ? list : NULL; p && nl < EDAN_TIMING_MAX_LATENCIES; p = strchr(p, ',')) {
            p += *p == ',';
            lat[nl++] = strtod(p, NULL);
        }
        if (!nl)
            lat[nl++] = m.mem_latency_ns;
        for (int i = 0; i < RUNS; i++) {
            edan_timing *tm = edan_timing_new(&m, lat, nl, &err);
            const char *smp = getenv("STAGE_SPEED_SAMPLED");
            if (tm && smp && *smp) {
                unsigned long long v[4] = {0};
                if (sscanf(smp, "%llu,%llu,%llu,%llu", &v[0], &v[1], &v[2], &v[3]) != 4) {
                    fprintf(stderr, "stage_speed: STAGE_SPEED_SAMPLED=UNIT,WARMUP,PERIOD,REGIME\n");
                    return 2;
                }
                edan_timing_sampling cfg = {v[0], v[1], v[2], v[3], 0};
                if (edan_timing_set_sampling(tm, &cfg, &err)) {
                    edan_timing_free(tm);
                    tm = NULL;
                }
            }
            if (!tm) {
                fprintf(stderr, "stage_speed: %s\n", err.msg);
                return 2;
            }
            edan_consumer c = edan_timing_consumer(tm);
            double t0 = now();
            for (long j = 0; j < n; j += BATCH)
                c.consume(c.ctx, all + j, (size_t)(n - j < BATCH ? n - j : BATCH));
            if (c.finish(c.ctx)) {
                fprintf(stderr, "stage_speed: %s\n", edan_timing_error(tm)->msg);
                return 2;
            }
            t[i] = now() - t0;
            edan_timing_free(tm);
        }
        printf("timing    %ld records, %.1f M/s (%s, %d latencies)\n", n, (double)n / median3(t[0], t[1], t[2]) / 1e6,
               m.name, nl);
    }
    free(all);
    edan_trace_reader_close(keep);
    return 0;
}
