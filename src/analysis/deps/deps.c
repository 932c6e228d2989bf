#include "analysis/deps/deps.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/deps/deps_internal.h"
#include "analysis/shadow/shadow.h"
#include "isa/native.h"

static bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

/* edan_cache_init trusts its configuration (the option parser checks it); a caller's hand-made one must not crash. */
static bool cache_config_ok(const edan_cache_config *c, edan_error *err)
{
    if (c->n_levels < 0 || c->n_levels > EDAN_CACHE_MAX_LEVELS) {
        edan_error_set(err, "%d cache levels (at most %d)", c->n_levels, EDAN_CACHE_MAX_LEVELS);
        return false;
    }
    for (int i = 0; i < c->n_levels; i++) {
        const edan_cache_level_config *l = &c->level[i];
        uint64_t way_bytes = (uint64_t)l->line * l->ways;
        if (l->size == 0 || !is_pow2(l->line) || l->line < 4 || l->line > (1u << 30) || l->ways == 0 ||
            way_bytes > l->size || !is_pow2(l->size / way_bytes) || l->size / way_bytes * way_bytes != l->size) {
            edan_error_set(err,
                           "cache level %d (%" PRIu64 " bytes, %u-byte lines, %u ways) is not a "
                           "power-of-two set-associative cache",
                           i + 1, l->size, l->line, l->ways);
            return false;
        }
    }
    return true;
}

edan_deps *edan_deps_new(const edan_lane_config *lane, bool false_deps, unsigned flags, edan_error *err)
{
    if (!lane) {
        edan_error_set(err, "no cache and cost model given");
        return NULL;
    }
    if (!cache_config_ok(&lane->cache, err))
        return NULL;
    if ((flags & EDAN_DEPS_TRUE_PREDS) && false_deps) {
        edan_error_set(err, "the dependency tracker lists only true predecessors without false dependencies");
        return NULL;
    }
    if ((flags & EDAN_DEPS_ONLY_PREDS) && !(flags & EDAN_DEPS_TRUE_PREDS)) {
        edan_error_set(err, "the dependency tracker keeps only lists of true predecessors");
        return NULL;
    }
    if ((flags & EDAN_DEPS_DATA) && flags != EDAN_DEPS_DATA) {
        edan_error_set(err, "the dependency tracker's data eDAG lists no predecessors");
        return NULL;
    }
    edan_deps *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    t->lane = *lane;
    t->false_deps = false_deps;
    t->all_preds = flags & EDAN_DEPS_ALL_PREDS;
    t->list_preds = flags & (EDAN_DEPS_ALL_PREDS | EDAN_DEPS_TRUE_PREDS);
    t->only_preds = flags & EDAN_DEPS_ONLY_PREDS;
    t->data = flags & EDAN_DEPS_DATA;
    if (edan_shadow_init_records(&t->shadow, sizeof(deps_write) + (false_deps ? sizeof(deps_reads) : 0))) {
        edan_error_set(err, "out of memory for the dependency tracker's shadow");
        edan_deps_free(t);
        return NULL;
    }
    t->has_cache = lane->cache.n_levels > 0;
    if (t->has_cache && edan_cache_init(&t->cache, &lane->cache, err)) {
        t->has_cache = false;
        edan_deps_free(t);
        return NULL;
    }
    return t;
}

bool edan_deps_cached(const edan_deps *t)
{
    return t->has_cache;
}

void edan_deps_warm(edan_deps *t, const edan_exec *recs, size_t n)
{
    if (t->has_cache)
        edan_cache_warm(&t->cache, recs, n);
}

void edan_deps_free(edan_deps *t)
{
    if (!t)
        return;
    if (t->has_cache)
        edan_cache_free(&t->cache);
    edan_shadow_free(&t->shadow);
    for (size_t i = 0; i < t->n_chunks; i++)
        free(t->chunks[i]);
    free(t->chunks);
    free(t->nodes);
    free(t->cands);
    free(t->ops);
    free(t->book);
    free(t);
}

const edan_deps_totals *edan_deps_totals_get(const edan_deps *t)
{
    return &t->tot;
}

const edan_error *edan_deps_error(const edan_deps *t)
{
    return &t->err;
}

/* ---- memory: units and split records ---- */

