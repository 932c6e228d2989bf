/*
 * edan.c - the command line: edan run | record | analyze | convert.
 *
 * Exit status: 0 on success, 2 for bad input or options (a clear one-line
 * message on stderr), 1 when something outside edan failed (QEMU missing or
 * crashing, out of memory).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/edag.h"
#include "config/options.h"
#include "report/dot.h"
#include "report/plot.h"
#include "report/report.h"
#include "trace/exec.h"
#include "trace/trace_file.h"
#include "trace/trace_text.h"
#include "util/elf_symbols.h"
#include "util/parse.h"

#define EDAN_VERSION "0.1.0"

static const char *prog_name = "edan";

static void die(int status, const char *fmt, ...) EDAN_PRINTF(2, 3);
static void die(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(status);
}

/* Options of the command line that are not analysis options. */
typedef struct cli {
    edan_options o;
    const char *qemu;
    const char *plugin;
    const char *trace_out;
    const char *image;     /* edan dot: render to this SVG or PNG with Graphviz */
    uint64_t max_vertices; /* edan dot */
    bool text_trace;
    bool help;
} cli;

static void usage_main(FILE *f)
{
    fputs("usage: edan <command> [options] ...\n"
          "\n"
          "Trace RISC-V programs under QEMU and compute their execution-DAG (eDAG) metrics:\n"
          "work, span, memory work W and depth D, memory-cost and runtime bounds, lambda,\n"
          "Lambda, bandwidth and data movement over time.\n"
          "\n"
          "Commands:\n"
          "  run      trace a program and analyse it in one process, with no trace file\n"
          "  record   trace a program into a trace file (binary, or the original text format)\n"
          "  analyze  analyse a trace file (edan binary or EDAN text format)\n"
          "  convert  convert a trace between the binary and text formats\n"
          "  dot      draw the eDAG of a small traced region (Graphviz DOT, SVG, PNG)\n"
          "  rank     rank several programs or traces by lambda and Lambda (section 4 of the paper)\n"
          "\n"
          "'edan <command> --help' explains a command and all its options.\n",
          f);
}

static void tracing_help(FILE *f)
{
    fputs("Tracing options:\n"
          "  --filter=F[,G...]   trace only while one of these functions is active (entered and\n"
          "                      not yet returned), callees included [whole program]\n"
          "  --exclude-callees   with --filter, leave out instructions of the functions they call\n"
          "  --qemu=PATH         QEMU user-mode emulator [$EDAN_QEMU or qemu-riscv64 on PATH]\n"
          "  --plugin=PATH       edan's TCG plugin [$EDAN_PLUGIN or libedan_plugin.so beside edan]\n"
          "  --progress, --no-progress  instructions so far and the rate, on stderr\n"
          "                      [when stderr is a terminal]\n",
          f);
}

static void usage_sub(const char *sub, FILE *f)
{
    if (!strcmp(sub, "run")) {
        fputs("usage: edan run [options] [--] PROGRAM [ARGS...]\n"
              "Run a statically linked RISC-V program under qemu-riscv64 with edan's plugin and\n"
              "analyse its eDAG in-process (no trace file). The program's own output is kept.\n\n",
              f);
        tracing_help(f);
        edan_options_help(f);
    } else if (!strcmp(sub, "record")) {
        fputs("usage: edan record [options] -o TRACE [--] PROGRAM [ARGS...]\n"
              "Trace a program into TRACE: the compressed binary format (docs/trace-format.md),\n"
              "or with --text the original EDAN text format (one instruction per line).\n\n"
              "  -o, --trace=PATH    trace file to write (required)\n"
              "  --text              write the text format instead of the binary one\n",
              f);
        tracing_help(f);
    } else if (!strcmp(sub, "analyze")) {
        fputs("usage: edan analyze [options] TRACE\n"
              "Analyse a trace: edan's binary format or the original EDAN text format\n"
              "(detected from the content; '-' reads text from standard input).\n\n",
              f);
        edan_options_help(f);
    } else if (!strcmp(sub, "dot")) {
        fputs("usage: edan dot [options] [-o OUT.dot] TRACE\n"
              "Draw the eDAG of a small traced region as Graphviz DOT, in the style of the EDAN\n"
              "paper's Figure 7: a vertex per instruction, memory-access vertices red, an edge per\n"
              "true dependency (false ones dashed with --false-deps), one critical path bold.\n"
              "Record the region first, e.g. edan record --filter=kernel -o k.edt ./prog 4\n\n"
              "  -o PATH             the DOT file [standard output]\n"
              "  --image=FILE.svg|FILE.png  also render it with Graphviz's dot\n"
              "  --max-vertices=N    refuse larger regions [5000]\n"
              "  --cache, --alpha, --cost, --cost-file, --false-deps  as for analyze (the first\n"
              "                      --cache and --alpha values are used)\n",
              f);
    } else if (!strcmp(sub, "rank")) {
        fputs("usage: edan rank [options] TRACE|PROGRAM...\n"
              "Rank programs by their memory latency sensitivity, lambda and Lambda, all analysed with\n"
              "the same settings (the paper's section 4 method). A PROGRAM (RISC-V ELF) is traced with\n"
              "no arguments; record a trace first to give it arguments. --plot-dir draws both rankings.\n"
              "The first --cache, --alpha and --m values are used.\n\n",
              f);
        tracing_help(f);
        edan_options_help(f);
    } else if (!strcmp(sub, "convert")) {
        fputs("usage: edan convert [--text|--binary] IN OUT\n"
              "Convert a trace: to the text format with --text (the default when IN is binary),\n"
              "to the binary format with --binary (the default when IN is text).\n",
              f);
    } else {
        usage_main(f);
    }
}

