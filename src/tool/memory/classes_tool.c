/*
 * classes_tool.c - the load-classes tool (--classes): MemGaze's load
 * classes (constant, strided, irregular) for every static load, decided
 * for each of its accesses from the eDAG and the load's own address
 * sequence, and the footprint split by class (F, ΔF = F/A) in all, per
 * function, per innermost loop and per loop nest (analysis/loops/loops.h), and
 * over the windows of MemGaze's execution-interval tree (analysis/locality/windows.h)
 * of the whole run, of each function and of each loop nest.
 *
 * The class of one access of a static load (docs/locality.md):
 *   - irregular when its address depends on a value loaded since the same
 *     static load last ran (through the eDAG's true dependencies: registers
 *     and memory): a pointer chase, a gather x[col[j]]. An index that was
 *     loaded once before a loop (j = rowptr[i]; val[j++]) does not count,
 *     nor a scalar reloaded from the stack (its value's own history counts
 *     instead), so -O0 code classifies as -O2 code does;
 *   - otherwise by the step from the load's previous address: 0 constant,
 *     the same non-zero step as last time strided, a new step irregular
 *     (the second access of a load, with no step before, is strided when it
 *     moves);
 *   - a load's first access takes the class of its second; a load that ran
 *     once is constant. Frame scalars (sp-relative, or negative offsets from
 *     s0, the frame pointer of unoptimised code) are constant.
 * A static load's class is the class of most of its accesses. Stores are
 * counted apart (MemGaze's class 90). Footprints are distinct 64-byte
 * blocks: F_c counts the blocks an access of class c touched (a block
 * touched by two classes counts in both); F all loads' blocks once.
 *
 * "When a value was loaded" is a time the tool gives the dependency
 * tracker: a load's value gets its own index + 1 (a frame or constant-address
 * scalar passes on the time of what was stored there), every other vertex
 * the latest time of its sources; edan_deps_reg_finish() reads the address
 * register's.
 *
 * The footprints: one table of (block, static instruction) -> the classes
 * that touched the block; the whole run, functions and loops fold their
 * instructions' entries at the report. Each instruction gathers the classes
 * of its current block and stores them when it moves to another block. The windows are
 * those of the loads' accesses to 64-byte blocks (one per block an access
 * touches); a load's first access enters its class's windows when its class
 * is known (edan_split_windows_settle). A function's and a loop nest's
 * windows are those of its own loads (a row of the windows each); an access
 * counts in the nests of the loops known to hold its instruction when it is
 * made: the loop finder is told every record before the record's access, and
 * each growth of a loop's range is logged, so an instruction catches up with
 * the log when it next loads.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/deps/deps.h"
#include "isa/native.h"
#include "tool/base/base.h"
#include "tool/memory/classes_tool.h"
#include "util/grow.h"
#include "util/keymap.h"
#include "util/symbols/symbols.h"

#define REG_SP 2
#define REG_S0 8

const char *const edan_lc_class_name[] = {"constant", "strided", "irregular", "store"};

/* ===================================================================== */
/* Footprint sets: (block, instruction) -> classes; windows               */
/* ===================================================================== */

/* Store instruction index's classes of its current block in the map. */
static bool flush(classes_tool *t, uint32_t index)
{
    lc_insn *s = &t->insns[index];
    if (s->block == LC_NO_BLOCK)
        return true;
    uint32_t *mask = edan_keymap_get(&t->map, s->block, index, NULL);
    if (!mask)
        return false;
    *mask |= s->block_mask;
    s->block = LC_NO_BLOCK;
    return true;
}

/* Blocks lo..hi touched by an access of class cls of instruction index. */
static bool mark_blocks(classes_tool *t, uint64_t lo, uint64_t hi, uint32_t index, int cls)
{
    lc_insn *s = &t->insns[index];
    for (uint64_t b = lo;; b++) {
        if (s->block == b) {
            s->block_mask |= 1u << cls;
        } else {
            if (!flush(t, index))
                return false;
            s->block = b;
            s->block_mask = 1u << cls;
        }
        if (b == hi)
            return true;
    }
}

