/*
 * mg_trace.c - reader of MemGaze's load traces (see mg_trace.h).
 */
#include "memgaze/mg_trace.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "memgaze/mg_text.h"

/* Largest number of seconds whose nanoseconds (plus a fraction) fit 64 bits. */
#define MAX_SECONDS 18446744072ull
#define MAX_DSOS 65536

typedef struct dso_entry {
    char *name;
    int32_t id;
} dso_entry;

/* Where the reader is: before any line, in the DSO list, or among the loads. */
enum { SEC_START, SEC_DSO, SEC_LOADS };

struct edan_mg_trace {
    edan_mg_lines in;
    int section;
    bool failed;
    dso_entry *dso;
    size_t n_dso, cap_dso;
};

/* ---- opening ------------------------------------------------------------------ */

static edan_mg_trace *trace_new(edan_error *err, const char *name)
{
    edan_mg_trace *t = calloc(1, sizeof *t);
    if (!t)
        edan_error_set(err, "%s: out of memory", name);
    return t;
}

edan_mg_trace *edan_mg_trace_open(const char *path, edan_error *err)
{
    edan_mg_trace *t = trace_new(err, path);
    if (!t)
        return NULL;
    if (edan_mg_lines_open(&t->in, path, EDAN_MG_TRACE_MAX_LINE, err)) {
        free(t);
        return NULL;
    }
    return t;
}

edan_mg_trace *edan_mg_trace_open_file(FILE *f, const char *name, edan_error *err)
{
    edan_mg_trace *t = trace_new(err, name);
    if (!t) {
        fclose(f);
        return NULL;
    }
    if (edan_mg_lines_open_file(&t->in, f, name, EDAN_MG_TRACE_MAX_LINE, err)) {
        free(t);
        return NULL;
    }
    return t;
}

void edan_mg_trace_close(edan_mg_trace *t)
{
    if (!t)
        return;
    edan_mg_lines_close(&t->in);
    for (size_t i = 0; i < t->n_dso; i++)
        free(t->dso[i].name);
    free(t->dso);
    free(t);
}

size_t edan_mg_trace_dso_count(const edan_mg_trace *t)
{
    return t->n_dso;
}

const char *edan_mg_trace_dso(const edan_mg_trace *t, size_t i, int32_t *id)
{
    if (i >= t->n_dso)
        return NULL;
    if (id)
        *id = t->dso[i].id;
    return t->dso[i].name;
}

/* ---- fields of a load ----------------------------------------------------------- */

/* TIME: "sec" or "sec.frac", into nanoseconds. */
static int parse_time(const char *s, uint64_t *ns)
{
    uint64_t sec = 0;
    const char *p = s;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        sec = sec * 10 + (uint64_t)(*p - '0');
        if (sec > MAX_SECONDS)
            return -1;
    }
    uint64_t frac = 0;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return -1;
        int digits = 0;
        for (; *p >= '0' && *p <= '9'; p++)
            if (digits < 9) {
                frac = frac * 10 + (uint64_t)(*p - '0');
                digits++;
            }
        for (; digits < 9; digits++)
            frac *= 10;
    }
    if (*p)
        return -1;
    *ns = sec * 1000000000ull + frac;
    return 0;
}

static bool dso_known(const edan_mg_trace *t, int32_t id)
{
    for (size_t i = 0; i < t->n_dso; i++)
        if (t->dso[i].id == id)
            return true;
    return false;
}

/* A load line split into n fields; 0, or -1 with err. */
static int parse_load(edan_mg_trace *t, char **f, int n, edan_mg_load *out, edan_error *err)
{
    char q[48];
    uint64_t v;
    if (n < 5 || n > 6) {
        edan_mg_lines_fail(&t->in, err,
                           n < 5 ? "%d fields, expected 'IP ADDR CPU TIME SAMPLE': the line is cut short"
                                 : "%d fields or more, expected 'IP ADDR CPU TIME SAMPLE [DSO]'",
                           n);
        return -1;
    }
    if (edan_mg_parse_hex(f[0], &out->ip)) {
        edan_mg_lines_fail(&t->in, err, "IP '%s' is not a hexadecimal number of at most 64 bits",
                           edan_mg_quote(f[0], q));
        return -1;
    }
    if (edan_mg_parse_hex(f[1], &out->addr)) {
        edan_mg_lines_fail(&t->in, err, "ADDR '%s' is not a hexadecimal number of at most 64 bits",
                           edan_mg_quote(f[1], q));
        return -1;
    }
    if (edan_mg_parse_dec(f[2], UINT32_MAX, &v)) {
        edan_mg_lines_fail(&t->in, err, "CPU '%s' is not a number from 0 to %u", edan_mg_quote(f[2], q),
                           (unsigned)UINT32_MAX);
        return -1;
    }
    out->cpu = (uint32_t)v;
    if (parse_time(f[3], &out->time_ns)) {
        edan_mg_lines_fail(&t->in, err, "TIME '%s' is not 'seconds.fraction' (at most %llu seconds)",
                           edan_mg_quote(f[3], q), MAX_SECONDS);
        return -1;
    }
    if (edan_mg_parse_dec(f[4], INT32_MAX, &v)) {
        edan_mg_lines_fail(&t->in, err, "SAMPLE '%s' is not a number from 0 to %d", edan_mg_quote(f[4], q), INT32_MAX);
        return -1;
    }
    out->sample = (int32_t)v;
    out->dso = -1;
    if (n == 6) {
        bool none = !strcmp(f[5], "-1"); /* memgaze-xtrace-normalize writes -1 for a DSO it did not list */
        if (!none && edan_mg_parse_dec(f[5], INT32_MAX, &v)) {
            edan_mg_lines_fail(&t->in, err, "DSO '%s' is not a number from -1 to %d", edan_mg_quote(f[5], q),
                               INT32_MAX);
            return -1;
        }
        if (!none && t->n_dso && !dso_known(t, (int32_t)v)) {
            edan_mg_lines_fail(&t->in, err, "DSO %s is not in the DSO list of the header", f[5]);
            return -1;
        }
        out->dso = none ? -1 : (int32_t)v;
    }
    out->line = t->in.line;
    return 0;
}

