/*
 * critpath.h - one critical path (length Tinf) and one longest chain of
 * memory-access vertices (D of them), at any trace size, summed per static
 * instruction.
 *
 * A second consumer of the stream, used only when asked for (--critical-path):
 * it runs the dependency tracker (deps.h) over the stream, which gives for
 * every vertex its links: the predecessor that finishes last (its critical
 * predecessor), the one with the deepest memory depth and whether it is a
 * memory-access vertex, in a compact encoding (deps.h: a byte for most
 * vertices) that goes straight to a temporary file, the spill; at the end
 * the file is walked backwards from the first vertex that finishes at Tinf
 * and from the first memory-access vertex of depth D, both walks in one
 * backward pass over the file. Each step of a walk goes to a predecessor
 * that finishes exactly when its successor starts (or has exactly its
 * depth, less one at a memory-access vertex), so the path's costs add up
 * to Tinf and the chain holds D memory-access vertices, with or without
 * false dependencies.
 *
 * The spill (critpath.c states its layout): the links, 1.7 bytes per vertex
 * on the CG workload (1.6 before the addresses of byte-carried links were
 * added), against 4.4 with three varints each
 * (docs/benchmarks.md). zstd -1 would shrink it six times more but costs
 * half as much CPU again as the whole tracker, on the thread that bounds a
 * run's time. Vertices go in blocks of 2^16, each with a header that links
 * to the previous block and holds the offsets of its chunks of 256
 * vertices, each chunk's links encoded afresh: the walk decodes only the
 * chunks its paths pass through, and nothing in memory grows with the trace.
 *
 * Memory: the tracker's (proportional to the memory the program touched,
 * and its table of static instructions by id, which the walk reads too)
 * and two blocks' buffers; the paths are kept as sums per static
 * instruction, not vertex by vertex (a path of millions of vertices took 32
 * bytes per vertex). Disk: the spill, about 1.7 bytes per vertex (1.7 GB
 * for 1e9 instructions), in the temporary directory (tmpfile()).
 * edan_critpath_visit() walks a path again vertex by vertex (the tests hold
 * it to the naive reference).
 *
 * Semantics (dependencies, the cache and cost model of one lane) are those
 * of the streaming analyzer, docs/model.md.
 */
#ifndef EDAN_ANALYSIS_CRITPATH_H
#define EDAN_ANALYSIS_CRITPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/edag/edag.h"
#include "trace/exec.h"
#include "util/error.h"

typedef struct edan_critpath edan_critpath;

typedef struct edan_path_vertex {
    uint64_t index;        /* position in the traced stream */
    const edan_insn *insn; /* its static instruction (pc, text) */
    uint64_t cost;         /* t(v) */
    bool mem;              /* a memory-access vertex */
    uint64_t addr;         /* its access address when bytes it read carry a link of it (deps.h), else UINT64_MAX */
} edan_path_vertex;

/*
 * What carries the links that leave some vertices of a path (a link u -> v
 * of the path: u's value that v waited for): a register u writes and v
 * reads (the first such register that is not the stack pointer, else the
 * stack pointer), else the bytes v read (deps.h: v's access, addr and the
 * instruction's mem_size), else, on the data eDAG's paths, the register v
 * read (the first that is not the stack pointer): its value was address
 * bookkeeping computed from u's (deps.h), else nothing a walk can name (a
 * false dependency). The last vertex of a path has no link. Every register
 * that carried a link is kept (a set: no limit).
 */
#define EDAN_PATH_REG_WORDS ((EDAN_NUM_REGS + 63) / 64)
typedef struct edan_path_carrier {
    uint64_t regs[EDAN_PATH_REG_WORDS]; /* the registers that carried links: bit r % 64 of word r / 64 */
    uint8_t isa;                        /* of the registers (edan_isa) */
    uint64_t reg_links;                 /* links carried by a register */
    uint64_t byte_links;                /* links carried by bytes: their union spans [lo, hi) */
    uint64_t lo, hi;
    uint64_t other_links; /* links neither names (false dependencies) */
} edan_path_carrier;

/* Whether register r carried a link of c. */
static inline bool edan_path_carrier_has(const edan_path_carrier *c, unsigned r)
{
    return r < EDAN_NUM_REGS && (c->regs[r / 64] >> (r % 64) & 1);
}

/* from's links added to into's. */
void edan_path_carrier_merge(edan_path_carrier *into, const edan_path_carrier *from);

/* One static instruction's share of a path. */
typedef struct edan_path_insn {
    const edan_insn *insn;     /* pc, text */
    uint64_t vertices;         /* its vertices on the path */
    uint64_t cycles;           /* the sum of their costs t(v) */
    uint64_t mems;             /* how many of them are memory-access vertices */
    edan_path_carrier carrier; /* of the links from its vertices to the next vertex of the path */
} edan_path_insn;

/* A path summed per static instruction. */
typedef struct edan_path_sum {
    uint64_t length;             /* Tinf (the critical path) or D (the memory chain) */
    uint64_t vertices, mems;     /* on the path; the chain starts at its first memory access */
    const edan_path_insn *insns; /* every static instruction on the path once, by ascending id */
    size_t n_insns;
} edan_path_sum;

/*
 * lane: the cache and cost model (copied); false_deps as in edan_edag_config; data: the paths of the data eDAG
 * (deps.h, EDAN_DEPS_DATA: no address bookkeeping; then without false_deps), whose Tinf and D are its own.
 */
edan_critpath *edan_critpath_new(const edan_lane_config *lane, bool false_deps, bool data, edan_error *err);
/* Whether c follows the data eDAG. */
bool edan_critpath_is_data(const edan_critpath *c);
void edan_critpath_consume(void *ctx, const edan_exec *recs, size_t n);
/* Walks the spill backwards; 0, or -1 (see edan_critpath_error). */
int edan_critpath_finish(void *ctx);
edan_consumer edan_critpath_consumer(edan_critpath *c);
const edan_error *edan_critpath_error(const edan_critpath *c);

/* After finish: the critical path (its cycles add up to length = Tinf) and the memory chain (mems = length = D). */
const edan_path_sum *edan_critpath_span(const edan_critpath *c);
const edan_path_sum *edan_critpath_chain(const edan_critpath *c);

/*
 * After finish: fn(ctx, v) for each vertex of the critical path (chain
 * false) or of the memory chain, last vertex first. The chain's walk goes on
 * past its first memory access to the vertex it started from, as the spill
 * has it; edan_critpath_chain() leaves that part out. Reads the spill again;
 * 0, or -1 (see edan_critpath_error).
 */
int edan_critpath_visit(edan_critpath *c, bool chain, void (*fn)(void *ctx, const edan_path_vertex *v), void *ctx);
/* Bytes written to the spill file so far (its size: the disk --critical-path takes). */
uint64_t edan_critpath_spill_bytes(const edan_critpath *c);
void edan_critpath_free(edan_critpath *c);

#endif
