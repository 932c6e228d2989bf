/*
 * critpath.h - one critical path (length Tinf) and one longest chain of
 * memory-access vertices (D of them), at any trace size.
 *
 * A second consumer of the stream, used only when asked for (--critical-path):
 * it runs the dependency tracker (deps.h) over the stream, which gives for
 * every vertex the predecessor that finishes last (its critical predecessor)
 * and the one with the deepest memory depth. Those are spilled to a
 * temporary file, a few bytes per vertex, in blocks; at the end the file is
 * walked backwards from the first vertex that finishes at Tinf and from the
 * first memory-access vertex of depth D. Each step of a walk goes to a
 * predecessor that finishes exactly when its successor starts (or has
 * exactly its depth, less one at a memory-access vertex), so the path's
 * costs add up to Tinf and the chain holds D memory-access vertices, with or
 * without false dependencies. Memory is proportional to the memory the
 * program touched, disk to the trace length.
 *
 * Semantics (dependencies, the cache and cost model of one lane) are those
 * of the streaming analyzer, docs/model.md.
 */
#ifndef EDAN_ANALYSIS_CRITPATH_H
#define EDAN_ANALYSIS_CRITPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/edag.h"
#include "trace/exec.h"
#include "util/error.h"

typedef struct edan_critpath edan_critpath;

typedef struct edan_path_vertex {
    uint64_t index;        /* position in the traced stream */
    const edan_insn *insn; /* its static instruction (pc, text) */
    uint64_t cost;         /* t(v) */
    bool mem;              /* a memory-access vertex */
} edan_path_vertex;

/* lane: the cache and cost model (copied); false_deps as in edan_edag_config. */
edan_critpath *edan_critpath_new(const edan_lane_config *lane, bool false_deps, edan_error *err);
void edan_critpath_consume(void *ctx, const edan_exec *recs, size_t n);
/* Walks the spill backwards; 0, or -1 (see edan_critpath_error). */
int edan_critpath_finish(void *ctx);
edan_consumer edan_critpath_consumer(edan_critpath *c);
const edan_error *edan_critpath_error(const edan_critpath *c);

/* After finish: the critical path, first vertex first; its cost sum is tinf. */
size_t edan_critpath_span(const edan_critpath *c, const edan_path_vertex **path, uint64_t *tinf);
/* After finish: the memory chain (every vertex of it, memory-access ones flagged; depth of them). */
size_t edan_critpath_chain(const edan_critpath *c, const edan_path_vertex **chain, uint64_t *depth);
void edan_critpath_free(edan_critpath *c);

#endif
