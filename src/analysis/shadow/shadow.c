/*
 * shadow.c - the shadow's two-level table, its full and inline pages, the
 * lookups that make and remake pages, widening, and the split records.
 * Sparse pages are shadow_sparse.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "analysis/shadow/shadow_internal.h"

#define L2_SIZE (1u << EDAN_SHADOW_L2_BITS)
#define L1_SIZE (1u << EDAN_SHADOW_L1_BITS)
#define ARENA_BYTES (64u << 20)
#define HOST_PAGE_MIN 4096u /* the smallest page size of Linux hosts: every host page is touched at this stride */
#define SPLIT_CHUNK 1024u   /* records per pool chunk */
#define NARROW_UNITS_BYTES (EDAN_SHADOW_UNITS * 8u)
#define NARROW_WORDS_BYTES (EDAN_SHADOW_WORDS * 8u)

_Static_assert(sizeof(uintptr_t) == 8, "an inline page packs its state into a 64-bit level-2 slot");
_Static_assert(NARROW_WORDS_BYTES % HOST_PAGE_MIN == 0, "pages of words given back are whole host pages");

void *edan_shadow_map_zeroed(size_t bytes)
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
    s->inline_on = narrow;
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
    s->gen = 1;
    s->unit_bytes = unit_bytes;
    s->sparse_hot = EDAN_SHADOW_SPARSE_HOT;
    s->inline_hot = s->inline_left = EDAN_SHADOW_INLINE_HOT;
    s->inline_max_md = EDAN_SHADOW_INLINE_MAX_MD;
    /* a multiple of 64 (1024 records of a multiple of 8 bytes): pages stay line-aligned in their arena */
    s->page_bytes = EDAN_SHADOW_UNITS * s->unit_bytes;
    /* 8 MiB of pointers, backed only where touched. */
    s->l1 = edan_shadow_map_zeroed(L1_SIZE * sizeof *s->l1);
    void *zero = mmap(NULL, s->page_bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    s->zero_page = zero == MAP_FAILED ? NULL : zero;
    return s->l1 && s->zero_page ? 0 : -1;
}

static void arenas_free(edan_shadow *s)
{
    for (size_t i = 0; i < s->n_arenas; i++)
        munmap(s->arenas[i], ARENA_BYTES);
    free(s->arenas);
    s->arenas = NULL;
    s->n_arenas = 0;
    free(s->free_words);
    s->free_words = NULL;
    s->n_free_words = s->cap_free_words = 0;
}

void edan_shadow_free(edan_shadow *s)
{
    edan_shadow_slabs_free(s);
    if (s->l1) {
        for (size_t i = 0; i < s->l1_n; i++)
            munmap(s->l1[s->l1_used[i]], L2_SIZE * sizeof(uintptr_t));
        munmap(s->l1, L1_SIZE * sizeof *s->l1);
    }
    free(s->l1_used);
    if (s->zero_page)
        munmap(s->zero_page, s->page_bytes);
    for (size_t i = 0; i < s->ovf_cap; i++)
        if (s->ovf[i].l2)
            munmap(s->ovf[i].l2, L2_SIZE * sizeof(uintptr_t));
    free(s->ovf);
    arenas_free(s);
    for (size_t c = 0; c < s->pool.n_chunks; c++)
        free(s->pool.chunks[c]);
    free(s->pool.chunks);
    memset(s, 0, sizeof *s);
}

/* ---- full pages ---------------------------------------------------------- */

