/*
 * zoom_memgaze.c - MemGaze's location zoom tree, its rules and quirks
 * included (see zoom_memgaze.h and docs/locality.md). The addresses are
 * kept with their loads, sorted once; a node's pages are counted from the
 * addresses in it, so only pages with a load cost anything.
 */
#include "tool/memory/zoom_memgaze.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/table.h"

#define ADDR_LOW 0xffffffull        /* MemGaze keeps addresses above this */
#define ADDR_HIGH 0x8f0000000000ull /* and below this */
#define LINE 64                     /* its cache line: the final regions' pages */
#define NARROW 64                   /* a node no wider (max - min) is not analysed */
#define MIN_PAGE 32                 /* nor one with narrower pages */
#define LEVEL_TWO_SHARE 0.001       /* a child of the root or of a level-2 node holds this share at least */
#define MAX_NODES (1u << 20)

int zoom_mg_init(zoom_mg *z, uint64_t pages, double threshold, uint64_t stop, uint64_t heap_end)
{
    memset(z, 0, sizeof *z);
    z->pages = pages;
    z->threshold = threshold;
    z->stop = stop;
    z->heap_end = heap_end;
    return edan_keymap_init(&z->addrs, sizeof(uint64_t));
}

bool zoom_mg_access(zoom_mg *z, uint64_t addr)
{
    if (addr <= ADDR_LOW || addr >= ADDR_HIGH) {
        z->outside++;
        return true;
    }
    uint64_t *n = edan_keymap_get(&z->addrs, addr, 0, NULL);
    if (!n)
        return false;
    ++*n;
    z->loads++;
    return true;
}

void zoom_mg_free(zoom_mg *z)
{
    edan_keymap_free(&z->addrs);
    free(z->addr);
    free(z->prefix);
    free(z->nodes);
}