static int parse_args(int argc, char **argv, int start, cli *c, const char *sub, bool stop_at_positional)
{
    int i = start;
    for (; i < argc; i++) {
        char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            c->help = true;
            continue;
        }
        if (!strcmp(a, "-o")) {
            if (i + 1 >= argc)
                die(2, "%s: -o needs a path", sub);
            c->trace_out = argv[++i];
            continue;
        }
        if (strncmp(a, "--", 2)) {
            if (stop_at_positional)
                break;
            if (a[0] == '-' && a[1])
                die(2, "%s: unknown option '%s' (see 'edan %s --help')", sub, a, sub);
            break;
        }
        char key[64];
        const char *eq = strchr(a + 2, '=');
        size_t klen = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        if (klen >= sizeof key)
            die(2, "%s: unknown option '%s'", sub, a);
        memcpy(key, a + 2, klen);
        key[klen] = '\0';
        const char *value = eq ? eq + 1 : NULL;
        /* command-line-only options */
        if (!strcmp(key, "max-vertices")) {
            if (!value) {
                if (i + 1 >= argc)
                    die(2, "%s: --%s needs a value", sub, key);
                value = argv[++i];
            }
            if (edan_parse_u64(value, &c->max_vertices) || c->max_vertices == 0)
                die(2, "%s: --max-vertices: '%s' is not a positive integer", sub, value);
            continue;
        }
        if (!strcmp(key, "qemu") || !strcmp(key, "plugin") || !strcmp(key, "trace") || !strcmp(key, "image")) {
            if (!value) {
                if (i + 1 >= argc)
                    die(2, "%s: --%s needs a value", sub, key);
                value = argv[++i];
            }
            if (!strcmp(key, "qemu"))
                c->qemu = value;
            else if (!strcmp(key, "plugin"))
                c->plugin = value;
            else if (!strcmp(key, "image"))
                c->image = value;
            else
                c->trace_out = value;
            continue;
        }
        if (!strcmp(key, "text") || !strcmp(key, "binary")) {
            if (value)
                die(2, "%s: --%s takes no value", sub, key);
            c->text_trace = !strcmp(key, "text");
            continue;
        }
        int takes = edan_options_takes_value(key);
        if (takes < 0)
            die(2, "%s: unknown option '--%s' (see 'edan %s --help')", sub, key, sub);
        if (takes && !value) {
            if (i + 1 >= argc)
                die(2, "%s: --%s needs a value", sub, key);
            value = argv[++i];
        }
        edan_error err = {0};
        if (edan_options_set(&c->o, key, value, &err))
            die(2, "%s: %s", sub, err.msg);
    }
    return i;
}

static char self_dir[PATH_MAX];

static const char *find_plugin(const cli *c)
{
    if (c->plugin)
        return c->plugin;
    const char *env = getenv("EDAN_PLUGIN");
    if (env && *env)
        return env;
    static char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/libedan_plugin.so", self_dir);
    return path;
}

static const char *find_qemu(const cli *c)
{
    if (c->qemu)
        return c->qemu;
    const char *env = getenv("EDAN_QEMU");
    return env && *env ? env : "qemu-riscv64";
}

