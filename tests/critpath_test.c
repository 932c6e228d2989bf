/*
 * Critical path and memory chain on random traces, in all four combinations
 * of false dependencies (off, on) and cache (none, a small random one): the
 * path's costs add up to Tinf, each vertex is a predecessor of the next in
 * the naive reference's graph and starts when it finishes, the chain holds
 * exactly D memory-access vertices, each a predecessor of the next with the
 * reference's md, and Tinf and D agree with the streaming analyzer. The sums
 * per static instruction (what the reports use) agree with the vertices the
 * walks visit.
 *
 * The spill's encoding: long random traces (several blocks of 2^16 vertices,
 * thousands of static instructions, dependencies from far back) walked by
 * edan_critpath against the same walks over every vertex's critical and deep
 * predecessor kept in memory, straight from the dependency tracker: the same
 * vertices, instructions, costs and sums (some of them for the data eDAG,
 * and the addresses of the links that bytes carry).
 *
 * The data eDAG (--critical-path=data, deps.h) on random traces whose
 * instructions have the operands' roles (bases, stored data, branches,
 * writebacks, the stack pointer): its Tinf, D, critical path and memory
 * chain against a naive reference that writes the rule out with sets of
 * predecessors, in a number of them shorter than the eDAG's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critpath/critpath.h"
#include "analysis/deps/deps.h"
#include "check.h"
#include "edag_reference.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(uint64_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng % n;
}

static const uint8_t pool[] = {1, 2, 3, 5, 8, 32, 33};

/* A walk's vertices as edan_critpath_visit() gives them (last first), turned around by path_forward(). */
typedef struct path {
    edan_path_vertex *v;
    size_t n, cap;
} path;

static void collect(void *ctx, const edan_path_vertex *v)
{
    path *p = ctx;
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 256;
        p->v = realloc(p->v, p->cap * sizeof *p->v);
        if (!p->v)
            abort();
    }
    p->v[p->n++] = *v;
}

/* First vertex first; a chain also loses the vertices before its first memory access. */
static void path_forward(path *p, bool chain)
{
    for (size_t i = 0; i < p->n / 2; i++) {
        edan_path_vertex t = p->v[i];
        p->v[i] = p->v[p->n - 1 - i];
        p->v[p->n - 1 - i] = t;
    }
    size_t first = 0;
    while (chain && first < p->n && !p->v[first].mem)
        first++;
    if (first) /* not memmove(NULL, NULL, 0) for an empty path */
        memmove(p->v, p->v + first, (p->n - first) * sizeof *p->v);
    p->n -= first;
}

static path visit_path(edan_critpath *cp, bool chain)
{
    path p = {NULL, 0, 0};
    CHECK(edan_critpath_visit(cp, chain, collect, &p) == 0, "visit: %s", edan_critpath_error(cp)->msg);
    path_forward(&p, chain);
    return p;
}

/* The sums per static instruction (table[0..n_ids)) against the vertices of the path. */
static void check_sums(const edan_path_sum *s, const path *p, const edan_insn *table, size_t n_ids, uint64_t length,
                       const char *what)
{
    edan_path_insn *want = calloc(n_ids, sizeof *want);
    uint64_t mems = 0;
    bool known = true;
    for (size_t i = 0; i < p->n; i++) {
        const size_t id = (size_t)(p->v[i].insn - table);
        known &= p->v[i].insn >= table && id < n_ids;
        if (!known)
            break;
        want[id].vertices++;
        want[id].cycles += p->v[i].cost;
        want[id].mems += p->v[i].mem;
        mems += p->v[i].mem;
    }
    CHECK(known, "%s: a vertex of an unknown instruction", what);
    CHECK_EQ_U64(s->length, length, what);
    CHECK_EQ_U64(s->vertices, p->n, what);
    CHECK_EQ_U64(s->mems, mems, what);
    size_t k = 0;
    bool same = true;
    for (size_t id = 0; known && id < n_ids; id++) {
        if (!want[id].vertices)
            continue;
        same &= k < s->n_insns && s->insns[k].insn == &table[id] && s->insns[k].vertices == want[id].vertices &&
                s->insns[k].cycles == want[id].cycles && s->insns[k].mems == want[id].mems;
        k++;
    }
    CHECK(same && k == s->n_insns, "%s: the sums per instruction differ from the path's vertices", what);
    free(want);
}

/* ---- the spill's encoding on long traces ---- */

#define LONG_IDS 3000

/* A register: mostly a few hot ones, now and then one of many that stay unwritten long (far predecessors). */
static uint8_t long_reg(void)
{
    return (uint8_t)(rnd(5) ? 1 + rnd(6) : 7 + rnd(34));
}

