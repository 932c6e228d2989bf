/*
 * help.c - what 'edan --help' and 'edan COMMAND --help' print. A command's
 * help lists only the options it honours: its text, the tracing options and
 * the analysis options of every tool are filtered by the option table
 * (option_table.c), each option once.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "tool/session.h"

void cli_usage_main(FILE *f)
{
    fputs("usage: edan <command> [options] ...\n"
          "\n"
          "Trace RISC-V, x86-64 or AArch64 programs under QEMU and tell how they behave when\n"
          "memory gets farther away: the execution-DAG (eDAG) metrics (work, span, memory\n"
          "work W and depth D, memory-cost and runtime bounds, lambda, Lambda, bandwidth and\n"
          "data movement over time) and, with --machine, the run time predicted per memory\n"
          "latency, per function and per source line on a described machine.\n"
          "\n"
          "Commands:\n"
          "  run      trace a program and analyse it in one process, with no trace file\n"
          "  record   trace a program into a trace file (binary, or the original text format)\n"
          "  analyze  analyse a trace file (edan binary or EDAN text format)\n"
          "  convert  convert a trace between the binary and text formats\n"
          "  dot      draw the eDAG of a small traced region (Graphviz DOT, SVG, PNG)\n"
          "  rank     rank programs or traces by latency sensitivity (--machine: the model's slope)\n"
          "  annotate source files with per-line counts in the margin (like cg_annotate)\n"
          "  locality footprints and load classes; MemGaze's footprint table from MemGaze's traces\n"
          "  machines the machine descriptions --machine=NAME finds by name\n"
          "\n"
          "'edan <command> --help' explains a command and all its options.\n",
          f);
}

static void tracing_help(FILE *f)
{
    fputs("Tracing options:\n"
          "  --filter=F[,G...]   trace only while one of these functions is active (entered and\n"
          "                      not yet returned), callees included [whole program]; a shared\n"
          "                      library's function by the name the program imports, or LIB:NAME\n"
          "                      (libm.so:exp)\n"
          "  --exclude-callees   with --filter, leave out instructions of the functions they call\n"
          "  --cold              with --filter, caches and branch predictor see the region alone,\n"
          "                      as the EDAN paper's tool [warm: they follow the whole program]\n"
          "  --no-kernel-writes  leave out the lines system calls (read, readv, ...) write into the\n"
          "                      program's memory [the caches take them as written, as gem5's\n"
          "                      syscall emulation does not]\n"
          "  --qemu=PATH         QEMU user-mode emulator [$EDAN_QEMU, or qemu-riscv64, qemu-x86_64\n"
          "                      or qemu-aarch64 on PATH as the program's ELF header names its ISA]\n"
          "  --sysroot=DIR       where QEMU finds a dynamically linked program's libraries (its -L)\n"
          "                      [/usr/aarch64-linux-gnu for AArch64; the host's own for x86-64]\n"
          "  --plugin=PATH       edan's TCG plugin [$EDAN_PLUGIN or libedan_plugin.so beside edan]\n"
          "  --progress, --no-progress  instructions so far and the rate, on stderr\n"
          "                      [when stderr is a terminal]\n"
          "  --env=NAME=VALUE    put NAME in the program's environment (repeatable). The program\n"
          "                      runs with only these, argv[0] its file name and a fixed-length\n"
          "                      path, so its stack is at the same place from any shell and\n"
          "                      directory and the numbers are the same\n"
          "  --pass-env          give the program the caller's environment instead (numbers may\n"
          "                      then change with the environment's size)\n"
          "  --real-path         run the program by the path given, argv[0] that path, as gem5's\n"
          "                      syscall emulation does (validation/sweep.py): the C library\n"
          "                      keeps the program's directory on the heap, so the heap's\n"
          "                      layout then depends on where the program is\n"
          "  --ignore-exit       exit 0 when the program fails; without it edan writes its\n"
          "                      results and exits 3 when the program exited with a non-zero\n"
          "                      status, 4 when it was killed by a signal\n"
          "  --program-output=stdout|stderr|FILE  where the program's standard output goes\n"
          "                      [stderr when the report is JSON or a table on standard output,\n"
          "                      so that it stays parseable; stdout otherwise]\n",
          f);
}

static void usage_text(const char *sub, FILE *f)
{
    if (!strcmp(sub, "run")) {
        fputs("usage: edan run [options] [--] PROGRAM [ARGS...]\n"
              "Run a program (statically linked RISC-V; x86-64 or AArch64, static or dynamic) under\n"
              "QEMU (qemu-riscv64, qemu-x86_64, qemu-aarch64: from its ELF header) with edan's plugin and\n"
              "analyse its eDAG in-process (no trace file). The program's own output is kept\n"
              "(on stderr when the report is JSON or a table on stdout: see --program-output).\n\n",
              f);
    } else if (!strcmp(sub, "record")) {
        fputs("usage: edan record [options] -o TRACE [--] PROGRAM [ARGS...]\n"
              "Trace a program into TRACE: the compressed binary format (docs/trace-format.md),\n"
              "or with --text the original EDAN text format (one instruction per line).\n\n"
              "  -o, --trace=PATH    trace file to write (required)\n"
              "  --text              write the text format instead of the binary one\n",
              f);
    } else if (!strcmp(sub, "analyze")) {
        fputs("usage: edan analyze [options] TRACE\n"
              "Analyse a trace: edan's binary format or the original EDAN text format\n"
              "(detected from the content; '-' reads text from standard input). A filtered trace's region\n"
              "starts warm, as edan run's does.\n\n"
              "  --cold              leave out a filtered trace's records outside the region: caches\n"
              "                      and branch predictor see the region alone, as the EDAN paper's tool\n",
              f);
    } else if (!strcmp(sub, "dot")) {
        fputs("usage: edan dot [options] [-o OUT.dot] TRACE\n"
              "Draw the eDAG of a small traced region as Graphviz DOT, in the style of the EDAN\n"
              "paper's Figure 7: a vertex per instruction, memory-access vertices red, an edge per\n"
              "true dependency (false ones dashed with --false-deps), one critical path bold.\n"
              "Record the region first, e.g. edan record --filter=kernel -o k.edt ./prog 4\n\n"
              "  -o PATH             the DOT file [standard output]\n"
              "  --image=FILE.svg|FILE.png  also render it with Graphviz's dot\n"
              "  --max-vertices=N    refuse larger regions [5000]\n"
              "  --cold              caches see the region alone (a filtered trace starts warm)\n"
              "The first --cache and --alpha values are used.\n\n",
              f);
    } else if (!strcmp(sub, "rank")) {
        fputs("usage: edan rank [options] TRACE|PROGRAM[:FUNCTION]... [--list=FILE]\n"
              "Rank programs by their memory latency sensitivity, lambda and Lambda, all analysed with\n"
              "the same settings (the paper's section 4 method). A PROGRAM (any ELF that run takes) is\n"
              "traced with no arguments, PROGRAM:FUNCTION only while FUNCTION runs (instead of\n"
              "--filter), so each program's kernel can have its own name. The first --cache, --alpha\n"
              "and --m values are used. With --machine and two or more --mem-latency values, the\n"
              "timing model ranks first: by the predicted slope of run time against latency and by the\n"
              "slowdown, lambda and Lambda beside. --json writes one JSON object (docs/json-schema.md),\n"
              "the programs' output then going to stderr; --plot-dir draws a bar chart per order\n"
              "(rank-KEY.png); --csv-dir writes every figure as rank-programs.csv (with a sampled\n"
              "schedule, the slope's 95 % interval too: slope_low, slope_high).\n\n"
              "  --list=FILE         more programs, a line each: PROGRAM[:FUNCTION] [ARGS...] (split\n"
              "                      at blanks, no quoting; '#' starts a comment)\n",
              f);
    } else if (!strcmp(sub, "annotate")) {
        fputs("usage: edan annotate [options] TRACE\n"
              "       edan annotate [options] [--] PROGRAM [ARGS...]\n"
              "Source files with per-line counts in the margin, in the manner of Valgrind's\n"
              "cg_annotate: Ir (instructions), Mem (memory-access vertices under the first --cache),\n"
              "Span (cycles on one critical path; they sum to T_inf) and Chain (accesses on the\n"
              "longest memory chain; they sum to D). A PROGRAM is traced first (a temporary trace;\n"
              "its own output goes to stderr unless --program-output says otherwise).\n"
              "Files of up to 400 lines are shown whole, longer ones around their annotated lines.\n"
              "--json gives the same per line, for editors. (--annotate adds the text to a run's report.)\n\n",
              f);
    } else if (!strcmp(sub, "convert")) {
        fputs("usage: edan convert [--text|--binary] IN OUT\n"
              "Convert a binary trace to the original EDAN text format (--text, the default), or\n"
              "rewrite it in the current binary format (--binary). A text trace cannot become a\n"
              "binary one: the binary format stores instruction encodings, which text lacks;\n"
              "edan analyzes text traces as they are.\n",
              f);
    } else {
        cli_usage_main(f);
    }
}

/* ---- filtering by the option table ----------------------------------------------------- */

