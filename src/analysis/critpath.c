#include "analysis/critpath.h"

#include "util/varint.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/deps.h"

/*
 * The spill file: blocks of BLOCK vertices (the last one shorter), each a
 * header then its vertices' records. Header: the offset + 1 of the previous
 * block's header (0 for the first block), the length of the records, the
 * number of vertices, and the offset of each chunk of CHUNK vertices within
 * the records. The walk goes backwards, so a block needs only the link to
 * the one before it: no table of blocks in memory.
 *
 * A vertex's record: a tag byte
 *   bit 0     TAG_MEM   a memory-access vertex
 *   bit 1     TAG_SEQ   its static instruction id is the previous vertex's + 1
 *                       (the previous in its chunk; the first of a chunk: id 0)
 *   bit 2     TAG_SAME  the deep predecessor is the critical one
 *   bits 3-7  dc        the distance v - crit to the critical predecessor
 *                       (0: none, an input, and then no deep one either),
 *                       31: 31 or more, the rest follows as a varint
 * then varint(dc - 31) if dc >= 31, varint(v - deep) unless TAG_SAME,
 * varint(zigzag(id - expected id)) unless TAG_SEQ. Straight-line code whose predecessor is one of
 * the last 30 vertices, the usual case, takes the tag byte alone; chunks
 * start afresh (no state from an earlier vertex), so one decodes alone.
 */
#define CHUNK_BITS 8
#define CHUNK (1u << CHUNK_BITS)
#define BLOCK_BITS 16
#define BLOCK (1u << BLOCK_BITS)
#define CHUNKS (BLOCK / CHUNK)
#define REC_MAX (1 + 3 * EDAN_VARINT_MAX)
#define TAG_MEM 1u
#define TAG_SEQ 2u
#define TAG_SAME 4u
#define TAG_DC_SHIFT 3
#define TAG_DC_ESC 31u
#define LINKS 1024 /* vertices the tracker steps at a time */

typedef struct block_header {
    uint64_t prev;     /* offset + 1 of the previous block's header, 0 = none */
    uint32_t data_len; /* bytes of records after the header */
    uint32_t n;        /* vertices, 1..BLOCK */
    uint32_t chunk_off[CHUNKS];
} block_header;

/* One decoded chunk. */
typedef struct chunk {
    uint64_t index; /* global chunk number (v >> CHUNK_BITS), UINT64_MAX = none */
    uint64_t dc[CHUNK], dd[CHUNK];
    uint32_t id[CHUNK];
    uint8_t mem[CHUNK];
} chunk;

/* Reads the spill backwards: a block at a time, a chunk at a time. */
typedef struct reader {
    uint64_t at_block, at_off; /* a block whose header offset is known (the last one, then earlier ones) */
    uint64_t block;            /* the block in hdr and data, UINT64_MAX = none */
    block_header hdr;
    uint8_t *data;
    size_t data_cap;
    chunk ch;
} reader;

/* A walk's sums per static instruction id. */
typedef struct sums {
    edan_path_insn *by_id; /* id_cap entries */
    uint64_t vertices, mems;
    /* the chain: what the walk passed since its last memory access, dropped if it meets none */
    edan_path_insn *pend; /* id_cap entries, or NULL for the critical path */
    uint32_t *touched;    /* ids with a nonzero pend entry */
    size_t n_touched;
    uint64_t pend_vertices;
} sums;

struct edan_critpath {
    edan_lane_config lane;
    edan_deps *deps; /* the predecessors, times and depths of every vertex */
    edan_error err;
    const edan_insn **id_insn;
    size_t id_cap;
    /* spill writer: wbuf holds the current block's records; prev_id as TAG_SEQ compares */
    FILE *spill;
    int fd;
    uint8_t *wbuf;
    size_t wlen;
    block_header whdr;
    uint32_t prev_id;
    uint64_t written, last_off; /* last_off: offset + 1 of the last block written, 0 = none */
    uint64_t n_blocks;
    bool finished;
    edan_deps_link links[LINKS]; /* one slice's */
    /* results */
    edan_path_sum span, chain;
    edan_path_insn *span_insns, *chain_insns;
};

