/*
 * nests_test.c - rows of loop nests (a loop with the loops inside it:
 * every instruction in the loop's range [head, end]) and the load-classes
 * tool's footprint over windows per function and per loop nest, against
 * naive references.
 *
 * Part 1, on random programs with nested loops (tests/random_loops.h): for
 * every loop, the footprint tool's nest row (distinct bytes, lines,
 * accesses), the load-classes tool's (loads, stores and their distinct
 * blocks) and the reuse tool's (accesses to blocks, cold ones, misses of
 * fully associative LRU caches of 2, 8 and 32 blocks, from a brute-force
 * LRU list) equal a naive count over the records whose pc is in the loop's
 * range (the finder run over the whole stream first); the rows are exactly
 * the nests with accesses, each with the number of loops in it.
 *
 * Part 2, on random programs whose every load has a class known by
 * construction (strided, constant-address and frame loads, pointer chases,
 * and stores), laid out in three functions of a real RISC-V program
 * (argv[1]; its symbols name the rows) and run in random order: the
 * footprint over windows of 2^k loads, of all loads and of each class, of
 * the whole run, of each function and of each loop nest equals a naive
 * count of distinct (window, block) pairs over the row's own loads (one per
 * block an access touches), a nest's loads being those made while the loop
 * was known to hold their pc (a second loop finder told every record
 * before its access), and the class of an access the one its construction
 * gives.
 *
 * Usage: nests_test PROGRAM [programs]
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/loops/loops.h"
#include "check.h"
#include "isa/riscv.h"
#include "random_loops.h"
#include "random_trace.h"
#include "session_report.h"
#include "tool/session.h"
#include "util/symbols/symbols.h"

#define MAXREC 6000

/* The session's JSON report of recs with the given options set (NULL-terminated pairs), in batches of `batch`. */
static char *report(const edan_exec *recs, size_t n, size_t batch, const char *binary, const char *const *opts)
{
    edan_options o;
    edan_options_default(&o);
    edan_error err = {0};
    CHECK(edan_session_option_set(&o, "json", NULL, &err) == 0, "json");
    for (const char *const *p = opts; *p; p += 2)
        CHECK(edan_session_option_set(&o, p[0], p[1], &err) == 0, "%s: %s", p[0], err.msg);
    char *buf = test_session_report(&o, NULL, binary, recs, n, batch, false);
    return buf ? buf : strdup("");
}

/* ===================================================================== */
/* Part 1: nest rows of the footprint, load-classes and reuse tools       */
/* ===================================================================== */

#define SIZES 3
static const uint64_t size_blocks[SIZES] = {2, 8, 32};

typedef struct nest_want {
    uint64_t head, end, inside;
    uint64_t bytes, lines, accesses;                   /* the footprint tool's */
    uint64_t loads, stores, load_blocks, store_blocks; /* the load-classes tool's */
    uint64_t block_accesses, cold, misses[SIZES];      /* the reuse tool's */
} nest_want;

