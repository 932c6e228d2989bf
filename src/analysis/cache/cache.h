/*
 * cache.h - set-associative LRU cache hierarchy, compiled into the analyzer's
 * hot loop so that an access inlines.
 *
 * Each set keeps its tags in MRU order (index 0 = most recently used), so a
 * hit on the MRU way costs one compare and LRU eviction is "drop the last".
 *
 * How accesses are counted (the contract the metrics rely on):
 *  - An access touches every line in [addr, addr+size); a line-crossing access
 *    is one access per line and reaches RAM if any line does.
 *  - Load: probe levels top-down until a hit; every level that missed
 *    allocates the line. It reaches RAM when the last level missed
 *    (reads_ram). Bytes read from RAM: one line per missing line. A dirty
 *    line found below goes up dirty and stays clean there (gem5's mostly
 *    inclusive caches); a store miss's fetch leaves the copy below clean.
 *  - Store at a write-back level: a hit marks the line dirty and stops there.
 *    A miss with write-allocate fetches the line from below (a read that may
 *    reach RAM) and keeps it dirty; without write-allocate the store passes to
 *    the level below.
 *  - Store at a write-through level: a hit updates the line, a miss allocates
 *    it only with write-allocate (fetching it from below); either way the
 *    store passes to the level below. Below the last level is RAM, so with a
 *    write-through last level every store reaches RAM (writes_ram).
 *  - Evicting a dirty line writes it back to the level below as a line-sized
 *    write (may propagate to RAM; a level it misses takes it without a
 *    read). Those bytes are counted in ram_bytes but do not make the access
 *    itself a RAM access: a write-back is posted, off the critical path of
 *    the instruction that caused it.
 *  - AMO: a load followed by a store of the same bytes.
 */
#ifndef EDAN_ANALYSIS_CACHE_H
#define EDAN_ANALYSIS_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "trace/exec.h"
#include "util/error.h"

#define EDAN_CACHE_MAX_LEVELS 4

typedef struct edan_cache_level_config {
    uint64_t size;       /* bytes: line x ways x sets (48 KiB of 12 ways is 64 sets) */
    uint32_t line;       /* bytes, power of two, >= 4 */
    uint32_t ways;       /* associativity >= 1; size / (line * ways) sets, a power of two */
    bool write_back;     /* false: write-through */
    bool write_allocate; /* allocate a line on a store miss */
} edan_cache_level_config;

typedef struct edan_cache_config {
    int n_levels; /* 0 = no cache: every load and store reaches RAM */
    edan_cache_level_config level[EDAN_CACHE_MAX_LEVELS];
} edan_cache_config;

/* The paper's cache: one level, 64-byte lines, 2-way, LRU, write-through, no write-allocate. */
edan_cache_level_config edan_cache_level_default(uint64_t size);

/*
 * Parse a cache description: "none"; a preset, "paper" (the paper's 32 KiB
 * cache: 64-byte lines, 2-way, write-through, no write-allocate) or
 * "server" (a server core's write-back hierarchy: 32 KiB 8-way, 1 MiB
 * 16-way, 32 MiB 16-way, write-back and write-allocate at every level); or
 * levels separated by '+', each
 * "SIZE[,key=value...]" with SIZE like 32K, 32KiB, 1M, 65536 and keys
 * line=BYTES, ways=N, write=back|through, alloc=yes|no (the defaults are the
 * paper's: line=64, ways=2, write=through, alloc=no). Example:
 * "32K,ways=8,write=back,alloc=yes+1M,ways=16,write=back,alloc=yes".
 * Returns 0, or -1 with a message naming the offending part.
 */
int edan_cache_config_parse(const char *text, edan_cache_config *out, edan_error *err);
/* Canonical text form, parseable by edan_cache_config_parse. */
void edan_cache_config_format(const edan_cache_config *c, char *buf, size_t cap);

typedef struct edan_cache_level {
    uint64_t *tags; /* sets * ways entries: their format and order are the functions below (edan_cache_tag()...) */
    uint64_t set_mask;
    uint32_t ways;
    uint32_t line_shift;
    bool write_back;
    bool write_allocate;
    uint64_t hits, misses, writebacks;
    uint64_t pf_unused; /* lines marked prefetched (EDAN_TAG_PREFETCHED) evicted before any access used them */
} edan_cache_level;