/*
 * The option names a help block's first line starts with ("  --a=X, --b
 * text": a, b; a short option alone as its long one for sub, -o as "trace").
 */
static int block_names(const char *sub, const char *line, char names[][48], int max)
{
    int n = 0;
    const char *p = line + strspn(line, " ");
    while (*p == '-' && n < max) {
        const char *name = p + strspn(p, "-");
        const size_t len = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
        if (p[1] != '-' && !strncmp(name + len + strcspn(name + len, " ,"), ", --", 4))
            ;                   /* a short option beside its long one: "-o, --output=FILE" */
        else if (p[1] != '-') { /* alone: the option table's long name (-o is --trace) */
            const char *full = len == 1 ? cli_short_option(sub, *name) : NULL;
            snprintf(names[n++], 48, "%s", full ? full : "");
        } else
            snprintf(names[n++], 48, "%.*s", (int)(len < 47 ? len : 47), name);
        p = name + len;
        p += strcspn(p, " ,"); /* "=SPEC", "[=X]" */
        if (strncmp(p, ", -", 3))
            break;
        p += 2;
    }
    return n;
}

typedef struct help_state {
    const char *sub, *also; /* the command, and a second one whose options it lists too (memgaze-table) */
    char done[512][48];     /* options already listed */
    int n_done;
    char *heading; /* a paragraph ending in ':', printed before the first block it heads that is kept */
    size_t heading_len;
} help_state;

