#include "report/plot.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "analysis/metrics/metrics.h"
#include "report/report.h"

extern char **environ;

int edan_plot_run_gnuplot(const char *script, const char *const args[3], edan_error *err)
{
    pid_t pid;
    /* the paths reach gnuplot as arguments (ARG1..ARG3 in the script), never as script text */
    char *argv[] = {"gnuplot", "-c", (char *)script, (char *)args[0], (char *)args[1], (char *)args[2], NULL};
    int rc = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
    if (rc) {
        edan_error_set(err, "cannot run gnuplot: %s (install Debian's gnuplot-nox)", strerror(rc));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            edan_error_set(err, "waiting for gnuplot: %s", strerror(errno));
            return -1;
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status)) {
        edan_error_set(err, "gnuplot failed on %s (status %d)", script, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return -1;
    }
    return 0;
}

void edan_plot_script_header(FILE *gp, const char *what)
{
    fprintf(gp,
            "# %s, drawn by edan: gnuplot -c THIS.gp DATA.dat OUT.png OUT.svg\n"
            "# (the paths are arguments, ARG1..ARG3: edan never writes them into the script)\n",
            what);
}

void edan_plot_script_outputs(FILE *gp, const char *plot_cmd)
{
    /* noenhanced: names are drawn as written, "ComputeSYMGS_ref" never gets a subscript */
    fprintf(gp, "set terminal pngcairo size 1000,600 noenhanced font 'sans,10'\nset output ARG2\n%s\n", plot_cmd);
    fprintf(gp, "set terminal svg size 1000,600 noenhanced font 'sans,10'\nset output ARG3\n%s\n", plot_cmd);
}

/* text as a gnuplot single-quoted string: ' doubled; control characters, ` and @ (substitutions) become '_' */
static void put_quoted(FILE *gp, const char *text)
{
    fputc('\'', gp);
    for (const unsigned char *c = (const unsigned char *)(text ? text : ""); *c; c++) {
        if (*c == '\'')
            fputs("''", gp);
        else
            fputc(*c < 0x20 || *c == 0x7f || *c == '`' || *c == '@' ? '_' : *c, gp);
    }
    fputc('\'', gp);
}

void edan_plot_machine_name(const char *machine, char *buf, size_t cap)
{
    const char *slash = strrchr(machine, '/');
    machine = slash ? slash + 1 : machine;
    const char *dot = strrchr(machine, '.');
    snprintf(buf, cap, "%.*s", dot && dot != machine ? (int)(dot - machine) : (int)strlen(machine), machine);
}

void edan_plot_title(FILE *gp, const char *what, const char *ident)
{
    fputs("set title ", gp);
    put_quoted(gp, what);
    if (ident && *ident) {
        fputs(" . \"\\n\" . ", gp);
        put_quoted(gp, ident);
    }
    fputs(" noenhanced\n", gp);
}

void edan_plot_axis_format(FILE *gp, const char *axis, edan_plot_axis kind, bool log)
{
    /* %s%c: mantissa and SI prefix (k, M, G), log tics being whole powers; a log byte axis of edan_plot_xy has
     * explicit tics at powers of two (gnuplot's %B would read "ki") */
    if (kind == EDAN_AXIS_COUNT)
        fprintf(gp, "set format %s '%s'\n", axis, log ? "%.0s%c" : "%.1s%c");
    else if (kind == EDAN_AXIS_BYTES)
        fprintf(gp, "set format %s '%s'\n", axis, log ? "%.0s%cB" : "%.1s%cB");
    else
        fprintf(gp, "set format %s '%%g'\n", axis);
}

