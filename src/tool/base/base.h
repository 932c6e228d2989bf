/*
 * base.h - an analysis tool: one analysis of the instruction stream, with a
 * name, its own options, a consumer of the stream and its own sections of
 * the report; and what it reads of the session it runs in. The contract of
 * tool/base/, the folder below every tool (tool/graph/, tool/memory/); the
 * registry (tool/registry.h) lists every tool, above them, and an analysis
 * session (tool/session.h) creates the tools a command asks for, feeds one
 * stream to all of them and writes one report by asking each for its
 * section. A new analysis is one file defining an edan_tool_def, one line
 * in the registry and its test.
 *
 * Tools read each other only through typed getters: a tool whose results
 * another reads declares in its header a getter such as
 * `const edan_timing *edan_timing_tool_model(const edan_session *s)`, which
 * its own file implements with edan_session_instance(s, &its_def); the
 * reading tool lists the provider in its `uses`, and the session creates,
 * feeds and finishes the provider before it (whatever the registry's
 * order). No tool names another by a string or casts another's state.
 *
 * Lifetime of a tool instance: create() -> consumer().consume() for every
 * batch, in trace order -> consumer().finish() once -> report hooks, any
 * number of times -> destroy(). The records of a batch stay valid only
 * during consume(); the static instructions they point at live as long as
 * the session.
 */
#ifndef EDAN_TOOL_BASE_H
#define EDAN_TOOL_BASE_H

#include <stdbool.h>
#include <stdio.h>

#include "config/options.h"
#include "report/report.h"
#include "report/table.h"
#include "trace/exec.h"
#include "util/error.h"
#include "util/symbols/symbols.h"

typedef struct edan_session edan_session;

#define EDAN_TOOL_PER_INSN_DEFAULT (1u << 12)

/*
 * One option of a tool, given as --name or --name=VALUE on the command line
 * and as a key=value line to the plugin. check() validates a value when the
 * option is given (NULL: any value); the tool reads its options at create()
 * with edan_options_each().
 */
typedef struct edan_tool_option {
    const char *name;
    int takes_value;  /* EDAN_FLAG, EDAN_VALUE, or what file it names: EDAN_VALUE_INPUT... (config/options.h) */
    const char *help; /* the help text's lines for it, each ending in '\n' */
    int (*check)(const char *value, edan_error *err); /* a flag's (value NULL when none) makes its value optional */
} edan_tool_option;

/* How the report is written (the --json and --table options). */
typedef enum edan_report_format { EDAN_FORMAT_TEXT, EDAN_FORMAT_JSON, EDAN_FORMAT_TABLE } edan_report_format;

typedef struct edan_tool_def edan_tool_def;

/* A tool's results for the session to render (edan_tool_def.results). */
typedef struct edan_tool_results {
    edan_result *r; /* its tables in the order its section writes them (report/table.h) */
    size_t n;
    void *own; /* what they live in, for free_results() */
} edan_tool_results;

struct edan_tool_def {
    const char *name;
    const char *summary;
    /*
     * The tools whose results it reads through their typed getters, ending
     * with NULL (NULL: none). They run only when asked for (a getter then
     * gives NULL); when they do, the session creates, feeds and finishes
     * them before this tool, so create(), finish() and the report hooks see
     * them. A cycle among them is refused when the session is created.
     */
    const edan_tool_def *const *uses;
    const edan_tool_option *options; /* ends with a {NULL} entry; NULL for none */
    /* Whether a command with these options asks for the tool. */
    bool (*wanted)(const edan_options *o);
    /* A new instance (NULL with err set). The session's options, source and the tools it uses are readable. */
    void *(*create)(edan_session *s, edan_error *err);
    /* Its consumer of the stream; finish() returns non-zero after setting the error that error() gives. */
    edan_consumer (*consumer)(void *tool);
    const edan_error *(*error)(const void *tool);
    /*
     * Its section of the report. Text: lines of its own; JSON: members of
     * the report's top-level object, each written as ,"key":value; table:
     * only a tool that has a table writes one. NULL: nothing.
     */
    void (*report)(void *tool, const edan_session *s, edan_report_format fmt, FILE *f);
    /*
     * The tables its report is made of (report/table.h), ending with a
     * {NULL} entry; NULL while its report is still written by hand. Their
     * columns document its JSON keys (tests/result_keys_test.py).
     */
    const edan_table_decl *tables;
    /*
     * Its results as tables that the session renders: its section of the
     * report in text and JSON (none for the table format) and its CSV files
     * with --csv-dir (edan_tool_report(), edan_tool_outputs()); 0, or -1
     * when out of memory. free_results() frees x->own. NULL: report() writes
     * its section and outputs() its CSV files.
     */
    int (*results)(void *tool, const edan_session *s, edan_tool_results *x);
    void (*free_results)(void *own);
    /* Files besides the report (plots, CSV series; after results' CSV files): 0, or -1 with err set. NULL: none. */
    int (*outputs)(void *tool, const edan_session *s, edan_error *err);
    void (*destroy)(void *tool);
    /*
     * The most one instruction can add to any of the tool's totals (cycles
     * under its largest cost or latency, bytes, counts): *memory for a load,
     * store or AMO, *other for any other instruction, so that the session
     * can tell, per batch, before any total could wrap (session.c). NULL:
     * EDAN_TOOL_PER_INSN_DEFAULT for both, a count or the bytes of an access;
     * the options' eDAG costs (--alpha, --cost, --cache) the session adds for
     * every tool.
     */
    void (*max_per_insn)(const void *tool, uint64_t *memory, uint64_t *other);
    /* Its consumer is worth a thread of its own (the session copies each batch to it). */
    bool threaded;
    /* It reads the traced program's symbols or lines: they must be those of the program traced. */
    bool reads_program;
    /* Its results hold on a --sample-only trace (the samples' instructions alone, not every one). */
    bool samples_suffice;
};

