/*
 * deps_internal.h - the dependency tracker's state and the small helpers
 * that deps.c (the general ready() and commit()), deps_steps.c and
 * deps_links.c (the short paths of the batch loops) share. Private to those
 * three files.
 */
#ifndef EDAN_ANALYSIS_DEPS_INTERNAL_H
#define EDAN_ANALYSIS_DEPS_INTERNAL_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/deps/deps.h"
#include "analysis/shadow/shadow.h"

/*
 * The last write of a register, a byte or a whole shadow unit. All-zero
 * means never written: F = 0 and md = 0 are the identities of the max()
 * taken over predecessors and by = 0 names no vertex, so zero_page
 * (shadow.h) reads as "no writer".
 */
typedef struct deps_write {
    uint64_t F;     /* its finish time */
    uint64_t by;    /* its index + 1; 0 = never written */
    uint32_t md;    /* its memory depth */
    uint32_t split; /* in a unit's record: 0, or the index + 1 of the split record that holds its bytes */
} deps_write;

/*
 * The reads of a register, byte or unit since its last write (false_deps
 * only), all-zero when there were none: the latest finish and the earliest
 * reader that has it, the largest md and the earliest reader that has it.
 */
typedef struct deps_reads {
    uint64_t F, F_by;
    uint64_t md_by;
    uint32_t md;
    uint32_t pad;
} deps_reads;

_Static_assert(sizeof(deps_write) == 24 && sizeof(deps_reads) == 32, "shadow records are multiples of 8 bytes");

/*
 * Memory state, as the analyzer keeps it (shadow.h): almost every access is
 * an aligned 4- or 8-byte one, so a unit of EDAN_SHADOW_UNIT bytes has one
 * state for all its bytes (its record in the shadow: a deps_write and, with
 * false_deps, a deps_reads) until an access covers only part of it. That
 * splits it: its bytes' states move to a split record of the tracker's
 * pool, and stay there until a write covers the whole unit again. Byte
 * granularity is therefore exact. With EDAN_DEPS_ALL_PREDS every unit a
 * vertex writes or reads is split, so each byte has its own reader list.
 */
typedef struct deps_split {
    deps_write w[EDAN_SHADOW_UNIT]; /* split fields 0 */
    deps_reads r[EDAN_SHADOW_UNIT];
    uint64_t list[EDAN_SHADOW_UNIT]; /* reader lists (EDAN_DEPS_ALL_PREDS); list[0] links free records */
} deps_split;

#define SPLIT_CHUNK_BITS 10
#define SPLIT_CHUNK (1u << SPLIT_CHUNK_BITS)

typedef struct reader_node {
    uint64_t v, next; /* next: node index + 1, 0 = end */
} reader_node;

/*
 * A static instruction, decoded once for the short paths of the batch
 * loops (edan_deps_steps_preds(), edan_deps_steps_links()): its sources
 * padded with x0 (whose state stays all-zero: no predecessor) and its
 * destination, SINK_REG when it has none (a slot written and never read),
 * so the step has no branch on either; the rest of what the short paths
 * look at, so they read the instruction itself no more.
 */
typedef struct deps_op {
    const edan_insn *insn; /* the instruction it was decoded from; NULL = not yet */
    uint64_t cost;         /* t(v) when it is not a memory-access vertex: its class's cost */
    uint8_t src[EDAN_MAX_SRC], dst;
    uint8_t units;                 /* DEPS_OP_LOAD or _STORE: the shadow units it covers (1 or 2); else 0 */
    uint8_t kind;                  /* DEPS_OP_* */
    uint16_t at[EDAN_MAX_SRC + 1]; /* the byte offsets of reg_w[src[0..]] and of reg_w[dst] in reg_w */
    uint16_t need; /* room its list may take (EDAN_MAX_SRC + n_more_src + mem_size), UINT16_MAX when more */
} deps_op;
_Static_assert(sizeof(deps_op) == 32, "a decoded instruction is half a cache line");

/* deps_op.kind: what edan_deps_steps_links()'s short paths make of an instruction */
enum {
    DEPS_OP_NONE,  /* no memory access */
    DEPS_OP_LOAD,  /* a load of 4 or 8 bytes: whole units when aligned (units) */
    DEPS_OP_STORE, /* a store of 4 or 8 bytes, likewise */
    DEPS_OP_OTHER, /* any other access: the general path */
};

#define SINK_REG EDAN_NUM_REGS

/* rec's instruction decoded into t->ops[rec->id] (deps_steps.c); NULL when out of memory (err set). */
deps_op *deps_op_decode(edan_deps *t, const edan_exec *rec);

/* The critical and deep predecessors seen so far (edag_rule.h: by index + 1, 0 = none; ties keep the earliest). */
typedef edan_rule_pick pick;

/* edan_deps.reg_wid: 0 = never written, else the writer's static id + 1, or an address update (always bookkeeping) */
#define DEPS_WID_UPDATE UINT32_MAX
/* edan_deps.book[id]: not seen yet, may become bookkeeping (no use has decided yet), bookkeeping, data (for good) */
enum { DEPS_BOOK_UNSEEN, DEPS_BOOK_MAYBE, DEPS_BOOK_YES, DEPS_BOOK_NO };

