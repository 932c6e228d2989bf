#include "config/machine_prefetch.h"

#include <stdio.h>
#include <string.h>

#include "util/parse.h"

/* The sections: the prefetcher of data level i is PREFIX[i] ".prefetcher". */
static const char *const levels[EDAN_MACHINE_MAX_DATA_LEVELS] = {"l1d", "l2", "l3"};

enum { TYPE, DEGREE, LATENCY, QUEUE, RESERVE, ON_ACCESS, ENTRIES, ASSOC, CBITS, CINIT, CTHRESH };

/* The keys, in the order of the enum; `stride`: only a stride prefetcher has it. */
static const struct {
    const char *key;
    uint32_t lo, hi;
    bool stride;
} keys[EDAN_PREFETCH_KEYS] = {
    {"type", 0, 0, false},
    {"degree", 1, EDAN_PREFETCH_MAX_DEGREE, false},
    {"latency", 0, 1000, false},
    {"queue_size", 1, 1024, false},
    {"mshr_reserve", 0, 1023, false},
    {"on_access", 0, 0, false},
    {"table_entries", 1, 1u << 16, true},
    {"table_assoc", 1, 1u << 16, true},
    {"confidence_bits", 1, 8, true},
    {"initial_confidence", 0, 255, true},
    {"confidence_threshold", 0, 100, true},
};

/* The data level whose prefetcher section this is, or -1. */
static int level_of(const char *section)
{
    for (int i = 0; i < EDAN_MACHINE_MAX_DATA_LEVELS; i++) {
        const size_t n = strlen(levels[i]);
        if (!strncmp(section, levels[i], n) && !strcmp(section + n, ".prefetcher"))
            return i;
    }
    return -1;
}

int edan_machine_prefetch_key(edan_prefetch_parse *ps, edan_machine *m, const char *section, const char *key,
                              const char *value, int line, edan_error *msg)
{
    const int l = level_of(section);
    if (l < 0)
        return 0;
    int i = 0;
    while (i < EDAN_PREFETCH_KEYS && strcmp(keys[i].key, key))
        i++;
    if (i == EDAN_PREFETCH_KEYS) {
        edan_error_set(msg,
                       "[%s]: unknown key '%s' (keys: type, degree, latency, queue_size, mshr_reserve, on_access; "
                       "stride: table_entries, table_assoc, confidence_bits, initial_confidence, "
                       "confidence_threshold)",
                       section, key);
        return -1;
    }
    if (ps->seen[l] & (1u << i)) {
        edan_error_set(msg, "[%s] %s given twice", section, key);
        return -1;
    }
    ps->present[l] = true;
    ps->seen[l] |= 1u << i;
    ps->line[l][i] = line;
    edan_prefetch_config *c = &m->data[l].prefetch;
    uint64_t u;
    switch (i) {
    case TYPE:
        if (strcmp(value, "stride") && strcmp(value, "tagged")) {
            edan_error_set(msg, "type = '%s': stride or tagged", value);
            return -1;
        }
        c->kind = strcmp(value, "stride") ? EDAN_PREFETCH_TAGGED : EDAN_PREFETCH_STRIDE;
        return 1;
    case ON_ACCESS:
        if (strcmp(value, "yes") && strcmp(value, "no")) {
            edan_error_set(msg, "on_access = '%s': yes or no", value);
            return -1;
        }
        c->on_access = !strcmp(value, "yes");
        return 1;
    default:
        if (edan_parse_u64(value, &u) || u < keys[i].lo || u > keys[i].hi) {
            edan_error_set(msg, "%s = '%s': an integer from %u to %u", key, value, keys[i].lo, keys[i].hi);
            return -1;
        }
        uint32_t *field[EDAN_PREFETCH_KEYS] = {
            [DEGREE] = &c->degree,         [LATENCY] = &c->latency,          [QUEUE] = &c->queue_size,
            [RESERVE] = &c->mshr_reserve,  [ENTRIES] = &c->table_entries,    [ASSOC] = &c->table_assoc,
            [CBITS] = &c->confidence_bits, [CINIT] = &c->initial_confidence, [CTHRESH] = &c->confidence_threshold,
        };
        *field[i] = (uint32_t)u;
        return 1;
    }
}

static bool pow2(uint32_t v)
{
    return v && !(v & (v - 1));
}

int edan_machine_prefetch_check(const edan_prefetch_parse *ps, edan_machine *m, const char *path, edan_error *err)
{
    for (int l = 0; l < EDAN_MACHINE_MAX_DATA_LEVELS; l++) {
        if (!ps->present[l])
            continue;
        char sec[32];
        snprintf(sec, sizeof sec, "%s.prefetcher", levels[l]);
        const int *at = ps->line[l];
        if (l >= m->n_data_levels) {
            edan_error_set(err, "%s:%d: [%s] without an [%s] section", path, at[__builtin_ctz(ps->seen[l])], sec,
                           levels[l]);
            return -1;
        }
        if (!(ps->seen[l] & (1u << TYPE))) {
            edan_error_set(err, "%s: [%s] type is missing (every key is required: docs/machines.md)", path, sec);
            return -1;
        }
        edan_prefetch_config *c = &m->data[l].prefetch;
        const bool stride = c->kind == EDAN_PREFETCH_STRIDE;
        for (int i = 0; i < EDAN_PREFETCH_KEYS; i++) {
            const bool given = ps->seen[l] & (1u << i);
            if (!given && (stride || !keys[i].stride)) {
                edan_error_set(err, "%s: [%s] %s is missing (every key is required: docs/machines.md)", path, sec,
                               keys[i].key);
                return -1;
            }
            if (given && !stride && keys[i].stride) {
                edan_error_set(err, "%s:%d: [%s] %s: a key of the stride prefetcher, and this one is tagged", path,
                               at[i], sec, keys[i].key);
                return -1;
            }
        }
        if (c->mshr_reserve + 2 > m->data[l].mshrs) { /* a prefetch waits for 2 free beyond it (memtime.h) */
            edan_error_set(err, "%s:%d: [%s] mshr_reserve = %u leaves fewer than 2 MSHRs of [%s]'s %u to a prefetch",
                           path, at[RESERVE], sec, c->mshr_reserve, levels[l], m->data[l].mshrs);
            return -1;
        }
        if (!stride)
            continue;
        if (c->table_assoc > c->table_entries || !pow2(c->table_entries / c->table_assoc) ||
            c->table_entries % c->table_assoc) {
            edan_error_set(err, "%s:%d: [%s] table_assoc = %u: table_entries / table_assoc must be a power of two",
                           path, at[ASSOC], sec, c->table_assoc);
            return -1;
        }
        if (c->initial_confidence >= 1u << c->confidence_bits) {
            edan_error_set(err, "%s:%d: [%s] initial_confidence = %u does not fit in confidence_bits = %u", path,
                           at[CINIT], sec, c->initial_confidence, c->confidence_bits);
            return -1;
        }
    }
    return 0;
}
