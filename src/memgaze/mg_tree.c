/*
 * mg_tree.c - MemGaze's execution-interval tree as a stream (see mg_tree.h).
 */
#include "memgaze/mg_tree.h"

#include <stdlib.h>
#include <string.h>

/* Rounds of a tree: 2^62 elements would need more loads than 64-bit counts hold. */
#define MAX_ROUNDS 62
/* Entries of a buffer kept for reuse when its element is gone; larger ones are freed. */
#define BIG_BUFFER ((size_t)1 << 16)

/* An address under a subtree and its loads per class. */
typedef struct mg_entry {
    uint64_t addr;
    uint32_t n[EDAN_MG_SLOTS];
} mg_entry;

/* An address of the frame leaf and the skipped constant loads folded into its loads there. */
typedef struct mg_frame {
    uint64_t addr;
    uint64_t skipped;
} mg_frame;

/* A subtree: waiting in a round for its right partner, or just made. */
typedef struct mg_elem {
    mg_entry *e; /* its distinct addresses, ascending */
    size_t n, cap;
    mg_frame fr[EDAN_MG_LEAF]; /* the frame leaf's skipped loads, ascending; none past a parent of one child */
    uint32_t nfr;
    uint64_t loads, skipped;
    uint32_t node; /* its node, when nodes are kept */
    bool valid;
} mg_elem;

struct edan_mg_tree {
    /* pend[r]: the element of round r waiting for a partner; in[r]: the one arriving there */
    mg_elem pend[MAX_ROUNDS + 1], in[MAX_ROUNDS + 1];
    uint64_t count[MAX_ROUNDS + 1]; /* elements that reached round r */
    int rounds;                     /* rounds reached so far */
    int root;                       /* the round whose pending element is the root; -1 before finish */
    edan_mg_level *levels;          /* NULL: no nodes kept */
    edan_mg_node *nodes;
    size_t n_nodes, cap_nodes;
};

/* ---- life cycle -------------------------------------------------------------------- */

edan_mg_tree *edan_mg_tree_new(edan_mg_level *levels)
{
    edan_mg_tree *t = calloc(1, sizeof *t);
    if (t) {
        t->levels = levels;
        t->root = -1;
    }
    return t;
}

void edan_mg_tree_reset(edan_mg_tree *t)
{
    for (int r = 0; r <= MAX_ROUNDS; r++) {
        t->pend[r].valid = t->in[r].valid = false;
        t->count[r] = 0;
    }
    t->rounds = 0;
    t->root = -1;
    t->n_nodes = 0;
}

void edan_mg_tree_free(edan_mg_tree *t)
{
    if (!t)
        return;
    for (int r = 0; r <= MAX_ROUNDS; r++) {
        free(t->pend[r].e);
        free(t->in[r].e);
    }
    free(t->nodes);
    free(t);
}

static int reserve(mg_elem *x, size_t need, edan_error *err)
{
    if (need <= x->cap)
        return 0;
    /* small buffers double (the rounds of a sample reuse them); large ones take what they need */
    size_t cap = x->cap ? x->cap : 16;
    while (cap < need && cap < BIG_BUFFER)
        cap *= 2;
    if (cap < need)
        cap = need;
    mg_entry *e = realloc(x->e, cap * sizeof *e);
    if (!e) {
        edan_error_set(err, "out of memory for the interval tree's %zu distinct addresses", need);
        return -1;
    }
    x->e = e;
    x->cap = cap;
    return 0;
}

/* Give back a large buffer no element holds any more (the rounds above the samples are seldom reused). */
static void trim(mg_elem *x)
{
    if (x->cap > BIG_BUFFER) {
        free(x->e);
        x->e = NULL;
        x->cap = x->n = 0;
    }
}

static void swap_elems(mg_elem *a, mg_elem *b)
{
    mg_elem t = *a;
    *a = *b;
    *b = t;
}

/* ---- node values ----------------------------------------------------------------------- */

/* ceil(log2(size)), at least 3: MemGaze's key of a window of this many loads. */
static uint8_t level_of(uint64_t size)
{
    if (size <= 8)
        return 3;
    return (uint8_t)(64 - __builtin_clzll(size - 1));
}

/*
 * The class shares of x's addresses (MemGaze's getFPDiag), summed in
 * ascending address order as MemGaze's std::map visits them: an address with
 * one class adds 1 to it; one with several adds each class its fraction of the
 * address's loads, the frame leaf's skipped loads counting as a class of
 * their own (constant, not reported in a share).
 */
static void shares(const mg_elem *x, double share[3])
{
    share[0] = share[1] = share[2] = 0.0;
    uint32_t f = 0;
    for (size_t i = 0; i < x->n; i++) {
        const mg_entry *e = &x->e[i];
        while (f < x->nfr && x->fr[f].addr < e->addr)
            f++;
        uint64_t frame = f < x->nfr && x->fr[f].addr == e->addr ? x->fr[f].skipped : 0;
        int classes = (frame > 0), only = -1;
        for (int s = 0; s < EDAN_MG_SLOTS; s++)
            if (e->n[s]) {
                classes++;
                only = s;
            }
        if (classes == 1) {
            if (only < 3) /* the store slot is in no column */
                share[only] += 1.0;
            continue;
        }
        /* the counts are integers: their double sum is exact in any order */
        double total = (double)frame;
        for (int s = 0; s < EDAN_MG_SLOTS; s++)
            total += (double)e->n[s];
        for (int s = 0; s < 3; s++)
            if (e->n[s])
                share[s] += (double)e->n[s] / total;
    }
}

