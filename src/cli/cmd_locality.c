/*
 * cmd_locality.c - edan locality: where a program's accesses go, how much
 * memory each part of a run touches, which loads are regular.
 *
 * One mode per invocation, chosen by its option:
 *
 *   --memgaze-table   MemGaze's footprint table of its execution-interval
 *                     tree, computed from a trace MemGaze collected (its
 *                     ".trace" and ".binanlys" files), in MemGaze's own text
 *                     format and definitions (src/memgaze/, docs/locality.md)
 *
 * and edan's own locality analyses of a program or a trace (locality_edan):
 * edan's traces, or MemGaze's load traces (trace/mg_exec.h), which --classes
 * reads with MemGaze's classes (--load-classes) and --zoom --memgaze-compat
 * zooms into as MemGaze's location analysis does.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "memgaze/mg_classes.h"
#include "memgaze/mg_funcs.h"
#include "memgaze/mg_struct.h"
#include "memgaze/mg_table.h"
#include "report/json.h"
#include "tool/registry.h"
#include "util/files.h"
#include "util/parse.h"
#include "util/symbols/symbols.h"

static void usage_locality(FILE *f)
{
    fputs("usage: edan locality [options] PROGRAM [ARGS...] | TRACE\n"
          "       edan locality --memgaze-table --load-classes=C.binanlys --period=P [--output=OUT] C.trace\n"
          "Locality of a run's accesses.\n"
          "\n"
          "The first form: edan's own analyses of a program (traced first) or a trace, in one pass\n"
          "(docs/locality.md): without any of their options, --footprint, --reuse, --classes and\n"
          "--zoom; with some of them (or --sample-period), those, with the options listed below.\n"
          "TRACE may be a load trace MemGaze collected (told by its first line): each load one byte at\n"
          "its address, each sample on its own (reuses and windows do not span samples; --across-samples\n"
          "joins them), --load-classes=C.binanlys gives --classes MemGaze's class of each load, and\n"
          "--zoom --memgaze-compat gives the regions MemGaze's own location analysis reports.\n"
          "\n"
          "The second form:\n"
          "  --memgaze-table       MemGaze's footprint table of its execution-interval tree, from a\n"
          "                        load trace MemGaze collected (pnnl/memgaze, Intel PT on x86), in\n"
          "                        MemGaze's own text format and with its own definitions, quirks\n"
          "                        included (docs/locality.md): byte for byte what its analyzer\n"
          "                        (memgaze-analyze -m 1, commit 5545a59) writes with -o\n"
          "  --load-classes=FILE   MemGaze's load classes (.binanlys) of the traced binary [required]\n"
          "  --period=P            the sampling period: loads between the starts of two samples\n"
          "                        (memgaze-analyze -p) [required]\n"
          "  -o, --output=FILE     write the table to FILE [standard output]\n"
          "  --hpcstruct=FILE      also MemGaze's per-function footprints ('code windows'), with the\n"
          "                        function ranges of this HPCToolkit structure file (.hpcstruct):\n"
          "  --functions-output=FILE  where they go: the lines of memgaze-analyze's printout that\n"
          "                        name a function's 'StartIP:', five per function\n"
          "\n"
          "The trace is read twice (it must be a file): 'IP ADDR CPU TIME SAMPLE' a line, with or\n"
          "without MemGaze's 'DSO:' / 'TRACE:' header and DSO column.\n",
          f);
}

/* ---- --memgaze-table ---------------------------------------------------------------- */

typedef struct memgaze_args {
    const char *classes;
    const char *period;
    const char *output;
    const char *trace;
    const char *hpcstruct;
    const char *functions_output;
} memgaze_args;

/*
 * The options of --memgaze-table (option_table.c's rows of "memgaze-table":
 * each given once, outputs declared and inputs noted as they are parsed),
 * before and after the trace.
 */
static memgaze_args parse_memgaze(int argc, char **argv)
{
    cli c = {0};
    edan_options_default(&c.o);
    memgaze_args a = {0};
    for (int i = 2; (i = cli_parse_args(argc, argv, i, &c, "memgaze-table")) < argc; i++) {
        if (a.trace)
            cli_die(2, "locality: one trace at a time ('%s' is extra)", argv[i]);
        a.trace = argv[i];
        if (c.end_of_options && i + 1 < argc)
            cli_die(2, "locality: one trace at a time ('%s' is extra)", argv[i + 1]);
    }
    a.classes = c.load_classes;
    a.period = c.period;
    a.output = c.table_output;
    a.hpcstruct = c.hpcstruct;
    a.functions_output = c.functions_output;
    if (!a.trace)
        cli_die(2, "locality: no trace given (usage: edan locality --memgaze-table --load-classes=C.binanlys "
                   "--period=P C.trace)");
    if (!a.classes)
        cli_die(2, "locality: --memgaze-table needs --load-classes=FILE (MemGaze's .binanlys of the binary)");
    if (!a.period)
        cli_die(2, "locality: --memgaze-table needs --period=P (the sampling period, loads)");
    if (!a.hpcstruct != !a.functions_output)
        cli_die(2, "locality: --hpcstruct=FILE and --functions-output=FILE go together (the per-function footprints "
                   "and where they are written)");
    return a;
}

