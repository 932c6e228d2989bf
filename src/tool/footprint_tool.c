/*
 * footprint_tool.c - the footprint tool (--footprint): the distinct bytes
 * and 64-byte lines the traced region loaded or stored, in all, per
 * function (the function whose code made the access, from the program's
 * symbols), per innermost loop (analysis/loops.h: the static instruction
 * that made the access is in the loop's range) and per loop nest (the
 * instruction is in the range of the loop or of a loop inside it), with the
 * accesses A that touched them and the growth dF = lines / A. Accesses that
 * performed none (a failed sc) touch nothing.
 *
 * State: the mask of the bytes of a line each static instruction touched,
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

#include "analysis/loops.h"
#include "report/csv.h"
#include "report/json.h"
#include "tool/session.h"
#include "tool/tool.h"
#include "util/blocktab.h"
#include "util/elf_symbols.h"
#include "util/grow.h"
#include "util/keymap.h"
#include "util/srcmap.h"

#define LINE 64u
#define ALL UINT32_MAX      /* the whole run's row */
#define UNKNOWN 0xfffffffeu /* an access from code outside every known function */
#define NO_LINE UINT64_MAX
#define TEXT_ROWS 16
#define TEXT_LOOPS 10

typedef struct fp_total {
    uint64_t bytes, lines, accesses;
} fp_total;

/* One static memory instruction. */
typedef struct fp_insn {
    uint64_t pc, accesses;
    uint64_t line, mask; /* its current line (NO_LINE: none) and the bytes it touched there, not yet stored */
    uint64_t entry;      /* where they go: the line's entry's index in `lines` (OTHER: a pair in `map`) */
    uint64_t ahead;      /* the line of its latest record looked up ahead (NO_LINE: none) */
    uint32_t fn;         /* function index, UNKNOWN without symbols or outside every function */
} fp_insn;
#define OTHER UINT64_MAX

/*
 * A line's entry: the first instruction that touched it (index + 1; 0: none
 * yet) and the bytes it touched; shared once another instruction touched it
 * too (whose pair is in the map).
 */
typedef struct fp_line {
    uint32_t insn1, shared;
    uint64_t mask;
} fp_line;
#define LINE_LEAF_BITS 5 /* 32 lines of 16 bytes: leaves of 512 bytes */
#define HINT_AHEAD 32    /* records between a hint and the access it is for */

typedef struct footprint_tool {
    edan_blocktab lines; /* line -> fp_line */
    edan_keymap map;     /* (line, instruction index) -> mask of the line's bytes touched, but the line's first's */
    uint32_t *id_insn;   /* instruction index of static instruction id, +1 (0: not seen yet) */
    size_t id_cap;
    fp_insn *insns;
    size_t n_insns, insns_cap;
    edan_elf elf;
    bool elf_open; /* the program's symbols were read (for the loops' tail-call test, as the reuse tool) */
    bool have_elf; /* and they are at the addresses traced (not a PIE): functions and source lines */
    edan_loops *loops;
    edan_error err;
} footprint_tool;

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

/* The instruction index of r's static instruction (ALL when out of memory). */
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
    if (!t->id_insn[r->id]) {
        if (t->n_insns == t->insns_cap) {
            const size_t cap = t->insns_cap ? 2 * t->insns_cap : 256;
            fp_insn *m = cap < UNKNOWN ? realloc(t->insns, cap * sizeof *m) : NULL;
            if (!m)
                return ALL;
            t->insns = m;
            t->insns_cap = cap;
        }
        fp_insn *in = &t->insns[t->n_insns];
        in->pc = r->insn->pc;
        in->accesses = 0;
        in->line = NO_LINE;
        in->mask = 0;
        in->entry = OTHER;
        in->ahead = NO_LINE;
        in->fn = UNKNOWN;
        if (t->have_elf) {
            const edan_elf_func *f = edan_elf_func_at(&t->elf, in->pc);
            in->fn = f ? (uint32_t)(f - t->elf.funcs) : UNKNOWN;
        }
        t->id_insn[r->id] = (uint32_t)++t->n_insns;
    }
    return t->id_insn[r->id] - 1;
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
        const uint32_t index = r->id < t->id_cap && t->id_insn[r->id] ? t->id_insn[r->id] - 1 : insn_of(t, r);
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
    t->have_elf = t->elf_open && !t->elf.is_pie;
    if (!(t->loops = edan_loops_new(t->elf_open ? &t->elf : NULL))) {
        edan_error_set(err, "out of memory");
        destroy(t);
        return NULL;
    }
    return t;
}

