#include "report/dot.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cache.h"

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

/* A reader list node: readers since the last write of a register or byte (false dependencies only). */
typedef struct reader_node {
    size_t v, next;
} reader_node;

/* Last writer and readers of one byte of memory. */
typedef struct byte_slot {
    uint64_t addr;
    size_t writer;  /* NONE: never written in the region */
    size_t readers; /* head of a reader list, NONE when empty */
    bool used;
} byte_slot;

/* A candidate predecessor of the vertex being added. */
typedef struct cand {
    size_t from;
    bool false_dep;
} cand;

struct edan_dot {
    edan_lane_config lane;
    bool false_deps, has_cache, finished;
    size_t max_vertices;
    uint64_t seen; /* instructions in the stream, also past max_vertices */
    edan_error err;
    edan_cache cache;

    dot_vertex *v;
    size_t n, cap;
    edan_dot_edge *e;
    size_t n_e, cap_e;

    size_t reg_writer[EDAN_NUM_REGS], reg_readers[EDAN_NUM_REGS];
    reader_node *nodes;
    size_t n_nodes, cap_nodes;
    byte_slot *bytes; /* open addressing, linear probing; capacity a power of two */
    size_t n_bytes, cap_bytes;

    cand *cands;
    size_t n_cands, cap_cands;

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

static size_t byte_hash(uint64_t addr, size_t cap)
{
    return (size_t)((addr * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

/* The slot of addr, or NULL if the byte was never touched. */
static byte_slot *byte_find(edan_dot *d, uint64_t addr)
{
    if (!d->cap_bytes)
        return NULL;
    for (size_t i = byte_hash(addr, d->cap_bytes);; i = (i + 1) & (d->cap_bytes - 1)) {
        byte_slot *s = &d->bytes[i];
        if (!s->used)
            return NULL;
        if (s->addr == addr)
            return s;
    }
}

/* The slot of addr, created if needed; NULL when out of memory. */
static byte_slot *byte_get(edan_dot *d, uint64_t addr)
{
    /* keep the load at most 1/2 so probes stay short */
    if (2 * (d->n_bytes + 1) > d->cap_bytes) {
        size_t cap = d->cap_bytes ? 2 * d->cap_bytes : 1024;
        if (cap > SIZE_MAX / sizeof(byte_slot))
            return NULL;
        byte_slot *nb = calloc(cap, sizeof *nb);
        if (!nb)
            return NULL;
        for (size_t j = 0; j < d->cap_bytes; j++) {
            if (!d->bytes[j].used)
                continue;
            size_t i = byte_hash(d->bytes[j].addr, cap);
            while (nb[i].used)
                i = (i + 1) & (cap - 1);
            nb[i] = d->bytes[j];
        }
        free(d->bytes);
        d->bytes = nb;
        d->cap_bytes = cap;
    }
    size_t i = byte_hash(addr, d->cap_bytes);
    while (d->bytes[i].used) {
        if (d->bytes[i].addr == addr)
            return &d->bytes[i];
        i = (i + 1) & (d->cap_bytes - 1);
    }
    byte_slot *s = &d->bytes[i];
    s->used = true;
    s->addr = addr;
    s->writer = NONE;
    s->readers = NONE;
    d->n_bytes++;
    return s;
}

/* Prepend reader v to the list at *head. */
static bool add_reader(edan_dot *d, size_t *head, size_t v)
{
    if (!grow((void **)&d->nodes, &d->cap_nodes, d->n_nodes + 1, sizeof *d->nodes))
        return false;
    d->nodes[d->n_nodes] = (reader_node){v, *head};
    *head = d->n_nodes++;
    return true;
}

static bool add_cand(edan_dot *d, size_t from, bool false_dep)
{
    if (!grow((void **)&d->cands, &d->cap_cands, d->n_cands + 1, sizeof *d->cands))
        return false;
    d->cands[d->n_cands++] = (cand){from, false_dep};
    return true;
}

static bool add_readers_as_cands(edan_dot *d, size_t head)
{
    for (size_t i = head; i != NONE; i = d->nodes[i].next)
        if (!add_cand(d, d->nodes[i].v, true))
            return false;
    return true;
}

static int cand_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    /* true dependencies first, so the merged edge keeps "true" */
    return (int)x->false_dep - (int)y->false_dep;
}

/* Registers the model tracks: x0 never carries a dependency, and a malformed instruction must not index out of range.
 */
static bool tracked_reg(uint8_t r)
{
    return r != 0 && r < EDAN_NUM_REGS;
}

static bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

/* edan_cache_init trusts its configuration (the parser checks it); a caller's hand-made one must not crash us. */
static bool cache_config_ok(const edan_cache_config *c, edan_error *err)
{
    if (c->n_levels < 0 || c->n_levels > EDAN_CACHE_MAX_LEVELS) {
        edan_error_set(err, "edan dot: %d cache levels (at most %d)", c->n_levels, EDAN_CACHE_MAX_LEVELS);
        return false;
    }
    for (int i = 0; i < c->n_levels; i++) {
        const edan_cache_level_config *l = &c->level[i];
        uint64_t way_bytes = (uint64_t)l->line * l->ways;
        if (!is_pow2(l->size) || !is_pow2(l->line) || l->line < 4 || l->line > (1u << 30) || l->ways == 0 ||
            way_bytes > l->size || !is_pow2(l->size / way_bytes) || l->size / way_bytes * way_bytes != l->size) {
            edan_error_set(err,
                           "edan dot: cache level %d (%" PRIu64 " bytes, %u-byte lines, %u ways) is not a "
                           "power-of-two set-associative cache",
                           i + 1, l->size, l->line, l->ways);
            return false;
        }
    }
    return true;
}

edan_dot *edan_dot_new(const edan_lane_config *lane, bool false_deps, size_t max_vertices, edan_error *err)
{
    if (!lane) {
        edan_error_set(err, "edan dot: no cache and cost model given");
        return NULL;
    }
    if (!cache_config_ok(&lane->cache, err))
        return NULL;
    edan_dot *d = calloc(1, sizeof *d);
    if (!d) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    d->lane = *lane;
    d->false_deps = false_deps;
    d->max_vertices = max_vertices;
    d->has_cache = lane->cache.n_levels > 0;
    if (d->has_cache && edan_cache_init(&d->cache, &lane->cache, err)) {
        free(d);
        return NULL;
    }
    for (int r = 0; r < EDAN_NUM_REGS; r++)
        d->reg_writer[r] = d->reg_readers[r] = NONE;
    return d;
}

void edan_dot_free(edan_dot *d)
{
    if (!d)
        return;
    if (d->has_cache)
        edan_cache_free(&d->cache);
    free(d->v);
    free(d->e);
    free(d->nodes);
    free(d->bytes);
    free(d->cands);
    free(d->path);
    free(d);
}

const edan_error *edan_dot_error(const edan_dot *d)
{
    return &d->err;
}

/* Add one vertex: its edges, its classification and its times. False when out of memory. */
static bool add_vertex(edan_dot *d, const edan_exec *r)
{
    const edan_insn *in = r->insn;
    const size_t v = d->n;
    if (!grow((void **)&d->v, &d->cap, v + 1, sizeof *d->v))
        return false;
    /* mem_size 0 would make the cache walk every line of the address space */
    const bool accessed = in->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS) && in->mem_size > 0;
    const bool rd = accessed && in->mem != EDAN_MEM_STORE;
    const bool wr = accessed && in->mem != EDAN_MEM_LOAD;
    const uint32_t size = in->mem_size;
    const int n_src = in->n_src < EDAN_MAX_SRC ? in->n_src : EDAN_MAX_SRC;
    const bool has_dst = in->n_dst && tracked_reg(in->dst);

    /* Predecessors: true dependencies, then false ones. */
    d->n_cands = 0;
    for (int i = 0; i < n_src; i++)
        if (tracked_reg(in->src[i]) && d->reg_writer[in->src[i]] != NONE)
            if (!add_cand(d, d->reg_writer[in->src[i]], false))
                return false;
    if (rd) {
        for (uint32_t b = 0; b < size; b++) {
            const byte_slot *s = byte_find(d, r->addr + b);
            if (s && s->writer != NONE && !add_cand(d, s->writer, false))
                return false;
        }
    }
    if (d->false_deps) {
        if (has_dst) {
            if (d->reg_writer[in->dst] != NONE && !add_cand(d, d->reg_writer[in->dst], true))
                return false;
            if (!add_readers_as_cands(d, d->reg_readers[in->dst]))
                return false;
        }
        if (wr) {
            for (uint32_t b = 0; b < size; b++) {
                const byte_slot *s = byte_find(d, r->addr + b);
                if (!s)
                    continue;
                if (s->writer != NONE && !add_cand(d, s->writer, true))
                    return false;
                if (!add_readers_as_cands(d, s->readers))
                    return false;
            }
        }
    }
    if (d->n_cands > 1)
        qsort(d->cands, d->n_cands, sizeof *d->cands, cand_cmp);

    /* Classification: the one the analyzer uses. */
    const edan_access_class ac = edan_cache_classify(&d->cache, accessed && d->has_cache, r->addr, size, rd, wr);
    const bool rd_ram = ac.rd_ram, wr_ram = ac.wr_ram;
    dot_vertex *x = &d->v[v];
    memset(x, 0, sizeof *x);
    x->insn = *in;
    x->is_mem = rd_ram || wr_ram;
    x->cost = x->is_mem ? d->lane.cost.alpha : d->lane.cost.cls[in->cls < EDAN_CLASS_COUNT ? in->cls : 0];
    x->best_pred = NONE;

    /* Edges, one per distinct predecessor (sorted, so the earliest comes first). */
    uint64_t md = 0;
    for (size_t i = 0; i < d->n_cands; i++) {
        const cand *c = &d->cands[i];
        if (i > 0 && c->from == d->cands[i - 1].from)
            continue; /* the first of a run is the true one if there is any */
        if (!grow((void **)&d->e, &d->cap_e, d->n_e + 1, sizeof *d->e))
            return false;
        d->e[d->n_e++] = (edan_dot_edge){c->from, v, c->false_dep};
        const dot_vertex *u = &d->v[c->from];
        /* strictly later finish: ties keep the earliest predecessor */
        if (x->best_pred == NONE || u->F > x->S) {
            x->best_pred = c->from;
            x->S = u->F;
        }
        if (u->md > md)
            md = u->md;
    }
    x->F = x->S + x->cost;
    x->md = md + x->is_mem;

    /* Update the last-writer state: readers first, so an instruction that reads and writes a register is its writer. */
    if (d->false_deps)
        for (int i = 0; i < n_src; i++)
            if (tracked_reg(in->src[i]) && !add_reader(d, &d->reg_readers[in->src[i]], v))
                return false;
    if (has_dst) {
        d->reg_writer[in->dst] = v;
        d->reg_readers[in->dst] = NONE;
    }
    if ((d->false_deps && rd) || wr) {
        for (uint32_t b = 0; b < size; b++) {
            byte_slot *s = byte_get(d, r->addr + b);
            if (!s)
                return false;
            if (wr) {
                s->writer = v;
                s->readers = NONE;
            } else if (!add_reader(d, &s->readers, v)) {
                return false;
            }
        }
    }
    d->n++;
    return true;
}

void edan_dot_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_dot *d = ctx;
    for (size_t i = 0; i < n; i++) {
        d->seen++;
        /* Past the limit only count, so the error can say how large the region was. */
        if (d->err.set || d->n >= d->max_vertices || !recs[i].insn)
            continue;
        if (!add_vertex(d, &recs[i]))
            edan_error_set(&d->err, "out of memory for the eDAG picture (%zu vertices, %zu edges)", d->n, d->n_e);
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
    return (edan_consumer){d, edan_dot_consume, edan_dot_finish, NULL};
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
        edan_rv_disas(&x->insn, text, sizeof text);
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
