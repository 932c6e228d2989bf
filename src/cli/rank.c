/*
 * rank.c - edan rank: several programs or traces ranked by lambda and Lambda,
 * and with --machine by the timing model's predicted slope and slowdown
 * (lambda and Lambda beside them); text or --json.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/metrics/metrics.h"
#include "cli/cli.h"
#include "report/csv.h"
#include "report/html.h"
#include "report/json.h"
#include "report/plot.h"
#include "tool/graph/graph.h"
#include "util/files.h"
#include "util/parse.h"
#include "util/symbols/symbols.h"

typedef struct ranked {
    const char *name;
    double lambda, Lambda, W, D;
    double slope, slowdown, seconds_lo, seconds_hi; /* the timing model's, with --machine */
    double slope_half; /* the slope's 95 % half-width when the schedule was sampled (timing.h); NAN when exact */
} ranked;

static int by_slope(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    return x->slope < y->slope ? 1 : x->slope > y->slope ? -1 : strcmp(x->name, y->name);
}

static int by_slowdown(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    return x->slowdown < y->slowdown ? 1 : x->slowdown > y->slowdown ? -1 : strcmp(x->name, y->name);
}

static int by_lambda(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    return x->lambda < y->lambda ? 1 : x->lambda > y->lambda ? -1 : strcmp(x->name, y->name);
}

static int by_Lambda(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    return x->Lambda < y->Lambda ? 1 : x->Lambda > y->Lambda ? -1 : strcmp(x->name, y->name);
}

/* A program's name as a gnuplot data string: quotes, backslashes and control characters become '_'. */
static void data_string(FILE *f, const char *name)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        fputc(*p == '"' || *p == '\\' || *p < 0x20 || *p == 0x7f ? '_' : *p, f);
    fputc('"', f);
}

/* One order of the ranking: how to sort, its key in file names and JSON, what it measures, its value. */
typedef struct rank_order {
    int (*cmp)(const void *, const void *);
    const char *key, *what;
    double (*value)(const ranked *);
    bool log; /* a logarithmic axis: lambda spans orders of magnitude */
} rank_order;

static double v_slope(const ranked *r)
{
    return r->slope;
}
static double v_slowdown(const ranked *r)
{
    return r->slowdown;
}
static double v_lambda(const ranked *r)
{
    return r->lambda;
}
static double v_Lambda(const ranked *r)
{
    return r->Lambda;
}

/* The model's orders first (with --machine), then the paper's lambda and Lambda. */
static const rank_order model_orders[] = {
    {by_slope, "slope", "predicted slope of run time against memory latency", v_slope, false},
    {by_slowdown, "slowdown", "predicted slowdown from the lowest to the highest latency", v_slowdown, false},
};
static const rank_order edag_orders[] = {
    {by_lambda, "lambda", "absolute latency sensitivity lambda", v_lambda, true},
    {by_Lambda, "Lambda", "relative latency sensitivity Lambda", v_Lambda, false},
};

static int orders(bool model, const rank_order **o)
{
    int n = 0;
    for (int i = 0; model && i < 2; i++)
        o[n++] = &model_orders[i];
    for (int i = 0; i < 2; i++)
        o[n++] = &edag_orders[i];
    return n;
}

/* A bar chart of one order (r sorted by it): DIR/rank-KEY.{dat,gp,png,svg}; ident: what the programs ran on. */
static void rank_plot(const ranked *r, int n, const char *dir, const rank_order *ord, const char *ident,
                      edan_error *err)
{
    char base[64];
    snprintf(base, sizeof base, "rank-%s", ord->key);
    edan_plot_files files;
    FILE *f, *g;
    if (edan_plot_open(&files, dir, base, &f, &g, err))
        return;
    bool positive = true; /* a log axis shows no 0 (a region whose data the caches hold has lambda 0) */
    for (int i = 0; i < n; i++) {
        data_string(f, r[i].name);
        fprintf(f, " %.17g\n", ord->value(&r[i]));
        positive = positive && ord->value(&r[i]) > 0;
    }
    const char *what = ord->what;
    edan_plot_script_header(g, what);
    char title[160];
    snprintf(title, sizeof title, "Ranking by %s", what);
    edan_plot_title(g, title, ident); /* the programs are the bars' names; the title says what they ran on */
    fprintf(g,
            "set style fill solid 0.8\nset boxwidth 0.7\nset grid y\n"
            "set xtics rotate by -30\nset ylabel '%s'\n%s",
            what, ord->log && positive ? "set logscale y\n" : "");
    edan_plot_script_outputs(g, "plot ARG1 using 0:2:xtic(1) with boxes lc rgb '#e34a33' notitle");
    edan_plot_close(&files, err);
}

