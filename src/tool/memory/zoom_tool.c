/*
 * zoom_tool.c - the location zoom tree (--zoom): MemGaze's location
 * analysis, exact. From the whole address range the region tool zooms into
 * hot subregions down to a stop width, and reports for each region its
 * accesses, the distinct blocks touched, the mean stack distance of the
 * reuses of its blocks (MemGaze's spatio-temporal reuse distance D), and
 * the functions and source lines that access it.
 *
 * The tree (docs/locality.md): a region is cut into --zoom-pages pages of
 * equal width (whole 64-byte blocks); a hot subregion is a maximal run of
 * contiguous pages each accessed at least once whose accesses exceed
 * --zoom-threshold percent of the region's, unless the run is the whole
 * region; when every page is accessed (dense memory, where MemGaze's rule
 * stops) a run is of pages with at least the region's mean accesses per
 * page; a region no wider than --zoom-stop is not cut. Regions without
 * hot subregions are the leaves. With --heap-end=ADDR the accesses at and
 * above ADDR (the stack) form a root of their own that is not zoomed, as
 * MemGaze zooms only into the heap.
 *
 * State: per 64-byte block its accesses, reuses, the sum of their stack
 * distances (from its own reuse tracker, analysis/locality/reuse.h), and the two
 * static instructions that access it most (Misra-Gries counters, exact
 * when at most two do). Memory is proportional to the distinct blocks.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/locality/locality.h"
#include "isa/native.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/plot.h"
#include "tool/base/base.h"
#include "tool/memory/zoom_memgaze.h"
#include "tool/memory/zoom_tables.h"
#include "util/keymap.h"
#include "util/parse.h"
#include "util/symbols/symbols.h"

#define BLOCK 64u
#define MAX_REGIONS 4096
#define TOP 3 /* functions and lines listed per region */

typedef struct zb {
    uint64_t block; /* block + 1 */
    uint64_t accesses, reuses;
    double dist_sum;
    uint32_t id[2]; /* the two heavy hitters among the static instructions (index + 1) */
    uint64_t cnt[2];
} zb;

typedef struct zoom_tool {
    edan_reuse *tracker;
    edan_keymap map; /* block -> zb */
    uint64_t *id_pc; /* pc by static id + 1 index */
    size_t id_cap;
    uint32_t pages;
    double threshold; /* a share, 0..1 */
    uint64_t stop, heap_end;
    bool have_heap_end;
    uint64_t accesses;
    bool by_sample;        /* a sampled trace's samples apart (not --across-samples): reuses within a sample */
    uint64_t sample_start; /* the current sample's first access */
    /* after the stream */
    zb *sorted;
    size_t n_sorted;
    zoom_region *regions;
    int n_regions;
    bool built;
    zoom_mg *mg; /* --memgaze-compat: MemGaze's tree instead (zoom_memgaze.h) */
    edan_error err;
} zoom_tool;

/* MemGaze's heap end when --heap-end is not given (memgaze-analyze-loc's default) */
#define MEMGAZE_HEAP_END 0x7f0000000000ull

/* ===================================================================== */
/* Options                                                                */
/* ===================================================================== */

static int parse_addr(const char *v, uint64_t *out)
{
    if (!v || !*v)
        return -1;
    if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
        if (!v[2] || strspn(v + 2, "0123456789abcdefABCDEF") != strlen(v + 2) || strlen(v + 2) > 16)
            return -1;
        *out = strtoull(v + 2, NULL, 16);
        return 0;
    }
    return edan_parse_u64(v, out);
}

static int check_heap_end(const char *v, edan_error *err)
{
    uint64_t a;
    if (parse_addr(v, &a)) {
        edan_error_set(err, "--heap-end: '%s' is not an address (decimal, or hex with 0x)", v);
        return -1;
    }
    return 0;
}

static int check_pages(const char *v, edan_error *err)
{
    uint64_t n;
    if (edan_parse_u64(v, &n) || n < 2 || n > (1u << 20)) {
        edan_error_set(err, "--zoom-pages: '%s' is not a number of pages from 2 to 2^20", v);
        return -1;
    }
    return 0;
}

static int check_threshold(const char *v, edan_error *err)
{
    double p;
    if (edan_parse_double(v, &p) || !(p > 0) || p >= 100) {
        edan_error_set(err, "--zoom-threshold: '%s' is not a percentage above 0 and below 100", v);
        return -1;
    }
    return 0;
}

