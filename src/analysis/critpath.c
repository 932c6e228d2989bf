#include "analysis/critpath.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_BITS 12
#define PAGE (1u << PAGE_BITS)
#define BLOCK_BITS 16
#define BLOCK (1u << BLOCK_BITS)
#define REG_SINK EDAN_NUM_REGS

/* Per guest byte: the last store's finish time, memory depth and vertex (+1; 0 = never written). */
typedef struct cp_page {
    uint64_t page_no;
    uint64_t F[PAGE];
    uint64_t writer[PAGE];
    uint32_t md[PAGE];
} cp_page;

struct edan_critpath {
    edan_lane_config lane;
    edan_cache cache;
    edan_error err;
    /* registers */
    uint64_t regF[EDAN_NUM_REGS + 1], regW[EDAN_NUM_REGS + 1];
    uint32_t regMd[EDAN_NUM_REGS + 1];
    /* pages: open addressing on page number */
    cp_page **pages;
    size_t page_cap, page_used;
    cp_page *last;
    /* the stream so far */
    uint64_t v; /* vertices seen */
    uint64_t best_F, best_F_v, best_md, best_md_v;
    const edan_insn **id_insn;
    size_t id_cap;
    /* spill: per vertex varint(v - predF + 1 | 0), varint(v - predMd + 1 | 0), varint(id << 1 | mem) */
    FILE *spill;
    uint8_t *buf;
    size_t buf_len;
    uint64_t written;
    uint64_t *block_off;
    size_t n_blocks, block_cap;
    /* results */
    edan_path_vertex *span, *chain;
    size_t n_span, n_chain;
    uint64_t tinf, depth;
};

edan_critpath *edan_critpath_new(const edan_lane_config *lane, edan_error *err)
{
    edan_critpath *c = calloc(1, sizeof *c);
    if (!c) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    c->lane = *lane;
    c->page_cap = 1024;
    c->pages = calloc(c->page_cap, sizeof *c->pages);
    c->buf = malloc(1u << 20);
    c->spill = tmpfile();
    if (!c->pages || !c->buf || !c->spill) {
        edan_error_set(err, "cannot create the critical-path spill file: %s", strerror(errno));
        edan_critpath_free(c);
        return NULL;
    }
    if (lane->cache.n_levels && edan_cache_init(&c->cache, &lane->cache, err)) {
        edan_critpath_free(c);
        return NULL;
    }
    return c;
}

void edan_critpath_free(edan_critpath *c)
{
    if (!c)
        return;
    for (size_t i = 0; c->pages && i < c->page_cap; i++)
        free(c->pages[i]);
    free(c->pages);
    free(c->buf);
    if (c->spill)
        fclose(c->spill);
    free(c->block_off);
    free(c->id_insn);
    free(c->span);
    free(c->chain);
    edan_cache_free(&c->cache);
    free(c);
}

const edan_error *edan_critpath_error(const edan_critpath *c)
{
    return &c->err;
}

static size_t page_slot(const edan_critpath *c, uint64_t page_no)
{
    size_t h = (size_t)(page_no * 0x9E3779B97F4A7C15ull) & (c->page_cap - 1);
    while (c->pages[h] && c->pages[h]->page_no != page_no)
        h = (h + 1) & (c->page_cap - 1);
    return h;
}

static cp_page *page_of(edan_critpath *c, uint64_t addr)
{
    uint64_t page_no = addr >> PAGE_BITS;
    if (c->last && c->last->page_no == page_no)
        return c->last;
    size_t h = page_slot(c, page_no);
    if (!c->pages[h]) {
        if ((c->page_used + 1) * 2 > c->page_cap) {
            size_t cap = c->page_cap * 2;
            cp_page **np = calloc(cap, sizeof *np);
            if (!np)
                return NULL;
            cp_page **old = c->pages;
            size_t old_cap = c->page_cap;
            c->pages = np;
            c->page_cap = cap;
            for (size_t i = 0; i < old_cap; i++)
                if (old[i])
                    c->pages[page_slot(c, old[i]->page_no)] = old[i];
            free(old);
            h = page_slot(c, page_no);
        }
        c->pages[h] = calloc(1, sizeof(cp_page));
        if (!c->pages[h])
            return NULL;
        c->pages[h]->page_no = page_no;
        c->page_used++;
    }
    c->last = c->pages[h];
    return c->last;
}

static bool flush_buf(edan_critpath *c)
{
    if (c->buf_len && fwrite(c->buf, 1, c->buf_len, c->spill) != c->buf_len) {
        edan_error_set(&c->err, "cannot write the critical-path spill file: %s", strerror(errno));
        return false;
    }
    c->written += c->buf_len;
    c->buf_len = 0;
    return true;
}

static void put_varint(edan_critpath *c, uint64_t v)
{
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        c->buf[c->buf_len++] = b | (v ? 0x80 : 0);
    } while (v);
}

