/*
 * projection_tool.c - the projection tool (--projection with --machine):
 * ExaSAT's machine-model projection from the dynamic trace. Per static
 * instruction it counts executions and, for memory instructions, the LRU
 * stack distances and write-backs of their accesses to the machine's
 * lines (every fully associative cache size at once, analysis/projection/projection.h)
 * and the traffic of each --cache configuration under the cache model;
 * calls into libm's transcendentals are recognised by the callee's symbol,
 * and what they execute is charged to the call site, apart. After the
 * stream, projection_rows.c adds the instructions up per loop
 * (analysis/loops/loops.h), per function and in all; the report gives ExaSAT's
 * bounds on the machine, the sweep its Table 1 for many machines.
 *
 * The hot path: a table lookup per record, one stack-distance access per
 * block an access touches, the cache models; memory grows only with new
 * static instructions and distinct blocks.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/projection/projection.h"
#include "config/machine_file.h"
#include "isa/native.h"
#include "isa/riscv_ops.h"
#include "tool/base/base.h"
#include "tool/graph/edag_tool.h"
#include "tool/graph/functions_tool.h"
#include "tool/graph/projection_tool.h"
#include "tool/graph/timing_tool.h"
#include "util/grow.h"
#include "util/parse.h"

/* ===================================================================== */
/* Options                                                                */
/* ===================================================================== */

static int check_dim(int d, const char *v, edan_error *err)
{
    proj_dim *tmp = malloc(sizeof *tmp);
    if (!tmp) {
        edan_error_set(err, "out of memory");
        return -1;
    }
    const int rc = proj_dim_parse(d, v, tmp, err);
    free(tmp);
    return rc;
}

static int check_cache(const char *v, edan_error *err)
{
    return check_dim(0, v, err);
}
static int check_bandwidth(const char *v, edan_error *err)
{
    return check_dim(1, v, err);
}
static int check_peak(const char *v, edan_error *err)
{
    return check_dim(2, v, err);
}
static int check_cores(const char *v, edan_error *err)
{
    return check_dim(3, v, err);
}
static int check_div(const char *v, edan_error *err)
{
    return check_dim(4, v, err);
}
static int check_sqrt(const char *v, edan_error *err)
{
    return check_dim(5, v, err);
}
static int check_transcendental(const char *v, edan_error *err)
{
    return check_dim(6, v, err);
}

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "projection", NULL, NULL) > 0;
}

/* ===================================================================== */
/* Static instructions                                                    */
/* ===================================================================== */

/* The libm kind of the function that starts at pc (any of its aliases), or 0. */
static uint8_t libm_entry(const proj_tool *t, uint64_t pc)
{
    if (!t->have_elf)
        return EDAN_LIBM_NONE;
    const edan_elf_func *f = edan_elf_func_at(&t->elf, pc);
    if (!f || f->start != pc)
        return EDAN_LIBM_NONE;
    /* aliases share the start: sorted by start, they are neighbours */
    size_t i = (size_t)(f - t->elf.funcs);
    while (i > 0 && t->elf.funcs[i - 1].start == pc)
        i--;
    for (; i < t->elf.n_funcs && t->elf.funcs[i].start == pc; i++) {
        const int k = edan_opmix_libm_kind(t->elf.funcs[i].symbol); /* the symbol as linked, not demangled */
        if (k)
            return (uint8_t)k;
    }
    return EDAN_LIBM_NONE;
}

/* The entry of static id (decided at its first sight); NULL when out of memory. */
static proj_id *id_of(proj_tool *t, const edan_exec *r)
{
    if (r->id >= t->ids_cap) {
        if (r->id >= EDAN_LRU_OWNERS) {
            edan_error_set(&t->err, "more than %u static instructions: beyond what the projection serves",
                           EDAN_LRU_OWNERS);
            return NULL;
        }
        const size_t cap = edan_grow_cap(t->ids_cap, r->id);
        proj_id *m = edan_grow_zeroed(t->ids, t->ids_cap, cap, sizeof *m);
        if (!m)
            return NULL;
        t->ids = m;
        t->ids_cap = cap;
    }
    proj_id *s = &t->ids[r->id];
    if (!s->seen) {
        s->seen = 1;
        s->insn = r->insn;
        s->fp_kind = (uint8_t)edan_opmix_fp_kind(r->insn);
        s->stack = edan_opmix_stack(r->insn);
        s->libm = libm_entry(t, r->insn->pc);
        if (r->insn->flow == EDAN_FLOW_CALL && r->insn->op == EDAN_OP_JAL)
            s->libm_call = libm_entry(t, r->insn->pc + (uint64_t)r->insn->imm);
    }
    return s;
}

