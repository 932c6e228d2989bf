#include "analysis/critpath/critpath.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/deps/deps.h"
#include "isa/native.h"

/*
 * The spill file: blocks of BLOCK vertices (the last one shorter), each a
 * header then its vertices' links (deps.h: a tag byte for most vertices).
 * Header: the offset + 1 of the previous block's header (0 for the first
 * block), the length of the links, the number of vertices, and the offset
 * of each chunk of CHUNK vertices within the links. A chunk's links are
 * encoded afresh (its first vertex after none), so one decodes alone. The
 * walk goes backwards, so a block needs only the link to the one before
 * it: no table of blocks in memory.
 */
#define CHUNK_BITS 8
#define CHUNK (1u << CHUNK_BITS)
#define BLOCK_BITS 16
#define BLOCK (1u << BLOCK_BITS)
#define CHUNKS (BLOCK / CHUNK)

typedef struct block_header {
    uint64_t prev;              /* offset + 1 of the previous block's header, 0 = none */
    uint32_t data_len;          /* bytes of links after the header */
    uint32_t n;                 /* vertices, 1..BLOCK */
    uint32_t chunk_off[CHUNKS]; /* offsets in the links */
} block_header;

/* One decoded chunk. */
typedef struct chunk {
    uint64_t index; /* global chunk number (v >> CHUNK_BITS), UINT64_MAX = none */
    uint64_t dc[CHUNK], dd[CHUNK];
    uint64_t addr[CHUNK]; /* by_bytes: the vertex's access address, else UINT64_MAX */
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
    edan_path_insn *by_id; /* an entry per static id (edan_deps_ids()) */
    uint64_t vertices, mems;
    /* the chain: what the walk passed since its last memory access, dropped if it meets none */
    edan_path_insn *pend; /* as many, or NULL for the critical path */
    uint32_t *touched;    /* ids with a nonzero pend entry */
    size_t n_touched;
    uint64_t pend_vertices;
} sums;

struct edan_critpath {
    edan_lane_config lane;
    bool data;
    edan_deps *deps; /* the links of every vertex; the instruction of each static id (edan_deps_insn()) */
    edan_error err;
    /* spill writer: wbuf holds the current block's links; prev_id: the last vertex's id (deps.h) */
    FILE *spill;
    int fd;
    uint8_t *wbuf;
    size_t wlen;
    block_header whdr;
    uint32_t prev_id;
    uint64_t written, last_off; /* last_off: offset + 1 of the last block written, 0 = none */
    uint64_t n_blocks;
    bool finished;
    /* results */
    edan_path_sum span, chain;
    edan_path_insn *span_insns, *chain_insns;
};

edan_critpath *edan_critpath_new(const edan_lane_config *lane, bool false_deps, bool data, edan_error *err)
{
    edan_critpath *c = calloc(1, sizeof *c);
    if (!c) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    c->lane = *lane;
    c->data = data;
    c->wbuf = malloc((size_t)BLOCK * EDAN_DEPS_LINK_MAX);
    c->spill = tmpfile();
    if (!c->wbuf || !c->spill) {
        edan_error_set(err, "cannot create the critical-path spill file: %s", strerror(errno));
        edan_critpath_free(c);
        return NULL;
    }
    c->fd = fileno(c->spill);
    c->deps = edan_deps_new(lane, data ? false : false_deps, data ? EDAN_DEPS_DATA : 0, err);
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
    free(c->span_insns);
    free(c->chain_insns);
    free(c);
}

bool edan_critpath_is_data(const edan_critpath *c)
{
    return c->data;
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

/*
 * The tracker a chunk's run at a time, its links straight into the block
 * being built: a chunk's links start afresh (prev_id none), and a block
 * full of vertices goes to the file when the next one begins.
 */
static void consume_measured(void *ctx, const edan_exec *recs, size_t n);

static void warm(void *ctx, const edan_exec *recs, size_t n)
{
    edan_deps_warm(((edan_critpath *)ctx)->deps, recs, n);
}

void edan_critpath_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_exec_split(recs, n, ctx, consume_measured, warm);
}

