/*
 * exec.h - the instruction stream: the contract between producers (the QEMU
 * plugin, the binary trace reader, the text trace reader) and consumers (the
 * eDAG analyzer, the trace writers, future analyses).
 *
 * A producer hands consumers batches of edan_exec records in execution order.
 * Each record points at a decoded static instruction owned by an
 * edan_code_table, which lives at least as long as the stream, so consumers
 * may keep the pointers. Trace order is a topological order of the eDAG.
 */
#ifndef EDAN_TRACE_EXEC_H
#define EDAN_TRACE_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/riscv.h"

/* edan_exec.flags */
enum {
    /* The instruction has a memory kind but performed no access (a failed
     * sc, or an access the tracer did not observe). addr is then 0. */
    EDAN_EXEC_NO_ACCESS = 1u << 0,
    /* The first record of a sample of a sampled trace (MemGaze's load traces,
     * trace/mg_exec.h): the records before it are an earlier sample, and the
     * program ran on unrecorded between the two. Tools that measure reuses or
     * windows of consecutive accesses do not span samples, unless the option
     * --across-samples asks them to. The binary and text formats do not keep it. */
    EDAN_EXEC_SAMPLE_START = 1u << 1,
    /* The instruction ran outside the measured region (a --filter's): it
     * is no vertex of the eDAG and counts in no result. It is in the stream
     * only so that state which follows the whole program (the caches, the
     * branch predictor, the L1i) starts the region as the program left it
     * (warm state, docs/model.md). A producer puts such records in a batch
     * only for a consumer whose `warms` is true; the analysis session hands
     * them only to the tools that have state to warm. */
    EDAN_EXEC_WARM = 1u << 2,
    /* Memory the kernel wrote for the program (a read() into its buffer:
     * edan_exec_kernel_write() below), always with EDAN_EXEC_WARM: the warm
     * state (caches) holds the line as written, dirty, and nothing measures
     * it. It is no instruction of the program: its insn is
     * edan_kernel_write_insn, its id EDAN_EXEC_KERNEL_ID, which indexes no
     * consumer's tables (docs/model.md, "Memory the kernel writes"). */
    EDAN_EXEC_KERNEL = 1u << 3,
};

/* The bytes of one kernel-write record: a line-aligned chunk of what a system call wrote. */
#define EDAN_KERNEL_LINE 64u
/* The id of every kernel-write record: no static instruction's (ids are dense from 0). */
#define EDAN_EXEC_KERNEL_ID UINT32_MAX

typedef struct edan_exec {
    const edan_insn *insn; /* static instruction; id = insn - table base is not assumed */
    uint64_t addr;         /* data address of the access when insn->mem != EDAN_MEM_NONE */
    uint32_t id;           /* dense static-instruction id in the producer's code table: records
                              with the same id point at the same instruction */
    uint16_t vcpu;         /* guest vCPU that executed it */
    uint16_t flags;        /* EDAN_EXEC_* */
} edan_exec;

/* The one static "instruction" of kernel writes: a store of EDAN_KERNEL_LINE bytes, no registers (code_table.c). */
extern const edan_insn edan_kernel_write_insn;

/* The record of the kernel's write of the EDAN_KERNEL_LINE bytes at line (aligned) on vCPU vcpu. */
static inline edan_exec edan_exec_kernel_write(uint64_t line, uint16_t vcpu)
{
    return (edan_exec){&edan_kernel_write_insn, line, EDAN_EXEC_KERNEL_ID, vcpu, EDAN_EXEC_WARM | EDAN_EXEC_KERNEL};
}

/*
 * A consumer of the stream. consume() is called with batches in order;
 * finish() once at the end (returns 0, or non-zero after reporting an error).
 */
typedef struct edan_consumer {
    void *ctx;
    void (*consume)(void *ctx, const edan_exec *recs, size_t n);
    int (*finish)(void *ctx);
    /*
     * Optional (NULL: the producer uses its own buffer): where the producer
     * may write its next batch, room for *cap >= 1 records, for a consumer
     * that would otherwise copy each batch (the analyzer's lane groups on
     * threads). The producer then passes that batch to consume() before it
     * asks again. Returning NULL also means the producer's own buffer.
     */
    edan_exec *(*buffer)(void *ctx, size_t *cap);
    /*
     * consume() takes records flagged EDAN_EXEC_WARM among the others: it
     * brings its state that follows the whole program up to date with them
     * and measures nothing of them. false: a producer never sends any.
     */
    bool warms;
} edan_consumer;

