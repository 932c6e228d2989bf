/*
 * scopes.h - memory work and memory depth of many scopes in one pass: the
 * per-function breakdown's fast path.
 *
 * A scope is a set of vertices: EXCLUSIVE, those whose pc lies in one of a
 * function's ranges; INCLUSIVE, those executed while it is active (entered
 * at a range's first address and not yet returned, callees included;
 * trace/activity.h). For each scope the numbers of an analyzer lane scoped
 * the same way (analysis/edag/edag.h, EDAN_SCOPE_*): its vertices, W (its
 * memory-access vertices), C (the cost of its other vertices) and D, the
 * largest number of its memory-access vertices on one dependency path of
 * the whole eDAG.
 *
 * D needs, for every value, its memory depth in every scope: a vector of K
 * depths per register and per guest byte. Registers hold their vectors;
 * a guest byte holds the index of its last writer's vector in an arena,
 * so the bytes of one store share one vector and a byte whose writer has
 * depth 0 everywhere costs nothing but its index (4 bytes). The arena is
 * compacted when it fills: the vectors no byte refers to any more are
 * dropped. Times (S, F) are not needed: only true dependencies and which
 * vertices reach RAM under the one cache model of all scopes.
 *
 * Semantics equal those of the analyzer's scoped lanes, which the property
 * test checks on random traces; false dependencies are not supported here
 * (the analyzer's scoped lanes handle them).
 */
#ifndef EDAN_ANALYSIS_SCOPES_H
#define EDAN_ANALYSIS_SCOPES_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/edag/edag.h"
#include "trace/exec.h"
#include "util/error.h"

#define EDAN_MAX_SCOPES 32

typedef struct edan_scope_stats {
    uint64_t vertices; /* members */
    uint64_t W, D;     /* memory-access members, and the longest chain of them */
    uint64_t C;        /* cost of the members that are not memory-access vertices */
} edan_scope_stats;

typedef struct edan_scopes edan_scopes;

/*
 * Whether cfg can be analysed here: every lane scoped (EXCLUSIVE or
 * INCLUSIVE) with lane 0's cache and costs, at most EDAN_MAX_SCOPES lanes,
 * no false dependencies.
 */
bool edan_scopes_supported(const edan_edag_config *cfg);
/* Scope k is lane k of cfg. NULL with err set (cfg not supported, out of memory). */
edan_scopes *edan_scopes_new(const edan_edag_config *cfg, edan_error *err);
edan_consumer edan_scopes_consumer(edan_scopes *s);
const edan_error *edan_scopes_error(const edan_scopes *s);
/* Between batches, add [lo, hi) to scope k's ranges (edan_edag_add_range's rule); 0, or -1 when it has
 * EDAN_MAX_SCOPE_RANGES. */
int edan_scopes_add_range(edan_scopes *s, int k, uint64_t lo, uint64_t hi);
/* After finish: scope k's numbers. */
const edan_scope_stats *edan_scopes_get(const edan_scopes *s, int k);
void edan_scopes_free(edan_scopes *s);

#endif
