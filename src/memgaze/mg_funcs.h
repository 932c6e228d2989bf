/*
 * mg_funcs.h - MemGaze's per-function footprints ("code windows"): the lines
 * its analyzer prints for each function of the structure file that has
 * traced loads (memgaze-analyze at commit 5545a59, standard output), five a
 * function, one per sampling multiplier:
 *
 *     NAME StartIP: 300246 Size: 35757 FP: 9.72502e+06 lds: 0 Strided: ... Local multiplier = 276.869
 *     NAME M2 StartIP: ...     ((windows * period - loads) / loads of the whole trace)
 *     NAME Med StartIP: ...    (median of period / loads of each sample)
 *     NAME Mean StartIP: ...   (their mean)
 *     NAME tot StartIP: ...    (windows * period / loads of the whole trace)
 *
 * The first line's multiplier is the function's own: windows * period /
 * loads counted over the function's loads alone. Size is the function's
 * traced loads, FP its distinct addresses, the class columns their class
 * shares, each times the multiplier (kept in a float, as MemGaze does).
 * docs/locality.md lists what is odd about them.
 */
#ifndef EDAN_MEMGAZE_MG_FUNCS_H
#define EDAN_MEMGAZE_MG_FUNCS_H

#include <stdint.h>
#include <stdio.h>

#include "memgaze/mg_struct.h"
#include "memgaze/mg_tree.h"
#include "util/error.h"

typedef struct edan_mg_funcs edan_mg_funcs;

/* s: the functions (borrowed); period: loads between samples. */
edan_mg_funcs *edan_mg_funcs_new(const edan_mg_struct *s, uint64_t period, edan_error *err);
void edan_mg_funcs_free(edan_mg_funcs *f);
/* A traced load at ip, final (its skipped loads folded in), of MemGaze's sample number sample, in trace order. */
int edan_mg_funcs_add(edan_mg_funcs *f, uint64_t ip, const edan_mg_rec *r, uint32_t sample, edan_error *err);
/* The lines, in ascending order of the functions' starts. 0, or -1 when a write failed (or out of memory). */
int edan_mg_funcs_write(const edan_mg_funcs *f, FILE *out);

#endif
