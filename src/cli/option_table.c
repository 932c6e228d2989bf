/*
 * option_table.c - the command line's own options that name files, and
 * every option's kind as one table (edan help --option-table), from which
 * the hostile-input tests try every output against every input.
 */
#include <string.h>

#include "cli/cli.h"
#include "tool/registry.h"
#include "util/files.h"

#define TRACING_COMMANDS "run record rank annotate locality"

/*
 * Options the command line parses itself (edan.c, cmd_locality.c), with what
 * their value is; the rest are in options.c and the tools' tables. Those
 * that name files are declared or noted as they are parsed.
 */
static const struct {
    const char *name;
    int kind;
    const char *commands;
} cli_own[] = {
    {"trace", EDAN_VALUE_OUTPUT, "record dot"}, /* also -o */
    {"image", EDAN_VALUE_OUTPUT, "dot"},
    {"program-output", EDAN_VALUE_OUTPUT, TRACING_COMMANDS},
    {"list", EDAN_VALUE_INPUT, "rank"},
    {"qemu", EDAN_VALUE_INPUT, TRACING_COMMANDS},
    {"sysroot", EDAN_VALUE_INPUT, TRACING_COMMANDS},
    {"plugin", EDAN_VALUE_INPUT, TRACING_COMMANDS},
    {"env", EDAN_VALUE, TRACING_COMMANDS},
    {"pass-env", EDAN_FLAG, TRACING_COMMANDS},
    {"real-path", EDAN_FLAG, TRACING_COMMANDS},
    {"ignore-exit", EDAN_FLAG, TRACING_COMMANDS},
    {"text", EDAN_FLAG, "record convert"},
    {"binary", EDAN_FLAG, "convert"},
    {"help", EDAN_FLAG, "run record analyze convert dot rank annotate locality machines"},
    {"memgaze-table", EDAN_FLAG, "locality memgaze-table"},
    {"period", EDAN_VALUE, "memgaze-table"},
    {"load-classes", EDAN_VALUE_INPUT, "memgaze-table"},
    {"hpcstruct", EDAN_VALUE_INPUT, "memgaze-table"},
    {"output", EDAN_VALUE_OUTPUT, "memgaze-table"},
    {"functions-output", EDAN_VALUE_OUTPUT, "memgaze-table"},
};

/* The positional arguments every command reads, and writes ("memgaze-table" is edan locality --memgaze-table). */
static const struct {
    const char *command, *inputs, *outputs;
} positional[] = {
    {"run", "program", ""},
    {"record", "program", ""},
    {"analyze", "trace", ""},
    {"dot", "trace", ""},
    {"convert", "trace", "out"},
    {"rank", "trace program", ""},
    {"annotate", "trace program", ""},
    {"locality", "trace program", ""},
    {"memgaze-table", "memgaze-trace", ""},
};

void cli_declare_file_option(const char *sub, const char *key, const char *value)
{
    for (size_t i = 0; i < sizeof cli_own / sizeof cli_own[0]; i++) {
        if (strcmp(cli_own[i].name, key) || cli_own[i].kind != EDAN_VALUE_OUTPUT)
            continue;
        char what[80];
        snprintf(what, sizeof what, "--%s", key);
        edan_error err = {0};
        if (edan_output_declare(value, what, &err))
            cli_die(2, "%s: %s", sub, err.msg);
        return;
    }
}

void cli_note_input_option(const char *sub, const char *key, const char *path)
{
    char what[80];
    snprintf(what, sizeof what, "--%s", key);
    edan_error err = {0};
    if (edan_input_note(path, what, &err))
        cli_die(2, "%s: %s", sub, err.msg);
}

static const char *kind_name(int kind)
{
    static const char *const names[] = {"flag", "value", "input", "output", "output-dir"};
    return kind >= 0 && kind <= EDAN_VALUE_OUTPUT_DIR ? names[kind] : "?";
}

/* "key":["a","b"] from the words of a list separated by blanks (names of options and commands: no quoting needed). */
static void print_words(FILE *f, const char *key, const char *words)
{
    fprintf(f, "\"%s\":[", key);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", words);
    int n = 0;
    for (char *save = NULL, *c = strtok_r(buf, " ", &save); c; c = strtok_r(NULL, " ", &save))
        fprintf(f, "%s\"%s\"", n++ ? "," : "", c);
    fputc(']', f);
}

static void print_option(FILE *f, const char *name, int kind, const char *commands)
{
    fprintf(f, "{\"option\":\"%s\",\"kind\":\"%s\",", name, kind_name(kind));
    print_words(f, "commands", commands);
    fputs("}\n", f);
}

/*
 * Which commands honour each option of options.c (config/options.h: what
 * the option is); a name missing here is honoured by no command, which
 * cli_ux_help reports.
 */
static const struct {
    const char *names, *commands;
} session_sets[] = {
    {"cache alpha cost cost-file false-deps", "run analyze dot rank annotate"},
    {"m alpha0 C bytes", "run analyze rank"},
    {"tau clock series-csv table", "run analyze"},
    {"threads", "run analyze rank annotate locality"},
    {"json output html", "run analyze rank annotate locality"},
    {"filter exclude-callees", "run record rank annotate locality"},
    {"cold", "run record analyze dot rank annotate"},
    {"no-kernel-writes", "run record rank annotate"},
    {"across-samples", "run analyze locality"},
    {"progress no-progress", "run record analyze rank annotate locality"},
    {"plot-dir csv-dir", "run analyze rank locality"},
    {"wide", "run analyze annotate locality"},
};

