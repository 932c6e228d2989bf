/*
 * windows.h - the footprint over MemGaze's execution-interval tree, exact:
 * the one definition the reuse tool (all accesses) and the load-classes tool
 * (split by class) both count with.
 *
 * Definition: a stream of accesses to blocks, numbered from 0, is cut into
 * consecutive windows of W = 2^k accesses (k < EDAN_WINDOW_LEVELS; the last
 * window may be shorter). F(W) is the mean over the windows of the number of
 * distinct blocks a window touches; F(W) / W its growth. Split into sets
 * (classes), F_s(W) is the mean over ALL windows of the stream of the
 * distinct blocks its accesses of set s touch: the windows are those of the
 * whole stream, whichever set an access is in.
 *
 * How: an access is the first of its block in its window of 2^k when the
 * previous access to that block (of the same set) lies in an earlier window:
 * the two indices differ above bit k-1, so it counts at every level below the
 * highest differing bit. So every level counts from the same pass, at no
 * memory beyond the previous access per block, and an access costs one
 * increment: of the number of accesses whose highest differing bit is t; a
 * level's count is the sum over t above it.
 *
 *   edan_windows w = {0};
 *   for each access i to block b:  edan_windows_access(&w, prev(b), i);  prev(b) = i;
 *   n = edan_windows_mean(&w, accesses, size, blocks, cap);
 *
 * edan_split_windows adds the split by set for a stream whose accesses learn
 * their set late (the load-classes tool knows a load's first access's class
 * only at its second access): such an access is counted in the whole
 * stream's F at once, and in its set's when it is settled, by inserting it
 * between its set's accesses before and after it. It keeps several streams
 * at once, its rows (the load-classes tool's: the whole run, each function,
 * each loop nest), each numbered and cut into windows on its own, each with
 * a direct-mapped table of its blocks (util/blocktab.h; indices below 2^63).
 */
#ifndef EDAN_ANALYSIS_WINDOWS_H
#define EDAN_ANALYSIS_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/blocktab.h"
#include "util/keymap.h"

#define EDAN_WINDOW_LEVELS 48 /* windows 2^0 .. 2^47 accesses */
#define EDAN_WINDOW_NONE UINT64_MAX

/* top[t]: the accesses first in their windows of 2^k for exactly the levels k < t (modulo 2^64: corrections
 * may subtract). */
typedef struct edan_windows {
    uint64_t top[EDAN_WINDOW_LEVELS + 1];
} edan_windows;

/* The levels k < the result at which accesses a and b lie in different windows. */
static inline unsigned edan_windows_split(uint64_t a, uint64_t b)
{
    if (a == EDAN_WINDOW_NONE || b == EDAN_WINDOW_NONE)
        return EDAN_WINDOW_LEVELS;
    const uint64_t diff = a ^ b;
    const unsigned top = diff ? 64u - (unsigned)__builtin_clzll(diff) : 0;
    return top < EDAN_WINDOW_LEVELS ? top : EDAN_WINDOW_LEVELS;
}

/* Access `now` to a block whose previous access was `prev` (EDAN_WINDOW_NONE: its first). */
static inline void edan_windows_access(edan_windows *w, uint64_t prev, uint64_t now)
{
    w->top[edan_windows_split(prev, now)]++;
}

/* Level k's sum over the windows of 2^k of their distinct blocks. */
uint64_t edan_windows_count(const edan_windows *w, unsigned k);

/*
 * Access `at` counted late: pred and succ are the block's accesses just before
 * and after it (EDAN_WINDOW_NONE: none), succ already counted from pred. Now at
 * counts from pred and succ from at: the count grows at the levels where at is
 * in a window of its own, apart from both.
 */
void edan_windows_insert(edan_windows *w, uint64_t pred, uint64_t at, uint64_t succ);

/*
 * F(W) for W = 2^k, k = 0 .. the first window that holds all `accesses`:
 * size[i] = W, blocks[i] = the mean distinct blocks per window. Returns the
 * number of levels written (at most cap; 0 for an empty stream).
 */
