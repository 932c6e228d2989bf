/*
 * base.c - what a tool reads of its session: the session's base (base.h),
 * which the session (tool/session.c) keeps as its first member.
 */
#include "tool/base/base.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "isa/native.h"
#include "report/plot.h"

/* A session begins with its base (a pointer to a struct is one to its first member; session.c asserts it). */
static const edan_session_base *base(const edan_session *s)
{
    return (const edan_session_base *)(const void *)s;
}

bool edan_session_functions(const edan_session *s, edan_elf *out)
{
    const char *binary = base(s)->src.binary;
    edan_error ignored = {0};
    memset(out, 0, sizeof *out);
    if (!binary || !*binary || edan_elf_open(binary, out, &ignored))
        return false;
    if (!edan_elf_linked_pcs(out)) {
        edan_elf_close(out);
        return false;
    }
    bool named = false;
    edan_session_name_objects(s, out, &named);
    return true;
}

void edan_session_name_objects(const edan_session *s, edan_elf *elf, bool *named)
{
    if (*named)
        return;
    *named = true;
    edan_error ignored = {0}; /* out of memory: the objects' code stays unnamed */
    edan_elf_add_objects(elf, base(s)->src.objects, &ignored);
}

edan_srcmap *edan_session_srcmap(const edan_session *s)
{
    const char *binary = base(s)->src.binary;
    edan_error ignored = {0};
    edan_srcmap *m = binary && *binary ? edan_srcmap_open(binary, &ignored) : NULL;
    if (m)
        edan_srcmap_add_objects(m, base(s)->src.objects, &ignored);
    return m;
}

void edan_session_source_name(const edan_session *s, bool strip_ext, char *buf, size_t cap)
{
    const edan_report_source *src = &base(s)->src;
    const bool trace = src->path && *src->path;
    const char *from = trace ? src->path : src->binary && *src->binary ? src->binary : "program";
    const char *slash = strrchr(from, '/');
    snprintf(buf, cap, "%s", slash ? slash + 1 : from);
    char *dot = trace && strip_ext ? strrchr(buf, '.') : NULL;
    if (dot && dot != buf)
        *dot = '\0';
}

void edan_session_file_base(const edan_session *s, char *buf, size_t cap)
{
    const edan_session_base *b = base(s);
    edan_session_source_name(s, true, buf, cap);
    size_t n = strlen(buf);
    for (int f = 0; f < b->o.n_filter && n + 2 < cap; f++) {
        buf[n++] = f ? '+' : '-';
        /* "ns::fn(int, double)" -> "ns__fn": the name, not its parameters; at most 48 characters of each */
        for (const char *c = b->o.filter[f]; *c && *c != '(' && n + 1 < cap && c - b->o.filter[f] < 48; c++)
            buf[n++] = isalnum((unsigned char)*c) || strchr("._-", *c) ? *c : '_';
        buf[n] = '\0';
    }
}

void edan_session_plot_ident(const edan_session *s, char *buf, size_t cap)
{
    const edan_session_base *b = base(s);
    char prog[256];
    edan_session_source_name(s, false, prog, sizeof prog);
    size_t n = (size_t)snprintf(buf, cap, "%s, region ", prog);
    for (int f = 0; f < b->o.n_filter && n < cap; f++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", f ? " + " : "", b->o.filter[f]);
    if (!b->o.n_filter && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "whole program");
    const char *machine = edan_options_last(&b->o, "machine"), *cache = edan_options_last(&b->o, "cache");
    if (n >= cap)
        return;
    if (machine) {
        char name[256];
        edan_plot_machine_name(machine, name, sizeof name);
        snprintf(buf + n, cap - n, ", machine %s", name);
    } else
        snprintf(buf + n, cap - n, cache ? ", cache %s" : ", default model", cache);
}

const edan_options *edan_session_options(const edan_session *s)
{
    return &base(s)->o;
}

const edan_report_source *edan_session_source(const edan_session *s)
{
    return &base(s)->src;
}

void *edan_session_instance(const edan_session *s, const edan_tool_def *def)
{
    const edan_session_base *b = s ? base(s) : NULL;
    for (int i = 0; b && i < b->n; i++)
        if (b->def[i] == def)
            return b->tool[i];
    return NULL;
}

/* ===================================================================== */
/* A tool's section from its result tables                                */
/* ===================================================================== */

void edan_tool_report(const edan_tool_def *def, void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    edan_tool_results x;
    if (!def->results) {
        if (def->report)
            def->report(tool, s, fmt, f);
    } else if (fmt == EDAN_FORMAT_TABLE) {
        return;
    } else if (def->results(tool, s, &x)) {
        const char *path = def->tables->path, *dot = strchr(path, '.');
        const int len = dot ? (int)(dot - path) : (int)strlen(path);
        fprintf(f, fmt == EDAN_FORMAT_JSON ? ",\"%.*s\":null" : "\n%.*s: out of memory\n", len, path);
    } else {
        for (size_t i = 0; i < x.n; i++)
            x.r[i].view.wide = edan_session_options(s)->wide;
        if (fmt == EDAN_FORMAT_TEXT)
            edan_results_text(f, x.r, x.n);
        else
            edan_results_json(f, x.r, x.n);
        def->free_results(x.own);
    }
}

int edan_tool_outputs(const edan_tool_def *def, void *tool, const edan_session *s, edan_error *err)
{
    edan_tool_results x;
    const char *dir = edan_session_options(s)->csv_dir;
    if (def->results && dir[0]) {
        if (def->results(tool, s, &x)) {
            edan_error_set(err, "out of memory for the %s tool's tables", def->name);
            return -1;
        }
        char name[1100];
        edan_session_file_base(s, name, sizeof name);
        const int rc = edan_results_csv(x.r, x.n, dir, name, err);
        def->free_results(x.own);
        if (rc)
            return -1;
    }
    return def->outputs ? def->outputs(tool, s, err) : 0;
}
