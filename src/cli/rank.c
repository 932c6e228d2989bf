/*
 * rank.c - edan rank: several programs or traces ranked by lambda and Lambda.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/metrics.h"
#include "cli/cli.h"
#include "report/plot.h"
#include "tool/edag_tool.h"
#include "util/elf_symbols.h"
#include "util/files.h"

typedef struct ranked {
    const char *name;
    double lambda, Lambda, W, D;
} ranked;

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

static void rank_plot(const ranked *r, int n, const char *dir, bool big, edan_error *err)
{
    const char *key = big ? "Lambda" : "lambda";
    char base[64];
    snprintf(base, sizeof base, "rank-%s", key);
    edan_plot_files files;
    FILE *f, *g;
    if (mkdir(dir, 0755) && errno != EEXIST) {
        edan_error_set(err, "%s: cannot create the plot directory: %s", dir, strerror(errno));
        return;
    }
    if (edan_plot_open(&files, dir, base, &f, &g, err))
        return;
    for (int i = 0; i < n; i++) {
        data_string(f, r[i].name);
        fprintf(f, " %.17g\n", big ? r[i].Lambda : r[i].lambda);
    }
    const char *what = big ? "relative latency sensitivity Lambda" : "absolute latency sensitivity lambda";
    edan_plot_script_header(g, what);
    fprintf(g,
            "set title 'Ranking by %s'\nset style fill solid 0.8\nset boxwidth 0.7\nset grid y\n"
            "set xtics rotate by -30\nset ylabel '%s'\n%s",
            what, what, big ? "" : "set logscale y\n");
    edan_plot_script_outputs(g, "plot ARG1 using 0:2:xtic(1) with boxes lc rgb '#e34a33' notitle");
    edan_plot_close(&files, err);
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
            cli_die(1, "out of memory");
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
        cli_die(1, "out of memory");
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
        cli_die(1, "out of memory");
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
            cli_die(1, "out of memory");
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
            cli_die(1, "out of memory");
        it->argv[0] = it->path;
    }
    if (c.list_file)
        read_list(&list, c.list_file);
    const int n = list.n;
    if (n < 1)
        cli_die(2, "rank: usage: edan rank [options] TRACE|PROGRAM[:FUNCTION]... [--list=FILE]");
    ranked *r = calloc((size_t)n, sizeof *r);
    if (!r)
        cli_die(1, "out of memory");
    for (int k = 0; k < n; k++) {
        const rank_item *it = &list.items[k];
        const char *item = it->path;
        cli_refuse_overwrite(&c, item);
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
            cli_check_program(&one, item);
            snprintf(tmp_trace, sizeof tmp_trace, "%s/rank.edt", cli_tmpdir());
            cli_run_qemu(&one, "record", tmp_trace, it->argv, it->argc);
            trace = tmp_trace;
        } else {
            if (it->function)
                cli_die(2, "rank: %s: a function is given, but %s is not a RISC-V program", it->shown, item);
            cli_check_trace_file(item);
        }
        static const char *const only[] = {"edag", NULL};
        edan_trace_source *src;
        edan_session *sess = cli_analyze_trace(&c, trace, "trace", trace, only, &src);
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
    edan_cache_config_format(&c.o.cache[0], cache, sizeof cache);
    FILE *out = cli_open_output(&c.o);
    fprintf(out,
            "ranking of %d programs by memory latency sensitivity (cache %s, alpha %" PRIu64 ", m %" PRIu64
            ", alpha0 %g)\n",
            n, cache, c.o.alpha[0], c.o.metrics.m[0], c.o.metrics.alpha0);
    for (int pass = 0; pass < 2; pass++) {
        qsort(r, (size_t)n, sizeof *r, pass ? by_Lambda : by_lambda);
        fprintf(out, "\n%-5s %-32s %16s %14s %12s %10s\n", "rank", "program", pass ? "Lambda" : "lambda",
                pass ? "lambda" : "Lambda", "W", "D");
        for (int k = 0; k < n; k++)
            fprintf(out, "%-5d %-32.32s %16.6g %14.6g %12.0f %10.0f\n", k + 1, r[k].name,
                    pass ? r[k].Lambda : r[k].lambda, pass ? r[k].lambda : r[k].Lambda, r[k].W, r[k].D);
        if (c.o.plot_dir[0]) {
            edan_error err = {0};
            if (mkdir(c.o.plot_dir, 0755) && errno != EEXIST)
                cli_die(2, "%s: cannot create: %s", c.o.plot_dir, strerror(errno));
            rank_plot(r, n, c.o.plot_dir, pass == 1, &err);
            if (err.set)
                cli_die(2, "%s", err.msg);
        }
    }
    cli_close_output(out, &c.o);
    free(r);
    free_items(&list);
    return 0;
}
