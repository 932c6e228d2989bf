/*
 * classes_tool.c - the load-classes tool (--classes): MemGaze's load
 * classes (constant, strided, irregular) for every static load, decided
 * for each of its accesses from the eDAG and the load's own address
 * sequence, and the footprint split by class (F, ΔF = F/A) in all and per
 * function.
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
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/deps.h"
#include "report/csv.h"
#include "report/json.h"
#include "tool/session.h"
#include "tool/tool.h"
#include "util/elf_symbols.h"
#include "util/grow.h"
#include "util/keymap.h"
#include "util/srcmap.h"

#define BLOCK_SHIFT 6
#define ALL_FN UINT32_MAX
#define UNKNOWN_FN 0xfffffffeu
#define TEXT_ROWS 10
#define JSON_ROWS 100
#define REG_SP 2
#define REG_S0 8

enum { C_CONST, C_STRIDED, C_IRREG, C_STORE, N_CLASSES };
static const char *const class_name[] = {"constant", "strided", "irregular", "store"};

/* One static memory instruction. */
typedef struct lc_insn {
    uint64_t pc;
    uint64_t last; /* index + 1 of its latest access (0: none yet) */
    uint64_t last_addr;
    int64_t last_step; /* 0 with fewer than two accesses */
    int64_t stride;    /* the latest repeated step */
    uint64_t n[N_CLASSES];
    uint64_t dependent;        /* accesses whose address depended on a recent load */
    uint64_t pend_lo, pend_hi; /* the first access's blocks, until its class is known */
    uint32_t fn;               /* function index (UNKNOWN_FN, or ALL_FN without symbols) */
    bool pending, store, frame, addr_const;
} lc_insn;

typedef struct lc_totals {
    uint64_t accesses[N_CLASSES], blocks[N_CLASSES], statics[N_CLASSES];
    uint64_t load_accesses, load_blocks;
} lc_totals;

typedef struct classes_tool {
    edan_deps *deps;
    uint64_t v;        /* records so far */
    uint32_t *id_insn; /* insn index + 1 by static id */
    size_t id_cap;
    lc_insn *insns;
    size_t n_insns, insns_cap;
    edan_keymap map; /* (block, function) -> mask of the classes that touched it (bit per class) */
    edan_elf elf;
    bool have_elf;
    edan_error err;
} classes_tool;

/* ===================================================================== */
/* Footprint sets: (block, function) -> classes                           */
/* ===================================================================== */

static bool mark(classes_tool *t, uint64_t block, uint32_t fn, int cls)
{
    uint32_t *mask = edan_keymap_get(&t->map, block, fn, NULL);
    if (!mask)
        return false;
    *mask |= 1u << cls;
    return true;
}

