/*
 * footprint_tool.c - the footprint tool (--footprint): the distinct bytes
 * and 64-byte lines the traced region loaded or stored, in all, per
 * function (the function whose code made the access, from the program's
 * symbols), per thread (the vCPU that made the access), per innermost loop
 * (analysis/loops/loops.h: the static instruction that made the access is in the
 * loop's range) and per loop nest (the instruction is in the range of the
 * loop or of a loop inside it), with the accesses A that touched them and
 * the growth dF = lines / A. Accesses that performed none (a failed sc)
 * touch nothing. The rows are reported by footprint_view.c.
 *
 * State: the mask of the bytes of a line each static instruction (as one
 * vCPU executed it: footprint_tool.h) touched,
 * per (line, instruction) pair; distinct bytes are the masks' population
 * counts, distinct lines the lines with a pair. The first instruction to
 * touch a line keeps its pair in the line's entry of a direct-mapped table
 * (util/blocktab.h: 16 bytes a line, in leaves of 32 consecutive lines),
 * every other one in a hash table (util/keymap.h) of (line, instruction):
 * most lines are touched by one instruction, so most pairs are found
 * without hashing or probing. The whole run's, a function's or a loop's
 * lines are the union over its instructions, folded at the report (loops
 * are known only after the stream). Memory is proportional to the distinct
 * (line, instruction) pairs (blocktab.h states the constant for lines
 * scattered one to a leaf). Each instruction gathers the bytes of its
 * current line and stores them when it moves to another line, so an access
 * costs a lookup only then (a stride of 8 bytes: one access in 8).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isa/native.h"
#include "tool/base/base.h"
#include "tool/memory/footprint_tool.h"
#include "util/grow.h"

/* Store instruction index's bytes of its current line where they go (nothing without a current line). */
static bool flush(footprint_tool *t, uint32_t index)
{
    fp_insn *in = &t->insns[index];
    if (in->line == NO_LINE)
        return true;
    if (in->entry != OTHER) {
        ((fp_line *)edan_blocktab_at(&t->lines, in->entry, sizeof(fp_line)))->mask |= in->mask;
    } else {
        uint64_t *m = edan_keymap_get(&t->map, in->line, index, NULL);
        if (!m)
            return false;
        *m |= in->mask;
    }
    in->line = NO_LINE;
    return true;
}

#define NO_ID (SIZE_MAX - 2) /* a line's entry not looked up yet */

/*
 * Mark the bytes `mask` of line `line` touched by instruction index; id is
 * the index of the line's entry in `lines` (NO_ID: not known yet; SIZE_MAX:
 * out of memory). When
 * the instruction moves to another line, its bytes of the previous one are
 * stored, and where this line's go is decided: the line's entry when the
 * line has no instruction yet or this one, else a pair of the map. False
 * when out of memory.
 */
static inline bool touch(footprint_tool *t, uint64_t line, size_t id, uint32_t index, uint64_t mask)
{
    fp_insn *in = &t->insns[index];
    if (in->line == line) {
        in->mask |= mask;
        return true;
    }
    if (in->entry != OTHER) /* the previous line's bytes into its entry (an entry implies a line) */
        ((fp_line *)edan_blocktab_at(&t->lines, in->entry, sizeof(fp_line)))->mask |= in->mask;
    else if (!flush(t, index))
        return false;
    if (id == NO_ID)
        id = edan_blocktab_get_id(&t->lines, line, LINE_LEAF_BITS);
    if (id == SIZE_MAX)
        return false;
    fp_line *e = edan_blocktab_at(&t->lines, id, sizeof *e);
    if (!e->insn1)
        e->insn1 = index + 1;
    in->entry = id;
    if (e->insn1 != index + 1) {
        in->entry = OTHER;
        e->shared = 1;
    }
    in->line = line;
    in->mask = mask;
    return true;
}

/*
 * The instruction index of r's static instruction as r's vCPU executed it
 * (ALL when out of memory): found in the ring of the static instruction's
 * vCPUs, or made and put in it. It becomes the one id_insn names, so the
 * next record of the same vCPU finds it at once.
 */
