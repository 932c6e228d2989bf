/*
 * machine.h - a described machine: the clock, a core (out of order or in order), its
 * caches and its memory, as the timing model (timing.h) schedules the eDAG
 * on it. Plain data: config/machine_file.h reads it from an INI file
 * (the .ini files of machines/, docs/machines.md), and validation/gem5_machine.py builds
 * the same machine in gem5 from the same file, so the model and the
 * simulator never disagree on the machine.
 */
#ifndef EDAN_ANALYSIS_MACHINE_H
#define EDAN_ANALYSIS_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/cache/cache.h"
#include "analysis/machine/predictor.h"
#include "analysis/prefetch/prefetch.h"
#include "isa/riscv.h"

/* Data cache levels below the core: l1d, l2 and an optional l3. */
#define EDAN_MACHINE_MAX_DATA_LEVELS 3
_Static_assert(EDAN_PREFETCH_MAX_LEVELS == EDAN_MACHINE_MAX_DATA_LEVELS, "a prefetcher for every data level");

typedef struct edan_machine_cache {
    edan_cache_level_config geo; /* size, line, ways, write policy */
    uint32_t hit_latency;        /* cycles to look up this level (and return data on a hit) */
    uint32_t mshrs;              /* misses of this level outstanding at once */
    /* accesses one MSHR holds (the miss and those that merge into it); the one that fills the last
     * target blocks the level until that MSHR's fill (gem5's tgts_per_mshr) */
    uint32_t mshr_targets;
    edan_prefetch_config prefetch; /* its prefetcher ([l1d.prefetcher], ...; kind NONE: none) */
} edan_machine_cache;

/*
 * [dram]: a DRAM memory in place of [memory]'s fixed latency and bandwidth
 * (docs/machines.md), gem5's DRAMInterface and MemCtrl. Times in ns as the
 * file gives them; analysis/dram/dram.h schedules the accesses on it.
 */
typedef enum edan_dram_page {
    EDAN_DRAM_OPEN,
    EDAN_DRAM_OPEN_ADAPTIVE,
    EDAN_DRAM_CLOSE,
    EDAN_DRAM_CLOSE_ADAPTIVE
} edan_dram_page;
/* gem5's AddrMap, from the most significant field: row, rank, bank, column, channel */
typedef enum edan_dram_map { EDAN_DRAM_RORABACOCH, EDAN_DRAM_RORABACHCO, EDAN_DRAM_ROCORABACH } edan_dram_map;
typedef enum edan_dram_sched { EDAN_DRAM_FRFCFS, EDAN_DRAM_FCFS } edan_dram_sched;

typedef struct edan_machine_dram {
    bool present;
    uint32_t channels, ranks, banks, bank_groups; /* ranks per channel, banks and bank groups (0: none) per rank */
    uint32_t burst_bytes;                         /* one burst: the cache line (checked) */
    uint32_t row_bytes;                           /* a rank's row buffer: device_rowbuffer_size x devices_per_rank */
    double tck, tburst, tccd_l, trcd, tcl, trp, tras, twr, trtp, trtw, twtr; /* ns */
    double trrd, trrd_l, txaw;        /* ns between activates of a rank, of a bank group; the activation window */
    uint32_t activation_limit;        /* activates a rank may issue in a window of txaw (0: no window) */
    double trfc, trefi;               /* ns: a refresh's length and the interval between refreshes */
    uint32_t read_queue, write_queue; /* entries per channel (gem5's read/write_buffer_size) */
    uint32_t write_high_percent, write_low_percent, min_writes_per_switch;
    edan_dram_page page;
    edan_dram_map map;
    edan_dram_sched sched;
    double frontend_ns, backend_ns; /* the controller's static latencies, added to every read's response */
} edan_machine_dram;

/*
 * How the core issues ([core] model): out of order (gem5's O3CPU), or in
 * program order (gem5's MinorCPU): an instruction starts no earlier than the
 * one before it started, issue_width a cycle, so one that waits for its
 * operands holds back every later one; a load's own start does not wait for
 * its data, only its first user does (docs/model.md).
 */
typedef enum edan_core_model { EDAN_CORE_O3 = 0, EDAN_CORE_INORDER } edan_core_model;

/*
 * [machine] pages: where the machine puts the program's pages in physical
 * memory, which picks the timing model's cache sets above the page offset
 * (docs/machines.md). VIRTUAL: the virtual address indexes the caches (the
 * default, and what the eDAG's caches always use). FIRST_TOUCH: each 4 KiB
 * page gets the next free frame at its first access (gem5's syscall
 * emulation; analysis/pagemap/pagemap.h).
 */
typedef enum edan_page_placement { EDAN_PAGES_VIRTUAL = 0, EDAN_PAGES_FIRST_TOUCH } edan_page_placement;

/*
 * [machine] page_zeroing: what the program's first store to a page finds
 * (docs/machines.md). NONE: nothing of the page in the caches, as in gem5's
 * syscall emulation, which gives a page its frame without any access (the
 * default). FIRST_STORE: the page's 4 KiB cleared through the caches just
 * before it, as Linux does at the fault of a first write to an anonymous
 * page (analysis/zeroing/zeroing.h); the timing model's caches take the
 * page's lines as the kernel's writes.
 */
