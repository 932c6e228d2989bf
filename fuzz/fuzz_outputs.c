/*
 * fuzz_outputs.c - libFuzzer target for the machine-readable outputs: the
 * JSON report and the CSV files edan writes must be valid JSON and RFC 4180
 * CSV (fuzz/strict_check.h) whatever the trace's name, the program's name,
 * the options and the trace hold. Any invalid output aborts, with the
 * output and the reason on stderr.
 *
 * The input is five parts separated by NUL bytes:
 *
 *     NAME \0 PROGRAM \0 OPTIONS \0 MACHINE \0 TRACE
 *
 * NAME is the trace's path as the report shows it (and as the CSV files are
 * named after it): any bytes, control characters and invalid UTF-8 too.
 * PROGRAM is the traced program's path the report shows (a binary trace's
 * own program and filter are used when PROGRAM is empty); the tools are
 * created without it, as the plugin's session is, so no file of that name
 * is opened. OPTIONS are lines "key=value" or "key" given to
 * edan_session_option_set() as the command line does, except those that
 * name files to read or write: --machine (any value) selects a file holding
 * MACHINE (a machine file: its name and description reach the report and
 * the projection's CSV), or machines/gem5-validation.ini when MACHINE is
 * empty and the working directory has it; --series-csv, --csv-dir and --projection-csv (any value) write into the
 * target's own directory, and --output, --plot-dir, --dot, --cost-file,
 * --annotate, --per-function, --functions, --threads, --progress and
 * --table are ignored. TRACE is a binary trace (edan's magic) or a text
 * trace; its first 4096 records, up to any error, are analysed.
 *
 * make fuzz builds it with libFuzzer; linked with fuzz/replay_main.c it
 * replays fuzz/corpus_outputs as an ordinary test, under ASan/UBSan in the
 * sanitizer build.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/options.h"
#include "report/csv.h"
#include "strict_check.h"
#include "tool/session.h"
#include "trace/trace_file.h"
#include "trace/trace_format.h"
#include "trace/trace_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECORDS 4096
#define MACHINE "machines/gem5-validation.ini"

static char dir[64], csv_dir[96], series[96], projection[96], machine[96];
static const char *machine_file; /* for --machine: MACHINE's file, the repository's, or none */

static void remove_dir(void)
{
    rmdir(dir); /* its files are removed after every input */
}

