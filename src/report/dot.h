/*
 * dot.h - the eDAG picture: the explicit graph of a small traced region as
 * Graphviz DOT, in the style of the paper's Figure 7.
 *
 * Unlike the streaming analyzer (edag.h), this module keeps every vertex and
 * edge, so it is meant for regions of a few thousand instructions: it stops
 * collecting after max_vertices and finish() then fails with advice.
 *
 * Semantics are exactly those of docs/model.md and the analyzer for one lane:
 * the vertices, edges, costs and times are those of the dependency tracker
 * (deps.h) with every predecessor listed: true RAW edges through x1-x31/f0-f31
 * and memory bytes (with false_deps also WAR and WAW), memory-access vertices
 * decided by the lane's cache model, t(v) = alpha for memory-access vertices
 * and cost.cls[class] otherwise.
 *
 * The picture: one box per vertex labelled "<index>: <disassembly>",
 * memory-access vertices filled red, an edge per dependency (dashed when it
 * is only a false dependency), one critical path in bold (penwidth=3), and a
 * graph label with T1, T_inf, W and D. The output is deterministic.
 */
#ifndef EDAN_REPORT_DOT_H
#define EDAN_REPORT_DOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/edag/edag.h"
#include "trace/exec.h"
#include "util/error.h"

typedef struct edan_dot edan_dot;

/* One edge of the graph; edges are ordered by (to, from). */
typedef struct edan_dot_edge {
    size_t from, to;
    bool false_dep; /* only a WAR/WAW dependency (never set without false_deps) */
} edan_dot_edge;

/* What is known about one vertex. */
typedef struct edan_dot_vertex_info {
    uint64_t cost;      /* t(v) */
    uint64_t start;     /* S(v) */
    uint64_t finish;    /* F(v) = S(v) + t(v) */
    uint64_t md;        /* memory depth md(v) */
    bool memory_access; /* a load/store that reaches RAM under the cache model */
} edan_dot_vertex_info;

/* Totals of the collected graph (valid after a successful finish). */
typedef struct edan_dot_stats {
    size_t vertices, edges, false_edges;
    uint64_t T1, Tinf, W, D;
} edan_dot_stats;

/*
 * lane: the cache and cost model that decides memory-access vertices and
 * costs (copied); false_deps as in edan_edag_config; max_vertices: the
 * largest graph collected. Returns NULL with err set on failure.
 */
edan_dot *edan_dot_new(const edan_lane_config *lane, bool false_deps, size_t max_vertices, edan_error *err);
/* edan_consumer-compatible. */
void edan_dot_consume(void *ctx, const edan_exec *recs, size_t n);
/* Finds the critical path. Returns 0, or -1 (see edan_dot_error), e.g. when
 * the stream had more than max_vertices instructions. */
int edan_dot_finish(void *ctx);
edan_consumer edan_dot_consumer(edan_dot *d);
const edan_error *edan_dot_error(const edan_dot *d);

/* Write Graphviz DOT after a successful finish; title may be NULL. Returns 0,
 * or -1 on a write error (or when finish has not succeeded). */
int edan_dot_write(const edan_dot *d, FILE *f, const char *title);

/* The critical path found: vertex indices (0-based trace order) from first to
 * last, and its length in cycles (= T_inf). Returns the number of vertices
 * on it (0 for an empty graph or before a successful finish). */
size_t edan_dot_critical_path(const edan_dot *d, const size_t **path, uint64_t *length);

const edan_dot_stats *edan_dot_stats_get(const edan_dot *d);
/* All edges; returns their number. */
size_t edan_dot_edges(const edan_dot *d, const edan_dot_edge **edges);
/* Information on vertex v; false if v is out of range. */
bool edan_dot_vertex(const edan_dot *d, size_t v, edan_dot_vertex_info *out);

void edan_dot_free(edan_dot *d);

#endif
