/*
 * projection.c - ExaSAT's bound and the traffic of every fully associative
 * cache size (see projection.h).
 */
#include "analysis/projection/projection.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

edan_proj edan_proj_bound(double flops, double weighted_flops, double dram_bytes, double peak_flops, double bandwidth)
{
    edan_proj p;
    p.flops = flops;
    p.weighted_flops = weighted_flops;
    p.dram_bytes = dram_bytes;
    p.bytes_per_flop = weighted_flops > 0 ? dram_bytes / weighted_flops : NAN;
    p.time_compute = weighted_flops / peak_flops;
    p.time_memory = dram_bytes / bandwidth;
    /* ExaSAT: compute bound only when the CPU time is strictly the larger */
    p.memory_bound = !(p.time_compute > p.time_memory);
    p.time = p.memory_bound ? p.time_memory : p.time_compute;
    return p;
}

edan_proj edan_proj_evaluate(const edan_opmix *mix, double dram_bytes, const edan_proj_machine *m)
{
    return edan_proj_bound((double)edan_opmix_flops(mix), edan_opmix_weighted_flops(mix, &m->weights), dram_bytes,
                           m->peak_flops, m->bandwidth);
}

uint64_t edan_lru_reads(const edan_lru_traffic *t, unsigned k)
{
    /* a reuse at distance d hits 2^k blocks when d < 2^k, i.e. its bin is <= k */
    uint64_t n = t->cold;
    for (unsigned b = k + 1; b < EDAN_LRU_SIZES; b++)
        n += t->reuse[b];
    return n;
}

uint64_t edan_lru_writebacks(const edan_lru_traffic *t, unsigned k)
{
    int64_t n = 0;
    for (unsigned j = 0; j <= k && j <= EDAN_LRU_SIZES; j++)
        n += t->wb_diff[j];
    return n > 0 ? (uint64_t)n : 0;
}

uint64_t edan_lru_dirty_at_end(const edan_lru_traffic *t, unsigned k)
{
    int64_t n = 0;
    for (unsigned j = 0; j <= k && j <= EDAN_LRU_SIZES; j++)
        n += t->end_diff[j];
    return n > 0 ? (uint64_t)n : 0;
}

uint64_t edan_lru_writes(const edan_lru_traffic *t, unsigned k)
{
    return edan_lru_writebacks(t, k) + edan_lru_dirty_at_end(t, k);
}

unsigned edan_lru_working_set(const edan_lru_traffic *t)
{
    unsigned k = 0;
    for (unsigned b = 0; b < EDAN_LRU_SIZES; b++)
        if (t->reuse[b])
            k = b;
    return k;
}

void edan_lru_merge(edan_lru_traffic *to, const edan_lru_traffic *from)
{
    to->accesses += from->accesses;
    to->cold += from->cold;
    for (unsigned b = 0; b < EDAN_LRU_SIZES; b++)
        to->reuse[b] += from->reuse[b];
    for (unsigned b = 0; b <= EDAN_LRU_SIZES; b++) {
        to->wb_diff[b] += from->wb_diff[b];
        to->end_diff[b] += from->end_diff[b];
    }
}

