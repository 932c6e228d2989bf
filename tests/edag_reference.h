/*
 * edag_reference.h - a deliberately naive eDAG implementation for the tests:
 * it builds the explicit graph (edges found by scanning the trace backwards),
 * classifies accesses with a separate, timestamp-based LRU cache model, and
 * computes every metric straight from the paper's definitions. Quadratic, so
 * only for small traces. The streaming analyzer must agree with it exactly.
 */
#ifndef EDAN_TESTS_EDAG_REFERENCE_H
#define EDAN_TESTS_EDAG_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/edag/edag.h"

typedef struct ref_result {
    uint64_t vertices, T1, Tinf, W, D, C, bytes;
    uint64_t ram_loads, ram_stores; /* counted vertices whose read / write reached RAM */
    uint64_t ram_bytes;             /* bytes between the cache and RAM, every access (0 without a cache) */
    uint64_t hits[EDAN_CACHE_MAX_LEVELS], misses[EDAN_CACHE_MAX_LEVELS]; /* lookups of every access, per level */
    uint64_t layer[4096];                                                /* layer[i], i = 1..D */
    size_t n_phases;
    uint64_t U[65536], started[65536];
    /* explicit graph, for tests that look at paths */
    size_t n_edges;
    uint64_t *S, *F; /* per vertex */
    bool *is_mem;
    uint64_t *md;  /* per vertex: max md over predecessors + is_mem (every vertex counted) */
    uint8_t *edge; /* edge[u * n + v]: 1 a true dependency u -> v, 2 only a false one, 0 none */
} ref_result;

/* When set, only vertices v with ref_member[v] are counted (a scoped lane); NULL = all. */
extern const bool *ref_member;

/* tau must be > 0. Returns 0, or -1 if the trace is too large for the fixed arrays. */
int ref_analyze(const edan_exec *recs, size_t n, const edan_lane_config *lane, bool false_deps, edan_bytes_mode mode,
                uint64_t tau, ref_result *out);
void ref_free(ref_result *r);

#endif