/*
 * The lines a read from RAM caused to be written back to RAM (the dirty
 * victims of its fills), kept by the line read, in a direct-mapped table of
 * EDAN_CACHE_WB_SLOTS: the timing model's DRAM opens their rows
 * (analysis/dram/dram.h). Only when asked for (edan_cache_wb_enable()).
 */
#define EDAN_CACHE_WB_SLOTS 256
#define EDAN_CACHE_WB_LINES 4
typedef struct edan_cache_wb {
    uint64_t key; /* the line read from RAM + 1 (address >> line shift); 0: none */
    uint32_t n;   /* write-backs to RAM it caused, the first EDAN_CACHE_WB_LINES in line[] */
    uint64_t line[EDAN_CACHE_WB_LINES];
} edan_cache_wb;

typedef struct edan_cache {
    int n_levels;
    edan_cache_level level[EDAN_CACHE_MAX_LEVELS];
    uint64_t ram_read_bytes, ram_write_bytes;
    edan_cache_wb *wb; /* [line % EDAN_CACHE_WB_SLOTS], NULL: not kept */
    /* the entry of the last read from RAM, which the write-backs after it join (the timing model hands
       them to the DRAM in the same step, before the next read from RAM) */
    edan_cache_wb *wb_cur;
} edan_cache;

/* What one access did. */
typedef struct edan_cache_result {
    bool reads_ram;     /* the data had to come from RAM */
    bool writes_ram;    /* the store's own data went to RAM */
    uint32_t ram_bytes; /* all bytes moved between the last level and RAM, write-backs included */
    uint32_t level;     /* where the data read came from (a load's, or a write-allocate fill's): 0 the first
                           level, k level k, n_levels RAM; 0 when nothing was read */
} edan_cache_result;

int edan_cache_init(edan_cache *c, const edan_cache_config *cfg, edan_error *err);
void edan_cache_free(edan_cache *c);
/* Keep the write-backs each read from RAM causes (c->wb): 0, or -1 with err set when out of memory. */
int edan_cache_wb_enable(edan_cache *c, edan_error *err);

/* A read of `line` from RAM: its write-backs are recorded from now on (with c->wb). */
static inline void edan_cache_wb_read(edan_cache *c, uint64_t line)
{
    edan_cache_wb *e = &c->wb[line % EDAN_CACHE_WB_SLOTS];
    e->key = line + 1;
    e->n = 0;
    c->wb_cur = e;
}

/* A write-back of `line` to RAM, recorded with the last read from RAM (with c->wb). */
static inline void edan_cache_wb_write(edan_cache *c, uint64_t line)
{
    edan_cache_wb *e = c->wb_cur;
    if (e && e->n < EDAN_CACHE_WB_LINES)
        e->line[e->n] = line;
    if (e)
        e->n++;
}

/* ---- tag format and LRU order ------------------------------------------- */

/*
 * Defined here and nowhere else: the model below and the analyzer's look at
 * level 0 (edag_sweep.c) both go through these functions, so the encoding
 * of an entry and the order of a set can change in one place.
 *
 * An entry of a level's tags is (line address << 3) | EDAN_TAG_VALID, plus
 * EDAN_TAG_DIRTY when the line is dirty and EDAN_TAG_PREFETCHED when a
 * prefetcher brought it and no access has used it yet (prefetch.h); 0
 * holds no line, so a word of 0 can stand for a set that never hits. A set is `ways` entries in LRU
 * order: entry 0 the most recently used, the last the next victim.
 *
 * These and the model's steps below are always_inline: they are the
 * analyzer's hot path, and left to GCC's heuristics this layer of small
 * functions changed what it inlined where (0.1% more instructions on a
 * one-lane 32K run of bench/instructions.sh).
 */
#define EDAN_TAG_VALID 1u
#define EDAN_TAG_DIRTY 2u
#define EDAN_TAG_PREFETCHED 4u

/* The entry of a line just filled. */
static inline __attribute__((always_inline)) uint64_t edan_cache_tag(uint64_t line_addr, bool dirty)
{
    return (line_addr << 3) | EDAN_TAG_VALID | (dirty ? EDAN_TAG_DIRTY : 0);
}

