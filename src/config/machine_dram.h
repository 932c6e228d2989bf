/*
 * machine_dram.h - the [dram] section of a machine file (machine_file.h):
 * its keys, their ranges and the checks across them, into the machine's
 * edan_machine_dram (analysis/machine/machine.h). docs/machines.md lists
 * the keys. machine_file.c hands every key of [dram] here and asks, after
 * the parse, what is missing and whether the values fit together.
 */
#ifndef EDAN_CONFIG_MACHINE_DRAM_H
#define EDAN_CONFIG_MACHINE_DRAM_H

#include "analysis/machine/machine.h"
#include "util/error.h"

/* The keys of [dram]: machine_dram.c's table has exactly this many. */
#define EDAN_DRAM_KEYS 36

typedef struct edan_dram_parse {
    bool present;               /* a key of [dram] was given */
    int first_line;             /* the line of its first key */
    uint64_t seen;              /* bit i: key i given */
    int line[EDAN_DRAM_KEYS];   /* where each key was given */
    uint32_t devices, bus_bits; /* devices_per_rank, device_bus_width */
    uint32_t burst_length;
    uint64_t device_row; /* device_rowbuffer_size */
    double link_ns;      /* link_latency_ns */
} edan_dram_parse;

/* One key = value of [dram] at `line`: 0, or -1 with msg saying what is wrong (machine_file.c adds file and line). */
int edan_dram_key(edan_dram_parse *st, edan_machine_dram *d, const char *key, const char *value, int line,
                  edan_error *msg);

/* The first key of [dram] not given, as "[dram] KEY" into buf, or NULL when every key is. */
const char *edan_dram_missing(const edan_dram_parse *st, char *buf, size_t cap);

/*
 * Once the file is read and [dram] is complete: the checks across keys (a
 * burst of one cache line, bank groups that divide the banks, the write
 * thresholds in order, ...), naming file, line and key; then the machine's
 * memory as the rest of edan sees it: mem_latency_ns is link_latency_ns
 * (the default of --mem-latency), mem_bandwidth_gbs the DRAM's peak. 0, or
 * -1 with err set.
 */
int edan_dram_finish(const char *path, const edan_dram_parse *st, edan_machine *m, edan_error *err);

#endif