/* The rows of section `key` ("loop_nests") of a tool's object at `tool` in json, checked against want. */
static void check_nest_rows(const char *json, const char *tool, const nest_want *want, uint32_t n_loops, int t)
{
    const char *obj = strstr(json, tool);
    const char *p = obj ? strstr(obj, "\"loop_nests\":[") : NULL;
    CHECK(p != NULL, "program %d: %s has no loop_nests", t, tool);
    if (!p)
        return;
    const bool classes = !strcmp(tool, "\"load_classes\":"), reuse = !strcmp(tool, "\"reuse\":");
    /* the array ends at the first "]" that closes it: rows hold only objects and (reuse) number arrays */
    int depth = 0;
    const char *end = p + strlen("\"loop_nests\":");
    for (; *end; end++) {
        depth += (*end == '[' || *end == '{') - (*end == ']' || *end == '}');
        if (!depth)
            break;
    }
    uint32_t rows = 0, with_accesses = 0;
    for (uint32_t id = 0; id < n_loops; id++)
        with_accesses += classes ? want[id].loads + want[id].stores > 0 : want[id].accesses > 0;
    while ((p = strstr(p, "{\"head\":")) && p < end) {
        const uint64_t head = (uint64_t)atoll(p + 8);
        uint32_t id = 0;
        while (id < n_loops && want[id].head != head)
            id++;
        CHECK(id < n_loops, "program %d: %s: no loop at %llx", t, tool, (unsigned long long)head);
        if (id < n_loops) {
            const nest_want *w = &want[id];
            char ctx[96];
            snprintf(ctx, sizeof ctx, "program %d, %s nest %llx", t, tool, (unsigned long long)head);
            CHECK_EQ_U64(test_json_num(p, "{", "end"), w->end, ctx);
            CHECK_EQ_U64(test_json_num(p, "{", "loops"), w->inside, ctx);
            if (classes) {
                const char *c = strstr(p, "\"classes\":");
                CHECK_EQ_U64(test_json_num(c, "{", "load_accesses"), w->loads, ctx);
                CHECK_EQ_U64(test_json_num(c, "{", "load_blocks"), w->load_blocks, ctx);
                CHECK_EQ_U64(test_json_num(c, "\"store\":{", "accesses"), w->stores, ctx);
                CHECK_EQ_U64(test_json_num(c, "\"store\":{", "blocks"), w->store_blocks, ctx);
            } else if (reuse) {
                test_check_reuse_row(p, w->block_accesses, w->cold, w->misses, SIZES, ctx);
            } else {
                test_check_footprint_row(p, w->bytes, w->lines, w->accesses, ctx);
            }
        }
        rows++;
        p++;
    }
    CHECK(rows == with_accesses, "program %d: %s: %u nest rows, %u nests with accesses", t, tool, rows, with_accesses);
}

/* Stack distances of the data stream's block accesses (one per 64-byte block an access touches), brute force. */
static void naive_lru(const edan_exec *recs, size_t n, uint64_t *dist, size_t *n_dist)
{
    static uint64_t stack[16 * MAXREC];
    size_t depth = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!test_accesses_memory(&recs[i]))
            continue;
        const uint64_t lo = recs[i].addr >> 6, hi = (recs[i].addr + recs[i].insn->mem_size - 1) >> 6;
        for (uint64_t b = lo;; b++) {
            size_t d = 0;
            while (d < depth && stack[d] != b)
                d++;
            dist[k++] = d < depth ? d : UINT64_MAX;
            memmove(&stack[1], &stack[0], (d < depth ? d : depth) * sizeof *stack);
            stack[0] = b;
            depth += d == depth;
            if (b == hi)
                break;
        }
    }
    *n_dist = k;
}

static void test_nest_rows(int programs)
{
    static rl_program prog;
    static edan_exec recs[MAXREC];
    static nest_want want[RL_MAX_CODE];
    static uint64_t bytes[8 * MAXREC], lblocks[2 * MAXREC], sblocks[2 * MAXREC], dist[2 * MAXREC];
    static const char *const opts[] = {"footprint", NULL,          "classes",    NULL, "reuse",
                                       NULL,        "reuse-sizes", "128,512,2K", NULL};
    for (int t = 0; t < programs; t++) {
        rt_seed((uint64_t)t + 777);
        const size_t n = rl_random_run(&prog, recs, MAXREC);
        edan_loops *l = edan_loops_new(NULL);
        edan_loops_observe(l, recs, n);
        edan_loops_index(l);
        const uint32_t n_loops = edan_loops_count(l);
        size_t n_dist;
        naive_lru(recs, n, dist, &n_dist);
        for (uint32_t id = 0; id < n_loops && id < RL_MAX_CODE; id++) {
            nest_want *w = &want[id];
            memset(w, 0, sizeof *w);
            w->head = edan_loops_get(l, id)->head;
            w->end = edan_loops_get(l, id)->end;
            for (uint32_t o = 0; o < n_loops; o++)
                w->inside += w->head <= edan_loops_get(l, o)->head && edan_loops_get(l, o)->end <= w->end;
            size_t nb = 0, nl = 0, ns = 0, k = 0;
            for (size_t i = 0; i < n; i++) {
                const edan_exec *r = &recs[i];
                if (!test_accesses_memory(r))
                    continue;
                const bool in = w->head <= r->insn->pc && r->insn->pc <= w->end;
                const uint64_t lo = r->addr >> 6, hi = (r->addr + r->insn->mem_size - 1) >> 6;
                for (uint64_t b = lo;; b++, k++) { /* the reuse tool's accesses, one per block */
                    if (in) {
                        w->block_accesses++;
                        w->cold += dist[k] == UINT64_MAX;
                        for (int s = 0; s < SIZES; s++)
                            w->misses[s] += dist[k] >= size_blocks[s];
                    }
                    if (b == hi)
                        break;
                }
                k++;
                if (!in)
                    continue;
                w->accesses++;
                for (unsigned j = 0; j < r->insn->mem_size; j++)
                    bytes[nb++] = r->addr + j;
                const bool store = r->insn->mem == EDAN_MEM_STORE;
                w->stores += store;
                w->loads += !store;
                for (uint64_t b = lo; b <= hi; b++) {
                    if (store)
                        sblocks[ns++] = b;
                    else
                        lblocks[nl++] = b;
                }
            }
            CHECK(k == n_dist, "program %d: block accesses", t);
            w->bytes = test_distinct_u64(bytes, nb);
            for (size_t i = 0; i < nb; i++)
                bytes[i] >>= 6;
            w->lines = test_distinct_u64(bytes, nb);
            w->load_blocks = test_distinct_u64(lblocks, nl);
            w->store_blocks = test_distinct_u64(sblocks, ns);
        }
        char *j = report(recs, n, 1 + (size_t)t % 40, NULL, opts);
        check_nest_rows(j, "\"footprint\":", want, n_loops, t);
        check_nest_rows(j, "\"load_classes\":", want, n_loops, t);
        if (n_loops <= 100) /* the reuse tool lists the 100 nests with most misses */
            check_nest_rows(j, "\"reuse\":", want, n_loops, t);
        free(j);
        edan_loops_free(l);
    }
}