/* Whether a tags entry holds the line at line_addr (dirty or not, prefetched or not). */
static inline __attribute__((always_inline)) bool edan_cache_tag_holds(uint64_t tag, uint64_t line_addr)
{
    return (tag & ~(uint64_t)(EDAN_TAG_DIRTY | EDAN_TAG_PREFETCHED)) == ((line_addr << 3) | EDAN_TAG_VALID);
}

/* Whether evicting the entry writes its line back: it is valid and dirty. */
static inline __attribute__((always_inline)) bool edan_cache_tag_dirty(uint64_t tag)
{
    return (tag & (EDAN_TAG_VALID | EDAN_TAG_DIRTY)) == (EDAN_TAG_VALID | EDAN_TAG_DIRTY);
}

/* The line address a valid entry holds. */
static inline __attribute__((always_inline)) uint64_t edan_cache_tag_line(uint64_t tag)
{
    return tag >> 3;
}

/* A victim's count in pf_unused: 1 when a prefetcher brought it and no access used it. */
static inline __attribute__((always_inline)) uint64_t edan_cache_tag_unused(uint64_t tag)
{
    return (tag & EDAN_TAG_PREFETCHED) >> 2;
}

/* The set of line_addr in tags of (set_mask + 1) sets of `ways` entries (a level's, or a copy of its geometry). */
static inline __attribute__((always_inline)) uint64_t *edan_cache_set(uint64_t *tags, uint64_t set_mask, uint64_t ways,
                                                                      uint64_t line_addr)
{
    return tags + (line_addr & set_mask) * ways;
}

/* The set of line_addr at level l. */
static inline __attribute__((always_inline)) uint64_t *edan_cache_level_set(const edan_cache_level *l,
                                                                            uint64_t line_addr)
{
    return edan_cache_set(l->tags, l->set_mask, l->ways, line_addr);
}

/* Whether the set's most recently used entry holds line_addr: a hit that leaves the LRU order as it is. */
static inline __attribute__((always_inline)) bool edan_cache_mru_holds(const uint64_t *set, uint64_t line_addr)
{
    return edan_cache_tag_holds(set[0], line_addr);
}

/* A store's hit on the most recently used entry (edan_cache_mru_holds()) at a write-back level: the line is dirty. */
static inline __attribute__((always_inline)) void edan_cache_mru_make_dirty(uint64_t *set)
{
    set[0] |= EDAN_TAG_DIRTY;
}

/* The MRU hit of edan_cache_mru_holds(), marking the line dirty with make_dirty. */
static inline __attribute__((always_inline)) bool edan_cache_mru_hit(uint64_t *set, uint64_t line_addr, bool make_dirty)
{
    if (!edan_cache_mru_holds(set, line_addr))
        return false;
    set[0] |= make_dirty ? EDAN_TAG_DIRTY : 0;
    return true;
}

/*
 * Entries 0 to w - 1 of a set moved one down (to 1 to w), w >= 1. Up to 15
 * (a 16-way set's hit in its last way) a jump into a row of moves, the
 * highest first, each independent of the others: GCC made the loop a call to
 * memmove, about 30 instructions with the call's set-up for the two to four
 * entries of a typical hit (docs/benchmarks.md, issue 39), and a rotation
 * through a register, which it keeps inline, ran hydro's eight-cache sweep
 * 12% slower. Larger sets keep memmove.
 */
static inline __attribute__((always_inline)) void edan_cache_shift_down(uint64_t *set, uint32_t w)
{
    switch (w) {
    case 15:
        set[15] = set[14];
        __attribute__((fallthrough));
    case 14:
        set[14] = set[13];
        __attribute__((fallthrough));
    case 13:
        set[13] = set[12];
        __attribute__((fallthrough));
    case 12:
        set[12] = set[11];
        __attribute__((fallthrough));
    case 11:
        set[11] = set[10];
        __attribute__((fallthrough));
    case 10:
        set[10] = set[9];
        __attribute__((fallthrough));
    case 9:
        set[9] = set[8];
        __attribute__((fallthrough));
    case 8:
        set[8] = set[7];
        __attribute__((fallthrough));
    case 7:
        set[7] = set[6];
        __attribute__((fallthrough));
    case 6:
        set[6] = set[5];
        __attribute__((fallthrough));
    case 5:
        set[5] = set[4];
        __attribute__((fallthrough));
    case 4:
        set[4] = set[3];
        __attribute__((fallthrough));
    case 3:
        set[3] = set[2];
        __attribute__((fallthrough));
    case 2:
        set[2] = set[1];
        __attribute__((fallthrough));
    case 1:
        set[1] = set[0];
        break;
    default:
        memmove(set + 1, set, w * sizeof *set);
    }
}