/* The files being written: replaced only when complete (util/files.h). */
static edan_output table_out, functions_out;

/* Open path for writing, or standard output for NULL and "-". */
static FILE *open_output(edan_output *r, const char *path, const char *what)
{
    if (!path || !strcmp(path, "-"))
        return stdout;
    edan_error err = {0};
    FILE *f = NULL;
    if (edan_output_open(r, path, what, &err) || !(f = edan_output_stream(r, &err)))
        cli_die(2, "%s", err.msg);
    return f;
}

static void close_output(edan_output *r, FILE *f)
{
    edan_error err = {0};
    if (f == stdout) {
        if (fflush(stdout) || ferror(stdout))
            cli_die(1, "standard output: write failed: %s", strerror(errno));
    } else if (edan_output_commit(r, &err)) {
        cli_die(1, "%s", err.msg);
    }
}

static int locality_memgaze(int argc, char **argv)
{
    memgaze_args a = parse_memgaze(argc, argv);
    uint64_t period;
    if (edan_parse_u64(a.period, &period) || period == 0 || period > EDAN_MG_MAX_PERIOD)
        cli_die(2, "locality: --period=%s: expected a number of loads from 1 to 2^53", a.period);
    cli_check_trace_file(a.trace);
    /* the outputs were declared as they were parsed, before any input is read (util/files.h) */
    edan_error err = {0};
    edan_mg_classes *classes = edan_mg_classes_load(a.classes, &err);
    if (!classes)
        cli_die(2, "%s", err.msg);
    edan_mg_struct *st = NULL;
    edan_mg_funcs *funcs = NULL;
    if (a.hpcstruct) {
        st = edan_mg_struct_load(a.hpcstruct, &err);
        if (!st || !(funcs = edan_mg_funcs_new(st, period, &err)))
            cli_die(2, "%s", err.msg);
    }
    edan_mg_table *t = edan_mg_table_new(classes, period, &err);
    if (!t)
        cli_die(2, "%s", err.msg);
    edan_mg_table_set_funcs(t, funcs);
    if (edan_mg_table_run(t, a.trace, &err))
        cli_die(2, "%s", err.msg);
    /*
     * Load classes of another binary match few of the trace's IPs, and every
     * unmatched load counts as Unknown: a table that looks valid. Say so when
     * fewer than half of the loads are listed.
     */
    const edan_mg_table_stats stats = edan_mg_table_get_stats(t);
    if (stats.unknown * 2 > stats.loads) {
        char msg[4096];
        snprintf(msg, sizeof msg,
                 "%s: warning: %s lists the IPs of only %.1f%% of the trace's %" PRIu64
                 " loads (the others count as Unknown): is it the binary analysis of another program?",
                 cli_prog_name, a.classes, 100.0 * (double)(stats.loads - stats.unknown) / (double)stats.loads,
                 stats.loads);
        for (char *p = msg; *p; p++) /* the file name's control characters stay out of the terminal */
            *p = (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p;
        fprintf(stderr, "%s\n", msg);
    }
    FILE *out = open_output(&table_out, a.output, "--output");
    if (edan_mg_table_write(t, out))
        cli_die(1, "%s: write failed: %s", out == stdout ? "standard output" : a.output, strerror(errno));
    if (funcs) {
        FILE *fo = open_output(&functions_out, a.functions_output, "--functions-output");
        if (edan_mg_funcs_write(funcs, fo))
            cli_die(1, "%s: write failed: %s", fo == stdout ? "standard output" : a.functions_output, strerror(errno));
        close_output(&functions_out, fo);
    }
    close_output(&table_out, out);
    edan_mg_table_free(t);
    edan_mg_funcs_free(funcs);
    edan_mg_struct_free(st);
    edan_mg_classes_free(classes);
    return 0;
}

/* ---- edan's own analyses of a program or trace ------------------------------------------- */

/*
 * edan locality [options] PROGRAM [ARGS...] | TRACE: the locality tools
 * of the analysis session (docs/locality.md) on one stream. Without any
 * of their options, footprint, reuse, load classes and the zoom tree;
 * with some (--reuse, --classes, --zoom, --footprint, --sample-period),
 * those. A program is traced first into a temporary trace.
 */
static int locality_edan(int argc, char **argv)
{
    /* an option of --memgaze-table alone (the option table's) is refused with what it needs */
    for (int k = 2; k < argc && strcmp(argv[k], "--"); k++) {
        char key[64];
        if (strncmp(argv[k], "--", 2))
            continue;
        snprintf(key, sizeof key, "%.*s", (int)strcspn(argv[k] + 2, "="), argv[k] + 2);
        if (cli_option_honoured("memgaze-table", key) && !cli_option_honoured("locality", key))
            cli_die(2,
                    "locality: --%s is an option of --memgaze-table (MemGaze's table of a MemGaze trace); add "
                    "--memgaze-table, or leave it out for edan's own analyses",
                    key);
    }
    cli c = {0};
    int i;
    if (!cli_begin_command(argc, argv, "locality", &c, &i))
        return 0;
    if (i >= argc)
        cli_die(2, "locality: usage: edan locality [options] PROGRAM [ARGS...] | TRACE (see 'edan locality --help')");
    static const char *const names[] = {"footprint", "reuse", "load-classes", "zoom", "sampled"};
    const char *only[6];
    int n = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const edan_tool_def *def = edan_tool_find(names[k]);
        if (def && def->wanted(&c.o))
            only[n++] = names[k];
    }
    if (n == 0) /* none asked for: the usual four */
        for (size_t k = 0; k < 4; k++)
            only[n++] = names[k];
    only[n] = NULL;
    const char *input = argv[i];
    cli_refuse_overwrite(&c, input);
    const char *trace = input;
    char tmp_trace[PATH_MAX + 32] = "";
    edan_elf elf;
    edan_error err = {0};
    if (edan_elf_open(input, &elf, &err) == 0) {
        edan_elf_close(&elf);
        cli_check_program(&c, input);
        if (!c.program_output) /* the report alone on standard output */
            c.program_output = "stderr";
        snprintf(tmp_trace, sizeof tmp_trace, "%s/locality.edt", cli_tmpdir());
        cli_run_qemu(&c, "record", tmp_trace, argv + i, argc - i);
        trace = tmp_trace;
    } else {
        if (i + 1 != argc)
            cli_die(2, "locality: %s is not a program (an ELF executable), so it takes no arguments (a trace?)", input);
        cli_check_trace_file(input);
    }
    edan_trace_source *src;
    edan_session *s = cli_analyze_trace(&c, trace, "trace", input, only, &src);
    FILE *out = cli_open_output(&c.o);
    if (c.o.json) {
        fputs("{\"schema\":\"edan.locality/1\",\"source\":", out);
        edan_json_str(out, input);
    } else {
        fprintf(out, "edan locality of %s\n", input);
    }
    for (int k = 0; k < n; k++)
        edan_session_report_tool(s, edan_tool_find(only[k]), c.o.json ? EDAN_FORMAT_JSON : EDAN_FORMAT_TEXT, out);
    if (c.o.json)
        fputs("}\n", out);
    cli_close_output(out, &c.o);
    if (edan_session_outputs(s, &err))
        cli_die(2, "%s", err.msg);
    edan_session_free(s);
    edan_trace_source_close(src);
    if (tmp_trace[0])
        unlink(tmp_trace);
    return 0;
}

/* ---- modes ---------------------------------------------------------------------------- */

enum { MODE_EDAN, MODE_MEMGAZE_TABLE };

static int mode_of(int argc, char **argv, bool *help)
{
    int mode = MODE_EDAN;
    for (int i = 2; i < argc && strcmp(argv[i], "--"); i++) {
        if (cli_is_option("locality", argv[i], "help"))
            *help = true;
        else if (cli_is_option("locality", argv[i], "memgaze-table"))
            mode = MODE_MEMGAZE_TABLE;
    }
    return mode;
}

int cli_cmd_locality(int argc, char **argv)
{
    bool help = false;
    int mode = mode_of(argc, argv, &help);
    if (help) {
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        if (!m)
            cli_die(1, "out of memory");
        usage_locality(m);
        if (fclose(m))
            cli_die(1, "out of memory");
        cli_options_help("locality", "memgaze-table", text, stdout);
        free(text);
        return 0;
    }
    return mode == MODE_MEMGAZE_TABLE ? locality_memgaze(argc, argv) : locality_edan(argc, argv);
}