static void consume_measured(void *ctx, const edan_exec *recs, size_t n)
{
    edan_critpath *c = ctx;
    for (size_t at = 0; at < n && !c->err.set;) {
        const uint64_t v = edan_deps_totals_get(c->deps)->vertices;
        const uint32_t in_block = (uint32_t)(v & (BLOCK - 1));
        if ((in_block & (CHUNK - 1)) == 0) {
            if (in_block == 0 && v && !flush_block(c, BLOCK))
                return;
            c->whdr.chunk_off[in_block >> CHUNK_BITS] = (uint32_t)c->wlen;
            c->prev_id = UINT32_MAX;
        }
        const size_t left = CHUNK - (in_block & (CHUNK - 1)), m = n - at < left ? n - at : left;
        uint8_t *p = c->wbuf + c->wlen;
        const size_t done = edan_deps_steps_links(c->deps, recs + at, m, &p, &c->prev_id);
        c->wlen = (size_t)(p - c->wbuf);
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
    if (rd->hdr.n == 0 || rd->hdr.n > BLOCK || (size_t)rd->hdr.data_len > (size_t)BLOCK * EDAN_DEPS_LINK_MAX)
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
    edan_deps_link l = {0}; /* l.addr: the last by-bytes vertex's, from one vertex to the next (deps.h) */
    for (uint32_t i = 0; i < n; i++) {
        const size_t len = edan_deps_link_get(p, end, prev_id, &l);
        if (!len)
            return corrupt(c);
        p += len;
        ch->dc[i] = l.dc;
        ch->dd[i] = l.dd;
        ch->id[i] = prev_id = l.id;
        ch->mem[i] = l.mem;
        ch->addr[i] = l.by_bytes ? l.addr : UINT64_MAX;
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
    const edan_insn *succ; /* the vertex visited before, v's successor on the path (NULL: none yet) */
    uint64_t succ_addr;    /* its access address when bytes may carry its link, else UINT64_MAX */
    sums *s;               /* or NULL: fn */
    void (*fn)(void *ctx, const edan_path_vertex *); /* or NULL: s */
    void *ctx;
} walker;

/* ---- carriers ---- */

static void carrier_reg(edan_path_carrier *c, uint8_t isa, uint8_t r)
{
    c->reg_links++;
    c->isa = isa;
    if (r < EDAN_NUM_REGS)
        c->regs[r / 64] |= 1ull << (r % 64);
}

static void carrier_bytes(edan_path_carrier *c, uint64_t lo, uint64_t hi, uint64_t links)
{
    if (!c->byte_links || lo < c->lo)
        c->lo = lo;
    if (!c->byte_links || hi > c->hi)
        c->hi = hi;
    c->byte_links += links;
}

void edan_path_carrier_merge(edan_path_carrier *into, const edan_path_carrier *from)
{
    bool any = false;
    for (int i = 0; i < EDAN_PATH_REG_WORDS; i++) {
        into->regs[i] |= from->regs[i];
        any |= from->regs[i] != 0;
    }
    if (any)
        into->isa = from->isa;
    into->reg_links += from->reg_links;
    if (from->byte_links)
        carrier_bytes(into, from->lo, from->hi, from->byte_links);
    into->other_links += from->other_links;
}

/* Whether insn writes register r (its destination or a further one). */
static bool writes_reg(const edan_insn *in, uint8_t r)
{
    if (in->n_dst && in->dst == r)
        return true;
    for (int i = 0; i < in->n_more_dst && in->n_more_src + i < EDAN_MAX_MORE; i++)
        if (in->more[in->n_more_src + i] == r)
            return true;
    return false;
}

/*
 * What carries the link from u to its successor on the path, s (its access at s_addr, or UINT64_MAX): into c.
 * data: a path of the data eDAG, where a register s read may stand for u through address bookkeeping (critpath.h).
 */
static void carrier_of(edan_path_carrier *c, const edan_insn *u, const edan_insn *s, uint64_t s_addr, bool data)
{
    const int n_src = s->n_src < EDAN_MAX_SRC ? s->n_src : EDAN_MAX_SRC;
    const uint8_t sp = edan_isa_sp(u->isa);
    uint8_t found = 0;
    for (int i = 0; i < n_src + s->n_more_src && (!found || found == sp); i++) {
        const uint8_t r = i < n_src ? s->src[i] : s->more[i - n_src];
        if (r && writes_reg(u, r) && !(data && r == sp)) /* the data eDAG: the stack pointer carries nothing */
            found = r;
    }
    for (int i = 0; data && !found && s_addr == UINT64_MAX && i < n_src + s->n_more_src; i++) {
        const uint8_t r = i < n_src ? s->src[i] : s->more[i - n_src];
        if (r && r != edan_isa_sp(s->isa))
            found = r;
    }
    if (found)
        carrier_reg(c, u->isa, found);
    else if (s_addr != UINT64_MAX)
        carrier_bytes(c, s_addr, s_addr + s->mem_size, 1);
    else
        c->other_links++;
}

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
        edan_path_carrier_merge(&e->carrier, &p->carrier);
        p->vertices = p->cycles = 0;
        memset(&p->carrier, 0, sizeof p->carrier);
    }
    s->vertices += s->pend_vertices;
    s->pend_vertices = 0;
    s->n_touched = 0;
}