edan_critpath *edan_critpath_new(const edan_lane_config *lane, bool false_deps, edan_error *err)
{
    edan_critpath *c = calloc(1, sizeof *c);
    if (!c) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    c->lane = *lane;
    c->wbuf = malloc((size_t)BLOCK * REC_MAX);
    c->spill = tmpfile();
    if (!c->wbuf || !c->spill) {
        edan_error_set(err, "cannot create the critical-path spill file: %s", strerror(errno));
        edan_critpath_free(c);
        return NULL;
    }
    c->fd = fileno(c->spill);
    c->deps = edan_deps_new(lane, false_deps, 0, err);
    if (!c->deps) {
        edan_critpath_free(c);
        return NULL;
    }
    return c;
}

void edan_critpath_free(edan_critpath *c)
{
    if (!c)
        return;
    edan_deps_free(c->deps);
    free(c->wbuf);
    if (c->spill)
        fclose(c->spill);
    free(c->id_insn);
    free(c->span_insns);
    free(c->chain_insns);
    free(c);
}

const edan_error *edan_critpath_error(const edan_critpath *c)
{
    return &c->err;
}

uint64_t edan_critpath_spill_bytes(const edan_critpath *c)
{
    return c->written;
}

static bool write_all(edan_critpath *c, const void *p, size_t len)
{
    const char *b = p;
    while (len) {
        ssize_t k = write(c->fd, b, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            edan_error_set(&c->err, "cannot write the critical-path spill file: %s",
                           k < 0 ? strerror(errno) : "no space");
            return false;
        }
        b += k;
        len -= (size_t)k;
        c->written += (uint64_t)k;
    }
    return true;
}

/* The block in wbuf, n vertices, goes to the file. */
static bool flush_block(edan_critpath *c, uint32_t n)
{
    if (!n)
        return true;
    const uint64_t off = c->written;
    c->whdr.prev = c->last_off;
    c->whdr.data_len = (uint32_t)c->wlen;
    c->whdr.n = n;
    if (!write_all(c, &c->whdr, sizeof c->whdr) || !write_all(c, c->wbuf, c->wlen))
        return false;
    c->last_off = off + 1;
    c->n_blocks++;
    c->wlen = 0;
    return true;
}

static __attribute__((noinline)) bool grow_ids(edan_critpath *c, uint32_t id)
{
    size_t cap = c->id_cap ? c->id_cap : 1024;
    while (cap <= id)
        cap *= 2;
    const edan_insn **n = realloc(c->id_insn, cap * sizeof *n);
    if (!n) {
        edan_error_set(&c->err, "out of memory");
        return false;
    }
    memset(n + c->id_cap, 0, (cap - c->id_cap) * sizeof *n);
    c->id_insn = n;
    c->id_cap = cap;
    return true;
}

/*
 * Vertices v, v + 1, ... (records r[0..n), their links l[0..n)) into the
 * block being built. The write position and the previous id stay in locals:
 * every byte stored through the buffer may alias the struct's fields, and
 * reloading them after each store took a third of the spill's time.
 */
static bool encode(edan_critpath *c, uint64_t v, const edan_exec *r, const edan_deps_link *l, size_t n)
{
    uint8_t *p = c->wbuf + c->wlen;
    uint32_t prev = c->prev_id;
    for (size_t i = 0; i < n; i++, v++) {
        const uint32_t in_block = (uint32_t)(v & (BLOCK - 1));
        if (__builtin_expect((in_block & (CHUNK - 1)) == 0, 0)) {
            c->wlen = (size_t)(p - c->wbuf);
            if (in_block == 0 && v && !flush_block(c, BLOCK))
                return false;
            c->whdr.chunk_off[in_block >> CHUNK_BITS] = (uint32_t)c->wlen;
            p = c->wbuf + c->wlen;
            prev = UINT32_MAX; /* a chunk decodes alone */
        }
        /* crit and deep are both 0 (an input) or both not: every predecessor is a candidate for both */
        const uint64_t dc = l[i].crit ? v + 1 - l[i].crit : 0, dd = l[i].deep ? v + 1 - l[i].deep : 0;
        const uint32_t id = r[i].id;
        const bool seq = id == prev + 1, same = dd == dc;
        *p++ = (uint8_t)((l[i].mem ? TAG_MEM : 0) | (seq ? TAG_SEQ : 0) | (same ? TAG_SAME : 0) |
                         (dc < TAG_DC_ESC ? dc : TAG_DC_ESC) << TAG_DC_SHIFT);
        if (dc >= TAG_DC_ESC)
            p = edan_varint_put(p, dc - TAG_DC_ESC);
        if (!same)
            p = edan_varint_put(p, dd);
        if (!seq) /* a loop's back edge: a short jump back */
            p = edan_varint_put(p, edan_zigzag((int64_t)id - (int64_t)(uint32_t)(prev + 1)));
        prev = id;
    }
    c->wlen = (size_t)(p - c->wbuf);
    c->prev_id = prev;
    return true;
}