/* The flags of the 8 records at recs, and-ed (all) or or-ed. */
static inline uint16_t edan_exec_flags8(const edan_exec *recs, const bool all)
{
#define EDAN_EXEC_PAIR(a, b) (all ? recs[a].flags & recs[b].flags : recs[a].flags | recs[b].flags)
    const uint16_t f01 = EDAN_EXEC_PAIR(0, 1), f23 = EDAN_EXEC_PAIR(2, 3), f45 = EDAN_EXEC_PAIR(4, 5),
                   f67 = EDAN_EXEC_PAIR(6, 7);
#undef EDAN_EXEC_PAIR
    return all ? (f01 & f23) & (f45 & f67) : (f01 | f23) | (f45 | f67);
}

/* The length (>= 1) of the run at recs[0..n), n >= 1, whose records are all warm or all measured, as recs[0]. */
static inline size_t edan_exec_run(const edan_exec *recs, size_t n)
{
    const uint16_t warm = recs[0].flags & EDAN_EXEC_WARM;
    size_t i = 1;
    /*
     * Eight records a test where a run is long (every consumer that warms splits each batch with this): a
     * measured run while none has the flag (their flags or-ed), a warm one while all have it (and-ed), each
     * record's flags one or or and, not an exclusive-or with the run's flag and an or (docs/benchmarks.md).
     */
    if (!warm)
        while (i + 8 <= n && !(edan_exec_flags8(recs + i, false) & EDAN_EXEC_WARM))
            i += 8;
    else
        while (i + 8 <= n && (edan_exec_flags8(recs + i, true) & EDAN_EXEC_WARM))
            i += 8;
    while (i < n && (recs[i].flags & EDAN_EXEC_WARM) == warm)
        i++;
    return i;
}

/* How many of recs[0..n) are warm (EDAN_EXEC_WARM). */
static inline size_t edan_exec_warm_count(const edan_exec *recs, size_t n)
{
    size_t w = 0, i = 0;
    for (; i + 4 <= n; i += 4)
        w += (size_t)((recs[i].flags & EDAN_EXEC_WARM) + (recs[i + 1].flags & EDAN_EXEC_WARM) +
                      (recs[i + 2].flags & EDAN_EXEC_WARM) + (recs[i + 3].flags & EDAN_EXEC_WARM));
    for (; i < n; i++)
        w += recs[i].flags & EDAN_EXEC_WARM;
    return w / EDAN_EXEC_WARM;
}

/* How many of recs[0..n) are kernel writes (EDAN_EXEC_KERNEL). */
static inline size_t edan_exec_kernel_count(const edan_exec *recs, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += (recs[i].flags & EDAN_EXEC_KERNEL) != 0;
    return k;
}

typedef void (*edan_exec_run_fn)(void *ctx, const edan_exec *recs, size_t n);

/*
 * A batch that may hold warm records, in order, a run at a time: the
 * measured runs to measure(), the warm ones to warm() (NULL: dropped). The
 * one way every consumer that warms splits its batches.
 */
static inline void edan_exec_split(const edan_exec *recs, size_t n, void *ctx, edan_exec_run_fn measure,
                                   edan_exec_run_fn warm)
{
    for (size_t i = 0, run; i < n; i += run) {
        run = edan_exec_run(recs + i, n - i);
        if (!(recs[i].flags & EDAN_EXEC_WARM))
            measure(ctx, recs + i, run);
        else if (warm)
            warm(ctx, recs + i, run);
    }
}

/* Where a producer with its own buffer own[*cap] writes its next batch for c; *cap becomes the room there. */
static inline edan_exec *edan_consumer_buffer(const edan_consumer *c, edan_exec *own, size_t *cap)
{
    size_t room = *cap;
    edan_exec *into = c->buffer ? c->buffer(c->ctx, &room) : NULL;
    if (!into)
        return own;
    if (room < *cap)
        *cap = room;
    return into;
}

/*
 * Code table: dense ids -> decoded static instructions. Ids are assigned in
 * the order instructions are first seen. Entries never move once added
 * (storage is a list of fixed-size chunks), so edan_exec.insn stays valid.
 */
typedef struct edan_code_table edan_code_table;

edan_code_table *edan_code_table_new(void);
void edan_code_table_free(edan_code_table *t);
/* Add an instruction and return its id. */
uint32_t edan_code_table_add(edan_code_table *t, const edan_insn *insn);
/* Find the id of the instruction at pc with encoding raw; returns -1 if absent. */
int64_t edan_code_table_find(const edan_code_table *t, uint64_t pc, uint32_t raw);
const edan_insn *edan_code_table_get(const edan_code_table *t, uint32_t id);
uint32_t edan_code_table_size(const edan_code_table *t);

#endif
