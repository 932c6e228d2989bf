/*
 * edan.c - the command line: edan run | record | analyze | convert, and the
 * options, help and analysis of a trace every command shares (rank.c and
 * cmd_dot.c hold edan rank and edan dot, qemu.c the QEMU runs).
 *
 * Exit status: 0 on success, 2 for bad input or options (a clear one-line
 * message on stderr), also when the input needs more than there is: out of
 * memory, a total that 64 bits cannot hold; 1 when something outside edan
 * failed (QEMU missing or crashing, a write to a full disk or /dev/full).
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

#include "cli/cli.h"
#include "tool/graph/graph.h"
#include "tool/memory/memory.h"
#include "tool/registry.h"
#include "trace/exec.h"
#include "trace/trace_text.h"
#include "util/files.h"
#include "util/progress.h"

const char *cli_prog_name = "edan";

/* One line, whatever a file name holds: control characters (terminal escapes, newlines) are shown as '?'. */
static void print_line(const char *kind, char *msg)
{
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    fprintf(stderr, "%s: %s%s\n", cli_prog_name, kind, msg);
}

void cli_die(int status, const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    print_line("", msg);
    exit(status);
}

/*
 * An option of another command: which commands take it (the option table's
 * "memgaze-table" is edan locality --memgaze-table); an unknown one: the
 * closest. Exits with status 2.
 */
static void refuse_option(const char *sub, const char *key, const char *arg)
{
    char buf[256];
    const char *commands = cli_option_commands(key, buf, sizeof buf);
    if (!commands)
        cli_die_unknown_option(sub, arg);
    char list[300] = "";
    size_t n = 0;
    bool table = false;
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char one[48];
        snprintf(one, sizeof one, "edan %s", w);
        if (!strcmp(w, "memgaze-table"))
            table = true;
        else if (!strstr(list, one) && n < sizeof list)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", one);
    }
    if (table && n < sizeof list)
        n += (size_t)snprintf(list + n, sizeof list - n, "%sedan locality --memgaze-table", n ? ", " : "");
    const bool mg = !strcmp(sub, "memgaze-table");
    cli_die(2, "%s: --%s is not an option of edan %s but of %s (see 'edan %s --help')", mg ? "locality" : sub, key,
            mg ? "locality --memgaze-table" : sub, list, mg ? "locality" : sub);
}

void cli_die_unknown_option(const char *sub, const char *arg)
{
    const char *a = arg + strspn(arg, "-");
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)strcspn(a, "="), a);
    const char *near = cli_closest_option(sub, key);
    const char *shown = strcmp(sub, "memgaze-table") ? sub : "locality";
    if (near)
        cli_die(2, "%s: unknown option '%s'; did you mean --%s? (see 'edan %s --help')", shown, arg, near, shown);
    cli_die(2, "%s: unknown option '%s' (see 'edan %s --help')", shown, arg, shown);
}

/* The commands, for 'did you mean' (the list usage_main describes). */
static const char *const commands[] = {"run",      "record",   "analyze",  "convert", "dot", "rank",
                                       "annotate", "locality", "machines", "help",    NULL};

static void die_unknown_command(const char *what, const char *name) __attribute__((noreturn));
static void die_unknown_command(const char *what, const char *name)
{
    const char *near = cli_closest_word(name, commands);
    char hint[64] = "";
    if (near)
        snprintf(hint, sizeof hint, "; did you mean '%s'?", near);
    cli_die(2,
            "%s '%s'%s (commands: run, record, analyze, convert, dot, rank, annotate, locality, machines; see 'edan "
            "--help')",
            what, name, hint);
}

/* The trace's warning, if it has one (a text trace whose completeness could not be checked). */
static void warn_source(const edan_trace_source *src)
{
    const char *w = edan_trace_source_warning(src);
    char msg[4096];
    if (w) {
        snprintf(msg, sizeof msg, "%s", w);
        print_line("warning: ", msg);
    }
}