/* ---- maps of key pairs ---------------------------------------------- */

static size_t map_hash(uint32_t a, uint32_t b)
{
    return (size_t)((a * 0x9E3779B1u) ^ (b * 0x85EBCA77u));
}

/* The value of (a, b), 0 when absent. */
static uint32_t map_get(const proj_map *m, uint32_t a, uint32_t b)
{
    if (!m->cap)
        return 0;
    for (size_t h = map_hash(a, b) & (m->cap - 1);; h = (h + 1) & (m->cap - 1)) {
        const proj_map_entry *e = &m->e[h];
        if (!e->v || (e->a == a && e->b == b))
            return e->v;
    }
}

/* Set (a, b), absent, to v (nonzero); false when out of memory. */
static bool map_put(proj_map *m, uint32_t a, uint32_t b, uint32_t v)
{
    if (2 * (m->n + 1) > m->cap) {
        const size_t cap = m->cap ? 2 * m->cap : 1024;
        proj_map_entry *e = calloc(cap, sizeof *e);
        if (!e)
            return false;
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->e[i].v)
                continue;
            size_t h = map_hash(m->e[i].a, m->e[i].b) & (cap - 1);
            while (e[h].v)
                h = (h + 1) & (cap - 1);
            e[h] = m->e[i];
        }
        free(m->e);
        m->e = e;
        m->cap = cap;
    }
    size_t h = map_hash(a, b) & (m->cap - 1);
    while (m->e[h].v)
        h = (h + 1) & (m->cap - 1);
    m->e[h] = (proj_map_entry){a, b, v};
    m->n++;
    return true;
}

/* The memory statistics of (id, region), found or made: an index into t->mem, or UINT32_MAX (out of memory). */
static __attribute__((noinline)) uint32_t pair_find(proj_tool *t, uint32_t id, uint32_t region)
{
    uint32_t v = map_get(&t->pairs, id, region);
    if (!v) {
        if (t->n_mem + 1 >= EDAN_LRU_OWNERS) {
            edan_error_set(&t->err, "more than %u instructions and regions: beyond what the projection serves",
                           EDAN_LRU_OWNERS);
            return UINT32_MAX;
        }
        if (t->n_mem == t->mem_cap) {
            const size_t cap = t->mem_cap ? 2 * t->mem_cap : 256;
            proj_mem *m = edan_grow_zeroed(t->mem, t->mem_cap, cap, sizeof *m);
            if (!m)
                return UINT32_MAX;
            t->mem = m;
            const size_t per = 3 * (size_t)t->n_models;
            uint64_t *b = per ? edan_grow_zeroed(t->model_bytes, t->mem_cap * per, cap * per, sizeof *b) : NULL;
            if (per && !b)
                return UINT32_MAX;
            t->model_bytes = b;
            t->mem_cap = cap;
        }
        v = (uint32_t)t->n_mem + 1;
        if (!map_put(&t->pairs, id, region, v))
            return UINT32_MAX;
        t->mem[v - 1].id = id;
        t->mem[v - 1].region = region;
        t->n_mem++;
    }
    t->ids[id].mem = v;
    return v - 1;
}

/* One more execution of id inside a libm call from call site site (found or made); false when out of memory. */
static __attribute__((noinline)) bool incall_find(proj_tool *t, uint32_t id, uint32_t site)
{
    uint32_t v = map_get(&t->incalls, id, site);
    if (!v) {
        if (t->n_incall == t->incall_cap) {
            const size_t cap = t->incall_cap ? 2 * t->incall_cap : 256;
            proj_incall *m = edan_grow_zeroed(t->incall, t->incall_cap, cap, sizeof *m);
            if (!m)
                return false;
            t->incall = m;
            t->incall_cap = cap;
        }
        v = (uint32_t)t->n_incall + 1;
        if (!map_put(&t->incalls, id, site, v))
            return false;
        t->incall[v - 1] = (proj_incall){id, site, 0};
        t->n_incall++;
    }
    t->ids[id].incall = v;
    t->incall[v - 1].executions++;
    return true;
}