static void long_insn(edan_insn *in, uint64_t pc)
{
    memset(in, 0, sizeof *in);
    in->pc = pc;
    for (int k = (int)rnd(4); k > 0; k--) {
        uint8_t r = long_reg();
        bool dup = false;
        for (int j = 0; j < in->n_src; j++)
            dup |= in->src[j] == r;
        if (!dup)
            in->src[in->n_src++] = r;
    }
    int kind = (int)rnd(8);
    in->mem = kind < 4 ? EDAN_MEM_NONE : kind < 6 ? EDAN_MEM_LOAD : kind < 7 ? EDAN_MEM_STORE : EDAN_MEM_AMO;
    in->cls = in->mem == EDAN_MEM_NONE    ? (uint8_t)rnd(9)
              : in->mem == EDAN_MEM_LOAD  ? EDAN_CLASS_LOAD
              : in->mem == EDAN_MEM_STORE ? EDAN_CLASS_STORE
                                          : EDAN_CLASS_ATOMIC;
    in->mem_size = in->mem ? (uint8_t)(1u << rnd(4)) : 0;
    in->rs1 = in->src[0]; /* the base of an access (the data eDAG's bookkeeping uses) */
    in->rs2 = in->src[1];
    if (in->mem != EDAN_MEM_STORE && rnd(5)) {
        in->n_dst = 1;
        in->dst = long_reg();
    }
}

/* The walk over predecessors kept in memory (pred: index + 1, 0 = none) from vertex `from`, last first. */
static path naive_walk(const uint64_t *pred, const edan_exec *recs, const bool *mem, const edan_lane_config *lane,
                       uint64_t from)
{
    path p = {NULL, 0, 0};
    for (uint64_t v = from;;) {
        const edan_insn *in = recs[v].insn;
        const edan_path_vertex pv = {v, in, mem[v] ? lane->cost.alpha : lane->cost.cls[in->cls], mem[v], UINT64_MAX};
        collect(&p, &pv);
        if (!pred[v])
            break;
        v = pred[v] - 1;
    }
    return p;
}

static bool same_vertices(const path *a, const path *b)
{
    bool same = a->n == b->n;
    for (size_t i = 0; same && i < a->n; i++)
        same = a->v[i].index == b->v[i].index && a->v[i].insn == b->v[i].insn && a->v[i].cost == b->v[i].cost &&
               a->v[i].mem == b->v[i].mem;
    return same;
}

/* A long trace over table: basic blocks (runs of consecutive ids, then a jump), addresses in [0x400000, + span). */
static void fill_long_trace(edan_exec *recs, size_t n, const edan_insn *table, uint64_t span)
{
    uint32_t id = (uint32_t)rnd(LONG_IDS);
    for (size_t i = 0; i < n; i++) {
        id = rnd(8) && id + 1 < LONG_IDS ? id + 1 : (uint32_t)rnd(LONG_IDS);
        recs[i].insn = &table[id];
        recs[i].id = id;
        recs[i].addr = 0x400000 + (rnd(span) & ~(uint64_t)(rnd(4) ? table[id].mem_size - 1 : 0));
    }
}