struct edan_deps {
    edan_lane_config lane;
    bool false_deps, all_preds, list_preds, has_cache; /* list_preds: ALL_PREDS or TRUE_PREDS */
    bool only_preds;                                   /* EDAN_DEPS_ONLY_PREDS */
    bool data;                                         /* EDAN_DEPS_DATA */
    uint64_t link_addr; /* the links' encoding: the address of the last by-bytes vertex since it started afresh */
    /* the data eDAG (deps.h): per register the static id of its last writer (DEPS_WID_*) and, for a writer that is
     * address bookkeeping, the critical and deep predecessors its value stands for (its roots); per static id
     * whether its results are still bookkeeping (DEPS_BOOK_*) */
    uint32_t reg_wid[EDAN_NUM_REGS + 1];
    pick reg_root[EDAN_NUM_REGS + 1];
    uint8_t *book;
    size_t n_book;
    edan_cache cache;
    edan_shadow shadow;
    edan_error err;
    deps_write reg_w[EDAN_NUM_REGS + 1]; /* + SINK_REG */
    deps_reads reg_r[EDAN_NUM_REGS];
    uint64_t reg_list[EDAN_NUM_REGS]; /* reader lists (EDAN_DEPS_ALL_PREDS) */
    /* split records: chunks of SPLIT_CHUNK, so they never move; a free list through list[0] */
    deps_split **chunks;
    size_t n_chunks, split_used;
    uint64_t split_free; /* index + 1, 0 = empty */
    reader_node *nodes;
    size_t n_nodes, cap_nodes;
    edan_deps_pred *cands;
    size_t n_cands, cap_cands;
    deps_op *ops; /* by edan_exec.id (the batch loops), and the table of ids' instructions (edan_deps_insn()) */
    size_t n_ops;
    /* the vertex between ready() and commit() */
    bool pending;
    edan_exec rec;
    bool rd, wr;
    edan_deps_info info;
    edan_deps_totals tot;
};

/* Registers the model tracks: x0 never carries a dependency, and a malformed instruction must not index out of range.
 */
static inline bool tracked_reg(uint8_t r)
{
    return r != 0 && r < EDAN_NUM_REGS;
}

/* The shadow record of the unit holding addr (for_write: made if absent); NULL when out of memory (err set). */
static inline char *unit_at(edan_deps *t, uint64_t addr, bool for_write)
{
    edan_shadow_page *pg = edan_shadow_page_for(&t->shadow, addr, for_write);
    if (!pg) {
        edan_error_set(&t->err, "out of memory for the dependency tracker's shadow (%" PRIu64 " pages)",
                       t->shadow.pages);
        return NULL;
    }
    return (char *)pg + ((addr & (EDAN_SHADOW_PAGE - 1)) >> EDAN_SHADOW_UNIT_BITS) * t->shadow.unit_bytes;
}

static inline deps_write *unit_write(char *unit)
{
    return (deps_write *)unit;
}

static inline deps_split *split_get(const edan_deps *t, uint64_t index)
{
    return &t->chunks[index >> SPLIT_CHUNK_BITS][index & (SPLIT_CHUNK - 1)];
}

/* A write covered the whole unit: its bytes share one state again. */
static inline void unsplit(edan_deps *t, char *unit)
{
    deps_write *uw = unit_write(unit);
    if (!uw->split)
        return;
    split_get(t, uw->split - 1)->list[0] = t->split_free;
    t->split_free = uw->split;
    uw->split = 0;
}

/* The data eDAG: whether register r holds address bookkeeping now (its roots in reg_root stand for it, deps.h). */
static inline bool deps_holds_book(const edan_deps *t, uint8_t r)
{
    const uint32_t w = t->reg_wid[r];
    return w == DEPS_WID_UPDATE || (w && t->book[w - 1] == DEPS_BOOK_YES);
}

/* The data eDAG: whether register r may stand for its roots once the reader's uses are classed (deps.h). */
static inline bool deps_may_hold_book(const edan_deps *t, uint8_t r)
{
    const uint32_t w = t->reg_wid[r];
    return w == DEPS_WID_UPDATE || (w && t->book[w - 1] != DEPS_BOOK_NO);
}

/* The register state at byte offset at of reg_w (deps_op.at). */
static inline deps_write *reg_at(const deps_write *reg, uint16_t at)
{
    return (deps_write *)((char *)reg + at);
}

/*
 * The writers of op's (up to three) source registers as the critical and
 * deep predecessors so far: the first as the best, then the rule's pick of
 * the others (a register never written, x0 among them, is all-zero: the
 * first is then no predecessor, and the others never beat).
 */
static inline __attribute__((always_inline)) void deps_pick_regs(const deps_write *reg, const deps_op *op, pick *p)
{
    const deps_write *a = reg_at(reg, op->at[0]), *b = reg_at(reg, op->at[1]);
    pick q = {a->F, a->by, a->md, a->by};
    edan_rule_pick_write(&q, b->F, b->md, b->by);
    if (__builtin_expect(op->src[2] != 0, 0)) {
        const deps_write *c = reg_at(reg, op->at[2]);
        edan_rule_pick_write(&q, c->F, c->md, c->by);
    }
    *p = q;
}

/*
 * *d = {F, by, md, 0}, field by field: a deps_write built on the stack and copied whole is read back as one
 * vector right after its fields were stored, and that stalled on store forwarding (a quarter of
 * edan_deps_step()'s time in a profile of --critical-path).
 */
static inline void put_write(deps_write *d, uint64_t F, uint64_t by, uint32_t md)
{
    d->F = F;
    d->by = by;
    d->md = md;
    d->split = 0;
}

/* Vertex v (finish F, memory depth md, a memory-access vertex or not, cost t(v)) into the totals. */
static inline void deps_count(edan_deps_totals *tot, uint64_t v, uint64_t F, uint64_t md, bool mem, uint64_t cost)
{
    if (F > tot->Tinf || v == 0) {
        tot->Tinf = F;
        tot->tinf_v = v;
    }
    if (mem) {
        tot->W++;
        if (md > tot->D) {
            tot->D = md;
            tot->depth_v = v;
        }
    }
    tot->T1 += cost;
    tot->vertices++;
}

#endif