static inline bool incall_count(proj_tool *t, uint32_t id, uint32_t site)
{
    const uint32_t v = t->ids[id].incall;
    if (v && t->incall[v - 1].site == site) {
        t->incall[v - 1].executions++;
        return true;
    }
    return incall_find(t, id, site);
}

/* The pair of (id, region): the one id used last, most often. */
static inline uint32_t pair_of(proj_tool *t, uint32_t id, uint32_t region)
{
    const uint32_t e = t->ids[id].mem;
    if (e && t->mem[e - 1].region == region)
        return e - 1;
    return pair_find(t, id, region);
}

/* The call-site statistics of id, made when missing; NULL when out of memory. */
static proj_call *call_of(proj_tool *t, uint32_t id)
{
    proj_id *s = &t->ids[id];
    if (!s->call) {
        if (t->n_calls == t->calls_cap) {
            const size_t cap = t->calls_cap ? 2 * t->calls_cap : 64;
            proj_call *m = edan_grow_zeroed(t->calls, t->calls_cap, cap, sizeof *m);
            if (!m)
                return NULL;
            t->calls = m;
            t->calls_cap = cap;
        }
        s->call = (uint32_t)++t->n_calls;
    }
    return &t->calls[s->call - 1];
}

/* ===================================================================== */
/* The stream                                                             */
/* ===================================================================== */

/* The region of address a accessed by static instruction s: the stack, the one s touched last, or a search. */
static inline uint32_t region_at(proj_tool *t, proj_id *s, uint64_t a)
{
    if (a >= t->regions.stack_lo && a < t->regions.stack_hi)
        return EDAN_REGION_STACK;
    if (a >= s->region_lo && a < s->region_hi)
        return s->region;
    uint64_t lo, hi;
    const uint32_t g = edan_proj_region_of(&t->regions, a, &lo, &hi);
    if (g != EDAN_REGION_STACK) {
        s->region = g;
        s->region_lo = lo;
        s->region_hi = hi;
    }
    return g;
}

/* One access of r, charged to id charge (own: r's own instruction). False when out of memory. */
static bool access(proj_tool *t, const edan_exec *r, uint32_t charge, bool own)
{
    const edan_insn *in = r->insn;
    proj_id *s = &t->ids[r->id];
    if (s->stack)
        edan_proj_regions_sp(&t->regions, r->addr, in->mem_size);
    const uint32_t p0 = pair_of(t, charge, region_at(t, s, r->addr));
    if (p0 == UINT32_MAX)
        return false;
    t->ids[charge].accesses += own;
    const bool rd = in->mem != EDAN_MEM_STORE, wr = in->mem != EDAN_MEM_LOAD;
    proj_mem *m0 = &t->mem[p0];
    m0->loads += rd;
    m0->stores += wr;
    m0->load_bytes += rd ? in->mem_size : 0;
    m0->store_bytes += wr ? in->mem_size : 0;
    const unsigned sh = t->line_shift;
    const uint64_t first = r->addr >> sh, last = (r->addr + in->mem_size - 1) >> sh;
    for (uint64_t b = first;; b++) {
        const uint32_t p = b == first ? p0 : pair_of(t, charge, region_at(t, s, b << sh));
        if (p == UINT32_MAX)
            return false;
        uint64_t d = EDAN_REUSE_COLD, prev;
        uint32_t *word;
        if (edan_reuse_access_user(t->tracker, b, &d, &prev, &word) == EDAN_REUSE_NOMEM)
            return false;
        edan_lru_traffic *lru = &t->mem[p].lru;
        lru->accesses++;
        if (d == EDAN_REUSE_COLD)
            lru->cold++;
        else
            lru->reuse[edan_lru_bin(d)]++;
        const edan_lru_wb wb = edan_lru_step(word, d, wr, p);
        if (wb.lo < wb.hi) /* charged to the pair of the store that made the line dirty */
            edan_lru_charge(&t->mem[wb.owner].lru, wb.lo, wb.hi);
        if (b == last)
            break;
    }
    if (!t->n_models)
        return true; /* no --cache: the LRU curve is the traffic */
    uint64_t *bytes = t->model_bytes + (size_t)p0 * 3 * (size_t)t->n_models;
    for (int c = 0; c < t->n_models; c++) {
        if (!t->model_has_cache[c]) { /* no cache: every byte read or written is memory traffic */
            bytes[c] += rd ? in->mem_size : 0;
            bytes[t->n_models + c] += wr ? in->mem_size : 0;
            continue;
        }
        edan_cache *cc = &t->model[c];
        const uint64_t r0 = cc->ram_read_bytes, w0 = cc->ram_write_bytes;
        edan_cache_classify(cc, true, r->addr, in->mem_size, rd, wr);
        bytes[c] += cc->ram_read_bytes - r0;
        bytes[t->n_models + c] += cc->ram_write_bytes - w0;
    }
    return true;
}

