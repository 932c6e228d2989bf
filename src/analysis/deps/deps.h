/*
 * deps.h - the dependency tracker: for one lane (a cache and a cost model)
 * and the false_deps choice, the predecessors, times and memory depth of
 * every vertex of the stream, one vertex at a time. The single definition of
 * the eDAG's edges that the critical path (critpath.h), the eDAG picture
 * (dot.h) and timing models build on; the fast multi-lane analyzer (edag.h)
 * computes the same numbers and the tests hold the two to each other and to
 * the naive reference.
 *
 * Semantics (docs/model.md, edag.h):
 *  - predecessors of v: the last writer of each x/f register v reads (x0
 *    never) and of each byte v's load or AMO reads (true, read-after-write);
 *    with false_deps also the last writer of v's destination register and of
 *    each byte v's store or AMO writes (write-after-write) and every reader
 *    of them since that write (write-after-read). A failed sc, or any record
 *    flagged EDAN_EXEC_NO_ACCESS, touches no memory.
 *  - a memory-access vertex is a load or store that reaches RAM under the
 *    lane's cache (edan_cache_classify(), the analyzer's own call); t(v) is
 *    alpha for one, else the cost of its class (cost.h).
 *  - ready(v) = max F(u) over predecessors (0 for an input). A vertex starts
 *    at S(v) >= ready(v) chosen by the caller (S = ready is the eDAG's
 *    model; a timing model with a finite window or few MSHRs delays it) and
 *    finishes at F(v) = S(v) + cost. md(v) = max md(u) over predecessors,
 *    plus 1 for a memory-access vertex.
 *  - the critical predecessor is one that finishes at ready(v), the deep one
 *    one with the largest md; ties go to the earliest vertex, so the choice
 *    does not depend on the order registers and bytes are looked at.
 *
 * A vertex is processed in two steps: edan_deps_ready() finds its
 * predecessors, classifies its access (advancing the cache) and returns the
 * earliest start; edan_deps_commit() then fixes its start and cost and
 * records it as the last writer (or a reader) of its registers and bytes.
 * Every ready() must be followed by exactly one commit() before the next.
 *
 * State: per register and per guest byte the last writer (index, F, md)
 * and, with false_deps, the latest-finishing and the deepest reader since.
 * Bytes live in the analyzer's paged shadow (shadow.h), one state per
 * aligned 4-byte unit until an access covers part of it (then per byte), so
 * memory follows the memory the program touches, not the trace length:
 * 6 bytes per 4 KiB page's guest byte once the page is written (14 with
 * false_deps, where reads make pages too), plus 64 per split byte. With
 * EDAN_DEPS_ALL_PREDS the tracker also lists every predecessor of each
 * vertex (for the eDAG picture): it then keeps every reader since the last
 * write, which grows with the trace, so that is only for small regions.
 */
#ifndef EDAN_ANALYSIS_DEPS_H
#define EDAN_ANALYSIS_DEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/cache/cache.h"
#include "analysis/edag/edag.h"
#include "trace/exec.h"
#include "util/error.h"

/* edan_deps_new flags */
enum {
    EDAN_DEPS_ALL_PREDS = 1u << 0,  /* fill edan_deps_info.preds */
    EDAN_DEPS_TRUE_PREDS = 1u << 1, /* fill edan_deps_info.preds with the true (RAW) predecessors only: no
                                       reader lists, so no memory that grows with the trace (without false_deps) */
    EDAN_DEPS_ONLY_PREDS = 1u << 2, /* with TRUE_PREDS, for edan_deps_steps_preds() alone: only the lists are
                                       kept (a timing model's use); its short paths leave times, depths and the
                                       totals but vertices out, so edan_deps_info's and the totals' are not the
                                       eDAG's */
    EDAN_DEPS_DATA = 1u << 3,       /* the data eDAG (alone, for edan_deps_step() and _steps_links()):
                                       address bookkeeping contracted out (below) */
};