static edan_consumer consumer(void *t)
{
    return (edan_consumer){t, consume, finish, NULL};
}

static const edan_error *error(const void *t)
{
    return &((const footprint_tool *)t)->err;
}

/* ===================================================================== */
/* Views                                                                  */
/* ===================================================================== */

typedef struct fp_row {
    uint32_t key; /* function index (UNKNOWN), or loop id */
    fp_total v;
} fp_row;

static int by_bytes(const void *a, const void *b)
{
    const fp_row *x = a, *y = b;
    if (x->v.bytes != y->v.bytes)
        return x->v.bytes < y->v.bytes ? 1 : -1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static int by_lines(const void *a, const void *b)
{
    const fp_row *x = a, *y = b;
    if (x->v.lines != y->v.lines)
        return x->v.lines < y->v.lines ? 1 : -1;
    if (x->v.accesses != y->v.accesses)
        return x->v.accesses < y->v.accesses ? 1 : -1;
    return x->key < y->key ? -1 : x->key > y->key;
}

enum { BY_RUN, BY_FUNCTION, BY_LOOP, BY_NEST };

/*
 * The rows each instruction counts in: instruction i's are
 * group[at[i] .. at[i + 1]), among n rows (functions: the last one is
 * UNKNOWN's; innermost loops and loop nests: by loop id). An instruction is
 * in one row or none (outside every loop), but in every nest whose range
 * holds it. False when out of memory.
 */
typedef struct fp_groups {
    uint32_t *at, *group;
} fp_groups;

static bool groups_of(const footprint_tool *t, int by, size_t n, fp_groups *g)
{
    const uint32_t loops = edan_loops_count(t->loops);
    const size_t per = by == BY_NEST ? (size_t)loops : 1;
    g->at = malloc((t->n_insns + 1) * sizeof *g->at);
    g->group = malloc((t->n_insns * per + 1) * sizeof *g->group);
    if (!g->at || !g->group)
        return false;
    uint32_t k = 0;
    for (size_t i = 0; i < t->n_insns; i++) {
        const fp_insn *in = &t->insns[i];
        g->at[i] = k;
        if (by == BY_NEST) {
            k += (uint32_t)edan_loops_holding(t->loops, in->pc, &g->group[k], loops);
        } else if (by == BY_LOOP) {
            const int32_t id = edan_loops_innermost(t->loops, in->pc);
            if (id >= 0)
                g->group[k++] = (uint32_t)id;
        } else {
            g->group[k++] = by == BY_RUN ? 0 : in->fn == UNKNOWN ? (uint32_t)n - 1 : in->fn;
        }
    }
    g->at[t->n_insns] = k;
    return true;
}

/* Pair (line, instruction index) with the bytes mask into its groups' entries of fold; false when out of memory. */
static bool fold_pair(edan_keymap *fold, const fp_groups *g, uint64_t line, uint32_t index, uint64_t mask)
{
    for (uint32_t k = g->at[index]; k < g->at[index + 1]; k++) {
        uint64_t *m = edan_keymap_get(fold, line, g->group[k], NULL);
        if (!m)
            return false;
        *m |= mask;
    }
    return true;
}

/*
 * Rows of the instructions' groups (the whole run, functions, innermost loops or loop nests): the union of
 * their instructions' lines, folded into (line, group) entries of a second table; only the groups with
 * accesses, sorted. NULL when out of memory.
 */
static fp_row *group_rows(const footprint_tool *t, int by, size_t *n_rows)
{
    *n_rows = 0;
    const bool loops = by == BY_LOOP || by == BY_NEST;
    const size_t n = loops ? edan_loops_count(t->loops) : by == BY_RUN ? 1 : (t->have_elf ? t->elf.n_funcs : 0) + 1;
    fp_row *r = calloc(n + 1, sizeof *r);
    fp_groups g = {NULL, NULL};
    edan_keymap fold;
    if (!r || !groups_of(t, by, n, &g) || edan_keymap_init(&fold, sizeof(uint64_t))) {
        free(r);
        free(g.at);
        free(g.group);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        r[i].key = by == BY_RUN ? ALL : loops || i + 1 < n ? (uint32_t)i : UNKNOWN;
    bool ok = true;
    for (size_t i = 0; i < t->n_insns; i++)
        for (uint32_t k = g.at[i]; k < g.at[i + 1]; k++)
            r[g.group[k]].v.accesses += t->insns[i].accesses;
    /*
     * The (line, instruction) pairs. A line that only its first instruction
     * touched is in no other pair: it counts in that instruction's row at
     * once. The pairs of the other lines, the first instruction's and the
     * map's, are folded into (line, row) entries first.
     */
    for (size_t l = 0; ok && l < edan_blocktab_leaves(&t->lines); l++) {
        uint64_t first;
        const fp_line *leaf = edan_blocktab_leaf(&t->lines, l, &first);
        for (size_t k = 0; ok && k < (1u << LINE_LEAF_BITS); k++) {
            const fp_line *e = &leaf[k];
            if (e->shared) {
                ok = fold_pair(&fold, &g, first + k, e->insn1 - 1, e->mask);
            } else if (e->insn1) {
                for (uint32_t j = g.at[e->insn1 - 1]; j < g.at[e->insn1]; j++) {
                    r[g.group[j]].v.bytes += (uint64_t)__builtin_popcountll(e->mask);
                    r[g.group[j]].v.lines++;
                }
            }
        }
    }
    for (size_t i = 0; ok && i < edan_keymap_capacity(&t->map); i++) {
        uint64_t line;
        uint32_t index;
        const uint64_t *mask = edan_keymap_at(&t->map, i, &line, &index);
        if (mask)
            ok = fold_pair(&fold, &g, line, index, *mask);
    }
    free(g.at);
    free(g.group);
    for (size_t i = 0; ok && i < edan_keymap_capacity(&fold); i++) {
        uint32_t g;
        const uint64_t *mask = edan_keymap_at(&fold, i, NULL, &g);
        if (mask) {
            r[g].v.bytes += (uint64_t)__builtin_popcountll(*mask);
            r[g].v.lines++;
        }
    }
    edan_keymap_free(&fold);
    if (!ok) {
        free(r);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (r[i].v.accesses)
            r[(*n_rows)++] = r[i];
    qsort(r, *n_rows, sizeof *r, loops ? by_lines : by_bytes);
    return r;
}

/* The whole run's totals (zeros when out of memory). */
static fp_total totals(const footprint_tool *t)
{
    size_t n;
    fp_row *r = group_rows(t, BY_RUN, &n);
    const fp_total all = r && n ? r[0].v : (fp_total){0, 0, 0};
    free(r);
    return all;
}

static const char *fn_name(const footprint_tool *t, uint32_t fn)
{
    return fn == UNKNOWN ? "(outside known functions)" : t->elf.funcs[fn].name;
}

static double growth(const fp_total *v)
{
    return v->accesses ? (double)v->lines / (double)v->accesses : 0.0;
}

/* A loop row's place: where its head is (function, file and line; NULL and 0 when unknown). */
typedef struct fp_place {
    const edan_loop *loop;
    edan_loop_place at;
} fp_place;

static fp_place place_of(const footprint_tool *t, uint32_t id, edan_srcmap *src)
{
    return (fp_place){edan_loops_get(t->loops, id), edan_loops_place(t->loops, id, t->elf_open ? &t->elf : NULL, src)};
}

static edan_srcmap *open_src(const footprint_tool *t, const edan_session *s)
{
    edan_error ignored = {0};
    return t->have_elf ? edan_srcmap_open(edan_session_source(s)->binary, &ignored) : NULL;
}

/* The innermost loops' rows, or (nests) those of the loop nests with loops inside them. */
static void loops_text(const footprint_tool *t, const edan_session *s, bool nests, FILE *f)
{
    size_t n;
    fp_row *rows = group_rows(t, nests ? BY_NEST : BY_LOOP, &n);
    edan_srcmap *src = rows && n ? open_src(t, s) : NULL;
    size_t shown = 0, more = 0;
    for (size_t i = 0; rows && i < n; i++) {
        const uint32_t inside = edan_loops_inside(t->loops, rows[i].key);
        if (nests && inside < 2)
            continue;
        if (shown == TEXT_LOOPS) {
            more++;
            continue;
        }
        if (!shown++)
            fprintf(f, "  %-40s %14s %12s %12s %10s\n",
                    nests ? "loop nest (head's line, function, loops)" : "loop (head's line, function, depth)", "bytes",
                    "lines", "accesses", "dF (F/A)");
        const fp_place p = place_of(t, rows[i].key, src);
        const char *base = p.at.file ? strrchr(p.at.file, '/') : NULL;
        char name[160];
        snprintf(name, sizeof name, "%s:%u %s (%u)",
                 base        ? base + 1
                 : p.at.file ? p.at.file
                             : "?",
                 p.at.line, p.at.function ? p.at.function : "?", nests ? inside : p.loop->depth);
        fprintf(f, "  %-40.40s %14" PRIu64 " %12" PRIu64 " %12" PRIu64 " %10.4f\n", name, rows[i].v.bytes,
                rows[i].v.lines, rows[i].v.accesses, growth(&rows[i].v));
    }
    if (more)
        fprintf(f, "  (%zu more %s; --json lists all)\n", more, nests ? "loop nests" : "loops");
    edan_srcmap_close(src);
    free(rows);
}

/* The innermost loops' rows, or (nests) every loop nest's. */
static void json_loops(const footprint_tool *t, const edan_session *s, bool nests, FILE *f)
{
    size_t n;
    fp_row *rows = group_rows(t, nests ? BY_NEST : BY_LOOP, &n);
    edan_srcmap *src = open_src(t, s);
    fputc('[', f);
    for (size_t i = 0; rows && i < n; i++) {
        const fp_place p = place_of(t, rows[i].key, src);
        fprintf(f, "%s{\"head\":%" PRIu64 ",\"end\":%" PRIu64 ",\"depth\":%u,\"iterations\":%" PRIu64 ",\"function\":",
                i ? "," : "", p.loop->head, p.loop->end, p.loop->depth, p.loop->back_edges);
        edan_json_str(f, p.at.function);
        fputs(",\"file\":", f);
        edan_json_str(f, p.at.file);
        fprintf(f, ",\"line\":%u,", p.at.line);
        if (nests)
            fprintf(f, "\"loops\":%u,", edan_loops_inside(t->loops, rows[i].key));
        fprintf(f, "\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"accesses\":%" PRIu64 ",\"growth\":", rows[i].v.bytes,
                rows[i].v.lines, rows[i].v.accesses);
        edan_json_num(f, growth(&rows[i].v));
        fputc('}', f);
    }
    fputc(']', f);
    edan_srcmap_close(src);
    free(rows);
}

static void report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    const footprint_tool *t = tool;
    if (fmt == EDAN_FORMAT_TABLE)
        return;
    size_t n = 0;
    fp_row *rows = t->have_elf ? group_rows(t, BY_FUNCTION, &n) : NULL;
    const fp_total all = totals(t);
    if (fmt == EDAN_FORMAT_TEXT) {
        fprintf(f, "\nfootprint (distinct bytes and %u-byte lines loaded or stored)\n", LINE);
        fprintf(f, "  %-32s %14s %12s\n", "", "bytes", "lines");
        fprintf(f, "  %-32s %14" PRIu64 " %12" PRIu64 "\n", "all", all.bytes, all.lines);
        for (size_t i = 0; rows && i < n && i < TEXT_ROWS; i++)
            fprintf(f, "  %-32.32s %14" PRIu64 " %12" PRIu64 "\n", fn_name(t, rows[i].key), rows[i].v.bytes,
                    rows[i].v.lines);
        if (rows && n > TEXT_ROWS)
            fprintf(f, "  (%zu more functions; --json lists all)\n", n - TEXT_ROWS);
        loops_text(t, s, false, f);
        loops_text(t, s, true, f);
    } else {
        fprintf(f,
                ",\"footprint\":{\"line_bytes\":%u,\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"accesses\":%" PRIu64
                ",\"growth\":",
                LINE, all.bytes, all.lines, all.accesses);
        edan_json_num(f, growth(&all));
        fputs(",\"functions\":", f);
        if (!t->have_elf) {
            fputs("null", f);
        } else {
            fputc('[', f);
            for (size_t i = 0; rows && i < n; i++) {
                fprintf(f, "%s{\"name\":", i ? "," : "");
                edan_json_str(f, fn_name(t, rows[i].key));
                fprintf(f, ",\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"accesses\":%" PRIu64 ",\"growth\":",
                        rows[i].v.bytes, rows[i].v.lines, rows[i].v.accesses);
                edan_json_num(f, growth(&rows[i].v));
                fputc('}', f);
            }
            fputc(']', f);
        }
        fputs(",\"loops\":", f);
        json_loops(t, s, false, f);
        fputs(",\"loop_nests\":", f);
        json_loops(t, s, true, f);
        fputc('}', f);
    }
    free(rows);
}

/* footprint-loops: a row per innermost loop; footprint-nests: a row per loop nest. */
static int loops_csv(const footprint_tool *t, const edan_session *s, const char *dir, const char *name, bool nests,
                     edan_error *err)
{
    size_t n;
    fp_row *rows = group_rows(t, nests ? BY_NEST : BY_LOOP, &n);
    if (!rows)
        return 0;
    edan_srcmap *src = open_src(t, s);
    edan_csv c;
    int rc = edan_csv_open(&c, dir, name, nests ? "footprint-nests" : "footprint-loops",
                           nests ? "head,end,depth,iterations,function,file,line,loops,bytes,lines,accesses,growth"
                                 : "head,end,depth,iterations,function,file,line,bytes,lines,accesses,growth",
                           err);
    for (size_t i = 0; !rc && i < n; i++) {
        const fp_place p = place_of(t, rows[i].key, src);
        edan_csv_u64(&c, p.loop->head);
        edan_csv_u64(&c, p.loop->end);
        edan_csv_u64(&c, p.loop->depth);
        edan_csv_u64(&c, p.loop->back_edges);
        edan_csv_str(&c, p.at.function);
        edan_csv_str(&c, p.at.file);
        edan_csv_u64(&c, p.at.line);
        if (nests)
            edan_csv_u64(&c, edan_loops_inside(t->loops, rows[i].key));
        edan_csv_u64(&c, rows[i].v.bytes);
        edan_csv_u64(&c, rows[i].v.lines);
        edan_csv_u64(&c, rows[i].v.accesses);
        edan_csv_num(&c, growth(&rows[i].v));
        edan_csv_end_row(&c);
    }
    if (!rc)
        rc = edan_csv_close(&c, err);
    edan_srcmap_close(src);
    free(rows);
    return rc;
}

/* --csv-dir: footprint-functions (the whole run first, as "(all)"), footprint-loops and footprint-nests. */
static int outputs(void *tool, const edan_session *s, edan_error *err)
{
    const footprint_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    if (!o->csv_dir[0])
        return 0;
    char name[1100];
    edan_session_source_name(s, true, name, sizeof name);
    edan_csv c;
    size_t n = 0;
    fp_row *rows = t->have_elf ? group_rows(t, BY_FUNCTION, &n) : NULL;
    const fp_total all = totals(t);
    int rc = edan_csv_open(&c, o->csv_dir, name, "footprint-functions", "function,bytes,lines,accesses,growth", err);
    for (size_t i = 0; !rc && i <= n; i++) {
        const fp_total *v = i ? &rows[i - 1].v : &all;
        edan_csv_str(&c, i ? fn_name(t, rows[i - 1].key) : "(all)");
        edan_csv_u64(&c, v->bytes);
        edan_csv_u64(&c, v->lines);
        edan_csv_u64(&c, v->accesses);
        edan_csv_num(&c, growth(v));
        edan_csv_end_row(&c);
    }
    if (!rc)
        rc = edan_csv_close(&c, err);
    free(rows);
    for (int nests = 0; !rc && nests < 2; nests++)
        rc = loops_csv(t, s, o->csv_dir, name, nests, err);
    return rc;
}

static const edan_tool_option options[] = {
    {"footprint", false,
     "  --footprint         distinct bytes and 64-byte lines loaded or stored, in all, per\n"
     "                      function (the function whose code accessed them), per\n"
     "                      innermost loop and per loop nest (a loop with the loops inside\n"
     "                      it), with the accesses A and the growth lines / A\n",
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
    .report = report,
    .outputs = outputs,
    .destroy = destroy,
    .reads_program = true,
};
