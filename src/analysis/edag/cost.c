#include "analysis/edag/cost.h"

#include "util/parse.h"

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

int edan_cost_set(edan_cost_model *c, const char *key, const char *value, edan_error *err)
{
    uint64_t v;
    if (edan_parse_u64(value, &v) || v > EDAN_COST_MAX) {
        edan_error_set(err, "cost '%s': '%s' is not a number of cycles from 0 to 2^40", key, value);
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

static int cost_line(void *ctx, const char *key, const char *value, edan_error *line_err)
{
    if (!value) {
        edan_error_set(line_err, "expected 'key value', e.g. 'fdiv 20'");
        return -1;
    }
    return edan_cost_set(ctx, key, value, line_err);
}

int edan_cost_load(edan_cost_model *c, const char *path, edan_error *err)
{
    return edan_kv_file_read(path, "cost table", cost_line, c, err);
}