/* Only with false_deps: the record has no reads state otherwise. */
static deps_reads *unit_reads(char *unit)
{
    return (deps_reads *)(unit + sizeof(deps_write));
}

/* The split record of a unit, made from its uniform state if it has none; NULL when out of memory (err set). */
static deps_split *split_of(edan_deps *t, char *unit)
{
    deps_write *uw = unit_write(unit);
    if (uw->split)
        return split_get(t, uw->split - 1);
    uint64_t index;
    if (t->split_free) {
        index = t->split_free - 1;
        t->split_free = split_get(t, index)->list[0];
    } else {
        if (t->split_used == t->n_chunks * SPLIT_CHUNK) {
            deps_split **c = realloc(t->chunks, (t->n_chunks + 1) * sizeof *c);
            if (c)
                t->chunks = c;
            if (!c || t->split_used >= UINT32_MAX - SPLIT_CHUNK ||
                !(t->chunks[t->n_chunks] = malloc(SPLIT_CHUNK * sizeof(deps_split)))) {
                edan_error_set(&t->err, "out of memory for split shadow units (%zu)", t->split_used);
                return NULL;
            }
            t->n_chunks++;
        }
        index = t->split_used++;
    }
    deps_split *s = split_get(t, index);
    for (unsigned b = 0; b < EDAN_SHADOW_UNIT; b++) {
        s->w[b] = *uw;
        if (t->false_deps)
            s->r[b] = *unit_reads(unit);
        else
            memset(&s->r[b], 0, sizeof s->r[b]);
        s->list[b] = 0;
    }
    *uw = (deps_write){0, 0, 0, (uint32_t)(index + 1)};
    if (t->false_deps)
        memset(unit_reads(unit), 0, sizeof(deps_reads));
    return s;
}

/*
 * The pieces of an access [addr, addr + size), one per unit it touches: the
 * piece from byte `at` of the access on is bytes [*lo, *hi) of the unit at
 * the address returned. Addresses wrap like the guest's (a malformed record
 * must not crash). Loop: for (at = 0; at < size; at += hi - lo).
 */
static uint64_t piece(uint64_t addr, uint32_t at, uint32_t size, uint32_t *lo, uint32_t *hi)
{
    const uint64_t a = addr + at;
    *lo = (uint32_t)(a & (EDAN_SHADOW_UNIT - 1));
    *hi = size - at < EDAN_SHADOW_UNIT - *lo ? *lo + (size - at) : EDAN_SHADOW_UNIT;
    return a - *lo;
}

/* ---- predecessors ---- */

/* The slow part of add_cand(): more room. */
static __attribute__((noinline)) bool grow_cands(edan_deps *t)
{
    size_t cap = t->cap_cands ? 2 * t->cap_cands : 64;
    edan_deps_pred *n = realloc(t->cands, cap * sizeof *n);
    if (!n) {
        edan_error_set(&t->err, "out of memory for the predecessors of vertex %" PRIu64, t->tot.vertices);
        return false;
    }
    t->cands = n;
    t->cap_cands = cap;
    return true;
}

static inline __attribute__((always_inline)) bool add_cand(edan_deps *t, uint64_t by, bool false_dep)
{
    if (!t->list_preds || !by)
        return true;
    if (t->n_cands == t->cap_cands && !grow_cands(t))
        return false;
    t->cands[t->n_cands++] = (edan_deps_pred){by - 1, false_dep};
    return true;
}

/* The last writer as a predecessor (a true one, or with false_dep a WAW one). */
static inline __attribute__((always_inline)) bool from_write(edan_deps *t, pick *p, const deps_write *w, bool false_dep)
{
    edan_rule_pick_write(p, w->F, w->md, w->by);
    return add_cand(t, w->by, false_dep);
}

/* The readers since the last write as predecessors (WAR); list: the reader list, 0 without ALL_PREDS. */
static bool from_reads(edan_deps *t, pick *p, const deps_reads *r, uint64_t list)
{
    edan_rule_pick_F(p, r->F, r->F_by);
    edan_rule_pick_md(p, r->md, r->md_by);
    for (uint64_t i = list; i; i = t->nodes[i - 1].next)
        if (!add_cand(t, t->nodes[i - 1].v + 1, true))
            return false;
    return true;
}