/* Bring the list of loop-range changes up to date with the loop finder (when its version moved). */
static bool note_changes(classes_tool *t)
{
    const uint32_t n = edan_loops_count(t->loops);
    if (n > t->n_known) {
        uint64_t *m = realloc(t->known_end, (size_t)n * sizeof *m);
        if (!m)
            return false;
        t->known_end = m;
    }
    for (uint32_t id = 0; id < n; id++) {
        const edan_loop *l = edan_loops_get(t->loops, id);
        const bool grew = id >= t->n_known || l->end > t->known_end[id];
        if (!grew)
            continue;
        if (t->n_change == t->change_cap) {
            const uint32_t cap = t->change_cap ? 2 * t->change_cap : 64;
            lc_change *m = cap > t->change_cap ? realloc(t->change, (size_t)cap * sizeof *m) : NULL;
            if (!m)
                return false;
            t->change = m;
            t->change_cap = cap;
        }
        t->change[t->n_change++] = (lc_change){id >= t->n_known ? l->head : t->known_end[id] + 1, l->end, id};
        t->known_end[id] = l->end;
    }
    t->n_known = n;
    t->loops_version = edan_loops_version(t->loops);
    return true;
}

/* The windows' row of loop id, made when first needed; LC_NO_ROW when out of memory. */
static uint32_t loop_row(classes_tool *t, uint32_t id)
{
    if (id >= t->n_loop_row) {
        const uint32_t cap = 2 * id + 16;
        uint32_t *m = realloc(t->loop_row, (size_t)cap * sizeof *m);
        if (!m)
            return LC_NO_ROW;
        for (uint32_t i = t->n_loop_row; i < cap; i++)
            m[i] = LC_NO_ROW;
        t->loop_row = m;
        t->n_loop_row = cap;
    }
    if (t->loop_row[id] == LC_NO_ROW)
        t->loop_row[id] = edan_split_windows_add_row(&t->win);
    return t->loop_row[id];
}

/* Loop id joins the loops known to hold s: its row joins s's list of rows. */
static bool nest_add(classes_tool *t, lc_insn *s, uint32_t id)
{
    const uint32_t row = loop_row(t, id);
    const bool at_end = s->nest_at + s->nest_n == t->n_nest;
    const uint32_t need = t->n_nest + (at_end ? 1 : s->nest_n + 1);
    if (row == LC_NO_ROW)
        return false;
    if (need > t->nest_cap || need < t->n_nest) {
        uint32_t cap = t->nest_cap ? t->nest_cap : 256;
        while (cap < need && cap < UINT32_MAX / 2)
            cap *= 2;
        uint32_t *m = cap >= need ? realloc(t->nest, (size_t)cap * sizeof *m) : NULL;
        if (!m)
            return false;
        t->nest = m;
        t->nest_cap = cap;
    }
    if (!at_end) { /* the list moves to the end of the pool, where it can grow */
        memmove(&t->nest[t->n_nest], &t->nest[s->nest_at], (size_t)s->nest_n * sizeof *t->nest);
        s->nest_at = t->n_nest;
        t->n_nest += s->nest_n;
    }
    t->nest[t->n_nest++] = row;
    s->nest_n++;
    return true;
}

/*
 * The rows s's accesses count in, brought up to date: the whole run's (0),
 * its function's (s->fn_row, made at its first load) and those of the loops
 * known to hold it now (t->nest[s->nest_at ..], made when first needed).
 * False when out of memory.
 */
_Static_assert(LC_NO_ROW == EDAN_LIBFUNCS_UNSET, "a library function's row starts as none");

static bool rows_of(classes_tool *t, lc_insn *s)
{
    for (uint32_t j = s->changes_seen; j < t->n_change; j++)
        if (t->change[j].lo <= s->pc && s->pc <= t->change[j].hi && !nest_add(t, s, t->change[j].loop))
            return false;
    s->changes_seen = t->n_change;
    if (t->have_elf && s->fn_row == LC_NO_ROW) {
        /* a library's function (its object named ahead of its code) has a row of its own, unset as LC_NO_ROW */
        bool oom = false;
        uint32_t *row = s->fn != LC_UNKNOWN_FN ? &t->fn_row[s->fn] : edan_libfuncs_value(t->libs, s->pc, &oom);
        if (oom)
            return false;
        row = row ? row : &t->fn_row[t->elf.n_funcs];
        if (*row == LC_NO_ROW && (*row = edan_split_windows_add_row(&t->win)) == LC_NO_ROW)
            return false;
        s->fn_row = *row;
    }
    return true;
}

/*
 * A load's accesses to blocks lo..hi in the windows of each of its rows, of
 * class cls or (EDAN_SPLIT_LATER) of a class told later: then the tickets,
 * one per block and row, follow one another from s->ticket.
 */