/* ===================================================================== */
/* Part 2: the footprint over windows by class, per function and nest     */
/* ===================================================================== */

enum { T_OTHER, T_STRIDED, T_CONST, T_CHASE, T_FRAME, T_STORE };
enum { C_CONST, C_STRIDED, C_IRREG, C_STORE };
#define FUNCS 3
#define SEG 300  /* instructions of a function's part of the program, at most */
#define CHASES 8 /* pointer chases, each with a register of its own (a0..a7) */

typedef struct part {
    const edan_elf_func *fn;
    edan_insn code[SEG];
    int tmpl[SEG];
    uint64_t next[SEG]; /* the next address */
    int64_t stride[SEG];
    int n;
} part;

typedef struct gen {
    part parts[FUNCS];
    int chases;
    edan_exec *recs;
    size_t n, cap;
} gen;

static void emit_text(part *p, const char *text, int tmpl)
{
    char err[128];
    const uint64_t pc = p->fn->start + 4 * (uint64_t)p->n;
    if (edan_rv_parse(text, pc, &p->code[p->n], err, sizeof err)) {
        fprintf(stderr, "nests_test: parse '%s': %s\n", text, err);
        abort();
    }
    p->code[p->n].pc = pc;
    p->tmpl[p->n++] = tmpl;
}

/* A memory instruction of a random template (a pointer chase while registers last). */
static void emit_memory(gen *g, part *p)
{
    static const char *const width[] = {"ld", "lw", "lb"};
    int tmpl = T_STRIDED + (int)rt_below(5);
    if (tmpl == T_CHASE && g->chases == CHASES)
        tmpl = T_STRIDED;
    char text[64];
    const int i = p->n;
    const char *w = width[rt_below(3)];
    p->stride[i] = 0;
    switch (tmpl) {
    case T_STRIDED: /* a base register no instruction writes (s2..s11) */
        snprintf(text, sizeof text, "%s t1,0(s%d)", w, 2 + (int)rt_below(10));
        p->next[i] = 0x400000 + rt_below(1u << 16);
        p->stride[i] = (int64_t)(1 + rt_below(80)) * (rt_below(4) ? 1 : -1);
        break;
    case T_CONST:
        snprintf(text, sizeof text, "%s t2,8(s%d)", w, 2 + (int)rt_below(10));
        p->next[i] = 0x500000 + rt_below(1u << 12);
        break;
    case T_CHASE: /* ld a_k, 0(a_k): each address comes from the load before */
        snprintf(text, sizeof text, "ld a%d,0(a%d)", g->chases, g->chases);
        g->chases++;
        p->next[i] = 0x600000 + rt_below(1u << 14);
        break;
    case T_FRAME:
        snprintf(text, sizeof text, "%s t4,%d(sp)", w, 8 * (int)rt_below(16));
        p->next[i] = 0x7fff0000 + 8 * rt_below(64);
        break;
    default:
        snprintf(text, sizeof text, "sd t5,0(s%d)", 2 + (int)rt_below(10));
        p->next[i] = 0x700000 + rt_below(1u << 12);
        p->stride[i] = (int64_t)rt_below(3) * 8;
        break;
    }
    emit_text(p, text, tmpl);
}