static int check_stop(const char *v, edan_error *err)
{
    uint64_t b;
    if (edan_parse_size(v, strlen(v), &b) || b < BLOCK || b > (1ull << 50)) {
        edan_error_set(err, "--zoom-stop: '%s' is not a size from 64 bytes, like 16K", v);
        return -1;
    }
    return 0;
}

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "zoom", NULL, NULL) > 0 || edan_options_last(o, "memgaze-compat");
}

/* ===================================================================== */
/* The stream                                                             */
/* ===================================================================== */

static zb *block_of(zoom_tool *t, uint64_t b)
{
    bool created;
    zb *e = edan_keymap_get(&t->map, b, 0, &created);
    if (e && created)
        e->block = b + 1;
    return e;
}

/* One more access by static instruction id + 1 = k: Misra-Gries with two counters. */
static void heavy(zb *e, uint32_t k)
{
    for (int i = 0; i < 2; i++)
        if (e->id[i] == k) {
            e->cnt[i]++;
            return;
        }
    for (int i = 0; i < 2; i++)
        if (!e->cnt[i]) {
            e->id[i] = k;
            e->cnt[i] = 1;
            return;
        }
    e->cnt[0]--;
    e->cnt[1]--;
}

static bool one_block(zoom_tool *t, uint64_t b, uint32_t id)
{
    uint64_t d = EDAN_REUSE_COLD, prev = 0;
    if (edan_reuse_access(t->tracker, b, &d, &prev) == EDAN_REUSE_NOMEM)
        return false;
    zb *e = block_of(t, b);
    if (!e)
        return false;
    e->accesses++;
    if (d != EDAN_REUSE_COLD && !(t->by_sample && prev < t->sample_start)) {
        e->reuses++;
        e->dist_sum += (double)d;
    }
    heavy(e, id + 1);
    t->accesses++;
    return true;
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    zoom_tool *t = ctx;
    for (size_t i = 0; i < n && !t->err.set; i++) {
        const edan_exec *r = &recs[i];
        const edan_insn *in = r->insn;
        if (r->flags & EDAN_EXEC_SAMPLE_START)
            t->sample_start = t->accesses;
        if (in->mem == EDAN_MEM_NONE || (r->flags & EDAN_EXEC_NO_ACCESS) || !in->mem_size)
            continue;
        if (t->mg) { /* MemGaze's tree: a load per record, at its address */
            if (!zoom_mg_access(t->mg, r->addr))
                edan_error_set(&t->err, "out of memory for the zoom tree's addresses");
            continue;
        }
        bool ok = true;
        if (r->id >= t->id_cap) {
            size_t cap = t->id_cap ? t->id_cap : 1024;
            while (cap <= r->id)
                cap *= 2;
            uint64_t *m = realloc(t->id_pc, cap * sizeof *m);
            ok = m != NULL;
            if (ok) {
                t->id_pc = m;
                t->id_cap = cap;
            }
        }
        if (ok)
            t->id_pc[r->id] = in->pc;
        const uint64_t last = (r->addr + in->mem_size - 1) / BLOCK;
        for (uint64_t b = r->addr / BLOCK; ok; b++) {
            ok = one_block(t, b, r->id);
            if (b == last)
                break;
        }
        if (!ok)
            edan_error_set(&t->err, "out of memory for the zoom tree's blocks");
    }
}

static int finish(void *ctx)
{
    return ((zoom_tool *)ctx)->err.set ? -1 : 0;
}

/* ===================================================================== */
/* The tree                                                               */
/* ===================================================================== */

static int by_block(const void *a, const void *b)
{
    const zb *x = a, *y = b;
    return x->block < y->block ? -1 : x->block > y->block;
}