/*
 * A call of a libm function of kind k from the previous record; entered:
 * its instructions follow (else the callee is not traced: --exclude-callees).
 * False when out of memory.
 */
static bool libm_call(proj_tool *t, uint8_t k, bool entered)
{
    proj_call *c = call_of(t, t->prev_id);
    if (!c)
        return false;
    if (k == EDAN_LIBM_SQRT)
        c->sqrt_calls++;
    else
        c->transcendentals++;
    t->inside = entered;
    t->call_site = t->prev_id;
    t->call_depth = 0;
    return true;
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    proj_tool *t = ctx;
    if (t->err.set)
        return;
    if (edan_loops_observe(t->loops, recs, n)) {
        edan_error_set(&t->err, "out of memory finding loops");
        return;
    }
    if (t->whatif && proj_whatif_observe(t->whatif, recs, n)) {
        edan_error_set(&t->err, "out of memory recovering access functions");
        return;
    }
    const unsigned sh = t->line_shift;
    for (size_t i = 0; i < n; i++) {
        if (i + 8 < n && recs[i + 8].insn->mem != EDAN_MEM_NONE) /* overlap the tracker's table misses */
            edan_reuse_prefetch(t->tracker, recs[i + 8].addr >> sh);
        const edan_exec *r = &recs[i];
        proj_id *s = id_of(t, r);
        bool ok = s != NULL;
        if (ok && !t->inside && s->libm && t->have_prev)
            ok = libm_call(t, s->libm, true);
        else if (ok && !t->inside && t->prev_call)
            ok = libm_call(t, t->prev_call, false);
        uint32_t charge = r->id;
        const bool in_call = ok && t->inside;
        if (in_call) {
            /* inside a libm call: charged to the call site, apart from the operation counts */
            charge = t->call_site;
            ok = incall_count(t, r->id, charge);
            proj_call *c = &t->calls[t->ids[charge].call - 1];
            c->in_calls++;
            c->in_calls_flops += edan_opmix_kind_flops(s->fp_kind);
            if (r->insn->flow == EDAN_FLOW_CALL)
                t->call_depth++;
            else if (r->insn->flow == EDAN_FLOW_RETURN && t->call_depth)
                t->call_depth--;
            else if (r->insn->flow == EDAN_FLOW_RETURN)
                t->inside = false; /* the libm function's own return */
        } else if (ok) {
            s->executions++;
        }
        t->prev_id = r->id;
        t->have_prev = true;
        t->prev_call = ok && !in_call ? s->libm_call : 0;
        if (ok && r->insn->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS) && r->insn->mem_size)
            ok = access(t, r, charge, !in_call);
        if (!ok) {
            if (!t->err.set)
                edan_error_set(&t->err, "out of memory for the projection (%" PRIu64 " distinct blocks)",
                               edan_reuse_blocks(t->tracker));
            return;
        }
    }
}

/* Charge the bytes of block [lo, hi) that model c holds dirty to memory pool entry m (its last store's). */
static void flush_block(proj_tool *t, int c, uint64_t lo, uint64_t hi, uint32_t m)
{
    proj_flush *r = t->flush[c];
    size_t a = 0, b = t->n_flush[c]; /* the first range ending after lo */
    while (a < b) {
        const size_t mid = a + (b - a) / 2;
        if (r[mid].hi <= lo)
            a = mid + 1;
        else
            b = mid;
    }
    uint64_t *flushed = t->model_bytes + (size_t)m * 3 * (size_t)t->n_models + 2 * (size_t)t->n_models + c;
    for (; a < t->n_flush[c] && r[a].lo < hi; a++) {
        const uint64_t x = (r[a].hi < hi ? r[a].hi : hi) - (r[a].lo > lo ? r[a].lo : lo);
        *flushed += x;
        r[a].charged += x;
        if (!r[a].owner)
            r[a].owner = m + 1;
    }
}

