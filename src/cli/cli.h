/*
 * cli.h - what the command line's files share: the parsed command line, the
 * exit-with-a-message helper, QEMU runs (qemu.c) and analysis of a trace
 * in one session (edan.c). Exit status: 0 on success, 2 for bad input or
 * options, 1 when something outside edan failed, and once the report is
 * written, 3 when a traced program exited with a non-zero status and 4
 * when one was killed by a signal (0 with --ignore-exit).
 */
#ifndef EDAN_CLI_CLI_H
#define EDAN_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/options.h"
#include "tool/session.h"
#include "trace/trace_file.h"
#include "util/error.h"

/* Options of the command line that are not analysis options. */
typedef struct cli {
    edan_options o;
    const char *qemu;
    const char *sysroot; /* --sysroot: QEMU's -L, where a dynamically linked program's libraries are */
    const char *plugin;
    const char *trace_out;
    const char *image; /* edan dot: render to this SVG or PNG with Graphviz */
    int text_trace;    /* --text 1, --binary 0; edan convert: -1 until given (the input's format decides) */
    bool help;
    bool end_of_options; /* "--" was given: the arguments after it are operands */
    /* the traced program's surroundings (qemu.c) */
    const char *program_output; /* --program-output: "stdout", "stderr" or a file; NULL: the default */
    bool pass_env;              /* --pass-env: the caller's environment instead of a fixed one */
    bool real_path;             /* --real-path: run the program by its own path, argv[0] as given */
    const char *env[64];        /* --env=KEY=VALUE, in order */
    int n_env;
    const char *list_file; /* edan rank --list=FILE */
    bool ignore_exit;      /* --ignore-exit: exit 0 when a traced program failed */
    uint64_t expect;       /* instructions a first run counted: the progress line's total (0: unknown) */
    /* edan locality --memgaze-table (cmd_locality.c) */
    const char *load_classes, *period, *table_output, *hpcstruct, *functions_output;
} cli;

/* The exit statuses of a complete report whose program failed (README, "Options and exit status"). */
#define EDAN_EXIT_PROGRAM_FAILED 3
#define EDAN_EXIT_PROGRAM_KILLED 4

extern const char *cli_prog_name;

void cli_die(int status, const char *fmt, ...) EDAN_PRINTF(2, 3) __attribute__((noreturn));
/* The start every command shares: defaults, options, --help. False when help was shown. */
bool cli_begin_command(int argc, char **argv, const char *sub, cli *c, int *first);

/* qemu.c: edan's directory (where the plugin is looked for), set by main. */
void cli_set_self_dir(const char *dir);
const char *cli_self_dir(void);
/* cmd_machines.c: --machine's value as a path: NAME is a shipped machine's file (exits when none has it). */
const char *cli_machine_path(const char *value);
int cli_cmd_machines(int argc, char **argv);
/* The program exists, is a RISC-V ELF and has the filter's functions (exits otherwise). */
void cli_check_program(const cli *c, const char *program);
/* A private temporary directory, removed at exit. */
const char *cli_tmpdir(void);
/* Run QEMU with the plugin in mode (online, record, text) writing out; the program's exit status. */
int cli_run_qemu(const cli *c, const char *mode, const char *out, char **prog_argv, int prog_argc);
void cli_copy_file_to(const char *path, FILE *to);
/* The instructions the last QEMU run traced (its plugin's status). */
uint64_t cli_last_traced(void);
/* A traced program's wait status (cli_run_qemu notes each): a failure is remembered. */
void cli_note_program_exit(const cli *c, const char *program, int wait_status);
/*
 * The command's exit status once its report is complete: 0, or 3 when a
 * traced program exited with a non-zero status, 4 when one was killed by a
 * signal (0 with --ignore-exit); a line on stderr per failed program.
 */
int cli_program_exit_status(void);
/*
 * Standard input for a program run twice (edan run --per-function): call
 * cli_stdin_first() before the first run and cli_stdin_second() before the
 * second, and both read the same input. A file is read again from where it
 * was; a pipe is first copied into the temporary directory; a terminal is
 * left to the second run (the first reads /dev/null).
 */