int cli_parse_args(int argc, char **argv, int start, cli *c, const char *sub)
{
    const char *shown = strcmp(sub, "memgaze-table") ? sub : "locality";
    int i = start;
    for (; i < argc; i++) {
        const char *a = argv[i], *value = NULL;
        char key[64];
        if (!strcmp(a, "--")) {
            c->end_of_options = true;
            i++;
            break;
        }
        if (a[0] != '-' || !a[1])
            break;         /* an operand, or '-' (standard input) */
        if (a[1] != '-') { /* -o, -h */
            const char *name = a[2] ? NULL : cli_short_option(sub, a[1]);
            if (!name)
                cli_die_unknown_option(sub, a);
            snprintf(key, sizeof key, "%s", name);
        } else {
            const char *eq = strchr(a + 2, '=');
            const size_t klen = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (klen >= sizeof key)
                cli_die_unknown_option(sub, a);
            memcpy(key, a + 2, klen);
            key[klen] = '\0';
            value = eq ? eq + 1 : NULL;
        }
        if (!cli_option_honoured(sub, key))
            refuse_option(sub, key, a);
        const int takes = cli_option_takes_value(sub, key);
        if (takes < 0)
            cli_die_unknown_option(sub, a);
        if (takes && !value) {
            if (i + 1 >= argc)
                cli_die(2, "%s: %.*s needs a value", shown, (int)strcspn(a, "="), a);
            value = argv[++i];
        }
        cli_store_option(c, sub, key, value);
    }
    return i;
}

/* The report being written with --output: replaced only when complete (util/files.h). */
static edan_output report_out;

FILE *cli_open_output(const edan_options *o)
{
    if (!o->output[0] || !strcmp(o->output, "-"))
        return stdout;
    edan_error err = {0};
    FILE *f = NULL;
    if (edan_output_open(&report_out, o->output, "--output", &err) || !(f = edan_output_stream(&report_out, &err)))
        cli_die(2, "%s", err.msg);
    return f;
}

void cli_close_output(FILE *f, const edan_options *o)
{
    edan_error err = {0};
    if (f == stdout) {
        if (fflush(f) || ferror(f))
            cli_die(1, "standard output: write failed: %s", strerror(errno));
        return;
    }
    const int rc = edan_output_commit(&report_out, &err);
    if (rc)
        cli_die(rc == -2 ? 2 : 1, "%s", err.msg);
    (void)o;
}

void cli_check_trace_file(const char *path)
{
    struct stat st;
    if (!strcmp(path, "-") || stat(path, &st))
        return; /* standard input, or the reader says why it cannot open it */
    if (S_ISDIR(st.st_mode))
        cli_die(2, "%s: a directory, not a trace", path);
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        cli_die(2, "%s: not a regular file or a pipe, so not a trace", path);
    if (S_ISREG(st.st_mode) && st.st_size == 0)
        cli_die(2, "%s: an empty file: there is no trace to read", path);
}

void cli_refuse_overwrite(const cli *c, const char *input)
{
    /* every output option was declared as it was parsed: the input is checked against them all */
    edan_error err = {0};
    if (strcmp(input, "-") && edan_input_note(input, "the input", &err))
        cli_die(2, "%s", err.msg);
    (void)c;
}

/* The start every command shares: defaults, options, --help. False when help was shown. */
bool cli_begin_command(int argc, char **argv, const char *sub, cli *c, int *first)
{
    edan_options_default(&c->o);
    *first = cli_parse_args(argc, argv, 2, c, sub);
    if (c->help)
        cli_usage_sub(sub, stdout);
    edan_error err = {0};
    if (!c->help && edan_sampled_tool_check(&c->o, sub, edan_tools, edan_n_tools, &err))
        cli_die(2, "%s", err.msg);
    /* one output on standard output: DOT inside a report (or JSON) would make both unreadable */
    const char *dot = edan_options_last(&c->o, "dot");
    if (!c->help && strcmp(sub, "dot") && dot && !strcmp(dot, "-") && (!c->o.output[0] || !strcmp(c->o.output, "-")))
        cli_die(2,
                "%s: --dot=- and the report would both go to standard output: write one of them to a file "
                "(--dot=FILE or --output=FILE)",
                sub);
    if (!c->help && edan_session_options_check(&c->o, &err))
        cli_die(2, "%s: %s", sub, err.msg);
    return !c->help;
}

static void analyze_source(const cli *c, const char *path, const char *kind, const char *shown);