/*
 * The data eDAG (EDAN_DEPS_DATA, --critical-path=data; docs/model.md): the
 * eDAG with address bookkeeping contracted out, in one pass, no look-ahead.
 *  - A static instruction may be bookkeeping only when it is integer
 *    arithmetic (class INT, MUL or DIV) with a destination and no memory
 *    access; any other is data. At its first sight it is bookkeeping, or
 *    "maybe" when one of its registers holds data then (a loaded value),
 *    which counts as data until a use decides. A use is bookkeeping's when
 *    the register is the base (rs1) or index (mem_index) of the reader's
 *    access and not also the data it stores, or the reader is a branch or
 *    bookkeeping: it makes a "maybe" writer bookkeeping. A read by a "maybe"
 *    reader decides nothing; any other use makes the writer's instruction
 *    data for good. A vertex's uses are applied before its reads.
 *  - An address update (edan_insn.addr_dst: push's rsp, a writeback) is
 *    always bookkeeping.
 *  - A read of the stack pointer is no dependency; a read of a register
 *    whose writer is bookkeeping at that read stands for the writer's own
 *    predecessors (its roots: the critical and deep ones, kept per
 *    register), so chains of bookkeeping cost nothing and carry nothing of
 *    their own, while what they were computed from (a loaded pointer, an
 *    index loaded from memory) still reaches the reader: a pointer chase
 *    through `add a5,a1,a5` stays a chain of loads. Any other read is the
 *    eDAG's, and so are bytes.
 * Loads are never bookkeeping, so every dependency between memory accesses
 * and data values survives: only the latency and the links of bookkeeping
 * arithmetic go. An integer sum of loaded values stays data (it is "maybe"
 * and no use decides). A value an instruction made while bookkeeping stays
 * contracted when a later use makes it data (a count used only after its
 * loop).
 */

/* edan_deps_ready's result on failure (out of memory, a missing commit): see edan_deps_error. */
#define EDAN_DEPS_FAILED UINT64_MAX

typedef struct edan_deps edan_deps;

/* One predecessor of a vertex. */
typedef struct edan_deps_pred {
    uint64_t v;     /* its index in the stream */
    bool false_dep; /* only a WAR/WAW dependency (never without false_deps) */
} edan_deps_pred;

/* What edan_deps_ready() found out about one vertex. */
typedef struct edan_deps_info {
    uint64_t v;               /* its index in the stream: 0, 1, 2, ... */
    uint64_t ready;           /* max F(u) over its predecessors, 0 for an input */
    uint64_t cost;            /* t(v) under the lane's cost model */
    uint64_t md;              /* md(v) */
    bool mem;                 /* a memory-access vertex */
    edan_access_class access; /* what its access did under the cache model */
    uint64_t crit;            /* 1 + index of the critical predecessor, 0 for an input */
    uint64_t deep;            /* 1 + index of the deepest predecessor, 0 for an input */
    /* EDAN_DEPS_ALL_PREDS or _TRUE_PREDS: every predecessor once, ascending; valid until the next ready() */
    const edan_deps_pred *preds;
    size_t n_preds;
} edan_deps_info;

/* The committed stream so far. */
typedef struct edan_deps_totals {
    uint64_t vertices;
    uint64_t T1;      /* sum of the committed costs */
    uint64_t Tinf;    /* max F */
    uint64_t W, D;    /* memory-access vertices, max md */
    uint64_t tinf_v;  /* the first vertex that finishes at Tinf (when vertices > 0) */
    uint64_t depth_v; /* the first memory-access vertex with md = D (when D > 0) */
} edan_deps_totals;

/*
 * lane: the cache and cost model (copied; its scope is ignored: a tracker
 * sees every vertex); flags: EDAN_DEPS_*. A cache configuration that is not
 * a power-of-two set-associative one is refused, and so is EDAN_DEPS_TRUE_PREDS
 * with false_deps. NULL with err set on failure.
 */
edan_deps *edan_deps_new(const edan_lane_config *lane, bool false_deps, unsigned flags, edan_error *err);
void edan_deps_free(edan_deps *t);

/* Whether the tracker has a cache model (its lane's), which warm records warm (edan_deps_warm()). */
bool edan_deps_cached(const edan_deps *t);
/* Records that ran outside the measured region (EDAN_EXEC_WARM, trace/exec.h): they warm the cache model alone. */
void edan_deps_warm(edan_deps *t, const edan_exec *recs, size_t n);

/* The next vertex, rec (rec->insn not NULL): fills *info, returns info->ready, or EDAN_DEPS_FAILED. */
uint64_t edan_deps_ready(edan_deps *t, const edan_exec *rec, edan_deps_info *info);
/* Starts the pending vertex at start >= its ready time with the given cost (info.cost in the eDAG); 0 or -1. */
int edan_deps_commit(edan_deps *t, uint64_t start, uint64_t cost);
/* ready() and commit() at the ready time with t(v): the eDAG's own schedule. 0 or -1. */
int edan_deps_step(edan_deps *t, const edan_exec *rec, edan_deps_info *info);

