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
 * vertices, instructions, costs and sums.
 */
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
        const bool fd = trial & 1, cache = trial & 2;
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
        edan_critpath *cp = edan_critpath_new(&lane, fd, false, &err);
        edan_deps *ref = edan_deps_new(&lane, fd, 0, &err);
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
    long_traces(argc > 2 ? atoi(argv[2]) : 6);
    preds_batches(argc > 2 ? atoi(argv[2]) : 6);
    return check_summary();
}
