/*
 * pagemap.h - where the simulated machine puts the program's pages in
 * physical memory, the part of an address that picks a cache's set above the
 * page offset.
 *
 *   edan_pagemap m;  edan_pagemap_init(&m);
 *   uint64_t pa = edan_pagemap_translate(&m, va);   UINT64_MAX when out of memory
 *   edan_pagemap_free(&m);
 *
 * First touch (machine files' `pages = first-touch`, docs/machines.md): each
 * 4 KiB page gets the next free frame, numbered from 0 (at EDAN_PAGEMAP_BASE), the first time an
 * address in it is translated; the offset in the page is kept. This is how
 * gem5's syscall emulation places the pages of the heap and of mmap'd memory
 * (MemState::fixupFault allocates a frame at a page's first touch): two arrays
 * initialised together in one loop get alternate frames, so each uses half of
 * a cache's sets whose index reaches above the page offset.
 *
 * The program's image first (edan_pagemap_load()): gem5 loads the ELF file's
 * PT_LOAD segments before the program runs (Process::initState writes each
 * segment through a port proxy that allocates the frame of each page it
 * writes, SETranslatingPortProxy::Always), so the image's pages take frames
 * 0, 1, ... in the program headers' order and in address order within each
 * (a segment's file part, then its zeroed part, .bss: contiguous), a page
 * two segments share taken once, before any page the program touches; the
 * frame allocator starts at the memory's first page (MemPool, address 0 in
 * gem5_machine.py's one memory range) and skips none. Its stack's first page
 * comes next (RiscvProcess::argsInit writes argv, envp and auxv there), the
 * page the program's first stack access takes when it touches the stack
 * before any other page outside its image (crt's first instructions read
 * argc at sp); the model leaves it to first touch, QEMU's initial stack
 * being laid out otherwise than gem5's.
 *
 * Invariants: the map is a bijection from the pages seen to 0..pages-1 in the
 * order of their first translation (the image's pages first, when loaded);
 * translating the same stream twice from an
 * empty map gives the same addresses. The caller translates once per access,
 * at the address the access starts (an access that crosses into the next page
 * lands in the next frame, which is what the page after would get only when
 * it was touched next).
 */
#ifndef EDAN_ANALYSIS_PAGEMAP_H
#define EDAN_ANALYSIS_PAGEMAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/keymap.h"

#define EDAN_PAGEMAP_SHIFT 12 /* 4 KiB pages: RISC-V's, x86-64's and AArch64's (as Linux configures it) base page */
#define EDAN_PAGEMAP_MEMO 256 /* recent pages, direct-mapped: a loop over a few arrays finds its frames here */
/*
 * Frame 0's address: above every user-space address of the ISAs edan traces,
 * so a data frame never aliases an instruction's line (the model fetches
 * instructions at their virtual addresses, which keep their set: the image's
 * pages get theirs in address order when it is loaded); a multiple of every
 * cache's set span, so the sets are the frame numbers'.
 */
#define EDAN_PAGEMAP_BASE (1ull << 62)

typedef struct edan_pagemap {
    /*
     * memo_page[i]: a page (UINT64_MAX: empty, above every page number) whose
     * physical address is its virtual one plus memo_delta[i] (mod 2^64:
     * EDAN_PAGEMAP_BASE + frame * 4 KiB - page * 4 KiB), so a hit is one add.
     */
    uint64_t memo_page[EDAN_PAGEMAP_MEMO];
    uint64_t memo_delta[EDAN_PAGEMAP_MEMO];
    edan_keymap frames; /* page -> frame, every page seen */
    uint64_t next;      /* the next free frame */
    uint64_t *page;     /* frame -> page, frames 0 .. next - 1 */
    uint64_t cap;       /* page's room */
    uint64_t mark;      /* the caller's: next at a point of its stream (0 at init) */
} edan_pagemap;

/* The physical address of offset off in frame: the one place that lays frames out. */
static inline uint64_t edan_pagemap_frame_addr(uint64_t frame, uint64_t off)
{
    return EDAN_PAGEMAP_BASE | frame << EDAN_PAGEMAP_SHIFT | off;
}

/* The frame of pa, a physical address this map made. */
static inline uint64_t edan_pagemap_frame_of(uint64_t pa)
{
    return (pa - EDAN_PAGEMAP_BASE) >> EDAN_PAGEMAP_SHIFT;
}

/* An empty map: 0, or -1 when out of memory. */
int edan_pagemap_init(edan_pagemap *m);
void edan_pagemap_free(edan_pagemap *m);

/* [start, end): virtual addresses, a segment's (p_vaddr, p_vaddr + p_memsz). */
typedef struct edan_pagemap_range {
    uint64_t start, end;
} edan_pagemap_range;

/*
 * Load the program's image: the pages of each range, ranges in the order
 * given (the program headers'), each's pages in address order, get the next
 * free frames, a page already placed keeping its own (see above). Before
 * the first translation. 0, or -1 when out of memory.
 */
int edan_pagemap_load(edan_pagemap *m, const edan_pagemap_range *r, size_t n);

/* The frame of page (made at its first touch); UINT64_MAX when out of memory. */
uint64_t edan_pagemap_frame(edan_pagemap *m, uint64_t page);

/* addr's physical address (see above); UINT64_MAX when out of memory. */
static inline uint64_t edan_pagemap_translate(edan_pagemap *m, uint64_t addr)
{
    const uint64_t page = addr >> EDAN_PAGEMAP_SHIFT;
    const unsigned i = (unsigned)(page % EDAN_PAGEMAP_MEMO);
    if (__builtin_expect(m->memo_page[i] == page, 1))
        return addr + m->memo_delta[i];
    const uint64_t frame = edan_pagemap_frame(m, page);
    if (frame == UINT64_MAX)
        return UINT64_MAX;
    return edan_pagemap_frame_addr(frame, addr & ((1u << EDAN_PAGEMAP_SHIFT) - 1));
}

/* The virtual address of pa, a physical address this map made. */
static inline uint64_t edan_pagemap_virtual(const edan_pagemap *m, uint64_t pa)
{
    const uint64_t off = pa & ((1u << EDAN_PAGEMAP_SHIFT) - 1);
    return m->page[edan_pagemap_frame_of(pa)] << EDAN_PAGEMAP_SHIFT | off;
}

/* addr's physical address when its page has a frame already, else UINT64_MAX (nothing is placed). */
uint64_t edan_pagemap_placed(const edan_pagemap *m, uint64_t addr);

#endif
