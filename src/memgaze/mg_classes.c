/*
 * mg_classes.c - MemGaze's load classes (see mg_classes.h): an open-addressing
 * table from instruction address to class and skipped-load count.
 */
#include "memgaze/mg_classes.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "memgaze/mg_text.h"

typedef struct slot {
    uint64_t ip;
    uint32_t skipped;
    int8_t cls;    /* an edan_mg_class */
    bool used;     /* ip 0 is a valid key, so emptiness is a flag */
    uint64_t line; /* where it was listed, for the message about a second listing */
} slot;

struct edan_mg_classes {
    slot *tab; /* power-of-two capacity, at most half full */
    size_t cap, n;
};

static size_t hash_ip(uint64_t ip)
{
    ip ^= ip >> 33;
    ip *= 0xff51afd7ed558ccdull;
    ip ^= ip >> 33;
    return (size_t)ip;
}

static slot *find_slot(slot *tab, size_t cap, uint64_t ip)
{
    size_t i = hash_ip(ip) & (cap - 1);
    while (tab[i].used && tab[i].ip != ip)
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

static int grow(edan_mg_classes *c)
{
    size_t cap = c->cap ? 2 * c->cap : 1024;
    slot *tab = calloc(cap, sizeof *tab);
    if (!tab)
        return -1;
    for (size_t i = 0; i < c->cap; i++)
        if (c->tab[i].used)
            *find_slot(tab, cap, c->tab[i].ip) = c->tab[i];
    free(c->tab);
    c->tab = tab;
    c->cap = cap;
    return 0;
}

/* One line split into n fields; 0, or -1 with err. */
static int add_line(edan_mg_classes *c, const edan_mg_lines *in, char **f, int n, edan_error *err)
{
    char q[48];
    uint64_t ip, cls, disp, scale, skipped;
    if (n < 5) {
        edan_mg_lines_fail(in, err,
                           "%d fields, expected 'IP CLASS DISP SCALE SKIPPED [ROUTINE]': the line is cut short", n);
        return -1;
    }
    if (edan_mg_parse_hex(f[0], &ip)) {
        edan_mg_lines_fail(in, err, "IP '%s' is not a hexadecimal number of at most 64 bits", edan_mg_quote(f[0], q));
        return -1;
    }
    if (edan_mg_parse_dec(f[1], 255, &cls) || (cls != 0 && cls != 1 && cls != 2 && cls != 90)) {
        edan_mg_lines_fail(in, err, "CLASS '%s' is none of 0 (constant), 1 (strided), 2 (irregular), 90 (store)",
                           edan_mg_quote(f[1], q));
        return -1;
    }
    if (edan_mg_parse_hex(f[2], &disp) || edan_mg_parse_hex(f[3], &scale)) {
        int bad = edan_mg_parse_hex(f[2], &disp) ? 2 : 3;
        edan_mg_lines_fail(in, err, "%s '%s' is not a hexadecimal number of at most 64 bits",
                           bad == 2 ? "DISP" : "SCALE", edan_mg_quote(f[bad], q));
        return -1;
    }
    if (edan_mg_parse_hex(f[4], &skipped) || skipped > EDAN_MG_MAX_SKIPPED) {
        edan_mg_lines_fail(in, err, "SKIPPED '%s' is not a hexadecimal count of at most 0x%x", edan_mg_quote(f[4], q),
                           EDAN_MG_MAX_SKIPPED);
        return -1;
    }
    if ((c->n + 1) * 2 > c->cap && grow(c)) {
        edan_mg_lines_fail(in, err, "out of memory");
        return -1;
    }
    slot *s = find_slot(c->tab, c->cap, ip);
    if (s->used) {
        if (s->cls != (int8_t)cls || s->skipped != (uint32_t)skipped) {
            edan_mg_lines_fail(in, err, "IP 0x%llx listed again with another class or count (first on line %llu)",
                               (unsigned long long)ip, (unsigned long long)s->line);
            return -1;
        }
        return 0;
    }
    *s = (slot){.ip = ip, .skipped = (uint32_t)skipped, .cls = (int8_t)cls, .used = true, .line = in->line};
    c->n++;
    return 0;
}

static edan_mg_classes *read_all(edan_mg_lines *in, edan_error *err)
{
    edan_mg_classes *c = calloc(1, sizeof *c);
    if (!c || grow(c)) {
        edan_error_set(err, "%s: out of memory", in->name);
        free(c);
        edan_mg_lines_close(in);
        return NULL;
    }
    char *line, *f[6];
    size_t len;
    int got;
    while ((got = edan_mg_lines_next(in, &line, &len, err)) > 0) {
        int n = edan_mg_split(line, f, 5);
        if (n == 0)
            continue; /* a blank line */
        if (add_line(c, in, f, n > 5 ? 5 : n, err)) {
            got = -1;
            break;
        }
    }
    if (got == 0 && c->n == 0) {
        edan_error_set(err, "%s: no load classes in the file", in->name);
        got = -1;
    }
    edan_mg_lines_close(in);
    if (got < 0) {
        edan_mg_classes_free(c);
        return NULL;
    }
    return c;
}

edan_mg_classes *edan_mg_classes_load(const char *path, edan_error *err)
{
    edan_mg_lines in;
    if (edan_mg_lines_open(&in, path, EDAN_MG_CLASSES_MAX_LINE, err))
        return NULL;
    return read_all(&in, err);
}

edan_mg_classes *edan_mg_classes_load_file(FILE *f, const char *name, edan_error *err)
{
    edan_mg_lines in;
    if (edan_mg_lines_open_file(&in, f, name, EDAN_MG_CLASSES_MAX_LINE, err))
        return NULL;
    return read_all(&in, err);
}

edan_mg_class edan_mg_classes_find(const edan_mg_classes *c, uint64_t ip, uint32_t *skipped)
{
    const slot *s = find_slot(c->tab, c->cap, ip);
    if (!s->used) {
        *skipped = 0;
        return EDAN_MG_UNKNOWN;
    }
    *skipped = s->skipped;
    return (edan_mg_class)s->cls;
}

size_t edan_mg_classes_count(const edan_mg_classes *c)
{
    return c->n;
}

void edan_mg_classes_free(edan_mg_classes *c)
{
    if (!c)
        return;
    free(c->tab);
    free(c);
}