static void long_traces(int trials)
{
    static edan_insn table[LONG_IDS];
    uint64_t total = 0, spilled = 0;
    for (int trial = 0; trial < trials; trial++) {
        for (uint32_t i = 0; i < LONG_IDS; i++)
            long_insn(&table[i], 0x10000 + 4 * (uint64_t)i);
        /* whole blocks, one vertex past them, and any length */
        const size_t n = trial == 0 ? 2 << 16 : trial == 1 ? (3 << 16) + 1 : 70000 + rnd(200000);
        const uint64_t span = trial % 3 == 0 ? 64 : trial % 3 == 1 ? 4096 : 1 << 20;
        edan_exec *recs = calloc(n, sizeof *recs);
        uint64_t *crit = malloc(n * sizeof *crit), *deep = malloc(n * sizeof *deep);
        bool *mem = malloc(n * sizeof *mem);
        CHECK(recs && crit && deep && mem, "out of memory");
        if (!recs || !crit || !deep || !mem)
            return;
        fill_long_trace(recs, n, table, span);
        const bool fd = trial & 1, cache = trial & 2, data = !fd && trial >= 2; /* the data eDAG too */
        edan_lane_config lane;
        edan_edag_config cfg;
        edan_edag_config_default(&cfg);
        lane = cfg.lane[0];
        for (int c = 0; c < EDAN_CLASS_COUNT; c++)
            lane.cost.cls[c] = rnd(4);
        lane.cost.alpha = 1 + rnd(300);
        if (cache) {
            lane.cache.n_levels = 1;
            lane.cache.level[0] = (edan_cache_level_config){1024, 64, 2, rnd(2) != 0, rnd(2) != 0};
        }
        edan_error err = {0};
        edan_critpath *cp = edan_critpath_new(&lane, fd, data, &err);
        edan_deps *ref = edan_deps_new(&lane, fd, data ? EDAN_DEPS_DATA : 0, &err);
        CHECK(cp && ref, "new: %s", err.msg);
        for (size_t i = 0; i < n;) {
            size_t b = 1 + rnd(5000);
            b = b < n - i ? b : n - i;
            edan_critpath_consume(cp, recs + i, b);
            i += b;
        }
        CHECK(edan_critpath_finish(cp) == 0, "finish: %s", edan_critpath_error(cp)->msg);
        for (size_t i = 0; i < n; i++) {
            edan_deps_info info;
            CHECK(edan_deps_step(ref, &recs[i], &info) == 0, "reference step");
            crit[i] = info.crit;
            deep[i] = info.deep;
            mem[i] = info.mem;
        }
        const edan_deps_totals *tot = edan_deps_totals_get(ref);
        path want = naive_walk(crit, recs, mem, &lane, tot->tinf_v), got = {NULL, 0, 0};
        CHECK(edan_critpath_visit(cp, false, collect, &got) == 0, "visit");
        CHECK(same_vertices(&got, &want), "trial %d (%zu vertices): the critical path differs from the reference's",
              trial, n);
        /* the spill's addresses (deltas within a chunk) of the vertices whose link bytes carry: their own */
        size_t by_bytes = 0, wrong = 0;
        for (size_t i = 0; i < got.n; i++)
            if (got.v[i].addr != UINT64_MAX) {
                by_bytes++;
                const edan_insn *in = recs[got.v[i].index].insn;
                wrong +=
                    got.v[i].addr != recs[got.v[i].index].addr || in->mem == EDAN_MEM_NONE || in->mem == EDAN_MEM_STORE;
            }
        CHECK(!wrong && (by_bytes || fd), "trial %d: %zu of %zu by-bytes vertices with a wrong address", trial, wrong,
              by_bytes);
        path_forward(&want, false);
        check_sums(edan_critpath_span(cp), &want, table, LONG_IDS, tot->Tinf, "long trace: critical path sums");
        free(want.v);
        free(got.v);
        if (tot->D) {
            want = naive_walk(deep, recs, mem, &lane, tot->depth_v);
            got = (path){NULL, 0, 0};
            CHECK(edan_critpath_visit(cp, true, collect, &got) == 0, "visit");
            CHECK(same_vertices(&got, &want), "trial %d: the memory chain differs from the reference's", trial);
            path_forward(&want, true);
            check_sums(edan_critpath_chain(cp), &want, table, LONG_IDS, tot->D, "long trace: memory chain sums");
            free(want.v);
            free(got.v);
        } else {
            CHECK(edan_critpath_chain(cp)->vertices == 0, "no chain without memory accesses");
        }
        total += n;
        spilled += edan_critpath_spill_bytes(cp);
        edan_deps_free(ref);
        edan_critpath_free(cp);
        free(recs);
        free(crit);
        free(deep);
        free(mem);
    }
    printf("%d long random traces, %" PRIu64 " vertices: %.2f spill bytes per vertex\n", trials, total,
           total ? (double)spilled / (double)total : 0.0);
}

/*
 * edan_deps_steps_preds() (the timing model's form: true predecessors over a
 * batch, with short paths) against edan_deps_step()'s lists of the same
 * tracker kind on long random traces, in random batch sizes and with
 * buffers from just big enough to roomy, and with the same totals; and a
 * tracker that keeps only the lists (EDAN_DEPS_ONLY_PREDS, the timing
 * model's) against the same lists.
 */
