/*
 * timing_dump.c - the schedule dump (timing.h, timing_dump.h): its window,
 * the hooks the step's dump build calls, and the CSV written after the
 * stream.
 */
#include "analysis/timing/timing_dump.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/timing.h"
#include "isa/riscv.h"

/* The most rows a dump keeps (about 100 bytes each, allocated before the stream). */
#define DUMP_MAX_ROWS 10000000u

static const char *const why_names[WHY_COUNT] = {
    [WHY_NONE] = "",
    [WHY_START] = "start",
    [WHY_ORDER] = "order",
    [WHY_WIDTH] = "width",
    [WHY_TAKEN] = "taken",
    [WHY_BLOCK] = "block",
    [WHY_MISPREDICT] = "mispredict",
    [WHY_REFETCH] = "refetch",
    [WHY_BACKPRESS] = "backpressure",
    [WHY_L1I] = "l1i_miss",
    [WHY_FRONTEND] = "frontend",
    [WHY_ROB] = "rob_full",
    [WHY_LQ] = "lq_full",
    [WHY_SQ] = "sq_full",
    [WHY_SERIAL] = "serialize",
    [WHY_IQ] = "iq_full",
    [WHY_DISPATCH] = "dispatch",
    [WHY_DEP] = "dep",
    [WHY_STORESET] = "store_set",
    [WHY_INORDER] = "in_order",
    [WHY_DIVIDER] = "divider",
    [WHY_COMPLETE] = "complete",
};

int edan_timing_set_dump(edan_timing *t, uint64_t start, uint64_t n, int lane, edan_error *err)
{
    if (t->n_groups) {
        edan_error_set(err, "the schedule dump needs the timing model on one thread (--threads=1)");
        return -1;
    }
    if (t->smp.on) {
        edan_error_set(err, "the schedule dump needs the full schedule (--exact)");
        return -1;
    }
    if (lane < 0 || lane >= t->K || n == 0 || n > DUMP_MAX_ROWS || start > UINT64_MAX - n) {
        edan_error_set(err, "schedule dump: a window of 1 to %u instructions at one of the %d latencies", DUMP_MAX_ROWS,
                       t->K);
        return -1;
    }
    if (t->v || t->n.instructions) {
        edan_error_set(err, "schedule dump: set before the stream");
        return -1;
    }
    timing_dump *d = calloc(1, sizeof *d);
    timing_dump_row *rows = d ? calloc(n, sizeof *rows) : NULL;
    if (!rows) {
        free(d);
        edan_error_set(err, "out of memory for a schedule dump of %" PRIu64 " instructions", n);
        return -1;
    }
    d->start = start;
    d->n = n;
    d->lane = lane;
    d->rows = rows;
    free(t->dump ? t->dump->rows : NULL);
    free(t->dump);
    t->dump = d;
    t->dump_end = start + n;
    /* the dump build takes one lane at a time: so does the model from now on (every width gives the same times) */
    t->width = 1;
    return 0;
}

void edan_timing_dump_free(edan_timing *t)
{
    if (t->dump)
        free(t->dump->rows);
    free(t->dump);
    t->dump = NULL;
    t->dump_end = 0;
}

static timing_dump_row *row_of(edan_timing *t)
{
    return &t->dump->rows[t->v - t->dump->start];
}

void edan_timing_dump_stage(edan_timing *t, int s, tick at)
{
    timing_dump *d = t->dump;
    timing_dump_row *r = row_of(t);
    if (s == DUMP_DISPATCH && d->dispatched) /* a split vertex: its first micro-operation's */
        return;
    const slots *sl = s == DUMP_FETCH ? &t->fetch : s == DUMP_DISPATCH ? &t->disp : NULL;
    uint8_t why = d->best_why[s];
    if (at > d->best[s] || why == WHY_NONE) /* later than every bound: the stage's width, or its cycle in order */
        why = sl && sl->taken[d->lane] > 1 ? WHY_ORDER : sl ? WHY_WIDTH : WHY_NONE;
    if (s == DUMP_FETCH && why == WHY_ORDER && at == 0)
        why = WHY_START;
    if (s == DUMP_FETCH)
        r->fetch = at;
    else if (s == DUMP_DISPATCH) {
        r->dispatch = at;
        d->dispatched = true;
    } else {
        r->issue = at;
        r->dep = why == WHY_DEP ? d->best_dep : UINT64_MAX;
    }
    r->why[s] = why;
}

void edan_timing_dump_mem(edan_timing *t, int level, tick req, tick done, bool forwarded)
{
    timing_dump_row *r = row_of(t);
    r->level = (int8_t)level;
    r->mem_req = req;
    r->mem_done = done;
    r->forwarded = forwarded;
}

