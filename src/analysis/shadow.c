#include "analysis/shadow.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define L2_SIZE (1u << EDAN_SHADOW_L2_BITS)
#define L1_SIZE (1u << EDAN_SHADOW_L1_BITS)
#define ARENA_BYTES (64u << 20)
#define HOST_PAGE_MIN 4096u /* the smallest page size of Linux hosts: every host page is touched at this stride */
#define SPLIT_CHUNK 1024u   /* records per pool chunk */

static void *map_zeroed(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

int edan_shadow_init(edan_shadow *s, int n_lanes, bool with_readers)
{
    const bool narrow = n_lanes == 1 && !with_readers;
    if (edan_shadow_init_records(s, edan_shadow_unit_bytes(n_lanes, with_readers, narrow)))
        return -1;
    s->n_lanes = n_lanes;
    s->with_readers = with_readers;
    s->narrow = narrow;
    return 0;
}

int edan_shadow_init_records(edan_shadow *s, size_t unit_bytes)
{
    memset(s, 0, sizeof *s);
    if (!unit_bytes || unit_bytes % 8)
        return -1;
    s->last_page_no = UINT64_MAX;
    for (int i = 0; i < EDAN_SHADOW_RECENT; i++)
        s->recent[i].no = UINT64_MAX;
    s->unit_bytes = unit_bytes;
    s->sparse_hot = EDAN_SHADOW_SPARSE_HOT;
    /* a multiple of 64 (1024 records of a multiple of 8 bytes): pages stay line-aligned in their arena */
    s->page_bytes = EDAN_SHADOW_UNITS * s->unit_bytes;
    /* 8 MiB of pointers, backed only where touched. */
    s->l1 = map_zeroed(L1_SIZE * sizeof *s->l1);
    void *zero = mmap(NULL, s->page_bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    s->zero_page = zero == MAP_FAILED ? NULL : zero;
    return s->l1 && s->zero_page ? 0 : -1;
}

/* ---- the sparse pages' slabs -------------------------------------------- */

#define SLAB_BYTES (1u << 20)

/* Bytes of a sparse page of slots slots (a multiple of 8: the next one's records stay aligned). */
static size_t sparse_bytes(uint32_t slots)
{
    return (sizeof(edan_shadow_sparse) + (size_t)slots * (sizeof(uint64_t) + sizeof(uint16_t)) + 7) & ~(size_t)7;
}

/* The free list of sparse pages of slots slots (4 to 256, a power of two). */
static void **slab_list(edan_shadow *s, uint32_t slots)
{
    return &s->slab_free[__builtin_ctz(slots) - 2];
}

/* A sparse page's memory (its contents undefined), NULL when out of memory. */
static edan_shadow_sparse *slab_take(edan_shadow *s, uint32_t slots)
{
    void **list = slab_list(s, slots);
    if (*list) {
        void *p = *list;
        memcpy(list, p, sizeof *list); /* a free page holds the next free one's address */
        return p;
    }
    const size_t bytes = sparse_bytes(slots);
    if (s->slab_left < bytes) {
        char **a = realloc(s->slabs, (s->n_slabs + 1) * sizeof *a);
        if (!a)
            return NULL;
        s->slabs = a;
        char *slab = map_zeroed(SLAB_BYTES);
        if (!slab)
            return NULL;
        s->slabs[s->n_slabs++] = slab;
        s->slab_bump = slab;
        s->slab_left = SLAB_BYTES;
    }
    void *p = s->slab_bump;
    s->slab_bump += bytes;
    s->slab_left -= bytes;
    return p;
}

static void slab_give(edan_shadow *s, edan_shadow_sparse *sp)
{
    void **list = slab_list(s, sp->mask + 1);
    memcpy(sp, list, sizeof *list);
    *list = sp;
}

/* Every slab unmapped: no sparse page is left. */
static void slabs_free(edan_shadow *s)
{
    for (size_t i = 0; i < s->n_slabs; i++)
        munmap(s->slabs[i], SLAB_BYTES);
    free(s->slabs);
    s->slabs = NULL;
    s->n_slabs = 0;
    s->slab_bump = NULL;
    s->slab_left = 0;
    memset(s->slab_free, 0, sizeof s->slab_free);
    s->sparse_pages = 0;
}

void edan_shadow_free(edan_shadow *s)
{
    slabs_free(s);
    if (s->l1) {
        for (size_t i = 0; i < L1_SIZE; i++)
            if (s->l1[i])
                munmap(s->l1[i], L2_SIZE * sizeof(edan_shadow_page *));
        munmap(s->l1, L1_SIZE * sizeof *s->l1);
    }
    if (s->zero_page)
        munmap(s->zero_page, s->page_bytes);
    for (size_t i = 0; i < s->ovf_cap; i++)
        if (s->ovf[i].l2)
            munmap(s->ovf[i].l2, L2_SIZE * sizeof(edan_shadow_page *));
    free(s->ovf);
    for (size_t i = 0; i < s->n_arenas; i++)
        munmap(s->arenas[i], ARENA_BYTES);
    free(s->arenas);
    for (size_t c = 0; c < s->pool.n_chunks; c++)
        free(s->pool.chunks[c]);
    free(s->pool.chunks);
    memset(s, 0, sizeof *s);
}

static void *arena_take(edan_shadow *s, size_t bytes);

/* ---- widening ----------------------------------------------------------- */

/* Unit u's narrow record n in wide record w: F zero-extended (a split record's index too), md and the split flag kept.
 */
static void widen_unit(char *w, const char *n)
{
    edan_shadow_F_set(w, 0, false, edan_shadow_F_get(n, 0, true));
    *edan_shadow_unit_md(w, 1, false, false) = *edan_shadow_unit_md((char *)n, 1, false, true);
}

/* The wide copy (to: zeroed) of a narrow page, full or sparse. */
static void widen_page(char *to, const edan_shadow_page *from)
{
    const size_t wide = edan_shadow_unit_bytes(1, false, false);
    if (edan_shadow_is_sparse(from)) {
        edan_shadow_sparse *sp = edan_shadow_sparse_of(from);
        const uint16_t *key = edan_shadow_sparse_keys(sp);
        for (uint32_t i = 0; i <= sp->mask; i++)
            if (key[i])
                widen_unit(to + (size_t)(key[i] - 1) * wide, (const char *)&edan_shadow_sparse_recs(sp)[i]);
        return;
    }
    for (uint32_t u = 0; u < EDAN_SHADOW_UNITS; u++)
        widen_unit(to + (size_t)u * wide, (const char *)from + (size_t)u * 8);
}

/* Every level-2 table: the directly indexed ones, then the overflow map's. */
static edan_shadow_page **next_l2(const edan_shadow *s, size_t *at)
{
    for (; *at < L1_SIZE; ++*at)
        if (s->l1[*at])
            return s->l1[(*at)++];
    for (; *at - L1_SIZE < s->ovf_cap; ++*at)
        if (s->ovf[*at - L1_SIZE].l2)
            return s->ovf[(*at)++ - L1_SIZE].l2;
    return NULL;
}

int edan_shadow_widen(edan_shadow *s)
{
    if (!s->narrow)
        return 0;
    /* the wide pages go to arenas of their own, made in a second shadow that only lends them */
    edan_shadow w;
    if (edan_shadow_init_records(&w, edan_shadow_unit_bytes(1, false, false)))
        return -1;
    bool ok = true;
    edan_shadow_page **l2;
    for (size_t at = 0; ok && (l2 = next_l2(s, &at));)
        for (size_t i = 0; ok && i < L2_SIZE; i++)
            if (l2[i] && l2[i] != s->zero_page) {
                char *mem = arena_take(&w, w.page_bytes);
                ok = mem != NULL;
                if (ok)
                    widen_page(mem, l2[i]);
            }
    if (!ok) {
        edan_shadow_free(&w);
        return -1;
    }
    /* a second walk, in the same order, swaps the pointers: nothing can fail now */
    size_t next_arena = 0;
    char *arena = NULL;
    size_t arena_left = 0;
    for (size_t at = 0; (l2 = next_l2(s, &at));)
        for (size_t i = 0; i < L2_SIZE; i++) {
            if (!l2[i])
                continue;
            if (l2[i] == s->zero_page) {
                l2[i] = w.zero_page;
                continue;
            }
            if (arena_left < w.page_bytes) {
                arena = w.arenas[next_arena++];
                arena_left = ARENA_BYTES;
            }

            l2[i] = (edan_shadow_page *)arena;
            arena += w.page_bytes;
            arena_left -= w.page_bytes;
        }
    for (size_t i = 0; i < s->n_arenas; i++)
        munmap(s->arenas[i], ARENA_BYTES);
    free(s->arenas);
    munmap(s->zero_page, s->page_bytes);
    slabs_free(s); /* every sparse page was made a full wide one */
    s->arenas = w.arenas;
    s->n_arenas = w.n_arenas;
    s->arena = w.arena;
    s->arena_left = w.arena_left;
    s->zero_page = w.zero_page;
    s->unit_bytes = w.unit_bytes;
    s->page_bytes = w.page_bytes;
    s->narrow = false;
    s->last_page_no = UINT64_MAX;
    s->last_page = NULL;
    for (int i = 0; i < EDAN_SHADOW_RECENT; i++)
        s->recent[i].no = UINT64_MAX;
    munmap(w.l1, L1_SIZE * sizeof *w.l1);
    return 0;
}

static edan_shadow_page **overflow_l2(edan_shadow *s, uint64_t region)
{
    uint64_t key = region + 1;
    if (s->ovf_used * 2 >= s->ovf_cap) {
        size_t cap = s->ovf_cap ? s->ovf_cap * 2 : 16;
        edan_shadow_overflow *n = calloc(cap, sizeof *n);
        if (!n)
            return NULL;
        for (size_t i = 0; i < s->ovf_cap; i++) {
            if (!s->ovf[i].key)
                continue;
            size_t h = (size_t)(s->ovf[i].key * 0x9E3779B97F4A7C15ull) & (cap - 1);
            while (n[h].key)
                h = (h + 1) & (cap - 1);
            n[h] = s->ovf[i];
        }
        free(s->ovf);
        s->ovf = n;
        s->ovf_cap = cap;
    }
    size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull) & (s->ovf_cap - 1);
    while (s->ovf[h].key && s->ovf[h].key != key)
        h = (h + 1) & (s->ovf_cap - 1);
    if (!s->ovf[h].key) {
        s->ovf[h].l2 = map_zeroed(L2_SIZE * sizeof(edan_shadow_page *));
        if (!s->ovf[h].l2)
            return NULL;
        s->ovf[h].key = key;
        s->ovf_used++;
    }
    return s->ovf[h].l2;
}

static void *arena_take(edan_shadow *s, size_t bytes)
{
    if (s->arena_left < bytes) {
        char **a = realloc(s->arenas, (s->n_arenas + 1) * sizeof *a);
        if (!a)
            return NULL;
        s->arenas = a;
        char *chunk = map_zeroed(ARENA_BYTES);
        if (!chunk)
            return NULL;
        s->arenas[s->n_arenas++] = chunk;
        s->arena = chunk;
        s->arena_left = ARENA_BYTES;
    }
    void *p = s->arena;
    s->arena += bytes;
    s->arena_left -= bytes;
    return p;
}

/*
 * A sparse page with room for three more units: new (from NULL) or from
 * sp, with twice the slots (sp is freed). NULL when it would hold more than
 * EDAN_SHADOW_SPARSE_MAX units (the page is to be made full) or when out of
 * memory (out_of_memory set).
 */
static edan_shadow_page *sparse_grow(edan_shadow *s, edan_shadow_sparse *sp)
{
    uint32_t slots = sp ? (sp->mask + 1) * 2 : EDAN_SHADOW_SPARSE_MIN;
    if (sp && (sp->count + 3) * 4 > EDAN_SHADOW_SPARSE_MAX * 4)
        return NULL;
    while ((uint64_t)((sp ? sp->count : 0) + 3) * 4 > (uint64_t)slots * 3)
        slots *= 2;
    edan_shadow_sparse *n = slab_take(s, slots);
    if (!n) {
        s->out_of_memory = true;
        return NULL;
    }
    n->count = 0;
    n->mask = slots - 1;
    n->lookups = sp ? sp->lookups : 0;
    n->pad = 0;
    memset(edan_shadow_sparse_keys(n), 0, slots * sizeof(uint16_t));
    if (sp) {
        const uint16_t *key = edan_shadow_sparse_keys(sp);
        for (uint32_t i = 0; i <= sp->mask; i++)
            if (key[i])
                memcpy(edan_shadow_unit_find((edan_shadow_page *)((uintptr_t)n | 1), 1, false, true, key[i] - 1u, true,
                                             NULL),
                       &edan_shadow_sparse_recs(sp)[i], 8);
        slab_give(s, sp);
    } else {
        s->sparse_pages++;
    }
    return (edan_shadow_page *)((uintptr_t)n | 1);
}

edan_shadow_page *edan_shadow_page_slow(edan_shadow *s, uint64_t page_no, bool for_write)
{
    uint64_t region = page_no >> EDAN_SHADOW_L2_BITS;
    edan_shadow_page **l2;
    if (region < L1_SIZE) {
        l2 = s->l1[region];
        if (!l2) {
            l2 = map_zeroed(L2_SIZE * sizeof *l2);
            if (!l2) {
                s->out_of_memory = true;
                return NULL;
            }
            s->l1[region] = l2;
        }
    } else {
        l2 = overflow_l2(s, region);
        if (!l2) {
            s->out_of_memory = true;
            return NULL;
        }
    }
    /* a page only read so far is zero_page in its slot: it counts as touched (the footprint) */
    size_t idx = page_no & (L2_SIZE - 1);
    edan_shadow_page *cur = l2[idx];
    const bool sparse = cur && edan_shadow_is_sparse(cur);
    if (cur && (sparse ? edan_shadow_sparse_take(edan_shadow_sparse_of(cur), s->sparse_hot, for_write)
                       : !for_write || cur != s->zero_page)) {
        s->recent_misses += cur != s->zero_page;
        return cur;
    }
    if (!cur && !for_write) {
        l2[idx] = s->zero_page;
        s->pages++;
        return s->zero_page;
    }
    if (s->narrow && !(sparse && edan_shadow_sparse_of(cur)->lookups >= s->sparse_hot)) {
        /* a new sparse page, or a bigger one; NULL: it is to be made full */
        edan_shadow_page *grown = sparse_grow(s, sparse ? edan_shadow_sparse_of(cur) : NULL);
        if (grown) {
            l2[idx] = grown;
            s->recent_misses++;
            s->pages += !cur;
            return grown;
        }
        if (!sparse || s->out_of_memory) {
            s->out_of_memory = true;
            return NULL;
        }
    }
    char *mem = arena_take(s, s->page_bytes);
    if (!mem) {
        s->out_of_memory = true;
        return NULL;
    }
    /*
     * Fault the new page in with writes. Its first access would be the store
     * path's read of a unit (is it split?), which maps the kernel's shared
     * zero page, and the store after it a second fault that replaces that
     * mapping, which, while other threads of the process run (a sweep's
     * groups; QEMU online), interrupts every other CPU to flush its TLB:
     * 8% of a stream sweep's time went there.
     */
    for (size_t at = 0; at < s->page_bytes; at += HOST_PAGE_MIN)
        mem[at] = 0;
    if (sparse) {
        /* a sparse page made full: its records go to their units' places */
        edan_shadow_sparse *sp = edan_shadow_sparse_of(cur);
        const uint16_t *key = edan_shadow_sparse_keys(sp);
        for (uint32_t i = 0; i <= sp->mask; i++)
            if (key[i])
                memcpy(mem + (size_t)(key[i] - 1) * 8, &edan_shadow_sparse_recs(sp)[i], 8);
        slab_give(s, sp);
        s->sparse_pages--;
    }
    l2[idx] = (edan_shadow_page *)mem;
    s->recent_misses++;
    s->pages += !cur;
    return l2[idx];
}

uint64_t edan_shadow_split_alloc(edan_shadow *s)
{
    edan_shadow_pool *pl = &s->pool;
    uint64_t index;
    if (pl->free_head) {
        index = pl->free_head - 1;
        pl->free_head = (size_t)edan_shadow_split_get(s, index)->F[0];
    } else {
        if (pl->used == pl->n_chunks * SPLIT_CHUNK) {
            edan_shadow_split **c = realloc(pl->chunks, (pl->n_chunks + 1) * sizeof *c);
            if (!c)
                return UINT64_MAX;
            pl->chunks = c;
            pl->chunks[pl->n_chunks] = malloc((size_t)SPLIT_CHUNK * (size_t)s->n_lanes * sizeof(edan_shadow_split));
            if (!pl->chunks[pl->n_chunks])
                return UINT64_MAX;
            pl->n_chunks++;
        }
        index = pl->used++;
    }
    if (s->narrow && index > EDAN_SHADOW_NARROW_MAX_F) { /* the index lives in F */
        edan_shadow_split_release(s, index);
        return UINT64_MAX;
    }
    return index;
}

void edan_shadow_split_release(edan_shadow *s, uint64_t index)
{
    edan_shadow_split_get(s, index)->F[0] = s->pool.free_head;
    s->pool.free_head = (size_t)index + 1;
}