/* ===================================================================== */
/* The rankings, text and JSON                                            */
/* ===================================================================== */

static void rank_text(FILE *out, ranked *r, int n, const edan_options *o, const char *cache, const char *machine,
                      const char *lats)
{
    fprintf(out,
            "ranking of %d programs by memory latency sensitivity (cache %s, alpha %" PRIu64 ", m %" PRIu64
            ", alpha0 %g)\n",
            n, cache, o->alpha[0], o->metrics.m[0], o->metrics.alpha0);
    if (machine)
        fprintf(out, "timing model on %s at %s ns (slope: ns of run time per ns of latency)\n", machine, lats);
    const rank_order *ord[4];
    const int n_orders = orders(machine != NULL, ord);
    for (int pass = 0; pass < n_orders; pass++) {
        qsort(r, (size_t)n, sizeof *r, ord[pass]->cmp);
        if (machine) {
            fprintf(out, "\nby %s\n%-5s %-32s %12s %10s %12s %12s %14s %12s\n", ord[pass]->key, "rank", "program",
                    "slope", "slowdown", "s@lowest", "s@highest", "lambda", "Lambda");
            for (int k = 0; k < n; k++)
                fprintf(out, "%-5d %-32.32s %12.6g %10.6g %12.6g %12.6g %14.6g %12.6g\n", k + 1, r[k].name, r[k].slope,
                        r[k].slowdown, r[k].seconds_lo, r[k].seconds_hi, r[k].lambda, r[k].Lambda);
            continue;
        }
        const bool big = ord[pass]->cmp == by_Lambda;
        fprintf(out, "\n%-5s %-32s %16s %14s %12s %10s\n", "rank", "program", big ? "Lambda" : "lambda",
                big ? "lambda" : "Lambda", "W", "D");
        for (int k = 0; k < n; k++)
            fprintf(out, "%-5d %-32.32s %16.6g %14.6g %12.0f %10.0f\n", k + 1, r[k].name,
                    big ? r[k].Lambda : r[k].lambda, big ? r[k].lambda : r[k].Lambda, r[k].W, r[k].D);
    }
}

/* --csv-dir: DIR/rank-programs.csv, a row per program in the first order, every figure a column. */
static void rank_csv(ranked *r, int n, const char *dir, bool model)
{
    const rank_order *ord[4];
    orders(model, ord);
    qsort(r, (size_t)n, sizeof *r, ord[0]->cmp);
    edan_csv c;
    edan_error err = {0};
    if (edan_csv_open(&c, dir, "rank", "programs",
                      model ? "rank,program,slope_ns_per_ns,slope_low,slope_high,slowdown,seconds_lowest,"
                              "seconds_highest,lambda,Lambda,W,D"
                            : "rank,program,lambda,Lambda,W,D",
                      &err))
        cli_die(2, "%s", err.msg);
    for (int k = 0; k < n; k++) {
        edan_csv_u64(&c, (uint64_t)k + 1);
        edan_csv_str(&c, r[k].name);
        if (model) {
            edan_csv_num(&c, r[k].slope);
            if (isfinite(r[k].slope_half)) { /* the interval of NAME-prediction.csv; empty when exact */
                edan_csv_num(&c, r[k].slope - r[k].slope_half);
                edan_csv_num(&c, r[k].slope + r[k].slope_half);
            } else {
                edan_csv_str(&c, NULL);
                edan_csv_str(&c, NULL);
            }
            edan_csv_num(&c, r[k].slowdown);
            edan_csv_num(&c, r[k].seconds_lo);
            edan_csv_num(&c, r[k].seconds_hi);
        }
        edan_csv_num(&c, r[k].lambda);
        edan_csv_num(&c, r[k].Lambda);
        edan_csv_num(&c, r[k].W);
        edan_csv_num(&c, r[k].D);
        edan_csv_end_row(&c);
    }
    if (edan_csv_close(&c, &err))
        cli_die(2, "%s", err.msg);
}

