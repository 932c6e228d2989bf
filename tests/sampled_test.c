/*
 * sampled_test.c - the sampled tool (--sample-period, --sample-window)
 * against a naive computation of its definitions, for the whole run and per
 * function, on random streams of loads whose instructions lie in functions
 * of a real RISC-V program (argv[1]; its symbols name the rows) or outside
 * all of them: loads and sampled loads, distinct blocks and sampled blocks,
 * the windows in which each row loaded and the sampled ones, the footprint
 * per window weighted by loads (exact and from the samples), the estimate's
 * standard error and its 95 % half-width, with Student's t found here by
 * integrating its density. The reference keeps every window's set of blocks
 * and computes the spread in two passes, as the definitions read.
 *
 * Usage: sampled_test PROGRAM [streams]
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "random_trace.h"
#include "session_report.h"
#include "tool/session.h"
#include "util/symbols/symbols.h"

#define MAX_FNS 5
#define MAX_LOADS 3000
#define N_INSNS 12
#define OUTSIDE 0x100 /* a pc below every function: the row of code outside the known functions */

/* The naive values of one row. */
typedef struct want_row {
    uint64_t loads, sampled_loads, blocks, sampled_blocks, windows, sampled_windows;
    double window_blocks, estimate, stderr_, ci95;
} want_row;

/* Student's t density at x, nu degrees of freedom. */
static double t_density(double x, double nu)
{
    return exp(lgamma((nu + 1) / 2) - lgamma(nu / 2) - 0.5 * log(nu * M_PI) - (nu + 1) / 2 * log1p(x * x / nu));
}

/* Its 0.975 quantile: the x where the integral of the density from 0 reaches 0.475 (Simpson, bisection). */
static double t_quantile(double nu)
{
    double lo = 0, hi = 20;
    for (int it = 0; it < 50; it++) {
        const double x = (lo + hi) / 2;
        const int steps = 2000;
        double s = t_density(0, nu) + t_density(x, nu);
        for (int i = 1; i < steps; i++)
            s += (i % 2 ? 4 : 2) * t_density(x * i / steps, nu);
        if (s * x / steps / 3 < 0.475)
            lo = x;
        else
            hi = x;
    }
    return (lo + hi) / 2;
}

/*
 * Row `row` (-1: every load) of the stream: rows[i] is load i's row, blocks of load i are
 * [first[i], last[i]]. Window of load i: i / w; sampled when (i / w) * w % p < w.
 */
static want_row naive_row(int row, const int *rows, const uint64_t *first, const uint64_t *last, size_t n, uint64_t w,
                          uint64_t p)
{
    want_row r;
    memset(&r, 0, sizeof r);
    static uint64_t all[MAX_LOADS * 2], sampled[MAX_LOADS * 2], win[MAX_LOADS * 2];
    size_t n_all = 0, n_s = 0;
    static double wa[MAX_LOADS], wf[MAX_LOADS];
    static bool ws[MAX_LOADS];
    size_t nw = 0;
    for (uint64_t start = 0; start < n; start += w) { /* each window */
        size_t n_win = 0, loads = 0;
        const bool s = start % p < w;
        for (uint64_t i = start; i < n && i < start + w; i++) {
            if (row >= 0 && rows[i] != row)
                continue;
            loads++;
            for (uint64_t b = first[i];; b++) {
                win[n_win++] = b;
                all[n_all++] = b;
                if (s)
                    sampled[n_s++] = b;
                if (b == last[i])
                    break;
            }
        }
        if (!loads)
            continue;
        r.loads += loads;
        r.windows++;
        if (s)
            r.sampled_loads += loads, r.sampled_windows++;
        wa[nw] = (double)loads;
        wf[nw] = (double)test_distinct_u64(win, n_win);
        ws[nw++] = s;
    }
    r.blocks = test_distinct_u64(all, n_all);
    r.sampled_blocks = test_distinct_u64(sampled, n_s);
    double af = 0, af_s = 0;
    for (size_t k = 0; k < nw; k++) {
        af += wa[k] * wf[k];
        if (ws[k])
            af_s += wa[k] * wf[k];
    }
    r.window_blocks = r.loads ? af / (double)r.loads : 0;
    r.estimate = r.sampled_loads ? af_s / (double)r.sampled_loads : 0;
    r.stderr_ = r.ci95 = NAN;
    if (r.sampled_windows >= 2) {
        double ss = 0;
        for (size_t k = 0; k < nw; k++)
            if (ws[k])
                ss += wa[k] * wa[k] * (wf[k] - r.estimate) * (wf[k] - r.estimate);
        const double m = (double)r.sampled_windows;
        r.stderr_ = sqrt(m / (m - 1) * ss) / (double)r.sampled_loads;
        r.ci95 = t_quantile(m - 1) * r.stderr_;
    }
    return r;
}

