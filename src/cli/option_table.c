/*
 * option_table.c - the command line's own options that name files, and
 * every option's kind as one table (edan help --option-table), from which
 * the hostile-input tests try every output against every input.
 */
#include <string.h>

#include "cli/cli.h"
#include "tool/tool.h"
#include "util/files.h"

/* Commands that take the analysis options (config/options.c and every tool's). */
#define SESSION_COMMANDS "run record analyze dot rank annotate locality"
#define TRACING_COMMANDS "run record rank annotate locality"

/* Options the command line parses itself (edan.c, cmd_locality.c) that name files; the rest are in options.c. */
static const struct {
    const char *name;
    int kind;
    const char *commands;
} cli_files[] = {
    {"trace", EDAN_VALUE_OUTPUT, "record dot"}, /* also -o */
    {"image", EDAN_VALUE_OUTPUT, "dot"},
    {"program-output", EDAN_VALUE_OUTPUT, TRACING_COMMANDS},
    {"list", EDAN_VALUE_INPUT, "rank"},
    {"qemu", EDAN_VALUE_INPUT, TRACING_COMMANDS},
    {"sysroot", EDAN_VALUE_INPUT, TRACING_COMMANDS},
    {"plugin", EDAN_VALUE_INPUT, TRACING_COMMANDS},
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
    for (size_t i = 0; i < sizeof cli_files / sizeof cli_files[0]; i++) {
        if (strcmp(cli_files[i].name, key) || cli_files[i].kind != EDAN_VALUE_OUTPUT)
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

void cli_print_option_table(FILE *f)
{
    int kind;
    for (int i = 0; edan_options_table(i, &kind); i++)
        print_option(f, edan_options_table(i, &kind), kind, SESSION_COMMANDS);
    for (int t = 0; t < edan_n_tools; t++)
        for (const edan_tool_option *op = edan_tools[t]->options; op && op->name; op++)
            print_option(f, op->name, op->takes_value, SESSION_COMMANDS);
    for (size_t i = 0; i < sizeof cli_files / sizeof cli_files[0]; i++)
        print_option(f, cli_files[i].name, cli_files[i].kind, cli_files[i].commands);
    for (size_t i = 0; i < sizeof positional / sizeof positional[0]; i++) {
        fprintf(f, "{\"command\":\"%s\",", positional[i].command);
        print_words(f, "positional", positional[i].inputs);
        fputc(',', f);
        print_words(f, "positional_outputs", positional[i].outputs);
        fputs("}\n", f);
    }
}
