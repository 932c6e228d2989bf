/*
 * machine_prefetch.h - the prefetcher sections of a machine file
 * ([l1d.prefetcher], [l2.prefetcher], [l3.prefetcher]; docs/machines.md),
 * read for machine_file.c: each key as libinih hands it over, then the
 * checks once the file is read (every key of the section's type given, none
 * of another type, the values that depend on the level).
 */
#ifndef EDAN_CONFIG_MACHINE_PREFETCH_H
#define EDAN_CONFIG_MACHINE_PREFETCH_H

#include "analysis/machine/machine.h"
#include "util/error.h"

#define EDAN_PREFETCH_KEYS 11

typedef struct edan_prefetch_parse {
    bool present[EDAN_MACHINE_MAX_DATA_LEVELS];
    unsigned seen[EDAN_MACHINE_MAX_DATA_LEVELS]; /* bit i: key i given */
    int line[EDAN_MACHINE_MAX_DATA_LEVELS][EDAN_PREFETCH_KEYS];
} edan_prefetch_parse;

/*
 * One key of section: 0 when the section is no prefetcher's (nothing done),
 * 1 when the key was read into m, -1 with msg set (the key's line is the
 * caller's to name).
 */
int edan_machine_prefetch_key(edan_prefetch_parse *ps, edan_machine *m, const char *section, const char *key,
                              const char *value, int line, edan_error *msg);

/* After the file (m->n_data_levels set): 0, or -1 with err naming path, the line if any, and the key. */
int edan_machine_prefetch_check(const edan_prefetch_parse *ps, edan_machine *m, const char *path, edan_error *err);

#endif
