/*
 * mg_table.c - MemGaze's footprint table of its execution-interval tree (see
 * mg_table.h and docs/locality.md).
 *
 * Three stages, each MemGaze's own loop restated:
 *
 *   fold     the reading loop of memgaze-analyze: constant loads are not
 *            traced, only counted, and folded into the next traced load (or,
 *            at a sample change, into the last one: MemGaze's ip_to_add);
 *            sample ids become MemGaze's sample numbers;
 *   windows  its main loop: a sample change ends a sample's tree, and within
 *            a sample every 8 traced loads make a leaf;
 *   visit    its printTree: every node, in preorder, adds its values to the
 *            row of its level.
 *
 * Pass 1 builds the tree above the samples (mg_tree, nodes kept); pass 2
 * builds each sample's tree again, with its nodes, and visits them in the
 * place MemGaze's preorder gives them among the nodes above.
 */
#include "memgaze/mg_table.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "memgaze/mg_tree.h"

/* Loads read from the trace at a time. */
#define BATCH 4096

struct edan_mg_table {
    const edan_mg_classes *classes;
    uint64_t period;
    int pass; /* 1 or 2 between begin and end; 0 before; 3 when the table is ready */
    bool running;
    edan_mg_level levels[EDAN_MG_LEVELS];

    edan_mg_tree *inner_merge; /* pass 1: a sample's tree, addresses only */
    edan_mg_tree *inner_nodes; /* pass 2: a sample's tree with its nodes */
    edan_mg_tree *outer;       /* pass 1: the tree above the samples */
    uint32_t *outer_order;     /* its nodes in preorder */
    size_t n_outer_order, cap_outer_order, cursor;
    uint32_t *inner_order;
    size_t cap_inner_order;
    uint64_t *sample_size; /* pass 1's size of each sample, checked in pass 2 */
    size_t cap_samples;

    /* fold: MemGaze's reading loop */
    int32_t prev_id;  /* SAMPLE of the last traced load; 0 also means none yet (MemGaze's quirk) */
    uint32_t sample;  /* MemGaze's sample number of the traced loads */
    uint64_t missing; /* constant loads waiting for a traced load */
    bool held;        /* last may still take constant loads (MemGaze's ip_to_add) */
    edan_mg_rec last;
    uint32_t last_sample;
    uint64_t last_ip;
    edan_mg_funcs *funcs; /* per-function footprints, counted in pass 1; NULL: none */

    /* windows: MemGaze's main loop */
    bool started;
    uint32_t cur; /* sample of the leaf being filled */
    edan_mg_rec leaf[EDAN_MG_LEAF];
    size_t leaf_n;

    edan_mg_table_stats st, st1; /* this pass's, and pass 1's to check pass 2 against */
};

/* ---- life cycle ------------------------------------------------------------------------- */