static void preds_batches(int trials)
{
    static edan_insn table[LONG_IDS];
    enum { CAP = 4096 };
    static uint64_t preds[CAP], lean_preds[CAP];
    static uint32_t off[CAP + 1], lean_off[CAP + 1];
    for (int trial = 0; trial < trials; trial++) {
        for (uint32_t i = 0; i < LONG_IDS; i++)
            long_insn(&table[i], 0x10000 + 4 * (uint64_t)i);
        const size_t n = 20000 + rnd(100000);
        const uint64_t span = trial % 3 == 0 ? 64 : trial % 3 == 1 ? 4096 : 1 << 20;
        edan_exec *recs = calloc(n, sizeof *recs);
        CHECK(recs != NULL, "out of memory");
        if (!recs)
            return;
        fill_long_trace(recs, n, table, span);
        for (size_t i = 0; i < n; i++)
            recs[i].flags = rnd(50) ? 0 : EDAN_EXEC_NO_ACCESS;
        edan_edag_config cfg;
        edan_edag_config_default(&cfg);
        edan_lane_config lane = cfg.lane[0];
        lane.cost.alpha = 1 + rnd(300);
        if (trial & 1) {
            lane.cache.n_levels = 1;
            lane.cache.level[0] = (edan_cache_level_config){1024, 64, 2, rnd(2) != 0, rnd(2) != 0};
        }
        edan_error err = {0};
        edan_deps *batch = edan_deps_new(&lane, false, EDAN_DEPS_TRUE_PREDS, &err);
        edan_deps *ref = edan_deps_new(&lane, false, EDAN_DEPS_TRUE_PREDS, &err);
        edan_deps *lean = edan_deps_new(&lane, false, EDAN_DEPS_TRUE_PREDS | EDAN_DEPS_ONLY_PREDS, &err);
        CHECK(batch && ref && lean, "new: %s", err.msg);
        size_t bad = 0, lean_bad = 0;
        for (size_t i = 0; batch && ref && lean && i < n;) {
            const size_t r = 1 + rnd(3000), want = r < n - i ? r : n - i;
            const size_t cap = rnd(2) ? 3 + 255 : CAP; /* from one list's bound up */
            const size_t done = edan_deps_steps_preds(batch, recs + i, want, preds, cap, off);
            const size_t lean_done = edan_deps_steps_preds(lean, recs + i, want, lean_preds, cap, lean_off);
            CHECK(done > 0 || want == 0, "trial %d: no progress at %zu: %s", trial, i, edan_deps_error(batch)->msg);
            CHECK(lean_done == done, "trial %d: %zu records done at %zu, %zu keeping only lists: %s", trial, done, i,
                  lean_done, edan_deps_error(lean)->msg);
            if (!done || lean_done != done)
                break;
            for (size_t j = 0; j < done; j++) {
                edan_deps_info info;
                edan_deps_step(ref, &recs[i + j], &info);
                bool same = info.n_preds == off[j + 1] - off[j],
                     lean_same = info.n_preds == lean_off[j + 1] - lean_off[j];
                for (size_t k = 0; same && k < info.n_preds; k++)
                    same = info.preds[k].v == preds[off[j] + k];
                for (size_t k = 0; lean_same && k < info.n_preds; k++)
                    lean_same = info.preds[k].v == lean_preds[lean_off[j] + k];
                bad += !same;
                lean_bad += !lean_same;
            }
            i += done;
        }
        CHECK(bad == 0, "trial %d: %zu of %zu vertices have other predecessors in batches", trial, bad, n);
        CHECK(lean_bad == 0, "trial %d: %zu of %zu vertices have other predecessors keeping only lists", trial,
              lean_bad, n);
        CHECK(!lean || edan_deps_totals_get(lean)->vertices == n, "trial %d: vertices keeping only lists", trial);
        if (batch && ref) {
            const edan_deps_totals *a = edan_deps_totals_get(batch), *b = edan_deps_totals_get(ref);
            CHECK(a->vertices == b->vertices && a->T1 == b->T1 && a->Tinf == b->Tinf && a->W == b->W && a->D == b->D,
                  "trial %d: totals differ", trial);
        }
        edan_deps_free(batch);
        edan_deps_free(ref);
        edan_deps_free(lean);
        free(recs);
    }
}

/* ---- the data eDAG (deps.h, EDAN_DEPS_DATA) against a naive reference ---- */

#define DATA_N 160
#define DATA_IDS 16
enum { SP = 2 }; /* RISC-V's stack pointer, x2 */
static const uint8_t data_pool[] = {1, SP, 5, 8, 10, 11, 40};

/* A random RISC-V-like instruction with its operands' roles: arithmetic, load, store (some with a writeback of their
 * base, as push's rsp), AMO, branch, floating point. */