/*
 * The analysis tools (tool/base/base.h) each command runs, NULL for every one,
 * so a tool's options are honoured by these commands (the lists the
 * commands give edan_session_new as only[] name no other tool); but the
 * options of the command's own output (edan dot writes the DOT to -o).
 */
static const struct {
    const char *command, *tools, *but;
} command_tools[] = {
    {"run", NULL, ""},
    {"analyze", NULL, ""},
    {"rank", "edag prediction", "schedule-dump schedule-window"}, /* one schedule: a program's (run, analyze) */
    {"annotate", "critical-path annotate prediction", "annotate schedule-dump schedule-window"},
    {"locality", "footprint reuse load-classes zoom sampled", ""},
    {"dot", "dot", "dot"},
    {"record", "sampled", ""}, /* --sample-only records MemGaze's samples alone */
};

static bool in_words(const char *list, const char *w);

/* The commands that honour option of tool, into buf. */
static const char *tool_commands(const char *tool, const char *option, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof command_tools / sizeof command_tools[0]; i++)
        if ((!command_tools[i].tools || in_words(command_tools[i].tools, tool)) &&
            !in_words(command_tools[i].but, option) && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? " " : "", command_tools[i].command);
    return buf;
}

static const char *session_commands(const char *option)
{
    for (size_t i = 0; i < sizeof session_sets / sizeof session_sets[0]; i++)
        if (in_words(session_sets[i].names, option))
            return session_sets[i].commands;
    return "";
}

/*
 * The i-th row of the one option table: the options of options.c, of every
 * tool, and of the command line's own, with the commands that take each;
 * false past the last.
 */
static bool option_row(int i, const char **name, int *kind, const char **commands)
{
    static char buf[128];
    int k;
    for (k = 0; edan_options_table(k, kind); k++)
        if (k == i) {
            *name = edan_options_table(k, kind);
            *commands = session_commands(*name);
            return true;
        }
    for (int t = 0; t < edan_n_tools; t++)
        for (const edan_tool_option *op = edan_tools[t]->options; op && op->name; op++, k++)
            if (k == i) {
                *name = op->name;
                *kind = op->takes_value;
                *commands = tool_commands(edan_tools[t]->name, op->name, buf, sizeof buf);
                return true;
            }
    if ((size_t)(i - k) >= sizeof cli_own / sizeof cli_own[0])
        return false;
    *name = cli_own[i - k].name;
    *kind = cli_own[i - k].kind;
    *commands = cli_own[i - k].commands;
    return true;
}

void cli_print_option_table(FILE *f)
{
    const char *name, *commands;
    int kind;
    for (int i = 0; option_row(i, &name, &kind, &commands); i++)
        print_option(f, name, kind, commands);
    for (size_t i = 0; i < sizeof positional / sizeof positional[0]; i++) {
        fprintf(f, "{\"command\":\"%s\",", positional[i].command);
        print_words(f, "positional", positional[i].inputs);
        fputc(',', f);
        print_words(f, "positional_outputs", positional[i].outputs);
        fputs("}\n", f);
    }
}

/* Whether the word w is in the blank-separated list. */
static bool in_words(const char *list, const char *w)
{
    const size_t n = strlen(w);
    for (const char *p = list; (p = strstr(p, w)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
            return true;
    return false;
}

/* Optimal string alignment distance (edits, and swaps of two neighbours), on names of at most 63 bytes. */
static int distance(const char *a, const char *b)
{
    const size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63)
        return 99;
    int d[64][64];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            const int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/*
 * A word close enough to be what was meant: at most a third of its letters
 * edited (one edit for a short one), or the word a prefix of it.
 */
static bool close_enough(const char *typed, const char *known, int dist)
{
    const int len = (int)strlen(known);
    if (strlen(typed) < 3) /* '-x' is no misspelling of '--m' */
        return false;
    return dist <= (len < 6 ? 1 : len / 3) || (strlen(typed) >= 3 && !strncmp(known, typed, strlen(typed)));
}

const char *cli_closest_option(const char *sub, const char *key)
{
    const char *name, *commands, *best = NULL;
    int kind, best_d = 99;
    for (int i = 0; option_row(i, &name, &kind, &commands); i++) {
        if (!in_words(commands, sub))
            continue;
        const int d = distance(key, name);
        if (d < best_d && close_enough(key, name, d)) {
            best = name;
            best_d = d;
        }
    }
    return best;
}

const char *cli_option_commands(const char *key, char *buf, size_t cap)
{
    const char *name, *commands;
    int kind;
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; option_row(i, &name, &kind, &commands); i++)
        if (!strcmp(name, key) && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? " " : "", commands);
    return n ? buf : NULL;
}

bool cli_option_honoured(const char *sub, const char *key)
{
    const char *name, *commands;
    int kind;
    for (int i = 0; option_row(i, &name, &kind, &commands); i++)
        if (!strcmp(name, key) && in_words(commands, sub))
            return true;
    return false;
}

const char *cli_closest_word(const char *typed, const char *const *words)
{
    const char *best = NULL;
    int best_d = 99;
    for (; *words; words++) {
        const int d = distance(typed, *words);
        if (d < best_d && close_enough(typed, *words, d)) {
            best = *words;
            best_d = d;
        }
    }
    return best;
}