/*
 * Whether entry w >= 1 of the set holds line_addr: if so it is a hit, and
 * the line becomes the most recently used (dirty with make_dirty), the
 * entries before it moving one down.
 */
static inline __attribute__((always_inline)) bool edan_cache_probe_way(uint64_t *set, uint32_t w, uint64_t line_addr,
                                                                       bool make_dirty)
{
    if (!edan_cache_tag_holds(set[w], line_addr))
        return false;
    uint64_t t = set[w] | (make_dirty ? EDAN_TAG_DIRTY : 0);
    edan_cache_shift_down(set, w);
    set[0] = t;
    return true;
}

/* Whether way 1 to ways - 1 of the set holds line_addr: then edan_cache_probe_way()'s hit. */
static inline __attribute__((always_inline)) bool edan_cache_probe_ways(uint64_t *set, uint32_t ways,
                                                                        uint64_t line_addr, bool make_dirty)
{
    for (uint32_t w = 1; w < ways; w++)
        if (edan_cache_probe_way(set, w, line_addr, make_dirty))
            return true;
    return false;
}

/* edan_cache_probe_ways() of an 8-way set, unrolled: each way's probe a few instructions, each hit's shift its moves.
 */
static inline __attribute__((always_inline)) bool edan_cache_probe_8ways(uint64_t *set, uint64_t line_addr,
                                                                         bool make_dirty)
{
#pragma GCC unroll 8
    for (uint32_t w = 1; w < 8; w++)
        if (edan_cache_probe_way(set, w, line_addr, make_dirty))
            return true;
    return false;
}

/* A line filled into the set as its most recently used entry; returns the evicted entry (the LRU one, maybe 0). */
static inline __attribute__((always_inline)) uint64_t edan_cache_set_insert(uint64_t *set, uint32_t ways,
                                                                            uint64_t line_addr, bool dirty)
{
    uint64_t victim = set[ways - 1];
    /* a loop of moves cost the chase's eight-cache sweep 3% more instructions than memmove */
    if (ways == 2)
        set[1] = set[0];
    else if (ways > 2)
        memmove(set + 1, set, (ways - 1) * sizeof *set);
    set[0] = edan_cache_tag(line_addr, dirty);
    return victim;
}

/* ---- the model ------------------------------------------------------------ */

/*
 * Look up a line at one level; on a hit move it to MRU and return true.
 * Counts no hit or miss: a write-back from the level above finds its line
 * this way (it is the upper level's write-back, not an access of this one).
 */
static inline __attribute__((always_inline)) bool edan_cache_level_find(edan_cache_level *l, uint64_t line_addr,
                                                                        bool make_dirty)
{
    uint64_t *set = edan_cache_level_set(l, line_addr);
    return edan_cache_mru_hit(set, line_addr, make_dirty) || edan_cache_probe_ways(set, l->ways, line_addr, make_dirty);
}

/*
 * edan_cache_level_find() of an access of the level, counted: the level's
 * hits and misses are its demand accesses (loads, stores, an upper level's
 * reads of a line), as gem5's demand hits and misses are.
 */
static inline __attribute__((always_inline)) bool edan_cache_level_probe(edan_cache_level *l, uint64_t line_addr,
                                                                         bool make_dirty)
{
    const bool hit = edan_cache_level_find(l, line_addr, make_dirty);
    l->hits += hit;
    l->misses += !hit;
    return hit;
}

/* Insert a line as MRU; returns the evicted entry (0 if none was valid). */
static inline __attribute__((always_inline)) uint64_t edan_cache_level_fill(edan_cache_level *l, uint64_t line_addr,
                                                                            bool dirty)
{
    return edan_cache_set_insert(edan_cache_level_set(l, line_addr), l->ways, line_addr, dirty);
}

static void edan_cache_write_line(edan_cache *c, int lvl, uint64_t byte_addr, uint32_t len, edan_cache_result *r,
                                  bool own);