/* Keep a node for x (child: its right or only child's node, checked to be the one made last). */
static int keep_node(edan_mg_tree *t, mg_elem *x, int kind, uint32_t left, edan_error *err)
{
    if (!t->levels)
        return 0;
    if (t->n_nodes == UINT32_MAX) {
        edan_error_set(err, "the interval tree has more than %u nodes", UINT32_MAX);
        return -1;
    }
    if (t->n_nodes == t->cap_nodes) {
        size_t cap = t->cap_nodes ? 2 * t->cap_nodes : 256;
        edan_mg_node *nodes = realloc(t->nodes, cap * sizeof *nodes);
        if (!nodes) {
            edan_error_set(err, "out of memory for the interval tree's nodes");
            return -1;
        }
        t->nodes = nodes;
        t->cap_nodes = cap;
    }
    edan_mg_node *nd = &t->nodes[t->n_nodes];
    nd->kind = (uint8_t)kind;
    nd->left = left;
    if (kind == EDAN_MG_SAMPLE) {
        /* a sample's root: its values belong to the sample's own tree */
        nd->key = 0;
        nd->share[0] = nd->share[1] = nd->share[2] = 0.0;
    } else {
        uint64_t size = x->loads + x->skipped;
        nd->key = level_of(size);
        shares(x, nd->share);
        edan_mg_level *lv = &t->levels[nd->key];
        lv->nodes++;
        lv->fp += x->n;
        lv->size += size;
        lv->skipped += x->skipped;
    }
    x->node = (uint32_t)t->n_nodes++;
    return 0;
}

/* ---- joining --------------------------------------------------------------------------- */

/*
 * out = the parent of l and r: their addresses merged, r's frame leaf. The
 * merge runs backwards inside l's buffer, grown to hold both, so joining
 * the largest windows needs room for their addresses once, not twice.
 */
static int pair(edan_mg_tree *t, mg_elem *l, mg_elem *r, mg_elem *out, edan_error *err)
{
    if (t->levels && r->node + 1 != t->n_nodes) {
        edan_error_set(err, "internal error: the interval tree's nodes are out of order");
        return -1;
    }
    size_t i = l->n, j = r->n, need = l->n + r->n, k = need;
    if (reserve(l, need, err))
        return -1;
    /* k - i - j counts the addresses both hold, so k > i while r has entries left: no unread entry is overwritten */
    mg_entry *le = l->e, *re = r->e;
    while (j > 0) {
        if (i > 0 && le[i - 1].addr > re[j - 1].addr) {
            le[--k] = le[--i];
        } else if (i > 0 && le[i - 1].addr == re[j - 1].addr) {
            mg_entry m = le[--i];
            const mg_entry *b = &re[--j];
            for (int s = 0; s < EDAN_MG_SLOTS; s++) {
                if (m.n[s] > UINT32_MAX - b->n[s]) {
                    edan_error_set(err, "more than %u loads of address 0x%llx in one window", UINT32_MAX,
                                   (unsigned long long)m.addr);
                    return -1;
                }
                m.n[s] += b->n[s];
            }
            le[--k] = m;
        } else {
            le[--k] = re[--j];
        }
    }
    /* l's first i entries are in place; the merged ones start at k */
    if (k > i)
        memmove(&le[i], &le[k], (need - k) * sizeof *le);
    l->n = i + need - k;
    mg_entry *spare = out->e;
    size_t spare_cap = out->cap;
    out->e = l->e;
    out->cap = l->cap;
    out->n = l->n;
    l->e = spare;
    l->cap = spare_cap;
    l->n = 0;
    trim(l);
    trim(r);
    memcpy(out->fr, r->fr, sizeof out->fr);
    out->nfr = r->nfr;
    out->loads = l->loads + r->loads;
    out->skipped = l->skipped + r->skipped;
    out->valid = true;
    l->valid = r->valid = false;
    return keep_node(t, out, EDAN_MG_PAIR, l->node, err);
}

/* The element in[r] arrives at round r: it waits there, or is joined with the one waiting, and so on up. */
static int carry(edan_mg_tree *t, int r, edan_error *err)
{
    for (;; r++) {
        if (r >= MAX_ROUNDS) {
            edan_error_set(err, "the interval tree is deeper than %d rounds", MAX_ROUNDS);
            return -1;
        }
        t->count[r]++;
        if (r + 1 > t->rounds)
            t->rounds = r + 1;
        if (!t->pend[r].valid) {
            swap_elems(&t->pend[r], &t->in[r]);
            return 0;
        }
        if (pair(t, &t->pend[r], &t->in[r], &t->in[r + 1], err))
            return -1;
    }
}

