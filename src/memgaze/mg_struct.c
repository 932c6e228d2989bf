/*
 * mg_struct.c - function ranges of an HPCToolkit structure file, as MemGaze
 * reads them (see mg_struct.h).
 */
#include "memgaze/mg_struct.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "memgaze/mg_text.h"

typedef struct func {
    uint64_t start;
    char *name;
    uint64_t order; /* position in the file: of two with one start, the first is kept */
} func;

struct edan_mg_struct {
    func *f;
    size_t n, cap;
};

void edan_mg_struct_free(edan_mg_struct *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->f[i].name);
    free(s->f);
    free(s);
}

/* One <P ...> line; 0, or -1 with err. */
static int add_procedure(edan_mg_struct *s, const edan_mg_lines *in, const char *line, edan_error *err)
{
    const char *n = strstr(line, "n=\""), *v = strstr(line, "v=\"{[");
    if (!n || !v) {
        edan_mg_lines_fail(in, err, "a procedure <P> without %s", n ? "its address ranges v=\"{[...\"" : "n=\"...\"");
        return -1;
    }
    /* MemGaze: the name ends at the first '" ln="' of the line, or runs to its end */
    n += 3;
    const char *end = strstr(line, "\" ln=\"");
    size_t len = end && end >= n ? (size_t)(end - n) : strlen(n);
    /* the start: the hexadecimal digits after v="{[ ("0x" optional) */
    const char *p = v + 5;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    char digits[17];
    size_t k = 0;
    while (k < 16 && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')))
        digits[k++] = *p++;
    digits[k] = '\0';
    uint64_t start;
    if (!k || edan_mg_parse_hex(digits, &start) || ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) {
        edan_mg_lines_fail(in, err, "the procedure's address range does not start with a hexadecimal address");
        return -1;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        func *f = realloc(s->f, cap * sizeof *f);
        if (!f) {
            edan_mg_lines_fail(in, err, "out of memory");
            return -1;
        }
        s->f = f;
        s->cap = cap;
    }
    char *name = strndup(n, len);
    if (!name) {
        edan_mg_lines_fail(in, err, "out of memory");
        return -1;
    }
    s->f[s->n] = (func){start, name, s->n};
    s->n++;
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const func *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static edan_mg_struct *read_all(edan_mg_lines *in, edan_error *err)
{
    edan_mg_struct *s = calloc(1, sizeof *s);
    if (!s) {
        edan_error_set(err, "%s: out of memory", in->name);
        edan_mg_lines_close(in);
        return NULL;
    }
    bool inside = false;
    char *line;
    size_t len;
    int got;
    while ((got = edan_mg_lines_next(in, &line, &len, err)) > 0) {
        if (strstr(line, "<HPCToolkitStructure"))
            inside = true;
        else if (strstr(line, "</HPCToolkitStructure"))
            inside = false;
        else if (inside && strstr(line, "<P") && add_procedure(s, in, line, err))
            got = -1;
        if (got < 0)
            break;
    }
    if (got == 0 && s->n == 0) {
        edan_error_set(err, "%s: no procedure (<P ... v=\"{[...\">) inside <HPCToolkitStructure>", in->name);
        got = -1;
    }
    edan_mg_lines_close(in);
    if (got < 0) {
        edan_mg_struct_free(s);
        return NULL;
    }
    /* ascending starts; of equal ones the first listed stays (MemGaze's std::map::insert) */
    qsort(s->f, s->n, sizeof *s->f, by_start);
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (k && s->f[k - 1].start == s->f[i].start) {
            free(s->f[i].name);
            continue;
        }
        s->f[k++] = s->f[i];
    }
    s->n = k;
    return s;
}

edan_mg_struct *edan_mg_struct_load(const char *path, edan_error *err)
{
    edan_mg_lines in;
    if (edan_mg_lines_open(&in, path, EDAN_MG_STRUCT_MAX_LINE, err))
        return NULL;
    return read_all(&in, err);
}

edan_mg_struct *edan_mg_struct_load_file(FILE *f, const char *name, edan_error *err)
{
    edan_mg_lines in;
    if (edan_mg_lines_open_file(&in, f, name, EDAN_MG_STRUCT_MAX_LINE, err))
        return NULL;
    return read_all(&in, err);
}

size_t edan_mg_struct_count(const edan_mg_struct *s)
{
    return s->n;
}

const char *edan_mg_struct_name(const edan_mg_struct *s, size_t i)
{
    return i < s->n ? s->f[i].name : NULL;
}

uint64_t edan_mg_struct_start(const edan_mg_struct *s, size_t i)
{
    return i < s->n ? s->f[i].start : 0;
}

long edan_mg_struct_find(const edan_mg_struct *s, uint64_t ip)
{
    if (!s->n || ip < s->f[0].start || ip >= s->f[s->n - 1].start)
        return -1;
    /* the last start <= ip: binary search for the first start > ip */
    size_t lo = 0, hi = s->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->f[mid].start <= ip)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (long)lo - 1;
}