/* The page holding a guest byte and the byte's index in it; NULL when out of memory (err set). */
static cp_page *byte_at(edan_critpath *c, uint64_t addr, uint32_t *o)
{
    cp_page *pg = page_of(c, addr);
    if (!pg)
        edan_error_set(&c->err, "out of memory");
    *o = (uint32_t)(addr & (PAGE - 1));
    return pg;
}

/* Candidate predecessor: pick the latest finish (F) and the deepest (md); ties keep the first. */
typedef struct pick {
    uint64_t F, fw, md, mw;
} pick;

static inline void consider(pick *p, uint64_t F, uint32_t md, uint64_t writer)
{
    if (!writer)
        return;
    if (!p->fw || F > p->F) {
        p->F = F;
        p->fw = writer;
    }
    if (!p->mw || md > p->md) {
        p->md = md;
        p->mw = writer;
    }
}

static bool step(edan_critpath *c, const edan_exec *r)
{
    const edan_insn *in = r->insn;
    const uint64_t v = c->v;
    if (r->id >= c->id_cap) {
        size_t cap = c->id_cap ? c->id_cap : 1024;
        while (cap <= r->id)
            cap *= 2;
        const edan_insn **n = realloc(c->id_insn, cap * sizeof *n);
        if (!n) {
            edan_error_set(&c->err, "out of memory");
            return false;
        }
        memset(n + c->id_cap, 0, (cap - c->id_cap) * sizeof *n);
        c->id_insn = n;
        c->id_cap = cap;
    }
    c->id_insn[r->id] = in;
    pick p = {0, 0, 0, 0};
    for (int i = 0; i < in->n_src; i++)
        consider(&p, c->regF[in->src[i]], c->regMd[in->src[i]], c->regW[in->src[i]]);
    const bool accessed = in->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS);
    const bool rd = accessed && in->mem != EDAN_MEM_STORE, wr = accessed && in->mem != EDAN_MEM_LOAD;
    if (rd) {
        for (uint32_t b = 0; b < in->mem_size; b++) {
            uint32_t o;
            cp_page *pg = byte_at(c, r->addr + b, &o);
            if (!pg)
                return false;
            consider(&p, pg->F[o], pg->md[o], pg->writer[o]);
        }
    }
    const edan_access_class ac =
        edan_cache_classify(&c->cache, c->lane.cache.n_levels > 0, r->addr, in->mem_size, rd, wr);
    const bool to_ram = ac.rd_ram || ac.wr_ram;
    const uint64_t t = to_ram ? c->lane.cost.alpha : c->lane.cost.cls[in->cls];
    const uint64_t F = (p.fw ? p.F : 0) + t;
    const uint64_t md = (p.mw ? p.md : 0) + to_ram;
    if (md > UINT32_MAX) {
        edan_error_set(&c->err, "memory depth exceeds %u: not supported", UINT32_MAX);
        return false;
    }
    if (F > c->best_F || v == 0) {
        c->best_F = F;
        c->best_F_v = v;
    }
    if (to_ram && md > c->best_md) {
        c->best_md = md;
        c->best_md_v = v;
    }
    if (in->n_dst) {
        c->regF[in->dst] = F;
        c->regMd[in->dst] = (uint32_t)md;
        c->regW[in->dst] = v + 1;
    }
    if (wr) {
        for (uint32_t b = 0; b < in->mem_size; b++) {
            uint32_t o;
            cp_page *pg = byte_at(c, r->addr + b, &o);
            if (!pg)
                return false;
            pg->F[o] = F;
            pg->md[o] = (uint32_t)md;
            pg->writer[o] = v + 1;
        }
    }
    /* spill */
    if ((v & (BLOCK - 1)) == 0) {
        if (!flush_buf(c))
            return false;
        if (c->n_blocks == c->block_cap) {
            size_t cap = c->block_cap ? c->block_cap * 2 : 64;
            uint64_t *n = realloc(c->block_off, (cap + 1) * sizeof *n);
            if (!n) {
                edan_error_set(&c->err, "out of memory");
                return false;
            }
            c->block_off = n;
            c->block_cap = cap;
        }
        c->block_off[c->n_blocks++] = c->written;
    }
    if (c->buf_len > (1u << 20) - 32 && !flush_buf(c))
        return false;
    put_varint(c, p.fw ? v - (p.fw - 1) : 0);
    put_varint(c, p.mw ? v - (p.mw - 1) : 0);
    put_varint(c, (uint64_t)r->id << 1 | to_ram);
    c->v++;
    return true;
}

void edan_critpath_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_critpath *c = ctx;
    for (size_t i = 0; i < n && !c->err.set; i++)
        step(c, &recs[i]);
}