/* ===================================================================== */
/* The tree                                                               */
/* ===================================================================== */

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* First sorted address at or above a. */
static size_t lower(const zoom_mg *z, uint64_t a)
{
    size_t lo = 0, hi = z->n_addr;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (z->addr[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static zm_node *add_node(zoom_mg *z)
{
    if (z->n_nodes == z->cap_nodes) {
        const size_t cap = z->cap_nodes ? 2 * z->cap_nodes : 64;
        zm_node *m = cap <= MAX_NODES ? realloc(z->nodes, cap * sizeof *m) : NULL;
        if (!m)
            return NULL;
        z->nodes = m;
        z->cap_nodes = cap;
    }
    zm_node *n = &z->nodes[z->n_nodes++];
    memset(n, 0, sizeof *n);
    return n;
}

/* A page with loads of the node being analysed: its index and loads. */
typedef struct zm_page {
    uint64_t index, loads;
} zm_page;

/*
 * The node's pages that hold a load, in order, into *out (their number), and its loads. An address past the
 * last page counts in the last one. -1 when out of memory.
 */
static long count_pages(const zoom_mg *z, const zm_node *n, zm_page **out, uint64_t *total)
{
    const size_t first = lower(z, n->min);
    size_t end = first;
    while (end < z->n_addr && z->addr[end] <= n->max)
        end++;
    zm_page *p = malloc((end - first + 1) * sizeof *p);
    if (!p)
        return -1;
    long np = 0;
    *total = 0;
    for (size_t i = first; i < end; i++) {
        uint64_t k = (z->addr[i] - n->min) / n->page;
        if (k >= n->pages)
            k = n->pages - 1;
        const uint64_t loads = z->prefix[i + 1] - z->prefix[i];
        if (np && p[np - 1].index == k)
            p[np - 1].loads += loads;
        else
            p[np++] = (zm_page){k, loads};
        *total += loads;
    }
    *out = p;
    return np;
}

/* The children of node ni (MemGaze's findHotPage, --zoomRUD); level_one: the first level's page width. */
static int children(zoom_mg *z, size_t ni, const zm_page *p, long np, uint64_t total, uint64_t *level_one)
{
    const zm_node parent = z->nodes[ni];
    const bool root = parent.level == 1;
    /* the root's pages: alone when wider than the first level's, else in runs; the first level's width becomes
     * the smallest power of two that holds a root page */
    const bool alone = root && parent.page > *level_one;
    if (root && !alone) {
        uint64_t w = 1;
        while (w < parent.page)
            w *= 2;
        *level_one = w;
    }
    unsigned count = 0;
    for (long i = 0; i < np;) {
        long j = i + 1;
        uint64_t loads = p[i].loads;
        if (!alone)
            for (; j < np && p[j].index == p[j - 1].index + 1; j++)
                loads += p[j].loads;
        const uint64_t wide = p[j - 1].index - p[i].index + 1;
        if ((parent.level <= 2 && (double)loads >= LEVEL_TWO_SHARE * (double)total) ||
            (parent.level >= 2 && (double)loads >= z->threshold * (double)total)) {
            zm_node c = {0};
            c.min = parent.min + parent.page * p[i].index;
            c.max = parent.min + parent.page * (p[i].index + wide) - 1;
            c.level = parent.level + 1;
            const unsigned shift = 2u * (unsigned)(c.level - 2); /* L / 4^(level - 2), L a power of two */
            c.page = shift < 64 ? *level_one >> shift : 0;
            if (parent.page <= z->stop)
                c.page = LINE;
            if (root || (c.max <= z->heap_end && parent.page != LINE)) {
                zm_node *n = add_node(z);
                if (!n)
                    return -1;
                *n = c;
                n->parent = (int)ni;
                /* MemGaze names the children of a node named R by letters, 'A' + count, and so also those of
                 * the root's 18th child, which is named R itself */
                const bool letters = !strcmp(parent.id, "R");
                if (letters && 'A' + count <= '~') /* while 'A' + count is a character */
                    snprintf(n->id, sizeof n->id, "%c", (char)('A' + count));
                else if (letters)
                    snprintf(n->id, sizeof n->id, "#%u", count);
                else
                    snprintf(n->id, sizeof n->id, "%.50s%u", parent.id, count);
                snprintf(n->parent_id, sizeof n->parent_id, "%s", parent.id);
                count++;
            }
        }
        i = j;
    }
    return 0;
}

int zoom_mg_build(zoom_mg *z)
{
    if (z->built)
        return z->failed ? -1 : 0;
    z->built = true;
    z->failed = true;
    const size_t n = edan_keymap_size(&z->addrs);
    z->addr = malloc((n + 1) * sizeof *z->addr);
    z->prefix = malloc((n + 1) * sizeof *z->prefix);
    if (!z->addr || !z->prefix)
        return -1;
    for (size_t i = 0; i < edan_keymap_capacity(&z->addrs); i++) {
        uint64_t key;
        if (edan_keymap_at(&z->addrs, i, &key, NULL))
            z->addr[z->n_addr++] = key;
    }
    qsort(z->addr, z->n_addr, sizeof *z->addr, by_value);
    z->prefix[0] = 0;
    for (size_t i = 0; i < z->n_addr; i++)
        z->prefix[i + 1] = z->prefix[i] + *(uint64_t *)edan_keymap_get(&z->addrs, z->addr[i], 0, NULL);
    z->failed = false;
    if (!z->n_addr)
        return 0;
    zm_node *root = add_node(z);
    if (!root)
        return z->failed = true, -1;
    root->min = z->addr[0];
    root->max = z->addr[z->n_addr - 1];
    root->level = 1;
    root->parent = -1;
    root->page = (uint64_t)ceil((double)(root->max - root->min) / (double)z->pages);
    root->pages = z->pages;
    snprintf(root->id, sizeof root->id, "R");
    snprintf(root->parent_id, sizeof root->parent_id, "-");
    /* MemGaze's first level: 64 MiB with a stop width of 16 or 4 KiB, else 32 MiB */
    uint64_t level_one = z->stop == 16384 || z->stop == 4096 ? 4194304ull * 16 : 4194304ull * 8;
    for (size_t i = 0; i < z->n_nodes; i++) { /* breadth first: the nodes in the order they were made */
        zm_node *nd = &z->nodes[i];
        if (nd->level > 1 && nd->page) /* (a page of 0 bytes cannot be made; MemGaze would divide by it) */
            nd->pages = (uint64_t)ceil((double)(nd->max - nd->min) / (double)nd->page);
        if (nd->max - nd->min <= NARROW || nd->page < MIN_PAGE)
            continue;
        zm_page *p;
        uint64_t total;
        const long np = count_pages(z, nd, &p, &total);
        if (np < 0)
            return z->failed = true, -1;
        nd->analysed = true;
        nd->accesses = total;
        if (!total) { /* MemGaze stops here ("All values are zero") */
            nd->analysed = false;
            z->n_nodes = i + 1;
            z->stopped = true;
            free(p);
            break;
        }
        const int rc = children(z, i, p, np, total, &level_one);
        free(p);
        if (rc)
            return z->failed = true, -1;
    }
    return 0;
}

/* ===================================================================== */
/* Report                                                                 */
/* ===================================================================== */

static bool final(const zm_node *n)
{
    return n->analysed && n->page == LINE;
}

/* ===================================================================== */
/* Its tables                                                             */
/* ===================================================================== */

#define TEXT_ONLY (EDAN_NO_JSON | EDAN_NO_CSV)
#define JSON_ONLY (EDAN_NO_TEXT | EDAN_NO_CSV)
#define ZM_FIELD(m, key, flags, title, width) EDAN_COL_FIELD(zm_node, m, key, "", "", flags, title, width, 0)

/* The final nodes (JSON): MemGaze's hot regions. */
static const edan_column region_cols[] = {
    ZM_FIELD(id, "id", 0, NULL, 0),
    ZM_FIELD(min, "lo", 0, NULL, 0),
    {"hi", EDAN_T_U64, "", "", 0, NULL, 0, 0, NULL, EDAN_CELL},
    ZM_FIELD(pages, "blocks", 0, NULL, 0),
    ZM_FIELD(accesses, "accesses", 0, NULL, 0),
};

/* Every node of the tree, in text and JSON. */
enum { T_LABEL, T_PARENT = 2, T_HI = 6, T_ACCESSES = 9, T_FINAL, T_GAP, T_NOTE };
static const edan_column tree_cols[] = {
    {"label", EDAN_T_STR, "", "", TEXT_ONLY | EDAN_COL_CUT, "node", 30, 0, NULL, EDAN_CELL},
    ZM_FIELD(id, "id", EDAN_NO_TEXT, NULL, 0),
    {"parent", EDAN_T_STR, "", "", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},
    ZM_FIELD(level, "level", 0, NULL, 6),
    ZM_FIELD(min, "lo", EDAN_COL_HEX, "min", 16),
    ZM_FIELD(max, "max", TEXT_ONLY | EDAN_COL_HEX, NULL, 16),
    {"hi", EDAN_T_U64, "", "", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},
    ZM_FIELD(page, "page_bytes", 0, "page bytes", 12),
    ZM_FIELD(pages, "pages", 0, NULL, 10),
    {"accesses", EDAN_T_OPT_U64, "", "", 0, "loads", 10, 0, NULL, EDAN_CELL},
    {"final", EDAN_T_BOOL, "", "", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},
    {"gap", EDAN_T_STR, "", "", TEXT_ONLY, "", 0, 0, NULL, EDAN_CELL},
    {"note", EDAN_T_STR, "", "", TEXT_ONLY | EDAN_COL_LEFT, "", 0, 0, NULL, EDAN_CELL},
};

#define ZM_TREE(m, key) EDAN_COL_FIELD(zoom_mg, m, key, "", "", 0, NULL, 0, 0)
static const edan_column zoom_cols[] = {
    {"memgaze_compat", EDAN_T_BOOL, "", "", 0, NULL, 0, 0, NULL, EDAN_CELL},
    ZM_TREE(pages, "pages"),
    ZM_TREE(threshold, "threshold"),
    ZM_TREE(stop, "stop_bytes"),
    EDAN_COL_FIELD(zoom_mg, heap_end, "heap_end", "", "", EDAN_COL_HEX_0X, NULL, 0, 0),
    ZM_TREE(loads, "accesses"),
    ZM_TREE(outside, "outside"),
    ZM_TREE(stopped, "stopped"),
    {"regions", EDAN_T_ROWS, "", "", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"tree", EDAN_T_ROWS, "", "", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"threshold_percent", EDAN_T_F64, "", "", TEXT_ONLY | EDAN_COL_G, NULL, 0, 3, NULL, EDAN_CELL},
};

/*
 * Text and JSON of another schema's zoom than the tool's (documented in
 * docs/json-schema.md, not by these declarations, which the tool does not list).
 */
static const edan_table_decl tables[] = {
    EDAN_TABLE_DECL("zoom", NULL, true, "MemGaze's zoom tree", zoom_cols),
    EDAN_TABLE_DECL("zoom.regions", NULL, false, "a final node", region_cols),
    EDAN_TABLE_DECL("zoom.tree", NULL, false, "a node of the tree", tree_cols),
};

#define TITLE                                                                                                          \
    "\nzoom (MemGaze's location analysis, --memgaze-compat: {pages} pages, {threshold_percent}% of a node's loads, "   \
    "stop at {stop_bytes}-byte pages, heap below {heap_end})\n  {accesses} loads, {outside} left out (addresses at "   \
    "most 0xffffff or from 0x8f0000000000)"

void zoom_mg_tables_of(const zoom_mg *z, zoom_mg_tables *m)
{
    edan_table *t = m->t;
    for (int k = 0; k < 3; k++)
        edan_table_init(&t[k], &tables[k]);
    for (size_t i = 0; i < z->n_nodes; i++) {
        const zm_node *n = &z->nodes[i];
        edan_value *v = final(n) ? edan_table_row_of(&t[1], 0, n, NULL) : NULL;
        if (v)
            v[2].u = n->max + 1;
        if (!(v = edan_table_row_of(&t[2], 0, n, NULL)))
            break;
        char label[48];
        snprintf(label, sizeof label, "%*s%.30s", n->level < 9 ? 2 * (n->level - 1) : 16, "", n->id);
        v[T_LABEL].s = edan_table_str(&t[2], label);
        v[T_PARENT].s = n->parent < 0 ? NULL : n->parent_id;
        v[T_HI].u = n->max + 1;
        v[T_ACCESSES] = (edan_value){.opt = {n->accesses, n->analysed}};
        v[T_FINAL].b = final(n);
        v[T_GAP].s = "";
        v[T_NOTE].s = n->analysed                         ? (final(n) ? "final" : "")
                      : z->stopped && i + 1 == z->n_nodes ? "no loads: MemGaze stops"
                                                          : "too narrow";
    }
    edan_value *v = edan_table_row_of(&t[0], 0, z, NULL);
    if (v) {
        v[0].b = true;
        v[8].rows = &t[1];
        v[9].rows = &t[2];
        v[10].f = 100 * z->threshold;
    }
    m->r[0] = (edan_result){.t = &t[0], .view = {.title = TITLE}};
    m->r[1] = (edan_result){.t = &t[2], .view = {.heading_always = true}, .left = EDAN_NO_JSON};
}

void zoom_mg_tables_free(zoom_mg_tables *m)
{
    for (int k = 0; k < 3; k++)
        edan_table_free(&m->t[k]);
}