/* Bytes [lo, hi) of a unit as predecessors: raw, their writers (RAW); war_waw, their writers and readers. */
static bool unit_deps(edan_deps *t, pick *p, char *unit, uint32_t lo, uint32_t hi, bool raw, bool war_waw)
{
    const deps_write *uw = unit_write(unit);
    if (!uw->split)
        return (!raw || from_write(t, p, uw, false)) &&
               (!war_waw || (from_write(t, p, uw, true) && from_reads(t, p, unit_reads(unit), 0)));
    const deps_split *s = split_get(t, uw->split - 1);
    bool ok = true;
    for (uint32_t b = lo; ok && b < hi; b++)
        ok = (!raw || from_write(t, p, &s->w[b], false)) &&
             (!war_waw || (from_write(t, p, &s->w[b], true) && from_reads(t, p, &s->r[b], s->list[b])));
    return ok;
}

static int pred_cmp(const void *a, const void *b)
{
    const edan_deps_pred *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    /* true dependencies first, so the merged predecessor keeps "true" */
    return (int)x->false_dep - (int)y->false_dep;
}

/* Sort the candidates and keep one per vertex: info->preds. */
static void merge_preds(edan_deps *t, edan_deps_info *info)
{
    if (t->n_cands > 16) {
        qsort(t->cands, t->n_cands, sizeof *t->cands, pred_cmp);
    } else {
        /* the usual few candidates (registers and the bytes of one access): an insertion sort, no call per pair */
        for (size_t i = 1; i < t->n_cands; i++) {
            edan_deps_pred x = t->cands[i];
            size_t j = i;
            for (; j > 0 && pred_cmp(&t->cands[j - 1], &x) > 0; j--)
                t->cands[j] = t->cands[j - 1];
            t->cands[j] = x;
        }
    }
    size_t m = 0;
    for (size_t i = 0; i < t->n_cands; i++)
        if (!m || t->cands[m - 1].v != t->cands[i].v)
            t->cands[m++] = t->cands[i];
    t->n_cands = m;
    info->preds = t->cands;
    info->n_preds = m;
}

/* ---- the data eDAG (deps.h) ---- */

/*
 * The class of an instruction first seen (deps.h): data unless it is integer arithmetic that touches no memory;
 * then bookkeeping, or only "maybe" when one of its registers holds data now (a loaded value, a sum's).
 */
static uint8_t book_first(const edan_deps *t, const edan_insn *in)
{
    if (in->mem != EDAN_MEM_NONE || !in->n_dst || (in->native & EDAN_NATIVE_UNDECODED) ||
        !(in->cls == EDAN_CLASS_INT || in->cls == EDAN_CLASS_MUL || in->cls == EDAN_CLASS_DIV))
        return DEPS_BOOK_NO;
    const uint8_t sp = edan_isa_sp(in->isa);
    const int n_src = in->n_src < EDAN_MAX_SRC ? in->n_src : EDAN_MAX_SRC;
    for (int i = 0; i < n_src + in->n_more_src; i++) {
        const uint8_t r = i < n_src ? in->src[i] : in->more[i - n_src];
        const uint32_t w = tracked_reg(r) && r != sp ? t->reg_wid[r] : 0;
        if (w && w != DEPS_WID_UPDATE && t->book[w - 1] == DEPS_BOOK_NO)
            return DEPS_BOOK_MAYBE;
    }
    return DEPS_BOOK_YES;
}

/* The entry of static id in t->book, made (from its instruction, in) on its first sight; NULL when out of memory. */
static uint8_t *book_of(edan_deps *t, uint32_t id, const edan_insn *in)
{
    if (id >= t->n_book) {
        if (id >= DEPS_WID_UPDATE - 1) {
            edan_error_set(&t->err, "static instruction id %" PRIu32 " too large for the data eDAG", id);
            return NULL;
        }
        size_t cap = t->n_book ? t->n_book : 1024;
        while (cap <= id)
            cap *= 2;
        uint8_t *b = realloc(t->book, cap);
        if (!b) {
            edan_error_set(&t->err, "out of memory for the data eDAG's instructions");
            return NULL;
        }
        memset(b + t->n_book, DEPS_BOOK_UNSEEN, cap - t->n_book);
        t->book = b;
        t->n_book = cap;
    }
    if (t->book[id] == DEPS_BOOK_UNSEEN)
        t->book[id] = book_first(t, in);
    return &t->book[id];
}