static void check_program(const cli *c, const char *program)
{
    edan_elf elf;
    edan_error err = {0};
    if (edan_elf_open(program, &elf, &err))
        die(2, "%s", err.msg);
    for (int i = 0; i < c->o.n_filter; i++) {
        edan_elf_func f;
        if (!edan_elf_find(&elf, program, c->o.filter[i], &f, 1, &err)) {
            edan_elf_close(&elf);
            die(2, "%s", err.msg);
        }
    }
    edan_elf_close(&elf);
}

static void check_plugin_path(const char *what, const char *path)
{
    if (strchr(path, ','))
        die(2, "%s '%s' contains a comma, which QEMU's -plugin option cannot pass", what, path);
}

static char tmpdir[PATH_MAX];

static void cleanup_tmp(void)
{
    if (!tmpdir[0])
        return;
    char p[PATH_MAX + 32];
    const char *names[] = {"opts", "status", "report"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    rmdir(tmpdir);
    tmpdir[0] = '\0';
}

static void make_tmpdir(void)
{
    if (tmpdir[0])
        return;
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/edan.XXXXXX", base && *base && !strchr(base, ',') ? base : "/tmp");
    if (!mkdtemp(tmpdir))
        die(1, "cannot create a temporary directory: %s", strerror(errno));
    atexit(cleanup_tmp);
}

/* Run QEMU with the plugin; returns the program's exit status. */
static int run_qemu(const cli *c, const char *mode, const char *out, char **prog_argv, int prog_argc)
{
    const char *plugin = find_plugin(c);
    if (access(plugin, R_OK))
        die(1, "cannot find edan's QEMU plugin at %s (build it, or set --plugin / EDAN_PLUGIN)", plugin);
    check_plugin_path("plugin path", plugin);
    check_plugin_path("output path", out);
    make_tmpdir();
    char opts[PATH_MAX + 16], status[PATH_MAX + 16];
    snprintf(opts, sizeof opts, "%s/opts", tmpdir);
    snprintf(status, sizeof status, "%s/status", tmpdir);
    FILE *f = fopen(opts, "w");
    if (!f || edan_options_write(&c->o, f) || fclose(f))
        die(1, "cannot write %s: %s", opts, strerror(errno));
    char plugin_arg[8 * PATH_MAX];
    int progress = c->o.progress < 0 ? isatty(2) : c->o.progress;
    char binary[PATH_MAX];
    if (!realpath(prog_argv[0], binary) || strchr(binary, ','))
        snprintf(binary, sizeof binary, "%s", "");
    snprintf(plugin_arg, sizeof plugin_arg, "%s,mode=%s,out=%s,opts=%s,status=%s,progress=%s%s%s", plugin, mode, out,
             opts, status, progress ? "on" : "off", binary[0] ? ",binary=" : "", binary);
    char **args = calloc((size_t)prog_argc + 6, sizeof *args);
    if (!args)
        die(1, "out of memory");
    int n = 0;
    args[n++] = (char *)find_qemu(c);
    args[n++] = "-plugin";
    args[n++] = plugin_arg;
    for (int i = 0; i < prog_argc; i++)
        args[n++] = prog_argv[i];
    args[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        die(1, "fork: %s", strerror(errno));
    if (pid == 0) {
        execvp(args[0], args);
        fprintf(stderr, "%s: cannot run %s: %s (install qemu-user, or set --qemu / EDAN_QEMU)\n", prog_name, args[0],
                strerror(errno));
        _exit(127);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR)
            die(1, "waitpid: %s", strerror(errno));
    }
    free(args);
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127 && access(status, R_OK))
        exit(1);
    FILE *s = fopen(status, "r");
    char line[2048] = "";
    if (!s || !fgets(line, sizeof line, s)) {
        if (s)
            fclose(s);
        if (WIFSIGNALED(ws))
            die(1, "QEMU was killed by signal %d before edan's plugin finished", WTERMSIG(ws));
        die(1, "QEMU exited with status %d before edan's plugin finished (see its messages above)",
            WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
    }
    fclose(s);
    line[strcspn(line, "\n")] = '\0';
    if (!strncmp(line, "error: ", 7))
        die(2, "%s", line + 7);
    int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    if (code)
        fprintf(stderr, "%s: warning: the program exited with status %d\n", prog_name, code);
    return code;
}

static void copy_file_to(const char *path, FILE *to)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die(1, "cannot read %s: %s", path, strerror(errno));
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (fwrite(buf, 1, n, to) != n)
            die(1, "cannot write the report: %s", strerror(errno));
    fclose(f);
}

