#include "analysis/prefetch/prefetch.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*
 * EDAN_PREFETCH_TRACE's lines (validation/pftrace.py reads them; pc, addresses and lines in hex, l the level, 0 the
 * L1d), in trace order:
 *   A pc addr level in_flight     a demand access of the L1d: where the cache model found it (nlev: memory), and
 *                                  whether it found its line on its way (an MSHR hit, decided in the highest lane)
 *   T l pc addr new               a training that made a new entry of the stride table
 *   T l pc addr stride conf       one that found the entry: the stride it saw, the confidence after it
 *   T l pc addr tagged            a tagged prefetcher's
 *   X l pc addr                   a candidate in another page, ignored
 *   H l pc addr                   a candidate the level holds, not sent
 *   I l pc addr src via           a prefetch sent: where it found the line, via 1 if a prefetch of l - 1 caused it
 *   U l pc addr                   the first use of a line l's prefetcher brought (pc: the access's, or the upper
 *                                  prefetch's)
 * and the timing model's, of the highest latency's lane (memtime_prefetch.c): S, D, F.
 */
FILE *edan_prefetch_trace(void)
{
    static FILE *f;
    static bool asked;
    if (!asked) {
        asked = true;
        const char *path = getenv("EDAN_PREFETCH_TRACE");
        if (path && *path && !(f = fopen(path, "w")))
            fprintf(stderr, "edan: EDAN_PREFETCH_TRACE: cannot write %s\n", path);
    }
    return f;
}

/* ===================================================================== */
/* The stride table (gem5's Stride::PCTable)                              */
/* ===================================================================== */

/*
 * One table a level, for every access that trains it: the demand accesses
 * and, below the L1d, the prefetches of the level above too. gem5 v22.1
 * allocates a table per requestor id (use_requestor_id: the CPU, the L1d's
 * prefetcher), but the tables share one indexing policy
 * (StridePrefetcherHashedSetAssociative), which holds the pointers to the
 * entries of each set: every table allocated points them at its own entries
 * (AssociativeSet's constructor, setEntry()), so from the second requestor
 * on every requestor finds, trains and replaces the entries of the last
 * table allocated. Its HWPrefetch trace shows it: the L2's entry of a pc
 * that a demand miss made goes on with the L1d's prefetches of that pc.
 */

typedef struct stride_entry {
    uint64_t pc;        /* the tag: the whole pc, as gem5's hashed indexing keeps it */
    uint64_t last_addr; /* the address of the entry's last access */
    int64_t stride;
    uint64_t used; /* when it was last used: the least recently used way is the victim */
    uint32_t confidence;
    bool valid;
} stride_entry;

struct edan_prefetch_table {
    uint32_t sets, ways, set_mask, tag_shift;
    uint64_t clock;
    stride_entry e[]; /* [set][way] */
};

static uint32_t log2_floor(uint32_t v)
{
    uint32_t s = 0;
    while (v >> (s + 1))
        s++;
    return s;
}

/*
 * gem5's StridePrefetcherHashedSetAssociative: the set of a pc is
 * ((pc >> 1) ^ (pc >> 1 >> log2(sets))) & (sets - 1).
 */
static stride_entry *stride_set(edan_prefetch_table *t, uint64_t pc)
{
    const uint64_t h = pc >> 1;
    const uint32_t set = (uint32_t)((h ^ (h >> t->tag_shift)) & t->set_mask);
    return t->e + (size_t)set * t->ways;
}

/* Whether the entry's confidence is below the threshold: conf / max < threshold / 100 (gem5's calcSaturation). */
static bool below(const edan_prefetch_config *c, uint32_t conf)
{
    const uint64_t max = (1ull << c->confidence_bits) - 1;
    return (uint64_t)conf * 100 < (uint64_t)c->confidence_threshold * max;
}

/*
 * gem5's Stride::calculatePrefetch: the entry of pc learns the stride from
 * its last address; with enough confidence, `degree` addresses a stride
 * apart (a stride of less than a line counts as a line) from addr. Returns
 * how many it wrote to out.
 */