typedef struct node {
    bool loop;
    int trip, first, count, head, branch, n_kids;
    int skip;  /* a loop's second back edge, after its first kid (a `continue`; -1: none) */
    bool late; /* a kid that runs from its loop's second iteration on (its loads start inside a known loop) */
    struct node *kids[3];
} node;

static node *layout(gen *g, part *p, int depth)
{
    node *x = calloc(1, sizeof *x);
    x->loop = depth < 3 && p->n < SEG - 60 && rt_below(3) != 0;
    x->trip = 2 + (int)rt_below(depth ? 3 : 5);
    if (!x->loop) {
        x->first = p->n;
        const int count = 1 + (int)rt_below(4);
        for (int k = 0; k < count && p->n < SEG - 2; k++) {
            if (rt_below(4))
                emit_memory(g, p);
            else
                emit_text(p, "addi t6,t6,1", T_OTHER);
        }
        x->count = p->n - x->first;
        return x;
    }
    x->head = p->n;
    emit_text(p, "addi t0,t0,1", T_OTHER);
    x->n_kids = 1 + (int)rt_below(3);
    x->skip = -1;
    char text[48];
    for (int k = 0; k < x->n_kids; k++) {
        x->kids[k] = layout(g, p, depth + 1);
        x->kids[k]->late = k > 0 && rt_below(3) == 0;
        if (k == 0 && x->n_kids > 1 && rt_below(2)) { /* the loop's end moves up when the last branch is first taken */
            x->skip = p->n;
            snprintf(text, sizeof text, "bne t0,t4,%d", -4 * (x->skip - x->head));
            emit_text(p, text, T_OTHER);
        }
    }
    x->branch = p->n;
    snprintf(text, sizeof text, "bne t0,t3,%d", -4 * (x->branch - x->head));
    emit_text(p, text, T_OTHER);
    return x;
}

static void rec(gen *g, part *p, int i)
{
    if (g->n == g->cap)
        return;
    edan_exec *r = &g->recs[g->n++];
    memset(r, 0, sizeof *r);
    r->insn = &p->code[i];
    r->id = (uint32_t)((p - g->parts) * SEG + i);
    if (p->tmpl[i] == T_OTHER)
        return;
    r->addr = p->next[i];
    if (p->tmpl[i] == T_CHASE) { /* a new address each time: the chase never stands still */
        uint64_t a;
        do
            a = 0x600000 + rt_below(1u << 14);
        while (a == r->addr);
        p->next[i] = a;
    } else {
        p->next[i] += (uint64_t)p->stride[i];
    }
}

static void run(gen *g, part *p, const node *x)
{
    if (!x->loop) {
        for (int k = 0; k < x->count; k++)
            rec(g, p, x->first + k);
        return;
    }
    for (int it = 0; it < x->trip; it++) {
        rec(g, p, x->head);
        bool skipped = false; /* the second back edge taken: the next iteration starts */
        for (int k = 0; k < x->n_kids && !skipped; k++) {
            if (!x->kids[k]->late || it > 0)
                run(g, p, x->kids[k]);
            if (k == 0 && x->skip >= 0) {
                rec(g, p, x->skip);
                skipped = it + 1 < x->trip && rt_below(2);
            }
        }
        if (!skipped)
            rec(g, p, x->branch); /* taken but on the last trip */
    }
}

static void free_node(node *x)
{
    for (int k = 0; k < x->n_kids; k++)
        free_node(x->kids[k]);
    free(x);
}

/* A row's loads: (block, class) in trace order. */
typedef struct row_stream {
    uint64_t *block;
    int *cls;
    size_t n, cap;
} row_stream;

static void row_add(row_stream *s, uint64_t b, int cls)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->block = realloc(s->block, s->cap * sizeof *s->block);
        s->cls = realloc(s->cls, s->cap * sizeof *s->cls);
    }
    s->block[s->n] = b;
    s->cls[s->n++] = cls;
}