/*
 * What in's read of register r makes of its writer's instruction (in's own class: self): bookkeeping when r is
 * the base (or the index) of in's access and not also the data it stores, or in is a branch or bookkeeping
 * (DEPS_BOOK_YES); nothing when in may still become bookkeeping (DEPS_BOOK_MAYBE); data otherwise (DEPS_BOOK_NO).
 */
static uint8_t book_use(const edan_insn *in, uint8_t r, uint8_t self)
{
    if (in->mem != EDAN_MEM_NONE &&
        (r == in->mem_index || (r == in->rs1 && !(in->mem != EDAN_MEM_LOAD && r == in->rs2))))
        return DEPS_BOOK_YES;
    if (in->cls == EDAN_CLASS_BRANCH || self == DEPS_BOOK_YES)
        return DEPS_BOOK_YES;
    return self == DEPS_BOOK_MAYBE ? DEPS_BOOK_MAYBE : DEPS_BOOK_NO;
}

/*
 * The data eDAG's reads of registers by rec into *p: the stack pointer is none; a register whose writer is
 * bookkeeping stands for its roots; any other, its last writer. The uses first make their writers' instructions
 * bookkeeping (from "maybe") or data (from anything), so every read of this vertex sees the same classes.
 */
static __attribute__((noinline)) bool data_reads(edan_deps *t, const edan_exec *rec, pick *p)
{
    const edan_insn *in = rec->insn;
    const uint8_t *self = book_of(t, rec->id, in);
    if (!self)
        return false;
    const uint8_t sp = edan_isa_sp(in->isa), cls = *self;
    const int n_src = in->n_src < EDAN_MAX_SRC ? in->n_src : EDAN_MAX_SRC, n = n_src + in->n_more_src;
    for (int i = 0; i < n; i++) {
        const uint8_t r = i < n_src ? in->src[i] : in->more[i - n_src];
        const uint32_t w = tracked_reg(r) && r != sp ? t->reg_wid[r] : 0;
        if (!w || w == DEPS_WID_UPDATE)
            continue;
        const uint8_t use = book_use(in, r, cls);
        if (use == DEPS_BOOK_NO || (use == DEPS_BOOK_YES && t->book[w - 1] == DEPS_BOOK_MAYBE))
            t->book[w - 1] = use;
    }
    for (int i = 0; i < n; i++) {
        const uint8_t r = i < n_src ? in->src[i] : in->more[i - n_src];
        if (!tracked_reg(r) || r == sp)
            continue;
        if (deps_holds_book(t, r)) {
            edan_rule_pick_F(p, t->reg_root[r].F, t->reg_root[r].crit);
            edan_rule_pick_md(p, t->reg_root[r].md, t->reg_root[r].deep);
        } else if (!from_write(t, p, &t->reg_w[r], false)) {
            return false;
        }
    }
    return true;
}

/*
 * The data eDAG's writes of registers by rec (*x: its predecessors): an address update stands for what its
 * register stood for (the stack pointer: nothing), any other destination for rec itself and, while rec's
 * instruction is bookkeeping, for rec's predecessors (its roots). Before the destinations' own writes.
 */
static void data_writes(edan_deps *t, const edan_exec *rec, const edan_deps_info *x)
{
    const edan_insn *in = rec->insn;
    const uint8_t sp = edan_isa_sp(in->isa);
    for (int i = 0; in->addr_dst && i <= in->n_more_dst; i++) {
        const uint8_t r = i ? in->more[in->n_more_src + i - 1] : in->dst, f = edan_insn_addr_from(in, r);
        if (!(in->addr_dst >> i & 1) || !tracked_reg(r) || !tracked_reg(f))
            continue;
        pick q = {0, 0, 0, 0};
        if (f != sp && deps_holds_book(t, f))
            q = t->reg_root[f];
        else if (f != sp)
            q = (pick){t->reg_w[f].F, t->reg_w[f].by, t->reg_w[f].md, t->reg_w[f].by};
        t->reg_root[r] = q;
        t->reg_wid[r] = DEPS_WID_UPDATE;
    }
    for (int i = -1; in->n_dst && i < in->n_more_dst; i++) {
        const uint8_t r = i < 0 ? in->dst : in->more[in->n_more_src + i];
        if (!tracked_reg(r) || (in->addr_dst >> (i + 1) & 1))
            continue;
        t->reg_wid[r] = rec->id + 1;
        t->reg_root[r] = (pick){x->ready, x->crit, x->md, x->deep};
    }
}