static uint32_t stride_train(const edan_prefetch_config *c, edan_prefetch_table *t, uint64_t pc, uint64_t addr,
                             uint32_t line_bytes, uint64_t *out, FILE *tr, int l)
{
    stride_entry *set = stride_set(t, pc), *e = NULL;
    t->clock++;
    for (uint32_t w = 0; w < t->ways && !e; w++)
        if (set[w].valid && set[w].pc == pc)
            e = &set[w];
    if (!e) { /* a miss in the table: a new entry (gem5 picks a random victim; this one the least recently used) */
        e = &set[0];
        for (uint32_t w = 0; w < t->ways; w++) {
            if (!set[w].valid) {
                e = &set[w];
                break;
            }
            if (set[w].used < e->used)
                e = &set[w];
        }
        *e = (stride_entry){pc, addr, 0, t->clock, c->initial_confidence, true};
        if (tr)
            fprintf(tr, "T %d %" PRIx64 " %" PRIx64 " new\n", l, pc, addr);
        return 0;
    }
    e->used = t->clock;
    const int64_t stride = (int64_t)(addr - e->last_addr);
    const uint32_t max = (1u << c->confidence_bits) - 1;
    if (stride == e->stride && stride != 0) {
        e->confidence += e->confidence < max;
    } else {
        e->confidence -= e->confidence > 0;
        if (below(c, e->confidence))
            e->stride = stride;
    }
    e->last_addr = addr;
    if (tr)
        fprintf(tr, "T %d %" PRIx64 " %" PRIx64 " %" PRId64 " %" PRIu32 "\n", l, pc, addr, stride, e->confidence);
    if (below(c, e->confidence))
        return 0;
    int64_t step = stride;
    if (step < (int64_t)line_bytes && step > -(int64_t)line_bytes)
        step = stride < 0 ? -(int64_t)line_bytes : (int64_t)line_bytes;
    for (uint32_t d = 1; d <= c->degree; d++)
        out[d - 1] = addr + (uint64_t)((int64_t)d * step);
    return c->degree;
}

/* ===================================================================== */
/* The prefetchers                                                        */
/* ===================================================================== */

int edan_prefetch_init(edan_prefetcher *p, const edan_prefetch_config *cfg, const uint32_t *hit, int nlev,
                       uint32_t line_bytes, edan_error *err)
{
    memset(p, 0, sizeof *p);
    p->nlev = nlev < EDAN_PREFETCH_MAX_LEVELS ? nlev : EDAN_PREFETCH_MAX_LEVELS;
    p->line_shift = log2_floor(line_bytes);
    for (int l = 0; l < p->nlev; l++) {
        p->cfg[l] = cfg[l];
        p->hit[l] = hit[l];
        p->any |= cfg[l].kind != EDAN_PREFETCH_NONE;
        if (cfg[l].kind != EDAN_PREFETCH_STRIDE)
            continue;
        const uint32_t ways = cfg[l].table_assoc, sets = cfg[l].table_entries / ways;
        edan_prefetch_table *t = calloc(1, sizeof *t + (size_t)sets * ways * sizeof(stride_entry));
        if (!t) {
            edan_error_set(err, "out of memory for a prefetcher's table");
            edan_prefetch_free(p);
            return -1;
        }
        t->sets = sets;
        t->ways = ways;
        t->set_mask = sets - 1;
        t->tag_shift = log2_floor(sets);
        p->table[l] = t;
    }
    if (p->any && !(p->issue = malloc(EDAN_PREFETCH_MAX_ISSUES * sizeof *p->issue))) {
        edan_error_set(err, "out of memory for the prefetchers");
        edan_prefetch_free(p);
        return -1;
    }
    p->trace = p->any ? edan_prefetch_trace() : NULL;
    return 0;
}

void edan_prefetch_free(edan_prefetcher *p)
{
    for (int l = 0; l < EDAN_PREFETCH_MAX_LEVELS; l++)
        free(p->table[l]);
    free(p->issue);
    if (p->trace)
        fflush(p->trace);
    memset(p, 0, sizeof *p);
}

/*
 * An access arriving at level l (a demand access, or a prefetch of the level
 * above: both train the one table) to addr, `offset` cycles after the demand's L1d lookup;
 * trains: whether it trains the level's prefetcher (a miss there, or the
 * first use of a line it prefetched). Its prefetches are sent, each reaching
 * the level below when it misses there.
 */
