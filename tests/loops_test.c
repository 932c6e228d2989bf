/*
 * loops_test.c - the loop finder (analysis/loops/loops.h) against a naive
 * reference on hand-built streams: random structured programs (do-while
 * loops, while loops closed by a backward jump, loops with a `continue`,
 * conditional blocks, nested to random depths) executed into records, a
 * second vCPU's records interleaved; and hand-made cases (two loops that
 * overlap without nesting, a backward tail call between functions).
 *
 * The reference keeps the whole stream: every branch whose next record (of
 * its vCPU) is at its static target at or below it is a back edge; loops are
 * the back edges grouped by target; the innermost loop of a record is found
 * by scanning every loop. Compared: the loops (head, end, back edges taken,
 * branches), their parents and depths, and the innermost loop of every
 * record's pc through both the index and the scan that serves before it.
 *
 * Usage: loops_test [programs]
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/loops/loops.h"
#include "check.h"
#include "isa/riscv.h"
#include "random_trace.h"

#define MAXI 2000
#define MAXR 400000
#define BASE 0x10000u

/* ===================================================================== */
/* Programs and their execution                                           */
/* ===================================================================== */

typedef struct program {
    edan_insn code[MAXI];
    char text[MAXI][48]; /* the disassembly each was parsed from */
    int n;
    edan_exec recs[MAXR];
    size_t n_recs;
} program;

static program P;

static uint64_t pc_of(int i)
{
    return BASE + 4 * (uint64_t)i;
}

/* (Re)parse instruction i from its text. */
static void parse(int i, const char *text)
{
    char err[128];
    snprintf(P.text[i], sizeof P.text[i], "%s", text);
    const int rc = edan_rv_parse(text, pc_of(i), &P.code[i], err, sizeof err);
    CHECK(rc == 0, "parse '%s': %s", text, err);
    P.code[i].pc = pc_of(i);
}

static int emit(const char *text)
{
    parse(P.n, text);
    return P.n++;
}

/* A branch at i to instruction `to` with mnemonic form fmt (a %d for the byte offset). */
static void set_target(int i, const char *fmt, int to)
{
    char buf[48];
    snprintf(buf, sizeof buf, fmt, (int)(pc_of(to) - pc_of(i)));
    parse(i, buf);
}

static void rec(int i, uint16_t vcpu)
{
    if (P.n_recs == MAXR)
        return;
    P.recs[P.n_recs++] = (edan_exec){&P.code[i], 0, (uint32_t)i, vcpu, 0};
}

enum { STRAIGHT, DO_LOOP, WHILE_LOOP, CONT_LOOP, IF_BLOCK };

typedef struct node {
    int type, n_kids, trip;
    struct node *kids[4];
    int first, count;       /* STRAIGHT: its instructions */
    int head, branch, cont; /* loops: head index, closing branch; cont: the continue branch, or what follows */
    int split;              /* CONT_LOOP: kids before the continue branch */
} node;

static node *gen(int depth)
{
    node *x = calloc(1, sizeof *x);
    const uint64_t r = rt_below(depth >= 4 ? 1 : 10);
    x->type = r < 5 ? STRAIGHT : r < 7 ? DO_LOOP : r == 7 ? WHILE_LOOP : r == 8 ? CONT_LOOP : IF_BLOCK;
    if (P.n > MAXI - 200)
        x->type = STRAIGHT;
    x->trip = 1 + (int)rt_below(depth ? 4 : 6);
    if (x->type != STRAIGHT) {
        x->n_kids = 1 + (int)rt_below(3);
        x->split = (int)rt_below((uint64_t)x->n_kids + 1);
    }
    return x;
}