/*
 * A level that hands its most recently used line up Modified keeps a clean
 * copy (gem5's mostly inclusive caches answer a ReadReq or ReadExReq for a
 * dirty line that way, Cache::satisfyRequest): if the set's MRU entry holds
 * line_addr, its dirty bit moves up. Returns whether it was dirty.
 */
static inline __attribute__((always_inline)) bool edan_cache_level_clean_mru(edan_cache_level *l, uint64_t line_addr)
{
    uint64_t *set = edan_cache_level_set(l, line_addr);
    if (!edan_cache_mru_holds(set, line_addr))
        return false;
    const bool dirty = (set[0] & EDAN_TAG_DIRTY) != 0;
    set[0] &= ~(uint64_t)EDAN_TAG_DIRTY;
    return dirty;
}

/*
 * A clean victim of a level leaves it for nothing below: the first level
 * below that holds the line makes it its most recently used, and nothing
 * else changes (no fill, no hit or miss counted). gem5's caches do this: a
 * clean line evicted sends a CleanEvict down (writeback_clean = False), which
 * looks the line up in each cache it reaches (BaseSetAssoc::accessBlock
 * touches it in the replacement policy) and stops at the first that holds
 * it. So a line the level above keeps using stays young below however long
 * it stays above; without it, PolyBench's flush left a quarter to a half of
 * gemm's arrays in a 1 MiB L2 in the model and none in gem5 (docs/accuracy.md).
 */
static inline void edan_cache_evict_clean(edan_cache *c, int below, uint64_t victim, uint32_t shift)
{
    if (!(victim & EDAN_TAG_VALID))
        return;
    const uint64_t byte_addr = edan_cache_tag_line(victim) << shift;
    for (; below < c->n_levels; below++) {
        edan_cache_level *l = &c->level[below];
        if (edan_cache_level_find(l, byte_addr >> l->line_shift, false))
            return;
    }
}

/* A read of the line holding byte_addr starting at level lvl; returns true if it came from RAM. */
static inline __attribute__((always_inline)) bool edan_cache_read_line(edan_cache *c, int lvl, uint64_t byte_addr,
                                                                       edan_cache_result *r)
{
    int miss_to = lvl;
    for (; miss_to < c->n_levels; miss_to++) {
        edan_cache_level *l = &c->level[miss_to];
        if (edan_cache_level_probe(l, byte_addr >> l->line_shift, false))
            break;
    }
    bool from_ram = miss_to == c->n_levels;
    if ((uint32_t)miss_to > r->level)
        r->level = (uint32_t)miss_to;
    /*
     * A dirty line found below goes up dirty: gem5's mostly inclusive cache
     * answers a read with its dirty line as Modified and keeps it clean
     * (Cache::satisfyRequest), so the level that asked writes it back when it
     * evicts it, and the copy below can leave without a write-back.
     */
    bool pass_dirty = false;
    if (miss_to > lvl && !from_ram && c->level[miss_to].line_shift == c->level[lvl].line_shift) {
        /* the probe left the line the most recently used */
        pass_dirty = edan_cache_level_clean_mru(&c->level[miss_to], byte_addr >> c->level[miss_to].line_shift);
    }
    if (from_ram) {
        uint32_t line = 1u << c->level[c->n_levels - 1].line_shift;
        r->ram_bytes += line;
        c->ram_read_bytes += line;
        if (__builtin_expect(c->wb != NULL, 0))
            edan_cache_wb_read(c, byte_addr >> c->level[c->n_levels - 1].line_shift);
    }
    /* Fill bottom-up so a victim written back lands in a level that already has the new line. */
    for (int k = miss_to - 1; k >= lvl; k--) {
        edan_cache_level *l = &c->level[k];
        uint64_t victim = edan_cache_level_fill(l, byte_addr >> l->line_shift, pass_dirty && k == lvl);
        l->pf_unused += edan_cache_tag_unused(victim);
        if (edan_cache_tag_dirty(victim)) {
            l->writebacks++;
            edan_cache_write_line(c, k + 1, edan_cache_tag_line(victim) << l->line_shift, 1u << l->line_shift, r,
                                  false);
        } else {
            edan_cache_evict_clean(c, k + 1, victim, l->line_shift);
        }
    }
    return from_ram;
}

/*
 * A write of len bytes at byte_addr arriving at level lvl (own: the store's
 * own data, as opposed to a write-back of a victim line).
 */
