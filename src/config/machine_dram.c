#include "config/machine_dram.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "util/parse.h"

/* ===================================================================== */
/* The keys                                                               */
/* ===================================================================== */

typedef enum dkey_type {
    D_U32,   /* an integer into edan_machine_dram, in [lo, hi] */
    D_NS,    /* nanoseconds into edan_machine_dram, a real in [lo, hi] */
    D_OWN,   /* an integer kept in the parse state (devices_per_rank, ...) */
    D_SIZE,  /* device_rowbuffer_size */
    D_LINK,  /* link_latency_ns */
    D_WORDS, /* one of a list of words (page_policy, address_map, scheduler) */
} dkey_type;

typedef struct dkey {
    const char *key;
    dkey_type type;
    size_t offset; /* D_U32, D_NS: into edan_machine_dram; D_OWN: into edan_dram_parse; D_WORDS: into the machine */
    double lo, hi; /* both included */
    const char *words;
} dkey;

#define D(field) offsetof(edan_machine_dram, field)
#define P(field) offsetof(edan_dram_parse, field)
static const dkey keys[] = {
    {"channels", D_U32, D(channels), 1, 64, NULL},
    {"ranks", D_U32, D(ranks), 1, 16, NULL},
    {"banks", D_U32, D(banks), 1, 256, NULL},
    {"bank_groups", D_U32, D(bank_groups), 0, 256, NULL},
    {"devices_per_rank", D_OWN, P(devices), 1, 64, NULL},
    {"device_bus_width", D_OWN, P(bus_bits), 1, 128, NULL},
    {"burst_length", D_OWN, P(burst_length), 1, 64, NULL},
    {"device_rowbuffer_size", D_SIZE, 0, 1, 1 << 20, NULL},
    {"tck_ns", D_NS, D(tck), 0.001, 1e4, NULL},
    {"tburst_ns", D_NS, D(tburst), 0.001, 1e4, NULL},
    {"tccd_l_ns", D_NS, D(tccd_l), 0, 1e4, NULL},
    {"trcd_ns", D_NS, D(trcd), 0, 1e4, NULL},
    {"tcl_ns", D_NS, D(tcl), 0, 1e4, NULL},
    {"trp_ns", D_NS, D(trp), 0, 1e4, NULL},
    {"tras_ns", D_NS, D(tras), 0, 1e4, NULL},
    {"twr_ns", D_NS, D(twr), 0, 1e4, NULL},
    {"trtp_ns", D_NS, D(trtp), 0, 1e4, NULL},
    {"trtw_ns", D_NS, D(trtw), 0, 1e4, NULL},
    {"twtr_ns", D_NS, D(twtr), 0, 1e4, NULL},
    {"trrd_ns", D_NS, D(trrd), 0, 1e4, NULL},
    {"trrd_l_ns", D_NS, D(trrd_l), 0, 1e4, NULL},
    {"txaw_ns", D_NS, D(txaw), 0, 1e4, NULL},
    {"activation_limit", D_U32, D(activation_limit), 0, 8, NULL},
    {"trfc_ns", D_NS, D(trfc), 0.001, 1e5, NULL},
    {"trefi_ns", D_NS, D(trefi), 0.001, 1e7, NULL},
    {"read_queue", D_U32, D(read_queue), 1, 4096, NULL},
    {"write_queue", D_U32, D(write_queue), 1, 4096, NULL},
    {"write_high_percent", D_U32, D(write_high_percent), 1, 100, NULL},
    {"write_low_percent", D_U32, D(write_low_percent), 0, 99, NULL},
    {"min_writes_per_switch", D_U32, D(min_writes_per_switch), 1, 4096, NULL},
    {"page_policy", D_WORDS, D(page), 0, 0, "open open_adaptive close close_adaptive"},
    {"address_map", D_WORDS, D(map), 0, 0, "RoRaBaCoCh RoRaBaChCo RoCoRaBaCh"},
    {"scheduler", D_WORDS, D(sched), 0, 0, "frfcfs fcfs"},
    {"frontend_ns", D_NS, D(frontend_ns), 0, 1e6, NULL},
    {"backend_ns", D_NS, D(backend_ns), 0, 1e6, NULL},
    {"link_latency_ns", D_LINK, 0, 0, 1e6, NULL},
};
#undef D
#undef P
_Static_assert(sizeof keys / sizeof keys[0] == EDAN_DRAM_KEYS, "EDAN_DRAM_KEYS counts the keys");
/* the enums of machine.h follow the order of each key's words */
_Static_assert(EDAN_DRAM_OPEN == 0 && EDAN_DRAM_OPEN_ADAPTIVE == 1 && EDAN_DRAM_CLOSE == 2 &&
                   EDAN_DRAM_CLOSE_ADAPTIVE == 3 && EDAN_DRAM_RORABACOCH == 0 && EDAN_DRAM_RORABACHCO == 1 &&
                   EDAN_DRAM_ROCORABACH == 2 && EDAN_DRAM_FRFCFS == 0 && EDAN_DRAM_FCFS == 1,
               "word lists and enums agree");