static void *arena_take(edan_shadow *s, size_t bytes)
{
    if (s->arena_left < bytes) {
        char **a = realloc(s->arenas, (s->n_arenas + 1) * sizeof *a);
        if (!a)
            return NULL;
        s->arenas = a;
        char *chunk = edan_shadow_map_zeroed(ARENA_BYTES);
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
 * A new full page of bytes, zeroed, faulted in; NULL when out of memory
 * (out_of_memory set). Pages of words given back are reused for pages of words.
 */
static char *full_page(edan_shadow *s, size_t bytes)
{
    char *mem =
        bytes == NARROW_WORDS_BYTES && s->n_free_words ? s->free_words[--s->n_free_words] : arena_take(s, bytes);
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
    for (size_t at = 0; at < bytes; at += HOST_PAGE_MIN)
        mem[at] = 0;
    return mem;
}

/* A page of words no longer used: its memory goes back to the system (it reads as zeros after), its place is reused. */
static void give_words(edan_shadow *s, char *mem)
{
    if (s->n_free_words == s->cap_free_words) {
        size_t cap = s->cap_free_words ? 2 * s->cap_free_words : 64;
        char **f = realloc(s->free_words, cap * sizeof *f);
        if (!f)
            return; /* kept in its arena, unused */
        s->free_words = f;
        s->cap_free_words = cap;
    }
    madvise(mem, NARROW_WORDS_BYTES, MADV_DONTNEED);
    s->free_words[s->n_free_words++] = mem;
}

/* A narrow page of any kind (its slot's value v, not the zero page's) as a full narrow page of units, written to units.
 */
static void narrow_units(uintptr_t v, char *units)
{
    const uintptr_t p = v & ~(uintptr_t)EDAN_SHADOW_TAG_MASK;
    if (!(v & EDAN_SHADOW_TAG_MASK)) {
        memcpy(units, (const char *)p, NARROW_UNITS_BYTES);
        return;
    }
    memset(units, 0, NARROW_UNITS_BYTES);
    switch (v & EDAN_SHADOW_TAG_MASK) {
    case EDAN_SHADOW_TAG_WORDS: /* word w's record to units 2w and 2w + 1 */
        for (uint32_t w = 0; w < EDAN_SHADOW_WORDS; w++) {
            memcpy(units + 16 * (size_t)w, (const char *)p + 8 * (size_t)w, 8);
            memcpy(units + 16 * (size_t)w + 8, (const char *)p + 8 * (size_t)w, 8);
        }
        break;
    case EDAN_SHADOW_TAG_SPARSE:
        edan_shadow_sparse_spread((edan_shadow_sparse *)p, units, false);
        break;
    default: {
        char *unit = units + 16 * (size_t)edan_shadow_inline_word(v);
        edan_shadow_inline_rec(v, unit);
        memcpy(unit + 8, unit, 8);
    }
    }
}

/* ---- widening ----------------------------------------------------------- */

/* A narrow full page of units n as a wide one w (zeroed): F zero-extended (a split record's index too), md and the
 * split flag kept. */
static void widen_page(char *w, const char *n)
{
    const size_t wide = edan_shadow_unit_bytes(1, false, false);
    for (uint32_t u = 0; u < EDAN_SHADOW_UNITS; u++) {
        char *to = w + (size_t)u * wide;
        const char *from = n + (size_t)u * 8;
        edan_shadow_F_set(to, 0, false, edan_shadow_F_get(from, 0, true));
        *edan_shadow_unit_md(to, 1, false, false) = *edan_shadow_unit_md((char *)from, 1, false, true);
    }
}

/*
 * Every level-2 table: the directly indexed ones in the order they were made
 * (their list, not a scan of l1's million slots), then the overflow map's.
 */
static uintptr_t *next_l2(const edan_shadow *s, size_t *at)
{
    if (*at < s->l1_n)
        return s->l1[s->l1_used[(*at)++]];
    for (; *at - s->l1_n < s->ovf_cap; ++*at)
        if (s->ovf[*at - s->l1_n].l2)
            return s->ovf[(*at)++ - s->l1_n].l2;
    return NULL;
}

/* Forget every handle the lookups keep: the pages were remade. */
static void recent_clear(edan_shadow *s)
{
    s->gen++;
    s->last_page_no = UINT64_MAX;
    s->last_page = NULL;
    for (int i = 0; i < EDAN_SHADOW_RECENT; i++)
        s->recent[i].no = UINT64_MAX;
}

int edan_shadow_widen(edan_shadow *s)
{
    if (!s->narrow)
        return 0;
    /* the wide pages go to arenas of their own, made in a second shadow that only lends them */
    edan_shadow w;
    if (edan_shadow_init_records(&w, edan_shadow_unit_bytes(1, false, false)))
        return -1;
    char *units = malloc(NARROW_UNITS_BYTES); /* a page of any kind as one of units, then widened */
    bool ok = units != NULL;
    uintptr_t *l2;
    for (size_t at = 0; ok && (l2 = next_l2(s, &at));)
        for (size_t i = 0; ok && i < L2_SIZE; i++)
            if (l2[i] && l2[i] != (uintptr_t)s->zero_page) {
                char *mem = arena_take(&w, w.page_bytes);
                ok = mem != NULL;
                if (!ok)
                    break;
                s->made.widened[l2[i] & EDAN_SHADOW_TAG_MASK]++;
                narrow_units(l2[i], units);
                widen_page(mem, units);
            }
    free(units);
    if (!ok) {
        edan_shadow_free(&w);
        return -1;
    }
    /* a second walk, in the same order, swaps the handles: nothing can fail now */
    size_t next_arena = 0;
    char *arena = NULL;
    size_t arena_left = 0;
    for (size_t at = 0; (l2 = next_l2(s, &at));)
        for (size_t i = 0; i < L2_SIZE; i++) {
            if (!l2[i])
                continue;
            if (l2[i] == (uintptr_t)s->zero_page) {
                l2[i] = (uintptr_t)w.zero_page;
                continue;
            }
            if (arena_left < w.page_bytes) {
                arena = w.arenas[next_arena++];
                arena_left = ARENA_BYTES;
            }
            l2[i] = (uintptr_t)arena;
            arena += w.page_bytes;
            arena_left -= w.page_bytes;
        }
    arenas_free(s);
    munmap(s->zero_page, s->page_bytes);
    edan_shadow_slabs_free(s); /* every sparse page was made a full wide one */
    s->arenas = w.arenas;
    s->n_arenas = w.n_arenas;
    s->arena = w.arena;
    s->arena_left = w.arena_left;
    s->zero_page = w.zero_page;
    s->unit_bytes = w.unit_bytes;
    s->page_bytes = w.page_bytes;
    s->narrow = false;
    s->inline_on = false;
    recent_clear(s);
    munmap(w.l1, L1_SIZE * sizeof *w.l1);
    free(w.l1_used); /* w made no level-2 table: it only lent its arenas */
    return 0;
}

int edan_shadow_inline_end(edan_shadow *s)
{
    uintptr_t *l2;
    int rc = 0;
    for (size_t at = 0; (l2 = next_l2(s, &at));)
        for (size_t i = 0; i < L2_SIZE; i++)
            if ((l2[i] & EDAN_SHADOW_TAG_MASK) == EDAN_SHADOW_TAG_INLINE) {
                edan_shadow_sparse *sp = edan_shadow_sparse_make(s, NULL, l2[i], 0);
                if (!sp) {
                    rc = -1;
                    break;
                }
                l2[i] = (uintptr_t)sp | EDAN_SHADOW_TAG_SPARSE;
                s->made.inline_ended++;
            }
    recent_clear(s);
    s->inline_on = rc != 0 && s->inline_on;
    return rc;
}

/* ---- the table and the lookups' slow path ------------------------------- */

static uintptr_t *overflow_l2(edan_shadow *s, uint64_t region)
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
        s->ovf[h].l2 = edan_shadow_map_zeroed(L2_SIZE * sizeof(uintptr_t));
        if (!s->ovf[h].l2)
            return NULL;
        s->ovf[h].key = key;
        s->ovf_used++;
    }
    return s->ovf[h].l2;
}

