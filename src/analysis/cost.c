#include "analysis/cost.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const class_names[EDAN_CLASS_COUNT] = {
    [EDAN_CLASS_INT] = "int",   [EDAN_CLASS_MUL] = "mul",     [EDAN_CLASS_DIV] = "div",
    [EDAN_CLASS_FADD] = "fadd", [EDAN_CLASS_FMUL] = "fmul",   [EDAN_CLASS_FFMA] = "ffma",
    [EDAN_CLASS_FDIV] = "fdiv", [EDAN_CLASS_FSQRT] = "fsqrt", [EDAN_CLASS_BRANCH] = "branch",
    [EDAN_CLASS_LOAD] = "load", [EDAN_CLASS_STORE] = "store", [EDAN_CLASS_ATOMIC] = "atomic",
};

const char *edan_class_name(int cls)
{
    return cls >= 0 && cls < EDAN_CLASS_COUNT ? class_names[cls] : "?";
}

void edan_cost_default(edan_cost_model *c)
{
    for (int i = 0; i < EDAN_CLASS_COUNT; i++)
        c->cls[i] = 1;
    c->alpha = 200;
}

static int parse_u64(const char *s, uint64_t *out)
{
    if (!*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int edan_cost_set(edan_cost_model *c, const char *key, const char *value, edan_error *err)
{
    uint64_t v;
    if (parse_u64(value, &v) || v > (1ull << 40)) {
        edan_error_set(err, "cost '%s': '%s' is not a non-negative integer number of cycles", key, value);
        return -1;
    }
    if (!strcmp(key, "ram") || !strcmp(key, "alpha")) {
        c->alpha = v;
        return 0;
    }
    if (!strcmp(key, "hit")) {
        c->cls[EDAN_CLASS_LOAD] = c->cls[EDAN_CLASS_STORE] = c->cls[EDAN_CLASS_ATOMIC] = v;
        return 0;
    }
    for (int i = 0; i < EDAN_CLASS_COUNT; i++) {
        if (!strcmp(key, class_names[i])) {
            c->cls[i] = v;
            return 0;
        }
    }
    edan_error_set(err,
                   "unknown cost key '%s' (keys: int mul div fadd fmul ffma fdiv fsqrt branch hit load store "
                   "atomic ram)",
                   key);
    return -1;
}

int edan_cost_load(edan_cost_model *c, const char *path, edan_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        edan_error_set(err, "%s: cannot open cost table: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            edan_error_set(err, "%s:%d: line too long", path, lineno);
            fclose(f);
            return -1;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        for (char *p = line; *p; p++)
            if (*p == '=' || *p == '\t' || *p == ':')
                *p = ' ';
        char key[64], value[64], extra[8];
        int n = sscanf(line, "%63s %63s %7s", key, value, extra);
        if (n <= 0)
            continue;
        if (n != 2) {
            edan_error_set(err, "%s:%d: expected 'key value', e.g. 'fdiv 20'", path, lineno);
            fclose(f);
            return -1;
        }
        edan_error sub = {0};
        if (edan_cost_set(c, key, value, &sub)) {
            edan_error_set(err, "%s:%d: %s", path, lineno, sub.msg);
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    return 0;
}
