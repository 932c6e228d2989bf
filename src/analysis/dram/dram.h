/*
 * dram.h - the timing model's DRAM (a machine's [dram], machine.h): when a
 * read that reaches memory has its data, from the state of its bank (the
 * open row), the channel's data bus, its read queue and the writes queued
 * in the controller, in the spirit of gem5's DRAMInterface and MemCtrl.
 * memtime.c asks it in place of the fixed latency and bandwidth calendar
 * when the machine has [dram]. docs/model.md states the rules.
 *
 * Every lane (memory latency) has a DRAM of its own: which row a bank has
 * open and when it is free depend on the lane's times. Deterministic: the
 * answer depends on the requests in the order asked, nothing else. Times
 * are the timing model's ticks (memtime.h's edan_tick).
 */
#ifndef EDAN_ANALYSIS_DRAM_H
#define EDAN_ANALYSIS_DRAM_H

#include <stdint.h>

#include "analysis/machine/machine.h"
#include "util/error.h"

typedef uint64_t edan_dram_tick;

/* Reserved intervals of a channel's data bus remembered per lane (older ones: a floor no request goes below). */
#define EDAN_DRAM_BUS_SPANS 16

typedef struct edan_dram edan_dram;

/*
 * What happened to the reads asked so far, of one lane or summed over the
 * lanes (tests and reports). row_hits + row_misses + row_conflicts == reads.
 */
typedef struct edan_dram_counts {
    uint64_t reads, row_hits, row_misses, row_conflicts; /* a miss finds its bank closed, a conflict another row */
    uint64_t writes, drains;                             /* write-backs queued; write bursts (bus turns) taken */
    /* ns the reads waited in the controller, from arrival to their column command (gem5's queueing latency) */
    double wait_ns;
} edan_dram_counts;

/*
 * The DRAM d for K lanes, each with its own state; its ns become
 * ticks_per_ns ticks each (the core clock's, rounded). line: the
 * cache line in bytes (the file checked that a burst is one line). NULL
 * with err set when out of memory.
 */
edan_dram *edan_dram_new(const edan_machine_dram *d, double ticks_per_ns, uint32_t line, int K, edan_error *err);
void edan_dram_free(edan_dram *d);

/*
 * Lane k: a read of the line `line` (address / line size) reaches the
 * controller at x, with `writes` dirty lines the cache evicts for it
 * (write-backs, posted: queued after the read, each on its own channel).
 * wb: the write-backs' lines, which open rows in their banks when they go
 * (tWR before a precharge); NULL when they are not known: each then takes
 * its burst on the read's channel's bus and no bank. Returns when the
 * read's data is back out of the controller: the data burst's end plus the
 * front-end and back-end latencies (the caller adds the link's,
 * --mem-latency).
 */
edan_dram_tick edan_dram_read(edan_dram *d, int k, uint64_t line, const uint64_t *wb, uint32_t writes,
                              edan_dram_tick x);

/* The reads, row hits, ... so far over every lane. */
edan_dram_counts edan_dram_counts_get(const edan_dram *d);
/* The same of lane k alone. */
edan_dram_counts edan_dram_lane_counts(const edan_dram *d, int k);

#endif
