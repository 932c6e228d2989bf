/*
 * options.h - analysis, output and tracing options, shared by the command
 * line and the QEMU plugin (which receives them in a file, one key=value per
 * line, so that online analysis parses exactly what the command line parsed).
 */
#ifndef EDAN_CONFIG_OPTIONS_H
#define EDAN_CONFIG_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/edag/edag.h"
#include "analysis/metrics/metrics.h"
#include "util/error.h"

#define EDAN_MAX_CACHES 16
#define EDAN_MAX_ALPHAS 8
#define EDAN_MAX_FILTER 32
#define EDAN_MAX_RAW 64               /* options given, in all */
#define EDAN_OPTIONS_TEXT (64u << 10) /* characters of their values, in all */

typedef struct edan_options {
    /* analysis */
    int n_cache;
    edan_cache_config cache[EDAN_MAX_CACHES];
    bool cache_of_machine[EDAN_MAX_CACHES]; /* --cache=machine: the data caches of --machine's file */
    int n_alpha;
    uint64_t alpha[EDAN_MAX_ALPHAS];
    edan_cost_model cost;
    edan_metrics_params metrics;
    bool false_deps;
    edan_bytes_mode bytes_mode;
    int n_tau;
    uint64_t tau[EDAN_MAX_TAUS];
    int threads; /* threads sharing a sweep's lanes: 0 = one per core */
    /* output */
    bool json;
    bool table;           /* the case-study table of the paper's Tables 1 and 2 */
    bool wide;            /* text tables print names whole (report/names.h shortens them otherwise) */
    char series_csv[512]; /* write data movement series here */
    char output[512];     /* report destination; empty = stdout */
    char plot_dir[512];   /* write plots (gnuplot) here; empty = none */
    char csv_dir[512];    /* write the tools' tables as CSV files here; empty = none */
    char html[512];       /* write the self-contained HTML report here (report/html.h); empty = none */
    /* tracing */
    int n_filter;
    char filter[EDAN_MAX_FILTER][512]; /* a C++ signature can be long */
    bool exclude_callees;
    bool cold; /* --cold: a filtered region starts with empty caches and predictor (else warm: docs/model.md) */
    bool no_kernel_writes; /* --no-kernel-writes: the tracer leaves out what system calls write (docs/model.md) */
    bool across_samples;   /* a sampled trace's samples as one stream (trace/exec.h, EDAN_EXEC_SAMPLE_START) */
    char trace_format[16]; /* "binary" or "text" for record */
    int progress;          /* -1 auto (stderr is a terminal), 0 off, 1 on */
    /*
     * Every option applied, in order, so the plugin can replay them; the
     * options of the analysis tools (tool/base/base.h) live only here, and each
     * tool reads its own (edan_options_each).
     */
    int n_raw;
    char raw_key[EDAN_MAX_RAW][32];
    uint32_t raw_at[EDAN_MAX_RAW]; /* its value: edan_options_raw_value() */
    bool raw_flag[EDAN_MAX_RAW];   /* given without a value */
    /* the values, one after another: no value has a length limit of its own, only all of them together */
    uint32_t raw_used;
    char raw_text[EDAN_OPTIONS_TEXT];
    bool cache_given, alpha_given;
} edan_options;

void edan_options_default(edan_options *o);

/*
 * Set one option by its long name without dashes ("cache", "m", "alpha",
 * ...). value is NULL for flags. Returns 0, or -1 with a message.
 * Returns 1 if the key is not an option of this module (callers then try
 * their own).
 */
int edan_options_set(edan_options *o, const char *key, const char *value, edan_error *err);
/* Does this key take a value? (-1 if unknown) */
int edan_options_takes_value(const char *key);
/*
 * What an option's value is, as the option tables (this file's and each
 * tool's edan_tool_option) declare it: a flag takes none, EDAN_VALUE any
 * value, and the rest name a file the command reads (INPUT) or writes
 * (OUTPUT, OUTPUT_DIR: files in that directory). Outputs are declared to
 * util/files.h as they are set, so none can be an input; 'edan help
 * --option-table' lists them, and the hostile-input tests try every output
 * against every input.
 */
enum { EDAN_FLAG = 0, EDAN_VALUE = 1, EDAN_VALUE_INPUT = 2, EDAN_VALUE_OUTPUT = 3, EDAN_VALUE_OUTPUT_DIR = 4 };
/* The kind above of this module's option key, -1 if unknown. */
int edan_options_value_kind(const char *key);
/* The i-th option of this module: its name and kind, or NULL past the last. */
const char *edan_options_table(int i, int *kind);
/*
 * Record an option that another module (an analysis tool) defines and has
 * checked: it is kept in the raw list only. value is NULL for a flag.
 * Returns 0, or -1 when the list is full or the value too long.
 */
int edan_options_add_raw(edan_options *o, const char *key, const char *value, edan_error *err);
/*
 * Call fn for every option named key, in the order given (value NULL for a
 * flag); the number of calls.
 */
int edan_options_each(const edan_options *o, const char *key, void (*fn)(void *ctx, const char *value), void *ctx);
/* The value of the k-th option given ("" for a flag), 0 <= k < o->n_raw. */
const char *edan_options_raw_value(const edan_options *o, int k);
/* The value the option named key was given last ("" for a flag), or NULL when it was not given. */
const char *edan_options_last(const edan_options *o, const char *key);

/* Lanes: every cache configuration crossed with every alpha. */
int edan_options_edag_config(const edan_options *o, edan_edag_config *cfg, edan_error *err);

/* Write the options as lines "key" or "key=value", values percent-encoded (for the plugin). */
int edan_options_write(const edan_options *o, FILE *f);
/*
 * Read such a file, setting each line's option with set (which returns 0,
 * -1 with a message, or 1 for an unknown key, as edan_options_set does;
 * NULL: edan_options_set). 0, or -1 with err naming the file and line.
 */
typedef int (*edan_option_setter)(edan_options *o, const char *key, const char *value, edan_error *err);
int edan_options_read(edan_options *o, const char *path, edan_option_setter set, edan_error *err);

/* Help text for the analysis and output options (the tools' own options: tool/session.h). */
void edan_options_help(FILE *f);

#endif