static bool window_blocks(classes_tool *t, lc_insn *s, uint64_t lo, uint64_t hi, int cls)
{
    if (!rows_of(t, s))
        return false;
    uint32_t ticket, first = 0;
    for (uint64_t b = lo;; b++) {
        if (edan_split_windows_access(&t->win, 0, b, cls, &ticket))
            return false;
        first = b == lo ? ticket : first;
        if (s->fn_row != LC_NO_ROW && edan_split_windows_access(&t->win, s->fn_row, b, cls, &ticket))
            return false;
        for (uint32_t k = 0; k < s->nest_n; k++)
            if (edan_split_windows_access(&t->win, t->nest[s->nest_at + k], b, cls, &ticket))
                return false;
        if (b == hi)
            break;
    }
    if (cls == EDAN_SPLIT_LATER) {
        s->ticket = first;
        s->tickets = (uint32_t)(hi - lo + 1) * (1 + (s->fn_row != LC_NO_ROW) + s->nest_n);
    }
    return true;
}

/* The class of a load's first access is known: its tickets settle. */
static bool window_settle(classes_tool *t, lc_insn *s, int cls)
{
    if (!s->windows_pending)
        return true;
    s->windows_pending = false;
    for (uint32_t k = 0; k < s->tickets; k++)
        if (edan_split_windows_settle(&t->win, s->ticket + k, cls))
            return false;
    return true;
}

/* ===================================================================== */
/* The stream                                                             */
/* ===================================================================== */

static lc_insn *insn_of(classes_tool *t, const edan_exec *r)
{
    if (r->id >= t->id_cap) {
        const size_t cap = edan_grow_cap(t->id_cap, r->id);
        uint32_t *m = edan_grow_zeroed(t->id_insn, t->id_cap, cap, sizeof *m);
        if (!m)
            return NULL;
        t->id_insn = m;
        t->id_cap = cap;
    }
    if (!t->id_insn[r->id]) {
        if (t->n_insns == t->insns_cap) {
            const size_t cap = t->insns_cap ? 2 * t->insns_cap : 256;
            lc_insn *m = cap < LC_UNKNOWN_FN ? realloc(t->insns, cap * sizeof *m) : NULL;
            if (!m)
                return NULL;
            t->insns = m;
            t->insns_cap = cap;
        }
        const edan_insn *in = r->insn;
        lc_insn *s = &t->insns[t->n_insns];
        memset(s, 0, sizeof *s);
        s->pc = in->pc;
        s->store = in->mem == EDAN_MEM_STORE;
        s->frame = in->rs1 == REG_SP || (in->rs1 == REG_S0 && in->imm < 0);
        s->addr_const = true;
        s->block = LC_NO_BLOCK;
        s->fn = LC_UNKNOWN_FN;
        s->fn_row = LC_NO_ROW;
        s->fixed = -1;
        if (t->given) { /* MemGaze's class of the load at this pc, when its file lists it */
            uint32_t skipped;
            const edan_mg_class c = edan_mg_classes_find(t->given, in->pc, &skipped);
            s->fixed = c == EDAN_MG_CONSTANT    ? C_CONST
                       : c == EDAN_MG_STRIDED   ? C_STRIDED
                       : c == EDAN_MG_IRREGULAR ? C_IRREG
                       : c == EDAN_MG_STORE     ? C_STORE
                                                : -1;
            s->store = s->store || s->fixed == C_STORE;
        }
        if (t->have_elf) {
            const edan_elf_func *f = edan_elf_func_at(&t->elf, in->pc);
            s->fn = f ? (uint32_t)(f - t->elf.funcs) : LC_UNKNOWN_FN;
        }
        t->id_insn[r->id] = (uint32_t)++t->n_insns;
    }
    return &t->insns[t->id_insn[r->id] - 1];
}

/* The class of this access of s at addr, whose address register carries load time addr_time. */
static int access_class(lc_insn *s, uint64_t addr, uint64_t addr_time)
{
    if (s->store)
        return C_STORE;
    if (s->frame)
        return C_CONST;
    if (addr_time >= s->last) { /* a value loaded since the load's previous access */
        s->dependent++;
        return C_IRREG;
    }
    const int64_t step = (int64_t)(addr - s->last_addr);
    if (step == 0)
        return C_CONST;
    if (step == s->last_step || s->last_step == 0) {
        if (step == s->last_step)
            s->stride = step;
        return C_STRIDED;
    }
    return C_IRREG;
}

