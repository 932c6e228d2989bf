/*
 * zeroing.h - the kernel's zero fill of a fresh page at the program's first
 * store to it (machine files' `[machine] page_zeroing = first-store`,
 * docs/machines.md).
 *
 *   edan_zeroing z;  edan_zeroing_init(&z);
 *   int f = edan_zeroing_first(&z, addr);   1: the first store to addr's page (marked now), 0: not, -1: out of memory
 *   edan_zeroing_free(&z);
 *
 * On Linux an anonymous page (the heap, .bss, mmap'd memory, the stack) has
 * no frame until the program first writes it: the store faults, the kernel
 * takes a frame and clears its 4 KiB with ordinary stores (clear_page: `rep
 * stosb` on x86-64, `dc zva` on AArch64), which leave the page's lines in
 * the core's caches, dirty, and the store then retries and finds its line
 * there. A read before any write maps the shared zero page, and allocates
 * and clears nothing. So a loop that writes an array for the first time
 * finds its lines in the first level, where a model of gem5's syscall
 * emulation (frames given without any access: `none`) takes each one from
 * memory.
 *
 * The caller asks once per store (the program's, warm ones too, and the
 * kernel's own writes: a read() into a fresh buffer faults the same way), in
 * stream order, at the address the store starts; it puts the page's lines in
 * its caches before the store when the answer is 1.
 *
 * Invariants: a page answers 1 exactly once, at the first store to it the
 * set was asked about; the answers depend on the stream alone.
 */
#ifndef EDAN_ANALYSIS_ZEROING_H
#define EDAN_ANALYSIS_ZEROING_H

#include <stdint.h>

#include "util/keymap.h"

#define EDAN_ZEROING_SHIFT 12u /* 4 KiB pages: what Linux zeroes at a fault without transparent huge pages */
#define EDAN_ZEROING_MEMO 64   /* recent written pages, direct-mapped: a loop's stores find their pages here */

typedef struct edan_zeroing {
    uint64_t memo[EDAN_ZEROING_MEMO]; /* a page already written (UINT64_MAX: empty, above every page number) */
    edan_keymap written;              /* every page written so far */
} edan_zeroing;

/* An empty set: 0, or -1 when out of memory. */
int edan_zeroing_init(edan_zeroing *z);
void edan_zeroing_free(edan_zeroing *z);
/* The slow path of edan_zeroing_first(): page not in the memo. */
int edan_zeroing_lookup(edan_zeroing *z, uint64_t page);

/* 1 when this is the first store to addr's page (the page is marked written), 0 when not, -1 out of memory. */
static inline int edan_zeroing_first(edan_zeroing *z, uint64_t addr)
{
    const uint64_t page = addr >> EDAN_ZEROING_SHIFT;
    if (__builtin_expect(z->memo[page % EDAN_ZEROING_MEMO] == page, 1))
        return 0;
    return edan_zeroing_lookup(z, page);
}

#endif