/* The number after "key": in the object at obj (NAN for null); false when absent. */
static bool field(const char *obj, const char *key, double *v)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *end = strchr(obj, '}'), *at = strstr(obj, pat);
    if (!at || (end && at > end))
        return false;
    at += strlen(pat);
    if (!strncmp(at, "null", 4)) {
        *v = NAN;
        return true;
    }
    char *e;
    *v = strtod(at, &e);
    return e != at;
}

static bool close_to(double got, double want, double tol)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    return fabs(got - want) <= tol * fmax(1, fabs(want));
}

/* The counts object of a row in the report (at: its opening brace) against the naive row. */
static void check_row(const char *at, const want_row *w, const char *ctx)
{
    static const char *const ints[] = {"loads",          "sampled_loads", "blocks",
                                       "sampled_blocks", "windows",       "sampled_windows"};
    const uint64_t want_int[] = {w->loads,          w->sampled_loads, w->blocks,
                                 w->sampled_blocks, w->windows,       w->sampled_windows};
    for (int k = 0; k < 6; k++) {
        double v = -1;
        CHECK(field(at, ints[k], &v) && v == (double)want_int[k], "%s: %s = %g, expected %llu", ctx, ints[k], v,
              (unsigned long long)want_int[k]);
    }
    static const char *const reals[] = {"window_blocks", "window_blocks_estimate", "window_blocks_stderr"};
    const double want_real[] = {w->window_blocks, w->estimate, w->stderr_};
    for (int k = 0; k < 3; k++) {
        double v = -1;
        CHECK(field(at, reals[k], &v) && close_to(v, want_real[k], 1e-9), "%s: %s = %.12g, expected %.12g", ctx,
              reals[k], v, want_real[k]);
    }
    double ci = -1; /* the tool's t is tabled to three decimals */
    CHECK(field(at, "window_blocks_ci95", &ci) && close_to(ci, w->ci95, 0.003 * (isnan(w->stderr_) ? 1 : w->stderr_)),
          "%s: window_blocks_ci95 = %.9g, expected %.9g", ctx, ci, w->ci95);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: sampled_test PROGRAM [streams]\n");
        return 2;
    }
    const int streams = argc > 2 ? atoi(argv[2]) : 200;
    edan_elf elf;
    edan_error err = {0};
    CHECK(!edan_elf_open(argv[1], &elf, &err), "%s: %s", argv[1], err.msg);
    if (err.set)
        return check_summary();
    /* functions with a name of their own and room for a few instructions, found at them */
    const edan_elf_func *fns[MAX_FNS];
    int n_fns = 0;
    for (size_t i = 0; i < elf.n_funcs && n_fns < MAX_FNS; i++) {
        const edan_elf_func *f = &elf.funcs[i];
        bool unique = f->end >= f->start + 64 && f->start > OUTSIDE && strlen(f->name) < 40;
        for (size_t j = 0; j < elf.n_funcs && unique; j++)
            unique = j == i || strcmp(elf.funcs[j].name, f->name);
        for (uint64_t k = 0; k < 8 && unique; k++) /* and the function of its first instructions */
            unique = edan_elf_func_at(&elf, f->start + 4 * k) == f;
        if (unique && i % 3 == 0)
            fns[n_fns++] = f;
    }
    CHECK(n_fns == MAX_FNS && edan_elf_func_at(&elf, OUTSIDE) == NULL, "functions of %s", argv[1]);
    static edan_insn table[N_INSNS];
    static edan_exec recs[MAX_LOADS + 500];
    static int rows[MAX_LOADS];
    static uint64_t first[MAX_LOADS], last[MAX_LOADS];
    int insn_row[N_INSNS];
    for (int s = 0; s < streams && n_fns == MAX_FNS; s++) {
        rt_seed(9000 + (uint64_t)s);
        static const uint64_t windows[] = {1, 3, 8, 10, 64};
        const uint64_t w = windows[rt_below(5)], p = w * (1 + rt_below(6));
        const uint64_t span = 64 * (1 + rt_below(60));
        for (int k = 0; k < N_INSNS; k++) {
            memset(&table[k], 0, sizeof table[k]);
            const uint64_t kind = rt_below(10);
            table[k].mem = kind < 7 ? EDAN_MEM_LOAD : kind < 9 ? EDAN_MEM_STORE : EDAN_MEM_NONE;
            table[k].mem_size = table[k].mem == EDAN_MEM_NONE ? 0 : (uint8_t)(1u << rt_below(4));
            insn_row[k] = (int)rt_below(MAX_FNS + 1); /* MAX_FNS: outside every function */
            table[k].pc =
                insn_row[k] == MAX_FNS ? OUTSIDE + 4 * (uint64_t)k : fns[insn_row[k]]->start + 4 * rt_below(8);
        }
        const size_t n_recs = 1 + rt_below(MAX_LOADS);
        size_t n = 0, m = 0;
        for (size_t i = 0; i < n_recs; i++) {
            const uint32_t id = (uint32_t)rt_below(N_INSNS);
            edan_exec *r = &recs[m++];
            memset(r, 0, sizeof *r);
            r->insn = &table[id];
            r->id = id;
            r->addr = 0x40000 + rt_below(span) + (rt_below(4) ? 0 : 0x100000 * rt_below(3));
            if (table[id].mem == EDAN_MEM_LOAD && rt_below(25) == 0)
                r->flags = EDAN_EXEC_NO_ACCESS; /* no access made: not a load of the stream */
            if (table[id].mem != EDAN_MEM_LOAD || r->flags)
                continue;
            rows[n] = insn_row[id];
            first[n] = r->addr / 64;
            last[n] = (r->addr + table[id].mem_size - 1) / 64;
            n++;
        }
        edan_options o;
        edan_options_default(&o);
        char pv[32], wv[32];
        snprintf(pv, sizeof pv, "%llu", (unsigned long long)p);
        snprintf(wv, sizeof wv, "%llu", (unsigned long long)w);
        CHECK(!edan_session_option_set(&o, "json", NULL, &err) &&
                  !edan_session_option_set(&o, "sample-period", pv, &err) &&
                  !edan_session_option_set(&o, "sample-window", wv, &err),
              "options: %s", err.msg);
        static const char *const only[] = {"sampled", NULL};
        char *rep = test_session_report(&o, only, argv[1], recs, m, 13, false);
        if (!rep)
            break;
        char ctx[160];
        snprintf(ctx, sizeof ctx, "stream %d (%zu loads, W %llu, P %llu), all", s, n, (unsigned long long)w,
                 (unsigned long long)p);
        const want_row all = naive_row(-1, rows, first, last, n, w, p);
        const char *at = strstr(rep, "\"all\":{");
        CHECK(at != NULL, "%s: %s", ctx, rep);
        if (at)
            check_row(at, &all, ctx);
        for (int fn = 0; fn <= MAX_FNS; fn++) {
            const want_row want = naive_row(fn, rows, first, last, n, w, p);
            char pat[96];
            snprintf(pat, sizeof pat, "{\"name\":\"%s\",\"counts\":{",
                     fn < MAX_FNS ? fns[fn]->name : "(outside known functions)");
            at = strstr(rep, pat);
            snprintf(ctx, sizeof ctx, "stream %d (%zu loads, W %llu, P %llu), %s", s, n, (unsigned long long)w,
                     (unsigned long long)p, fn < MAX_FNS ? fns[fn]->name : "outside");
            CHECK(!at == !want.loads, "%s: a row only for a function with loads (%llu)", ctx,
                  (unsigned long long)want.loads);
            if (at)
                check_row(at + strlen(pat) - 1, &want, ctx);
        }
        free(rep);
    }
    edan_elf_close(&elf);
    return check_summary();
}