/* Blocks lo..hi touched by an access of class cls of function fn (and of the whole run). */
static bool mark_blocks(classes_tool *t, uint64_t lo, uint64_t hi, uint32_t fn, int cls)
{
    for (uint64_t b = lo;; b++) {
        if (!mark(t, b, ALL_FN, cls) || (fn != ALL_FN && !mark(t, b, fn, cls)))
            return false;
        if (b == hi)
            return true;
    }
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
            lc_insn *m = realloc(t->insns, cap * sizeof *m);
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
        s->fn = ALL_FN;
        if (t->have_elf) {
            const edan_elf_func *f = edan_elf_func_at(&t->elf, in->pc);
            s->fn = f ? (uint32_t)(f - t->elf.funcs) : UNKNOWN_FN;
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
    const uint64_t lo = r->addr >> BLOCK_SHIFT, hi = (r->addr + r->insn->mem_size - 1) >> BLOCK_SHIFT;
    if (!s->last) { /* the first access: its class is its second's */
        s->pending = true;
        s->pend_lo = lo;
        s->pend_hi = hi;
        s->last_addr = r->addr;
        s->last = t->v + 1;
        return true;
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
        if (!mark_blocks(t, s->pend_lo, s->pend_hi, s->fn, cls))
            return false;
    }
    return mark_blocks(t, lo, hi, s->fn, cls);
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    classes_tool *t = ctx;
    for (size_t i = 0; i < n && !t->err.set; i++) {
        const edan_exec *r = &recs[i];
        const edan_insn *in = r->insn;
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
        if (!mark_blocks(t, s->pend_lo, s->pend_hi, s->fn, cls))
            edan_error_set(&t->err, "out of memory for the load classes");
    }
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
    edan_deps_free(t->deps);
    if (t->have_elf)
        edan_elf_close(&t->elf);
    free(t->id_insn);
    free(t->insns);
    edan_keymap_free(&t->map);
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
    edan_lane_config lane;
    memset(&lane, 0, sizeof lane);
    edan_cost_default(&lane.cost);
    if (!(t->deps = edan_deps_new(&lane, false, 0, err))) {
        destroy(t);
        return NULL;
    }
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    t->have_elf = binary && *binary && !edan_elf_open(binary, &t->elf, &ignored);
    if (t->have_elf && t->elf.is_pie) {
        edan_elf_close(&t->elf);
        t->have_elf = false;
    }
    return t;
}

static edan_consumer consumer(void *t)
{
    return (edan_consumer){t, consume, finish, NULL};
}

static const edan_error *error(const void *t)
{
    return &((const classes_tool *)t)->err;
}

/* ===================================================================== */
/* Views                                                                  */
/* ===================================================================== */

/* A static load's class: the class of most of its accesses (ties: the less regular). */
static int insn_class(const lc_insn *s)
{
    if (s->store)
        return C_STORE;
    int best = C_IRREG;
    for (int c = C_STRIDED; c >= C_CONST; c--)
        if (s->n[c] > s->n[best])
            best = c;
    return best;
}

static uint64_t insn_accesses(const lc_insn *s)
{
    uint64_t a = 0;
    for (int c = 0; c < N_CLASSES; c++)
        a += s->n[c];
    return a;
}

/* Totals of function fn (ALL_FN: the whole run). */
static lc_totals totals(const classes_tool *t, uint32_t fn)
{
    lc_totals z;
    memset(&z, 0, sizeof z);
    for (size_t i = 0; i < t->n_insns; i++) {
        const lc_insn *s = &t->insns[i];
        if (fn != ALL_FN && s->fn != fn)
            continue;
        z.statics[insn_class(s)]++;
        for (int c = 0; c < N_CLASSES; c++)
            z.accesses[c] += s->n[c];
    }
    z.load_accesses = z.accesses[C_CONST] + z.accesses[C_STRIDED] + z.accesses[C_IRREG];
    for (size_t i = 0; i < edan_keymap_capacity(&t->map); i++) {
        uint32_t efn;
        const uint32_t *mask = edan_keymap_at(&t->map, i, NULL, &efn);
        if (!mask || efn != fn)
            continue;
        for (int c = 0; c < N_CLASSES; c++)
            z.blocks[c] += (*mask >> c) & 1;
        z.load_blocks += (*mask & 7) != 0;
    }
    return z;
}

typedef struct fn_row {
    uint32_t fn;
    lc_totals z;
} fn_row;

static int by_load_blocks(const void *a, const void *b)
{
    const fn_row *x = a, *y = b;
    if (x->z.load_blocks != y->z.load_blocks)
        return x->z.load_blocks < y->z.load_blocks ? 1 : -1;
    return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* Rows per function with loads, most load footprint first (NULL without symbols). */
static fn_row *function_rows(const classes_tool *t, size_t *n)
{
    *n = 0;
    if (!t->have_elf)
        return NULL;
    /* one pass over the slots and the instructions, per function */
    fn_row *rows = calloc(t->elf.n_funcs + 1, sizeof *rows);
    if (!rows)
        return NULL;
    for (size_t f = 0; f <= t->elf.n_funcs; f++)
        rows[f].fn = f < t->elf.n_funcs ? (uint32_t)f : UNKNOWN_FN;
    for (size_t i = 0; i < t->n_insns; i++) {
        const lc_insn *s = &t->insns[i];
        lc_totals *z = &rows[s->fn == UNKNOWN_FN ? t->elf.n_funcs : s->fn].z;
        z->statics[insn_class(s)]++;
        for (int c = 0; c < N_CLASSES; c++)
            z->accesses[c] += s->n[c];
        z->load_accesses += s->n[C_CONST] + s->n[C_STRIDED] + s->n[C_IRREG];
    }
    for (size_t i = 0; i < edan_keymap_capacity(&t->map); i++) {
        uint32_t fn;
        const uint32_t *mask = edan_keymap_at(&t->map, i, NULL, &fn);
        if (!mask || fn == ALL_FN)
            continue;
        lc_totals *z = &rows[fn == UNKNOWN_FN ? t->elf.n_funcs : fn].z;
        for (int c = 0; c < N_CLASSES; c++)
            z->blocks[c] += (*mask >> c) & 1;
        z->load_blocks += (*mask & 7) != 0;
    }
    for (size_t f = 0; f <= t->elf.n_funcs; f++)
        if (rows[f].z.load_accesses || rows[f].z.accesses[C_STORE])
            rows[(*n)++] = rows[f];
    qsort(rows, *n, sizeof *rows, by_load_blocks);
    return rows;
}

static const char *fn_name(const classes_tool *t, uint32_t fn)
{
    return fn == UNKNOWN_FN || fn == ALL_FN ? "(outside known functions)" : t->elf.funcs[fn].name;
}

static int by_accesses(const void *a, const void *b)
{
    const lc_insn *x = *(const lc_insn *const *)a, *y = *(const lc_insn *const *)b;
    const uint64_t ax = insn_accesses(x), ay = insn_accesses(y);
    if (ax != ay)
        return ax < ay ? 1 : -1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The static loads (not stores), most accesses first. */
static const lc_insn **load_rows(const classes_tool *t, size_t *n)
{
    const lc_insn **rows = malloc((t->n_insns + 1) * sizeof *rows);
    *n = 0;
    for (size_t i = 0; rows && i < t->n_insns; i++)
        if (!t->insns[i].store)
            rows[(*n)++] = &t->insns[i];
    if (rows)
        qsort(rows, *n, sizeof *rows, by_accesses);
    return rows;
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

static void report_text(const classes_tool *t, const edan_session *s, FILE *f)
{
    const lc_totals z = totals(t, ALL_FN);
    fprintf(f, "\nload classes (each access from the eDAG and its load's address sequence; 64-byte blocks)\n");
    fprintf(f, "  %-10s %12s %14s %7s %12s %12s %8s\n", "class", "static", "accesses", "%", "footprint", "dF (F/A)",
            "dF %");
    uint64_t fsum = z.blocks[C_CONST] + z.blocks[C_STRIDED] + z.blocks[C_IRREG];
    for (int c = 0; c < N_CLASSES; c++) {
        const uint64_t base = c == C_STORE ? z.accesses[C_STORE] : z.load_accesses;
        fprintf(f, "  %-10s %12" PRIu64 " %14" PRIu64 " %6.1f%% %12" PRIu64 " %12.4f %7.1f%%\n", class_name[c],
                z.statics[c], z.accesses[c], c == C_STORE ? 0.0 : 100.0 * ratio(z.accesses[c], base), z.blocks[c],
                ratio(z.blocks[c], base), c == C_STORE ? 0.0 : 100.0 * ratio(z.blocks[c], fsum));
    }
    fprintf(f, "  %-10s %12" PRIu64 " %14" PRIu64 " %7s %12" PRIu64 " %12.4f\n", "all loads",
            z.statics[C_CONST] + z.statics[C_STRIDED] + z.statics[C_IRREG], z.load_accesses, "", z.load_blocks,
            ratio(z.load_blocks, z.load_accesses));
    size_t n;
    fn_row *rows = function_rows(t, &n);
    if (rows && n) {
        fprintf(f, "  %-32s %12s %8s %10s %10s %10s %9s %9s\n", "function", "loads", "A_const%", "F", "F_str", "F_irr",
                "dF_str", "dF_irr");
        for (size_t i = 0; i < n && i < TEXT_ROWS; i++) {
            const lc_totals *y = &rows[i].z;
            fprintf(f, "  %-32.32s %12" PRIu64 " %7.1f%% %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %9.4f %9.4f\n",
                    fn_name(t, rows[i].fn), y->load_accesses, 100.0 * ratio(y->accesses[C_CONST], y->load_accesses),
                    y->load_blocks, y->blocks[C_STRIDED], y->blocks[C_IRREG],
                    ratio(y->blocks[C_STRIDED], y->load_accesses), ratio(y->blocks[C_IRREG], y->load_accesses));
        }
        if (n > TEXT_ROWS)
            fprintf(f, "  (%zu more functions; --json lists all)\n", n - TEXT_ROWS);
    }
    free(rows);
    const lc_insn **loads = load_rows(t, &n);
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    edan_srcmap *src = t->have_elf ? edan_srcmap_open(binary, &ignored) : NULL;
    if (loads && n) {
        fprintf(f, "  %-44s %-9s %7s %12s %7s %7s %7s\n", "load (pc, function, line)", "class", "stride", "accesses",
                "const%", "str%", "irr%");
        for (size_t i = 0; i < n && i < TEXT_ROWS; i++) {
            const lc_insn *l = loads[i];
            edan_srcloc loc = {NULL, NULL, 0};
            if (src)
                edan_srcmap_lookup(src, l->pc, &loc);
            const char *base = loc.file ? strrchr(loc.file, '/') : NULL;
            char name[160];
            snprintf(name, sizeof name, "%" PRIx64 " %s %s:%u", l->pc, t->have_elf ? fn_name(t, l->fn) : "?",
                     base       ? base + 1
                     : loc.file ? loc.file
                                : "?",
                     loc.line);
            const uint64_t a = insn_accesses(l);
            fprintf(f, "  %-44.44s %-9s %7" PRId64 " %12" PRIu64 " %6.1f%% %6.1f%% %6.1f%%\n", name,
                    class_name[insn_class(l)], insn_class(l) == C_STRIDED ? l->stride : 0, a,
                    100.0 * ratio(l->n[C_CONST], a), 100.0 * ratio(l->n[C_STRIDED], a),
                    100.0 * ratio(l->n[C_IRREG], a));
        }
        if (n > TEXT_ROWS)
            fprintf(f, "  (%zu more loads; --json lists the top %d)\n", n - TEXT_ROWS, JSON_ROWS);
    }
    edan_srcmap_close(src);
    free(loads);
}

static void json_totals(FILE *f, const lc_totals *z)
{
    fputs("{", f);
    for (int c = 0; c < N_CLASSES; c++)
        fprintf(f, "%s\"%s\":{\"static\":%" PRIu64 ",\"accesses\":%" PRIu64 ",\"blocks\":%" PRIu64 "}", c ? "," : "",
                class_name[c], z->statics[c], z->accesses[c], z->blocks[c]);
    fprintf(f, ",\"load_accesses\":%" PRIu64 ",\"load_blocks\":%" PRIu64 "}", z->load_accesses, z->load_blocks);
}

static void report_json(const classes_tool *t, const edan_session *s, FILE *f)
{
    const lc_totals z = totals(t, ALL_FN);
    fprintf(f, ",\"load_classes\":{\"block_bytes\":%u,\"all\":", 1u << BLOCK_SHIFT);
    json_totals(f, &z);
    fputs(",\"functions\":", f);
    size_t n;
    fn_row *rows = function_rows(t, &n);
    if (!t->have_elf) {
        fputs("null", f);
    } else {
        fputc('[', f);
        for (size_t i = 0; rows && i < n; i++) {
            fputs(i ? ",{\"name\":" : "{\"name\":", f);
            edan_json_str(f, fn_name(t, rows[i].fn));
            fputs(",\"classes\":", f);
            json_totals(f, &rows[i].z);
            fputc('}', f);
        }
        fputc(']', f);
    }
    free(rows);
    const lc_insn **loads = load_rows(t, &n);
    edan_error ignored = {0};
    edan_srcmap *src = t->have_elf ? edan_srcmap_open(edan_session_source(s)->binary, &ignored) : NULL;
    fputs(",\"loads\":[", f);
    for (size_t i = 0; loads && i < n && i < JSON_ROWS; i++) {
        const lc_insn *l = loads[i];
        edan_srcloc loc = {NULL, NULL, 0};
        if (src)
            edan_srcmap_lookup(src, l->pc, &loc);
        fprintf(f, "%s{\"pc\":%" PRIu64 ",\"function\":", i ? "," : "", l->pc);
        edan_json_str(f, t->have_elf ? fn_name(t, l->fn) : NULL);
        fputs(",\"file\":", f);
        edan_json_str(f, loc.file);
        fprintf(f,
                ",\"line\":%u,\"class\":\"%s\",\"stride\":%" PRId64 ",\"accesses\":%" PRIu64 ",\"constant\":%" PRIu64
                ",\"strided\":%" PRIu64 ",\"irregular\":%" PRIu64 ",\"dependent\":%" PRIu64 "}",
                loc.line, class_name[insn_class(l)], l->stride, insn_accesses(l), l->n[C_CONST], l->n[C_STRIDED],
                l->n[C_IRREG], l->dependent);
    }
    fputs("]}", f);
    edan_srcmap_close(src);
    free(loads);
}

static void report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    const classes_tool *t = tool;
    if (fmt == EDAN_FORMAT_JSON)
        report_json(t, s, f);
    else if (fmt == EDAN_FORMAT_TEXT)
        report_text(t, s, f);
}

/* --csv-dir: a row per static load, and per function. */
static int outputs(void *tool, const edan_session *s, edan_error *err)
{
    const classes_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    if (!o->csv_dir[0])
        return 0;
    char name[1100];
    edan_session_source_name(s, true, name, sizeof name);
    edan_csv c;
    size_t n;
    const lc_insn **loads = load_rows(t, &n);
    edan_error ignored = {0};
    edan_srcmap *src = t->have_elf ? edan_srcmap_open(edan_session_source(s)->binary, &ignored) : NULL;
    int rc = edan_csv_open(&c, o->csv_dir, name, "load-classes",
                           "pc,function,file,line,class,stride,accesses,constant,strided,irregular,dependent", err);
    for (size_t i = 0; !rc && loads && i < n; i++) {
        const lc_insn *l = loads[i];
        edan_srcloc loc = {NULL, NULL, 0};
        if (src)
            edan_srcmap_lookup(src, l->pc, &loc);
        edan_csv_u64(&c, l->pc);
        edan_csv_str(&c, t->have_elf ? fn_name(t, l->fn) : NULL);
        edan_csv_str(&c, loc.file);
        edan_csv_u64(&c, loc.line);
        edan_csv_str(&c, class_name[insn_class(l)]);
        edan_csv_num(&c, (double)l->stride);
        edan_csv_u64(&c, insn_accesses(l));
        for (int k = 0; k < C_STORE; k++)
            edan_csv_u64(&c, l->n[k]);
        edan_csv_u64(&c, l->dependent);
        edan_csv_end_row(&c);
    }
    if (!rc)
        rc = edan_csv_close(&c, err);
    edan_srcmap_close(src);
    free(loads);
    fn_row *rows = rc ? NULL : function_rows(t, &n);
    if (!rc && rows) {
        rc = edan_csv_open(&c, o->csv_dir, name, "classes-functions",
                           "function,loads,constant_accesses,strided_accesses,irregular_accesses,blocks,"
                           "constant_blocks,strided_blocks,irregular_blocks,stores,store_blocks",
                           err);
        for (size_t i = 0; !rc && i < n; i++) {
            const lc_totals *z = &rows[i].z;
            edan_csv_str(&c, fn_name(t, rows[i].fn));
            edan_csv_u64(&c, z->load_accesses);
            for (int k = 0; k < C_STORE; k++)
                edan_csv_u64(&c, z->accesses[k]);
            edan_csv_u64(&c, z->load_blocks);
            for (int k = 0; k < C_STORE; k++)
                edan_csv_u64(&c, z->blocks[k]);
            edan_csv_u64(&c, z->accesses[C_STORE]);
            edan_csv_u64(&c, z->blocks[C_STORE]);
            edan_csv_end_row(&c);
        }
        if (!rc)
            rc = edan_csv_close(&c, err);
    }
    free(rows);
    return rc;
}

static const edan_tool_option options[] = {
    {"classes", false,
     "  --classes           MemGaze's load classes (constant, strided, irregular) of every\n"
     "                      static load, from the eDAG and its address sequence, and the\n"
     "                      footprint and its growth by class, in all and per function\n",
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
    .report = report,
    .outputs = outputs,
    .destroy = destroy,
    .threaded = true,
    .reads_program = true,
};
