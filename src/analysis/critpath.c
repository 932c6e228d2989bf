#include "analysis/critpath.h"

#include "util/varint.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/deps.h"

#define BLOCK_BITS 16
#define BLOCK (1u << BLOCK_BITS)

struct edan_critpath {
    edan_lane_config lane;
    edan_deps *deps; /* the predecessors, times and depths of every vertex */
    edan_error err;
    const edan_insn **id_insn;
    size_t id_cap;
    /* spill: per vertex varint(v - crit + 1 | 0), varint(v - deep + 1 | 0), varint(id << 1 | mem) */
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

edan_critpath *edan_critpath_new(const edan_lane_config *lane, bool false_deps, edan_error *err)
{
    edan_critpath *c = calloc(1, sizeof *c);
    if (!c) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    c->lane = *lane;
    c->buf = malloc(1u << 20);
    c->spill = tmpfile();
    if (!c->buf || !c->spill) {
        edan_error_set(err, "cannot create the critical-path spill file: %s", strerror(errno));
        edan_critpath_free(c);
        return NULL;
    }
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
    free(c->buf);
    if (c->spill)
        fclose(c->spill);
    free(c->block_off);
    free(c->id_insn);
    free(c->span);
    free(c->chain);
    free(c);
}

const edan_error *edan_critpath_error(const edan_critpath *c)
{
    return &c->err;
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
    c->buf_len = (size_t)(edan_varint_put(c->buf + c->buf_len, v) - c->buf);
}

static bool step(edan_critpath *c, const edan_exec *r)
{
    const edan_insn *in = r->insn;
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
    /* the eDAG's schedule: every vertex starts when its critical predecessor finishes */
    edan_deps_info info;
    if (edan_deps_step(c->deps, r, &info)) {
        c->err = *edan_deps_error(c->deps);
        return false;
    }
    const uint64_t v = info.v;
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
    put_varint(c, info.crit ? v - (info.crit - 1) : 0);
    put_varint(c, info.deep ? v - (info.deep - 1) : 0);
    put_varint(c, (uint64_t)r->id << 1 | info.mem);
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
    const int n = edan_varint_get(*p, end, out);
    if (n <= 0)
        return false;
    *p += n;
    return true;
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
        path[n].cost = path[n].mem ? c->lane.cost.alpha
                       : in        ? c->lane.cost.cls[in->cls < EDAN_CLASS_COUNT ? in->cls : 0]
                                   : 0;
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
    if (c->err.set || !flush_buf(c))
        return -1;
    if (fflush(c->spill)) {
        edan_error_set(&c->err, "cannot write the critical-path spill file: %s", strerror(errno));
        return -1;
    }
    const edan_deps_totals *tot = edan_deps_totals_get(c->deps);
    c->tinf = tot->Tinf;
    c->depth = tot->D;
    if (!tot->vertices)
        return 0;
    block bl = {0, 0, malloc(BLOCK * sizeof(uint64_t)), malloc(BLOCK * sizeof(uint64_t)),
                malloc(BLOCK * sizeof(uint64_t))};
    bool ok = bl.predF && bl.predMd && bl.idmem;
    ok = ok && walk(c, &bl, tot->tinf_v, false, &c->span, &c->n_span);
    if (ok && c->depth) {
        ok = walk(c, &bl, tot->depth_v, true, &c->chain, &c->n_chain);
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