static int cmd_run(int argc, char **argv)
{
    cli c = {0};
    int i;
    if (!cli_begin_command(argc, argv, "run", &c, &i))
        return 0;
    if (i >= argc)
        cli_die(2, "run: no program given (usage: edan run [options] [--] PROGRAM [ARGS...])");
    cli_check_program(&c, argv[i]);
    cli_refuse_overwrite(&c, argv[i]);
    edan_edag_config cfg;
    edan_error err = {0};
    if (edan_options_edag_config(&c.o, &cfg, &err))
        cli_die(2, "run: %s", err.msg);
    if (edan_functions_to_choose(&c.o)) {
        /*
         * The functions that execute the most are known only at the end: a first run under the plugin's
         * profile mode counts them (no trace; the program's output discarded), then they are analysed
         * online by name, as --functions.
         */
        char prof[PATH_MAX + 16], list[EDAN_MAX_FUNCTIONS * 520];
        snprintf(prof, sizeof prof, "%s/profile", cli_tmpdir());
        cli c1 = c;
        c1.program_output = "/dev/null";
        cli_stdin_first();
        cli_run_qemu(&c1, "profile", prof, argv + i, argc - i);
        c.expect = cli_last_traced(); /* the second run's progress: a percentage and the time left */
        cli_stdin_second();
        FILE *f = fopen(prof, "re");
        if (!f || !fgets(list, sizeof list, f))
            cli_die(1, "cannot read the profile %s", prof);
        fclose(f);
        unlink(prof);
        list[strcspn(list, "\n")] = '\0';
        if (edan_session_option_set(&c.o, "functions", list, &err))
            cli_die(2, "--per-function: %s", err.msg);
    }
    FILE *out = cli_open_output(&c.o);
    char report[PATH_MAX + 16];
    snprintf(report, sizeof report, "%s/report", cli_tmpdir());
    cli_run_qemu(&c, "online", report, argv + i, argc - i);
    cli_copy_file_to(report, out);
    cli_close_output(out, &c.o);
    return 0;
}

static int cmd_record(int argc, char **argv)
{
    cli c = {0};
    int i;
    if (!cli_begin_command(argc, argv, "record", &c, &i))
        return 0;
    if (!c.trace_out)
        cli_die(2, "record: no trace file given (-o TRACE)");
    if (!strcmp(c.trace_out, "-"))
        cli_die(2, "record: -o - would mix the trace with the program's own output; name a file");
    if (i >= argc)
        cli_die(2, "record: no program given (usage: edan record [options] -o TRACE [--] PROGRAM [ARGS...])");
    cli_check_program(&c, argv[i]);
    cli_refuse_overwrite(&c, argv[i]);
    /* -o was declared as it was parsed: writable where the plugin will write it, and no input (util/files.h) */
    cli_run_qemu(&c, c.text_trace ? "text" : "record", c.trace_out, argv + i, argc - i);
    return 0;
}

/*
 * --per-function leaves the functions to the profile of the run: a first read
 * of the trace counts executions per static instruction, and the top ones
 * become --functions for the analysis pass.
 */
/*
 * A tool that reads the program's symbols or lines needs the program that
 * was traced: a trace that records its digest is checked against the file
 * its path names now (a rebuilt program would attribute silently wrong).
 */
static void check_traced_program(const edan_options *o, const char *path)
{
    if (!edan_session_reads_program(o))
        return;
    edan_error err = {0};
    edan_trace_source *src = edan_trace_source_open(path, &err);
    if (!src)
        return; /* the analysis says why */
    const edan_trace_meta *m = edan_trace_source_meta(src);
    char now[EDAN_DIGEST_LEN];
    edan_error changed = {0};
    if (m && m->binary && *m->binary && m->binary_hash) {
        if (edan_file_digest(m->binary, now, &err))
            edan_error_set(&changed, "%s: the traced program: %s", path, err.msg);
        else if (strcmp(now, m->binary_hash))
            edan_error_set(&changed,
                           "%s: the traced program %s has changed since it was traced (%s, was %s): its symbols and "
                           "lines would not be those of the trace; record it again",
                           path, m->binary, now, m->binary_hash);
    }
    edan_trace_source_close(src); /* before exiting: the leak checker's build counts it otherwise */
    if (changed.set)
        cli_die(2, "%s", changed.msg);
}

