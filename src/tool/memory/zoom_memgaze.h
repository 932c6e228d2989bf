/*
 * zoom_memgaze.h - the zoom tool's MemGaze-compatible tree (--zoom
 * --memgaze-compat): the regions MemGaze's own location analysis
 * (pnnl/memgaze, mem-anlys/loc-anlys, memgaze-analyze-loc --analysis
 * --pnum 512 --zoomRUD, as its memgaze-analyze-loc script runs it) reports
 * for the same loads, with its rules and quirks (docs/locality.md). Private
 * to the zoom tool (zoom_tool.c).
 *
 * The rules, as MemGaze applies them:
 *   - loads at addresses at or below 0xffffff or at or above 0x8f0000000000
 *     are left out; the root R is [lowest, highest address] of the others,
 *     cut into P pages of ceil((highest - lowest) / P) bytes;
 *   - a node [min, max] (inclusive) with pages of b bytes has
 *     ceil((max - min) / b) pages; page i is [min + i b, min + (i + 1) b - 1],
 *     and an address past the last page counts in the last one;
 *   - a node no wider than 64 bytes (max - min <= 64) or with pages under
 *     32 bytes is not analysed; a node whose pages hold no load stops the
 *     whole analysis (MemGaze returns there);
 *   - the root's children: with pages wider than the first level's width
 *     L (64 MiB), each page with at least 0.1 % of the loads alone; else
 *     (L becomes the smallest power of two >= the root's page) each maximal
 *     run of contiguous pages with a load, with at least 0.1 % of them;
 *     all of them, the stack too; their pages are L wide (64 bytes when the
 *     root's are at most the stop width);
 *   - a node at level 2 has as children its runs of contiguous pages with a
 *     load holding at least 0.1 % of its loads, deeper nodes those holding
 *     at least the threshold (10 %); a child at level l has pages of
 *     L / 4^(l-2) bytes, or of 64 when its parent's pages are at most the
 *     stop width (16 KiB); below level 1 a child is made only when it ends
 *     at or below the heap end and its parent's pages are not 64 bytes;
 *   - nodes are analysed in the order they were made (breadth first); the
 *     children of a node named R (the root, and its 18th child) are named A,
 *     B, ... ("#n" past '~'), the others their parent's name and their number
 *     among its children ("A0", "A01");
 *   - the final regions are the nodes analysed with 64-byte pages: MemGaze
 *     reports their pages ("blockCount") and loads ("Access").
 */
#ifndef EDAN_TOOL_MEMORY_ZOOM_MEMGAZE_H
#define EDAN_TOOL_MEMORY_ZOOM_MEMGAZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tool/base/base.h"
#include "util/keymap.h"

#define ZM_ID 64

/* A node of MemGaze's zoom tree. */
typedef struct zm_node {
    uint64_t min, max; /* the bytes [min, max], as MemGaze prints them */
    uint64_t page;     /* its pages' width */
    uint64_t pages;    /* their number (MemGaze's blockCount) */
    uint64_t accesses; /* loads in [min, max] (0 when not analysed) */
    int parent, level; /* parent index (-1 for the root); the root's level is 1 */
    bool analysed;     /* false: too narrow, or pages too narrow (MemGaze's "skip this ...") */
    char id[ZM_ID], parent_id[ZM_ID];
} zm_node;

typedef struct zoom_mg {
    edan_keymap addrs; /* address -> its loads */
    uint64_t loads, outside;
    /* the parameters */
    uint64_t pages, stop, heap_end;
    double threshold;
    /* the tree */
    uint64_t *addr, *prefix; /* sorted addresses, prefix[i] = loads at addr[0 .. i) */
    size_t n_addr;
    zm_node *nodes;
    size_t n_nodes, cap_nodes;
    bool built, stopped; /* stopped: a node without loads ended MemGaze's analysis */
    bool failed;
} zoom_mg;

/* An empty tree with MemGaze's parameters; 0, or -1 when out of memory. */
int zoom_mg_init(zoom_mg *z, uint64_t pages, double threshold, uint64_t stop, uint64_t heap_end);
/* One load at addr; false when out of memory. */
bool zoom_mg_access(zoom_mg *z, uint64_t addr);
/* The tree (once); 0, or -1 when out of memory. */
int zoom_mg_build(zoom_mg *z);
/* The tree's tables (its scalars, final regions and nodes) and how the report shows them. */
typedef struct zoom_mg_tables {
    edan_table t[3];
    edan_result r[2];
} zoom_mg_tables;
/* The zoom section's tables (after zoom_mg_build), for the session to render; zoom_mg_tables_free() frees them. */
void zoom_mg_tables_of(const zoom_mg *z, zoom_mg_tables *m);
void zoom_mg_tables_free(zoom_mg_tables *m);
void zoom_mg_free(zoom_mg *z);

#endif