static void data_insn(edan_insn *in, uint64_t pc)
{
    memset(in, 0, sizeof *in);
    in->pc = pc;
    const uint8_t a = data_pool[rnd(sizeof data_pool)], b = rnd(3) ? data_pool[rnd(sizeof data_pool)] : a;
    const int kind = (int)rnd(12);
    if (kind < 5) { /* integer arithmetic: 0, 1 or 2 sources */
        in->cls = kind < 3 ? EDAN_CLASS_INT : kind == 3 ? EDAN_CLASS_MUL : EDAN_CLASS_DIV;
        const int n = (int)rnd(3);
        if (n > 0)
            in->src[in->n_src++] = in->rs1 = a;
        if (n > 1 && b != a)
            in->src[in->n_src++] = in->rs2 = b;
        in->n_dst = 1;
        in->dst = in->rd = data_pool[rnd(sizeof data_pool)];
        return;
    }
    if (kind == 9 || kind == 10) { /* a branch, or floating point */
        in->cls = kind == 9 ? EDAN_CLASS_BRANCH : EDAN_CLASS_FADD;
        in->src[in->n_src++] = in->rs1 = a;
        if (b != a)
            in->src[in->n_src++] = in->rs2 = b;
        if (kind == 10) {
            in->n_dst = 1;
            in->dst = data_pool[rnd(sizeof data_pool)];
        }
        return;
    }
    in->mem = kind < 7 ? EDAN_MEM_LOAD : kind < 9 ? EDAN_MEM_STORE : EDAN_MEM_AMO;
    in->cls = in->mem == EDAN_MEM_LOAD    ? EDAN_CLASS_LOAD
              : in->mem == EDAN_MEM_STORE ? EDAN_CLASS_STORE
                                          : EDAN_CLASS_ATOMIC;
    in->mem_size = (uint8_t)(1 + rnd(8));
    in->src[in->n_src++] = in->rs1 = a;
    if (in->mem != EDAN_MEM_LOAD) {
        in->rs2 = b; /* b == a: the base is stored too */
        if (b != a)
            in->src[in->n_src++] = b;
    }
    if (in->mem != EDAN_MEM_STORE) {
        in->n_dst = 1;
        in->dst = in->rd = data_pool[rnd(sizeof data_pool)];
    } else if (!rnd(3)) { /* a writeback of the base */
        in->n_dst = 1;
        in->dst = a;
        in->addr_dst = 1;
    }
}

typedef struct vset {
    bool has[DATA_N];
} vset;

static void vset_add(vset *s, const vset *t)
{
    for (int i = 0; i < DATA_N; i++)
        s->has[i] |= t->has[i];
}

/*
 * The rule of deps.h written out with sets: each vertex's predecessors in
 * the data eDAG (eff), a bookkeeping register's roots as the set its writer
 * had, classes of static instructions at each read. F, md of every vertex.
 */
typedef struct data_ref {
    vset eff[DATA_N];
    uint64_t F[DATA_N], md[DATA_N], Tinf, D;
} data_ref;

/* What a read of r by in makes of its writer's class (self: in's): 2 bookkeeping, 1 nothing, 3 data. */
static uint8_t naive_use(const edan_insn *in, uint8_t r, uint8_t self)
{
    const bool base = r == in->rs1 && !(in->mem != EDAN_MEM_LOAD && r == in->rs2);
    if ((in->mem != EDAN_MEM_NONE && base) || in->cls == EDAN_CLASS_BRANCH || self == 2)
        return 2;
    return self == 1 ? 1 : 3;
}