static void choose_functions(edan_options *o, const char *path)
{
    const int top = edan_functions_to_choose(o);
    if (!top)
        return;
    struct stat st;
    if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
        cli_die(2,
                "--per-function: %s is not a file that can be read twice (a first read counts the instructions of each "
                "function); name the functions with --functions",
                path);
    edan_error err = {0};
    edan_trace_source *src = edan_trace_source_open(path, &err);
    if (!src)
        cli_die(2, "%s", err.msg);
    edan_profile prof = {0};
    enum { CAP = 8192 };
    static edan_exec recs[CAP];
    long n;
    while ((n = edan_trace_source_next(src, recs, CAP, &err)) > 0)
        if (edan_profile_add(&prof, recs, (size_t)n)) {
            edan_error_set(&err, "out of memory");
            n = -1;
            break;
        }
    const edan_trace_meta *meta = edan_trace_source_meta(src);
    /* a library's functions too, when the trace names its objects before their code (the tool finds them then) */
    const edan_objmap *objects = meta && meta->objects_ahead ? edan_trace_source_objects(src) : NULL;
    const int rc = n < 0 ? -1 : edan_functions_choose(o, meta ? meta->binary : NULL, path, objects, &prof, top, &err);
    edan_profile_free(&prof);
    edan_trace_source_close(src);
    if (rc)
        cli_die(2, "%s", err.msg);
}

/*
 * Analyse a trace with c's options in one session (only: the tools, NULL
 * for every wanted one). kind and shown name the source in the report.
 * Exits on error; returns the finished session, and the trace in *source,
 * which owns the static instructions the tools' results point at: close it
 * after the session.
 */
edan_session *cli_analyze_trace(const cli *c, const char *path, const char *kind, const char *shown,
                                const char *const *only, edan_trace_source **source)
{
    edan_options o = c->o;
    if (!only) {
        struct stat st;
        if (strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode)) /* a stream can be opened only once */
            check_traced_program(&o, path);
        choose_functions(&o, path);
    }
    edan_error err = {0};
    edan_trace_source *src = edan_trace_source_open(path, &err);
    if (!src)
        cli_die(2, "%s", err.msg);
    const edan_trace_meta *meta = edan_trace_source_meta(src);
    static char binary[PATH_MAX], filter[600];
    snprintf(binary, sizeof binary, "%s", meta && meta->binary ? meta->binary : "");
    snprintf(filter, sizeof filter, "%s", meta && meta->filter ? meta->filter : "");
    static char shown_path[PATH_MAX];
    snprintf(shown_path, sizeof shown_path, "%s", shown ? shown : "");
    /* a trace's shared objects as its reader meets them: ahead of their code's records in a trace that says so */
    const edan_report_source rs = {
        kind, shown ? shown_path : NULL,      binary[0] ? binary : NULL,  filter, meta && meta->warm, {0}, false,
        0,    edan_trace_source_objects(src), meta && meta->objects_ahead};
    edan_session *s = edan_session_new(&o, only, &rs, &err);
    if (!s)
        cli_die(2, "%s", err.msg);
    const edan_consumer k = edan_session_consumer(s);
    /*
     * Records a batch (1.5 MB): the session lends each batch to its threaded
     * tools (the timing model), so a batch costs each thread a hand-over;
     * 8192 made those a few per cent of hydro's CPU time with --machine
     * (docs/benchmarks.md). A ring of RING batches: the threaded tools may
     * still read the last RING - 1 when the session returns, so they work
     * while the next batches are decoded and the session's own tools (the
     * eDAG) take them, instead of the threads waiting for each other at
     * every batch.
     */
    enum { CAP = 65536, RING = 3 };
    static edan_exec recs[RING][CAP];
    const int lag = edan_session_pipeline(s, RING - 1);
    int at = 0;
    bool progress = o.progress < 0 ? isatty(2) : o.progress;
    uint64_t total = 0;
    const uint64_t expect = edan_trace_source_count(src); /* a binary trace's header: percentage and time left */
    char line[160];
    struct timespec t0, last, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    last = t0;
    for (;;) {
        size_t cap = CAP;
        /* a sweep on threads takes the batch where it would have copied it */
        edan_exec *batch = edan_consumer_buffer(&k, recs[at], &cap);
        at = at < lag ? at + 1 : 0;
        long n = edan_trace_source_next(src, batch, cap, &err);
        if (n < 0)
            cli_die(2, "%s", err.msg);
        if (n == 0)
            break;
        total += (uint64_t)n;
        if (progress && (total & ((1u << 20) - 1)) < CAP) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec - last.tv_sec >= 1) {
                double secs = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9;
                edan_progress_format(line, sizeof line, "analysing", total, expect, secs);
                fprintf(stderr, "\redan: %s   ", line);
                last = now;
            }
        }
        size_t warm, kernel;
        if (edan_trace_source_last_counts(src, &warm, &kernel))
            edan_session_consume_counted(s, batch, (size_t)n, warm, kernel);
        else
            k.consume(k.ctx, batch, (size_t)n);
    }
    if (progress) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        edan_progress_done(line, sizeof line, "analysing", total,
                           (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9);
        fprintf(stderr, "\redan: %s%20s\n", line, "");
    }
    warn_source(src);
    /* the shared objects the trace names (a dynamically linked program's), known once it is read */
    edan_report_source read = *edan_session_source(s);
    read.objects = edan_trace_source_objects(src);
    edan_session_set_source(s, &read);
    if (edan_session_finish(s, &err)) /* as from the plugin: out of memory, a total too large, a bad trace */
        cli_die(2, "%s", err.msg);
    *source = src;
    return s;
}