/* {"schema":"edan.rank/1", the settings, and a list of programs per order} (docs/json-schema.md). */
static void rank_json(FILE *out, ranked *r, int n, const edan_options *o, const char *cache, const char *machine,
                      const char *lats)
{
    fputs("{\"schema\":\"edan.rank/1\",\"cache\":", out);
    edan_json_str(out, cache);
    fprintf(out, ",\"alpha\":%" PRIu64 ",\"m\":%" PRIu64 ",\"alpha0\":", o->alpha[0], o->metrics.m[0]);
    edan_json_num(out, o->metrics.alpha0);
    fputs(",\"machine\":", out);
    if (machine)
        edan_json_str(out, machine);
    else
        fputs("null", out);
    fputs(",\"mem_latency_ns\":", out);
    if (machine) {
        double v[EDAN_TIMING_MAX_LATENCIES];
        int nv = 0;
        char buf[1024], *save = NULL; /* the list the option's own check accepted */
        snprintf(buf, sizeof buf, "%s", lats);
        for (char *tok = strtok_r(buf, ",", &save); tok && nv < EDAN_TIMING_MAX_LATENCIES;
             tok = strtok_r(NULL, ",", &save))
            if (!edan_parse_double(tok, &v[nv]))
                nv++;
        edan_json_num_array(out, v, (size_t)nv);
    } else {
        fputs("null", out);
    }
    const rank_order *ord[4];
    const int n_orders = orders(machine != NULL, ord);
    for (int pass = 0; pass < n_orders; pass++) {
        qsort(r, (size_t)n, sizeof *r, ord[pass]->cmp);
        fprintf(out, ",\"by_%s\":[", ord[pass]->key);
        for (int k = 0; k < n; k++) {
            fputs(k ? ",{\"program\":" : "{\"program\":", out);
            edan_json_str(out, r[k].name);
            const double v[] = {r[k].lambda, r[k].Lambda, r[k].W, r[k].D};
            const char *const name[] = {"lambda", "Lambda", "W", "D"};
            for (int x = 0; x < 4; x++) {
                fprintf(out, ",\"%s\":", name[x]);
                edan_json_num(out, v[x]);
            }
            if (machine) {
                const double mv[] = {r[k].slope, r[k].slowdown, r[k].seconds_lo, r[k].seconds_hi};
                const char *const mname[] = {"slope_ns_per_ns", "slowdown", "seconds_lowest", "seconds_highest"};
                for (int x = 0; x < 4; x++) {
                    fprintf(out, ",\"%s\":", mname[x]);
                    edan_json_num(out, mv[x]);
                }
            }
            fputc('}', out);
        }
        fputc(']', out);
    }
    fputs("}\n", out);
}

/* ===================================================================== */
/* What to rank                                                           */
/* ===================================================================== */

/* A trace, or a program with its arguments and the function to trace (NULL: the command's --filter). */
typedef struct rank_item {
    char *path, *function, *shown;
    char **argv; /* argv[0] = path; argc entries then NULL */
    int argc;
} rank_item;

typedef struct rank_list {
    rank_item *items;
    int n, cap;
} rank_list;

static rank_item *new_item(rank_list *l)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        rank_item *m = realloc(l->items, (size_t)l->cap * sizeof *m);
        if (!m)
            cli_die(2, "out of memory");
        l->items = m;
    }
    rank_item *it = &l->items[l->n++];
    memset(it, 0, sizeof *it);
    return it;
}

static char *dup_or_die(const char *s, size_t n)
{
    char *d = strndup(s, n);
    if (!d)
        cli_die(2, "out of memory");
    return d;
}

/*
 * PROGRAM:FUNCTION (a program whose given function is traced) or a plain
 * PROGRAM or TRACE. The ':' splits only where the part before it is a
 * file and the whole is not: a path with a colon still works.
 */
static void parse_item(rank_item *it, const char *text)
{
    struct stat st;
    const char *colon = strchr(text, ':');
    while (colon && (stat(text, &st) == 0 || colon[1] == ':')) /* the whole exists, or "::" of a C++ name */
        colon = strchr(colon + (colon[1] == ':' ? 2 : 1), ':');
    if (colon && stat(text, &st) != 0) {
        it->path = dup_or_die(text, (size_t)(colon - text));
        it->function = dup_or_die(colon + 1, strlen(colon + 1));
        if (!*it->function || stat(it->path, &st) != 0)
            cli_die(2, "rank: '%s' is not PROGRAM:FUNCTION with an existing PROGRAM", text);
    } else {
        it->path = dup_or_die(text, strlen(text));
    }
    const char *slash = strrchr(it->path, '/');
    const char *base = slash ? slash + 1 : it->path;
    size_t n = strlen(base) + (it->function ? strlen(it->function) + 1 : 0) + 1;
    it->shown = malloc(n);
    if (!it->shown)
        cli_die(2, "out of memory");
    snprintf(it->shown, n, "%s%s%s", base, it->function ? ":" : "", it->function ? it->function : "");
}