static bool one_access(classes_tool *t, const edan_exec *r, uint64_t addr_time)
{
    lc_insn *s = insn_of(t, r);
    if (!s)
        return false;
    const uint32_t index = (uint32_t)(s - t->insns);
    const uint64_t lo = r->addr >> LC_BLOCK_SHIFT, hi = (r->addr + r->insn->mem_size - 1) >> LC_BLOCK_SHIFT;
    if (s->fixed >= 0) { /* a class given by MemGaze's file: every access of the load is of it */
        s->last_addr = r->addr;
        s->last = t->v + 1;
        s->n[s->fixed]++;
        return mark_blocks(t, lo, hi, index, s->fixed) && (s->store || window_blocks(t, s, lo, hi, s->fixed));
    }
    if (!s->last) { /* the first access: its class is its second's (a frame scalar's is constant) */
        s->pending = true;
        s->pend_lo = lo;
        s->pend_hi = hi;
        s->last_addr = r->addr;
        s->last = t->v + 1;
        s->windows_pending = !s->store && !s->frame;
        return s->store || window_blocks(t, s, lo, hi, s->frame ? C_CONST : EDAN_SPLIT_LATER);
    }
    const int cls = access_class(s, r->addr, addr_time);
    if (r->addr != s->last_addr)
        s->addr_const = false;
    if (!s->store && !s->frame) /* the step is the load's own; a dependent access still moves it */
        s->last_step = (int64_t)(r->addr - s->last_addr);
    s->last_addr = r->addr;
    s->last = t->v + 1;
    s->n[cls]++;
    if (s->pending) {
        s->pending = false;
        s->n[cls]++;
        if (!mark_blocks(t, s->pend_lo, s->pend_hi, index, cls) || !window_settle(t, s, cls))
            return false;
    }
    return mark_blocks(t, lo, hi, index, cls) && (s->store || window_blocks(t, s, lo, hi, cls));
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    classes_tool *t = ctx;
    size_t seen = 0, changed_at = SIZE_MAX; /* records the loop finder saw; the one where the loops changed */
    for (size_t i = 0; i < n && !t->err.set; i++) {
        const edan_exec *r = &recs[i];
        const edan_insn *in = r->insn;
        /* the loops as known when this record runs: its own back edge to a new loop included */
        size_t k = 0;
        if (i == seen && edan_loops_observe_until_change(t->loops, r, n - i, &k)) {
            edan_error_set(&t->err, "out of memory for the loops");
            return;
        }
        if (i == seen) {
            seen = i + k;
            changed_at = edan_loops_version(t->loops) != t->loops_version ? seen - 1 : SIZE_MAX;
        }
        if (i == changed_at && !note_changes(t)) {
            edan_error_set(&t->err, "out of memory for the loops");
            return;
        }
        if (t->by_sample && (r->flags & EDAN_EXEC_SAMPLE_START) && edan_split_windows_sample(&t->win)) {
            edan_error_set(&t->err, "more than 2^26 samples");
            return;
        }
        edan_deps_info info;
        const uint64_t ready = edan_deps_ready(t->deps, r, &info);
        if (ready == EDAN_DEPS_FAILED) {
            t->err = *edan_deps_error(t->deps);
            return;
        }
        uint64_t F = ready;
        const bool access = in->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS) && in->mem_size;
        if (access) {
            const uint64_t addr_time = edan_deps_reg_finish(t->deps, in->rs1);
            lc_insn *s = NULL;
            if (!one_access(t, r, addr_time) || !(s = insn_of(t, r))) {
                edan_error_set(&t->err, "out of memory for the load classes");
                return;
            }
            /* a loaded value is new data, unless it is a scalar that only passes a stored value on: a frame
             * slot, or a load whose address has not moved (known from its second access on) */
            if (in->mem != EDAN_MEM_STORE && !s->frame && (!s->addr_const || s->pending))
                F = t->v + 1;
        }
        if (edan_deps_commit(t->deps, ready, F - ready)) {
            t->err = *edan_deps_error(t->deps);
            return;
        }
        t->v++;
    }
}