/* Analyse a trace and write the report and the tools' files. */
static void analyze_source(const cli *c, const char *path, const char *kind, const char *shown)
{
    FILE *out = cli_open_output(&c->o);
    edan_trace_source *src;
    edan_session *s = cli_analyze_trace(c, path, kind, shown, NULL, &src);
    edan_error err = {0};
    if (edan_session_report(s, out, &err))
        cli_die(1, "%s: write failed: %s", c->o.output[0] ? c->o.output : "standard output", strerror(errno));
    if (edan_session_outputs(s, &err))
        cli_die(2, "%s", err.msg);
    cli_close_output(out, &c->o);
    edan_session_free(s);
    edan_trace_source_close(src);
}

static int cmd_analyze(int argc, char **argv)
{
    cli c = {0};
    int i;
    if (!cli_begin_command(argc, argv, "analyze", &c, &i))
        return 0;
    if (i >= argc)
        cli_die(2, "analyze: no trace given (usage: edan analyze [options] TRACE)");
    if (i + 1 < argc)
        cli_die(2, "analyze: one trace at a time ('%s' is extra)", argv[i + 1]);
    cli_refuse_overwrite(&c, argv[i]);
    cli_check_trace_file(argv[i]);
    analyze_source(&c, argv[i], "trace", argv[i]);
    return 0;
}

static int cmd_convert(int argc, char **argv)
{
    cli c = {.text_trace = -1};
    edan_options_default(&c.o);
    const int i = cli_parse_args(argc, argv, 2, &c, "convert");
    if (c.help) {
        cli_usage_sub("convert", stdout);
        return 0;
    }
    const int force = c.text_trace;
    if (argc - i != 2)
        cli_die(2, "convert: usage: edan convert [--text|--binary] IN OUT");
    const char *in = argv[i], *outp = argv[i + 1];
    cli_check_trace_file(in);
    if (edan_same_file(in, outp))
        cli_die(2, "convert: %s and %s are the same file: it would be destroyed", in, outp);
    edan_error err = {0};
    /* opened once: a pipe is read from its start (the source tells the format it found) */
    edan_trace_source *src = edan_trace_source_open(in, &err);
    if (!src)
        cli_die(2, "%s", err.msg);
    const int kind = edan_trace_source_format(src);
    bool to_text = force >= 0 ? force == 1 : kind == EDAN_TRACE_BINARY;
    if (kind == EDAN_TRACE_MEMGAZE)
        cli_die(2,
                "convert: %s is a MemGaze load trace: its loads carry no instructions, and edan's formats do not "
                "keep its samples (analyse it as it is: edan locality %s)",
                in, in);
    const char *isa = edan_trace_source_meta(src) ? edan_trace_source_meta(src)->isa : NULL;
    if (to_text && isa && strcmp(isa, "riscv64"))
        cli_die(2, "convert: %s is a trace of an %s program; the original EDAN text format holds RISC-V only", in, isa);
    if (kind != EDAN_TRACE_BINARY && !to_text)
        cli_die(2,
                "convert: %s is a text trace; the binary format stores each instruction's encoding, which the text "
                "format does not carry, so a text trace converts only to text (analyse it as it is)",
                in);
    edan_consumer sink;
    edan_trace_writer *bw = NULL;
    edan_text_writer *tw = NULL;
    if (to_text) {
        tw = edan_text_writer_open(outp, false, &err);
        if (!tw)
            cli_die(2, "%s", err.msg);
        sink = edan_text_writer_consumer(tw);
    } else {
        const edan_trace_meta *m = edan_trace_source_meta(src);
        edan_trace_meta meta = {0};
        if (m)
            meta = *m;
        bw = edan_trace_writer_open(outp, &meta, &err);
        if (!bw)
            cli_die(2, "%s", err.msg);
        sink = edan_trace_writer_consumer(bw);
    }
    enum { CAP = 8192 };
    static edan_exec recs[CAP];
    for (;;) {
        long n = edan_trace_source_next(src, recs, CAP, &err);
        if (n < 0) {
            /* Do not leave a complete-looking conversion of a broken input behind. */
            /* their temporary files: a file already named outp stays */
            edan_text_writer_abandon(tw);
            edan_trace_writer_abandon(bw);
            cli_die(2, "%s", err.msg);
        }
        if (n == 0)
            break;
        sink.consume(sink.ctx, recs, (size_t)n);
    }
    warn_source(src);
    if (tw && edan_text_writer_close(tw, &err))
        cli_die(2, "%s", err.msg);
    if (bw && edan_trace_writer_close(bw, &err))
        cli_die(2, "%s", err.msg);
    edan_trace_source_close(src);
    return 0;
}

