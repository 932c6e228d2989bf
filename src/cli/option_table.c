/*
 * option_table.c - the one table of options (edan help --option-table):
 * every option's kind, the commands that take it and what a second one
 * does; the command line's own options with their short names and where
 * cli_parse_args stores them. The parser, each command's --help, "did you
 * mean", the man page and the bash completion read it, and the
 * hostile-input tests try every output in it against every input.
 */
#include <stddef.h>
#include <string.h>

#include "cli/cli.h"
#include "tool/registry.h"
#include "util/files.h"

#define TRACING_COMMANDS "run record rank annotate locality"

/* How the command line stores each of its own options in a cli (cli.h). */
enum {
    STORE_NONE,   /* read where it chooses what the command does (edan locality --memgaze-table) */
    STORE_STRING, /* the value, into a const char * */
    STORE_BOOL,   /* a flag: set, into a bool */
    STORE_INT,    /* a flag: set, into an int (--text and --binary share one) */
    STORE_ENV,    /* the value, added to env[] */
};

static bool check_program_output(const char *shown, const char *value);
static bool check_env(const char *shown, const char *value);

#define FIELD(f) offsetof(cli, f)

/*
 * Options the command line parses itself (cli_parse_args), with what their
 * value is, the commands that take each, where it is stored, and whether a
 * second one adds to the first (the rest: options.c and the tools' tables).
 * A value option not marked adds is given once; a flag given again changes
 * nothing (of --text and --binary, the last one counts). check: a value's
 * own check (exits with status 2), false when the value names no file.
 */
static const struct own_option {
    const char *name;
    char short_name; /* -o, -h: the same option for the commands of this row */
    int kind;
    const char *commands;
    int store;
    size_t field;
    int set; /* what a flag stores */
    bool adds;
    bool (*check)(const char *shown, const char *value);
} cli_own[] = {
    {"trace", 'o', EDAN_VALUE_OUTPUT, "record dot", STORE_STRING, FIELD(trace_out), 0, false, NULL},
    {"image", 0, EDAN_VALUE_OUTPUT, "dot", STORE_STRING, FIELD(image), 0, false, NULL},
    {"program-output", 0, EDAN_VALUE_OUTPUT, TRACING_COMMANDS, STORE_STRING, FIELD(program_output), 0, false,
     check_program_output},
    {"list", 0, EDAN_VALUE_INPUT, "rank", STORE_STRING, FIELD(list_file), 0, false, NULL},
    {"qemu", 0, EDAN_VALUE_INPUT, TRACING_COMMANDS, STORE_STRING, FIELD(qemu), 0, false, NULL},
    {"sysroot", 0, EDAN_VALUE_INPUT, TRACING_COMMANDS, STORE_STRING, FIELD(sysroot), 0, false, NULL},
    {"plugin", 0, EDAN_VALUE_INPUT, TRACING_COMMANDS, STORE_STRING, FIELD(plugin), 0, false, NULL},
    {"env", 0, EDAN_VALUE, TRACING_COMMANDS, STORE_ENV, FIELD(env), 0, true, check_env},
    {"pass-env", 0, EDAN_FLAG, TRACING_COMMANDS, STORE_BOOL, FIELD(pass_env), 1, false, NULL},
    {"real-path", 0, EDAN_FLAG, TRACING_COMMANDS, STORE_BOOL, FIELD(real_path), 1, false, NULL},
    {"ignore-exit", 0, EDAN_FLAG, TRACING_COMMANDS, STORE_BOOL, FIELD(ignore_exit), 1, false, NULL},
    {"text", 0, EDAN_FLAG, "record convert", STORE_INT, FIELD(text_trace), 1, false, NULL},
    {"binary", 0, EDAN_FLAG, "convert", STORE_INT, FIELD(text_trace), 0, false, NULL},
    {"help", 'h', EDAN_FLAG, "run record analyze convert dot rank annotate locality machines", STORE_BOOL, FIELD(help),
     1, false, NULL},
    {"memgaze-table", 0, EDAN_FLAG, "locality memgaze-table", STORE_NONE, 0, 0, false, NULL},
    {"period", 0, EDAN_VALUE, "memgaze-table", STORE_STRING, FIELD(period), 0, false, NULL},
    {"load-classes", 0, EDAN_VALUE_INPUT, "memgaze-table", STORE_STRING, FIELD(load_classes), 0, false, NULL},
    {"hpcstruct", 0, EDAN_VALUE_INPUT, "memgaze-table", STORE_STRING, FIELD(hpcstruct), 0, false, NULL},
    {"output", 'o', EDAN_VALUE_OUTPUT, "memgaze-table", STORE_STRING, FIELD(table_output), 0, false, NULL},
    {"functions-output", 0, EDAN_VALUE_OUTPUT, "memgaze-table", STORE_STRING, FIELD(functions_output), 0, false, NULL},
};

/* The options of options.c and of the tools whose values add up; the others that take a value are given once. */
static const char *const session_adds = "cache cost filter functions";

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

/* How a command is named in messages: "memgaze-table" is edan locality --memgaze-table. */
static const char *shown_command(const char *sub)
{
    return strcmp(sub, "memgaze-table") ? sub : "locality";
}

static void declare_file_option(const char *sub, const char *key, const char *value)
{
    char what[80];
    snprintf(what, sizeof what, "--%s", key);
    edan_error err = {0};
    if (edan_output_declare(value, what, &err))
        cli_die(2, "%s: %s", shown_command(sub), err.msg);
}