/* The level-2 slot of page_no, its table made if absent; NULL when out of memory. */
static uintptr_t *slot_of(edan_shadow *s, uint64_t page_no)
{
    const uint64_t region = page_no >> EDAN_SHADOW_L2_BITS;
    uintptr_t *l2;
    if (region < L1_SIZE) {
        l2 = s->l1[region];
        if (!l2) {
            if (s->l1_n == s->l1_cap) {
                const size_t cap = s->l1_cap ? 2 * s->l1_cap : 16;
                uint32_t *used = realloc(s->l1_used, cap * sizeof *used);
                if (!used)
                    return NULL;
                s->l1_used = used;
                s->l1_cap = cap;
            }
            l2 = edan_shadow_map_zeroed(L2_SIZE * sizeof *l2);
            if (!l2)
                return NULL;
            s->l1[region] = l2;
            s->l1_used[s->l1_n++] = (uint32_t)region;
        }
    } else {
        l2 = overflow_l2(s, region);
        if (!l2)
            return NULL;
    }
    return &l2[page_no & (L2_SIZE - 1)];
}

/* The handle of the page whose slot holds v: v itself, or for an inline page the slot's address, tagged. */
static edan_shadow_page *handle_of(uintptr_t *slot, uintptr_t v)
{
    return (edan_shadow_page *)((v & EDAN_SHADOW_TAG_MASK) == EDAN_SHADOW_TAG_INLINE
                                    ? (uintptr_t)slot | EDAN_SHADOW_TAG_INLINE
                                    : v);
}

/* Set slot to v (a new page's handle, or NULL when out of memory) and return its handle. */
static edan_shadow_page *install(edan_shadow *s, uintptr_t *slot, uintptr_t v)
{
    if (!v) {
        s->out_of_memory = true;
        return NULL;
    }
    *slot = v;
    s->gen++;
    return handle_of(slot, v);
}