static uint32_t insn_of(footprint_tool *t, const edan_exec *r)
{
    if (r->id >= t->id_cap) {
        const size_t cap = edan_grow_cap(t->id_cap, r->id);
        uint32_t *m = edan_grow_zeroed(t->id_insn, t->id_cap, cap, sizeof *m);
        if (!m)
            return ALL;
        t->id_insn = m;
        t->id_cap = cap;
    }
    const uint32_t first = t->id_insn[r->id];
    if (first) {
        for (uint32_t k = t->insns[first - 1].next; k != first - 1; k = t->insns[k].next)
            if (t->insns[k].vcpu == r->vcpu) {
                t->id_insn[r->id] = k + 1;
                return k;
            }
        if (t->insns[first - 1].vcpu == r->vcpu)
            return first - 1;
    }
    if (t->n_insns == t->insns_cap) {
        const size_t cap = t->insns_cap ? 2 * t->insns_cap : 256;
        fp_insn *m = cap < UNKNOWN ? realloc(t->insns, cap * sizeof *m) : NULL;
        if (!m)
            return ALL;
        t->insns = m;
        t->insns_cap = cap;
    }
    const uint32_t index = (uint32_t)t->n_insns++;
    fp_insn *in = &t->insns[index];
    in->pc = r->insn->pc;
    in->accesses = 0;
    in->line = NO_LINE;
    in->mask = 0;
    in->entry = OTHER;
    in->ahead = NO_LINE;
    in->vcpu = r->vcpu;
    in->fn = UNKNOWN; /* named once the stream is over (footprint_view.c), the shared objects' code too */
    if (first) {      /* another vCPU's: after it in the ring */
        in->next = t->insns[first - 1].next;
        t->insns[first - 1].next = index;
    } else {
        in->next = index;
    }
    t->id_insn[r->id] = index + 1;
    return index;
}

#define NO_ACCESS (SIZE_MAX - 1) /* a record that accesses no memory (a failed sc does not either) */

/*
 * The index of the entry in `lines` of the line of record r's first byte
 * (made when absent), its cache line prefetched: a record's is found
 * HINT_AHEAD records before it is counted, so the misses of many records
 * overlap. NO_ID when its instruction's record looked up before it was on
 * the same line (a stride within a line: the instruction is most likely on
 * that line still when r is counted, which then needs no entry, or looks it
 * up); NO_ACCESS for a record without an access; SIZE_MAX when out of memory.
 * The instruction is the one id_insn names, which may be another vCPU's than
 * r's: NO_ID is then only a worse hint, never a wrong one.
 */
static inline size_t entry_ahead(footprint_tool *t, const edan_exec *r)
{
    if (r->insn->mem == EDAN_MEM_NONE || (r->flags & EDAN_EXEC_NO_ACCESS) || !r->insn->mem_size)
        return NO_ACCESS;
    const uint64_t line = r->addr / LINE;
    if (r->id < t->id_cap && t->id_insn[r->id]) {
        fp_insn *in = &t->insns[t->id_insn[r->id] - 1];
        if (in->ahead == line)
            return NO_ID;
        in->ahead = line;
    }
    const size_t id = edan_blocktab_get_id(&t->lines, line, LINE_LEAF_BITS);
    if (id != SIZE_MAX)
        __builtin_prefetch(edan_blocktab_at(&t->lines, id, sizeof(fp_line)), 1);
    return id;
}

