/*
 * libfuncs.h - the functions of the shared objects a stream names as it
 * goes: for a tool that gives each function a row of its own while the
 * stream runs (the load classes' and the sampled tool's windows), a key for
 * the function at a library pc, stable over the run.
 *
 * The map is the source's (edan_report_source.objects, filled ahead of each
 * object's code when objects_ahead): read from the consumer's thread while
 * the producer adds to it (objects.h). An object's symbols are read at the
 * first lookup in its code, once.
 */
#ifndef EDAN_UTIL_SYMBOLS_LIBFUNCS_H
#define EDAN_UTIL_SYMBOLS_LIBFUNCS_H

#include <stdint.h>

#include "util/symbols/objects.h"

typedef struct edan_libfuncs edan_libfuncs;

/* Lookups in objects (which must outlive it); NULL when out of memory. */
edan_libfuncs *edan_libfuncs_new(const edan_objmap *objects);
/*
 * The function at pc of the objects named so far: (object index << 32 |
 * function index) + 1, the same for every pc of one function; 0 for none
 * (no object named yet holds pc, its code outside every symbol, an object
 * that cannot be read, or l NULL).
 */
uint64_t edan_libfuncs_at(edan_libfuncs *l, uint64_t pc);
void edan_libfuncs_free(edan_libfuncs *l);

#endif