static int dispatch(int argc, char **argv);

/*
 * Every command's exit: whatever it wrote to standard output (help, a report,
 * DOT) must have reached it, or the command fails (exit 1: the write, not the
 * input, failed), e.g. 'edan help > /dev/full'.
 */
int main(int argc, char **argv)
{
    /* past the file-size limit a write fails (EFBIG) and is reported, instead of killing edan silently */
    signal(SIGXFSZ, SIG_IGN);
    unsetenv("EDAN_TEMPORARIES"); /* only edan's plugin has one (util/files.h): edan cleans up after itself */
    int rc = dispatch(argc, argv);
    char replaced[1200];
    if (edan_outputs_replaced(replaced, sizeof replaced))
        fprintf(stderr, "%s: %s\n", cli_prog_name, replaced);
    if (rc == 0)
        rc = cli_program_exit_status(); /* the report is complete: a traced program that failed is said now */
    errno = 0;
    if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
        const int e = errno;
        cli_die(rc ? rc : 1, "standard output: write failed%s%s", e ? ": " : "", e ? strerror(e) : "");
    }
    return rc;
}

static int dispatch(int argc, char **argv)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            cli_set_self_dir(exe);
        }
    }
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        if (argc == 3 && !strcmp(argv[1], "help") && !strcmp(argv[2], "--option-table")) {
            cli_print_option_table(stdout); /* hidden: for the tests that try every output against every input */
            return fflush(stdout) || ferror(stdout) ? 1 : 0;
        }
        if (argc >= 3 && !strcmp(argv[1], "help")) {
            /* 'edan help CMD' is 'edan CMD --help', for every command (and an unknown one is an error) */
            char *as_help[] = {argv[0], argv[2], "--help", NULL};
            if (strcmp(argv[2], "help") && strncmp(argv[2], "-", 1))
                return dispatch(3, as_help);
            die_unknown_command("help: no command", argv[2]);
        }
        cli_usage_main(argc < 2 ? stderr : stdout);
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
    if (!strcmp(argv[1], "annotate"))
        return cli_cmd_annotate(argc, argv);
    if (!strcmp(argv[1], "convert"))
        return cmd_convert(argc, argv);
    if (!strcmp(argv[1], "dot"))
        return cli_cmd_dot(argc, argv);
    if (!strcmp(argv[1], "rank"))
        return cli_cmd_rank(argc, argv);
    if (!strcmp(argv[1], "locality"))
        return cli_cmd_locality(argc, argv);
    if (!strcmp(argv[1], "machines"))
        return cli_cmd_machines(argc, argv);
    die_unknown_command("unknown command", argv[1]);
}