/* Vertex w->v (static id, a memory-access vertex or not; its access address when bytes may carry its link). */
static void visit(edan_critpath *c, walker *w, uint32_t id, bool mem, uint64_t addr)
{
    const edan_insn *in = edan_deps_insn(c->deps, id);
    const uint64_t cost =
        edan_rule_cost(mem, c->lane.cost.alpha, in ? c->lane.cost.cls[in->cls < EDAN_CLASS_COUNT ? in->cls : 0] : 0);
    edan_path_carrier link = {0};
    if (in && w->succ)
        carrier_of(&link, in, w->succ, w->succ_addr, c->data);
    w->succ = in;
    w->succ_addr = addr;
    if (w->fn) {
        const edan_path_vertex pv = {w->v, in, cost, mem, addr};
        w->fn(w->ctx, &pv);
        return;
    }
    sums *s = w->s;
    if (!s->pend || mem) {
        if (s->pend)
            take_pending(s);
        add(&s->by_id[id], cost, mem);
        edan_path_carrier_merge(&s->by_id[id].carrier, &link);
        s->vertices++;
        s->mems += mem;
        return;
    }
    edan_path_insn *p = &s->pend[id];
    if (!p->vertices)
        s->touched[s->n_touched++] = id;
    add(p, cost, false);
    edan_path_carrier_merge(&p->carrier, &link);
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
        if (rd.ch.id[i] >= edan_deps_ids(c->deps)) {
            ok = corrupt(c);
            break;
        }
        visit(c, at, rd.ch.id[i], rd.ch.mem[i], rd.ch.addr[i]);
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
    const size_t ids = edan_deps_ids(c->deps);
    size_t m = 0;
    for (size_t id = 0; id < ids; id++)
        m += s->by_id[id].vertices != 0;
    edan_path_insn *e = malloc((m ? m : 1) * sizeof *e);
    if (!e)
        return false;
    m = 0;
    for (size_t id = 0; id < ids; id++)
        if (s->by_id[id].vertices) {
            e[m] = s->by_id[id];
            e[m++].insn = edan_deps_insn(c->deps, (uint32_t)id);
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
    const size_t n = edan_deps_ids(c->deps) ? edan_deps_ids(c->deps) : 1;
    sp.by_id = calloc(n, sizeof *sp.by_id);
    ch.by_id = calloc(n, sizeof *ch.by_id);
    ch.pend = calloc(n, sizeof *ch.pend);
    ch.touched = malloc(n * sizeof *ch.touched);
    bool ok = sp.by_id && ch.by_id && ch.pend && ch.touched;
    walker w[2] = {{tot->tinf_v, true, false, NULL, UINT64_MAX, &sp, NULL, NULL},
                   {tot->depth_v, tot->D > 0, true, NULL, UINT64_MAX, &ch, NULL, NULL}};
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
    walker w = {chain ? tot->depth_v : tot->tinf_v, true, chain, NULL, UINT64_MAX, NULL, fn, ctx};
    return run_walks(c, &w, 1) ? 0 : -1;
}

edan_consumer edan_critpath_consumer(edan_critpath *c)
{
    edan_consumer k = {c, edan_critpath_consume, edan_critpath_finish, NULL, edan_deps_cached(c->deps)};
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