/* One decoded spill block. */
typedef struct block {
    size_t b, n;
    uint64_t *predF, *predMd;
    uint64_t *idmem;
} block;

static bool get_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;
}

static bool load_block(edan_critpath *c, block *bl, size_t b)
{
    if (bl->n && bl->b == b)
        return true;
    uint64_t start = c->block_off[b], end = b + 1 < c->n_blocks ? c->block_off[b + 1] : c->written;
    size_t len = (size_t)(end - start);
    uint8_t *raw = malloc(len ? len : 1);
    if (!raw || fseeko(c->spill, (off_t)start, SEEK_SET) || fread(raw, 1, len, c->spill) != len) {
        free(raw);
        edan_error_set(&c->err, "cannot read the critical-path spill file back");
        return false;
    }
    const uint8_t *p = raw, *e = raw + len;
    size_t n = 0;
    while (p < e && n < BLOCK) {
        if (!get_varint(&p, e, &bl->predF[n]) || !get_varint(&p, e, &bl->predMd[n]) ||
            !get_varint(&p, e, &bl->idmem[n])) {
            free(raw);
            edan_error_set(&c->err, "the critical-path spill file is corrupt");
            return false;
        }
        n++;
    }
    free(raw);
    bl->b = b;
    bl->n = n;
    return true;
}

/* Walk back from vertex `from`, following the F (by_md false) or md predecessors. */
static bool walk(edan_critpath *c, block *bl, uint64_t from, bool by_md, edan_path_vertex **out, size_t *n_out)
{
    size_t cap = 1024, n = 0;
    edan_path_vertex *path = malloc(cap * sizeof *path);
    if (!path)
        return false;
    uint64_t v = from;
    for (;;) {
        if (!load_block(c, bl, (size_t)(v >> BLOCK_BITS))) {
            free(path);
            return false;
        }
        size_t i = (size_t)(v & (BLOCK - 1));
        if (n == cap) {
            cap *= 2;
            edan_path_vertex *np = realloc(path, cap * sizeof *np);
            if (!np) {
                free(path);
                edan_error_set(&c->err, "out of memory");
                return false;
            }
            path = np;
        }
        uint64_t idmem = bl->idmem[i];
        const edan_insn *in = (idmem >> 1) < c->id_cap ? c->id_insn[idmem >> 1] : NULL;
        path[n].index = v;
        path[n].insn = in;
        path[n].mem = idmem & 1;
        path[n].cost = path[n].mem ? c->lane.cost.alpha : in ? c->lane.cost.cls[in->cls] : 0;
        n++;
        uint64_t d = by_md ? bl->predMd[i] : bl->predF[i];
        if (!d || d > v)
            break;
        v -= d;
    }
    for (size_t i = 0; i < n / 2; i++) {
        edan_path_vertex t = path[i];
        path[i] = path[n - 1 - i];
        path[n - 1 - i] = t;
    }
    *out = path;
    *n_out = n;
    return true;
}

int edan_critpath_finish(void *ctx)
{
    edan_critpath *c = ctx;
    if (c->err.set || !flush_buf(c) || fflush(c->spill))
        return -1;
    c->tinf = c->v ? c->best_F : 0;
    c->depth = c->best_md;
    if (!c->v)
        return 0;
    block bl = {0, 0, malloc(BLOCK * sizeof(uint64_t)), malloc(BLOCK * sizeof(uint64_t)),
                malloc(BLOCK * sizeof(uint64_t))};
    bool ok = bl.predF && bl.predMd && bl.idmem;
    ok = ok && walk(c, &bl, c->best_F_v, false, &c->span, &c->n_span);
    if (ok && c->depth) {
        ok = walk(c, &bl, c->best_md_v, true, &c->chain, &c->n_chain);
        /* the part before the chain's first memory access adds nothing to D */
        size_t first = 0;
        while (ok && first < c->n_chain && !c->chain[first].mem)
            first++;
        if (ok && first) {
            memmove(c->chain, c->chain + first, (c->n_chain - first) * sizeof *c->chain);
            c->n_chain -= first;
        }
    }
    free(bl.predF);
    free(bl.predMd);
    free(bl.idmem);
    if (!ok && !c->err.set)
        edan_error_set(&c->err, "out of memory walking the critical path");
    return ok ? 0 : -1;
}

edan_consumer edan_critpath_consumer(edan_critpath *c)
{
    edan_consumer k = {c, edan_critpath_consume, edan_critpath_finish, NULL};
    return k;
}

size_t edan_critpath_span(const edan_critpath *c, const edan_path_vertex **path, uint64_t *tinf)
{
    *path = c->span;
    *tinf = c->tinf;
    return c->n_span;
}

size_t edan_critpath_chain(const edan_critpath *c, const edan_path_vertex **chain, uint64_t *depth)
{
    *chain = c->chain;
    *depth = c->depth;
    return c->n_chain;
}
