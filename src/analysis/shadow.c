#include "analysis/shadow.h"

#include <stdlib.h>
#include <string.h>

#define L2_SIZE (1u << EDAN_SHADOW_L2_BITS)
#define L1_SIZE (1u << EDAN_SHADOW_L1_BITS)

int edan_shadow_init(edan_shadow *s, int n_lanes, bool with_readers)
{
    memset(s, 0, sizeof *s);
    s->n_lanes = n_lanes;
    s->with_readers = with_readers;
    s->last_page_no = UINT64_MAX;
    /* 8 MiB of pointers, but calloc'd memory is only backed where touched. */
    s->l1 = calloc(L1_SIZE, sizeof *s->l1);
    return s->l1 ? 0 : -1;
}

static void free_l2(edan_shadow_page **l2)
{
    if (!l2)
        return;
    for (size_t j = 0; j < L2_SIZE; j++)
        free(l2[j]);
    free(l2);
}

void edan_shadow_free(edan_shadow *s)
{
    if (s->l1) {
        for (size_t i = 0; i < L1_SIZE; i++)
            free_l2(s->l1[i]);
        free(s->l1);
    }
    for (size_t i = 0; i < s->ovf_cap; i++)
        free_l2(s->ovf[i].l2);
    free(s->ovf);
    memset(s, 0, sizeof *s);
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
        s->ovf[h].l2 = calloc(L2_SIZE, sizeof(edan_shadow_page *));
        if (!s->ovf[h].l2)
            return NULL;
        s->ovf[h].key = key;
        s->ovf_used++;
    }
    return s->ovf[h].l2;
}

edan_shadow_page *edan_shadow_page_slow(edan_shadow *s, uint64_t page_no)
{
    uint64_t region = page_no >> EDAN_SHADOW_L2_BITS;
    edan_shadow_page **l2;
    if (region < L1_SIZE) {
        l2 = s->l1[region];
        if (!l2) {
            l2 = calloc(L2_SIZE, sizeof *l2);
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
    size_t idx = page_no & (L2_SIZE - 1);
    if (l2[idx])
        return l2[idx];
    size_t per_lane = EDAN_SHADOW_PAGE * (sizeof(uint64_t) + sizeof(uint32_t));
    if (s->with_readers)
        per_lane *= 2;
    size_t head = sizeof(edan_shadow_page) + (size_t)s->n_lanes * sizeof(edan_shadow_lane);
    head = (head + 63) & ~(size_t)63;
    char *mem = calloc(1, head + per_lane * (size_t)s->n_lanes);
    if (!mem) {
        s->out_of_memory = true;
        return NULL;
    }
    edan_shadow_page *p = (edan_shadow_page *)mem;
    char *cur = mem + head;
    for (int k = 0; k < s->n_lanes; k++) {
        p->lane[k].F = (uint64_t *)cur;
        cur += EDAN_SHADOW_PAGE * sizeof(uint64_t);
        if (s->with_readers) {
            p->lane[k].rF = (uint64_t *)cur;
            cur += EDAN_SHADOW_PAGE * sizeof(uint64_t);
        }
        p->lane[k].md = (uint32_t *)cur;
        cur += EDAN_SHADOW_PAGE * sizeof(uint32_t);
        if (s->with_readers) {
            p->lane[k].rmd = (uint32_t *)cur;
            cur += EDAN_SHADOW_PAGE * sizeof(uint32_t);
        }
    }
    p->page_no = page_no;
    l2[idx] = p;
    s->pages++;
    return p;
}