int edan_plot_open(edan_plot_files *p, const char *dir, const char *base, FILE **data, FILE **script, edan_error *err)
{
    memset(p, 0, sizeof *p);
    edan_output *files[4] = {&p->dat, &p->gp, &p->png, &p->svg};
    static const char *const suffix[4] = {".dat", ".gp", ".png", ".svg"};
    for (int i = 0; i < 4; i++) {
        char path[sizeof p->dat.path];
        snprintf(path, sizeof path, "%s/%s%s", dir, base, suffix[i]);
        if (edan_output_open(files[i], path, "a plot file", err)) {
            edan_plot_abort(p);
            return -1;
        }
    }
    *data = edan_output_stream(&p->dat, err);
    *script = *data ? edan_output_stream(&p->gp, err) : NULL;
    if (!*script) {
        edan_plot_abort(p);
        return -1;
    }
    return 0;
}

void edan_plot_abort(edan_plot_files *p)
{
    edan_output *files[4] = {&p->dat, &p->gp, &p->png, &p->svg};
    for (int i = 0; i < 4; i++)
        edan_output_abort(files[i]);
}

int edan_plot_close(edan_plot_files *p, edan_error *err)
{
    /* gnuplot reads and writes the temporaries; all four take their names only when it succeeded */
    FILE *streams[2] = {p->dat.f, p->gp.f};
    const char *names[2] = {p->dat.path, p->gp.path};
    for (int i = 0; i < 2; i++)
        if (ferror(streams[i]) | fflush(streams[i])) {
            edan_error_set(err, "%s: write failed: %s", names[i], strerror(errno));
            edan_plot_abort(p);
            return -1;
        }
    const char *const args[3] = {edan_output_where(&p->dat), edan_output_where(&p->png), edan_output_where(&p->svg)};
    if (edan_plot_run_gnuplot(edan_output_where(&p->gp), args, err)) {
        edan_plot_abort(p);
        return -1;
    }
    edan_output *files[4] = {&p->dat, &p->gp, &p->png, &p->svg};
    for (int i = 0; i < 4; i++)
        if (edan_output_commit(files[i], err)) {
            edan_plot_abort(p);
            return -1;
        }
    return 0;
}

static int plot_movement(const edan_edag *e, const char *dir, const char *name, const char *ident, edan_error *err)
{
    char base[512];
    snprintf(base, sizeof base, "%s-movement", name);
    edan_plot_files files;
    FILE *f, *gp;
    if (edan_plot_open(&files, dir, base, &f, &gp, err))
        return -1;
    int n = edan_edag_n_lanes(e);
    /* one gnuplot data block per configuration, separated by two blank lines */
    for (int k = 0; k < n; k++) {
        const edan_lane_stats *st = edan_edag_lane(e, k);
        if (!st->n_series)
            continue;
        const edan_series *s = &st->series[0];
        fprintf(f, "# configuration %d, tau %" PRIu64 "\n", k + 1, s->tau);
        for (size_t i = 0; i < s->n; i++)
            fprintf(f, "%" PRIu64 " %" PRIu64 "\n", (uint64_t)i * s->tau, s->U[i]);
        fprintf(f, "\n\n");
    }
    edan_plot_script_header(gp, "data movement over time");
    edan_plot_title(gp, "Data movement over time", ident);
    fprintf(gp, "set xlabel 'time (cycles)'\nset ylabel 'bytes in flight, U_i'\nset grid\nset key below\n");
    edan_plot_axis_format(gp, "x", EDAN_AXIS_COUNT, false);
    edan_plot_axis_format(gp, "y", EDAN_AXIS_BYTES, false);
    char cmd[8192];
    size_t used = (size_t)snprintf(cmd, sizeof cmd, "plot");
    for (int k = 0; k < n && used < sizeof cmd - 200; k++) {
        char label[320];
        edan_report_lane_label(e, k, label, sizeof label);
        for (char *p = label; *p; p++)
            if (*p == '\'' || *p == '`' || *p == '@')
                *p = ' ';
        used += (size_t)snprintf(cmd + used, sizeof cmd - used, "%s ARG1 index %d with lines lw 1.5 title '%s'",
                                 k ? ", \\\n     " : " ", k, label);
    }
    edan_plot_script_outputs(gp, cmd);
    return edan_plot_close(&files, err);
}

