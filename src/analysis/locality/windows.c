/*
 * windows.c - the footprint over the execution-interval tree (windows.h).
 *
 * The split by set keeps, per (block, row), the index + 1 of the block's
 * latest access in the row and of its latest access of each set (0: none),
 * in a direct-mapped table of the row's blocks (32 bytes a block). An access whose set comes
 * later is a watcher on its block's chain: it keeps its set's accesses just
 * before it (pred, copied when it is made) and just after it (succ, the first
 * one counted after it), for every set, until it is settled; then it is
 * inserted into its set's sequence between the two. Settled accesses update
 * the pred and succ of the other watchers of the block as well, so two
 * late accesses to one block come out as if both had been counted in order.
 * A block's open[s] counts the watchers still without a succ in set s: an
 * access of set s walks the chain only then, so a block with a watcher that
 * is never settled is not walked on every access. The chain and the open
 * counts are kept apart, in a hash table of the (block, row) pairs that have
 * watchers (few: a load's first access each), and a bit of the block's entry
 * says whether it has an entry there.
 */
#include "analysis/locality/windows.h"

#include <stdlib.h>
#include <string.h>

void edan_windows_insert(edan_windows *w, uint64_t pred, uint64_t at, uint64_t succ)
{
    const unsigned a = edan_windows_split(pred, at);
    const unsigned b = succ == EDAN_WINDOW_NONE ? 0 : edan_windows_split(at, succ);
    const unsigned c = succ == EDAN_WINDOW_NONE ? 0 : edan_windows_split(pred, succ);
    w->top[a]++;
    w->top[b]++;
    w->top[c]--;
}

uint64_t edan_windows_count(const edan_windows *w, unsigned k)
{
    uint64_t n = 0;
    for (unsigned t = k + 1; t <= EDAN_WINDOW_LEVELS; t++)
        n += w->top[t];
    return n;
}

size_t edan_windows_mean(const edan_windows *w, uint64_t accesses, double *size, double *blocks, size_t cap)
{
    size_t n = 0;
    for (unsigned k = 0; k < EDAN_WINDOW_LEVELS && n < cap && accesses; k++) {
        const uint64_t s = 1ull << k, count = (accesses + s - 1) / s;
        size[n] = (double)s;
        blocks[n] = (double)edan_windows_count(w, k) / (double)count;
        n++;
        if (s >= accesses)
            break;
    }
    return n;
}

void edan_window_cuts_add(edan_window_cuts *c, uint64_t len)
{
    if (!len)
        return;
    for (unsigned k = 0; k < EDAN_WINDOW_LEVELS; k++)
        c->windows[k] += ((len - 1) >> k) + 1;
    c->longest = len > c->longest ? len : c->longest;
    c->samples++;
}

size_t edan_windows_mean_cut(const edan_windows *w, const edan_window_cuts *c, double *size, double *blocks, size_t cap)
{
    size_t n = 0;
    for (unsigned k = 0; k < EDAN_WINDOW_LEVELS && n < cap && c->longest; k++) {
        const uint64_t s = 1ull << k;
        size[n] = (double)s;
        blocks[n] = (double)edan_windows_count(w, k) / (double)c->windows[k];
        n++;
        if (s >= c->longest)
            break;
    }
    return n;
}

/* ===================================================================== */
/* Split by set                                                           */
/* ===================================================================== */

/* A block's latest accesses in a row: index + 1 (0: none); last_all's top bit: it has watchers. */
typedef struct split_block {
    uint64_t last_all;              /* of the block's latest access */
    uint64_t last[EDAN_SPLIT_SETS]; /* of its latest counted access of each set */
} split_block;
#define WATCHED (1ull << 63)
#define LEAF_BITS 4 /* leaves of 16 blocks: 512 bytes */

/* The watchers of a (block, row) that has some. */
typedef struct split_watchers {
    uint32_t open[EDAN_SPLIT_SETS]; /* live watchers without a succ in each set */
    uint32_t chain;                 /* the first watcher + 1 (0: none) */
} split_watchers;

typedef struct edan_split_watch {
    uint64_t block, at;
    uint32_t row;
    uint64_t pred[EDAN_SPLIT_SETS], succ[EDAN_SPLIT_SETS]; /* index + 1 (0: none) */
    uint32_t next;                                         /* the next watcher of the block + 1 */
    bool live;
} split_watch;

int edan_split_windows_init(edan_split_windows *w, unsigned n_sets)
{
    memset(w, 0, sizeof *w);
    w->n_sets = n_sets < EDAN_SPLIT_SETS ? n_sets : EDAN_SPLIT_SETS;
    return edan_keymap_init(&w->watched, sizeof(split_watchers));
}

void edan_split_windows_free(edan_split_windows *w)
{
    for (uint32_t r = 0; r < w->n_rows; r++)
        edan_blocktab_free(&w->rows[r].blocks);
    edan_keymap_free(&w->watched);
    free(w->watch);
    free(w->rows);
    memset(w, 0, sizeof *w);
}

uint32_t edan_split_windows_add_row(edan_split_windows *w)
{
    if (w->n_rows == w->rows_cap) {
        const uint32_t cap = w->rows_cap ? 2 * w->rows_cap : 16;
        edan_split_row *m = cap > w->rows_cap && cap < UINT32_MAX ? realloc(w->rows, (size_t)cap * sizeof *m) : NULL;
        if (!m)
            return UINT32_MAX;
        w->rows = m;
        w->rows_cap = cap;
    }
    edan_split_row *r = &w->rows[w->n_rows];
    memset(r, 0, sizeof *r);
    if (edan_blocktab_init(&r->blocks, LEAF_BITS, sizeof(split_block)))
        return UINT32_MAX;
    return w->n_rows++;
}