/* Lay the code out (kids generated on the way, so a nest stays within the code's room). */
static void layout(node *x, int depth)
{
    switch (x->type) {
    case STRAIGHT:
        x->first = P.n;
        x->count = 1 + (int)rt_below(4);
        for (int k = 0; k < x->count; k++)
            emit(k % 2 ? "addi a0,a0,1" : "add a1,a1,a0");
        return;
    case DO_LOOP:
    case CONT_LOOP:
        x->head = P.n;
        emit("addi a2,a2,1"); /* the head is an instruction of its own */
        for (int k = 0; k < x->n_kids; k++) {
            if (x->type == CONT_LOOP && k == x->split)
                x->cont = emit("blt a3,a4,0");
            x->kids[k] = gen(depth + 1);
            layout(x->kids[k], depth + 1);
        }
        if (x->type == CONT_LOOP && x->split == x->n_kids)
            x->cont = emit("blt a3,a4,0");
        if (x->type == CONT_LOOP)
            set_target(x->cont, "blt a3,a4,%d", x->head);
        x->branch = emit("bne a2,a5,0");
        set_target(x->branch, "bne a2,a5,%d", x->head);
        return;
    case WHILE_LOOP:
        x->head = emit("beq a2,a5,0"); /* the exit test, patched below */
        for (int k = 0; k < x->n_kids; k++) {
            x->kids[k] = gen(depth + 1);
            layout(x->kids[k], depth + 1);
        }
        x->branch = emit("j 0");
        set_target(x->branch, "j %d", x->head);
        set_target(x->head, "beq a2,a5,%d", P.n);
        x->cont = emit("addi a6,a6,1"); /* after the loop: where the exit test goes */
        return;
    default: /* IF_BLOCK */
        x->head = emit("beqz a7,0");
        for (int k = 0; k < x->n_kids; k++) {
            x->kids[k] = gen(depth + 1);
            layout(x->kids[k], depth + 1);
        }
        set_target(x->head, "beqz a7,%d", P.n);
        x->cont = emit("addi a6,a6,2"); /* the block's end label */
        return;
    }
}

static void run(const node *x)
{
    switch (x->type) {
    case STRAIGHT:
        for (int k = 0; k < x->count; k++)
            rec(x->first + k, 0);
        return;
    case DO_LOOP:
        for (int it = 0; it < x->trip; it++) {
            rec(x->head, 0);
            for (int k = 0; k < x->n_kids; k++)
                run(x->kids[k]);
            rec(x->branch, 0); /* taken but on the last trip */
        }
        return;
    case CONT_LOOP:
        for (int it = 0; it < x->trip; it++) {
            rec(x->head, 0);
            const bool skip = it % 2 == 1 && it < x->trip - 1; /* continue: back to the head */
            for (int k = 0; k < x->split; k++)
                run(x->kids[k]);
            rec(x->cont, 0);
            if (skip)
                continue;
            for (int k = x->split; k < x->n_kids; k++)
                run(x->kids[k]);
            rec(x->branch, 0);
            if (it == x->trip - 1)
                break;
        }
        return;
    case WHILE_LOOP:
        for (int it = 0;; it++) {
            rec(x->head, 0); /* the exit test: taken (out) after trip iterations */
            if (it == x->trip)
                break;
            for (int k = 0; k < x->n_kids; k++)
                run(x->kids[k]);
            rec(x->branch, 0);
        }
        rec(x->cont, 0);
        return;
    default:
        rec(x->head, 0);
        if (!rt_below(2)) /* else skipped: the branch goes to the end label */
            for (int k = 0; k < x->n_kids; k++)
                run(x->kids[k]);
        rec(x->cont, 0);
        return;
    }
}

static void free_node(node *x)
{
    for (int k = 0; k < x->n_kids; k++)
        free_node(x->kids[k]);
    free(x);
}

/* ===================================================================== */
/* The naive reference                                                    */
/* ===================================================================== */

typedef struct ref_loop {
    uint64_t head, end, back_edges;
    uint32_t branches;
} ref_loop;

typedef struct reference {
    ref_loop loops[MAXI];
    int n;
} reference;

/* ref is built from P.recs; elf: the function rule for jumps (may be NULL). */
static void reference_loops(reference *ref, const edan_elf *elf)
{
    memset(ref, 0, sizeof *ref);
    static bool edge_seen[MAXI];
    memset(edge_seen, 0, sizeof edge_seen);
    for (size_t i = 0; i < P.n_recs; i++) {
        const edan_insn *in = P.recs[i].insn;
        const bool branch = in->flow == EDAN_FLOW_BRANCH || (in->flow == EDAN_FLOW_JUMP && in->fmt == EDAN_FMT_J);
        if (!branch || in->imm > 0)
            continue;
        const uint64_t target = in->pc + (uint64_t)in->imm;
        if (elf && in->flow == EDAN_FLOW_JUMP) {
            const edan_elf_func *f = edan_elf_func_at(elf, in->pc);
            if (!f || target < f->start)
                continue;
        }
        size_t j = i + 1;
        while (j < P.n_recs && P.recs[j].vcpu != P.recs[i].vcpu)
            j++;
        if (j == P.n_recs || P.recs[j].insn->pc != target)
            continue;
        int k = 0;
        while (k < ref->n && ref->loops[k].head != target)
            k++;
        if (k == ref->n)
            ref->loops[ref->n++] = (ref_loop){target, in->pc, 0, 0};
        ref_loop *l = &ref->loops[k];
        l->back_edges++;
        if (in->pc > l->end)
            l->end = in->pc;
        const int id = (int)P.recs[i].id;
        if (!edge_seen[id]) {
            edge_seen[id] = true;
            l->branches++;
        }
    }
}