static FILE *open_output(const edan_options *o)
{
    if (!o->output[0])
        return stdout;
    FILE *f = fopen(o->output, "w");
    if (!f)
        die(2, "%s: cannot write: %s", o->output, strerror(errno));
    return f;
}

static void close_output(FILE *f, const edan_options *o)
{
    if (fflush(f) || ferror(f) || (f != stdout && fclose(f)))
        die(1, "%s: write failed: %s", o->output[0] ? o->output : "standard output", strerror(errno));
}

/* The start every command shares: defaults, options, --help. False when help was shown. */
static bool begin_command(int argc, char **argv, const char *sub, cli *c, int *first)
{
    edan_options_default(&c->o);
    *first = parse_args(argc, argv, 2, c, sub, false);
    if (c->help)
        usage_sub(sub, stdout);
    return !c->help;
}

static void analyze_source(const cli *c, const char *path);

static int cmd_run(int argc, char **argv)
{
    cli c = {0};
    int i;
    if (!begin_command(argc, argv, "run", &c, &i))
        return 0;
    if (i >= argc)
        die(2, "run: no program given (usage: edan run [options] [--] PROGRAM [ARGS...])");
    check_program(&c, argv[i]);
    edan_edag_config cfg;
    edan_error err = {0};
    if (edan_options_edag_config(&c.o, &cfg, &err))
        die(2, "run: %s", err.msg);
    if (c.o.per_function) {
        /* the breakdown needs a second pass: record a trace, then analyse it */
        make_tmpdir();
        char trace[PATH_MAX + 16];
        snprintf(trace, sizeof trace, "%s/run.edt", tmpdir);
        run_qemu(&c, "record", trace, argv + i, argc - i);
        analyze_source(&c, trace);
        unlink(trace);
        return 0;
    }
    FILE *out = open_output(&c.o);
    make_tmpdir();
    char report[PATH_MAX + 16];
    snprintf(report, sizeof report, "%s/report", tmpdir);
    run_qemu(&c, "online", report, argv + i, argc - i);
    copy_file_to(report, out);
    close_output(out, &c.o);
    return 0;
}