void edan_timing_dump_preds(edan_timing *t, const uint64_t *preds, size_t n_preds)
{
    const int L = t->dump->lane, Kp = t->Kp;
    for (size_t i = 0; i < n_preds; i++)
        if (t->v - preds[i] <= t->rmask) /* the others committed before v dispatched */
            dump_bound(t, DUMP_ISSUE, WHY_DEP, ROW(t->F, preds[i] & t->rmask)[L], preds[i]);
}

void edan_timing_dump_end(edan_timing *t, const edan_exec *rec)
{
    timing_dump *d = t->dump;
    const int L = d->lane, Kp = t->Kp;
    const tick cm = t->last_commit[L];
    if (t->v >= d->start && t->v - d->start < d->n) {
        timing_dump_row *r = row_of(t);
        r->insn = rec->insn;
        r->addr = rec->addr;
        r->complete = ROW(t->F, t->v & t->rmask)[L];
        r->commit = cm;
        const tick bound = r->complete > d->prev_commit ? r->complete : d->prev_commit;
        r->commit_why = cm > bound ? WHY_WIDTH : r->complete >= d->prev_commit ? WHY_COMPLETE : WHY_ORDER;
        if (!(rec->insn->mem != EDAN_MEM_NONE && !(rec->flags & EDAN_EXEC_NO_ACCESS) && rec->insn->mem_size > 0))
            r->level = -1;
    }
    d->prev_commit = cm;
    memset(d->best, 0, sizeof d->best);
    memset(d->best_why, 0, sizeof d->best_why);
    d->dispatched = false;
}

static void put_time(FILE *f, tick x)
{
    /* ticks are 1/16 cycle: four decimals are exact */
    fprintf(f, ",%" PRIu64 ".%04u", x / TPC, (unsigned)(x % TPC * 625u));
}

int edan_timing_dump_csv(const edan_timing *t, FILE *f, edan_error *err)
{
    const timing_dump *d = t->dump;
    if (!d) {
        edan_error_set(err, "no schedule dump was asked for");
        return -1;
    }
    const int nlev = t->nlev;
    fprintf(f, "seq,pc,insn,class,fetch,dispatch,issue,complete,commit,fetch_why,dispatch_why,issue_why,dep,"
               "mem_level,mem_req,mem_done,commit_why,addr\n");
    uint64_t have = t->v > d->start ? t->v - d->start : 0;
    have = have < d->n ? have : d->n;
    for (uint64_t i = 0; i < have; i++) {
        const timing_dump_row *r = &d->rows[i];
        char text[96] = "?";
        if (r->insn && r->insn->isa == 0 && edan_rv_disas(r->insn, text, sizeof text) < 0)
            snprintf(text, sizeof text, "?");
        for (char *p = text; *p; p++) /* one CSV field: the operands' commas become spaces */
            if (*p == ',' || *p == '"')
                *p = ' ';
        fprintf(f, "%" PRIu64 ",0x%" PRIx64 ",%s,%s", d->start + i, r->insn ? r->insn->pc : 0, text,
                r->insn ? edan_class_name(r->insn->cls) : "");
        put_time(f, r->fetch);
        put_time(f, r->dispatch);
        put_time(f, r->issue);
        put_time(f, r->complete);
        put_time(f, r->commit);
        fprintf(f, ",%s,%s,%s,", why_names[r->why[DUMP_FETCH]], why_names[r->why[DUMP_DISPATCH]],
                why_names[r->why[DUMP_ISSUE]]);
        if (r->dep != UINT64_MAX)
            fprintf(f, "%" PRIu64, r->dep);
        if (r->level < 0)
            fprintf(f, ",,,");
        else {
            if (r->forwarded)
                fprintf(f, ",sq");
            else if (r->level >= nlev)
                fprintf(f, ",mem");
            else if (r->level == 0)
                fprintf(f, ",l1d");
            else
                fprintf(f, ",l%d", r->level + 1);
            put_time(f, r->mem_req);
            put_time(f, r->mem_done);
        }
        fprintf(f, ",%s,", why_names[r->commit_why]);
        if (r->level >= 0)
            fprintf(f, "0x%" PRIx64, r->addr);
        fputc('\n', f);
    }
    if (ferror(f)) {
        edan_error_set(err, "schedule dump: write error");
        return -1;
    }
    return 0;
}

uint64_t edan_timing_dump_rows(const edan_timing *t)
{
    const timing_dump *d = t->dump;
    if (!d || t->v <= d->start)
        return 0;
    return t->v - d->start < d->n ? t->v - d->start : d->n;
}