size_t edan_windows_mean(const edan_windows *w, uint64_t accesses, double *size, double *blocks, size_t cap);

/*
 * A stream cut into samples (a sampled trace, trace/exec.h): each sample is
 * cut into windows of 2^k from its own first access (its last window may be
 * shorter), so no window spans two samples. The caller numbers a sample's
 * accesses from 0 and counts an access whose block's previous access lies
 * in an earlier sample as its block's first (EDAN_WINDOW_NONE); at the end
 * of each sample it adds the sample's windows here.
 */
typedef struct edan_window_cuts {
    uint64_t windows[EDAN_WINDOW_LEVELS]; /* windows of 2^k of every sample ended so far */
    uint64_t longest, samples;
} edan_window_cuts;

/* A sample of len accesses ended. */
void edan_window_cuts_add(edan_window_cuts *c, uint64_t len);
/* F(W) as edan_windows_mean, over the samples' windows, up to the first window that holds the longest sample. */
size_t edan_windows_mean_cut(const edan_windows *w, const edan_window_cuts *c, double *size, double *blocks,
                             size_t cap);

/* ===================================================================== */
/* Split by set, with sets settled late                                   */
/* ===================================================================== */

#define EDAN_SPLIT_SETS 3     /* sets at most */
#define EDAN_SPLIT_LATER (-1) /* the set of an access not known yet */

/* A sample of a sampled stream starts its accesses' numbers at a multiple of 2^this (edan_split_windows_sample) */
#define EDAN_SPLIT_SAMPLE_BITS 36

/* One row: a stream of its own, its accesses numbered from 0. */
typedef struct edan_split_row {
    uint64_t accesses;                 /* the row's so far */
    uint64_t next;                     /* the number of its next access: accesses, but for the samples' gaps */
    uint64_t in_sample;                /* its accesses in the current sample */
    edan_window_cuts cuts;             /* its samples ended so far (none: a stream without samples) */
    edan_windows all;                  /* every access */
    edan_windows set[EDAN_SPLIT_SETS]; /* per set, over the same windows */
    edan_blocktab blocks;              /* block -> its latest accesses in the row (32 bytes, util/blocktab.h) */
} edan_split_row;

typedef struct edan_split_windows {
    unsigned n_sets;
    edan_split_row *rows;
    uint32_t n_rows, rows_cap;
    edan_keymap watched;            /* (block, row) -> its watchers, for the blocks that have some */
    struct edan_split_watch *watch; /* accesses waiting for their set */
    uint32_t n_watch, watch_cap;
} edan_split_windows;

/* No rows yet. 0, or -1 when out of memory. */
int edan_split_windows_init(edan_split_windows *w, unsigned n_sets);
void edan_split_windows_free(edan_split_windows *w);

/* A new row, an empty stream: its number (rows count from 0), or UINT32_MAX when out of memory. */
uint32_t edan_split_windows_add_row(edan_split_windows *w);

/*
 * The next access of row `row`'s stream, to block b, of set `set` (0 ..
 * n_sets-1), or EDAN_SPLIT_LATER: then *ticket receives its ticket for
 * edan_split_windows_settle(). 0, or -1 when out of memory.
 */
int edan_split_windows_access(edan_split_windows *w, uint32_t row, uint64_t b, int set, uint32_t *ticket);

/* The set of the access of `ticket` (each ticket settles once). 0, or -1 when out of memory. */
int edan_split_windows_settle(edan_split_windows *w, uint32_t ticket, int set);

/*
 * A new sample of a sampled stream starts (trace/exec.h): every row's windows
 * start again at its next access, as edan_window_cuts describes (a row's
 * next access is numbered from the next multiple of 2^EDAN_SPLIT_SAMPLE_BITS,
 * so no window of up to that many accesses spans two samples). 0, or -1
 * past 2^26 samples.
 */
int edan_split_windows_sample(edan_split_windows *w);
/* F(W) of one of row r's streams (its all or a set's), as edan_windows_mean, over its samples' windows. */
size_t edan_split_row_mean(const edan_split_row *r, const edan_windows *stream, double *size, double *blocks,
                           size_t cap);

#endif