edan_mg_table *edan_mg_table_new(const edan_mg_classes *classes, uint64_t period, edan_error *err)
{
    if (period == 0 || period > EDAN_MG_MAX_PERIOD) {
        edan_error_set(err, "the sampling period must be from 1 to 2^53 loads");
        return NULL;
    }
    edan_mg_table *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    t->classes = classes;
    t->period = period;
    t->inner_merge = edan_mg_tree_new(NULL);
    t->inner_nodes = edan_mg_tree_new(t->levels);
    t->outer = edan_mg_tree_new(t->levels);
    if (!t->inner_merge || !t->inner_nodes || !t->outer) {
        edan_mg_table_free(t);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    return t;
}

void edan_mg_table_free(edan_mg_table *t)
{
    if (!t)
        return;
    edan_mg_tree_free(t->inner_merge);
    edan_mg_tree_free(t->inner_nodes);
    edan_mg_tree_free(t->outer);
    free(t->outer_order);
    free(t->inner_order);
    free(t->sample_size);
    free(t);
}

/* ---- visit: MemGaze's printTree ----------------------------------------------------------- */

/* A node's class shares join its level's, in the order visited; the last one visited sets in_sample. */
static void visit(edan_mg_table *t, const edan_mg_node *nd, bool in_sample)
{
    edan_mg_level *lv = &t->levels[nd->key];
    for (int k = 0; k < 3; k++)
        lv->share[k] += nd->share[k];
    lv->in_sample = in_sample;
}

/*
 * Pass 2, sample s finished: the nodes above the samples that come before
 * it in preorder (those whose leftmost sample it is, top down), then the
 * sample's own tree: its root is visited as outside any sample, the rest
 * as inside (MemGaze's in_sample turns on below a sample's root).
 */
static int visit_sample(edan_mg_table *t, uint32_t s, edan_error *err)
{
    size_t n_outer;
    const edan_mg_node *on = edan_mg_tree_nodes(t->outer, &n_outer);
    while (t->cursor < t->n_outer_order && on[t->outer_order[t->cursor]].kind != EDAN_MG_SAMPLE)
        visit(t, &on[t->outer_order[t->cursor++]], false);
    if (t->cursor == t->n_outer_order || on[t->outer_order[t->cursor]].left != s ||
        edan_mg_tree_root_size(t->inner_nodes) != t->sample_size[s]) {
        edan_error_set(err, "the trace changed between the two passes over it");
        return -1;
    }
    t->cursor++;
    long n = edan_mg_tree_preorder(t->inner_nodes, &t->inner_order, &t->cap_inner_order, err);
    if (n < 0)
        return -1;
    size_t n_inner;
    const edan_mg_node *in = edan_mg_tree_nodes(t->inner_nodes, &n_inner);
    for (long i = 0; i < n; i++)
        visit(t, &in[t->inner_order[i]], i > 0);
    edan_mg_tree_reset(t->inner_nodes);
    return 0;
}

/* ---- windows: MemGaze's main loop ------------------------------------------------------------ */

static edan_mg_tree *inner(const edan_mg_table *t)
{
    return t->pass == 1 ? t->inner_merge : t->inner_nodes;
}

/* The sample being filled is complete: its last leaf, its tree, and then the tree above or the visit. */
static int sample_done(edan_mg_table *t, edan_error *err)
{
    uint64_t s = t->st.samples++;
    if (edan_mg_tree_leaf(inner(t), t->leaf, t->leaf_n, err) || edan_mg_tree_finish(inner(t), err))
        return -1;
    t->leaf_n = 0;
    if (t->pass == 2) {
        if (s >= t->st1.samples) {
            edan_error_set(err, "the trace changed between the two passes over it");
            return -1;
        }
        return visit_sample(t, (uint32_t)s, err);
    }
    if (s == t->cap_samples) {
        size_t cap = t->cap_samples ? 2 * t->cap_samples : 1024;
        uint64_t *sz = realloc(t->sample_size, cap * sizeof *sz);
        if (!sz) {
            edan_error_set(err, "out of memory for %llu samples", (unsigned long long)s);
            return -1;
        }
        t->sample_size = sz;
        t->cap_samples = cap;
    }
    t->sample_size[s] = edan_mg_tree_root_size(inner(t));
    return edan_mg_tree_add_tree(t->outer, inner(t), (uint32_t)s, err);
}

/* A traced load, final: MemGaze's timeVec entry. */
static int window_add(edan_mg_table *t, const edan_mg_rec *r, uint32_t sample, uint64_t ip, edan_error *err)
{
    if (t->funcs && t->pass == 1 && edan_mg_funcs_add(t->funcs, ip, r, sample, err))
        return -1;
    if (r->skipped >= UINT64_MAX - t->st.total) {
        edan_error_set(err, "more than 2^64 loads");
        return -1;
    }
    t->st.total += 1 + r->skipped;
    t->st.traced++;
    if (!t->started) {
        t->started = true;
        t->cur = sample;
    } else if (sample != t->cur) {
        t->st.windows++;
        if (sample_done(t, err))
            return -1;
        t->cur = sample;
    } else if (t->leaf_n == EDAN_MG_LEAF) {
        if (edan_mg_tree_leaf(inner(t), t->leaf, t->leaf_n, err))
            return -1;
        t->leaf_n = 0;
    }
    t->leaf[t->leaf_n++] = *r;
    return 0;
}

/* ---- fold: MemGaze's reading loop -------------------------------------------------------------- */

static uint8_t slot_of(edan_mg_class c)
{
    switch (c) {
    case EDAN_MG_STRIDED:
        return EDAN_MG_SLOT_STRIDED;
    case EDAN_MG_IRREGULAR:
        return EDAN_MG_SLOT_IRREGULAR;
    case EDAN_MG_STORE:
        return EDAN_MG_SLOT_STORE;
    default:
        return EDAN_MG_SLOT_UNKNOWN;
    }
}

/* The held traced load can take no more constant loads: on to the windows. */
static int release(edan_mg_table *t, edan_error *err)
{
    if (!t->held)
        return 0;
    t->held = false;
    return window_add(t, &t->last, t->last_sample, t->last_ip, err);
}

static int fold(edan_mg_table *t, const edan_mg_load *ld, edan_error *err)
{
    uint32_t skipped;
    edan_mg_class c = edan_mg_classes_find(t->classes, ld->ip, &skipped);
    t->st.loads++;
    t->st.unknown += c == EDAN_MG_UNKNOWN;
    if (c == EDAN_MG_CONSTANT) {
        /*
         * Not traced: its loads wait for the next traced load. At a change of
         * SAMPLE (seen against the last traced load's, and only when that one
         * was not 0) the waiting ones go to the last traced load instead, if
         * it still takes them; if not (a second constant load in the new
         * sample) MemGaze drops them.
         */
        if (t->prev_id != 0 && t->prev_id != ld->sample) {
            if (t->held) {
                t->last.skipped += t->missing;
                if (release(t, err))
                    return -1;
            } else {
                t->st.dropped += t->missing;
            }
            t->missing = 0;
        }
        if (t->missing > UINT64_MAX - skipped - 1) {
            edan_error_set(err, "more than 2^64 constant loads");
            return -1;
        }
        t->missing += (uint64_t)skipped + 1;
        return 0;
    }
    /* MemGaze's prev_sampleID == 0 means "none yet": a change from SAMPLE 0 starts no new sample */
    if (t->prev_id == 0) {
        t->prev_id = ld->sample;
    } else if (t->prev_id != ld->sample) {
        if (t->sample == UINT32_MAX) {
            edan_error_set(err, "more than 2^32 samples");
            return -1;
        }
        t->sample++;
        t->prev_id = ld->sample;
    }
    if (release(t, err))
        return -1;
    if (t->missing > UINT64_MAX - skipped) {
        edan_error_set(err, "more than 2^64 constant loads");
        return -1;
    }
    t->last = (edan_mg_rec){.addr = ld->addr, .skipped = skipped + t->missing, .slot = slot_of(c)};
    t->last_sample = t->sample;
    t->last_ip = ld->ip;
    t->missing = 0;
    t->held = true;
    return 0;
}

/* ---- passes ---------------------------------------------------------------------------------- */

void edan_mg_table_set_funcs(edan_mg_table *t, edan_mg_funcs *funcs)
{
    t->funcs = funcs;
}

int edan_mg_table_begin(edan_mg_table *t, int pass, edan_error *err)
{
    if (t->running || pass != t->pass + 1 || pass > 2) {
        edan_error_set(err, "internal error: pass %d of the MemGaze table out of turn", pass);
        return -1;
    }
    t->pass = pass;
    t->running = true;
    if (pass == 1)
        memset(t->levels, 0, sizeof t->levels);
    t->cursor = 0;
    t->prev_id = 0;
    t->sample = 0;
    t->missing = 0;
    t->held = false;
    t->started = false;
    t->leaf_n = 0;
    memset(&t->st, 0, sizeof t->st);
    edan_mg_tree_reset(t->inner_merge);
    edan_mg_tree_reset(t->inner_nodes);
    return 0;
}

int edan_mg_table_add(edan_mg_table *t, const edan_mg_load *loads, size_t n, edan_error *err)
{
    if (!t->running) {
        edan_error_set(err, "internal error: loads outside a pass of the MemGaze table");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        edan_error e = {0};
        if (fold(t, &loads[i], &e)) {
            edan_error_set(err, "%llu: %s", (unsigned long long)loads[i].line, e.msg);
            return -1;
        }
    }
    return 0;
}

int edan_mg_table_end(edan_mg_table *t, edan_error *err)
{
    if (!t->running) {
        edan_error_set(err, "internal error: the end of a pass that did not begin");
        return -1;
    }
    t->running = false;
    if (release(t, err))
        return -1;
    t->st.dropped += t->missing; /* constant loads after the last traced load */
    if (!t->started) {
        edan_error_set(err, "no load to analyse: %s",
                       t->st.loads ? "every load of the trace is a constant one" : "the trace has no loads");
        return -1;
    }
    if (sample_done(t, err))
        return -1;
    if (t->pass == 1) {
        t->st1 = t->st;
        if (edan_mg_tree_finish(t->outer, err))
            return -1;
        long n = edan_mg_tree_preorder(t->outer, &t->outer_order, &t->cap_outer_order, err);
        if (n < 0)
            return -1;
        t->n_outer_order = (size_t)n;
        return 0;
    }
    const edan_mg_table_stats *a = &t->st, *b = &t->st1;
    if (t->cursor != t->n_outer_order || a->loads != b->loads || a->traced != b->traced || a->total != b->total ||
        a->samples != b->samples || a->windows != b->windows || a->dropped != b->dropped) {
        edan_error_set(err, "the trace changed between the two passes over it");
        return -1;
    }
    double m = t->st.windows ? (double)t->st.windows * (double)t->period / (double)t->st.total : 0.0;
    t->st.multiplier = m < 1 ? 1.0 : m;
    t->pass = 3;
    return 0;
}

int edan_mg_table_run(edan_mg_table *t, const char *trace_path, edan_error *err)
{
    static edan_mg_load buf[BATCH];
    for (int pass = 1; pass <= 2; pass++) {
        if (edan_mg_table_begin(t, pass, err))
            return -1;
        edan_mg_trace *tr = edan_mg_trace_open(trace_path, err);
        if (!tr)
            return -1;
        long n;
        edan_error e = {0};
        while ((n = edan_mg_trace_next(tr, buf, BATCH, err)) > 0)
            if (edan_mg_table_add(t, buf, (size_t)n, &e)) {
                edan_error_set(err, "%s:%s", trace_path, e.msg);
                n = -1;
                break;
            }
        edan_mg_trace_close(tr);
        if (n < 0)
            return -1;
        if (edan_mg_table_end(t, &e)) {
            edan_error_set(err, "%s: %s", trace_path, e.msg);
            return -1;
        }
    }
    return 0;
}

edan_mg_table_stats edan_mg_table_get_stats(const edan_mg_table *t)
{
    return t->st;
}

/* ---- the table ---------------------------------------------------------------------------------- */

/* One cell: MemGaze writes setw(16) << left << value, a double as %g (six digits). */
static void cell_g(FILE *f, double v)
{
    char b[40];
    snprintf(b, sizeof b, "%g", v);
    fprintf(f, "%-16s", b);
}

static const char *const COLUMNS[] = {"LVL",
                                      "Number_of_Nodes",
                                      "Multiplier",
                                      "Window_Size",
                                      "FP",
                                      "Strided_FP",
                                      "Indirect_FP",
                                      "Constant_Loads",
                                      "Unknown",
                                      "Total_Loads",
                                      "Cont2Load_ratio",
                                      "NPF_Rate",
                                      "NPF_Growth_Rate",
                                      "Growth_Rate"};

int edan_mg_table_write(const edan_mg_table *t, FILE *f)
{
    if (t->pass != 3)
        return -1;
    for (size_t i = 0; i < sizeof COLUMNS / sizeof *COLUMNS; i++)
        fprintf(f, "%-16s", COLUMNS[i]);
    fputc('\n', f);
    const double m = t->st.multiplier;
    for (int key = 0; key < EDAN_MG_LEVELS; key++) {
        const edan_mg_level *lv = &t->levels[key];
        if (!lv->nodes)
            continue;
        /* MemGaze keeps these sums in doubles; below 2^53 they are the same integers */
        const double n = (double)lv->nodes, ws = (double)lv->size, fp = (double)lv->fp, c = (double)lv->skipped;
        const double unknown = lv->share[0], strided = lv->share[1], indirect = lv->share[2];
        fprintf(f, "%-16d%-16llu", key, (unsigned long long)lv->nodes);
        /* a level whose last visited node lies inside a sample is shown unscaled (MemGaze's IN_SAMPLE) */
        if (!lv->in_sample) {
            cell_g(f, m);
            cell_g(f, (ws / n) * m);
            cell_g(f, (fp / n) * m);
            cell_g(f, (strided / n) * m);
            cell_g(f, (indirect / n) * m);
            cell_g(f, (c / n) * m);
            cell_g(f, (unknown / n) * m);
            cell_g(f, ((ws + c) / n) * m);
        } else {
            fprintf(f, "%-16d", 1);
            cell_g(f, ws / n);
            cell_g(f, fp / n);
            cell_g(f, strided / n);
            cell_g(f, indirect / n);
            cell_g(f, c / n);
            cell_g(f, unknown / n);
            cell_g(f, (ws + c) / n);
        }
        /* the ratios scale both sides by the multiplier, whichever way the row was shown */
        cell_g(f, ((c / n) * m) / (((ws + c) / n) * m));
        cell_g(f, indirect / fp);
        cell_g(f, ((indirect / n) * m) / ((ws / n) * m));
        cell_g(f, ((fp / n) * m) / ((ws / n) * m));
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