static int plot_latency(const edan_edag *e, const edan_options *o, const char *dir, const char *name, const char *ident,
                        edan_error *err)
{
    char base[512];
    snprintf(base, sizeof base, "%s-latency", name);
    edan_plot_files files;
    FILE *f, *gp;
    if (edan_plot_open(&files, dir, base, &f, &gp, err))
        return -1;
    /* the first configuration's counts; alpha from 0 to twice the analysed latency */
    const edan_lane_stats *st = edan_edag_lane(e, 0);
    uint64_t alpha = edan_edag_get_config(e)->lane[0].cost.alpha;
    double amax = alpha ? 2.0 * (double)alpha : 400.0;
    edan_metrics_params p = o->metrics;
    fprintf(f, "# alpha");
    for (int i = 0; i < p.n_m; i++)
        fprintf(f, " lower(m=%" PRIu64 ") upper(m=%" PRIu64 ")", p.m[i], p.m[i]);
    fprintf(f, "\n");
    for (int step = 0; step <= 50; step++) {
        double a = amax * step / 50.0;
        edan_metrics mt;
        edan_metrics_compute(st, 1, &p, &mt); /* bounds at alpha = 1 scale linearly */
        fprintf(f, "%g", a);
        for (int i = 0; i < p.n_m; i++)
            fprintf(f, " %.6g %.6g", mt.per_m[i].mem_lower * a + mt.C, mt.per_m[i].mem_upper * a + mt.C);
        fprintf(f, "\n");
    }
    edan_plot_script_header(gp, "runtime bounds against memory latency");
    edan_plot_title(gp, "Predicted runtime against memory latency (slope of the upper bound: lambda)", ident);
    fprintf(gp, "set xlabel 'memory latency alpha (cycles)'\nset ylabel 'runtime bound T (cycles)'\nset grid\n"
                "set key below\n");
    edan_plot_axis_format(gp, "x", EDAN_AXIS_PLAIN, false);
    edan_plot_axis_format(gp, "y", EDAN_AXIS_COUNT, false);
    char cmd[8192];
    size_t used = (size_t)snprintf(cmd, sizeof cmd, "plot");
    for (int i = 0; i < p.n_m && used < sizeof cmd - 300; i++) {
        used += (size_t)snprintf(cmd + used, sizeof cmd - used,
                                 "%s ARG1 using 1:%d with lines lw 2 lc %d title 'upper, m=%" PRIu64
                                 "', ARG1 using 1:%d with lines dt 2 lc %d title 'lower, m=%" PRIu64 "'",
                                 i ? ", \\\n     " : " ", 3 + 2 * i, i + 1, p.m[i], 2 + 2 * i, i + 1, p.m[i]);
    }
    edan_plot_script_outputs(gp, cmd);
    return edan_plot_close(&files, err);
}