static inline uint64_t prev_of(uint64_t last)
{
    return last ? last - 1 : EDAN_WINDOW_NONE;
}

int edan_split_windows_access(edan_split_windows *w, uint32_t row, uint64_t b, int set, uint32_t *ticket)
{
    edan_split_row *r = &w->rows[row];
    split_block *e = edan_blocktab_get(&r->blocks, b, LEAF_BITS, sizeof *e);
    if (!e)
        return -1;
    const bool watched = e->last_all & WATCHED;
    if (set == EDAN_SPLIT_LATER && w->n_watch == w->watch_cap) {
        const uint32_t cap = w->watch_cap ? 2 * w->watch_cap : 64;
        split_watch *m = cap > w->watch_cap ? realloc(w->watch, (size_t)cap * sizeof *m) : NULL;
        if (!m)
            return -1;
        w->watch = m;
        w->watch_cap = cap;
    }
    split_watchers *h = NULL; /* (the hash table's get moves nothing of the block table: e stays valid) */
    if ((watched || set == EDAN_SPLIT_LATER) && !(h = edan_keymap_get(&w->watched, b, row, NULL)))
        return -1;
    const uint64_t i = r->next++;
    r->accesses++;
    r->in_sample++;
    edan_windows_access(&r->all, prev_of(e->last_all & ~WATCHED), i);
    e->last_all = (i + 1) | (e->last_all & WATCHED);
    if (set == EDAN_SPLIT_LATER) {
        split_watch *x = &w->watch[w->n_watch];
        memset(x, 0, sizeof *x);
        x->block = b;
        x->row = row;
        x->at = i;
        x->live = true;
        x->next = h->chain;
        for (unsigned s = 0; s < w->n_sets; s++) {
            x->pred[s] = e->last[s];
            h->open[s]++;
        }
        *ticket = w->n_watch++;
        h->chain = w->n_watch;
        e->last_all |= WATCHED;
        return 0;
    }
    if (h && h->open[set]) { /* the first access of this set after each open watcher: their succ */
        for (uint32_t *link = &h->chain; *link;) {
            split_watch *x = &w->watch[*link - 1];
            if (!x->live) {
                *link = x->next;
                continue;
            }
            if (!x->succ[set])
                x->succ[set] = i + 1;
            link = &x->next;
        }
        h->open[set] = 0;
    }
    edan_windows_access(&r->set[set], prev_of(e->last[set]), i);
    e->last[set] = i + 1;
    return 0;
}

int edan_split_windows_settle(edan_split_windows *w, uint32_t ticket, int set)
{
    split_watch *x = &w->watch[ticket];
    edan_split_row *r = &w->rows[x->row];
    split_block *e = edan_blocktab_get(&r->blocks, x->block, LEAF_BITS, sizeof *e);
    split_watchers *h = e ? edan_keymap_get(&w->watched, x->block, x->row, NULL) : NULL;
    if (!h)
        return -1;
    const uint64_t at = x->at;
    edan_windows_insert(&r->set[set], prev_of(x->pred[set]), at, prev_of(x->succ[set]));
    if (e->last[set] < at + 1)
        e->last[set] = at + 1;
    x->live = false;
    for (unsigned s = 0; s < w->n_sets; s++)
        if (!x->succ[s])
            h->open[s]--;
    /* it is now an access of `set` between the other watchers' pred and succ, or beyond them */
    for (uint32_t *link = &h->chain; *link;) {
        split_watch *y = &w->watch[*link - 1];
        if (!y->live) {
            *link = y->next;
            continue;
        }
        if (y->at > at && y->pred[set] < at + 1)
            y->pred[set] = at + 1;
        if (y->at < at && (!y->succ[set] || y->succ[set] > at + 1)) {
            if (!y->succ[set])
                h->open[set]--;
            y->succ[set] = at + 1;
        }
        link = &y->next;
    }
    if (!h->chain) /* no live watcher left: its accesses need not look for them */
        e->last_all &= ~WATCHED;
    return 0;
}

int edan_split_windows_sample(edan_split_windows *w)
{
    const uint64_t step = 1ull << EDAN_SPLIT_SAMPLE_BITS;
    for (uint32_t k = 0; k < w->n_rows; k++) {
        edan_split_row *r = &w->rows[k];
        if (!r->in_sample)
            continue;
        if (r->next > (1ull << 62) - step) /* indices + 1 stay below WATCHED */
            return -1;
        edan_window_cuts_add(&r->cuts, r->in_sample);
        r->in_sample = 0;
        r->next = (r->next + step - 1) & ~(step - 1);
    }
    return 0;
}

size_t edan_split_row_mean(const edan_split_row *r, const edan_windows *stream, double *size, double *blocks,
                           size_t cap)
{
    if (!r->cuts.samples)
        return edan_windows_mean(stream, r->accesses, size, blocks, cap);
    edan_window_cuts c = r->cuts;
    edan_window_cuts_add(&c, r->in_sample);
    return edan_windows_mean_cut(stream, &c, size, blocks, cap);
}
