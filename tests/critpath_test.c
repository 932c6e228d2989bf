/*
 * Critical path and memory chain on random traces, in all four combinations
 * of false dependencies (off, on) and cache (none, a small random one): the
 * path's costs add up to Tinf, each vertex is a predecessor of the next in
 * the naive reference's graph and starts when it finishes, the chain holds
 * exactly D memory-access vertices, each a predecessor of the next with the
 * reference's md, and Tinf and D agree with the streaming analyzer.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/critpath.h"
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
        edan_critpath *cp = edan_critpath_new(&cfg.lane[0], fd, &err);
        CHECK(e && cp, "new: %s", err.msg);
        for (size_t i = 0; i < n; i += 7) {
            size_t b = n - i < 7 ? n - i : 7;
            edan_edag_consume(e, recs + i, b);
            edan_critpath_consume(cp, recs + i, b);
        }
        CHECK(edan_edag_finish(e) == 0 && edan_critpath_finish(cp) == 0, "finish");
        const edan_lane_stats *st = edan_edag_lane(e, 0);
        CHECK(ref_analyze(recs, n, &cfg.lane[0], fd, EDAN_BYTES_ACCESS, 1, &ref) == 0, "reference");
        const edan_path_vertex *path;
        uint64_t tinf, depth, sum = 0;
        size_t np = edan_critpath_span(cp, &path, &tinf);
        CHECK_EQ_U64(tinf, st->Tinf, "Tinf");
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
        size_t nc = edan_critpath_chain(cp, &path, &depth);
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
        edan_critpath_free(cp);
        edan_edag_free(e);
        free(recs);
    }
    printf("%d random traces: %d without false dependencies or cache, %d with false dependencies, %d with a cache, "
           "%d with both\n",
           trials, combos[0], combos[1], combos[2], combos[3]);
    return check_summary();
}