static void note_input_option(const char *sub, const char *key, const char *path)
{
    char what[80];
    snprintf(what, sizeof what, "--%s", key);
    edan_error err = {0};
    if (edan_input_note(path, what, &err))
        cli_die(2, "%s: %s", shown_command(sub), err.msg);
}

static bool in_words(const char *list, const char *w);

/* The row of the command line's own option key that command sub takes, or NULL. */
static const struct own_option *own_row(const char *sub, const char *key)
{
    for (size_t i = 0; i < sizeof cli_own / sizeof cli_own[0]; i++)
        if (!strcmp(cli_own[i].name, key) && in_words(cli_own[i].commands, sub))
            return &cli_own[i];
    return NULL;
}

const char *cli_short_option(const char *sub, char ch)
{
    const char *any = NULL;
    for (size_t i = 0; i < sizeof cli_own / sizeof cli_own[0]; i++)
        if (ch && cli_own[i].short_name == ch) {
            if (in_words(cli_own[i].commands, sub))
                return cli_own[i].name;
            any = any ? any : cli_own[i].name;
        }
    return any;
}

bool cli_is_option(const char *sub, const char *arg, const char *name)
{
    if (arg[0] != '-')
        return false;
    if (arg[1] != '-') {
        const char *s = arg[1] && !arg[2] ? cli_short_option(sub, arg[1]) : NULL;
        return s && !strcmp(s, name) && own_row(sub, s);
    }
    return !strcmp(arg + 2, name);
}

int cli_option_takes_value(const char *sub, const char *key)
{
    const struct own_option *r = own_row(sub, key);
    return r ? r->kind != EDAN_FLAG : edan_session_option_takes_value(key);
}

int cli_option_repeat(const char *sub, const char *key)
{
    const struct own_option *r = own_row(sub, key);
    if (r)
        return r->kind == EDAN_FLAG ? CLI_REPEAT_AGAIN : r->adds ? CLI_REPEAT_ADDS : CLI_REPEAT_ONCE;
    const int takes = edan_session_option_takes_value(key);
    return takes == 0 ? CLI_REPEAT_AGAIN : in_words(session_adds, key) ? CLI_REPEAT_ADDS : CLI_REPEAT_ONCE;
}

static bool check_program_output(const char *shown, const char *value)
{
    if (!*value)
        cli_die(2, "%s: --program-output needs stdout, stderr or a file", shown);
    return strcmp(value, "stdout") && strcmp(value, "stderr");
}

static bool check_env(const char *shown, const char *value)
{
    const char *eq = strchr(value, '=');
    if (!eq || eq == value ||
        strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != (size_t)(eq - value))
        cli_die(2, "%s: --env=%s is not NAME=VALUE", shown, value);
    if (strchr(value, ','))
        cli_die(2, "%s: --env=%s: QEMU cannot pass a value with a comma", shown, value);
    return false;
}

void cli_store_option(cli *c, const char *sub, const char *key, const char *value)
{
    const char *shown = shown_command(sub);
    const struct own_option *r = own_row(sub, key);
    const bool again =
        r ? r->store == STORE_STRING && *(const char **)((char *)c + r->field) : edan_options_last(&c->o, key) != NULL;
    if (again && cli_option_repeat(sub, key) == CLI_REPEAT_ONCE) {
        char shorter[8] = "";
        if (r && r->short_name)
            snprintf(shorter, sizeof shorter, "-%c/", r->short_name);
        cli_die(2, "%s: %s--%s given twice (it takes one value)", shown, shorter, key);
    }
    if (!r) {
        if (!strcmp(key, "machine") && value)
            value = cli_machine_path(value); /* a shipped machine by name */
        edan_error err = {0};
        if (edan_session_option_set(&c->o, key, value, &err))
            cli_die(2, "%s: %s", shown, err.msg);
        return;
    }
    if (r->kind == EDAN_FLAG && value)
        cli_die(2, "%s: --%s takes no value", shown, key);
    const bool names_file = r->kind != EDAN_FLAG && (!r->check || r->check(shown, value));
    char *at = (char *)c + r->field;
    switch (r->store) {
    case STORE_STRING:
        *(const char **)at = value;
        break;
    case STORE_BOOL:
        *(bool *)at = r->set;
        break;
    case STORE_INT:
        *(int *)at = r->set;
        break;
    case STORE_ENV:
        if (c->n_env == (int)(sizeof c->env / sizeof c->env[0]))
            cli_die(2, "%s: more than %d --env options", shown, (int)(sizeof c->env / sizeof c->env[0]));
        c->env[c->n_env++] = value;
        break;
    default:
        break;
    }
    if (names_file && r->kind == EDAN_VALUE_INPUT)
        note_input_option(sub, key, value);
    else if (names_file && r->kind != EDAN_VALUE)
        declare_file_option(sub, key, value);
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

/*
 * An option's row: its name, kind (as a word), the commands that take it,
 * what a second one does ("once": an error; "adds": its value adds to the
 * first's; "again": a flag, the same as once) and its short name.
 */
static void print_option(FILE *f, const char *name, int kind, const char *commands)
{
    static const char *const repeats[] = {"once", "adds", "again"};
    char sub[32];
    snprintf(sub, sizeof sub, "%.*s", (int)strcspn(commands, " "), commands);
    const struct own_option *r = own_row(sub, name);
    fprintf(f, "{\"option\":\"%s\",\"kind\":\"%s\",", name, kind_name(kind));
    print_words(f, "commands", commands);
    fprintf(f, ",\"repeat\":\"%s\"", repeats[cli_option_repeat(sub, name)]);
    if (r && r->short_name)
        fprintf(f, ",\"short\":\"%c\"", r->short_name);
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
