#include "random_loops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/riscv.h"
#include "random_trace.h"

#define BASE 0x10000u

enum { STRAIGHT, LOOP };

typedef struct node {
    int type, trip, n_kids;
    struct node *kids[3];
    int first, count; /* STRAIGHT */
    int head, branch; /* LOOP */
} node;

typedef struct mem_pattern {
    uint64_t base, next;
    int64_t stride; /* 0: the same address; 1: random in a window */
} mem_pattern;

static rl_program *P;
static mem_pattern pat[RL_MAX_CODE];
static edan_exec *R;
static size_t n_recs, recs_cap;

static uint64_t pc_of(int i)
{
    return BASE + 4 * (uint64_t)i;
}

static int emit_text(const char *text)
{
    char err[128];
    const int i = P->n++;
    if (edan_rv_parse(text, pc_of(i), &P->code[i], err, sizeof err)) {
        fprintf(stderr, "random_loops: parse '%s': %s\n", text, err);
        abort();
    }
    P->code[i].pc = pc_of(i);
    return i;
}

static int emit_random(void)
{
    const int i = P->n++;
    rt_random_insn(&P->code[i]);
    P->code[i].pc = pc_of(i);
    static const uint64_t bases[] = {0x1000, 0x1040, 0x2ffc, 0x7ffffff8, 0x40000};
    const uint64_t k = rt_below(3);
    pat[i].base = pat[i].next = bases[rt_below(5)] + rt_below(64);
    pat[i].stride = k == 0 ? 0 : k == 1 ? 1 : (int64_t)(1 + rt_below(24)) * (rt_below(4) ? 1 : -1);
    return i;
}

static node *layout(int depth)
{
    node *x = calloc(1, sizeof *x);
    x->type = depth < 4 && P->n < RL_MAX_CODE - 40 && rt_below(2) ? LOOP : STRAIGHT;
    x->trip = 1 + (int)rt_below(depth ? 4 : 6);
    if (x->type == STRAIGHT) {
        x->first = P->n;
        x->count = 1 + (int)rt_below(5);
        for (int k = 0; k < x->count && P->n < RL_MAX_CODE - 2; k++)
            emit_random();
        x->count = P->n - x->first;
        return x;
    }
    x->head = emit_text("addi a2,a2,1");
    x->n_kids = 1 + (int)rt_below(3);
    for (int k = 0; k < x->n_kids; k++)
        x->kids[k] = layout(depth + 1);
    char buf[48];
    x->branch = P->n;
    snprintf(buf, sizeof buf, "bne a2,a5,%d", (int)(pc_of(x->head) - pc_of(x->branch)));
    emit_text(buf);
    return x;
}

static void rec(int i)
{
    if (n_recs == recs_cap)
        return;
    edan_exec *r = &R[n_recs++];
    memset(r, 0, sizeof *r);
    r->insn = &P->code[i];
    r->id = (uint32_t)i;
    if (P->code[i].mem == EDAN_MEM_NONE)
        return;
    if (P->code[i].mem == EDAN_MEM_STORE && rt_below(12) == 0) {
        r->flags = EDAN_EXEC_NO_ACCESS;
        return;
    }
    mem_pattern *m = &pat[i];
    if (m->stride == 1) {
        r->addr = m->base + rt_below(200);
    } else {
        r->addr = m->next;
        m->next += (uint64_t)m->stride;
    }
}

static void run(const node *x)
{
    if (x->type == STRAIGHT) {
        for (int k = 0; k < x->count; k++)
            rec(x->first + k);
        return;
    }
    for (int it = 0; it < x->trip; it++) {
        rec(x->head);
        for (int k = 0; k < x->n_kids; k++)
            run(x->kids[k]);
        rec(x->branch); /* taken but on the last trip */
    }
}

static void free_node(node *x)
{
    for (int k = 0; k < x->n_kids; k++)
        free_node(x->kids[k]);
    free(x);
}

size_t rl_random_run(rl_program *p, edan_exec *recs, size_t cap)
{
    P = p;
    P->n = 0;
    R = recs;
    n_recs = 0;
    recs_cap = cap;
    node *top[4];
    const int n_top = 1 + (int)rt_below(4);
    for (int k = 0; k < n_top; k++)
        top[k] = layout(0);
    const int reps = 1 + (int)rt_below(2);
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < n_top; k++)
            run(top[k]);
    for (int k = 0; k < n_top; k++)
        free_node(top[k]);
    return n_recs;
}