static void data_reference(const edan_exec *recs, size_t n, const bool *mem, const edan_lane_config *lane, data_ref *R)
{
    static vset upd[EDAN_NUM_REGS]; /* an address update's roots */
    int writer[EDAN_NUM_REGS];      /* vertex, -1 none, -2 an address update */
    int byte_w[64];                 /* last writer of 0x4000 + i */
    uint8_t cls[DATA_IDS] = {0};    /* 0 unseen, 1 may become bookkeeping, 2 bookkeeping, 3 data */
    memset(R, 0, sizeof *R);
    for (int r = 0; r < EDAN_NUM_REGS; r++)
        writer[r] = -1;
    for (int b = 0; b < 64; b++)
        byte_w[b] = -1;
    for (size_t v = 0; v < n; v++) {
        const edan_insn *in = recs[v].insn;
        const uint32_t id = recs[v].id;
        if (!cls[id]) {
            cls[id] = in->mem == EDAN_MEM_NONE && in->n_dst &&
                              (in->cls == EDAN_CLASS_INT || in->cls == EDAN_CLASS_MUL || in->cls == EDAN_CLASS_DIV)
                          ? 2
                          : 3;
            for (int i = 0; cls[id] == 2 && i < in->n_src; i++) /* reads data now: only "maybe" */
                if (in->src[i] != SP && writer[in->src[i]] >= 0 && cls[recs[writer[in->src[i]]].id] == 3)
                    cls[id] = 1;
        }
        const uint8_t self = cls[id];
        for (int i = 0; i < in->n_src; i++) {
            const uint8_t r = in->src[i], use = naive_use(in, r, self);
            uint8_t *w = r != SP && writer[r] >= 0 ? &cls[recs[writer[r]].id] : NULL;
            if (w && (use == 3 || (use == 2 && *w == 1)))
                *w = use;
        }
        vset *e = &R->eff[v];
        for (int i = 0; i < in->n_src; i++) {
            const uint8_t r = in->src[i];
            if (r == SP || writer[r] == -1)
                continue;
            if (writer[r] == -2)
                vset_add(e, &upd[r]);
            else if (cls[recs[writer[r]].id] == 2)
                vset_add(e, &R->eff[writer[r]]);
            else
                e->has[writer[r]] = true;
        }
        const bool rd = in->mem == EDAN_MEM_LOAD || in->mem == EDAN_MEM_AMO;
        for (uint32_t k = 0; rd && k < in->mem_size; k++)
            if (byte_w[(recs[v].addr + k - 0x4000) & 63] >= 0)
                e->has[byte_w[(recs[v].addr + k - 0x4000) & 63]] = true;
        uint64_t ready = 0, md = 0;
        for (size_t u = 0; u < v; u++)
            if (e->has[u]) {
                ready = R->F[u] > ready ? R->F[u] : ready;
                md = R->md[u] > md ? R->md[u] : md;
            }
        R->F[v] = ready + (mem[v] ? lane->cost.alpha : lane->cost.cls[in->cls]);
        R->md[v] = md + mem[v];
        R->Tinf = R->F[v] > R->Tinf ? R->F[v] : R->Tinf;
        R->D = R->md[v] > R->D ? R->md[v] : R->D;
        if (in->n_dst && in->addr_dst) {
            const uint8_t r = in->dst;
            vset u = {{false}};
            if (r != SP && writer[r] == -2)
                u = upd[r];
            else if (r != SP && writer[r] >= 0 && cls[recs[writer[r]].id] == 2)
                u = R->eff[writer[r]];
            else if (r != SP && writer[r] >= 0)
                u.has[writer[r]] = true;
            upd[r] = u;
            writer[r] = -2;
        } else if (in->n_dst) {
            writer[in->dst] = (int)v;
        }
        for (uint32_t k = 0; in->mem != EDAN_MEM_LOAD && in->mem != EDAN_MEM_NONE && k < in->mem_size; k++)
            byte_w[(recs[v].addr + k - 0x4000) & 63] = (int)v;
    }
}

/*
 * Random traces through edan_critpath's data eDAG against the reference:
 * Tinf and D, the critical path (each vertex a predecessor of the next in
 * the reference, starting when it finishes, the costs adding up to Tinf)
 * and the memory chain (each a predecessor of the next, md growing by its
 * accesses). Returns how many traces had a data Tinf below the eDAG's.
 */