/*
 * A block after the stream: its eviction after its last access, or its dirty
 * end, charged to its last store; and the bytes of it each cache model holds
 * dirty, flushed, charged alike.
 */
static void final_block(void *ctx, uint64_t b, uint64_t f, uint32_t word)
{
    proj_tool *t = ctx;
    unsigned dirty_from;
    const edan_lru_wb wb = edan_lru_finish(word, f, &dirty_from);
    if (!(word & EDAN_LRU_DIRTY))
        return;
    const uint32_t m = wb.owner; /* the pair of its last store */
    edan_lru_traffic *owner = &t->mem[m].lru;
    if (wb.lo < wb.hi)
        edan_lru_charge(owner, wb.lo, wb.hi);
    owner->end_diff[dirty_from]++;
    owner->end_diff[EDAN_LRU_SIZES]--;
    for (int c = 0; c < t->n_models; c++)
        if (t->n_flush[c])
            flush_block(t, c, b << t->line_shift, (b + 1) << t->line_shift, m);
}

/* The bytes each cache model holds dirty at the end, to be charged to the stores that made them dirty. */
static bool flush_ranges(proj_tool *t)
{
    for (int c = 0; c < t->n_models; c++) {
        if (!t->model_has_cache[c])
            continue; /* no cache: every store went to memory */
        edan_proj_range *r;
        size_t n;
        if (edan_proj_cache_dirty(&t->model[c], &r, &n))
            return false;
        t->flush[c] = n ? calloc(n, sizeof *t->flush[c]) : NULL;
        if (n && !t->flush[c]) {
            free(r);
            return false;
        }
        for (size_t i = 0; i < n; i++)
            t->flush[c][i] = (proj_flush){r[i].lo, r[i].hi, 0, 0};
        t->n_flush[c] = n;
        free(r);
    }
    return true;
}

static int finish(void *ctx)
{
    proj_tool *t = ctx;
    if (!t->err.set && !flush_ranges(t))
        edan_error_set(&t->err, "out of memory for the projection's final flush");
    if (t->err.set)
        return -1;
    edan_reuse_final(t->tracker, final_block, t);
    /*
     * A model's line wider than the machine's can be dirty in parts no store
     * touched: the whole line is written, charged to a store into it (every
     * dirty line has one: a line becomes dirty only by a store).
     */
    for (int c = 0; c < t->n_models; c++)
        for (size_t i = 0; i < t->n_flush[c]; i++) {
            const proj_flush *r = &t->flush[c][i];
            if (r->owner && r->charged < r->hi - r->lo)
                t->model_bytes[(size_t)(r->owner - 1) * 3 * (size_t)t->n_models + 2 * (size_t)t->n_models + c] +=
                    r->hi - r->lo - r->charged;
        }
    return 0;
}

/* ===================================================================== */
/* The tool                                                               */
/* ===================================================================== */

static void destroy(void *tool)
{
    proj_tool *t = tool;
    if (!t)
        return;
    proj_whatif_free(t->whatif);
    edan_reuse_free(t->tracker);
    edan_loops_free(t->loops);
    edan_proj_regions_free(&t->regions);
    if (t->have_data)
        edan_elf_data_close(&t->data);
    free(t->pairs.e);
    free(t->incalls.e);
    free(t->incall);
    free(t->region_rows);
    for (int c = 0; c < t->n_models; c++) {
        if (t->model_has_cache[c])
            edan_cache_free(&t->model[c]);
        free(t->flush[c]);
    }
    if (t->have_elf)
        edan_elf_close(&t->elf);
    edan_srcmap_close(t->src);
    free(t->ids);
    free(t->mem);
    free(t->model_bytes);
    free(t->calls);
    free(t->funcs);
    free(t->loop_rows);
    free(t);
}

