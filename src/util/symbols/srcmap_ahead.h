/*
 * srcmap_ahead.h - a source map (srcmap.h) opened on a thread of its own
 * while the stream is analysed, for a report that attributes after it.
 *
 * Opening reads the ELF's symbols (demangling every C++ name) and indexes
 * its DWARF: about 11 ms of LULESH's 0.5 s analysis with --machine, all of
 * it after the model's last record and before the report, where nothing
 * else runs. Begun when the tool is made, it runs in the cores' idle time
 * (the session's thread waits for the model's most of the time).
 *
 *   edan_srcmap_ahead *a = edan_srcmap_ahead_begin(path);     NULL: open it later, on the caller's thread
 *   edan_srcmap *m = edan_srcmap_ahead_take(a, &err);         joins; what edan_srcmap_open(path, &err) gives
 *   edan_srcmap_ahead_end(a);                                  joins if not taken, closes what was not taken
 *
 * The thread uses libelf and libdw on handles of its own (their error state
 * is per thread), and nothing of it is visible before take() joins it.
 */
#ifndef EDAN_UTIL_SRCMAP_AHEAD_H
#define EDAN_UTIL_SRCMAP_AHEAD_H

#include "util/error.h"
#include "util/symbols/srcmap.h"

typedef struct edan_srcmap_ahead edan_srcmap_ahead;

/* Start opening path's source map; NULL (nothing started) when path is NULL or empty, or no thread starts. */
edan_srcmap_ahead *edan_srcmap_ahead_begin(const char *path);
/* The map (NULL with err set, as edan_srcmap_open); once. */
edan_srcmap *edan_srcmap_ahead_take(edan_srcmap_ahead *a, edan_error *err);
/* Join and free; NULL: nothing. */
void edan_srcmap_ahead_end(edan_srcmap_ahead *a);

#endif