static int data_trials(int trials)
{
    static data_ref R;
    int shorter = 0;
    for (int trial = 0; trial < trials; trial++) {
        edan_insn table[DATA_IDS];
        for (int i = 0; i < DATA_IDS; i++)
            data_insn(&table[i], 0x1000 + 4 * (uint64_t)i);
        const size_t n = 1 + rnd(DATA_N);
        edan_exec recs[DATA_N];
        memset(recs, 0, sizeof recs);
        for (size_t i = 0; i < n; i++) {
            recs[i].id = (uint32_t)rnd(DATA_IDS);
            recs[i].insn = &table[recs[i].id];
            recs[i].addr = 0x4000 + rnd(40);
        }
        edan_edag_config cfg;
        edan_edag_config_default(&cfg);
        edan_lane_config lane = cfg.lane[0];
        for (int c = 0; c < EDAN_CLASS_COUNT; c++)
            lane.cost.cls[c] = rnd(4);
        lane.cost.alpha = 1 + rnd(10);
        if (trial & 1) {
            lane.cache.n_levels = 1;
            lane.cache.level[0] = (edan_cache_level_config){64, 16, 2, rnd(2) != 0, rnd(2) != 0};
        }
        edan_error err = {0};
        edan_critpath *cp = edan_critpath_new(&lane, false, true, &err),
                      *full = edan_critpath_new(&lane, false, false, &err);
        edan_deps *classes = edan_deps_new(&lane, false, 0, &err); /* the cache's classes of the accesses */
        CHECK(cp && full && classes && edan_critpath_is_data(cp), "new: %s", err.msg);
        if (!cp || !full || !classes)
            return shorter;
        bool mem[DATA_N];
        for (size_t i = 0; i < n; i++) {
            edan_deps_info info;
            CHECK(edan_deps_step(classes, &recs[i], &info) == 0, "classes");
            mem[i] = info.mem;
        }
        for (size_t i = 0; i < n; i += 5) {
            const size_t b = n - i < 5 ? n - i : 5;
            edan_critpath_consume(cp, recs + i, b);
            edan_critpath_consume(full, recs + i, b);
        }
        CHECK(edan_critpath_finish(cp) == 0 && edan_critpath_finish(full) == 0, "finish");
        data_reference(recs, n, mem, &lane, &R);
        CHECK(edan_critpath_span(cp)->length == R.Tinf, "trial %d: data Tinf %" PRIu64 ", the reference's %" PRIu64,
              trial, edan_critpath_span(cp)->length, R.Tinf);
        CHECK(edan_critpath_chain(cp)->length == R.D, "trial %d: data D %" PRIu64 ", the reference's %" PRIu64, trial,
              edan_critpath_chain(cp)->length, R.D);
        CHECK(R.Tinf <= edan_critpath_span(full)->length && R.D <= edan_critpath_chain(full)->length,
              "trial %d: the data eDAG is no longer than the eDAG", trial);
        shorter += R.Tinf < edan_critpath_span(full)->length;
        path sp = visit_path(cp, false), ch = visit_path(cp, true);
        uint64_t sum = 0;
        bool ok = sp.n > 0 && R.F[sp.v[0].index] == sp.v[0].cost && R.F[sp.v[sp.n - 1].index] == R.Tinf;
        for (size_t i = 0; i < sp.n; i++) {
            const uint64_t v = sp.v[i].index;
            sum += sp.v[i].cost;
            ok &= sp.v[i].mem == mem[v];
            if (i)
                ok &= R.eff[v].has[sp.v[i - 1].index] && R.F[sp.v[i - 1].index] + sp.v[i].cost == R.F[v];
        }
        CHECK(ok && sum == R.Tinf, "trial %d: the data critical path is no path of the reference's data eDAG", trial);
        uint64_t mems = 0;
        ok = ch.n == 0 || (ch.v[0].mem && R.md[ch.v[0].index] == 1);
        for (size_t i = 0; i < ch.n; i++) {
            const uint64_t v = ch.v[i].index;
            mems += ch.v[i].mem;
            if (i)
                ok &= R.eff[v].has[ch.v[i - 1].index] && R.md[v] == R.md[ch.v[i - 1].index] + mem[v];
        }
        CHECK(ok && mems == R.D, "trial %d: the data memory chain is no chain of the reference's data eDAG", trial);
        check_sums(edan_critpath_span(cp), &sp, table, DATA_IDS, R.Tinf, "data critical path sums");
        check_sums(edan_critpath_chain(cp), &ch, table, DATA_IDS, R.D, "data memory chain sums");
        free(sp.v);
        free(ch.v);
        edan_critpath_free(cp);
        edan_critpath_free(full);
        edan_deps_free(classes);
    }
    return shorter;
}