/* ---- the header ----------------------------------------------------------------- */

static bool starts_with(const char *s, const char *prefix)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return !strncmp(s, prefix, strlen(prefix));
}

/* "NAME ID" of the DSO list; 0 or -1. */
static int add_dso(edan_mg_trace *t, char **f, int n, edan_error *err)
{
    char q[48];
    uint64_t v;
    if (n != 2) {
        edan_mg_lines_fail(&t->in, err,
                           "%d fields in the DSO list, expected 'NAME ID' (a 'TRACE:' line must end the list "
                           "before the loads)",
                           n);
        return -1;
    }
    if (edan_mg_parse_dec(f[1], INT32_MAX, &v)) {
        edan_mg_lines_fail(&t->in, err, "DSO id '%s' is not a number from 0 to %d", edan_mg_quote(f[1], q), INT32_MAX);
        return -1;
    }
    if (dso_known(t, (int32_t)v)) {
        edan_mg_lines_fail(&t->in, err, "DSO id %s is listed twice", f[1]);
        return -1;
    }
    if (t->n_dso == MAX_DSOS) {
        edan_mg_lines_fail(&t->in, err, "more than %d DSOs", MAX_DSOS);
        return -1;
    }
    if (t->n_dso == t->cap_dso) {
        size_t cap = t->cap_dso ? 2 * t->cap_dso : 8;
        dso_entry *d = realloc(t->dso, cap * sizeof *d);
        if (!d) {
            edan_mg_lines_fail(&t->in, err, "out of memory");
            return -1;
        }
        t->dso = d;
        t->cap_dso = cap;
    }
    char *name = strdup(f[0]);
    if (!name) {
        edan_mg_lines_fail(&t->in, err, "out of memory");
        return -1;
    }
    t->dso[t->n_dso].name = name;
    t->dso[t->n_dso++].id = (int32_t)v;
    return 0;
}

/* ---- reading ---------------------------------------------------------------------- */

long edan_mg_trace_next(edan_mg_trace *t, edan_mg_load *out, size_t cap, edan_error *err)
{
    if (t->failed) {
        edan_error_set(err, "%s: read after an error", t->in.name);
        return -1;
    }
    size_t n = 0;
    while (n < cap) {
        char *line, *f[8];
        size_t len;
        int got = edan_mg_lines_next(&t->in, &line, &len, err);
        if (got == 0)
            break;
        if (got < 0) {
            t->failed = true;
            return -1;
        }
        int ok = 0;
        if (starts_with(line, "DSO:")) {
            if (t->section != SEC_START) {
                edan_mg_lines_fail(&t->in, err, "a 'DSO:' header %s",
                                   t->section == SEC_DSO ? "inside the DSO list" : "after the first load");
                ok = -1;
            }
            t->section = SEC_DSO;
        } else if (starts_with(line, "TRACE:")) {
            if (t->section == SEC_LOADS) {
                edan_mg_lines_fail(&t->in, err, "a 'TRACE:' header after the first load");
                ok = -1;
            }
            t->section = SEC_LOADS;
        } else {
            int nf = edan_mg_split(line, f, 7);
            if (nf == 0)
                continue; /* a blank line */
            if (t->section == SEC_DSO) {
                ok = add_dso(t, f, nf, err);
            } else {
                t->section = SEC_LOADS;
                ok = parse_load(t, f, nf, &out[n], err);
                n += ok == 0;
            }
        }
        if (ok) {
            t->failed = true;
            return -1;
        }
    }
    if (n == 0 && t->section == SEC_DSO) {
        /* the end of the file inside the DSO list: no 'TRACE:' line, no loads */
        edan_error_set(err, "%s: the DSO list of the header is not followed by a 'TRACE:' line and loads", t->in.name);
        t->failed = true;
        return -1;
    }
    return (long)n;
}

/* ---- recognising a trace ------------------------------------------------------------ */

bool edan_mg_trace_sniff(const char *buf, size_t n)
{
    size_t i = 0;
    while (i < n && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
        i++;
    const char *line = buf + i;
    const size_t rest = n - i;
    if ((rest >= 4 && !memcmp(line, "DSO:", 4)) || (rest >= 6 && !memcmp(line, "TRACE:", 6)))
        return true;
    const char *end = memchr(line, '\n', rest);
    if (!end) /* a file of one line without its newline is not a trace MemGaze wrote */
        return false;
    char copy[256], *f[8];
    size_t len = (size_t)(end - line);
    if (len && line[len - 1] == '\r')
        len--;
    if (len >= sizeof copy || memchr(line, ';', len) || memchr(line, '\0', len))
        return false;
    memcpy(copy, line, len);
    copy[len] = 0;
    const int nf = edan_mg_split(copy, f, 7);
    uint64_t v, ns;
    return (nf == 5 || nf == 6) && !edan_mg_parse_hex(f[0], &v) && !edan_mg_parse_hex(f[1], &v) &&
           !edan_mg_parse_dec(f[2], UINT32_MAX, &v) && !parse_time(f[3], &ns) &&
           !edan_mg_parse_dec(f[4], INT32_MAX, &v);
}