static int cmd_record(int argc, char **argv)
{
    cli c = {0};
    int i;
    if (!begin_command(argc, argv, "record", &c, &i))
        return 0;
    if (!c.trace_out)
        die(2, "record: no trace file given (-o TRACE)");
    if (i >= argc)
        die(2, "record: no program given (usage: edan record [options] -o TRACE [--] PROGRAM [ARGS...])");
    check_program(&c, argv[i]);
    /* Fail early, before a long run, if the trace cannot be written. */
    int fd = open(c.trace_out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        die(2, "%s: cannot write the trace: %s", c.trace_out, strerror(errno));
    close(fd);
    run_qemu(&c, c.text_trace ? "text" : "record", c.trace_out, argv + i, argc - i);
    return 0;
}

typedef struct fn_total {
    const char *name;
    uint64_t count;
} fn_total;

static int by_count(const void *a, const void *b)
{
    const fn_total *x = a, *y = b;
    return x->count < y->count ? 1 : x->count > y->count ? -1 : strcmp(x->name, y->name);
}

/*
 * The per-function breakdown: a second pass over the trace with two lanes per
 * function (exclusive and inclusive of callees), for the functions named by
 * --functions or the ones that executed the most instructions in `main_e`.
 */
static edan_edag *per_function_pass(const cli *c, const char *trace, const char *binary, const edan_edag *main_e,
                                    char names[16][128], int *n_names)
{
    edan_error err = {0};
    edan_elf elf;
    if (!binary || !*binary)
        die(2, "--per-function: %s does not name its program, whose symbols are needed", trace);
    if (edan_elf_open(binary, &elf, &err))
        die(2, "--per-function: %s", err.msg);
    if (elf.is_pie)
        die(2, "--per-function: %s is position independent; build it with -static (non-PIE)", binary);
    int n = 0;
    if (c->o.n_functions) {
        for (int i = 0; i < c->o.n_functions; i++)
            snprintf(names[n++], 128, "%s", c->o.functions[i]);
    } else {
        /* exclusive instruction counts by function name */
        const size_t cap = edan_edag_static_ids(main_e);
        fn_total *t = calloc(elf.n_funcs + 1, sizeof *t);
        if (!t)
            die(1, "out of memory");
        size_t nt = 0;
        for (size_t id = 0; id < cap; id++) {
            const edan_insn *insn;
            const uint64_t count = edan_edag_static_count(main_e, id, &insn);
            if (!count || !insn)
                continue;
            const edan_elf_func *fn = edan_elf_func_at(&elf, insn->pc);
            if (!fn)
                continue;
            size_t j = 0;
            while (j < nt && strcmp(t[j].name, fn->name))
                j++;
            if (j == nt)
                t[nt++].name = fn->name;
            t[j].count += count;
        }
        qsort(t, nt, sizeof *t, by_count);
        for (size_t j = 0; j < nt && n < c->o.per_function && n < 16; j++)
            snprintf(names[n++], 128, "%s", t[j].name);
        free(t);
    }
    if (!n)
        die(2, "--per-function: no function of %s executed in %s", binary, trace);
    edan_edag_config cfg;
    edan_edag_config_default(&cfg);
    cfg.n_lanes = 2 * n;
    cfg.n_tau = 0;
    for (int i = 0; i < n; i++) {
        edan_elf_func ranges[EDAN_MAX_SCOPE_RANGES];
        size_t found = edan_elf_find(&elf, binary, names[i], ranges, EDAN_MAX_SCOPE_RANGES, &err);
        if (!found)
            die(2, "--functions: %s", err.msg);
        for (int incl = 0; incl < 2; incl++) {
            edan_lane_config *l = &cfg.lane[2 * i + incl];
            l->cache = c->o.cache[0];
            l->cost = c->o.cost;
            l->cost.alpha = c->o.alpha[0];
            l->scope = incl ? EDAN_SCOPE_INCLUSIVE : EDAN_SCOPE_EXCLUSIVE;
            l->n_ranges = (int)(found < EDAN_MAX_SCOPE_RANGES ? found : EDAN_MAX_SCOPE_RANGES);
            for (int j = 0; j < l->n_ranges; j++) {
                l->range_lo[j] = ranges[j].start;
                l->range_hi[j] = ranges[j].end;
            }
        }
    }
    edan_elf_close(&elf);
    edan_edag *e = edan_edag_new(&cfg, &err);
    if (!e)
        die(1, "%s", err.msg);
    edan_trace_source *src = edan_trace_source_open(trace, &err);
    if (!src)
        die(2, "%s", err.msg);
    edan_consumer k = edan_edag_consumer(e);
    if (edan_trace_source_run(src, &k, &err))
        die(2, "%s", edan_edag_error(e)->set ? edan_edag_error(e)->msg : err.msg);
    edan_trace_source_close(src);
    *n_names = n;
    return e;
}

/* Open a trace and an analyzer configured by c's options (exits on error). */
static edan_trace_source *open_for_analysis(const cli *c, const char *path, edan_edag_config *cfg, edan_edag **e)
{
    edan_error err = {0};
    edan_trace_source *src = edan_trace_source_open(path, &err);
    if (!src)
        die(2, "%s", err.msg);
    if (edan_options_edag_config(&c->o, cfg, &err))
        die(2, "%s", err.msg);
    *e = edan_edag_new(cfg, &err);
    if (!*e)
        die(1, "%s", err.msg);
    return src;
}

static void analyze_source(const cli *c, const char *path)
{
    edan_error err = {0};
    edan_edag_config cfg;
    edan_edag *e;
    edan_trace_source *src = open_for_analysis(c, path, &cfg, &e);
    edan_critpath *cp = NULL;
    if (c->o.critical_path && !(cp = edan_critpath_new(&cfg.lane[0], c->o.false_deps, &err)))
        die(1, "%s", err.msg);
    FILE *out = open_output(&c->o);
    enum { CAP = 8192 };
    static edan_exec recs[CAP];
    bool progress = c->o.progress < 0 ? isatty(2) : c->o.progress;
    uint64_t total = 0;
    struct timespec t0, last, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    last = t0;
    const edan_consumer k = edan_edag_consumer(e);
    for (;;) {
        size_t cap = CAP;
        /* a sweep on threads takes the batch where it would have copied it */
        edan_exec *batch = edan_consumer_buffer(&k, recs, &cap);
        long n = edan_trace_source_next(src, batch, cap, &err);
        if (n < 0)
            die(2, "%s", err.msg);
        if (n == 0)
            break;
        total += (uint64_t)n;
        if (progress && (total & ((1u << 20) - 1)) < CAP) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec - last.tv_sec >= 1) {
                double s = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9;
                fprintf(stderr, "\redan: %" PRIu64 " instructions, %.1f M/s   ", total, (double)total / s / 1e6);
                last = now;
            }
        }
        edan_edag_consume(e, batch, (size_t)n);
        if (cp)
            edan_critpath_consume(cp, batch, (size_t)n);
        if (edan_edag_error(e)->set)
            die(1, "%s", edan_edag_error(e)->msg);
    }
    if (progress)
        fprintf(stderr, "\redan: %" PRIu64 " instructions analysed%20s\n", total, "");
    if (edan_edag_finish(e))
        die(1, "%s", edan_edag_error(e)->msg);
    if (cp && edan_critpath_finish(cp))
        die(1, "%s", edan_critpath_error(cp)->msg);
    const edan_trace_meta *meta = edan_trace_source_meta(src);
    edan_report_source rs = {"trace", path, meta ? meta->binary : NULL, meta ? meta->filter : NULL, cp, NULL, NULL, 0};
    static char fn_names[16][128];
    edan_edag *fe = NULL;
    if (c->o.per_function) {
        fe = per_function_pass(c, path, rs.binary, e, fn_names, &rs.n_functions);
        rs.functions = fe;
        rs.function_names = fn_names;
    }
    if (c->o.json)
        edan_report_json(out, e, &c->o, &rs);
    else if (c->o.table)
        edan_report_table(out, e, &c->o);
    else
        edan_report_text(out, e, &c->o, &rs);
    if (c->o.series_csv[0]) {
        FILE *csv = fopen(c->o.series_csv, "w");
        if (!csv)
            die(2, "%s: cannot write: %s", c->o.series_csv, strerror(errno));
        edan_report_series_csv(csv, e);
        if (fclose(csv))
            die(1, "%s: write failed: %s", c->o.series_csv, strerror(errno));
    }
    if (c->o.plot_dir[0]) {
        char name[256];
        const char *slash = strrchr(path, '/');
        snprintf(name, sizeof name, "%s", slash ? slash + 1 : path);
        char *dot = strrchr(name, '.');
        if (dot && dot != name)
            *dot = '\0';
        if (edan_plot_analysis(e, &c->o, c->o.plot_dir, name, &err))
            die(2, "%s", err.msg);
    }
    close_output(out, &c->o);
    edan_critpath_free(cp);
    edan_edag_free(fe);
    edan_edag_free(e);
    edan_trace_source_close(src);
}