/* F(W) of the row's loads of class c (c < 0: all) at windows of 2^k: distinct (window, block) pairs / windows. */
static double naive_f(const row_stream *s, unsigned k, int c)
{
    uint64_t *key = malloc((s->n + 1) * sizeof *key);
    size_t m = 0;
    for (size_t i = 0; i < s->n; i++)
        if (c < 0 || s->cls[i] == c)
            key[m++] = ((uint64_t)(i >> k) << 32) ^ s->block[i]; /* blocks stay below 2^32 here */
    const uint64_t pairs = test_distinct_u64(key, m);
    free(key);
    return (double)pairs / (double)((s->n + (1ull << k) - 1) >> k);
}

/* The numbers of array `key` in the windows object at fw; their count. */
static size_t read_array(const char *fw, const char *key, double *out, size_t cap)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":[", key);
    const char *p = fw ? strstr(fw, pat) : NULL;
    size_t n = 0;
    if (!p)
        return 0;
    p += strlen(pat);
    while (*p && *p != ']' && n < cap) {
        char *e;
        out[n++] = strtod(p, &e);
        p = *e == ',' ? e + 1 : e;
    }
    return n;
}

/* The row's windows in the report (the object at fw) against its naive stream. */
static void check_windows(const char *fw, const row_stream *s, const char *what, int t)
{
    CHECK(fw != NULL, "program %d: %s: no footprint_windows", t, what);
    if (!fw)
        return;
    CHECK_EQ_U64(test_json_num(fw, "{", "accesses"), s->n, what);
    static const char *const key[] = {"blocks", "constant", "strided", "irregular"};
    double got[64];
    size_t levels = 0;
    while (s->n && (1ull << levels) < s->n)
        levels++;
    levels += s->n > 0;
    for (int c = -1; c < 3; c++) {
        const size_t n = read_array(fw, key[c + 1], got, 64);
        CHECK(n == levels, "program %d: %s: %zu levels of %s, want %zu", t, what, n, key[c + 1], levels);
        for (size_t k = 0; k < n && k < levels; k++)
            CHECK(got[k] == naive_f(s, (unsigned)k, c), "program %d: %s: F_%s(2^%zu) %.17g, want %.17g", t, what,
                  key[c + 1], k, got[k], naive_f(s, (unsigned)k, c));
    }
}