static bool honoured(const help_state *h, const char *name)
{
    return cli_option_honoured(h->sub, name) || (h->also && cli_option_honoured(h->also, name));
}

static bool listed(const help_state *h, const char *name)
{
    for (int i = 0; i < h->n_done; i++)
        if (!strcmp(h->done[i], name))
            return true;
    return false;
}

/*
 * Print text, a help in the usual layout: paragraphs at the margin, option
 * blocks starting with "  -" and continued by lines indented further. A
 * block is kept when one of its options is honoured and not yet listed.
 */
static void filter_help(help_state *h, const char *text, FILE *f)
{
    bool keep = true, in_block = false;
    char para[4096] = "";
    size_t para_len = 0;
    for (const char *line = text; *line;) {
        const size_t len = strcspn(line, "\n");
        const bool block = !strncmp(line, "  -", 3);
        const bool more = len && !block && line[0] == ' ' && line[1] == ' ' && line[2] == ' ';
        const bool margin = len && line[0] != ' ';
        if (!margin && para_len) { /* the paragraph ended: a heading waits for its first kept block */
            if (para[para_len - 2] == ':') {
                free(h->heading);
                h->heading = strdup(para);
            } else {
                fputs(para, f);
            }
            para[0] = '\0';
            para_len = 0;
        }
        if (block) {
            char names[8][48];
            const int n = block_names(h->sub, line, names, 8);
            keep = n == 0;
            for (int i = 0; i < n; i++)
                if (names[i][0] && honoured(h, names[i]) && !listed(h, names[i]))
                    keep = true;
            for (int i = 0; keep && i < n; i++)
                if (!listed(h, names[i]) && h->n_done < 512)
                    memcpy(h->done[h->n_done++], names[i], sizeof names[i]);
            if (keep && h->heading) {
                fputs(h->heading, f);
                free(h->heading);
                h->heading = NULL;
            }
            in_block = true;
        } else if (margin) {
            in_block = false;
            if (para_len + len + 2 < sizeof para) {
                memcpy(para + para_len, line, len);
                para_len += len;
                para[para_len++] = '\n';
                para[para_len] = '\0';
            }
        } else if (!more) {
            in_block = false;
        }
        if (!margin && (!(block || (more && in_block)) || keep))
            fwrite(line, 1, len, f), fputc('\n', f);
        line += len + (line[len] == '\n');
    }
    if (para_len)
        fputs(para, f);
}

void cli_options_help(const char *sub, const char *also, const char *own, FILE *f)
{
    help_state *h = calloc(1, sizeof *h);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!h || !m)
        cli_die(1, "out of memory");
    h->sub = sub;
    h->also = also;
    if (own)
        fputs(own, m);
    if (cli_option_honoured(sub, "qemu"))
        tracing_help(m);
    edan_session_options_help(m);
    if (fclose(m))
        cli_die(1, "out of memory");
    filter_help(h, text, f);
    free(h->heading);
    free(h);
    free(text);
}

void cli_usage_sub(const char *sub, FILE *f)
{
    if (!strcmp(sub, "convert")) {
        usage_text(sub, f);
        return;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        cli_die(1, "out of memory");
    usage_text(sub, m);
    if (fclose(m))
        cli_die(1, "out of memory");
    cli_options_help(sub, NULL, text, f);
    free(text);
}