/*
 * The work of ready(): *x (every field but preds) for the vertex rec, and whether its access reads and writes
 * memory. always_inline: edan_deps_step() runs it and commit_core() back to back on locals, where the
 * pending copies (t->rec, t->info) written field by field and read back whole stalled on store forwarding.
 */
static inline __attribute__((always_inline)) bool ready_core(edan_deps *t, const edan_exec *rec, edan_deps_info *x,
                                                             bool *rd_out, bool *wr_out)
{
    const edan_insn *in = rec->insn;
    const bool fd = t->false_deps;
    /* mem_size 0 would make the cache walk every line of the address space */
    const bool accessed = in->mem != EDAN_MEM_NONE && !(rec->flags & EDAN_EXEC_NO_ACCESS) && in->mem_size > 0;
    const bool rd = accessed && in->mem != EDAN_MEM_STORE, wr = accessed && in->mem != EDAN_MEM_LOAD;
    const int n_src = in->n_src < EDAN_MAX_SRC ? in->n_src : EDAN_MAX_SRC;
    pick p = {0, 0, 0, 0};
    t->n_cands = 0;
    bool ok = true;
    /* the data eDAG: its own reads of registers (deps.h), all of them */
    if (__builtin_expect(t->data, 0))
        ok = data_reads(t, rec, &p);
    for (int i = 0; ok && !t->data && i < n_src; i++)
        if (tracked_reg(in->src[i]))
            ok = from_write(t, &p, &t->reg_w[in->src[i]], false);
    if (ok && fd && in->n_dst && tracked_reg(in->dst))
        ok = from_write(t, &p, &t->reg_w[in->dst], true) && from_reads(t, &p, &t->reg_r[in->dst], t->reg_list[in->dst]);
    /* a native instruction's further sources and destinations (riscv.h: more[]) */
    for (int i = 0; ok && i < in->n_more_src + in->n_more_dst; i++) {
        const uint8_t r = in->more[i];
        if (!tracked_reg(r))
            continue;
        if (i < in->n_more_src) {
            if (!t->data)
                ok = from_write(t, &p, &t->reg_w[r], false);
        } else if (fd)
            ok = from_write(t, &p, &t->reg_w[r], true) && from_reads(t, &p, &t->reg_r[r], t->reg_list[r]);
    }
    for (uint32_t at = 0, lo, hi; ok && (rd || (fd && wr)) && at < in->mem_size; at += hi - lo) {
        char *unit = unit_at(t, piece(rec->addr, at, in->mem_size, &lo, &hi), false);
        ok = unit && unit_deps(t, &p, unit, lo, hi, rd, fd && wr);
    }
    if (!ok)
        return false;
    const edan_access_class access =
        edan_cache_classify(&t->cache, t->has_cache && accessed, rec->addr, in->mem_size, rd, wr); /* cache.h */
    const bool mem = access.rd_ram || access.wr_ram;
    x->v = t->tot.vertices;
    x->ready = p.F;
    x->cost = edan_rule_cost(mem, t->lane.cost.alpha, t->lane.cost.cls[in->cls < EDAN_CLASS_COUNT ? in->cls : 0]);
    x->md = edan_rule_depth(p.md, mem);
    x->mem = mem;
    x->access = access;
    x->crit = p.crit;
    x->deep = p.deep;
    x->preds = NULL;
    x->n_preds = 0;
    if (x->md > UINT32_MAX) {
        edan_error_set(&t->err, "memory depth exceeds %u: not supported", UINT32_MAX);
        return false;
    }
    *rd_out = rd;
    *wr_out = wr;
    return true;
}