typedef enum edan_page_zeroing { EDAN_ZEROING_NONE = 0, EDAN_ZEROING_FIRST_STORE } edan_page_zeroing;

typedef struct edan_machine {
    char name[64];
    double clock_ghz;
    edan_page_placement pages;      /* [machine] pages; optional, virtual when not given */
    edan_page_zeroing page_zeroing; /* [machine] page_zeroing; optional, none when not given */
    /*
     * [machine] page_fault_ns: the time the program loses to each page the
     * kernel zeroes (the fault: trap, frame, clearing, return), added to the
     * run at the store that faults; optional, 0 when not given; needs
     * page_zeroing = first-store, which finds the faults
     */
    double page_fault_ns;
    /* core */
    edan_core_model core_model; /* [core] model; optional, o3 when not given */
    uint32_t fetch_width, dispatch_width, issue_width, commit_width;
    uint32_t rob_entries, lq_entries, sq_entries;
    /* issue queue: an instruction holds an entry from dispatch until it issues, a load or store until it
     * completes (its data back; a store's address and data in the store queue), as in gem5's O3 */
    uint32_t iq_entries;
    uint32_t frontend_cycles; /* fetch to dispatch */
    /* taken branches and jumps fetch goes past in one cycle: its cycle ends at that many (0: no limit) */
    uint32_t fetch_taken_limit;
    /* fetch reads the L1i in aligned blocks of this many bytes, the next one only when it needs it, so
     * moving to another block waits the L1i's hit latency (0: fetch reads ahead, no wait) */
    uint32_t fetch_block_bytes;
    /* units of the classes that are not fully pipelined: integer division; floating-point division and
     * square root. A unit takes one operation at a time and is busy for its issue interval */
    uint32_t int_div_units, fp_div_units;
    /* [issue_interval] of those classes (div, fdiv, fsqrt): cycles a unit is busy per operation, at most
     * the class's latency; 0 (the key not given): the latency. Read it with edan_machine_issue_interval() */
    uint32_t issue_interval[EDAN_CLASS_COUNT];
    /* memory-dependence prediction: a load waits for the last older store to the same aligned block of
     * this many bytes (a power of two; 0: loads never wait for stores they do not read) */
    uint32_t store_set_bytes;
    uint32_t mispredict_penalty; /* a mispredicted branch's execution to the right path's fetch */
    /* a serializing instruction (a CSR access, ecall, ebreak, fence.i; sc only serializes after): it
     * executes when every older instruction has committed, and the next one dispatches this many cycles
     * after it commits (the pipeline's refill; validation/calibrate.py measures it in gem5) */
    uint32_t serialize_cycles;
    edan_predictor_kind predictor;
    uint32_t predictor_entries; /* its size (predictor.h), a power of two */
    /* cycles from issue to result per instruction class; the load, store and atomic entries are unused
     * (their latency is the cache hierarchy's) */
    uint32_t latency[EDAN_CLASS_COUNT];
    edan_machine_cache l1i;
    /* [dtlb] (optional; entries 0: none): the data TLB, two levels of 4 KiB pages, LRU. A load or store whose
     * page the first level misses takes l2_hit_cycles more, one both miss walk_cycles more (the walk) */
    struct {
        uint32_t entries, ways, l2_entries, l2_ways, l2_hit_cycles, walk_cycles;
    } dtlb;
    int n_data_levels; /* 2 or 3 */
    edan_machine_cache data[EDAN_MACHINE_MAX_DATA_LEVELS];
    double mem_latency_ns;    /* the default memory latency (with [dram]: its link_latency_ns) */
    double mem_bandwidth_gbs; /* 10^9 bytes per second (with [dram]: its peak, channels x burst / tBURST) */
    edan_machine_dram dram;   /* dram.present: [dram] in place of [memory] */
    /* the projection's parameters ([projection], ExaSAT's machine description; docs/projection.md) */
    double peak_gflops;           /* one core's peak, 10^9 flop/s */
    uint32_t cores;               /* cores sharing the work: peak and bandwidth scale with them */
    double div_weight;            /* a division weighs this many additions */
    double sqrt_weight;           /* a square root */
    double transcendental_weight; /* a call of exp, log, sin, ... */
} edan_machine;

/*
 * Cycles a unit of class cls (div, fdiv or fsqrt) is busy per operation: its
 * [issue_interval], or the class's latency when the file gives none (a unit
 * that is not pipelined at all). The one definition the timing model's
 * schedules use.
 */
uint32_t edan_machine_issue_interval(const edan_machine *m, int cls);

/* The data hierarchy as the cache model's configuration (l1d, l2[, l3]). */
edan_cache_config edan_machine_data_caches(const edan_machine *m);

/*
 * [dtlb] as the cache model's configuration: two levels whose lines are 4 KiB pages, LRU (the timing model's TLB,
 * and the file reader's check of its geometry). 0, or -1 with err set when the entries and ways make no
 * power-of-two number of sets or the second level has fewer entries than the first.
 */
int edan_machine_dtlb_caches(const edan_machine *m, edan_cache_config *out, edan_error *err);

#endif