/* A sparse page made full: of words when every entry is a word's and the access is no store of part of one. */
static uintptr_t sparse_to_full(edan_shadow *s, edan_shadow_sparse *sp, bool words)
{
    char *mem = full_page(s, words ? NARROW_WORDS_BYTES : NARROW_UNITS_BYTES);
    if (!mem)
        return 0;
    edan_shadow_sparse_spread(sp, mem, words);
    edan_shadow_sparse_give(s, sp);
    words ? s->made.words_made++ : s->made.units_made++;
    return (uintptr_t)mem | (words ? EDAN_SHADOW_TAG_WORDS : 0);
}

/*
 * A narrow page, whose slot holds v, remade (or made: v is 0 or the zero
 * page's) to take an access it did not take as it was.
 */
static edan_shadow_page *narrow_remake(edan_shadow *s, uintptr_t *slot, uintptr_t v, uint32_t off, uint32_t len,
                                       bool for_write)
{
    const uint32_t need = for_write ? edan_shadow_store_room(off, len) : 0;
    const bool word = for_write && edan_shadow_whole_word(off, len);
    edan_shadow_sparse *sp;
    if (!v || v == (uintptr_t)s->zero_page) { /* a page first written: inline for a whole word */
        if (word && s->inline_on) {
            s->made.inline_made++;
            return install(s, slot, edan_shadow_inline_pack(off >> 3, 0, 0));
        }
        sp = edan_shadow_sparse_make(s, NULL, 0, need);
        s->made.sparse_made += sp != NULL;
        return install(s, slot, sp ? (uintptr_t)sp | EDAN_SHADOW_TAG_SPARSE : 0);
    }
    switch (v & EDAN_SHADOW_TAG_MASK) {
    case EDAN_SHADOW_TAG_INLINE: /* another store, or a lookup that found it hot: a sparse page */
        sp = edan_shadow_sparse_make(s, NULL, v, need);
        s->made.inline_spilled += sp != NULL;
        return install(s, slot, sp ? (uintptr_t)sp | EDAN_SHADOW_TAG_SPARSE : 0);
    case EDAN_SHADOW_TAG_SPARSE: {
        /* grown, or made full when hot or past its largest size */
        edan_shadow_sparse *from = edan_shadow_sparse_of((edan_shadow_page *)v);
        if (from->lookups < s->sparse_hot) {
            sp = edan_shadow_sparse_make(s, from, 0, need);
            if (sp || s->out_of_memory)
                return install(s, slot, sp ? (uintptr_t)sp | EDAN_SHADOW_TAG_SPARSE : 0);
        }
        return install(s, slot, sparse_to_full(s, from, edan_shadow_sparse_all_words(from) && (!for_write || word)));
    }
    case EDAN_SHADOW_TAG_WORDS: { /* a store of part of a word: a page of units */
        char *mem = full_page(s, NARROW_UNITS_BYTES);
        if (!mem)
            return NULL;
        narrow_units(v, mem);
        give_words(s, (char *)(v - EDAN_SHADOW_TAG_WORDS));
        s->made.words_split++;
        return install(s, slot, (uintptr_t)mem);
    }
    default: /* a full page of units takes every access */
        return (edan_shadow_page *)v;
    }
}

/*
 * Whether page p takes an access of len bytes at off as it is
 * (edan_shadow_page_access()), counting the lookup of a sparse or inline page.
 */
static bool take(edan_shadow *s, edan_shadow_page *p, uint32_t off, uint32_t len, bool for_write)
{
    switch (edan_shadow_tag(p)) {
    case 0:
        return !for_write || p != s->zero_page;
    case EDAN_SHADOW_TAG_WORDS:
        return !for_write || edan_shadow_whole_word(off, len);
    case EDAN_SHADOW_TAG_SPARSE: {
        edan_shadow_sparse *sp = edan_shadow_sparse_of(p);
        return ++sp->lookups < s->sparse_hot && (!for_write || sp->count + edan_shadow_store_room(off, len) <= sp->cap);
    }
    default:
        if (!--s->inline_left) {
            s->inline_left = s->inline_hot;
            return false;
        }
        return !for_write ||
               (edan_shadow_whole_word(off, len) && edan_shadow_inline_word(*edan_shadow_inline_slot(p)) == off >> 3);
    }
}

/*
 * The page of page_no, remade or made for an access of len bytes at page
 * offset off; tried: its handle was found among the recently used and did
 * not take the access. NULL when out of memory.
 */