/* The index of `v` among the space-separated words, or -1. */
static int word_index(const char *words, const char *v)
{
    const size_t n = strlen(v);
    int i = 0;
    for (const char *p = words; *p; i++) {
        const char *e = strchr(p, ' ');
        const size_t len = e ? (size_t)(e - p) : strlen(p);
        if (n && len == n && !memcmp(p, v, n))
            return i;
        if (!e)
            break;
        p = e + 1;
    }
    return -1;
}

int edan_dram_key(edan_dram_parse *st, edan_machine_dram *d, const char *key, const char *value, int line,
                  edan_error *msg)
{
    size_t i = 0;
    while (i < EDAN_DRAM_KEYS && strcmp(keys[i].key, key))
        i++;
    if (i == EDAN_DRAM_KEYS) {
        edan_error_set(msg, "[dram]: unknown key '%s' (docs/machines.md lists them)", key);
        return -1;
    }
    const dkey *k = &keys[i];
    if (st->seen >> i & 1) {
        edan_error_set(msg, "[dram] %s given twice", key);
        return -1;
    }
    if (!st->present)
        st->first_line = line;
    st->present = d->present = true;
    st->seen |= 1ull << i;
    st->line[i] = line;
    uint64_t u;
    double x;
    switch (k->type) {
    case D_U32:
    case D_OWN:
        if (edan_parse_u64(value, &u) || (double)u < k->lo || (double)u > k->hi) {
            edan_error_set(msg, "[dram] %s = '%s': an integer from %g to %g", key, value, k->lo, k->hi);
            return -1;
        }
        *(uint32_t *)(k->type == D_U32 ? (char *)d + k->offset : (char *)st + k->offset) = (uint32_t)u;
        return 0;
    case D_SIZE:
        if (edan_parse_size(value, strlen(value), &u) || u < 1 || u > (1u << 20) || (u & (u - 1))) {
            edan_error_set(msg, "[dram] %s = '%s': a power of two from 1 to 1M (a size like 1K)", key, value);
            return -1;
        }
        st->device_row = u;
        return 0;
    case D_NS:
    case D_LINK:
        if (edan_parse_double(value, &x) || !(x >= k->lo) || x > k->hi) {
            edan_error_set(msg, "[dram] %s = '%s': nanoseconds, a decimal number from %g to %g", key, value, k->lo,
                           k->hi);
            return -1;
        }
        if (k->type == D_LINK)
            st->link_ns = x;
        else
            *(double *)((char *)d + k->offset) = x;
        return 0;
    case D_WORDS: {
        const int w = word_index(k->words, value);
        if (w < 0) {
            edan_error_set(msg, "[dram] %s = '%s': one of %s", key, value, k->words);
            return -1;
        }
        *(int *)((char *)d + k->offset) = w; /* an enum's storage */
        return 0;
    }
    }
    return -1;
}

const char *edan_dram_missing(const edan_dram_parse *st, char *buf, size_t cap)
{
    for (size_t i = 0; i < EDAN_DRAM_KEYS; i++)
        if (!(st->seen >> i & 1)) {
            snprintf(buf, cap, "[dram] %s", keys[i].key);
            return buf;
        }
    return NULL;
}

/* ===================================================================== */
/* Across keys                                                            */
/* ===================================================================== */