static int cmd_analyze(int argc, char **argv)
{
    cli c = {0};
    int i;
    if (!begin_command(argc, argv, "analyze", &c, &i))
        return 0;
    if (i >= argc)
        die(2, "analyze: no trace given (usage: edan analyze [options] TRACE)");
    if (i + 1 < argc)
        die(2, "analyze: one trace at a time ('%s' is extra)", argv[i + 1]);
    analyze_source(&c, argv[i]);
    return 0;
}

static int cmd_convert(int argc, char **argv)
{
    cli c = {0};
    edan_options_default(&c.o);
    int force = -1;
    int i = 2;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (!strcmp(argv[i], "--text"))
            force = 1;
        else if (!strcmp(argv[i], "--binary"))
            force = 0;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage_sub("convert", stdout);
            return 0;
        } else
            die(2, "convert: unknown option '%s'", argv[i]);
    }
    if (argc - i != 2)
        die(2, "convert: usage: edan convert [--text|--binary] IN OUT");
    const char *in = argv[i], *outp = argv[i + 1];
    edan_error err = {0};
    int kind = edan_trace_detect(in, &err);
    if (kind < 0)
        die(2, "%s", err.msg);
    bool to_text = force >= 0 ? force == 1 : kind == 1;
    edan_trace_source *src = edan_trace_source_open(in, &err);
    if (!src)
        die(2, "%s", err.msg);
    edan_consumer sink;
    edan_trace_writer *bw = NULL;
    edan_text_writer *tw = NULL;
    if (to_text) {
        tw = edan_text_writer_open(outp, false, &err);
        if (!tw)
            die(2, "%s", err.msg);
        sink = edan_text_writer_consumer(tw);
    } else {
        const edan_trace_meta *m = edan_trace_source_meta(src);
        edan_trace_meta meta = {0};
        if (m)
            meta = *m;
        bw = edan_trace_writer_open(outp, &meta, &err);
        if (!bw)
            die(2, "%s", err.msg);
        sink = edan_trace_writer_consumer(bw);
    }
    enum { CAP = 8192 };
    static edan_exec recs[CAP];
    for (;;) {
        long n = edan_trace_source_next(src, recs, CAP, &err);
        if (n < 0) {
            /* Do not leave a complete-looking conversion of a broken input behind. */
            unlink(outp);
            die(2, "%s", err.msg);
        }
        if (n == 0)
            break;
        sink.consume(sink.ctx, recs, (size_t)n);
    }
    if (tw && edan_text_writer_close(tw, &err))
        die(2, "%s", err.msg);
    if (bw && edan_trace_writer_close(bw, &err))
        die(2, "%s", err.msg);
    edan_trace_source_close(src);
    return 0;
}