/* --list=FILE: a line per program, "PROGRAM[:FUNCTION] [ARGS...]" split at blanks; '#' starts a comment. */
static void read_list(rank_list *l, const char *path)
{
    edan_error err = {0};
    FILE *f = edan_input_fopen(path, "the list", 0, &err);
    if (!f)
        cli_die(2, "%s", err.msg);
    char line[4096];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f))
            cli_die(2, "%s:%d: line longer than %zu characters", path, lineno, sizeof line - 2);
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *words[256];
        int n = 0;
        char *save = NULL;
        for (char *w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
            if (n == 255)
                cli_die(2, "%s:%d: more than 254 arguments", path, lineno);
            words[n++] = w;
        }
        if (!n)
            continue;
        rank_item *it = new_item(l);
        struct stat st;
        if (strchr(words[0], ':') || stat(words[0], &st) == 0) {
            parse_item(it, words[0]);
        } else {
            cli_die(2, "%s:%d: '%s': no such program or trace", path, lineno, words[0]);
        }
        it->argc = n;
        it->argv = calloc((size_t)n + 1, sizeof *it->argv);
        if (!it->argv)
            cli_die(2, "out of memory");
        it->argv[0] = it->path;
        for (int k = 1; k < n; k++)
            it->argv[k] = dup_or_die(words[k], strlen(words[k]));
    }
    if (ferror(f))
        cli_die(2, "%s: cannot read the list: %s", path, strerror(errno));
    fclose(f);
}

static void free_items(rank_list *l)
{
    for (int k = 0; k < l->n; k++) {
        rank_item *it = &l->items[k];
        for (int a = 1; a < it->argc; a++)
            free(it->argv[a]);
        free(it->argv);
        free(it->path);
        free(it->function);
        free(it->shown);
    }
    free(l->items);
}

/* --html: the page of report/html.h: the header every JSON report has and "rank": the ranking's --json report. */
static void rank_html(const cli *c, ranked *r, int n, const char *cache, const char *machine, const char *lats)
{
    char *json = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&json, &len);
    if (!m)
        cli_die(1, "out of memory");
    const edan_report_source src = {"rank", NULL, NULL, NULL, false, {0}, false, 0, NULL, false};
    edan_report_header(m, &c->o, &src, true);
    fputs(",\"rank\":", m);
    rank_json(m, r, n, &c->o, cache, machine, lats);
    fputs("}\n", m);
    if (fclose(m))
        cli_die(1, "out of memory");
    edan_output out;
    edan_error err = {0};
    FILE *f = edan_output_fopen(&out, c->o.html, "--html", &err);
    if (!f)
        cli_die(2, "%s", err.msg);
    if (edan_report_html(f, &src, json, len)) {
        edan_output_abort(&out);
        cli_die(1, "%s: write failed: %s", c->o.html, strerror(errno));
    }
    if (edan_output_commit(&out, &err))
        cli_die(1, "%s", err.msg);
    free(json);
}