/* --cache's configurations, when given: their traffic is the projection's. */
static int models_init(proj_tool *t, const edan_options *o, edan_error *err)
{
    if (!o->cache_given)
        return 0;
    edan_edag_config cfg;
    if (edan_options_edag_config(o, &cfg, err)) /* the one place --cache=machine is resolved */
        return -1;
    const int per_cache = o->n_alpha > 0 ? o->n_alpha : 1;
    for (int c = 0; c < o->n_cache && c < PROJ_MAX_MODELS; c++) {
        const edan_cache_config *cc = &cfg.lane[c * per_cache].cache;
        edan_cache_config_format(cc, t->model_label[c], sizeof t->model_label[c]);
        t->model_has_cache[c] = cc->n_levels > 0;
        if (t->model_has_cache[c] && edan_cache_init(&t->model[c], cc, err))
            return -1;
        t->n_models = c + 1;
    }
    return 0;
}

static unsigned log2_of(uint64_t v)
{
    return v ? 63u - (unsigned)__builtin_clzll(v) : 0;
}

static void *create(edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    const char *path = edan_options_last(o, "machine");
    if (!path) {
        edan_error_set(err, "--projection needs --machine=FILE: the machine to project onto (machines/*.ini)");
        return NULL;
    }
    proj_tool *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    if (edan_machine_load(path, &t->machine, err)) {
        destroy(t);
        return NULL;
    }
    snprintf(t->machine_path, sizeof t->machine_path, "%s", path);
    const edan_machine *m = &t->machine;
    const edan_machine_cache *llc = &m->data[m->n_data_levels - 1];
    t->line_shift = log2_of(llc->geo.line);
    t->machine_k = log2_of(llc->geo.size) - t->line_shift;
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    t->have_elf = binary && *binary && !edan_elf_open(binary, &t->elf, &ignored);
    if (t->have_elf && !edan_elf_linked_pcs(&t->elf)) {
        edan_elf_close(&t->elf);
        t->have_elf = false;
    }
    t->have_data = t->have_elf && !edan_elf_data_open(binary, &t->data, &ignored);
    if (edan_proj_regions_init(&t->regions, t->have_data ? &t->data : NULL)) {
        edan_error_set(err, "out of memory");
        destroy(t);
        return NULL;
    }
    /* the sweep: every dimension the machine's value unless a list is given */
    const double own[PROJ_SWEEP_DIMS] = {
        (double)llc->geo.size, m->mem_bandwidth_gbs, m->peak_gflops,           (double)m->cores,
        m->div_weight,         m->sqrt_weight,       m->transcendental_weight,
    };
    for (int d = 0; d < PROJ_SWEEP_DIMS; d++) {
        const char *v = edan_options_last(o, proj_dim_option[d]);
        t->dim[d].n = 1;
        t->dim[d].v[0] = own[d];
        if (v && proj_dim_parse(d, v, &t->dim[d], err)) {
            destroy(t);
            return NULL;
        }
    }
    double configs = 1;
    for (int d = 0; d < PROJ_SWEEP_DIMS; d++)
        configs *= t->dim[d].n;
    if (configs > PROJ_SWEEP_MAX) {
        edan_error_set(err, "the projection's sweep has %.0f configurations; at most %d", configs, PROJ_SWEEP_MAX);
        destroy(t);
        return NULL;
    }
    for (int i = 0; i < t->dim[0].n; i++)
        if (t->dim[0].v[i] < (double)llc->geo.line) {
            edan_error_set(err, "--projection-cache: %.0f bytes is less than the machine's %u-byte line",
                           t->dim[0].v[i], llc->geo.line);
            destroy(t);
            return NULL;
        }
    /* one --projection-cache size is the cache the report projects onto; a list is a sweep, for the CSV and plots */
    if (t->dim[0].n == 1 && edan_options_last(o, "projection-cache"))
        t->machine_k = log2_of((uint64_t)t->dim[0].v[0]) - t->line_shift;
    const char *csv = edan_options_last(o, "projection-csv");
    snprintf(t->csv_path, sizeof t->csv_path, "%s", csv ? csv : "");
    csv = edan_options_last(o, "projection-regions-csv");
    snprintf(t->regions_csv, sizeof t->regions_csv, "%s", csv ? csv : "");
    t->tracker = edan_reuse_new(true);
    t->loops = edan_loops_new(t->have_elf ? &t->elf : NULL);
    if (!t->tracker || !t->loops) {
        edan_error_set(err, "out of memory");
        destroy(t);
        return NULL;
    }
    if (models_init(t, o, err) || proj_whatif_new(t, o, err)) {
        destroy(t);
        return NULL;
    }
    return t;
}