static void edan_cache_write_line(edan_cache *c, int lvl, uint64_t byte_addr, uint32_t len, edan_cache_result *r,
                                  bool own)
{
    for (; lvl < c->n_levels; lvl++) {
        edan_cache_level *l = &c->level[lvl];
        uint64_t line_addr = byte_addr >> l->line_shift;
        /* a write-back from above (not own) is no access of this level: no hit or miss counted */
        if (own ? edan_cache_level_probe(l, line_addr, l->write_back)
                : edan_cache_level_find(l, line_addr, l->write_back)) {
            if (l->write_back)
                return;
            continue; /* write-through: updated here, goes on down */
        }
        if (l->write_allocate) {
            /*
             * Fetch the line from below, then it is present here; a write-back
             * of a whole line is written in without a read (gem5's WritebackDirty)
             */
            if ((own || len < (1u << l->line_shift)) && edan_cache_read_line(c, lvl + 1, byte_addr, r) && own)
                r->reads_ram = true;
            if (lvl + 1 < c->n_levels && l->write_back && c->level[lvl + 1].line_shift == l->line_shift) {
                /* the level below gave it up Modified (gem5's ReadExReq): its copy is clean, the read made it MRU */
                edan_cache_level_clean_mru(&c->level[lvl + 1], line_addr);
            }
            uint64_t victim = edan_cache_level_fill(l, line_addr, l->write_back);
            l->pf_unused += edan_cache_tag_unused(victim);
            if (edan_cache_tag_dirty(victim)) {
                l->writebacks++;
                edan_cache_write_line(c, lvl + 1, edan_cache_tag_line(victim) << l->line_shift, 1u << l->line_shift, r,
                                      false);
            } else {
                edan_cache_evict_clean(c, lvl + 1, victim, l->line_shift);
            }
            if (l->write_back)
                return;
        }
    }
    /* Reached RAM. */
    r->ram_bytes += len;
    c->ram_write_bytes += len;
    if (__builtin_expect(c->wb != NULL, 0) && !own)
        edan_cache_wb_write(c, byte_addr >> c->level[c->n_levels - 1].line_shift);
    if (own)
        r->writes_ram = true;
}

/* Any access: the general path of edan_cache_access(). */
static __attribute__((noinline, unused)) edan_cache_result edan_cache_access_general(edan_cache *c, uint64_t addr,
                                                                                     uint32_t size, bool is_store)
{
    edan_cache_result r = {false, false, 0, 0};
    uint32_t shift = c->level[0].line_shift;
    uint64_t first = addr >> shift, last = (addr + size - 1) >> shift;
    for (uint64_t line = first; line <= last; line++) {
        uint64_t a = line == first ? addr : line << shift;
        if (is_store) {
            uint64_t end = line == last ? addr + size : (line + 1) << shift;
            edan_cache_write_line(c, 0, a, (uint32_t)(end - a), &r, true);
        } else if (edan_cache_read_line(c, 0, a, &r)) {
            r.reads_ram = true;
        }
    }
    return r;
}

/*
 * The common case of an access, inlined: it stays in one line, which is the
 * most recently used of its set in the first level (a stream of accesses
 * walking through a line), and it is a load, or a store to a write-back
 * level. Then it ends there, exactly as the general path would end it: this
 * does the access and returns true. Otherwise it changes nothing and returns
 * false.
 */
static inline __attribute__((always_inline)) bool edan_cache_try_mru(edan_cache *c, uint64_t addr, uint32_t size,
                                                                     bool is_store)
{
    edan_cache_level *l0 = &c->level[0];
    const uint32_t shift = l0->line_shift;
    const uint64_t line = addr >> shift;
    if (line == (addr + size - 1) >> shift && (!is_store || l0->write_back)) {
        if (edan_cache_mru_hit(edan_cache_level_set(l0, line), line, is_store)) {
            l0->hits++;
            return true;
        }
    }
    return false;
}

/*
 * One level and an access within one line (every configuration of a
 * typical sweep, and almost every access): the general path's steps for
 * that case, inline and without its loops over lines and levels. Below the
 * level is RAM, so a fill reads a line from RAM, a dirty victim is written
 * back to it, and a store that passes through writes its own bytes there.
 */
