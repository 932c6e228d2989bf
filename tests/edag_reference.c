#include "edag_reference.h"

#include <stdlib.h>
#include <string.h>

const bool *ref_member = NULL;

/* ---- naive cache: per set a list of lines with last-use timestamps ---- */

typedef struct nline {
    bool valid, dirty;
    uint64_t line;
    uint64_t used;
} nline;

typedef struct nlevel {
    edan_cache_level_config cfg;
    uint64_t sets;
    nline *lines; /* sets * ways */
} nlevel;

typedef struct ncache {
    int n;
    nlevel lv[EDAN_CACHE_MAX_LEVELS];
    uint64_t clock;
    uint64_t hits[EDAN_CACHE_MAX_LEVELS], misses[EDAN_CACHE_MAX_LEVELS];
} ncache;

typedef struct nres {
    bool reads_ram, writes_ram;
    uint64_t ram_bytes;
} nres;

static nline *nfind(ncache *c, int k, uint64_t addr)
{
    nlevel *l = &c->lv[k];
    uint64_t line = addr / l->cfg.line;
    nline *set = &l->lines[(line % l->sets) * l->cfg.ways];
    for (uint32_t w = 0; w < l->cfg.ways; w++)
        if (set[w].valid && set[w].line == line)
            return &set[w];
    return NULL;
}

static void nwrite(ncache *c, int k, uint64_t addr, uint64_t len, nres *r, bool own);

/* Install the line holding addr at level k; a dirty victim is written to level k+1, a clean one made the most
   recently used of the first level below that holds it (gem5's CleanEvict). */
static void ninstall(ncache *c, int k, uint64_t addr, bool dirty, nres *r)
{
    nlevel *l = &c->lv[k];
    uint64_t line = addr / l->cfg.line;
    nline *set = &l->lines[(line % l->sets) * l->cfg.ways];
    nline *victim = NULL;
    for (uint32_t w = 0; w < l->cfg.ways; w++) {
        if (!set[w].valid) {
            victim = &set[w];
            break;
        }
        if (!victim || set[w].used < victim->used)
            victim = &set[w];
    }
    nline old = *victim;
    victim->valid = true;
    victim->dirty = dirty;
    victim->line = line;
    victim->used = ++c->clock;
    if (old.valid && old.dirty) {
        nwrite(c, k + 1, old.line * l->cfg.line, l->cfg.line, r, false);
    } else if (old.valid) {
        for (int b = k + 1; b < c->n; b++) {
            nline *below = nfind(c, b, old.line * l->cfg.line);
            if (below) {
                below->used = ++c->clock;
                break;
            }
        }
    }
}

/* Read the line holding addr from level k downwards; true if it came from RAM. */
static bool nread(ncache *c, int k, uint64_t addr, nres *r)
{
    if (k == c->n) {
        r->ram_bytes += c->lv[c->n - 1].cfg.line;
        return true;
    }
    nline *hit = nfind(c, k, addr);
    c->hits[k] += hit != NULL;
    c->misses[k] += hit == NULL;
    if (hit) {
        hit->used = ++c->clock;
        return false;
    }
    bool ram = nread(c, k + 1, addr, r);
    ninstall(c, k, addr, false, r);
    return ram;
}

static void nwrite(ncache *c, int k, uint64_t addr, uint64_t len, nres *r, bool own)
{
    if (k == c->n) {
        r->ram_bytes += len;
        if (own)
            r->writes_ram = true;
        return;
    }
    nlevel *l = &c->lv[k];
    nline *hit = nfind(c, k, addr);
    /* a level's hits and misses are its demand accesses: a write-back from above (not own) counts neither */
    c->hits[k] += own && hit != NULL;
    c->misses[k] += own && hit == NULL;
    if (hit) {
        hit->used = ++c->clock;
        if (l->cfg.write_back) {
            hit->dirty = true;
            return;
        }
        nwrite(c, k + 1, addr, len, r, own);
        return;
    }
    if (l->cfg.write_allocate) {
        if (nread(c, k + 1, addr, r) && own)
            r->reads_ram = true;
        ninstall(c, k, addr, l->cfg.write_back, r);
        if (l->cfg.write_back)
            return;
    }
    nwrite(c, k + 1, addr, len, r, own);
}

static nres naccess(ncache *c, uint64_t addr, uint32_t size, bool store)
{
    nres r = {false, false, 0};
    uint64_t line = c->lv[0].cfg.line;
    uint64_t a = addr, end = addr + size;
    while (a < end) {
        uint64_t next = (a / line + 1) * line;
        uint64_t stop = next < end ? next : end;
        if (store)
            nwrite(c, 0, a, stop - a, &r, true);
        else if (nread(c, 0, a, &r))
            r.reads_ram = true;
        a = stop;
    }
    return r;
}

