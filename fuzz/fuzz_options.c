/*
 * fuzz_options.c - libFuzzer target for the options: every line of the
 * input ("key=value" or "key") is given to edan_session_option_set(), as
 * the command line and the plugin do. Whatever the bytes, nothing may
 * crash, overflow or leak; options that were accepted must survive the
 * trip to the plugin (edan_options_write, then edan_options_read) exactly;
 * their configurations and cache labels must be made, and a report made
 * with them (an empty stream, text or JSON) written, without a fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/options.h"
#include "tool/session.h"
#include "util/files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The options file goes through a real file, as it does to the plugin. */
static char path[64];

static void report(const edan_options *o)
{
    /* the report's own members and the footprint tool's; the eDAG tool's shadow memory costs more to make than
     * a fuzzer's input should, so its configurations are checked and their labels formatted instead */
    static const char *const only[] = {"footprint", NULL};
    edan_edag_config cfg;
    edan_error cfg_err = {0};
    if (!edan_options_edag_config(o, &cfg, &cfg_err)) {
        char label[512];
        for (int k = 0; k < cfg.n_lanes; k++)
            edan_cache_config_format(&cfg.lane[k].cache, label, sizeof label);
    }
    edan_error err = {0};
    const edan_report_source src = {"trace", "fuzz", NULL, "", false, {0}, false, 0, NULL, false};
    edan_options one = *o;
    one.threads = 1; /* no lane-group threads to start and stop for every input */
    edan_session *s = edan_session_new(&one, only, &src, &err);
    if (!s)
        return;
    edan_session_finish(s, &err);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        edan_session_report(s, f, &err);
        fclose(f);
    }
    free(buf);
    edan_session_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/edan_fuzz_options_%d", (int)getpid());
    static edan_options o, back;
    edan_files_forget(); /* each input is one command: the outputs it names are declared afresh */
    edan_options_default(&o);
    char line[1024];
    size_t i = 0;
    while (i < size) {
        size_t n = 0;
        while (i < size && data[i] != '\n' && n < sizeof line - 1)
            line[n++] = (char)data[i++];
        i++;
        line[n] = '\0';
        if (strlen(line) != n) /* a NUL byte: no option on the command line holds one */
            continue;
        char *eq = strchr(line, '=');
        if (eq)
            *eq = '\0';
        edan_error err = {0};
        edan_session_option_set(&o, line, eq ? eq + 1 : NULL, &err);
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    int rc = edan_options_write(&o, f);
    if (fclose(f) || rc)
        return 0;
    edan_options_default(&back);
    edan_files_forget(); /* the plugin reads the file in QEMU's process, where no output was declared yet */
    edan_error err = {0};
    if (edan_options_read(&back, path, edan_session_option_set, &err) || back.n_raw != o.n_raw)
        abort(); /* accepted options must read back */
    for (int k = 0; k < o.n_raw; k++)
        if (strcmp(back.raw_key[k], o.raw_key[k]) ||
            strcmp(edan_options_raw_value(&back, k), edan_options_raw_value(&o, k)) ||
            back.raw_flag[k] != o.raw_flag[k])
            abort();
    unlink(path);
    report(&o);
    return 0;
}