static int line_of(const edan_dram_parse *st, const char *key)
{
    for (size_t i = 0; i < EDAN_DRAM_KEYS; i++)
        if (!strcmp(keys[i].key, key))
            return st->line[i];
    return 0;
}

int edan_dram_finish(const char *path, const edan_dram_parse *st, edan_machine *m, edan_error *err)
{
    edan_machine_dram *d = &m->dram;
    const uint64_t burst = (uint64_t)st->burst_length * st->bus_bits * st->devices / 8;
    const uint32_t line = m->data[0].geo.line;
    /* one burst moves one cache line: the model books a line a burst (gem5 splits a larger line into bursts) */
    if ((uint64_t)st->burst_length * st->bus_bits * st->devices % 8 || burst != line) {
        edan_error_set(err,
                       "%s:%d: [dram] burst_length = %u: a burst (burst_length x device_bus_width x devices_per_rank "
                       "/ 8 = %llu bytes) must be the cache line (%u bytes)",
                       path, line_of(st, "burst_length"), st->burst_length, (unsigned long long)burst, line);
        return -1;
    }
    const uint64_t row = st->device_row * st->devices;
    if (row < burst || row > (1u << 24)) {
        edan_error_set(err,
                       "%s:%d: [dram] device_rowbuffer_size: a rank's row (x devices_per_rank = %llu bytes) must hold "
                       "a burst and be at most 16 MiB",
                       path, line_of(st, "device_rowbuffer_size"), (unsigned long long)row);
        return -1;
    }
    if (d->channels & (d->channels - 1)) {
        edan_error_set(err, "%s:%d: [dram] channels = %u is not a power of two (channels interleave by address bits)",
                       path, line_of(st, "channels"), d->channels);
        return -1;
    }
    if (d->bank_groups && (d->bank_groups > d->banks || d->banks % d->bank_groups)) {
        edan_error_set(err, "%s:%d: [dram] bank_groups = %u does not divide banks = %u", path,
                       line_of(st, "bank_groups"), d->bank_groups, d->banks);
        return -1;
    }
    if (d->bank_groups && d->tccd_l <= d->tburst) { /* gem5 refuses it too */
        edan_error_set(err, "%s:%d: [dram] tccd_l_ns = %g is not above tburst_ns = %g (with bank groups)", path,
                       line_of(st, "tccd_l_ns"), d->tccd_l, d->tburst);
        return -1;
    }
    if (d->bank_groups && d->trrd_l < d->trrd) { /* gem5 refuses it too */
        edan_error_set(err, "%s:%d: [dram] trrd_l_ns = %g is below trrd_ns = %g (with bank groups)", path,
                       line_of(st, "trrd_l_ns"), d->trrd_l, d->trrd);
        return -1;
    }
    /* a refresh (precharge all, then tRFC) must end before the next one is due: gem5 refreshes every
       tREFI - tRP, and gives up when a refresh ends after the next is due */
    if (d->trefi <= 2 * d->trp + d->trfc) {
        edan_error_set(err, "%s:%d: [dram] trefi_ns = %g is not above trfc_ns + 2 x trp_ns = %g", path,
                       line_of(st, "trefi_ns"), d->trefi, d->trfc + 2 * d->trp);
        return -1;
    }
    if (d->write_low_percent >= d->write_high_percent) {
        edan_error_set(err, "%s:%d: [dram] write_low_percent = %u is not below write_high_percent = %u", path,
                       line_of(st, "write_low_percent"), d->write_low_percent, d->write_high_percent);
        return -1;
    }
    if (d->min_writes_per_switch > d->write_queue) {
        edan_error_set(err, "%s:%d: [dram] min_writes_per_switch = %u is larger than write_queue = %u", path,
                       line_of(st, "min_writes_per_switch"), d->min_writes_per_switch, d->write_queue);
        return -1;
    }
    d->burst_bytes = (uint32_t)burst;
    d->row_bytes = (uint32_t)row;
    m->mem_latency_ns = st->link_ns;
    /* the peak: every channel moves a burst each tBURST (bytes per ns = GB/s) */
    m->mem_bandwidth_gbs = (double)d->channels * (double)burst / d->tburst;
    return 0;
}