/* ===================================================================== */
/* What a tool reads of its session                                       */
/* ===================================================================== */

/* Tools one session runs at most (the registry's size, with room to grow). */
#define EDAN_SESSION_MAX_TOOLS 16

/*
 * The part of a session (tool/session.h) its tools read: the options, what
 * was analysed, and the tools created so far with their instances. The
 * session begins with it (its first member) and fills it; the functions
 * below read it, so that the tools, in the folders between this one and the
 * session's, never call the session (tests/layers_test.py).
 */
typedef struct edan_session_base {
    edan_options o;
    edan_report_source src;
    int n;                                            /* tools created so far, in the order they run */
    const edan_tool_def *def[EDAN_SESSION_MAX_TOOLS]; /* their definitions */
    void *tool[EDAN_SESSION_MAX_TOOLS]; /* and instances: each is readable by the tools created after it */
} edan_session_base;

/*
 * The instance of def in session s (NULL when it does not run). Only def's
 * own file calls it, to implement the typed getter its header declares: the
 * one place a tool's state is cast to its type.
 */
void *edan_session_instance(const edan_session *s, const edan_tool_def *def);
const edan_options *edan_session_options(const edan_session *s);
const edan_report_source *edan_session_source(const edan_session *s);
/*
 * What names the run's code in a view, once the stream is over: the program's
 * function symbols and those of the shared objects it mapped (the source's
 * objects: edan_elf_add_objects), which are known only then (the plugin
 * learns them as it translates code, a trace carries them after its
 * records). A tool that names functions keeps each static instruction's pc
 * during the stream and names it here, once per static instruction.
 *
 * edan_session_functions: open the program's symbols into *out with the
 * objects' added; false (out cleared) without a program or when its symbols
 * are not at the traced addresses (a RISC-V PIE: edan_elf_linked_pcs).
 * edan_session_name_objects: add the objects to elf, the program's symbols a
 * tool opened before the stream, once (*named); indices into elf->funcs
 * taken before are stale. edan_session_srcmap: the program's source map with
 * the objects' functions and lines (edan_srcmap_add_objects); NULL without
 * DWARF or a program.
 */
bool edan_session_functions(const edan_session *s, edan_elf *out);
void edan_session_name_objects(const edan_session *s, edan_elf *elf, bool *named);
edan_srcmap *edan_session_srcmap(const edan_session *s);
/*
 * The file name of what was analysed, for plots and titles: the trace's
 * (without its extension when strip_ext), else the program's, else
 * "program".
 */
void edan_session_source_name(const edan_session *s, bool strip_ext, char *buf, size_t cap);
/*
 * The base name of the plot and CSV files: the source's name (without
 * extension) and, with --filter, "-" and the region's names (each cut at its
 * parameter list, characters other than letters, digits, '.', '_' and '-'
 * becoming '_', several joined by '+'), so runs of one program over
 * different regions write different files.
 */
void edan_session_file_base(const edan_session *s, char *buf, size_t cap);
/*
 * What a plot's title names besides its quantity: "PROGRAM, region R,
 * machine M" (region "whole program" without --filter; without --machine the
 * --cache configuration, else "default model").
 */
void edan_session_plot_ident(const edan_session *s, char *buf, size_t cap);

/* ===================================================================== */
/* A tool's section from its result tables                                */
/* ===================================================================== */

/*
 * Tool def's section of the report (tool its instance): its results
 * rendered (names whole with --wide; JSON null and a line of text when they
 * are out of memory), or what its report() writes.
 */
void edan_tool_report(const edan_tool_def *def, void *tool, const edan_session *s, edan_report_format fmt, FILE *f);
/*
 * Its files besides the report: its results' CSV files (--csv-dir,
 * <name>-<table>.csv), then what its outputs() writes; 0, or -1 with err.
 */
int edan_tool_outputs(const edan_tool_def *def, void *tool, const edan_session *s, edan_error *err);

#endif
