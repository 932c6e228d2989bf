#include "report/dot.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/deps/deps.h"
#include "isa/native.h"

#define NONE SIZE_MAX

/*
 * Per-vertex data. The instruction is copied: the producer's code table may
 * be gone by the time the picture is written.
 */
typedef struct dot_vertex {
    edan_insn insn;
    uint64_t cost, S, F, md;
    size_t best_pred; /* the earliest predecessor with the latest finish, NONE for an input */
    bool is_mem;
    bool on_path;
} dot_vertex;

struct edan_dot {
    bool false_deps, finished;
    size_t max_vertices;
    uint64_t seen; /* instructions in the stream, also past max_vertices */
    edan_error err;
    edan_deps *deps; /* every predecessor of every vertex, its times and depth */

    dot_vertex *v;
    size_t n, cap;
    edan_dot_edge *e;
    size_t n_e, cap_e;

    size_t *path;
    size_t path_len;
    edan_dot_stats stats;
};

/* Grow *p (elements of size sz) to hold at least need; false on overflow or out of memory. */
static bool grow(void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 64;
    while (c < need) {
        if (c > SIZE_MAX / 2 / sz)
            return false;
        c *= 2;
    }
    void *q = realloc(*p, c * sz);
    if (!q)
        return false;
    *p = q;
    *cap = c;
    return true;
}

edan_dot *edan_dot_new(const edan_lane_config *lane, bool false_deps, size_t max_vertices, edan_error *err)
{
    edan_dot *d = calloc(1, sizeof *d);
    if (!d) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    d->false_deps = false_deps;
    d->max_vertices = max_vertices;
    d->deps = edan_deps_new(lane, false_deps, EDAN_DEPS_ALL_PREDS, err);
    if (!d->deps) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        edan_error_clear(err); /* the first error wins: this one says where it came from */
        edan_error_set(err, "edan dot: %.1000s", msg);
        free(d);
        return NULL;
    }
    return d;
}

void edan_dot_free(edan_dot *d)
{
    if (!d)
        return;
    edan_deps_free(d->deps);
    free(d->v);
    free(d->e);
    free(d->path);
    free(d);
}

const edan_error *edan_dot_error(const edan_dot *d)
{
    return &d->err;
}

/* Add one vertex: its edges (one per predecessor, ascending), classification and times. False on failure. */
static bool add_vertex(edan_dot *d, const edan_exec *r)
{
    const size_t v = d->n;
    if (!grow((void **)&d->v, &d->cap, v + 1, sizeof *d->v))
        return false;
    edan_deps_info info;
    if (edan_deps_step(d->deps, r, &info))
        return false;
    if (!grow((void **)&d->e, &d->cap_e, d->n_e + info.n_preds, sizeof *d->e))
        return false;
    for (size_t i = 0; i < info.n_preds; i++)
        d->e[d->n_e++] = (edan_dot_edge){(size_t)info.preds[i].v, v, info.preds[i].false_dep};
    dot_vertex *x = &d->v[v];
    memset(x, 0, sizeof *x);
    x->insn = *r->insn;
    x->is_mem = info.mem;
    x->cost = info.cost;
    x->S = info.ready;
    x->F = info.ready + info.cost;
    x->md = info.md;
    x->best_pred = info.crit ? (size_t)(info.crit - 1) : NONE;
    d->n++;
    return true;
}

static void consume_measured(void *ctx, const edan_exec *recs, size_t n);

static void warm(void *ctx, const edan_exec *recs, size_t n)
{
    edan_deps_warm(((edan_dot *)ctx)->deps, recs, n);
}

void edan_dot_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_exec_split(recs, n, ctx, consume_measured, warm);
}

static void consume_measured(void *ctx, const edan_exec *recs, size_t n)
{
    edan_dot *d = ctx;
    for (size_t i = 0; i < n; i++) {
        d->seen++;
        /* Past the limit only count, so the error can say how large the region was. */
        if (d->err.set || d->n >= d->max_vertices || !recs[i].insn)
            continue;
        if (!add_vertex(d, &recs[i])) {
            if (edan_deps_error(d->deps)->set)
                d->err = *edan_deps_error(d->deps);
            else
                edan_error_set(&d->err, "out of memory for the eDAG picture (%zu vertices, %zu edges)", d->n, d->n_e);
        }
    }
}