static void arrive(edan_prefetcher *p, edan_cache *c, int l, uint64_t pc, uint64_t addr, uint32_t offset, bool trains,
                   bool via)
{
    const edan_prefetch_config *cfg = &p->cfg[l];
    if (cfg->kind == EDAN_PREFETCH_NONE || !(trains || cfg->on_access))
        return;
    uint64_t cand[EDAN_PREFETCH_MAX_DEGREE];
    uint32_t n = 0;
    const uint32_t line_bytes = 1u << p->line_shift;
    FILE *tr = p->trace;
    if (cfg->kind == EDAN_PREFETCH_STRIDE) {
        n = stride_train(cfg, p->table[l], pc, addr, line_bytes, cand, tr, l);
    } else { /* gem5's Tagged::calculatePrefetch: the next `degree` lines */
        if (tr)
            fprintf(tr, "T %d %" PRIx64 " %" PRIx64 " tagged\n", l, pc, addr);
        const uint64_t base = addr & ~(uint64_t)(line_bytes - 1);
        for (uint32_t d = 1; d <= cfg->degree; d++)
            cand[n++] = base + (uint64_t)d * line_bytes;
    }
    const uint32_t ready = offset + cfg->latency;
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t a = cand[i] & ~(uint64_t)(line_bytes - 1);
        if (cand[i] / EDAN_PREFETCH_PAGE_BYTES != addr / EDAN_PREFETCH_PAGE_BYTES) {
            if (tr)
                fprintf(tr, "X %d %" PRIx64 " %" PRIx64 "\n", l, pc, a);
            continue; /* gem5 ignores a prefetch into another page (it has no TLB to translate it) */
        }
        edan_cache_result r;
        if (p->n_issue == EDAN_PREFETCH_MAX_ISSUES || !edan_cache_prefetch_line(c, l, cand[i], &r)) {
            if (tr)
                fprintf(tr, "H %d %" PRIx64 " %" PRIx64 "\n", l, pc, a);
            continue; /* the level holds the line (gem5 drops it: a hit in the cache or an MSHR) */
        }
        if (tr)
            fprintf(tr, "I %d %" PRIx64 " %" PRIx64 " %u %d\n", l, pc, a, r.level, via);
        p->n[l].issued++;
        p->issue[p->n_issue++] =
            (edan_prefetch_issue){cand[i] >> p->line_shift, r.ram_bytes, ready, (uint8_t)l, (uint8_t)r.level, via};
        if (l + 1 < p->nlev) { /* it reaches the level below */
            const bool first = (int)r.level == l + 1 && edan_cache_take_prefetched(c, l + 1, cand[i]);
            p->n[l + 1].useful += first;
            if (first && tr)
                fprintf(tr, "U %d %" PRIx64 " %" PRIx64 "\n", l + 1, pc, a);
            arrive(p, c, l + 1, pc, cand[i] & ~(uint64_t)(line_bytes - 1), ready + p->hit[l + 1],
                   (int)r.level > l + 1 || first, true);
        }
    }
}

uint32_t edan_prefetch_access(edan_prefetcher *p, edan_cache *c, uint64_t pc, uint64_t addr, const edan_cache_result *r,
                              bool in_flight)
{
    p->n_issue = 0;
    uint32_t offset = 0;
    if (p->trace)
        fprintf(p->trace, "A %" PRIx64 " %" PRIx64 " %u %d\n", pc, addr, r->level, in_flight);
    /* the levels the access reached: each missed the one before; the last found the line (or memory did) */
    for (int l = 0; l < p->nlev && l <= (int)r->level; l++) {
        const bool found = l == (int)r->level;
        const bool first = found && edan_cache_take_prefetched(c, l, addr);
        p->n[l].useful += first;
        if (first && p->trace)
            fprintf(p->trace, "U %d %" PRIx64 " %" PRIx64 "\n", l, pc, addr);
        if (l)
            offset += p->hit[l];
        /* a line on its way is a miss for gem5's cache (an MSHR hit): it trains the L1d's, and goes no further */
        arrive(p, c, l, pc, addr, offset, !found || first || (in_flight && l == 0), false);
    }
    return p->n_issue;
}

void edan_prefetch_collect(edan_prefetcher *p, edan_cache *c)
{
    for (int l = 0; l < p->nlev; l++) {
        p->n[l].useless += c->level[l].pf_unused;
        c->level[l].pf_unused = 0;
    }
}