/* The innermost reference loop of pc: shortest, then higher head (heads are distinct). */
static int ref_innermost(const reference *ref, uint64_t pc)
{
    int best = -1;
    for (int k = 0; k < ref->n; k++) {
        const ref_loop *l = &ref->loops[k];
        if (pc < l->head || pc > l->end)
            continue;
        if (best < 0 || l->end - l->head < ref->loops[best].end - ref->loops[best].head ||
            (l->end - l->head == ref->loops[best].end - ref->loops[best].head && l->head > ref->loops[best].head))
            best = k;
    }
    return best;
}

/* The reference parent of loop k: among the other loops holding its range, the innermost at its head. */
static int ref_parent(const reference *ref, int k)
{
    int best = -1;
    for (int j = 0; j < ref->n; j++) {
        const ref_loop *a = &ref->loops[j], *b = &ref->loops[k];
        if (j == k || a->head > b->head || a->end < b->end)
            continue;
        if (best < 0 || a->end - a->head < ref->loops[best].end - ref->loops[best].head ||
            (a->end - a->head == ref->loops[best].end - ref->loops[best].head && a->head > ref->loops[best].head))
            best = j;
    }
    return best;
}

/* ===================================================================== */
/* Comparison                                                             */
/* ===================================================================== */

/* Feed P.recs in random batches and compare everything with the reference. */
static void compare(const char *what, const edan_elf *elf)
{
    reference *ref = malloc(sizeof *ref);
    reference_loops(ref, elf);
    edan_loops *l = edan_loops_new(elf);
    for (size_t i = 0; i < P.n_recs;) {
        const size_t b = 1 + rt_below(64), n = P.n_recs - i < b ? P.n_recs - i : b;
        CHECK(edan_loops_observe(l, P.recs + i, n) == 0, "%s: observe", what);
        i += n;
    }
    CHECK((int)edan_loops_count(l) == ref->n, "%s: %u loops, the reference %d", what, edan_loops_count(l), ref->n);
    /* the reference lists loops in the order their first back edge was taken: so do the ids */
    int bad = 0;
    for (int k = 0; k < ref->n && k < (int)edan_loops_count(l) && !bad; k++) {
        const edan_loop *x = edan_loops_get(l, (uint32_t)k);
        const ref_loop *y = &ref->loops[k];
        if (x->head != y->head || x->end != y->end || x->back_edges != y->back_edges || x->branches != y->branches) {
            bad++;
            CHECK(0, "%s: loop %d: [%#llx, %#llx] %llu back edges, %u branches; reference [%#llx, %#llx] %llu, %u",
                  what, k, (unsigned long long)x->head, (unsigned long long)x->end, (unsigned long long)x->back_edges,
                  x->branches, (unsigned long long)y->head, (unsigned long long)y->end,
                  (unsigned long long)y->back_edges, y->branches);
        }
    }
    /* before the index: the scan; after it: the segments; both the reference's innermost loop */
    for (int pass = 0; pass < 2 && !bad; pass++) {
        if (pass == 1)
            CHECK(edan_loops_index(l) == 0, "%s: index", what);
        for (size_t i = 0; i < P.n_recs && !bad; i++) {
            const uint64_t pc = P.recs[i].insn->pc;
            const int want = ref_innermost(ref, pc), got = edan_loops_innermost(l, pc);
            if (want != got) {
                bad++;
                CHECK(0, "%s: record %zu at %#llx: innermost loop %d, the reference %d (%s)", what, i,
                      (unsigned long long)pc, got, want, pass ? "indexed" : "scan");
            }
        }
        /* pcs between the instructions and around the code */
        for (uint64_t pc = BASE - 8; pc < pc_of(P.n) + 8 && !bad; pc += 2)
            if (ref_innermost(ref, pc) != edan_loops_innermost(l, pc)) {
                bad++;
                CHECK(0, "%s: pc %#llx: innermost %d, the reference %d", what, (unsigned long long)pc,
                      edan_loops_innermost(l, pc), ref_innermost(ref, pc));
            }
    }
    for (int k = 0; k < ref->n && !bad; k++) {
        const edan_loop *x = edan_loops_get(l, (uint32_t)k);
        int d = 1;
        for (int p = ref_parent(ref, k); p >= 0; p = ref_parent(ref, p))
            d++;
        if (x->parent != ref_parent(ref, k) || (int)x->depth != d) {
            bad++;
            CHECK(0, "%s: loop %d: parent %d depth %u; reference %d, %d", what, k, x->parent, x->depth,
                  ref_parent(ref, k), d);
        }
    }
    CHECK(!bad, "%s", what);
    edan_loops_free(l);
    free(ref);
}