void cli_stdin_first(void);
void cli_stdin_second(void);

/* The report's stream: standard output, or --output written under a temporary name and renamed when closed. */
FILE *cli_open_output(const edan_options *o);
void cli_close_output(FILE *f, const edan_options *o);
/* Exit with status 2 for a trace path that names a directory, a device or an empty file. */
void cli_check_trace_file(const char *path);
/* Exit with status 2 when an output option declared so far (util/files.h) names the file input. */
void cli_refuse_overwrite(const cli *c, const char *input);
/*
 * Analyse a trace with c's options in one session (only: the tools, NULL
 * for every wanted one). kind and shown name the source in the report.
 * Exits on error; returns the finished session, and the trace in *source,
 * which owns the static instructions the tools' results point at: close it
 * after the session.
 */
edan_session *cli_analyze_trace(const cli *c, const char *path, const char *kind, const char *shown,
                                const char *const *only, edan_trace_source **source);

/*
 * The options of command sub from argv[start] on, into c (option_table.c
 * says what each is and where it goes), up to the first operand or past
 * "--" (c->end_of_options): the index of the first operand. Exits with
 * status 2 on an option sub does not take and on a bad value.
 */
int cli_parse_args(int argc, char **argv, int start, cli *c, const char *sub);

/*
 * option_table.c: the one table of options. What a second one of an option
 * does (README, "Options and exit status"): an error (exit 2, "given
 * twice"), its value added to the first's (the lists: --cache, --cost,
 * --env, --filter, --functions), or nothing (a flag: the same as once).
 */
enum { CLI_REPEAT_ONCE, CLI_REPEAT_ADDS, CLI_REPEAT_AGAIN };
int cli_option_repeat(const char *sub, const char *key);
/* Whether arg is option name (--name, or its short -x) of command sub: a flag that chooses what sub does. */
bool cli_is_option(const char *sub, const char *arg, const char *name);
/* Whether option key of command sub takes a value: 1, 0 for a flag, -1 for no option of that name. */
int cli_option_takes_value(const char *sub, const char *key);
/* The option -ch is short for with command sub; with another command when sub has none; NULL for none. */
const char *cli_short_option(const char *sub, char ch);
/*
 * Store option key of command sub (value NULL for a flag) in c: the command
 * line's own into its field, an output declared and an input noted
 * (util/files.h), the rest into c->o. Exits with status 2 on a bad value
 * and on a second one of an option given once.
 */
void cli_store_option(cli *c, const char *sub, const char *key, const char *value);
/* Every option and what its value is (input, output...), and every command's positional inputs, as JSON lines. */
void cli_print_option_table(FILE *f);
/* The commands that honour the option key, blank-separated in buf; NULL for no option of that name. */
const char *cli_option_commands(const char *key, char *buf, size_t cap);
/* Whether command sub honours the option key (without dashes): the option table says which commands do. */
bool cli_option_honoured(const char *sub, const char *key);
/* The option of command sub that key (without dashes) most likely misspells, or NULL ("did you mean"). */
const char *cli_closest_option(const char *sub, const char *key);
/* The word of a NULL-terminated list that typed most likely misspells, or NULL. */
const char *cli_closest_word(const char *typed, const char *const *words);
/* An unknown option's error, with the closest option of the command when there is one: exits with status 2. */
void cli_die_unknown_option(const char *sub, const char *arg) __attribute__((noreturn));

/* help.c: edan --help; a command's --help, with the options it honours (the option table says which) */
void cli_usage_main(FILE *f);
void cli_usage_sub(const char *sub, FILE *f);
/*
 * own (the command's text, or NULL), then the tracing options and every
 * analysis option: only the blocks of options sub (or also) honours, each
 * option once.
 */
void cli_options_help(const char *sub, const char *also, const char *own, FILE *f);

int cli_cmd_rank(int argc, char **argv);
int cli_cmd_dot(int argc, char **argv);
int cli_cmd_annotate(int argc, char **argv);
int cli_cmd_locality(int argc, char **argv);

#endif