/*
 * The links of a vertex: what a walk back along a path needs of it
 * (critpath.h), in a compact encoding that edan_deps_steps_links() writes
 * and edan_deps_link_get() reads. A vertex v's links are a tag byte
 *   bit 0     EDAN_DEPS_LINK_MEM   a memory-access vertex
 *   bit 1     EDAN_DEPS_LINK_SEQ   its static instruction id is the previous
 *                                  vertex's + 1 (the previous one encoded
 *                                  with it; none before the first: id 0)
 *   bit 2     EDAN_DEPS_LINK_SAME  the deep predecessor is the critical one
 *   bits 3-7  dc                   the distance v - crit to the critical
 *                                  predecessor (0: none, an input, and then
 *                                  no deep one either); 30 (EDAN_DEPS_LINK_DC_ADDR):
 *                                  the bytes v read carry its critical or deep
 *                                  link, and varint(dc) then varint(zigzag(v's
 *                                  access address - that of the last such
 *                                  vertex encoded since the encoding started
 *                                  afresh, 0 before the first))) follow; 31: 30 or more, the rest
 *                                  follows as varint(dc - 30)
 * then varint(v - deep) unless SAME, varint(zigzag(id - expected id)) unless
 * SEQ (util/varint.h). Straight-line code whose critical predecessor is one
 * of the last 29 vertices, through a register, and also the deep one, the
 * usual case, takes the tag byte alone. A link is carried by bytes when its
 * predecessor is the last writer of bytes v reads and of none of v's source
 * registers (the walk names the register otherwise: critpath.h).
 */
#define EDAN_DEPS_LINK_MEM 1u
#define EDAN_DEPS_LINK_SEQ 2u
#define EDAN_DEPS_LINK_SAME 4u
#define EDAN_DEPS_LINK_DC_SHIFT 3
#define EDAN_DEPS_LINK_DC_ADDR 30u
#define EDAN_DEPS_LINK_DC_ESC 31u
/* The most bytes one vertex's links take: a tag and four varints of up to 10 bytes. */
#define EDAN_DEPS_LINK_MAX 41

/* One vertex's links, decoded. */
typedef struct edan_deps_link {
    uint64_t dc, dd; /* v - crit and v - deep (crit, deep: indices of the predecessors), 0 = an input */
    uint64_t addr;   /* with by_bytes: v's access address (its instruction's mem_size bytes); see link_get */
    uint32_t id;     /* its static instruction id */
    bool mem;        /* a memory-access vertex */
    bool by_bytes;   /* the critical or the deep link is carried by bytes v read */
} edan_deps_link;

/*
 * edan_deps_step() of recs[0..n) in turn, keeping only each vertex's links,
 * encoded (above) from *out on (room for n * EDAN_DEPS_LINK_MAX bytes; *out
 * is left after the last); *prev_id is the id of the vertex encoded before
 * recs[0] (UINT32_MAX: none, the encoding starts afresh), then recs' last.
 * With short paths for the usual vertices when the tracker keeps no reads
 * and lists no predecessors. Returns n, or how many were done before a
 * failure (edan_deps_error).
 */
size_t edan_deps_steps_links(edan_deps *t, const edan_exec *recs, size_t n, uint8_t **out, uint32_t *prev_id);

/*
 * One vertex's links at [p, end), encoded after prev_id's (as above): the bytes they take, 0 when malformed.
 * l->addr holds, on entry, the address of the last by-bytes vertex decoded since the encoding started afresh (0
 * before the first), and is left at it unless this vertex is one (a walk decodes a chunk's links in order).
 */
size_t edan_deps_link_get(const uint8_t *p, const uint8_t *end, uint32_t prev_id, edan_deps_link *l);

/*
 * The static instruction of id as edan_deps_steps_links() or _preds() last
 * stepped it, NULL for one they have not; every id is below edan_deps_ids().
 */
const edan_insn *edan_deps_insn(const edan_deps *t, uint32_t id);
size_t edan_deps_ids(const edan_deps *t);

/*
 * edan_deps_step() of recs[0..n) in turn, keeping only each vertex's true
 * predecessors (a tracker made with EDAN_DEPS_TRUE_PREDS): those of recs[i]
 * are preds[off[i] .. off[i + 1]), ascending, each once (the order and set
 * of edan_deps_info.preds). preds has room for cap, off for n + 1. It stops
 * before a vertex whose list might not fit (up to EDAN_MAX_SRC + its further
 * sources (n_more_src) + its access size). Returns how many were done (a failure: edan_deps_error). With
 * EDAN_DEPS_ONLY_PREDS its short paths find the lists and nothing else.
 */
size_t edan_deps_steps_preds(edan_deps *t, const edan_exec *recs, size_t n, uint64_t *preds, size_t cap, uint32_t *off);

/*
 * The finish time of the last writer of register r (0: never written, or
 * x0). Between ready() and commit() it is what the pending vertex reads
 * through r: an analysis that defines its own times through commit() (the
 * load classes' "when was this value loaded") asks which of its sources
 * carries which time.
 */
uint64_t edan_deps_reg_finish(const edan_deps *t, uint8_t r);

const edan_deps_totals *edan_deps_totals_get(const edan_deps *t);
const edan_error *edan_deps_error(const edan_deps *t);

#endif