static void setup(void)
{
    if (dir[0])
        return;
    snprintf(dir, sizeof dir, "/tmp/edan_fuzz_outputs_XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_dir);
    snprintf(csv_dir, sizeof csv_dir, "%s/csv", dir);
    snprintf(series, sizeof series, "%s/series.csv", dir);
    snprintf(projection, sizeof projection, "%s/projection.csv", dir);
    snprintf(machine, sizeof machine, "%s/machine.ini", dir);
}

/* The next NUL-terminated part of the input, copied (at most cap - 1 bytes kept). */
static const uint8_t *part(const uint8_t *p, const uint8_t *end, char *out, size_t cap)
{
    size_t n = 0;
    while (p < end && *p) {
        if (n < cap - 1)
            out[n++] = (char)*p;
        p++;
    }
    out[n] = '\0';
    return p < end ? p + 1 : p;
}

/* EDAN_FUZZ_VERBOSE set: what each input produced, on stderr. */
static bool verbose(void)
{
    static int v = -1;
    if (v < 0)
        v = getenv("EDAN_FUZZ_VERBOSE") != NULL;
    return v;
}

static bool ignored_key(const char *key)
{
    static const char *const keys[] = {"output",    "plot-dir", "dot",      "cost-file", "annotate", "per-function",
                                       "functions", "threads",  "progress", "table",     "json",     NULL};
    for (int i = 0; keys[i]; i++)
        if (!strcmp(key, keys[i]))
            return true;
    return false;
}

static void options_from(edan_options *o, char *text)
{
    for (char *line = text; line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *eq = strchr(line, '=');
        if (eq)
            *eq = '\0';
        const char *key = line, *value = eq ? eq + 1 : NULL;
        edan_error err = {0};
        if (!strcmp(key, "machine")) {
            if (machine_file)
                edan_session_option_set(o, "machine", machine_file, &err);
        } else if (!strcmp(key, "series-csv")) {
            edan_session_option_set(o, key, series, &err);
        } else if (!strcmp(key, "csv-dir")) {
            edan_session_option_set(o, key, csv_dir, &err);
        } else if (!strcmp(key, "projection-csv")) {
            edan_session_option_set(o, key, projection, &err);
        } else if (*key && !ignored_key(key)) {
            edan_session_option_set(o, key, value, &err);
        }
        if (err.set && verbose())
            fprintf(stderr, "fuzz_outputs: option %s: %s\n", key, err.msg);
        line = nl ? nl + 1 : NULL;
    }
}

static void invalid(const char *what, const char *path, const char *text, size_t len, const char *why)
{
    fprintf(stderr, "fuzz_outputs: %s%s%s is not valid: %s\n---\n", what, path ? " " : "", path ? path : "", why);
    fwrite(text, 1, len > 4096 ? 4096 : len, stderr);
    fprintf(stderr, "\n---\n");
    abort();
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = NULL;
    size_t cap = 0, n = 0, k;
    do {
        if (n == cap) {
            char *nb = realloc(b, cap = cap ? cap * 2 : 4096);
            if (!nb)
                break;
            b = nb;
        }
        k = fread(b + n, 1, cap - n, f);
        n += k;
    } while (k > 0);
    fclose(f);
    *len = n;
    return b;
}

/* Validate and remove every file the outputs left in d (a CSV file, or a directory of them). */
static int check_files(const char *d)
{
    DIR *dh = opendir(d);
    if (!dh)
        return 0;
    int files = 0;
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", d, e->d_name);
        struct stat st;
        if (lstat(path, &st))
            continue;
        if (S_ISDIR(st.st_mode)) {
            files += check_files(path);
            rmdir(path);
            continue;
        }
        size_t len = 0;
        char *text = slurp(path, &len);
        char why[512];
        size_t nl = strlen(e->d_name);
        if (text && nl > 4 && !strcmp(e->d_name + nl - 4, ".csv") && strict_csv(text, len, why, sizeof why))
            invalid("CSV file", path, text, len, why);
        free(text);
        unlink(path);
        files++;
    }
    closedir(dh);
    return files;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    bool checked = false;
    const uint8_t *p = data, *end = data + size;
    static char name[256], program[256], opts[8192], machine_text[16384];
    p = part(p, end, name, sizeof name);
    p = part(p, end, program, sizeof program);
    p = part(p, end, opts, sizeof opts);
    p = part(p, end, machine_text, sizeof machine_text);
    machine_file = NULL;
    if (machine_text[0]) {
        FILE *m = fopen(machine, "w");
        if (m) {
            int bad = fputs(machine_text, m) < 0;
            if (fclose(m) == 0 && !bad)
                machine_file = machine;
        }
    } else if (access(MACHINE, R_OK) == 0) {
        machine_file = MACHINE;
    }

    static edan_options o;
    edan_options_default(&o);
    options_from(&o, opts);
    o.json = true;
    o.table = false;
    o.threads = 1;

    /* the trace: binary when it starts with the magic, text otherwise */
    FILE *f = end > p ? fmemopen((void *)p, (size_t)(end - p), "rb") : fopen("/dev/null", "rb");
    if (!f)
        return 0;
    edan_error err = {0};
    const bool binary = end - p >= 7 && memcmp(p, EDAN_TRACE_MAGIC, 7) == 0;
    edan_trace_reader *br = binary ? edan_trace_reader_open_file(f, "fuzz.edt", &err) : NULL;
    edan_text_reader *tr = binary ? NULL : edan_text_reader_open_file(f, "fuzz.txt", &err);
    if (!br && !tr)
        return 0;
    const edan_trace_meta *meta = br ? edan_trace_reader_meta(br) : NULL;

    const edan_report_source create_src = {
        "trace", name, NULL, meta && meta->filter ? meta->filter : "", false, {0}, false, 0, NULL, false};
    edan_session *s = edan_session_new(&o, NULL, &create_src, &err);
    if (s) {
        edan_consumer c = edan_session_consumer(s);
        static edan_exec recs[MAX_RECORDS];
        long n, total = 0;
        while (total < MAX_RECORDS &&
               (n = br ? edan_trace_reader_next(br, recs, MAX_RECORDS - (size_t)total, &err)
                       : edan_text_reader_next(tr, recs, MAX_RECORDS - (size_t)total, &err)) > 0) {
            c.consume(c.ctx, recs, (size_t)n);
            total += n;
        }
        edan_error ferr = {0};
        if (edan_session_finish(s, &ferr) == 0) {
            /* the program's name the report shows, learnt after the tools were made (as the plugin's is) */
            edan_report_source shown = create_src;
            shown.binary = program[0] ? program : meta ? meta->binary : NULL;
            edan_session_set_source(s, &shown);
            char *json = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&json, &len);
            if (m) {
                edan_error rerr = {0};
                int rc = edan_session_report(s, m, &rerr);
                if (fclose(m) == 0 && rc == 0) {
                    char why[512];
                    if (strict_json(json, len, why, sizeof why))
                        invalid("the JSON report", NULL, json, len, why);
                    checked = true;
                    if (verbose())
                        fprintf(stderr, "fuzz_outputs: %.300s\n", json);
                }
                free(json);
            }
            edan_error oerr = {0};
            edan_session_outputs(s, &oerr);
        }
        edan_session_free(s);
    } else if (verbose()) {
        fprintf(stderr, "fuzz_outputs: no session: %s\n", err.msg);
    }
    /* the CSV writer every tool's table uses, given the names as fields: the tools' own string fields come from
     * the program's symbols and lines (function and file names), which these inputs cannot hold */
    edan_csv c;
    edan_error cerr = {0};
    if (edan_csv_open(&c, dir, "names", "fields", "name,program,filter", &cerr) == 0) {
        edan_csv_str(&c, name);
        edan_csv_str(&c, program);
        edan_csv_str(&c, meta && meta->filter ? meta->filter : NULL);
        edan_csv_end_row(&c);
        edan_csv_close(&c, &cerr);
    }
    /* the readers keep the static instructions the tools' results pointed at: closed after the session */
    edan_trace_reader_close(br);
    edan_text_reader_close(tr);
    int files = check_files(dir);
    if (verbose())
        fprintf(stderr, "fuzz_outputs: %s, %d files checked\n", checked ? "the JSON report checked" : "no report",
                files);
    return 0;
}