/* An access of record r that spans lines, by instruction index; id the entry of its first line. */
static bool touch_lines(footprint_tool *t, const edan_exec *r, size_t id, uint32_t index)
{
    uint64_t a = r->addr, left = r->insn->mem_size;
    while (left) {
        const uint64_t o = a % LINE, k = left < LINE - o ? left : LINE - o;
        if (!touch(t, a / LINE, a == r->addr ? id : NO_ID, index, (k == LINE ? ~0ull : ((1ull << k) - 1)) << o))
            return false;
        a += k;
        left -= k;
    }
    return true;
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    footprint_tool *t = ctx;
    if (t->err.set)
        return;
    size_t ids[HINT_AHEAD]; /* entry_ahead of records i .. i + HINT_AHEAD - 1, at their index modulo HINT_AHEAD */
    for (size_t i = 0; i < n && i < HINT_AHEAD; i++)
        ids[i] = entry_ahead(t, &recs[i]);
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        const size_t id = ids[i % HINT_AHEAD];
        if (i + HINT_AHEAD < n)
            ids[i % HINT_AHEAD] = entry_ahead(t, r + HINT_AHEAD);
        if (id == NO_ACCESS)
            continue;
        uint32_t index = r->id < t->id_cap && t->id_insn[r->id] ? t->id_insn[r->id] - 1 : ALL;
        if (index == ALL || t->insns[index].vcpu != r->vcpu) /* new, or another vCPU's */
            index = insn_of(t, r);
        bool ok = index != ALL;
        if (ok) {
            t->insns[index].accesses++;
            const uint64_t off = r->addr % LINE, size = r->insn->mem_size;
            if (off + size <= LINE) /* within one line */
                ok = touch(t, r->addr / LINE, id, index, (size == LINE ? ~0ull : ((1ull << size) - 1)) << off);
            else
                ok = touch_lines(t, r, id, index);
        }
        if (!ok) {
            edan_error_set(&t->err, "out of memory for the footprint's lines");
            return;
        }
    }
    if (edan_loops_observe(t->loops, recs, n))
        edan_error_set(&t->err, "out of memory for the loops");
}

static int finish(void *ctx)
{
    footprint_tool *t = ctx;
    for (size_t i = 0; i < t->n_insns && !t->err.set; i++)
        if (!flush(t, (uint32_t)i))
            edan_error_set(&t->err, "out of memory for the footprint's lines");
    if (!t->err.set && edan_loops_index(t->loops))
        edan_error_set(&t->err, "out of memory for the loops");
    return t->err.set ? -1 : 0;
}

/* ===================================================================== */
/* Tool                                                                   */
/* ===================================================================== */

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "footprint", NULL, NULL) > 0;
}

static void destroy(void *tool)
{
    footprint_tool *t = tool;
    if (!t)
        return;
    if (t->elf_open)
        edan_elf_close(&t->elf);
    edan_loops_free(t->loops);
    edan_keymap_free(&t->map);
    edan_blocktab_free(&t->lines);
    free(t->id_insn);
    free(t->insns);
    free(t);
}

static void *create(edan_session *s, edan_error *err)
{
    footprint_tool *t = calloc(1, sizeof *t);
    if (!t || edan_keymap_init(&t->map, sizeof(uint64_t))) {
        free(t);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    if (edan_blocktab_init(&t->lines, LINE_LEAF_BITS, sizeof(fp_line))) {
        edan_error_set(err, "out of memory");
        destroy(t);
        return NULL;
    }
    /* per function when the program's symbols can be read; the totals and loops in any case */
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    t->elf_open = binary && *binary && !edan_elf_open(binary, &t->elf, &ignored);
    t->have_elf = t->elf_open && edan_elf_linked_pcs(&t->elf);
    if (!(t->loops = edan_loops_new(t->elf_open ? &t->elf : NULL))) {
        edan_error_set(err, "out of memory");
        destroy(t);
        return NULL;
    }
    return t;
}

static edan_consumer consumer(void *t)
{
    return (edan_consumer){t, consume, finish, NULL, false};
}

static const edan_error *error(const void *t)
{
    return &((const footprint_tool *)t)->err;
}

static const edan_tool_option options[] = {
    {"footprint", false,
     "  --footprint         distinct bytes and 64-byte lines loaded or stored, in all, per\n"
     "                      function (the function whose code accessed them), per thread,\n"
     "                      per innermost loop and per loop nest (a loop with the loops\n"
     "                      inside it), with the accesses A and the growth lines / A\n",
     NULL},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_footprint_tool = {
    .name = "footprint",
    .summary = "distinct bytes and lines touched, in all, per function and per loop",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .results = edan_footprint_results,
    .free_results = edan_footprint_free_results,
    .tables = edan_footprint_tables,
    .destroy = destroy,
    .reads_program = true,
};