/* First sorted block at or above byte address a. */
static size_t lower(const zoom_tool *t, uint64_t a)
{
    size_t lo = 0, hi = t->n_sorted;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((t->sorted[mid].block - 1) * BLOCK < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int add_region(zoom_tool *t, int parent, uint64_t lo, uint64_t hi, const char *id)
{
    if (t->n_regions == MAX_REGIONS)
        return -1;
    zoom_region *r = &t->regions[t->n_regions];
    memset(r, 0, sizeof *r);
    r->lo = lo;
    r->hi = hi;
    r->parent = parent;
    r->level = parent < 0 ? 0 : t->regions[parent].level + 1;
    r->first_child = -1;
    r->parent_id = parent < 0 ? NULL : t->regions[parent].id;
    r->bytes = hi - lo;
    snprintf(r->id, sizeof r->id, "%s", id);
    for (size_t i = lower(t, lo); i < t->n_sorted && (t->sorted[i].block - 1) * BLOCK < hi; i++) {
        const zb *e = &t->sorted[i];
        r->accesses += e->accesses;
        r->reuses += e->reuses;
        r->dist_sum += e->dist_sum;
        r->blocks++;
    }
    r->share = t->accesses ? (double)r->accesses / (double)t->accesses : 0;
    r->distance = r->reuses ? r->dist_sum / (double)r->reuses : 0;
    return t->n_regions++;
}

/* Cut region ri into pages and recurse into its hot runs of pages. */
static void zoom(zoom_tool *t, int ri)
{
    const zoom_region r = t->regions[ri];
    const uint64_t width = r.hi - r.lo;
    if (width <= t->stop || r.level >= 64 || !r.accesses)
        return;
    uint64_t pw = (width + t->pages - 1) / t->pages;
    pw = (pw + BLOCK - 1) / BLOCK * BLOCK;
    const size_t np = (size_t)((width + pw - 1) / pw);
    uint64_t *count = calloc(np, sizeof *count);
    if (!count)
        return;
    for (size_t i = lower(t, r.lo); i < t->n_sorted && (t->sorted[i].block - 1) * BLOCK < r.hi; i++)
        count[((t->sorted[i].block - 1) * BLOCK - r.lo) / pw] += t->sorted[i].accesses;
    /* a page is in a run when accessed at all; when that makes one run of the whole region (dense memory, where
     * MemGaze's rule stops), when it has at least the region's mean accesses per page */
    uint64_t floor = 1;
    size_t first = 0, last = np;
    while (first < np && !count[first])
        first++;
    while (last > first && !count[last - 1])
        last--;
    bool dense = first == 0 && last == np;
    for (size_t i = 0; dense && i < np; i++)
        dense = count[i] != 0;
    if (dense)
        floor = (r.accesses + np - 1) / np;
    int children = 0;
    for (size_t i = 0; i < np;) {
        if (count[i] < floor) {
            i++;
            continue;
        }
        size_t j = i;
        uint64_t sum = 0;
        while (j < np && count[j] >= floor)
            sum += count[j++];
        if ((double)sum > t->threshold * (double)r.accesses && !(i == 0 && j == np)) {
            char id[48];
            if (r.level == 0)
                snprintf(id, sizeof id, "%c%s", 'A' + children % 26, children >= 26 ? "+" : "");
            else
                snprintf(id, sizeof id, "%.36s.%d", r.id, children);
            const uint64_t hi = r.lo + j * pw < r.hi ? r.lo + j * pw : r.hi;
            const int ci = add_region(t, ri, r.lo + i * pw, hi, id);
            if (ci < 0)
                break;
            if (!children)
                t->regions[ri].first_child = ci;
            t->regions[ri].n_children = ++children;
            zoom(t, ci);
        }
        i = j;
    }
    free(count);
}

static void build(zoom_tool *t)
{
    if (t->built)
        return;
    t->built = true;
    t->sorted = malloc((edan_keymap_size(&t->map) + 1) * sizeof *t->sorted);
    t->regions = malloc(MAX_REGIONS * sizeof *t->regions);
    if (!t->sorted || !t->regions)
        return;
    for (size_t i = 0; i < edan_keymap_capacity(&t->map); i++) {
        const zb *e = edan_keymap_at(&t->map, i, NULL, NULL);
        if (e)
            t->sorted[t->n_sorted++] = *e;
    }
    qsort(t->sorted, t->n_sorted, sizeof *t->sorted, by_block);
    if (!t->n_sorted)
        return;
    const uint64_t lo = (t->sorted[0].block - 1) * BLOCK, hi = t->sorted[t->n_sorted - 1].block * BLOCK;
    const uint64_t split = t->have_heap_end ? (t->heap_end / BLOCK) * BLOCK : hi;
    if (split > lo) { /* the heap (everything without --heap-end) */
        const int root = add_region(t, -1, lo, split < hi ? split : hi, "R");
        zoom(t, root);
    }
    if (t->have_heap_end && split < hi) /* the stack: reported, not zoomed */
        add_region(t, -1, split > lo ? split : lo, hi, "S");
}

/* ===================================================================== */
/* Attribution: the heavy hitters of a region's blocks, by function and line */
/* ===================================================================== */

static int by_accesses_desc(const void *a, const void *b)
{
    const zoom_attr *x = a, *y = b;
    return x->accesses < y->accesses ? 1 : x->accesses > y->accesses ? -1 : 0;
}

/* The top functions (lines: false) or source lines (true) of region r, into out[TOP]; their number. */
static int top_of(const zoom_tool *t, const zoom_region *r, const edan_elf *elf, edan_srcmap *src, bool lines,
                  zoom_attr *out)
{
    size_t cap = 64, n = 0;
    zoom_attr *acc = calloc(cap, sizeof *acc);
    for (size_t i = lower(t, r->lo); acc && i < t->n_sorted && (t->sorted[i].block - 1) * BLOCK < r->hi; i++) {
        for (int k = 0; k < 2; k++) {
            const zb *e = &t->sorted[i];
            if (!e->cnt[k] || !e->id[k])
                continue;
            const uint64_t pc = t->id_pc[e->id[k] - 1];
            zoom_attr a = {NULL, NULL, 0, e->cnt[k]};
            if (lines) {
                edan_srcloc loc = {NULL, NULL, 0};
                if (src)
                    edan_srcmap_lookup(src, pc, &loc);
                a.name = loc.function;
                a.file = loc.file;
                a.line = loc.line;
            } else {
                const edan_elf_func *f = elf ? edan_elf_func_at(elf, pc) : NULL;
                a.name = f ? f->name : NULL;
            }
            size_t j = 0;
            while (j < n && !(acc[j].name == a.name && acc[j].file == a.file && acc[j].line == a.line))
                j++;
            if (j < n) {
                acc[j].accesses += a.accesses;
                continue;
            }
            if (n == cap) {
                zoom_attr *m = realloc(acc, 2 * cap * sizeof *m);
                if (!m)
                    break;
                acc = m;
                cap *= 2;
            }
            acc[n++] = a;
        }
    }
    if (!acc)
        return 0;
    qsort(acc, n, sizeof *acc, by_accesses_desc);
    const int m = n < TOP ? (int)n : TOP;
    memcpy(out, acc, (size_t)m * sizeof *acc);
    free(acc);
    return m;
}

/* ===================================================================== */
/* Report                                                                 */
/* ===================================================================== */

#define STR_(x) #x
#define STR(x) STR_(x)

/* How text shows the scalars (the title), the regions and (when the tree stopped at its most regions) a note. */
static const edan_text_view views[3] = {
    {.title = "\nzoom (hot regions: {pages} pages a level, a hot run holds over {threshold}% of its region's "
              "accesses, stop at {stop_bytes} bytes; 64-byte blocks)"},
    {.heading_always = true},
    {.title = "  (stopped at " STR(MAX_REGIONS) " regions)"},
};

/*
 * The tables: the tree's scalars (tab[0]) around its regions (tab[1]), each
 * with its functions and lines (*more, 2 a region; free_session_results() frees
 * them), and the results r[3] they render as. -1 when out of memory.
 */
static int results(const zoom_tool *t, const edan_elf *elf, edan_srcmap *src, edan_table *tab, edan_table **more_p,
                   edan_result *res)
{
    for (int k = 0; k < 3; k++)
        res[k] = (edan_result){.t = &tab[k == 1], .view = views[k], .left = k ? EDAN_NO_JSON : 0};
    res[2].left |= t->n_regions == MAX_REGIONS ? 0 : EDAN_NO_TEXT;
    /* the tables, then the rows they are bound to: a region's functions, then its lines (free(more) frees both) */
    const size_t n_tables = 2 * (size_t)t->n_regions + 1;
    edan_table *more = *more_p =
        calloc(1, n_tables * sizeof *more + 2 * TOP * (size_t)t->n_regions * sizeof(zoom_attr));
    if (!more)
        return -1;
    zoom_attr *at = (zoom_attr *)(more + n_tables);
    edan_table_init(&tab[0], &edan_zoom_tables[0]);
    edan_table_init(&tab[1], &edan_zoom_tables[1]);
    edan_value *z = edan_table_row(&tab[0], 0);
    if (z) {
        z[Z_BLOCK_BYTES].u = BLOCK;
        z[Z_PAGES].u = t->pages;
        z[Z_THRESHOLD].f = t->threshold;
        z[Z_STOP].u = t->stop;
        z[Z_HEAP_END] = (edan_value){.opt = {t->heap_end, t->have_heap_end}};
        z[Z_ALL].u = t->accesses;
        z[Z_TRUNCATED].b = t->n_regions == MAX_REGIONS;
        z[Z_REGIONS].rows = &tab[1];
    }
    for (int i = 0; i < t->n_regions; i++) {
        const zoom_region *r = &t->regions[i];
        zoom_attr *fn = &at[2 * TOP * i], *ln = fn + TOP;
        const int nf = top_of(t, r, elf, src, false, fn);
        const int nl = src ? top_of(t, r, NULL, src, true, ln) : 0;
        edan_table *f = &more[2 * i], *l = &more[2 * i + 1];
        edan_table_of(f, &edan_zoom_tables[2], fn, (size_t)nf, sizeof *fn);
        edan_table_of(l, &edan_zoom_tables[3], ln, (size_t)nl, sizeof *ln);
        edan_value *v = edan_table_row_of(&tab[1], 0, r, NULL);
        if (!v)
            continue;
        char label[64], from[600] = "";
        snprintf(label, sizeof label, "%*s%.22s", r->level < 8 ? 2 * r->level : 16, "", r->id);
        if (nl) {
            snprintf(from, sizeof from, "%s (%s:%u)", ln[0].name ? ln[0].name : "?", edan_srcmap_file_name(ln[0].file),
                     ln[0].line);
        } else if (nf) {
            snprintf(from, sizeof from, "%s", fn[0].name ? fn[0].name : "?");
        }
        v[Z_LABEL].s = edan_table_str(&tab[1], label);
        v[Z_LEAF].b = !r->n_children;
        v[Z_FUNCTIONS].rows = f;
        v[Z_LINES].rows = l;
        v[Z_GAP].s = "";
        v[Z_FROM].s = edan_table_str(&tab[1], from);
    }
    return 0;
}

/* What the session renders: the tables, their results and the symbols and lines their rows point at. */
typedef struct zoom_results {
    edan_table tab[2], *more; /* more: 2 a region */
    int n_more;
    edan_result r[3];
    zoom_mg_tables mg; /* --memgaze-compat's instead */
    bool memgaze, have_elf;
    edan_elf elf;
    edan_srcmap *src;
} zoom_results;

static void free_session_results(void *own)
{
    zoom_results *m = own;
    for (int i = 0; i < m->n_more; i++)
        edan_table_free(&m->more[i]);
    edan_table_free(&m->tab[0]);
    edan_table_free(&m->tab[1]);
    free(m->more);
    if (m->memgaze)
        zoom_mg_tables_free(&m->mg);
    edan_srcmap_close(m->src);
    if (m->have_elf)
        edan_elf_close(&m->elf);
    free(m);
}

static int session_results(void *tool, const edan_session *s, edan_tool_results *x)
{
    zoom_tool *t = tool;
    zoom_results *m = calloc(1, sizeof *m);
    if (!m || (t->mg && zoom_mg_build(t->mg))) {
        free(m);
        return -1;
    }
    if ((m->memgaze = t->mg != NULL)) {
        zoom_mg_tables_of(t->mg, &m->mg);
        *x = (edan_tool_results){m->mg.r, 2, m};
        return 0;
    }
    build(t);
    /* the shared objects' functions and lines too: known now that the stream is over */
    m->have_elf = edan_session_functions(s, &m->elf);
    const bool symbols = m->have_elf;
    m->src = symbols ? edan_session_srcmap(s) : NULL;
    if (results(t, symbols ? &m->elf : NULL, m->src, m->tab, &m->more, m->r)) {
        free_session_results(m);
        return -1;
    }
    m->n_more = 2 * t->n_regions;
    *x = (edan_tool_results){m->r, 3, m};
    return 0;
}

/* ===================================================================== */
/* The tool                                                               */
/* ===================================================================== */

static void destroy(void *tool)
{
    zoom_tool *t = tool;
    if (!t)
        return;
    edan_reuse_free(t->tracker);
    edan_keymap_free(&t->map);
    if (t->mg)
        zoom_mg_free(t->mg);
    free(t->mg);
    free(t->id_pc);
    free(t->sorted);
    free(t->regions);
    free(t);
}

static void *create(edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    zoom_tool *t = calloc(1, sizeof *t);
    if (!t || edan_keymap_init(&t->map, sizeof(zb)) || !(t->tracker = edan_reuse_new(true))) {
        destroy(t);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    const char *v;
    uint64_t n;
    t->pages = (v = edan_options_last(o, "zoom-pages")) && !edan_parse_u64(v, &n) ? (uint32_t)n : 512;
    double p = 10;
    if ((v = edan_options_last(o, "zoom-threshold")))
        edan_parse_double(v, &p);
    t->threshold = p / 100;
    t->stop = 16384;
    if ((v = edan_options_last(o, "zoom-stop")))
        edan_parse_size(v, strlen(v), &t->stop);
    if ((v = edan_options_last(o, "heap-end")))
        t->have_heap_end = !parse_addr(v, &t->heap_end);
    t->by_sample = !o->across_samples;
    if (edan_options_last(o, "memgaze-compat")) {
        if (!(t->mg = malloc(sizeof *t->mg)) ||
            zoom_mg_init(t->mg, t->pages, t->threshold, t->stop, t->have_heap_end ? t->heap_end : MEMGAZE_HEAP_END)) {
            destroy(t);
            edan_error_set(err, "out of memory");
            return NULL;
        }
    }
    return t;
}

static edan_consumer consumer(void *t)
{
    return (edan_consumer){t, consume, finish, NULL, false};
}

static const edan_error *error(const void *t)
{
    return &((const zoom_tool *)t)->err;
}

/* --plot-dir: the region map, a bar per leaf region in address order, its share of the accesses. */
static int region_map(const zoom_tool *t, const char *dir, const char *name, const char *ident, edan_error *err)
{
    const char **labels = calloc((size_t)t->n_regions + 1, sizeof *labels);
    char(*text)[96] = calloc((size_t)t->n_regions + 1, sizeof *text);
    double *share = calloc((size_t)t->n_regions + 1, sizeof *share);
    size_t n = 0;
    for (int i = 0; labels && text && share && i < t->n_regions; i++) {
        const zoom_region *r = &t->regions[i];
        if (r->n_children)
            continue;
        snprintf(text[n], sizeof text[n], "%s %#" PRIx64 "+%" PRIu64 "K", r->id, r->lo, (r->hi - r->lo + 1023) / 1024);
        labels[n] = text[n];
        share[n] = t->accesses ? 100.0 * (double)r->accesses / (double)t->accesses : 0;
        n++;
    }
    int rc = labels && text && share ? 0 : -1;
    if (rc)
        edan_error_set(err, "out of memory");
    else if (n)
        rc = edan_plot_bars(dir, name, "zoom", "Hot memory regions (leaves of the zoom tree, in address order)", ident,
                            "share of accesses (%)", n, labels, share, err);
    free(labels);
    free(text);
    free(share);
    return rc;
}

/* --plot-dir: the region map (the tool's own zoom; MemGaze's tree is in the report alone); the session writes the CSV
 * file. */
static int plots(void *tool, const edan_session *s, edan_error *err)
{
    zoom_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    if (!o->plot_dir[0] || t->mg)
        return 0;
    build(t);
    char name[1100], ident[1600];
    edan_session_file_base(s, name, sizeof name);
    edan_session_plot_ident(s, ident, sizeof ident);
    return region_map(t, o->plot_dir, name, ident, err);
}

static const edan_tool_option options[] = {
    {"zoom", false,
     "  --zoom              hot memory regions, zooming from the whole address range to\n"
     "                      --zoom-stop: accesses, blocks, mean stack distance of their\n"
     "                      reuses, and the functions and lines that access them\n",
     NULL},
    {"zoom-pages", true, "  --zoom-pages=N      pages a region is cut into at each level [512]\n", check_pages},
    {"zoom-threshold", true,
     "  --zoom-threshold=P  a hot run of pages holds over P percent of its region's accesses [10]\n", check_threshold},
    {"zoom-stop", true, "  --zoom-stop=BYTES   a region this wide or narrower is not cut [16K]\n", check_stop},
    {"memgaze-compat", false,
     "  --memgaze-compat    with --zoom: the regions MemGaze's own location analysis reports\n"
     "                      (loc-anlys --pnum 512 --zoomRUD), its rules and quirks included:\n"
     "                      byte addresses, pages of MemGaze's widths, its final regions\n"
     "                      at 64-byte pages (--heap-end defaults to 0x7f0000000000)\n",
     NULL},
    {"heap-end", true,
     "  --heap-end=ADDR     accesses at and above ADDR (the stack) are a region of their own,\n"
     "                      not zoomed into\n",
     check_heap_end},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_zoom_tool = {
    .name = "zoom",
    .summary = "hot memory regions, zooming down to a stop width (MemGaze's location analysis)",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .results = session_results,
    .free_results = free_session_results,
    .tables = edan_zoom_tables,
    .outputs = plots,
    .destroy = destroy,
    .threaded = true,
    .reads_program = true,
};