static void test_windows(const char *program, int programs)
{
    edan_elf elf;
    edan_error err = {0};
    CHECK(!edan_elf_open(program, &elf, &err), "%s: %s", program, err.msg);
    if (err.set)
        return;
    /* three functions large enough for a part each, with names of their own */
    const edan_elf_func *fns[FUNCS];
    int n_fns = 0;
    for (size_t i = 0; i < elf.n_funcs && n_fns < FUNCS; i++) {
        const edan_elf_func *f = &elf.funcs[i];
        bool unique = f->end - f->start >= 4 * SEG;
        for (size_t j = 0; j < elf.n_funcs && unique; j++)
            unique = j == i || strcmp(elf.funcs[j].name, f->name);
        for (uint64_t k = 0; k < SEG && unique; k++) /* and every pc of its part in it, no other symbol's */
            unique = edan_elf_func_at(&elf, f->start + 4 * k) == f;
        if (unique)
            fns[n_fns++] = f;
    }
    CHECK(n_fns == FUNCS, "%s: %d functions of %d instructions", program, n_fns, SEG);
    static gen g;
    static edan_exec recs[MAXREC];
    static row_stream run_s, fn_s[FUNCS], nest_s[4 * SEG];
    static const char *const opts[] = {"classes", NULL, NULL};
    for (int t = 0; t < programs && n_fns == FUNCS; t++) {
        rt_seed((uint64_t)t + 4242);
        memset(&g, 0, sizeof g);
        g.recs = recs;
        g.cap = MAXREC;
        node *top[FUNCS];
        for (int f = 0; f < FUNCS; f++) {
            g.parts[f].fn = fns[f];
            top[f] = layout(&g, &g.parts[f], 0);
        }
        for (int k = 0, runs = 2 + (int)rt_below(5); k < runs; k++) { /* the parts, in random order */
            const int f = (int)rt_below(FUNCS);
            run(&g, &g.parts[f], top[f]);
        }
        const size_t n = g.n;
        /* each load's class, from its template and how often it ran */
        static uint32_t runs_of[FUNCS * SEG];
        memset(runs_of, 0, sizeof runs_of);
        for (size_t i = 0; i < n; i++)
            runs_of[recs[i].id]++;
        /* the rows' streams: the run, each function, each nest as the loops are known when the load runs */
        run_s.n = 0;
        for (int f = 0; f < FUNCS; f++)
            fn_s[f].n = 0;
        for (int i = 0; i < 4 * SEG; i++)
            nest_s[i].n = 0;
        edan_loops *l = edan_loops_new(&elf);
        uint32_t ids[4 * SEG];
        for (size_t i = 0; i < n; i++) {
            const edan_exec *r = &recs[i];
            edan_loops_observe(l, r, 1);
            const int tmpl = g.parts[r->id / SEG].tmpl[r->id % SEG];
            if (!test_accesses_memory(r) || tmpl == T_STORE)
                continue;
            const bool once = runs_of[r->id] < 2;
            const int cls = tmpl == T_FRAME || tmpl == T_CONST || once ? C_CONST
                            : tmpl == T_STRIDED                        ? C_STRIDED
                                                                       : C_IRREG;
            const int f = (int)(r->id / SEG);
            const size_t k = edan_loops_holding(l, r->insn->pc, ids, 4 * SEG);
            for (uint64_t b = r->addr >> 6; b <= (r->addr + r->insn->mem_size - 1) >> 6; b++) {
                row_add(&run_s, b, cls);
                row_add(&fn_s[f], b, cls);
                for (size_t j = 0; j < k; j++)
                    row_add(&nest_s[ids[j]], b, cls);
            }
        }
        char *j = report(recs, n, 1 + (size_t)rt_below(60), program, opts);
        const char *lc = strstr(j, "\"load_classes\":");
        const char *ld = lc ? strstr(lc, "\"loads\":[") : NULL;
        check_windows(ld ? strstr(ld, "\"footprint_windows\":") : NULL, &run_s, "the whole run", t);
        for (int f = 0; f < FUNCS; f++) {
            char pat[256];
            snprintf(pat, sizeof pat, "{\"name\":\"%s\"", fns[f]->name);
            const char *row = lc ? strstr(lc, pat) : NULL;
            const char *fw = row ? strstr(row, "\"footprint_windows\":") : NULL;
            CHECK(fn_s[f].n || !fw || !strncmp(fw, "\"footprint_windows\":null", 24),
                  "program %d: %s made no loads but has windows", t, fns[f]->name);
            if (fn_s[f].n)
                check_windows(fw, &fn_s[f], fns[f]->name, t);
        }
        const char *nests = lc ? strstr(lc, "\"loop_nests\":[") : NULL;
        for (uint32_t id = 0; id < edan_loops_count(l); id++) {
            char pat[64], what[64];
            snprintf(pat, sizeof pat, "{\"head\":%llu,", (unsigned long long)edan_loops_get(l, id)->head);
            snprintf(what, sizeof what, "nest %#llx", (unsigned long long)edan_loops_get(l, id)->head);
            const char *row = nests ? strstr(nests, pat) : NULL;
            const char *fw = row ? strstr(row, "\"footprint_windows\":") : NULL;
            if (!nest_s[id].n) /* loads only before the loop was known, or none: no windows */
                CHECK(!fw || !strncmp(fw, "\"footprint_windows\":null", 24), "program %d: %s", t, what);
            else
                check_windows(fw, &nest_s[id], what, t);
        }
        free(j);
        edan_loops_free(l);
        for (int f = 0; f < FUNCS; f++)
            free_node(top[f]);
    }
    free(run_s.block);
    free(run_s.cls);
    for (int f = 0; f < FUNCS; f++) {
        free(fn_s[f].block);
        free(fn_s[f].cls);
    }
    for (int i = 0; i < 4 * SEG; i++) {
        free(nest_s[i].block);
        free(nest_s[i].cls);
    }
    edan_elf_close(&elf);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: nests_test PROGRAM [programs]\n");
        return 2;
    }
    const int programs = argc > 2 ? atoi(argv[2]) : 200;
    test_nest_rows(programs);
    test_windows(argv[1], programs);
    return check_summary();
}