/* ---- explicit graph ---- */

static bool reads_reg(const edan_insn *in, uint8_t reg)
{
    for (int i = 0; i < in->n_src; i++)
        if (in->src[i] == reg)
            return true;
    return false;
}

static bool writes_reg(const edan_insn *in, uint8_t reg)
{
    return in->n_dst && in->dst == reg;
}

static bool accessed(const edan_exec *r)
{
    return r->insn->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS);
}
static bool covers(const edan_exec *r, uint64_t byte)
{
    return accessed(r) && byte >= r->addr && byte < r->addr + r->insn->mem_size;
}
static bool reads_byte(const edan_exec *r, uint64_t b)
{
    return covers(r, b) && (r->insn->mem == EDAN_MEM_LOAD || r->insn->mem == EDAN_MEM_AMO);
}
static bool writes_byte(const edan_exec *r, uint64_t b)
{
    return covers(r, b) && (r->insn->mem == EDAN_MEM_STORE || r->insn->mem == EDAN_MEM_AMO);
}

int ref_analyze(const edan_exec *recs, size_t n, const edan_lane_config *lane, bool false_deps, edan_bytes_mode mode,
                uint64_t tau, ref_result *out)
{
    int rc = -1; /* until every metric is computed */
    memset(out, 0, sizeof *out);
    /* adjacency as a dense matrix: fine for small n */
    uint8_t *edge = calloc(n * n + 1, sizeof *edge);
    out->S = calloc(n + 1, sizeof *out->S);
    out->F = calloc(n + 1, sizeof *out->F);
    out->is_mem = calloc(n + 1, sizeof *out->is_mem);
    uint64_t *w = calloc(n + 1, sizeof *w);
    uint64_t *layer = calloc(n + 1, sizeof *layer);
    ncache c = {0};
    c.n = lane->cache.n_levels;
    for (int k = 0; k < c.n; k++) {
        c.lv[k].cfg = lane->cache.level[k];
        c.lv[k].sets = c.lv[k].cfg.size / ((uint64_t)c.lv[k].cfg.line * c.lv[k].cfg.ways);
        c.lv[k].lines = calloc(c.lv[k].sets * c.lv[k].cfg.ways, sizeof(nline));
    }
    for (size_t v = 0; v < n; v++) {
        const edan_exec *rv = &recs[v];
        const edan_insn *in = rv->insn;
        /* true register dependencies */
        for (int s = 0; s < in->n_src; s++)
            for (size_t u = v; u-- > 0;)
                if (writes_reg(recs[u].insn, in->src[s])) {
                    edge[u * n + v] |= 1;
                    break;
                }
        /* true memory dependencies, byte by byte */
        if (accessed(rv) && (in->mem == EDAN_MEM_LOAD || in->mem == EDAN_MEM_AMO))
            for (uint64_t b = rv->addr; b < rv->addr + in->mem_size; b++)
                for (size_t u = v; u-- > 0;)
                    if (writes_byte(&recs[u], b)) {
                        edge[u * n + v] |= 1;
                        break;
                    }
        if (false_deps) {
            if (in->n_dst) {
                for (size_t u = v; u-- > 0;) {
                    if (reads_reg(recs[u].insn, in->dst))
                        edge[u * n + v] |= 2; /* WAR */
                    if (writes_reg(recs[u].insn, in->dst)) {
                        edge[u * n + v] |= 2; /* WAW */
                        break;
                    }
                }
            }
            if (accessed(rv) && (in->mem == EDAN_MEM_STORE || in->mem == EDAN_MEM_AMO))
                for (uint64_t b = rv->addr; b < rv->addr + in->mem_size; b++)
                    for (size_t u = v; u-- > 0;) {
                        if (reads_byte(&recs[u], b))
                            edge[u * n + v] |= 2;
                        if (writes_byte(&recs[u], b)) {
                            edge[u * n + v] |= 2;
                            break;
                        }
                    }
        }
        /* classification */
        bool rd = false, wr = false;
        uint64_t line_bytes = 0;
        if (accessed(rv)) {
            bool r_ = in->mem == EDAN_MEM_LOAD || in->mem == EDAN_MEM_AMO;
            bool w_ = in->mem == EDAN_MEM_STORE || in->mem == EDAN_MEM_AMO;
            if (c.n) {
                if (r_) {
                    nres x = naccess(&c, rv->addr, in->mem_size, false);
                    rd = x.reads_ram;
                    line_bytes += x.ram_bytes;
                }
                if (w_) {
                    nres x = naccess(&c, rv->addr, in->mem_size, true);
                    wr = x.writes_ram || x.reads_ram;
                    line_bytes += x.ram_bytes;
                }
            } else {
                rd = r_;
                wr = w_;
                line_bytes = (rd ? in->mem_size : 0) + (wr ? in->mem_size : 0);
            }
        }
        out->is_mem[v] = rd || wr;
        if (c.n)
            out->ram_bytes += line_bytes;
        if (!ref_member || ref_member[v]) {
            out->ram_loads += rd;
            out->ram_stores += wr;
        }
        w[v] = mode == EDAN_BYTES_LINE ? line_bytes : (uint64_t)(rd ? in->mem_size : 0) + (wr ? in->mem_size : 0);
    }
    /* an edge that is also a true dependency is a true one */
    for (size_t u = 0; u < n; u++)
        for (size_t v = 0; v < n; v++) {
            if (edge[u * n + v] & 1)
                edge[u * n + v] = 1;
            out->n_edges += edge[u * n + v] != 0;
        }
    out->edge = edge;
    out->md = calloc(n + 1, sizeof *out->md);
    for (size_t v = 0; v < n; v++) {
        for (size_t u = 0; u < v; u++)
            if (edge[u * n + v] && out->md[u] > out->md[v])
                out->md[v] = out->md[u];
        out->md[v] += out->is_mem[v];
    }
    /* times */
    for (size_t v = 0; v < n; v++) {
        uint64_t S = 0;
        for (size_t u = 0; u < v; u++)
            if (edge[u * n + v] && out->F[u] > S)
                S = out->F[u];
        uint64_t t = out->is_mem[v] ? lane->cost.alpha : lane->cost.cls[recs[v].insn->cls];
        out->S[v] = S;
        out->F[v] = S + t;
        if (out->F[v] > out->Tinf)
            out->Tinf = out->F[v];
        if (ref_member && !ref_member[v]) {
            w[v] = 0;
            continue;
        }
        out->T1 += t;
        if (out->is_mem[v])
            out->W++;
        else
            out->C += t;
        out->bytes += w[v];
    }
    out->vertices = n;
    for (int k = 0; k < c.n; k++) {
        out->hits[k] = c.hits[k];
        out->misses[k] = c.misses[k];
    }
    /*
     * Layers, from the paper's recursive definition: mem vertex v is "directly
     * reachable" from mem vertex u if a path u -> v has no other mem vertex
     * inside. layer(v) = 1 with no such u, else 1 + max layer(u).
     */
    bool *reach = calloc(n + 1, sizeof *reach);
    bool *counted = calloc(n + 1, sizeof *counted);
    for (size_t v = 0; v < n; v++)
        counted[v] = out->is_mem[v] && (!ref_member || ref_member[v]);
    for (size_t v = 0; v < n; v++) {
        if (!counted[v])
            continue;
        /* walk backwards from v through non-mem vertices */
        memset(reach, 0, (n + 1) * sizeof *reach);
        uint64_t best = 0;
        reach[v] = true;
        for (size_t x = v + 1; x-- > 0;) {
            if (!reach[x])
                continue;
            for (size_t u = 0; u < x; u++) {
                if (!edge[u * n + x] || reach[u])
                    continue;
                if (counted[u]) {
                    if (layer[u] > best)
                        best = layer[u];
                } else {
                    reach[u] = true;
                }
            }
        }
        layer[v] = best + 1;
        if (layer[v] > out->D)
            out->D = layer[v];
        if (layer[v] >= 4096)
            goto too_big;
        out->layer[layer[v]]++;
    }
    /* data movement over time, by definition */
    size_t N = (size_t)((out->Tinf + tau - 1) / tau);
    if (N == 0)
        N = 1;
    if (N > 65536)
        goto too_big;
    out->n_phases = N;
    for (size_t i = 0; i < N; i++)
        for (size_t v = 0; v < n; v++)
            if (out->S[v] <= tau * i && tau * i <= out->F[v])
                out->U[i] += w[v];
    for (size_t v = 0; v < n; v++) {
        size_t i = (size_t)(out->S[v] / tau);
        out->started[i < N ? i : N - 1] += w[v];
    }
    rc = 0;
too_big:
    free(reach);
    free(counted);
    free(w);
    free(layer);
    for (int k = 0; k < c.n; k++)
        free(c.lv[k].lines);
    return rc;
}

void ref_free(ref_result *r)
{
    free(r->S);
    free(r->F);
    free(r->is_mem);
    free(r->md);
    free(r->edge);
    r->S = r->F = r->md = NULL;
    r->is_mem = NULL;
    r->edge = NULL;
}