int cli_cmd_rank(int argc, char **argv)
{
    cli c = {0};
    int i;
    if (!cli_begin_command(argc, argv, "rank", &c, &i))
        return 0;
    rank_list list = {0};
    for (int k = i; k < argc; k++) {
        rank_item *it = new_item(&list);
        parse_item(it, argv[k]);
        it->argc = 1;
        it->argv = calloc(2, sizeof *it->argv);
        if (!it->argv)
            cli_die(2, "out of memory");
        it->argv[0] = it->path;
    }
    if (c.list_file)
        read_list(&list, c.list_file);
    const int n = list.n;
    if (n < 1)
        cli_die(2, "rank: usage: edan rank [options] TRACE|PROGRAM[:FUNCTION]... [--list=FILE]");
    /* every input against every output first: a clash is the error named, whatever else is wrong */
    for (int k = 0; k < n; k++)
        cli_refuse_overwrite(&c, list.items[k].path);
    /* with --machine the model ranks: a slope needs two latencies or more */
    const char *machine = edan_options_last(&c.o, "machine");
    const char *lats = edan_options_last(&c.o, "mem-latency");
    if (machine && (!lats || !strpbrk(lats, ",")))
        cli_die(2, "rank: --machine ranks by the slope of run time against memory latency: give two latencies or "
                   "more, e.g. --mem-latency=50,300");
    edan_edag_config cfg;
    edan_error cerr = {0};
    if (edan_options_edag_config(&c.o, &cfg, &cerr))
        cli_die(2, "rank: %s", cerr.msg);
    ranked *r = calloc((size_t)n, sizeof *r);
    if (!r)
        cli_die(2, "out of memory");
    for (int k = 0; k < n; k++) {
        const rank_item *it = &list.items[k];
        const char *item = it->path;
        edan_error err = {0};
        edan_elf elf;
        const char *trace = item;
        char tmp_trace[PATH_MAX + 32];
        if (edan_elf_open(item, &elf, &err) == 0) {
            edan_elf_close(&elf);
            /* a program: trace it first, with its arguments and its function when given */
            cli one = c;
            if (it->function) {
                one.o.n_filter = 0;
                edan_error ferr = {0};
                if (edan_options_set(&one.o, "filter", it->function, &ferr))
                    cli_die(2, "rank: %s: %s", it->shown, ferr.msg);
            }
            if (!one.program_output && c.o.json && !c.o.output[0])
                one.program_output = "stderr"; /* the JSON on stdout stays parseable while the programs print */
            cli_check_program(&one, item);
            snprintf(tmp_trace, sizeof tmp_trace, "%s/rank.edt", cli_tmpdir());
            cli_run_qemu(&one, "record", tmp_trace, it->argv, it->argc);
            trace = tmp_trace;
        } else {
            if (it->function)
                cli_die(2, "rank: %s: a function is given, but %s is not a program (an ELF executable)", it->shown,
                        item);
            cli_check_trace_file(item);
        }
        static const char *const only[] = {"edag", NULL}, *const with_model[] = {"edag", "prediction", NULL};
        edan_trace_source *src;
        edan_session *sess = cli_analyze_trace(&c, trace, "trace", trace, machine ? with_model : only, &src);
        const edan_timing *tm = machine ? edan_timing_tool_model(sess) : NULL;
        if (tm) {
            r[k].slope = edan_timing_slope(tm);
            r[k].slowdown = edan_timing_slowdown(tm);
            edan_timing_sample_info si;
            edan_timing_sample_info_get(tm, &si);
            r[k].slope_half = si.sampled && !si.covered ? si.slope_half : NAN;
            double lo = INFINITY, hi = -INFINITY; /* the lanes of the lowest and the highest latency */
            for (int l = 0; l < edan_timing_lanes(tm); l++) {
                const edan_timing_lane ln = edan_timing_lane_get(tm, l);
                if (ln.mem_latency_ns < lo)
                    lo = ln.mem_latency_ns, r[k].seconds_lo = ln.seconds;
                if (ln.mem_latency_ns > hi)
                    hi = ln.mem_latency_ns, r[k].seconds_hi = ln.seconds;
            }
        }
        const edan_edag *e = edan_edag_tool_analysis(sess);
        const edan_lane_stats *st = edan_edag_lane(e, 0);
        edan_metrics mt;
        edan_metrics_compute(st, edan_edag_get_config(e)->lane[0].cost.alpha, &c.o.metrics, &mt);
        r[k].name = it->shown;
        r[k].lambda = mt.per_m[0].lambda;
        r[k].Lambda = mt.per_m[0].Lambda;
        r[k].W = (double)st->W;
        r[k].D = (double)st->D;
        edan_session_free(sess);
        edan_trace_source_close(src);
        if (trace != item)
            unlink(trace);
    }
    char cache[256];
    edan_cache_config_format(&cfg.lane[0].cache, cache, sizeof cache); /* --machine's when --cache is not given */
    FILE *out = cli_open_output(&c.o);
    if (c.o.json)
        rank_json(out, r, n, &c.o, cache, machine, lats);
    else
        rank_text(out, r, n, &c.o, cache, machine, lats);
    if (c.o.csv_dir[0])
        rank_csv(r, n, c.o.csv_dir, machine != NULL);
    if (c.o.plot_dir[0]) {
        if (mkdir(c.o.plot_dir, 0755) && errno != EEXIST)
            cli_die(2, "%s: cannot create: %s", c.o.plot_dir, strerror(errno));
        const rank_order *ord[4];
        const int n_orders = orders(machine != NULL, ord);
        char ident[900];
        char name[256] = "";
        if (machine)
            edan_plot_machine_name(machine, name, sizeof name);
        if (machine)
            snprintf(ident, sizeof ident, "%d programs, machine %s at %s ns, cache %s", n, name, lats, cache);
        else
            snprintf(ident, sizeof ident, "%d programs, cache %s", n, cache);
        for (int pass = 0; pass < n_orders; pass++) {
            edan_error err = {0};
            qsort(r, (size_t)n, sizeof *r, ord[pass]->cmp);
            rank_plot(r, n, c.o.plot_dir, ord[pass], ident, &err);
            if (err.set)
                cli_die(2, "%s", err.msg);
        }
    }
    cli_close_output(out, &c.o);
    if (c.o.html[0]) {
        rank_html(&c, r, n, cache, machine, lats);
    }
    free(r);
    free_items(&list);
    return 0;
}