/* Analyse one trace with c's options and return the finished analysis (no report). */
static edan_edag *analyze_quiet(const cli *c, const char *path)
{
    edan_error err = {0};
    edan_edag_config cfg;
    edan_edag *e;
    edan_trace_source *src = open_for_analysis(c, path, &cfg, &e);
    edan_consumer k = edan_edag_consumer(e);
    if (edan_trace_source_run(src, &k, &err))
        die(2, "%s", edan_edag_error(e)->set ? edan_edag_error(e)->msg : err.msg);
    edan_trace_source_close(src);
    return e;
}

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

static void rank_plot(const ranked *r, int n, const char *dir, bool big, edan_error *err)
{
    char dat[PATH_MAX + 32], gp[PATH_MAX + 32];
    snprintf(dat, sizeof dat, "%s/rank-%s.dat", dir, big ? "Lambda" : "lambda");
    snprintf(gp, sizeof gp, "%s/rank-%s.gp", dir, big ? "Lambda" : "lambda");
    FILE *f = fopen(dat, "w"), *g = f ? fopen(gp, "w") : NULL;
    if (!f || !g) {
        edan_error_set(err, "%s: cannot write: %s", f ? gp : dat, strerror(errno));
        if (f)
            fclose(f);
        return;
    }
    for (int i = 0; i < n; i++)
        fprintf(f, "\"%s\" %.17g\n", r[i].name, big ? r[i].Lambda : r[i].lambda);
    fclose(f);
    const char *what = big ? "relative latency sensitivity Lambda" : "absolute latency sensitivity lambda";
    for (int t = 0; t < 2; t++)
        fprintf(g,
                "set terminal %s size 1000,600 enhanced font 'sans,10'\nset output '%s/rank-%s.%s'\n"
                "set title 'Ranking by %s'\nset style fill solid 0.8\nset boxwidth 0.7\nset grid y\n"
                "set xtics rotate by -30\nset ylabel '%s'\n%s"
                "plot '%s' using 0:2:xtic(1) with boxes lc rgb '#e34a33' notitle\n",
                t ? "svg" : "pngcairo", dir, big ? "Lambda" : "lambda", t ? "svg" : "png", what, what,
                big ? "" : "set logscale y\n", dat);
    fclose(g);
    edan_plot_run_gnuplot(gp, err);
}

static int cmd_rank(int argc, char **argv)
{
    cli c = {0};
    int i;
    if (!begin_command(argc, argv, "rank", &c, &i))
        return 0;
    int n = argc - i;
    if (n < 1)
        die(2, "rank: usage: edan rank [options] TRACE|PROGRAM...");
    ranked *r = calloc((size_t)n, sizeof *r);
    if (!r)
        die(1, "out of memory");
    for (int k = 0; k < n; k++) {
        const char *item = argv[i + k];
        edan_error err = {0};
        edan_elf elf;
        const char *trace = item;
        char tmp_trace[PATH_MAX + 32];
        if (edan_elf_open(item, &elf, &err) == 0) {
            edan_elf_close(&elf);
            /* a program: trace it first, with no arguments */
            check_program(&c, item);
            make_tmpdir();
            snprintf(tmp_trace, sizeof tmp_trace, "%s/rank.edt", tmpdir);
            run_qemu(&c, "record", tmp_trace, argv + i + k, 1);
            trace = tmp_trace;
        }
        edan_edag *e = analyze_quiet(&c, trace);
        const edan_lane_stats *st = edan_edag_lane(e, 0);
        edan_metrics mt;
        edan_metrics_compute(st, edan_edag_get_config(e)->lane[0].cost.alpha, &c.o.metrics, &mt);
        const char *slash = strrchr(item, '/');
        r[k].name = slash ? slash + 1 : item;
        r[k].lambda = mt.per_m[0].lambda;
        r[k].Lambda = mt.per_m[0].Lambda;
        r[k].W = (double)st->W;
        r[k].D = (double)st->D;
        edan_edag_free(e);
        if (trace != item)
            unlink(trace);
    }
    char cache[256];
    edan_cache_config_format(&c.o.cache[0], cache, sizeof cache);
    FILE *out = open_output(&c.o);
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
                die(2, "%s: cannot create: %s", c.o.plot_dir, strerror(errno));
            rank_plot(r, n, c.o.plot_dir, pass == 1, &err);
            if (err.set)
                die(2, "%s", err.msg);
        }
    }
    close_output(out, &c.o);
    free(r);
    return 0;
}