static int finish(void *ctx)
{
    classes_tool *t = ctx;
    /* loads that ran once: constant */
    for (size_t i = 0; i < t->n_insns && !t->err.set; i++) {
        lc_insn *s = &t->insns[i];
        if (!s->pending)
            continue;
        s->pending = false;
        const int cls = s->store ? C_STORE : C_CONST;
        s->n[cls]++;
        if (!mark_blocks(t, s->pend_lo, s->pend_hi, (uint32_t)i, cls) || !window_settle(t, s, cls))
            edan_error_set(&t->err, "out of memory for the load classes");
    }
    for (size_t i = 0; i < t->n_insns && !t->err.set; i++)
        if (!flush(t, (uint32_t)i))
            edan_error_set(&t->err, "out of memory for the load classes");
    if (!t->err.set && edan_loops_index(t->loops))
        edan_error_set(&t->err, "out of memory for the loops");
    return t->err.set ? -1 : 0;
}

/* ===================================================================== */
/* The tool                                                               */
/* ===================================================================== */

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "classes", NULL, NULL) > 0;
}

static void destroy(void *tool)
{
    classes_tool *t = tool;
    if (!t)
        return;
    edan_mg_classes_free(t->given);
    edan_deps_free(t->deps);
    edan_loops_free(t->loops);
    if (t->elf_open)
        edan_elf_close(&t->elf);
    free(t->id_insn);
    free(t->insns);
    edan_keymap_free(&t->map);
    edan_split_windows_free(&t->win);
    free(t->fn_row);
    edan_libfuncs_free(t->libs);
    free(t->loop_row);
    free(t->change);
    free(t->known_end);
    free(t->nest);
    free(t);
}

static void *create(edan_session *s, edan_error *err)
{
    classes_tool *t = calloc(1, sizeof *t);
    if (!t || edan_keymap_init(&t->map, sizeof(uint32_t))) {
        free(t);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    if (edan_split_windows_init(&t->win, 3) || edan_split_windows_add_row(&t->win) != 0) {
        destroy(t);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    t->by_sample = !edan_session_options(s)->across_samples;
    const char *given = edan_options_last(edan_session_options(s), "load-classes");
    if (given && !(t->given = edan_mg_classes_load(given, err))) {
        destroy(t);
        return NULL;
    }
    edan_lane_config lane;
    memset(&lane, 0, sizeof lane);
    edan_cost_default(&lane.cost);
    if (!(t->deps = edan_deps_new(&lane, false, 0, err))) {
        destroy(t);
        return NULL;
    }
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    t->elf_open = binary && *binary && !edan_elf_open(binary, &t->elf, &ignored);
    t->have_elf = t->elf_open && edan_elf_linked_pcs(&t->elf);
    const edan_report_source *src = edan_session_source(s);
    if (t->have_elf && src->objects_ahead && src->objects && !(t->libs = edan_libfuncs_new(src->objects))) {
        destroy(t);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    if (t->have_elf && (t->fn_row = malloc((t->elf.n_funcs + 1) * sizeof *t->fn_row)))
        for (size_t f = 0; f <= t->elf.n_funcs; f++)
            t->fn_row[f] = LC_NO_ROW;
    if ((t->have_elf && !t->fn_row) || !(t->loops = edan_loops_new(t->elf_open ? &t->elf : NULL))) {
        destroy(t);
        edan_error_set(err, "out of memory");
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
    return &((const classes_tool *)t)->err;
}

static const edan_tool_option options[] = {
    {"classes", false,
     "  --classes           MemGaze's load classes (constant, strided, irregular) of every\n"
     "                      static load, from the eDAG and its address sequence, and the\n"
     "                      footprint and its growth by class, in all, per function, per\n"
     "                      innermost loop and per loop nest, and over windows of 2^k load\n"
     "                      accesses (the whole run's, each function's, each nest's)\n",
     NULL},
    {"load-classes", true,
     "  --load-classes=FILE with --classes: the class of each static load MemGaze's binary\n"
     "                      analysis gives (its .binanlys file: 0 constant, 1 strided,\n"
     "                      2 irregular, 90 store), for a MemGaze trace; loads it does not\n"
     "                      list take edan's own rules\n",
     NULL},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_classes_tool = {
    .name = "load-classes",
    .summary = "load classes (constant, strided, irregular) and the footprint by class",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .results = edan_lc_results,
    .free_results = edan_lc_free_results,
    .tables = edan_lc_tables,
    .outputs = edan_lc_outputs,
    .destroy = destroy,
    .threaded = true,
    .reads_program = true,
};