static inline __attribute__((always_inline)) edan_cache_result edan_cache_access_one_level(edan_cache *c, uint64_t addr,
                                                                                           uint32_t size, bool is_store)
{
    edan_cache_level *l = &c->level[0];
    const uint64_t line = addr >> l->line_shift;
    const uint32_t line_bytes = 1u << l->line_shift;
    edan_cache_result r = {false, false, 0, 0};
    if (edan_cache_level_probe(l, line, is_store && l->write_back)) {
        if (!is_store || l->write_back)
            return r;
    } else if (!is_store || l->write_allocate) {
        r.reads_ram = true;
        r.level = 1;
        r.ram_bytes = line_bytes;
        c->ram_read_bytes += line_bytes;
        if (__builtin_expect(c->wb != NULL, 0))
            edan_cache_wb_read(c, line);
        const uint64_t victim = edan_cache_level_fill(l, line, is_store && l->write_back);
        l->pf_unused += edan_cache_tag_unused(victim);
        if (edan_cache_tag_dirty(victim)) {
            l->writebacks++;
            r.ram_bytes += line_bytes;
            c->ram_write_bytes += line_bytes;
            if (__builtin_expect(c->wb != NULL, 0))
                edan_cache_wb_write(c, edan_cache_tag_line(victim));
        }
        if (!is_store || l->write_back)
            return r;
    }
    /* a store through the level (write-through, or a miss without write-allocate) */
    r.writes_ram = true;
    r.ram_bytes += size;
    c->ram_write_bytes += size;
    return r;
}

/*
 * The next commonest case, inline as Cachegrind's hits are: an access in one
 * line that hits another way than the most recently used of the first
 * level's set (edan_cache_try_mru() having missed: two arrays whose lines
 * share a set, a row read again), a load or a store to a write-back level.
 * The general path would end there too, with the line made the most
 * recently used (and dirty for a store): this does it and returns true, or
 * changes nothing and returns false.
 */
static inline __attribute__((always_inline)) bool edan_cache_try_first_level(edan_cache *c, uint64_t addr,
                                                                             uint32_t size, bool is_store)
{
    edan_cache_level *l0 = &c->level[0];
    const uint32_t shift = l0->line_shift;
    const uint64_t line = addr >> shift;
    if (line != (addr + size - 1) >> shift || (is_store && !l0->write_back))
        return false;
    uint64_t *set = edan_cache_level_set(l0, line);
    /* an 8-way first level (a server core's) with the ways a constant: the probes unrolled, each hit's shift its moves
     */
    const bool hit = l0->ways == 8 ? edan_cache_probe_8ways(set, line, is_store)
                                   : edan_cache_probe_ways(set, l0->ways, line, is_store);
    l0->hits += hit;
    return hit;
}

/* One load (is_store false) or store of size bytes at addr. */
/*
 * edan_cache_access() of an access that edan_cache_try_mru() has just found
 * not to hit the most recently used line of its first-level set (which then
 * changed nothing): the rest of its cases, in its order, that test not made
 * twice. The one place that orders them: callers that try the MRU line on a
 * short path of their own (the timing model's warming, the eDAG's one-lane
 * loop) come here for the rest. *first_level: whether another way of the
 * first level's set held the line, a hit (the result all zero) found before
 * any lower level was looked at (false after a one-level cache's access, whose
 * own probe of the other ways reports a hit as all zero too); NULL: not asked.
 */
static inline __attribute__((always_inline)) edan_cache_result
edan_cache_access_past_mru(edan_cache *c, uint64_t addr, uint32_t size, bool is_store, bool *first_level)
{
    if (first_level)
        *first_level = false;
    const uint32_t shift = c->level[0].line_shift;
    if (c->n_levels == 1 && addr >> shift == (addr + size - 1) >> shift)
        return edan_cache_access_one_level(c, addr, size, is_store);
    if (edan_cache_try_first_level(c, addr, size, is_store)) {
        if (first_level)
            *first_level = true;
        return (edan_cache_result){false, false, 0, 0};
    }
    return edan_cache_access_general(c, addr, size, is_store);
}

static inline __attribute__((always_inline)) edan_cache_result edan_cache_access(edan_cache *c, uint64_t addr,
                                                                                 uint32_t size, bool is_store)
{
    if (edan_cache_try_mru(c, addr, size, is_store))
        return (edan_cache_result){false, false, 0, 0};
    return edan_cache_access_past_mru(c, addr, size, is_store, NULL);
}