uint64_t edan_deps_ready(edan_deps *t, const edan_exec *rec, edan_deps_info *info)
{
    if (t->pending)
        edan_error_set(&t->err, "dependency tracker: ready() twice without commit()");
    if (t->err.set)
        return EDAN_DEPS_FAILED;
    edan_deps_info x;
    bool rd, wr;
    if (!ready_core(t, rec, &x, &rd, &wr))
        return EDAN_DEPS_FAILED;
    /* both copies from x, never one from the other: the second would read the first's fields back whole */
    *info = x;
    t->info = x;
    if (t->list_preds)
        merge_preds(t, info); /* commit() reads neither preds nor n_preds */
    t->pending = true;
    t->rec = *rec;
    t->rd = rd;
    t->wr = wr;
    return x.ready;
}

/* ---- commit ---- */

/* Vertex v (finish F, depth md) read the state *r (reader list *list with ALL_PREDS): later writers wait for it. */
static bool note_read(edan_deps *t, deps_reads *r, uint64_t *list, uint64_t v, uint64_t F, uint32_t md)
{
    /* the rule's pick among the readers since the last write: the latest finish and the deepest, ties the earliest */
    if (edan_rule_beats(F, v + 1, r->F, r->F_by)) {
        r->F = F;
        r->F_by = v + 1;
    }
    if (edan_rule_beats(md, v + 1, r->md, r->md_by)) {
        r->md = md;
        r->md_by = v + 1;
    }
    if (!t->all_preds)
        return true;
    if (t->n_nodes == t->cap_nodes) {
        size_t cap = t->cap_nodes ? 2 * t->cap_nodes : 1024;
        reader_node *n = realloc(t->nodes, cap * sizeof *n);
        if (!n) {
            edan_error_set(&t->err, "out of memory for the reader lists (%zu readers)", t->n_nodes);
            return false;
        }
        t->nodes = n;
        t->cap_nodes = cap;
    }
    t->nodes[t->n_nodes++] = (reader_node){v, *list};
    *list = t->n_nodes;
    return true;
}

/* Bytes [lo, hi) of a unit were read by v (false_deps). */
static bool unit_note_read(edan_deps *t, char *unit, uint32_t lo, uint32_t hi, uint64_t v, uint64_t F, uint32_t md)
{
    if (!unit_write(unit)->split && lo == 0 && hi == EDAN_SHADOW_UNIT && !t->all_preds)
        return note_read(t, unit_reads(unit), NULL, v, F, md);
    deps_split *s = split_of(t, unit);
    bool ok = s != NULL;
    for (uint32_t b = lo; ok && b < hi; b++)
        ok = note_read(t, &s->r[b], &s->list[b], v, F, md);
    return ok;
}

/* Bytes [lo, hi) of a unit were written: w is their last writer, with no readers since. */
static bool unit_store(edan_deps *t, char *unit, uint32_t lo, uint32_t hi, const deps_write *w)
{
    if (lo == 0 && hi == EDAN_SHADOW_UNIT && !t->all_preds) {
        unsplit(t, unit);
        put_write(unit_write(unit), w->F, w->by, w->md);
        if (t->false_deps)
            memset(unit_reads(unit), 0, sizeof(deps_reads));
        return true;
    }
    deps_split *s = split_of(t, unit);
    if (!s)
        return false;
    for (uint32_t b = lo; b < hi; b++) {
        s->w[b] = *w;
        memset(&s->r[b], 0, sizeof s->r[b]);
        s->list[b] = 0;
    }
    return true;
}