/* A random structured program, run, and a second vCPU's straight-line records mixed in. */
static void random_program(uint64_t seed)
{
    rt_seed(seed);
    P.n = 0;
    P.n_recs = 0;
    node *top[6];
    const int parts = 1 + (int)rt_below(6);
    for (int k = 0; k < parts; k++) {
        top[k] = gen(0);
        layout(top[k], 0);
    }
    const int other = emit("addi t0,t0,1"); /* the other vCPU's code */
    for (int k = 0; k < parts; k++)
        run(top[k]);
    for (int k = 0; k < parts; k++)
        free_node(top[k]);
    char what[64];
    snprintf(what, sizeof what, "program %llu (%d instructions, %zu records)", (unsigned long long)seed, P.n, P.n_recs);
    compare(what, NULL);
    /* the same with vCPU 1's records interleaved: they do not settle vCPU 0's pending branch */
    static edan_exec mixed[MAXR];
    size_t m = 0;
    for (size_t i = 0; i < P.n_recs && m + 2 < MAXR; i++) {
        if (rt_below(3) == 0)
            mixed[m++] = (edan_exec){&P.code[other], 0, (uint32_t)other, 1, 0};
        mixed[m++] = P.recs[i];
    }
    memcpy(P.recs, mixed, m * sizeof *mixed);
    P.n_recs = m;
    strncat(what, ", two vCPUs", sizeof what - strlen(what) - 1);
    compare(what, NULL);
}

/* Records along a list of instruction indices. */
static void walk(const int *idx, size_t n)
{
    P.n_recs = 0;
    for (size_t i = 0; i < n; i++)
        rec(idx[i], 0);
}

/* Two loops that overlap without nesting: [0, 6] (6 -> 0) and [3, 9] (9 -> 3). */
static void overlapping(void)
{
    P.n = 0;
    for (int i = 0; i < 11; i++)
        emit("addi a0,a0,1");
    set_target(6, "bne a0,a1,%d", 0);
    set_target(9, "bne a0,a1,%d", 3);
    static const int path[] = {0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9, 10};
    walk(path, sizeof path / sizeof path[0]);
    compare("overlapping loops", NULL);
    /* never taken: no loop */
    static const int straight[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    walk(straight, sizeof straight / sizeof straight[0]);
    compare("branches never taken", NULL);
}

/* A backward jump into another function (a tail call) is a loop only without symbols. */
static void tail_call(void)
{
    P.n = 0;
    for (int i = 0; i < 8; i++)
        emit("addi a0,a0,1");
    set_target(3, "bnez a0,%d", 1); /* a loop [1, 3] in f */
    set_target(6, "j %d", 0);       /* g tail-calls f */
    static const int path[] = {4, 5, 6, 0, 1, 2, 3, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 7};
    walk(path, sizeof path / sizeof path[0]);
    edan_elf_func funcs[2] = {
        {.name = (char *)"f", .plain = (char *)"f", .symbol = (char *)"f", .start = pc_of(0), .end = pc_of(4)},
        {.name = (char *)"g", .plain = (char *)"g", .symbol = (char *)"g", .start = pc_of(4), .end = pc_of(8)},
    };
    edan_elf elf = {0, 0, 0, 2, funcs, 0, 0, NULL};
    compare("a tail call, symbols known", &elf);
    compare("a tail call, no symbols", NULL);
    edan_loops *l = edan_loops_new(&elf);
    edan_loops_observe(l, P.recs, P.n_recs);
    CHECK(edan_loops_count(l) == 1 && edan_loops_get(l, 0)->head == pc_of(1), "the tail call is no loop");
    edan_loops_index(l);
    const edan_loop_place where = edan_loops_place(l, 0, &elf, NULL);
    CHECK(where.function && !strcmp(where.function, "f") && !where.file && where.line == 0, "the loop is in f");
    edan_loops_free(l);
}

int main(int argc, char **argv)
{
    const int programs = argc > 1 ? atoi(argv[1]) : 300;
    overlapping();
    tail_call();
    for (int s = 0; s < programs; s++)
        random_program(900 + (uint64_t)s);
    return check_summary();
}
