/*
 * libfuncs.h - the functions of the shared objects a stream names as it
 * goes: for a tool that gives each function a row of its own while the
 * stream runs (the load classes' and the sampled tool's windows), the
 * tool's value for the function at a library pc (its row), kept here.
 *
 * The map is the source's (edan_report_source.objects, filled ahead of each
 * object's code when objects_ahead): read from the consumer's thread while
 * the producer adds to it (objects.h). An object's symbols are read at the
 * first lookup in its code, once.
 */
#ifndef EDAN_UTIL_SYMBOLS_LIBFUNCS_H
#define EDAN_UTIL_SYMBOLS_LIBFUNCS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/symbols/objects.h"

typedef struct edan_libfuncs edan_libfuncs;

/* Lookups in objects (which must outlive it); NULL when out of memory. */
edan_libfuncs *edan_libfuncs_new(const edan_objmap *objects);
#define EDAN_LIBFUNCS_UNSET UINT32_MAX

/*
 * The caller's value for the function at pc of the objects named so far: the
 * same slot for every pc of one function, EDAN_LIBFUNCS_UNSET until the
 * caller sets it. NULL for none (no object named yet holds pc, its code
 * outside every symbol, an object that cannot be read, l NULL) or, with
 * *oom set, when out of memory.
 */
uint32_t *edan_libfuncs_value(edan_libfuncs *l, uint64_t pc, bool *oom);
void edan_libfuncs_free(edan_libfuncs *l);

#endif