static int make_dir(const char *dir, edan_error *err)
{
    if (mkdir(dir, 0755) && errno != EEXIST) {
        edan_error_set(err, "%s: cannot create the plot directory: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

static int lane_by_latency(const void *a, const void *b)
{
    const edan_timing_lane *x = a, *y = b;
    return x->mem_latency_ns < y->mem_latency_ns ? -1 : x->mem_latency_ns > y->mem_latency_ns;
}

int edan_plot_prediction(const edan_timing *m, const edan_edag *e, const edan_options *o, const char *dir,
                         const char *name, const char *ident, edan_error *err)
{
    char base[512];
    if (make_dir(dir, err))
        return -1;
    snprintf(base, sizeof base, "%s-prediction", name);
    edan_plot_files files;
    FILE *f, *gp;
    if (edan_plot_open(&files, dir, base, &f, &gp, err))
        return -1;
    const int n = edan_timing_lanes(m);
    edan_timing_lane lanes[EDAN_TIMING_MAX_LATENCIES];
    for (int k = 0; k < n; k++)
        lanes[k] = edan_timing_lane_get(m, k);
    qsort(lanes, (size_t)n, sizeof lanes[0], lane_by_latency);
    const double ghz = edan_timing_machine(m)->clock_ghz;
    edan_metrics mt;
    if (e) /* bounds at alpha = 1 scale linearly */
        edan_metrics_compute(edan_edag_lane(e, 0), 1, &o->metrics, &mt);
    fprintf(f, "# memory latency (ns), predicted time (us)%s\n",
            e ? ", eDAG runtime bound T upper on an ideal core (us)" : "");
    for (int k = 0; k < n; k++) {
        fprintf(f, "%g %.9g", lanes[k].mem_latency_ns, lanes[k].seconds * 1e6);
        if (e) /* alpha in cycles of the machine's clock */
            fprintf(f, " %.9g", (mt.per_m[0].mem_upper * lanes[k].mem_latency_ns * ghz + mt.C) / ghz * 1e-3);
        fputc('\n', f);
    }
    edan_plot_script_header(gp, "predicted run time against memory latency");
    edan_plot_title(gp, "Predicted run time against memory latency", ident);
    fprintf(gp, "set xlabel 'memory latency (ns)'\nset ylabel 'run time (us)'\nset grid\nset key below\n");
    /*
     * The eDAG's line is its runtime bound T upper, M upper x latency + C with m memory slots: an upper
     * bound only on the eDAG's idealised core (no window, widths or fetch), so it can lie below the model.
     */
    char cmd[640], bound[256] = "";
    if (e)
        snprintf(bound, sizeof bound,
                 ", \\\n     ARG1 using 1:3 with lines dt 2 lw 2 title 'eDAG runtime bound on an ideal core, m=%" PRIu64
                 " (slope lambda)'",
                 o->metrics.m[0]);
    char mname[64]; /* in a quoted gnuplot string: no quote or backslash */
    snprintf(mname, sizeof mname, "%s", edan_timing_machine(m)->name);
    for (char *c = mname; *c; c++)
        if (*c == '\'' || *c == '\\')
            *c = '_';
    snprintf(cmd, sizeof cmd, "plot ARG1 using 1:2 with linespoints lw 2 pt 7 title 'timing model on %s'%s", mname,
             bound);
    edan_plot_script_outputs(gp, cmd);
    return edan_plot_close(&files, err);
}

int edan_plot_analysis(const edan_edag *e, const edan_options *o, const char *dir, const char *name, const char *ident,
                       edan_error *err)
{
    if (make_dir(dir, err))
        return -1;
    if (plot_movement(e, dir, name, ident, err))
        return -1;
    return plot_latency(e, o, dir, name, ident, err);
}

static bool row_empty(const edan_plot_xy_spec *p, size_t i)
{
    for (int s = 0; s < p->n_series; s++)
        if (p->y[s][i] != 0)
            return false;
    return true;
}

/* x as a tick label: a whole multiple of a power of 1024 with K, M, G (bins are powers of two), else %.3g with k, M, G
 */
static void tick_label(double x, char *buf, size_t cap)
{
    static const char unit[] = " KMGTP";
    int k = 0;
    double v = x;
    while (k < 5 && v >= 1024 && v == 1024 * (double)(uint64_t)(v / 1024))
        v /= 1024, k++;
    if (k || v < 1000) {
        snprintf(buf, cap, k ? "%.0f%c" : "%.3g", v, unit[k]);
        return;
    }
    static const char si[] = " kMGTP";
    for (k = 0, v = x; k < 5 && v >= 1000; k++)
        v /= 1000;
    snprintf(buf, cap, "%.3g%c", v, si[k]);
}

/* x tics at powers of two across p's x, at most about a dozen, labelled 64, 1K, 32M */
static void power_of_two_tics(FILE *gp, const edan_plot_xy_spec *p)
{
    double lo = 0, hi = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->x[i] > 0) {
            lo = lo == 0 || p->x[i] < lo ? p->x[i] : lo;
            hi = p->x[i] > hi ? p->x[i] : hi;
        }
    int a = 0, b = 0;
    while (a < 62 && (double)((uint64_t)1 << (a + 1)) <= lo)
        a++;
    while (b < 62 && (double)((uint64_t)1 << b) < hi)
        b++;
    const int step = (b - a) / 12 + 1;
    fputs("set xtics (", gp);
    for (int k = a; k <= b; k += step) {
        char label[32];
        tick_label((double)((uint64_t)1 << k), label, sizeof label);
        fprintf(gp, "%s'%s' %" PRIu64, k > a ? ", " : "", label, (uint64_t)1 << k);
    }
    fputs(")\n", gp);
}

/* s inside a gnuplot string in single quotes, where a quote is written twice ("the machine's": 'the machine''s'). */
static const char *gp_quoted(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 3 < n; s++) {
        if (*s == '\'')
            out[k++] = '\'';
        out[k++] = *s;
    }
    out[k] = 0;
    return out;
}

int edan_plot_xy(const char *dir, const char *name, const edan_plot_xy_spec *p, edan_error *err)
{
    char base[512];
    if (make_dir(dir, err))
        return -1;
    snprintf(base, sizeof base, "%s-%s", name, p->suffix);
    edan_plot_files files;
    FILE *f, *gp;
    if (edan_plot_open(&files, dir, base, &f, &gp, err))
        return -1;
    fprintf(f, "# %s", p->xlabel);
    for (int s = 0; s < p->n_series; s++)
        fprintf(f, ", %s", p->series[s]);
    fputc('\n', f);
    size_t from = 0, to = p->n; /* bars: the rows between the first and the last with a value */
    while (p->bars && from < to && row_empty(p, from))
        from++;
    while (p->bars && to > from && row_empty(p, to - 1))
        to--;
    for (size_t i = from; i < to; i++) {
        if (p->bars) {
            char label[32];
            tick_label(p->x[i], label, sizeof label);
            fprintf(f, "\"%s\"", label);
        } else {
            fprintf(f, "%.9g", p->x[i]);
        }
        for (int s = 0; s < p->n_series; s++)
            fprintf(f, " %.9g", p->y[s][i]);
        fputc('\n', f);
    }
    edan_plot_script_header(gp, p->title);
    edan_plot_title(gp, p->title, p->ident);
    /* labels and series names are the tool's texts, never file names; a quote in them (the machine's) is doubled */
    char qx[256], qy[256], qs[256];
    fprintf(gp, "set xlabel '%s'\nset ylabel '%s'\nset grid\nset key below\n%s%s", gp_quoted(p->xlabel, qx, sizeof qx),
            gp_quoted(p->ylabel, qy, sizeof qy), p->logx && !p->bars ? "set logscale x 2\n" : "",
            p->logy ? "set logscale y\n" : "");
    if (!p->bars && p->xaxis == EDAN_AXIS_BYTES && p->logx)
        power_of_two_tics(gp, p);
    else if (!p->bars)
        edan_plot_axis_format(gp, "x", p->xaxis, p->logx);
    edan_plot_axis_format(gp, "y", p->yaxis, p->logy);
    if (p->bars) /* clustered bars, x labels written by edan in K/M/G */
        fputs("set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
              "set xtics rotate by -45 font ',9'\nset grid noxtics\n",
              gp);
    char cmd[2048];
    size_t used = (size_t)snprintf(cmd, sizeof cmd, "plot");
    for (int s = 0; s < p->n_series && used < sizeof cmd - 200; s++) {
        if (p->bars)
            used += (size_t)snprintf(cmd + used, sizeof cmd - used, "%s ARG1 using %d%s title '%s'",
                                     s ? ", \\\n     " : " ", 2 + s, s ? "" : ":xtic(1)",
                                     gp_quoted(p->series[s], qs, sizeof qs));
        else
            used += (size_t)snprintf(cmd + used, sizeof cmd - used,
                                     "%s ARG1 using 1:%d with linespoints lw 2 pt 7 ps 0.6 title '%s'",
                                     s ? ", \\\n     " : " ", 2 + s, gp_quoted(p->series[s], qs, sizeof qs));
    }
    edan_plot_script_outputs(gp, cmd);
    return edan_plot_close(&files, err);
}

int edan_plot_bars(const char *dir, const char *name, const char *suffix, const char *title, const char *ident,
                   const char *ylabel, size_t n, const char *const *labels, const double *values, edan_error *err)
{
    char base[512];
    if (make_dir(dir, err))
        return -1;
    snprintf(base, sizeof base, "%s-%s", name, suffix);
    edan_plot_files files;
    FILE *f, *gp;
    if (edan_plot_open(&files, dir, base, &f, &gp, err))
        return -1;
    for (size_t i = 0; i < n; i++) {
        fputc('"', f);
        for (const unsigned char *p = (const unsigned char *)labels[i]; *p; p++)
            fputc(*p == '"' || *p == '\\' || *p < 0x20 || *p == 0x7f ? '_' : *p, f);
        fprintf(f, "\" %.9g\n", values[i]);
    }
    edan_plot_script_header(gp, title);
    edan_plot_title(gp, title, ident);
    /* the label is the tool's constant, never a file name */
    fprintf(gp,
            "set ylabel '%s'\nset style fill solid 0.8\nset boxwidth 0.7\nset grid y\n"
            "set xtics rotate by -35 font ',8'\nset yrange [0:*]\n",
            ylabel);
    edan_plot_script_outputs(gp, "plot ARG1 using 0:2:xtic(1) with boxes lc rgb '#3182bd' notitle");
    return edan_plot_close(&files, err);
}

int edan_plot_roofline(const char *dir, const char *name, const edan_plot_roofline_spec *p, edan_error *err)
{
    char base[512];
    if (make_dir(dir, err))
        return -1;
    snprintf(base, sizeof base, "%s-%s", name, p->suffix);
    edan_plot_files files;
    FILE *f, *gp;
    if (edan_plot_open(&files, dir, base, &f, &gp, err))
        return -1;
    fputs("# intensity (flops per byte), flop/s, label\n", f);
    double lo = p->peak / p->bandwidth, hi = lo; /* the ridge point, and the points' span around it */
    for (size_t i = 0; i < p->n; i++) {
        if (!(p->x[i] > 0) || !(p->y[i] > 0))
            continue;
        char label[64];
        size_t k = 0;
        for (const char *c = p->label[i]; *c && k < sizeof label - 1; c++)
            label[k++] = (isalnum((unsigned char)*c) || strchr("._:#+-", *c)) ? *c : '_';
        label[k] = '\0';
        fprintf(f, "%.9g %.9g %s\n", p->x[i], p->y[i], k ? label : "_");
        lo = p->x[i] < lo ? p->x[i] : lo;
        hi = p->x[i] > hi ? p->x[i] : hi;
    }
    edan_plot_script_header(gp, p->title);
    /* numbers only in the script: the labels stay in the data file */
    edan_plot_title(gp, p->title, p->ident);
    fprintf(gp,
            "set xlabel 'arithmetic intensity (weighted flops per DRAM byte)'\n"
            "set ylabel 'flop/s'\nset grid\nset key below\nset logscale xy\nset samples 400\n"
            "set xrange [%.9g:%.9g]\npeak = %.9g\nbw = %.9g\nroof(x) = x * bw < peak ? x * bw : peak\n",
            lo / 4, hi * 4, p->peak, p->bandwidth);
    edan_plot_axis_format(gp, "x", EDAN_AXIS_PLAIN, true);
    edan_plot_axis_format(gp, "y", EDAN_AXIS_COUNT, true);
    edan_plot_script_outputs(gp, "plot roof(x) with lines lw 2 title 'min(peak, intensity x bandwidth)', \\\n"
                                 "     ARG1 using 1:2 with points pt 7 ps 1 title 'loops', \\\n"
                                 "     ARG1 using 1:2:3 with labels offset 1,0.6 font ',8' notitle");
    return edan_plot_close(&files, err);
}
