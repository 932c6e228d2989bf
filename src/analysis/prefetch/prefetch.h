/*
 * prefetch.h - hardware prefetchers of a cache level, as gem5 v22.1 has
 * them (src/mem/cache/prefetch/: StridePrefetcher, TaggedPrefetcher), on
 * the cache model (cache.h): which lines they bring and when they train.
 * This is the part without time, the same in every lane of the timing model
 * (timing.h); when a prefetch is sent, whether it waits for an MSHR or is
 * dropped, and when its line is back is the hierarchy's (timing/memtime.h).
 * docs/model.md states the rules, docs/machines.md the machine file's keys.
 *
 * An access arriving at a level with a prefetcher (a demand access at the
 * L1d; at a lower level, a miss of the level above, the demand's or a
 * prefetch's) trains it when it misses there, when it is the first access
 * to a line that level's prefetcher brought (gem5 finds such a line still
 * in its MSHR at the latencies swept, a miss), at the L1d when it finds
 * its line's fill still on its way (gem5's MSHR hit, which the caller
 * decides with the access's time), or always with on_access
 * (gem5's prefetch_on_access). Instruction fetches never train. Each
 * candidate line the prefetcher names in the 4 KiB page of the access (gem5
 * does not cross a page without a TLB) that the level does not hold is
 * prefetched: the cache model reads it into the level (and the levels below
 * it that miss, as gem5's mostly inclusive caches do), marked prefetched
 * until its first access; a prefetch that misses the level reaches the next
 * level, which trains on it in the table its demand misses train (gem5's
 * tables by requestor id share their entries, prefetch.c).
 */
#ifndef EDAN_ANALYSIS_PREFETCH_H
#define EDAN_ANALYSIS_PREFETCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/cache/cache.h"
#include "util/error.h"

/* Data cache levels that can have a prefetcher: the machine's (machine.h checks they agree). */
#define EDAN_PREFETCH_MAX_LEVELS 3
#define EDAN_PREFETCH_MAX_DEGREE 16
/* Prefetches one access can cause at most: a degree-16 prefetcher at each of three levels, cascading. */
#define EDAN_PREFETCH_MAX_ISSUES 8192
/* gem5's page_bytes: a prefetch stays in the page of the access that caused it */
#define EDAN_PREFETCH_PAGE_BYTES 4096u

typedef enum edan_prefetch_kind {
    EDAN_PREFETCH_NONE = 0,
    EDAN_PREFETCH_STRIDE, /* gem5's StridePrefetcher: a table of strides by pc */
    EDAN_PREFETCH_TAGGED, /* gem5's TaggedPrefetcher: the next `degree` lines */
} edan_prefetch_kind;

/* One level's prefetcher, as the machine file gives it ([l1d.prefetcher], docs/machines.md). */
typedef struct edan_prefetch_config {
    edan_prefetch_kind kind; /* NONE: the level has none */
    uint32_t degree;         /* lines named per training access, 1..EDAN_PREFETCH_MAX_DEGREE */
    uint32_t latency;        /* cycles from the training access to the prefetch being ready to send */
    uint32_t queue_size;     /* prefetches waiting to be sent at most; one more is dropped */
    uint32_t mshr_reserve;   /* MSHRs of the level a prefetch leaves to demand misses (gem5's demand_mshr_reserve) */
    bool on_access;          /* train on every access, not only misses and first uses */
    /* stride only: the table (entries, ways), and the confidence counter of each entry */
    uint32_t table_entries, table_assoc;
    uint32_t confidence_bits, initial_confidence, confidence_threshold; /* threshold: percent of the maximum */
} edan_prefetch_config;

/* A prefetch the cache model did: its line, where it went and where it came from. */
typedef struct edan_prefetch_issue {
    uint64_t line;   /* the line's address >> line_shift */
    uint32_t bytes;  /* moved to and from memory (its line from memory, dirty lines it evicted) */
    uint32_t offset; /* cycles from the demand access's L1d lookup to this prefetch being ready */
    uint8_t level;   /* the level whose prefetcher sent it and that it filled (0: the L1d) */
    uint8_t src;     /* where the line was found: a level below `level`, or nlev for memory */
    /* 1: the level above's prefetch that arrived there caused it (the last issue of level - 1 before it); 0: the access
     */
    uint8_t via;
} edan_prefetch_issue;

/* What a level's prefetcher did in the region (the same in every lane). */
typedef struct edan_prefetch_counts {
    uint64_t issued;  /* prefetches sent: lines it brought into the level */
    uint64_t useful;  /* of those, lines an access used before they were evicted */
    uint64_t useless; /* lines evicted before any access used them */
} edan_prefetch_counts;

typedef struct edan_prefetch_table edan_prefetch_table;

typedef struct edan_prefetcher {
    int nlev; /* the cache's levels */
    bool any; /* some level has a prefetcher */
    uint32_t line_shift;
    edan_prefetch_config cfg[EDAN_PREFETCH_MAX_LEVELS];
    uint32_t hit[EDAN_PREFETCH_MAX_LEVELS]; /* the levels' hit latencies (cycles) */
    edan_prefetch_table *table[EDAN_PREFETCH_MAX_LEVELS];
    edan_prefetch_counts n[EDAN_PREFETCH_MAX_LEVELS];
    /* the prefetches of the last access (edan_prefetch_access()), in the order they were sent */
    edan_prefetch_issue *issue;
    uint32_t n_issue;
    FILE *trace; /* edan_prefetch_trace() */
} edan_prefetcher;

/*
 * EDAN_PREFETCH_TRACE=FILE (a diagnostic, docs/model.md, Prefetchers): every prefetcher of the process
 * writes its trainings, candidates and first uses to FILE, and the timing model the times of the
 * highest latency's lane, one event a line (validation/pftrace.py reads them). NULL without it.
 */
FILE *edan_prefetch_trace(void);

/*
 * 0, or -1 with err set (out of memory; a configuration the machine file's
 * parser let through is taken as is). cfg and hit: one per level of nlev.
 */
int edan_prefetch_init(edan_prefetcher *p, const edan_prefetch_config *cfg, const uint32_t *hit, int nlev,
                       uint32_t line_bytes, edan_error *err);
void edan_prefetch_free(edan_prefetcher *p);

/*
 * After the cache model did a demand access of the instruction at pc to
 * addr (r: its result; c the cache, as many levels as the prefetcher has):
 * its first use of a prefetched line, the training, and the prefetches it
 * causes, done on c. in_flight: the access finds its line in the L1d
 * (r->level 0) with the line's fill still on its way, which gem5 counts as
 * a miss (an MSHR hit) that trains the L1d's prefetcher; the timing model
 * knows it (memtime.h, edan_memtime_pf_in_flight()), without a time it is
 * false. Returns how many prefetches it sent: p->issue[0 .. n).
 */
uint32_t edan_prefetch_access(edan_prefetcher *p, edan_cache *c, uint64_t pc, uint64_t addr, const edan_cache_result *r,
                              bool in_flight);

/* Lines prefetched into level l and evicted unused since the last call: counted, and the cache's count taken back. */
void edan_prefetch_collect(edan_prefetcher *p, edan_cache *c);

#endif