static int cmp_range(const void *a, const void *b)
{
    const edan_proj_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int edan_proj_cache_dirty(const edan_cache *c, edan_proj_range **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t count = 0;
    for (int l = 0; l < c->n_levels; l++) {
        const edan_cache_level *lv = &c->level[l];
        const size_t entries = (size_t)(lv->set_mask + 1) * lv->ways;
        for (size_t i = 0; i < entries; i++)
            count += edan_cache_tag_dirty(lv->tags[i]);
    }
    if (!count)
        return 0;
    edan_proj_range *r = malloc(count * sizeof *r);
    if (!r)
        return -1;
    size_t k = 0;
    for (int l = 0; l < c->n_levels; l++) {
        const edan_cache_level *lv = &c->level[l];
        const size_t entries = (size_t)(lv->set_mask + 1) * lv->ways;
        for (size_t i = 0; i < entries; i++)
            if (edan_cache_tag_dirty(lv->tags[i])) {
                const uint64_t lo = edan_cache_tag_line(lv->tags[i]) << lv->line_shift;
                r[k++] = (edan_proj_range){lo, lo + (1ull << lv->line_shift)};
            }
    }
    qsort(r, count, sizeof *r, cmp_range);
    size_t m = 0; /* merge overlapping and adjacent ranges */
    for (size_t i = 0; i < count; i++) {
        if (m && r[i].lo <= r[m - 1].hi) {
            if (r[i].hi > r[m - 1].hi)
                r[m - 1].hi = r[i].hi;
        } else {
            r[m++] = r[i];
        }
    }
    *out = r;
    *n = m;
    return 0;
}

/* Of objects at one address, the one that names the region: the largest, then a name without '_', then the first. */
static bool better_object(const edan_elf_func *a, const edan_elf_func *b)
{
    if (a->end - a->start != b->end - b->start)
        return a->end - a->start > b->end - b->start;
    if ((a->name[0] == '_') != (b->name[0] == '_'))
        return b->name[0] == '_';
    return strcmp(a->name, b->name) < 0;
}

int edan_proj_regions_init(edan_proj_regions *m, const edan_elf_data *d)
{
    memset(m, 0, sizeof *m);
    const size_t n_obj = d ? d->n_objects : 0;
    m->r = calloc(3 + n_obj, sizeof *m->r);
    if (!m->r)
        return -1;
    m->r[EDAN_REGION_STACK] = (edan_proj_region){"(stack)", 0, 0, EDAN_REGION_STACK};
    m->r[EDAN_REGION_HEAP] = (edan_proj_region){d ? "(heap)" : "(not stack)", 0, 0, EDAN_REGION_HEAP};
    m->r[EDAN_REGION_STATIC] = (edan_proj_region){"(static data)", 0, 0, EDAN_REGION_STATIC};
    m->n = 3;
    if (!d)
        return 0;
    m->n_seg = d->n_segments;
    memcpy(m->seg, d->segments, sizeof m->seg);
    for (size_t i = 0; i < n_obj;) {
        const edan_elf_func *best = &d->objects[i];
        size_t j = i + 1;
        for (; j < n_obj && d->objects[j].start == best->start; j++)
            if (better_object(&d->objects[j], best))
                best = &d->objects[j];
        i = j;
        if (m->n > 3 && best->start < m->r[m->n - 1].end)
            continue; /* inside the previous object */
        m->r[m->n++] = (edan_proj_region){best->name, best->start, best->end, EDAN_REGION_OBJECT};
    }
    return 0;
}

void edan_proj_regions_free(edan_proj_regions *m)
{
    free(m->r);
    memset(m, 0, sizeof *m);
}

uint32_t edan_proj_region_of(const edan_proj_regions *m, uint64_t addr, uint64_t *lo, uint64_t *hi)
{
    *lo = *hi = 0;
    if (addr >= m->stack_lo && addr < m->stack_hi)
        return EDAN_REGION_STACK;
    size_t a = 3, b = m->n; /* the first object starting after addr */
    while (a < b) {
        const size_t mid = a + (b - a) / 2;
        if (m->r[mid].start <= addr)
            a = mid + 1;
        else
            b = mid;
    }
    if (a > 3 && addr < m->r[a - 1].end) {
        *lo = m->r[a - 1].start;
        *hi = m->r[a - 1].end;
        return (uint32_t)(a - 1);
    }
    /* between two objects: static data or heap up to the nearest object or segment boundary */
    uint64_t l = a > 3 ? m->r[a - 1].end : 0, h = a < m->n ? m->r[a].start : UINT64_MAX;
    uint32_t region = EDAN_REGION_HEAP;
    for (size_t i = 0; i < m->n_seg; i++) {
        const uint64_t s = m->seg[i].start, e = m->seg[i].end;
        if (addr >= s && addr < e)
            region = EDAN_REGION_STATIC;
        if (s <= addr && s > l)
            l = s;
        if (e <= addr && e > l)
            l = e;
        if (s > addr && s < h)
            h = s;
        if (e > addr && e < h)
            h = e;
    }
    *lo = l;
    *hi = h;
    return region;
}