static edan_shadow_page *page_slow(edan_shadow *s, uint64_t page_no, uint32_t off, uint32_t len, bool for_write,
                                   bool tried)
{
    uintptr_t *slot = slot_of(s, page_no);
    if (!slot) {
        s->out_of_memory = true;
        return NULL;
    }
    /* a page only read so far is zero_page in its slot: it counts as touched (the footprint) */
    const uintptr_t v = *slot;
    edan_shadow_page *h = handle_of(slot, v);
    if (v && !tried && take(s, h, off, len, for_write)) {
        s->recent_misses += h != s->zero_page;
        return h;
    }
    if (!v && !for_write) {
        *slot = (uintptr_t)s->zero_page;
        s->gen++;
        s->pages++;
        return s->zero_page;
    }
    s->recent_misses++;
    s->pages += !v;
    if (s->narrow)
        return narrow_remake(s, slot, v, off, len, for_write);
    /* wide records, or records of a client's own: only a store to a page not yet written gets here */
    return install(s, slot, (uintptr_t)full_page(s, s->page_bytes));
}

/* p, page page_no's, becomes the most recent page and its slot's in the table of recent pages. */
static edan_shadow_page *remember(edan_shadow *s, uint64_t page_no, edan_shadow_page *p)
{
    const unsigned slot = edan_shadow_recent_slot(page_no);
    s->recent[slot].no = page_no;
    s->recent[slot].page = p;
    s->last_page_no = page_no;
    s->last_page = p;
    return p;
}

edan_shadow_page *edan_shadow_page_lookup(edan_shadow *s, uint64_t addr, uint32_t len, bool for_write,
                                          edan_shadow_page *recent)
{
    const uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1));
    if (recent && take(s, recent, off, len, for_write))
        return recent;
    const uint64_t page_no = addr >> EDAN_SHADOW_PAGE_BITS;
    edan_shadow_page *p = page_slow(s, page_no, off, len, for_write, recent != NULL);
    if (!p)
        return NULL;
    return remember(s, page_no, p);
}

edan_shadow_page *edan_shadow_page_units(edan_shadow *s, uint64_t addr)
{
    const uint64_t page_no = addr >> EDAN_SHADOW_PAGE_BITS;
    uintptr_t *slot = slot_of(s, page_no);
    if (!slot) {
        s->out_of_memory = true;
        return NULL;
    }
    const uintptr_t v = *slot;
    edan_shadow_page *p;
    if (v && v != (uintptr_t)s->zero_page && !(v & EDAN_SHADOW_TAG_MASK)) {
        p = (edan_shadow_page *)v; /* already one */
    } else {
        /* as page_slow() counts a page made or remade */
        s->recent_misses++;
        s->pages += !v;
        char *mem = full_page(s, NARROW_UNITS_BYTES);
        if (!mem)
            return NULL;
        if (v && v != (uintptr_t)s->zero_page) {
            narrow_units(v, mem);
            if ((v & EDAN_SHADOW_TAG_MASK) == EDAN_SHADOW_TAG_SPARSE)
                edan_shadow_sparse_give(s, edan_shadow_sparse_of((edan_shadow_page *)v));
            else if ((v & EDAN_SHADOW_TAG_MASK) == EDAN_SHADOW_TAG_WORDS)
                give_words(s, (char *)(v - EDAN_SHADOW_TAG_WORDS));
        }
        s->units_ahead++;
        p = install(s, slot, (uintptr_t)mem);
    }
    return remember(s, page_no, p);
}

void edan_shadow_word_store(edan_shadow *s, edan_shadow_page *pg, uint32_t w, uint64_t F, uint64_t md)
{
    char *rec;
    switch (edan_shadow_tag(pg)) {
    case EDAN_SHADOW_TAG_INLINE: /* md's low bits: the owner ends inline pages before md could pass inline_max_md */
        *edan_shadow_inline_slot(pg) = edan_shadow_inline_pack(w, F, md & s->inline_max_md);
        return;
    case EDAN_SHADOW_TAG_SPARSE:
        rec = edan_shadow_sparse_word(s, edan_shadow_sparse_of(pg), w);
        break;
    default: /* a page of words */
        rec = (char *)((uintptr_t)pg - EDAN_SHADOW_TAG_WORDS) + (size_t)w * 8;
    }
    edan_shadow_F_set(rec, 0, true, F);
    *edan_shadow_unit_md(rec, 1, false, true) = (uint32_t)md;
}

/* ---- split records ------------------------------------------------------ */

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