static edan_consumer consumer(void *t)
{
    return (edan_consumer){t, consume, finish, NULL, false};
}

static const edan_error *error(const void *t)
{
    return &((const proj_tool *)t)->err;
}

static const edan_tool_option options[] = {
    {"projection", false,
     "  --projection        ExaSAT's projection onto --machine: operation mix, weighted flops,\n"
     "                      DRAM traffic, bytes per flop and T = max(compute, memory) per\n"
     "                      function and loop (docs/projection.md)\n",
     NULL},
    {"projection-csv", EDAN_VALUE_OUTPUT,
     "  --projection-csv=FILE the sweep as CSV, ExaSAT's Table 1 per configuration and loop\n", NULL},
    {"projection-regions-csv", EDAN_VALUE_OUTPUT,
     "  --projection-regions-csv=FILE each memory region (data object, static data, stack,\n"
     "                      heap): accesses, bytes, read/write ratio, lines, working set, DRAM bytes\n",
     NULL},
    {"projection-cache", true,
     "  --projection-cache=LIST cache sizes to sweep (powers of two; A..B doubles) [the\n"
     "                      machine's last level]\n",
     check_cache},
    {"projection-bandwidth", true, "  --projection-bandwidth=LIST memory GB/s per core to sweep [the machine's]\n",
     check_bandwidth},
    {"projection-peak", true, "  --projection-peak=LIST peak Gflop/s per core to sweep [the machine's]\n", check_peak},
    {"projection-cores", true, "  --projection-cores=LIST cores to sweep [the machine's]\n", check_cores},
    {"projection-div", true, "  --projection-div=LIST division weights to sweep [the machine's]\n", check_div},
    {"projection-sqrt", true, "  --projection-sqrt=LIST square-root weights to sweep [the machine's]\n", check_sqrt},
    {"projection-transcendental", true,
     "  --projection-transcendental=LIST transcendental weights to sweep [the machine's]\n", check_transcendental},
    {"what-if", true,
     "  --what-if=block:LEVELS|fuse the traffic and bound of the loop nests blocked (levels from\n"
     "                      1, the outermost) or fused (each pair of nests fused or why not),\n"
     "                      from their affine access functions\n",
     proj_whatif_check},
    {"what-if-tiles", true, "  --what-if-tiles=LIST tile sizes of --what-if=block [4, 8, ... below the trip count]\n",
     proj_whatif_check_tiles},
    {"what-if-registers", true,
     "  --what-if-registers=LIST register counts of ExaSAT's register model per nest [8,16,32]\n",
     proj_whatif_check_regs},
    {"what-if-cache", true,
     "  --what-if-cache=lru|machine the what-if's traffic at --projection-cache's sizes: fully\n"
     "                      associative LRU caches, or the machine's own cache model with its\n"
     "                      last level of each size (at most 16), and in the time the loads'\n"
     "                      wait on it with the machine's prefetchers (lru: ExaSAT's bound only) [lru]\n",
     proj_whatif_check_cache},
    {"what-if-csv", EDAN_VALUE_OUTPUT,
     "  --what-if-csv=FILE  the what-if's rows as CSV, the nests as they ran among them\n", NULL},
    {NULL, false, NULL, NULL},
};

/* the eDAG's bounds, the timing model's prediction and the functions' lambda beside the projection's */
static const edan_tool_def *const uses[] = {&edan_edag_tool, &edan_timing_tool, &edan_functions_tool, NULL};

const edan_tool_def edan_projection_tool = {
    .name = "projection",
    .summary = "ExaSAT's machine-model projection: operation mix, traffic, bounds, sweeps",
    .uses = uses,
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .report = edan_projection_report,
    .tables = edan_projection_tables,
    .outputs = edan_projection_outputs,
    .destroy = destroy,
    .threaded = true,
    .reads_program = true,
};