void edan_critpath_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_critpath *c = ctx;
    /* the tracker a slice at a time (its links), then the slice's records into the spill */
    for (size_t at = 0; at < n && !c->err.set;) {
        const size_t m = n - at < LINKS ? n - at : LINKS;
        const edan_exec *r = recs + at;
        for (size_t i = 0; i < m; i++) {
            if (r[i].id >= c->id_cap && !grow_ids(c, r[i].id))
                return;
            c->id_insn[r[i].id] = r[i].insn;
        }
        const uint64_t v0 = edan_deps_totals_get(c->deps)->vertices;
        const size_t done = edan_deps_steps(c->deps, r, m, c->links);
        if (!encode(c, v0, r, c->links, done))
            return;
        if (done < m) {
            c->err = *edan_deps_error(c->deps);
            return;
        }
        at += m;
    }
}

/* ---- reading the spill back ---- */

static bool read_at(edan_critpath *c, void *buf, size_t len, uint64_t off)
{
    char *b = buf;
    while (len) {
        ssize_t k = pread(c->fd, b, len, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            edan_error_set(&c->err, "cannot read the critical-path spill file back: %s",
                           k < 0 ? strerror(errno) : "it is shorter than written");
            return false;
        }
        b += k;
        len -= (size_t)k;
        off += (uint64_t)k;
    }
    return true;
}

static void reader_init(edan_critpath *c, reader *rd)
{
    memset(rd, 0, sizeof *rd);
    rd->at_block = c->n_blocks - 1;
    rd->at_off = c->last_off - 1;
    rd->block = UINT64_MAX;
    rd->ch.index = UINT64_MAX;
}

static bool corrupt(edan_critpath *c)
{
    edan_error_set(&c->err, "the critical-path spill file is corrupt");
    return false;
}

/* Block b (at or before the reader's known block) into rd->hdr and rd->data. */
static bool load_block(edan_critpath *c, reader *rd, uint64_t b)
{
    if (b > rd->at_block)
        return corrupt(c); /* the walks only go backwards */
    while (rd->at_block > b) {
        uint64_t prev;
        if (!read_at(c, &prev, sizeof prev, rd->at_off))
            return false;
        if (!prev || prev - 1 >= rd->at_off)
            return corrupt(c);
        rd->at_off = prev - 1;
        rd->at_block--;
    }
    if (!read_at(c, &rd->hdr, sizeof rd->hdr, rd->at_off))
        return false;
    if (rd->hdr.n == 0 || rd->hdr.n > BLOCK || (size_t)rd->hdr.data_len > (size_t)BLOCK * REC_MAX)
        return corrupt(c);
    if (rd->hdr.data_len > rd->data_cap) {
        uint8_t *d = realloc(rd->data, rd->hdr.data_len);
        if (!d) {
            edan_error_set(&c->err, "out of memory reading the critical-path spill file");
            return false;
        }
        rd->data = d;
        rd->data_cap = rd->hdr.data_len;
    }
    if (!read_at(c, rd->data, rd->hdr.data_len, rd->at_off + sizeof rd->hdr))
        return false;
    rd->block = b;
    return true;
}

static bool get_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    const int n = edan_varint_get(*p, end, out);
    if (n <= 0)
        return false;
    *p += n;
    return true;
}