static int cmd_dot(int argc, char **argv)
{
    cli c = {0};
    c.max_vertices = 5000;
    int i;
    if (!begin_command(argc, argv, "dot", &c, &i))
        return 0;
    if (i + 1 != argc)
        die(2, "dot: usage: edan dot [options] [-o OUT.dot] TRACE");
    edan_error err = {0};
    edan_trace_source *src = edan_trace_source_open(argv[i], &err);
    if (!src)
        die(2, "%s", err.msg);
    edan_lane_config lane;
    lane.cache = c.o.cache[0];
    lane.cost = c.o.cost;
    lane.cost.alpha = c.o.alpha[0];
    edan_dot *d = edan_dot_new(&lane, c.o.false_deps, (size_t)c.max_vertices, &err);
    if (!d)
        die(2, "dot: %s", err.msg);
    edan_consumer sink = edan_dot_consumer(d);
    if (edan_trace_source_run(src, &sink, &err))
        die(2, "%s", edan_dot_error(d)->set ? edan_dot_error(d)->msg : err.msg);
    const char *dot_path = c.trace_out;
    char tmp_dot[PATH_MAX + 16] = "";
    if (!dot_path && c.image) {
        make_tmpdir();
        snprintf(tmp_dot, sizeof tmp_dot, "%s/report", tmpdir);
        dot_path = tmp_dot;
    }
    FILE *f = dot_path ? fopen(dot_path, "w") : stdout;
    if (!f)
        die(2, "%s: cannot write: %s", dot_path, strerror(errno));
    const char *slash = strrchr(argv[i], '/');
    if (edan_dot_write(d, f, slash ? slash + 1 : argv[i]) || (f != stdout && fclose(f)))
        die(1, "%s: write failed", dot_path ? dot_path : "standard output");
    if (c.image) {
        const char *ext = strrchr(c.image, '.');
        const char *fmt = ext && !strcmp(ext, ".png") ? "-Tpng" : "-Tsvg";
        pid_t pid = fork();
        if (pid == 0) {
            execlp("dot", "dot", fmt, "-o", c.image, dot_path, (char *)NULL);
            fprintf(stderr, "edan: cannot run Graphviz's dot: %s (install the graphviz package)\n", strerror(errno));
            _exit(127);
        }
        int ws;
        if (pid < 0 || waitpid(pid, &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws))
            die(2, "dot: rendering %s with Graphviz failed", c.image);
    }
    edan_dot_free(d);
    edan_trace_source_close(src);
    return 0;
}

int main(int argc, char **argv)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(self_dir, sizeof self_dir, "%s", exe);
        }
    }
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        if (argc >= 3 && !strcmp(argv[1], "help")) {
            usage_sub(argv[2], stdout);
            return 0;
        }
        usage_main(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("edan %s\n", EDAN_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "run"))
        return cmd_run(argc, argv);
    if (!strcmp(argv[1], "record"))
        return cmd_record(argc, argv);
    if (!strcmp(argv[1], "analyze") || !strcmp(argv[1], "analyse"))
        return cmd_analyze(argc, argv);
    if (!strcmp(argv[1], "convert"))
        return cmd_convert(argc, argv);
    if (!strcmp(argv[1], "dot"))
        return cmd_dot(argc, argv);
    if (!strcmp(argv[1], "rank"))
        return cmd_rank(argc, argv);
    die(2, "unknown command '%s' (commands: run, record, analyze, convert, dot, rank; see 'edan --help')", argv[1]);
}