int main(int argc, char **argv)
{
    int trials = argc > 1 ? atoi(argv[1]) : 600;
    static ref_result ref;
    int combos[4] = {0, 0, 0, 0};
    for (int trial = 0; trial < trials; trial++) {
        edan_insn table[16];
        for (int i = 0; i < 16; i++) {
            edan_insn *in = &table[i];
            memset(in, 0, sizeof *in);
            for (int k = (int)rnd(4); k > 0; k--) {
                uint8_t r = pool[rnd(sizeof pool)];
                bool dup = false;
                for (int j = 0; j < in->n_src; j++)
                    dup |= in->src[j] == r;
                if (!dup)
                    in->src[in->n_src++] = r;
            }
            int kind = (int)rnd(8);
            in->mem = kind < 4 ? EDAN_MEM_NONE : kind < 6 ? EDAN_MEM_LOAD : kind < 7 ? EDAN_MEM_STORE : EDAN_MEM_AMO;
            in->cls = in->mem == EDAN_MEM_NONE    ? (uint8_t)rnd(9)
                      : in->mem == EDAN_MEM_LOAD  ? EDAN_CLASS_LOAD
                      : in->mem == EDAN_MEM_STORE ? EDAN_CLASS_STORE
                                                  : EDAN_CLASS_ATOMIC;
            in->mem_size = in->mem ? (uint8_t)(1 + rnd(8)) : 0;
            if (in->mem != EDAN_MEM_STORE && rnd(4)) {
                in->n_dst = 1;
                in->dst = pool[rnd(sizeof pool)];
            }
        }
        size_t n = 1 + rnd(150);
        edan_exec *recs = calloc(n, sizeof *recs);
        for (size_t i = 0; i < n; i++) {
            uint32_t id = (uint32_t)rnd(16);
            recs[i].insn = &table[id];
            recs[i].id = id;
            recs[i].addr = 0x4000 + rnd(40);
        }
        /* the combination: false dependencies, a cache */
        const bool fd = trial & 1, cache = trial & 2;
        combos[trial & 3]++;
        edan_edag_config cfg;
        edan_edag_config_default(&cfg);
        cfg.false_deps = fd;
        for (int c = 0; c < EDAN_CLASS_COUNT; c++)
            cfg.lane[0].cost.cls[c] = rnd(3);
        cfg.lane[0].cost.alpha = 1 + rnd(10);
        if (cache) {
            cfg.lane[0].cache.n_levels = 1;
            cfg.lane[0].cache.level[0] = (edan_cache_level_config){64, 16, 2, rnd(2) != 0, rnd(2) != 0};
        }
        cfg.tau[0] = 1;
        edan_error err = {0};
        edan_edag *e = edan_edag_new(&cfg, &err);
        edan_critpath *cp = edan_critpath_new(&cfg.lane[0], fd, false, &err);
        CHECK(e && cp, "new: %s", err.msg);
        for (size_t i = 0; i < n; i += 7) {
            size_t b = n - i < 7 ? n - i : 7;
            edan_edag_consume(e, recs + i, b);
            edan_critpath_consume(cp, recs + i, b);
        }
        CHECK(edan_edag_finish(e) == 0 && edan_critpath_finish(cp) == 0, "finish");
        const edan_lane_stats *st = edan_edag_lane(e, 0);
        CHECK(ref_analyze(recs, n, &cfg.lane[0], fd, EDAN_BYTES_ACCESS, 1, &ref) == 0, "reference");
        path sp = visit_path(cp, false), ch = visit_path(cp, true);
        const edan_path_vertex *path = sp.v;
        uint64_t tinf = edan_critpath_span(cp)->length, depth, sum = 0;
        size_t np = sp.n;
        CHECK_EQ_U64(tinf, st->Tinf, "Tinf");
        check_sums(edan_critpath_span(cp), &sp, table, 16, st->Tinf, "critical path sums");
        check_sums(edan_critpath_chain(cp), &ch, table, 16, st->D, "memory chain sums");
        bool chained = np > 0 && ref.S[path[0].index] == 0;
        for (size_t i = 0; i < np; i++) {
            sum += path[i].cost;
            if (i)
                chained &= path[i].index > path[i - 1].index && ref.edge[path[i - 1].index * n + path[i].index] &&
                           ref.S[path[i].index] == ref.F[path[i - 1].index];
            chained &= path[i].mem == ref.is_mem[path[i].index];
        }
        CHECK_EQ_U64(st->Tinf, ref.Tinf, "Tinf of the reference");
        CHECK_EQ_U64(sum, st->Tinf, "the path's costs add up to Tinf");
        CHECK(chained, "trial %d: consecutive path vertices must start when the previous one finishes", trial);
        path = ch.v;
        depth = edan_critpath_chain(cp)->length;
        size_t nc = ch.n;
        uint64_t mems = 0;
        bool deep = nc == 0 || (path[0].mem && ref.md[path[0].index] == 1);
        for (size_t i = 0; i < nc; i++) {
            mems += path[i].mem;
            deep &= path[i].mem == ref.is_mem[path[i].index];
            if (i)
                deep &= path[i].index > path[i - 1].index && ref.edge[path[i - 1].index * n + path[i].index] &&
                        ref.md[path[i].index] == ref.md[path[i - 1].index] + path[i].mem;
        }
        CHECK(deep, "trial %d: the chain must go from predecessor to successor, md growing by its accesses", trial);
        CHECK_EQ_U64(depth, st->D, "D");
        CHECK_EQ_U64(st->D, ref.D, "D of the reference");
        CHECK_EQ_U64(mems, st->D, "the memory chain holds D memory-access vertices");
        ref_free(&ref);
        free(sp.v);
        free(ch.v);
        edan_critpath_free(cp);
        edan_edag_free(e);
        free(recs);
    }
    printf("%d random traces: %d without false dependencies or cache, %d with false dependencies, %d with a cache, "
           "%d with both\n",
           trials, combos[0], combos[1], combos[2], combos[3]);
    const int data = trials, shorter = data_trials(data);
    printf("%d random traces of the data eDAG: %d with a shorter Tinf than the eDAG's\n", data, shorter);
    CHECK(shorter > data / 10, "the data eDAG must leave links out (the test could fail)");
    long_traces(argc > 2 ? atoi(argv[2]) : 6);
    preds_batches(argc > 2 ? atoi(argv[2]) : 6);
    return check_summary();
}