/* Chunk k of the loaded block into rd->ch. */
static bool decode_chunk(edan_critpath *c, reader *rd, uint32_t k)
{
    const block_header *h = &rd->hdr;
    const uint32_t first = k << CHUNK_BITS;
    if (first >= h->n)
        return corrupt(c);
    const uint32_t n = h->n - first < CHUNK ? h->n - first : CHUNK;
    const uint32_t from = h->chunk_off[k], to = first + CHUNK < h->n ? h->chunk_off[k + 1] : h->data_len;
    if (from > to || to > h->data_len)
        return corrupt(c);
    const uint8_t *p = rd->data + from, *end = rd->data + to;
    chunk *ch = &rd->ch;
    uint32_t prev_id = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (p >= end)
            return corrupt(c);
        const unsigned tag = *p++;
        uint64_t dc = tag >> TAG_DC_SHIFT, x;
        if (dc == TAG_DC_ESC) {
            if (!get_varint(&p, end, &x) || x > UINT64_MAX - TAG_DC_ESC)
                return corrupt(c);
            dc += x;
        }
        ch->dc[i] = dc;
        if (tag & TAG_SAME) {
            ch->dd[i] = dc;
        } else if (!get_varint(&p, end, &ch->dd[i])) {
            return corrupt(c);
        }
        int64_t id = (int64_t)(uint32_t)(prev_id + 1);
        if (!(tag & TAG_SEQ)) {
            if (!get_varint(&p, end, &x) || x >> 33)
                return corrupt(c);
            id += edan_unzigzag(x); /* |delta| <= 2^32 */
            if (id < 0 || id > UINT32_MAX)
                return corrupt(c);
        }
        ch->id[i] = prev_id = (uint32_t)id;
        ch->mem[i] = tag & TAG_MEM;
    }
    ch->index = ((uint64_t)rd->block << (BLOCK_BITS - CHUNK_BITS)) + k;
    return true;
}

/* Vertex v's record: *i is its place in rd->ch. */
static bool reader_get(edan_critpath *c, reader *rd, uint64_t v, uint32_t *i)
{
    if (v >> CHUNK_BITS != rd->ch.index) {
        if (v >> BLOCK_BITS != rd->block && !load_block(c, rd, v >> BLOCK_BITS))
            return false;
        if (!decode_chunk(c, rd, (uint32_t)((v & (BLOCK - 1)) >> CHUNK_BITS)))
            return false;
    }
    *i = (uint32_t)(v & (CHUNK - 1));
    return true;
}

/* ---- the walks ---- */

/* A walk in progress: the vertex it is at, which predecessor it follows, and what it does with each vertex. */
typedef struct walker {
    uint64_t v;
    bool live, by_md;
    sums *s;                                         /* or NULL: fn */
    void (*fn)(void *ctx, const edan_path_vertex *); /* or NULL: s */
    void *ctx;
} walker;

static void add(edan_path_insn *e, uint64_t cost, bool mem)
{
    e->vertices++;
    e->cycles += cost;
    e->mems += mem;
}

/* The chain met a memory access: what it passed since the last one is part of it. */
static void take_pending(sums *s)
{
    for (size_t i = 0; i < s->n_touched; i++) {
        edan_path_insn *p = &s->pend[s->touched[i]], *e = &s->by_id[s->touched[i]];
        e->vertices += p->vertices;
        e->cycles += p->cycles;
        p->vertices = p->cycles = 0;
    }
    s->vertices += s->pend_vertices;
    s->pend_vertices = 0;
    s->n_touched = 0;
}

static void visit(edan_critpath *c, walker *w, uint32_t id, bool mem)
{
    const edan_insn *in = id < c->id_cap ? c->id_insn[id] : NULL;
    const uint64_t cost = mem  ? c->lane.cost.alpha
                          : in ? c->lane.cost.cls[in->cls < EDAN_CLASS_COUNT ? in->cls : 0]
                               : 0;
    if (w->fn) {
        const edan_path_vertex pv = {w->v, in, cost, mem};
        w->fn(w->ctx, &pv);
        return;
    }
    sums *s = w->s;
    if (!s->pend || mem) {
        if (s->pend)
            take_pending(s);
        add(&s->by_id[id], cost, mem);
        s->vertices++;
        s->mems += mem;
        return;
    }
    edan_path_insn *p = &s->pend[id];
    if (!p->vertices)
        s->touched[s->n_touched++] = id;
    add(p, cost, false);
    s->pend_vertices++;
}

/*
 * Runs the walks together, always stepping the one at the latest vertex:
 * the reader then only goes backwards, and a block or chunk both walks pass
 * through is read and decoded once.
 */