/* The work of commit() for the vertex rec whose ready() gave *x, rd and wr; start and cost are checked. */
static inline __attribute__((always_inline)) int commit_core(edan_deps *t, const edan_exec *rec,
                                                             const edan_deps_info *x, bool rd, bool wr, uint64_t start,
                                                             uint64_t cost)
{
    const edan_insn *in = rec->insn;
    const uint64_t addr = rec->addr, v = x->v, F = edan_rule_finish(start, cost);
    const uint32_t md = (uint32_t)x->md;
    const deps_write w = {F, v + 1, md, 0};
    const int n_src = in->n_src < EDAN_MAX_SRC ? in->n_src : EDAN_MAX_SRC;
    /* reads first: an instruction that reads and writes a register (or an AMO its bytes) is then their writer */
    bool ok = true;
    if (t->false_deps) {
        for (int i = 0; ok && i < n_src; i++)
            if (tracked_reg(in->src[i]))
                ok = note_read(t, &t->reg_r[in->src[i]], &t->reg_list[in->src[i]], v, F, md);
        for (int i = 0; ok && i < in->n_more_src; i++)
            if (tracked_reg(in->more[i]))
                ok = note_read(t, &t->reg_r[in->more[i]], &t->reg_list[in->more[i]], v, F, md);
        for (uint32_t at = 0, lo, hi; ok && rd && !wr && at < in->mem_size; at += hi - lo) {
            char *unit = unit_at(t, piece(addr, at, in->mem_size, &lo, &hi), true);
            ok = unit && unit_note_read(t, unit, lo, hi, v, F, md);
        }
    }
    if (__builtin_expect(t->data, 0))
        data_writes(t, rec, x);
    /* address updates (push's rsp, writeback: edan_insn.addr_dst) first: their register's last write, an integer
     * operation later, as if the update were an instruction of its own (readers depend on that write's vertex) */
    for (int i = 0; in->addr_dst && i <= in->n_more_dst; i++) {
        const uint8_t r = i ? in->more[in->n_more_src + i - 1] : in->dst, f = edan_insn_addr_from(in, r);
        if (!(in->addr_dst >> i & 1) || !tracked_reg(r) || !tracked_reg(f))
            continue;
        deps_write w = t->reg_w[f];
        w.F = edan_rule_finish(w.F, t->lane.cost.cls[EDAN_CLASS_INT]);
        t->reg_w[r] = w;
    }
    for (int i = -1; in->n_dst && i < in->n_more_dst; i++) {
        const uint8_t r = i < 0 ? in->dst : in->more[in->n_more_src + i];
        if (!tracked_reg(r))
            continue;
        if (in->addr_dst >> (i + 1) & 1) {
            if (t->false_deps)
                memset(&t->reg_r[r], 0, sizeof t->reg_r[r]);
            if (t->all_preds)
                t->reg_list[r] = 0;
            continue;
        }
        put_write(&t->reg_w[r], F, v + 1, md);
        if (t->false_deps) /* the readers' state: only false_deps sets it */
            memset(&t->reg_r[r], 0, sizeof t->reg_r[r]);
        if (t->all_preds) /* the reader lists: only ALL_PREDS makes them */
            t->reg_list[r] = 0;
    }
    for (uint32_t at = 0, lo, hi; ok && wr && at < in->mem_size; at += hi - lo) {
        char *unit = unit_at(t, piece(addr, at, in->mem_size, &lo, &hi), true);
        ok = unit && unit_store(t, unit, lo, hi, &w);
    }
    if (!ok)
        return -1;
    deps_count(&t->tot, v, F, md, x->mem, cost);
    return 0;
}

int edan_deps_commit(edan_deps *t, uint64_t start, uint64_t cost)
{
    if (!t->pending)
        edan_error_set(&t->err, "dependency tracker: commit() without ready()");
    else if (start < t->info.ready)
        edan_error_set(&t->err, "dependency tracker: vertex %" PRIu64 " starts at %" PRIu64 ", before %" PRIu64,
                       t->info.v, start, t->info.ready);
    else if (edan_rule_finish(start, cost) < start)
        edan_error_set(&t->err, "dependency tracker: the finish time of vertex %" PRIu64 " overflows", t->info.v);
    if (t->err.set)
        return -1;
    t->pending = false;
    return commit_core(t, &t->rec, &t->info, t->rd, t->wr, start, cost);
}

int edan_deps_step(edan_deps *t, const edan_exec *rec, edan_deps_info *info)
{
    if (t->pending)
        edan_error_set(&t->err, "dependency tracker: ready() twice without commit()");
    if (t->err.set)
        return -1;
    /* ready() and commit() fused, on *info itself: no pending copies and no struct copy (ready_core()) */
    bool rd, wr;
    if (!ready_core(t, rec, info, &rd, &wr))
        return -1;
    if (edan_rule_finish(info->ready, info->cost) < info->ready) {
        edan_error_set(&t->err, "dependency tracker: the finish time of vertex %" PRIu64 " overflows", info->v);
        return -1;
    }
    if (t->list_preds)
        merge_preds(t, info);
    return commit_core(t, rec, info, rd, wr, info->ready, info->cost);
}

uint64_t edan_deps_reg_finish(const edan_deps *t, uint8_t r)
{
    return tracked_reg(r) ? t->reg_w[r].F : 0;
}