/* ---- prefetches (analysis/prefetch/prefetch.h) --------------------------- */

/* Whether level lvl holds the line at line_addr, its LRU order unchanged. */
static inline bool edan_cache_level_holds(const edan_cache_level *l, uint64_t line_addr)
{
    const uint64_t *set = edan_cache_level_set(l, line_addr);
    for (uint32_t w = 0; w < l->ways; w++)
        if (edan_cache_tag_holds(set[w], line_addr))
            return true;
    return false;
}

/*
 * A prefetch of the line holding byte_addr into level lvl: nothing when the
 * level holds it (false); else the line is read into lvl as a load's miss
 * there would read it (from the first level below that holds it, filling
 * every level between), marked prefetched at lvl, and r says where it came
 * from and the bytes it moved (true).
 */
static inline bool edan_cache_prefetch_line(edan_cache *c, int lvl, uint64_t byte_addr, edan_cache_result *r)
{
    edan_cache_level *l = &c->level[lvl];
    const uint64_t line = byte_addr >> l->line_shift;
    if (edan_cache_level_holds(l, line))
        return false;
    *r = (edan_cache_result){false, false, 0, (uint32_t)lvl};
    edan_cache_read_line(c, lvl, byte_addr, r);
    edan_cache_level_set(l, line)[0] |= EDAN_TAG_PREFETCHED; /* read_line left it the most recently used */
    return true;
}

/*
 * After an access that found the line at_addr at level lvl (a demand access
 * that reached lvl, or a prefetch from the level above): whether this is the
 * first use of a line a prefetcher brought there, which is then no longer
 * marked. The access made the line the most recently used, but the level
 * above may have made its clean victim younger since
 * (edan_cache_evict_clean()): the line is looked for in every way.
 */
static inline bool edan_cache_take_prefetched(edan_cache *c, int lvl, uint64_t byte_addr)
{
    edan_cache_level *l = &c->level[lvl];
    const uint64_t line = byte_addr >> l->line_shift;
    uint64_t *set = edan_cache_level_set(l, line);
    for (uint32_t w = 0; w < l->ways; w++) {
        if (!edan_cache_tag_holds(set[w], line))
            continue;
        if (!(set[w] & EDAN_TAG_PREFETCHED))
            return false;
        set[w] &= ~(uint64_t)EDAN_TAG_PREFETCHED;
        return true;
    }
    return false;
}

/*
 * What one instruction's access does under a cache model (or none: every
 * byte read or written reaches RAM): whether its read came from RAM, whether
 * its write reached RAM (or needed a fill from RAM), and every byte moved
 * between the last level and RAM. An AMO is a read, then a write. This is the
 * single definition of a memory-access vertex that every analysis uses.
 */
typedef struct edan_access_class {
    bool rd_ram, wr_ram;
    uint32_t line_bytes;
} edan_access_class;

static inline __attribute__((always_inline)) edan_access_class
edan_cache_classify(edan_cache *c, bool has_cache, uint64_t addr, uint32_t size, bool rd, bool wr)
{
    edan_access_class a = {rd, wr, (rd ? size : 0) + (wr ? size : 0)};
    if (!has_cache)
        return a;
    a.rd_ram = a.wr_ram = false;
    a.line_bytes = 0;
    if (rd) {
        edan_cache_result cr = edan_cache_access(c, addr, size, false);
        a.rd_ram = cr.reads_ram;
        a.line_bytes += cr.ram_bytes;
    }
    if (wr) {
        edan_cache_result cr = edan_cache_access(c, addr, size, true);
        a.wr_ram = cr.writes_ram || cr.reads_ram;
        a.line_bytes += cr.ram_bytes;
    }
    return a;
}

/*
 * Warm state (docs/model.md): the accesses of records that ran outside the
 * measured region (recs[0..n), EDAN_EXEC_WARM in trace/exec.h) change what c
 * holds as edan_cache_classify() would, a load as a read, a store as a
 * write, an AMO as both, and none of c's counts (hits, misses, write-backs,
 * RAM bytes): the region then starts with what the program left in c. The
 * one warming of every cache model (eDAG, critical path, per-function).
 */
void edan_cache_warm(edan_cache *c, const edan_exec *recs, size_t n);

#endif