int edan_dot_finish(void *ctx)
{
    edan_dot *d = ctx;
    if (!d->err.set && d->seen > d->max_vertices)
        edan_error_set(&d->err,
                       "the traced region has %" PRIu64 " instructions, more than edan dot draws "
                       "(--max-vertices=%zu): narrow it with --filter=FUNCTION, or raise --max-vertices",
                       d->seen, d->max_vertices);
    if (d->err.set)
        return -1;
    if (d->finished)
        return 0;
    edan_dot_stats *st = &d->stats;
    memset(st, 0, sizeof *st);
    st->vertices = d->n;
    st->edges = d->n_e;
    size_t end = NONE;
    for (size_t i = 0; i < d->n; i++) {
        const dot_vertex *x = &d->v[i];
        st->T1 += x->cost;
        st->W += x->is_mem;
        if (x->md > st->D)
            st->D = x->md;
        /* the earliest vertex that finishes last ends the path */
        if (end == NONE || x->F > st->Tinf) {
            end = i;
            st->Tinf = x->F;
        }
    }
    for (size_t i = 0; i < d->n_e; i++)
        st->false_edges += d->e[i].false_dep;
    if (end != NONE) {
        size_t len = 0;
        for (size_t i = end; i != NONE; i = d->v[i].best_pred)
            len++;
        d->path = malloc(len * sizeof *d->path);
        if (!d->path) {
            edan_error_set(&d->err, "out of memory for the critical path");
            return -1;
        }
        d->path_len = len;
        for (size_t i = end; i != NONE; i = d->v[i].best_pred) {
            d->path[--len] = i;
            d->v[i].on_path = true;
        }
    }
    d->finished = true;
    return 0;
}

edan_consumer edan_dot_consumer(edan_dot *d)
{
    return (edan_consumer){d, edan_dot_consume, edan_dot_finish, NULL, edan_deps_cached(d->deps)};
}

size_t edan_dot_critical_path(const edan_dot *d, const size_t **path, uint64_t *length)
{
    bool ok = d->finished && !d->err.set;
    if (path)
        *path = ok ? d->path : NULL;
    if (length)
        *length = ok ? d->stats.Tinf : 0;
    return ok ? d->path_len : 0;
}

const edan_dot_stats *edan_dot_stats_get(const edan_dot *d)
{
    return &d->stats;
}

size_t edan_dot_edges(const edan_dot *d, const edan_dot_edge **edges)
{
    if (edges)
        *edges = d->e;
    return d->n_e;
}

bool edan_dot_vertex(const edan_dot *d, size_t v, edan_dot_vertex_info *out)
{
    if (v >= d->n)
        return false;
    const dot_vertex *x = &d->v[v];
    *out = (edan_dot_vertex_info){x->cost, x->S, x->F, x->md, x->is_mem};
    return true;
}

/* Write s as the inside of a DOT string: quotes and backslashes escaped, newlines as \n, other controls dropped. */
static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c >= 0x20 && c != 0x7f) {
            fputc(c, f);
        }
    }
}

int edan_dot_write(const edan_dot *d, FILE *f, const char *title)
{
    if (!d->finished || d->err.set)
        return -1;
    const edan_dot_stats *st = &d->stats;
    fputs("digraph edag {\n", f);
    fputs("    rankdir=TB;\n", f);
    fputs("    labelloc=t;\n", f);
    fputs("    label=\"", f);
    if (title && *title) {
        put_escaped(f, title);
        fputs("\\n", f);
    }
    fprintf(f,
            "T1 = %" PRIu64 ", T_inf = %" PRIu64 ", W = %" PRIu64 ", D = %" PRIu64
            "\\nred: memory access, bold: a critical path%s\";\n",
            st->T1, st->Tinf, st->W, st->D, d->false_deps ? ", dashed: false dependency" : "");
    fputs("    node [shape=box, fontname=\"monospace\", style=filled, fillcolor=white];\n", f);
    for (size_t i = 0; i < d->n; i++) {
        const dot_vertex *x = &d->v[i];
        char text[160];
        edan_isa_disas(&x->insn, text, sizeof text);
        fprintf(f, "    v%zu [label=\"%zu: ", i, i);
        put_escaped(f, text);
        fputc('"', f);
        if (x->is_mem)
            fputs(", fillcolor=\"#e34a33\", fontcolor=white", f);
        if (x->on_path)
            fputs(", penwidth=3", f);
        fputs("];\n", f);
    }
    for (size_t i = 0; i < d->n_e; i++) {
        const edan_dot_edge *e = &d->e[i];
        /* the path follows best_pred links, so an edge is on it when its head is and it is that link */
        bool bold = d->v[e->to].on_path && d->v[e->to].best_pred == e->from;
        fprintf(f, "    v%zu -> v%zu", e->from, e->to);
        if (e->false_dep || bold) {
            fprintf(f, " [%s%s%s]", e->false_dep ? "style=dashed" : "", e->false_dep && bold ? ", " : "",
                    bold ? "penwidth=3" : "");
        }
        fputs(";\n", f);
    }
    fputs("}\n", f);
    return ferror(f) || fflush(f) ? -1 : 0;
}