static bool run_walks(edan_critpath *c, walker *w, int n)
{
    reader rd;
    reader_init(c, &rd);
    bool ok = true;
    for (;;) {
        walker *at = NULL;
        for (int i = 0; i < n; i++)
            if (w[i].live && (!at || w[i].v > at->v))
                at = &w[i];
        if (!at)
            break;
        uint32_t i;
        if (!(ok = reader_get(c, &rd, at->v, &i)))
            break;
        if (rd.ch.id[i] >= c->id_cap) {
            ok = corrupt(c);
            break;
        }
        visit(c, at, rd.ch.id[i], rd.ch.mem[i]);
        const uint64_t d = at->by_md ? rd.ch.dd[i] : rd.ch.dc[i];
        if (!d || d > at->v)
            at->live = false;
        else
            at->v -= d;
    }
    free(rd.data);
    return ok;
}

/* The sums' nonzero entries, by ascending id, as a path sum (malloc'd into *keep). */
static bool compact(edan_critpath *c, const sums *s, uint64_t length, edan_path_sum *out, edan_path_insn **keep)
{
    size_t m = 0;
    for (size_t id = 0; id < c->id_cap; id++)
        m += s->by_id[id].vertices != 0;
    edan_path_insn *e = malloc((m ? m : 1) * sizeof *e);
    if (!e)
        return false;
    m = 0;
    for (size_t id = 0; id < c->id_cap; id++)
        if (s->by_id[id].vertices) {
            e[m] = s->by_id[id];
            e[m++].insn = c->id_insn[id];
        }
    *keep = e;
    *out = (edan_path_sum){length, s->vertices, s->mems, e, m};
    return true;
}

int edan_critpath_finish(void *ctx)
{
    edan_critpath *c = ctx;
    const edan_deps_totals *tot = edan_deps_totals_get(c->deps);
    if (c->err.set)
        return -1;
    if (c->finished) /* again: the results stand */
        return 0;
    c->finished = true;
    if (!flush_block(c, (uint32_t)(tot->vertices - (c->n_blocks << BLOCK_BITS))))
        return -1;
    c->span.length = tot->Tinf;
    c->chain.length = tot->D;
    if (!tot->vertices)
        return 0;
    sums sp = {0}, ch = {0};
    const size_t n = c->id_cap ? c->id_cap : 1;
    sp.by_id = calloc(n, sizeof *sp.by_id);
    ch.by_id = calloc(n, sizeof *ch.by_id);
    ch.pend = calloc(n, sizeof *ch.pend);
    ch.touched = malloc(n * sizeof *ch.touched);
    bool ok = sp.by_id && ch.by_id && ch.pend && ch.touched;
    walker w[2] = {{tot->tinf_v, true, false, &sp, NULL, NULL}, {tot->depth_v, tot->D > 0, true, &ch, NULL, NULL}};
    ok = ok && run_walks(c, w, 2);
    ok = ok && compact(c, &sp, tot->Tinf, &c->span, &c->span_insns);
    ok = ok && compact(c, &ch, tot->D, &c->chain, &c->chain_insns);
    free(sp.by_id);
    free(ch.by_id);
    free(ch.pend);
    free(ch.touched);
    if (!ok && !c->err.set)
        edan_error_set(&c->err, "out of memory walking the critical path");
    return ok ? 0 : -1;
}

int edan_critpath_visit(edan_critpath *c, bool chain, void (*fn)(void *ctx, const edan_path_vertex *v), void *ctx)
{
    if (c->err.set)
        return -1;
    const edan_deps_totals *tot = edan_deps_totals_get(c->deps);
    if (!c->finished) {
        edan_error_set(&c->err, "the critical path is walked only after finish");
        return -1;
    }
    if (!tot->vertices || (chain && !tot->D))
        return 0;
    walker w = {chain ? tot->depth_v : tot->tinf_v, true, chain, NULL, fn, ctx};
    return run_walks(c, &w, 1) ? 0 : -1;
}

edan_consumer edan_critpath_consumer(edan_critpath *c)
{
    edan_consumer k = {c, edan_critpath_consume, edan_critpath_finish, NULL};
    return k;
}

const edan_path_sum *edan_critpath_span(const edan_critpath *c)
{
    return &c->span;
}

const edan_path_sum *edan_critpath_chain(const edan_critpath *c)
{
    return &c->chain;
}