int edan_mg_tree_leaf(edan_mg_tree *t, const edan_mg_rec *recs, size_t n, edan_error *err)
{
    mg_elem *x = &t->in[0];
    if (n == 0 || n > EDAN_MG_LEAF || reserve(x, EDAN_MG_LEAF, err)) {
        edan_error_set(err, "internal error: a leaf of %zu loads", n);
        return -1;
    }
    /* the addresses in ascending order (insertion sort of at most 8), counted per class */
    x->n = x->nfr = 0;
    x->loads = x->skipped = 0;
    for (size_t i = 0; i < n; i++) {
        const edan_mg_rec *rc = &recs[i];
        size_t k = 0;
        while (k < x->n && x->e[k].addr < rc->addr)
            k++;
        if (k == x->n || x->e[k].addr != rc->addr) {
            memmove(&x->e[k + 1], &x->e[k], (x->n - k) * sizeof *x->e);
            memset(&x->e[k], 0, sizeof *x->e);
            x->e[k].addr = rc->addr;
            x->n++;
        }
        x->e[k].n[rc->slot]++;
        x->loads++;
        x->skipped += rc->skipped;
        if (rc->skipped) {
            /* MemGaze adds a constant class to the address only for loads that skipped some */
            uint32_t f = 0;
            while (f < x->nfr && x->fr[f].addr < rc->addr)
                f++;
            if (f == x->nfr || x->fr[f].addr != rc->addr) {
                memmove(&x->fr[f + 1], &x->fr[f], (x->nfr - f) * sizeof *x->fr);
                x->fr[f] = (mg_frame){rc->addr, 0};
                x->nfr++;
            }
            x->fr[f].skipped += rc->skipped;
        }
    }
    x->valid = true;
    if (keep_node(t, x, EDAN_MG_LEAF_NODE, 0, err))
        return -1;
    return carry(t, 0, err);
}

int edan_mg_tree_finish(edan_mg_tree *t, edan_error *err)
{
    if (t->rounds == 0) {
        edan_error_set(err, "internal error: an interval tree without loads");
        return -1;
    }
    for (int r = 0;; r++) {
        uint64_t c = t->count[r];
        if (c == 1) {
            t->root = r; /* a round of one: that element is the root */
            return 0;
        }
        if (c == 2 || c % 2 == 0)
            continue; /* all paired: a round of two made the root one round up */
        /* an odd round of three or more: the last element gets a parent of its own */
        mg_elem *l = &t->pend[r], *out = &t->in[r + 1];
        if (t->levels && l->node + 1 != t->n_nodes) {
            edan_error_set(err, "internal error: the interval tree's nodes are out of order");
            return -1;
        }
        swap_elems(l, out); /* the same addresses and loads, without the frame leaf */
        out->nfr = 0;
        l->valid = false;
        if (keep_node(t, out, EDAN_MG_SINGLE, 0, err) || carry(t, r + 1, err))
            return -1;
    }
}

uint64_t edan_mg_tree_root_size(const edan_mg_tree *t)
{
    if (t->root < 0)
        return 0;
    return t->pend[t->root].loads + t->pend[t->root].skipped;
}

int edan_mg_tree_add_tree(edan_mg_tree *t, edan_mg_tree *from, uint32_t sample, edan_error *err)
{
    if (from->root < 0) {
        edan_error_set(err, "internal error: a sample's tree added before it was finished");
        return -1;
    }
    swap_elems(&t->in[0], &from->pend[from->root]);
    edan_mg_tree_reset(from);
    if (keep_node(t, &t->in[0], EDAN_MG_SAMPLE, sample, err))
        return -1;
    return carry(t, 0, err);
}

/* ---- visiting -------------------------------------------------------------------------- */

const edan_mg_node *edan_mg_tree_nodes(const edan_mg_tree *t, size_t *n)
{
    *n = t->n_nodes;
    return t->nodes;
}

long edan_mg_tree_preorder(const edan_mg_tree *t, uint32_t **order, size_t *cap, edan_error *err)
{
    if (t->root < 0 || !t->levels || t->n_nodes == 0) {
        edan_error_set(err, "internal error: no finished interval tree to visit");
        return -1;
    }
    if (*cap < t->n_nodes) {
        uint32_t *o = realloc(*order, t->n_nodes * sizeof *o);
        if (!o) {
            edan_error_set(err, "out of memory for the interval tree's order");
            return -1;
        }
        *order = o;
        *cap = t->n_nodes;
    }
    /* a stack of nodes still to visit, right child pushed below the left one; depth <= 2 * rounds */
    uint32_t stack[2 * (MAX_ROUNDS + 1) * 2];
    size_t sp = 0, n = 0;
    stack[sp++] = t->pend[t->root].node;
    while (sp) {
        uint32_t i = stack[--sp];
        const edan_mg_node *nd = &t->nodes[i];
        (*order)[n++] = i;
        if (nd->kind == EDAN_MG_PAIR) {
            stack[sp++] = i - 1;
            stack[sp++] = nd->left;
        } else if (nd->kind == EDAN_MG_SINGLE) {
            stack[sp++] = i - 1;
        }
    }
    return (long)n;
}
