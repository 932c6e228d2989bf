#include "util/symbols/srcmap.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/files.h"
#include "util/symbols/elf_symbols.h"

/* One address range of a compilation unit. */
typedef struct edan_srcmap_range {
    uint64_t lo, hi; /* [lo, hi) */
    uint64_t max_hi; /* max hi over this and all earlier ranges: lets lookups stop scanning back */
    size_t cu;       /* index into cus */
} edan_srcmap_range;

enum { EDAN_SRCMAP_EMPTY = 0, EDAN_SRCMAP_HIT, EDAN_SRCMAP_MISS };

/* A cached lookup result. Misses are cached too: a pc without DWARF repeats as often as one with. */
typedef struct edan_srcmap_slot {
    uint64_t pc;
    const char *function, *file;
    unsigned line;
    uint8_t state;
} edan_srcmap_slot;

/*
 * A function's code in a unit: one address range of a subprogram or an
 * inlined subroutine, at its depth in the unit's DIE tree. A unit's scopes
 * are read once, in one walk of its DIEs, the first time a pc in it is
 * looked up: dwarf_getscopes() walks the unit from its root for every pc,
 * which on a large C++ unit costs milliseconds a pc.
 */
typedef struct edan_srcmap_scope {
    uint64_t lo, hi; /* [lo, hi) */
    uint64_t max_hi; /* max hi over this and all earlier scopes of the unit (sorted by lo) */
    unsigned depth;  /* a scope inside another is deeper: the deepest scope holding pc is the innermost */
    bool named;      /* name below resolved (it may be NULL) */
    const char *name;
    Dwarf_Die die;
} edan_srcmap_scope;

typedef struct edan_srcmap_scopes {
    edan_srcmap_scope *s; /* sorted by lo */
    size_t n;
    bool read;
} edan_srcmap_scopes;

/*
 * One file's DWARF: the program's, or a shared object's (its own when built with -g, else its debug file's), read
 * at the object's first lookup. Its addresses are the file's link addresses: a pc is looked up at pc - shift.
 */
typedef struct srcmap_dwarf {
    int fd;
    Elf *elf;
    Dwarf *dw;
    Dwarf_Die *cus;
    edan_srcmap_scopes *scopes; /* per unit, read on first use */
    size_t n_cus;
    edan_srcmap_range *ranges; /* sorted by lo */
    size_t n_ranges;
    uint64_t lo, hi, base, shift; /* an object's: the run-time addresses its mappings cover, its base and shift */
    char *path;                   /* an object's file (NULL: the program's) */
    bool read;                    /* an object's DWARF was looked for */
} srcmap_dwarf;

struct edan_srcmap {
    srcmap_dwarf prog;  /* the program's */
    srcmap_dwarf *objs; /* the shared objects', edan_srcmap_add_objects */
    size_t n_objs;
    edan_elf syms;           /* fallback names for code without DWARF (the static C library), the objects' included */
    edan_srcmap_slot *slots; /* open addressing, linear probing; capacity is a power of two */
    size_t cap, used;
    /* syms' functions sorted by symbol, then by place in syms (the first of equal symbols first): made at the
       first linkage name that is not the symbol at its pc (an inlined function's), NULL until then */
    const edan_elf_func **by_symbol;
    bool by_symbol_tried;
};

static int edan_srcmap_cmp_range(const void *a, const void *b)
{
    const edan_srcmap_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Append to a growable array; false on overflow or out of memory. */
static bool edan_srcmap_grow(void **arr, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return true;
    size_t nc = *cap ? *cap * 2 : 16;
    if (nc > SIZE_MAX / elem)
        return false;
    void *p = realloc(*arr, nc * elem);
    if (!p)
        return false;
    *arr = p;
    *cap = nc;
    return true;
}

/*
 * Index every unit's address ranges ourselves instead of relying on
 * dwarf_addrdie: that needs .debug_aranges, which not every toolchain emits,
 * while DW_AT_ranges / low_pc+high_pc are always present for units with code.
 * has_lines (NULL: not looked for) tells whether any unit has a line table.
 */
static bool edan_srcmap_index(srcmap_dwarf *d, const char *path, bool *has_lines, edan_error *err)
{
    size_t cu_cap = 0, range_cap = 0;
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie;
    int rc;
    while ((rc = dwarf_get_units(d->dw, cu, &cu, NULL, NULL, &cudie, NULL)) == 0) {
        if (dwarf_tag(&cudie) != DW_TAG_compile_unit && dwarf_tag(&cudie) != DW_TAG_partial_unit &&
            dwarf_tag(&cudie) != DW_TAG_skeleton_unit)
            continue; /* type units carry no code */
        Dwarf_Lines *lines;
        size_t nlines = 0;
        if (has_lines && !*has_lines && dwarf_getsrclines(&cudie, &lines, &nlines) == 0 && nlines > 0)
            *has_lines = true;
        if (!edan_srcmap_grow((void **)&d->cus, &cu_cap, d->n_cus, sizeof *d->cus))
            goto oom;
        size_t idx = d->n_cus++;
        d->cus[idx] = cudie;
        Dwarf_Addr base, lo, hi;
        ptrdiff_t off = 0;
        while ((off = dwarf_ranges(&cudie, off, &base, &lo, &hi)) > 0) {
            if (hi <= lo)
                continue;
            if (!edan_srcmap_grow((void **)&d->ranges, &range_cap, d->n_ranges, sizeof *d->ranges))
                goto oom;
            d->ranges[d->n_ranges++] = (edan_srcmap_range){.lo = lo, .hi = hi, .cu = idx};
        }
        /* A unit whose ranges are unreadable just gets no attribution: lookups must not fail for one bad unit. */
    }
    if (rc < 0) {
        edan_error_set(err, "%s: cannot read DWARF units: %s", path, dwarf_errmsg(-1));
        return false;
    }
    if (d->n_cus && !(d->scopes = calloc(d->n_cus, sizeof *d->scopes)))
        goto oom;
    if (d->n_ranges)
        qsort(d->ranges, d->n_ranges, sizeof *d->ranges, edan_srcmap_cmp_range);
    uint64_t max_hi = 0;
    for (size_t i = 0; i < d->n_ranges; i++) {
        if (d->ranges[i].hi > max_hi)
            max_hi = d->ranges[i].hi;
        d->ranges[i].max_hi = max_hi;
    }
    return true;
oom:
    edan_error_set(err, "%s: out of memory indexing DWARF", path);
    return false;
}

static void dwarf_close(srcmap_dwarf *d)
{
    for (size_t i = 0; d->scopes && i < d->n_cus; i++)
        free(d->scopes[i].s);
    free(d->scopes);
    free(d->ranges);
    free(d->cus);
    if (d->dw)
        dwarf_end(d->dw);
    if (d->elf)
        elf_end(d->elf);
    if (d->fd >= 0)
        close(d->fd);
    free(d->path);
    memset(d, 0, sizeof *d);
    d->fd = -1;
}

edan_srcmap *edan_srcmap_open(const char *path, edan_error *err)
{
    if (!path) {
        edan_error_set(err, "source map: no program path given");
        return NULL;
    }
    edan_srcmap *m = calloc(1, sizeof *m);
    if (!m) {
        edan_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    srcmap_dwarf *d = &m->prog;
    d->fd = -1;
    /* edan_elf_open checks that this is a 64-bit RISC-V executable, with the same messages as the tracer. */
    if (edan_elf_open(path, &m->syms, err) != 0)
        goto fail;
    d->fd = edan_input_open(path, "the program", 0, err);
    if (d->fd < 0)
        goto fail;
    d->elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL);
    if (!d->elf || elf_kind(d->elf) != ELF_K_ELF) {
        edan_error_set(err, "%s: not an ELF file: %s", path, elf_errmsg(-1));
        goto fail;
    }
    /* libdw does not export its error codes, so tell "no debug info" apart from "broken debug info" ourselves. */
    if (!edan_elf_has_dwarf(d->elf)) {
        edan_error_set(err, "%s: no DWARF debug info; rebuild the program with -g to get source file:line", path);
        goto fail;
    }
    d->dw = dwarf_begin_elf(d->elf, DWARF_C_READ, NULL);
    if (!d->dw) {
        edan_error_set(err, "%s: cannot read DWARF debug info (%s); rebuild the program with -g", path,
                       dwarf_errmsg(-1));
        goto fail;
    }
    bool has_lines = false;
    if (!edan_srcmap_index(d, path, &has_lines, err))
        goto fail;
    if (!has_lines) {
        edan_error_set(err, "%s: DWARF has no line table (.debug_line); rebuild the program with -g", path);
        goto fail;
    }
    m->cap = 1024;
    m->slots = calloc(m->cap, sizeof *m->slots);
    if (!m->slots) {
        edan_error_set(err, "%s: out of memory", path);
        goto fail;
    }
    return m;
fail:
    edan_srcmap_close(m);
    return NULL;
}

int edan_srcmap_add_objects(edan_srcmap *m, const edan_objmap *objects, edan_error *err)
{
    if (!objects || !objects->n)
        return 0;
    srcmap_dwarf *grown = realloc(m->objs, (m->n_objs + objects->n) * sizeof *grown);
    if (!grown) {
        edan_error_set(err, "out of memory naming the shared objects");
        return -1;
    }
    m->objs = grown;
    for (size_t i = 0; i < objects->n; i++) { /* their DWARF is read at their first lookup */
        const edan_object *o = &objects->objs[i];
        srcmap_dwarf *d = &m->objs[m->n_objs];
        memset(d, 0, sizeof *d);
        d->fd = -1;
        d->lo = o->lo;
        d->hi = o->hi;
        d->base = o->base;
        if (!(d->path = strdup(o->path))) {
            edan_error_set(err, "out of memory naming the shared objects");
            return -1;
        }
        m->n_objs++;
    }
    return edan_elf_add_objects(&m->syms, objects, err);
}

/* The DWARF that holds run-time pc: an object's (read at its first lookup: NULL when it has none), else the
 * program's. */
static srcmap_dwarf *dwarf_at(edan_srcmap *m, uint64_t pc)
{
    for (size_t i = 0; i < m->n_objs; i++) {
        srcmap_dwarf *d = &m->objs[i];
        if (pc < d->lo || pc >= d->hi)
            continue;
        if (!d->read) {
            d->read = true;
            const edan_object o = {d->path, d->lo, d->hi, d->base};
            edan_error ignored = {0};
            d->fd = edan_object_dwarf_open(&o, &d->shift);
            if (d->fd >= 0 && (!(d->elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL)) ||
                               !(d->dw = dwarf_begin_elf(d->elf, DWARF_C_READ, NULL)) ||
                               !edan_srcmap_index(d, d->path, NULL, &ignored))) {
                char *path = d->path; /* kept: the object is still this one, without lines */
                d->path = NULL;
                const uint64_t lo = d->lo, hi = d->hi;
                dwarf_close(d);
                *d = (srcmap_dwarf){.fd = -1, .lo = lo, .hi = hi, .path = path, .read = true};
            }
        }
        return d->dw ? d : NULL;
    }
    return &m->prog;
}

const edan_elf *edan_srcmap_elf(const edan_srcmap *m)
{
    return &m->syms;
}

void edan_srcmap_close(edan_srcmap *m)
{
    if (!m)
        return;
    dwarf_close(&m->prog);
    for (size_t i = 0; i < m->n_objs; i++)
        dwarf_close(&m->objs[i]);
    free(m->objs);
    free(m->by_symbol);
    free(m->slots);
    edan_elf_close(&m->syms);
    free(m);
}

/* The index of the unit containing pc, or SIZE_MAX. */
static size_t edan_srcmap_cu_at(const srcmap_dwarf *d, uint64_t pc)
{
    size_t lo = 0, hi = d->n_ranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->ranges[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Ranges may overlap (e.g. a partial unit); scan back only while an earlier range can still reach pc. */
    for (size_t i = lo; i > 0 && d->ranges[i - 1].max_hi > pc; i--)
        if (pc < d->ranges[i - 1].hi)
            return d->ranges[i - 1].cu;
    return SIZE_MAX;
}

static int edan_srcmap_cmp_symbol(const void *a, const void *b)
{
    const edan_elf_func *x = *(const edan_elf_func *const *)a, *y = *(const edan_elf_func *const *)b;
    const int c = strcmp(x->symbol, y->symbol);
    return c ? c : (x > y) - (x < y);
}

/*
 * A C++ function's name as every report prints it: the ELF symbol table's demangled signature
 * (elf_symbols.h) of the symbol named linkage, or NULL. Tried first at pc, then over all symbols: the
 * first in the table's order with that symbol, found in m->by_symbol (a scan of every symbol for each
 * inlined function's scope was a few per cent of a LULESH report with --machine).
 */
static const char *edan_srcmap_demangled(edan_srcmap *m, const char *linkage, uint64_t pc)
{
    const edan_elf_func *f = edan_elf_func_at(&m->syms, pc);
    if (f && !strcmp(f->symbol, linkage))
        return f->name;
    const size_t n = m->syms.n_funcs;
    if (!m->by_symbol_tried) {
        m->by_symbol_tried = true;
        if (n && (m->by_symbol = malloc(n * sizeof *m->by_symbol))) {
            for (size_t i = 0; i < n; i++)
                m->by_symbol[i] = &m->syms.funcs[i];
            qsort(m->by_symbol, n, sizeof *m->by_symbol, edan_srcmap_cmp_symbol);
        }
    }
    if (!m->by_symbol) { /* out of memory: the scan */
        for (size_t i = 0; i < n; i++)
            if (!strcmp(m->syms.funcs[i].symbol, linkage))
                return m->syms.funcs[i].name;
        return NULL;
    }
    size_t lo = 0, hi = n; /* the first whose symbol is not below linkage */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (strcmp(m->by_symbol[mid]->symbol, linkage) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && !strcmp(m->by_symbol[lo]->symbol, linkage) ? m->by_symbol[lo]->name : NULL;
}

/* The name of a subprogram or inlined subroutine DIE whose code holds pc, or NULL. */
static const char *edan_srcmap_die_name(edan_srcmap *m, Dwarf_Die *die, uint64_t pc)
{
    /* Inlined and out-of-line instances keep their name in the abstract origin: integrate follows it. */
    Dwarf_Attribute attr;
    const char *linkage = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
    const char *name = NULL;
    if (linkage) /* C++: the demangled signature, as the symbol table gives it to every report */
        name = edan_srcmap_demangled(m, linkage, pc);
    if (!name)
        name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
    return name ? name : linkage;
}

/* DIE nesting deeper than this is not followed (a hostile file must not exhaust the stack). */
#define EDAN_SRCMAP_MAX_DEPTH 200

typedef struct scope_list {
    edan_srcmap_scope *s;
    size_t n, cap;
    bool oom;
} scope_list;

/* The subprograms and inlined subroutines under die (at depth), with their address ranges. */
static void edan_srcmap_walk(Dwarf_Die *die, unsigned depth, scope_list *out)
{
    Dwarf_Die child;
    if (depth > EDAN_SRCMAP_MAX_DEPTH || out->oom || dwarf_child(die, &child) != 0)
        return;
    do {
        const int tag = dwarf_tag(&child);
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
            Dwarf_Addr base, lo, hi;
            ptrdiff_t off = 0;
            while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
                if (hi <= lo)
                    continue;
                if (!edan_srcmap_grow((void **)&out->s, &out->cap, out->n, sizeof *out->s)) {
                    out->oom = true;
                    return;
                }
                out->s[out->n++] = (edan_srcmap_scope){.lo = lo, .hi = hi, .depth = depth, .die = child};
            }
        }
        if (dwarf_haschildren(&child) > 0)
            edan_srcmap_walk(&child, depth + 1, out);
    } while (!out->oom && dwarf_siblingof(&child, &child) == 0);
}

static int edan_srcmap_cmp_scope(const void *a, const void *b)
{
    const edan_srcmap_scope *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo ? 1 : x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* Unit cu's scopes, read once. Out of memory leaves the unit without scopes (lookups fall back to symbols). */
static edan_srcmap_scopes *edan_srcmap_unit_scopes(srcmap_dwarf *d, size_t cu)
{
    edan_srcmap_scopes *u = &d->scopes[cu];
    if (u->read)
        return u;
    u->read = true;
    scope_list l = {NULL, 0, 0, false};
    edan_srcmap_walk(&d->cus[cu], 1, &l);
    if (l.oom) {
        free(l.s);
        return u;
    }
    if (l.n)
        qsort(l.s, l.n, sizeof *l.s, edan_srcmap_cmp_scope);
    uint64_t max_hi = 0;
    for (size_t i = 0; i < l.n; i++) {
        max_hi = l.s[i].hi > max_hi ? l.s[i].hi : max_hi;
        l.s[i].max_hi = max_hi;
    }
    u->s = l.s;
    u->n = l.n;
    return u;
}

/*
 * Name of the innermost subprogram or inlined subroutine containing pc that
 * has a name, or NULL (what dwarf_getscopes() would give, from the unit's
 * scopes read once). A scope's name is resolved once, at its first pc.
 */
/* (the unit's addresses are the DWARF's, lpc; pc the run-time address the symbols have) */
static const char *edan_srcmap_dwarf_function(edan_srcmap *m, srcmap_dwarf *d, size_t cu, uint64_t lpc, uint64_t pc)
{
    edan_srcmap_scopes *u = edan_srcmap_unit_scopes(d, cu);
    size_t lo = 0, hi = u->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u->s[mid].lo <= lpc)
            lo = mid + 1;
        else
            hi = mid;
    }
    const char *name = NULL;
    unsigned best = 0;
    for (size_t i = lo; i > 0 && u->s[i - 1].max_hi > lpc; i--) {
        edan_srcmap_scope *s = &u->s[i - 1];
        if (lpc >= s->hi || s->depth <= best)
            continue;
        if (!s->named) {
            s->name = edan_srcmap_die_name(m, &s->die, pc);
            s->named = true;
        }
        if (s->name) {
            name = s->name;
            best = s->depth;
        }
    }
    return name;
}

static void edan_srcmap_resolve(edan_srcmap *m, uint64_t pc, edan_srcmap_slot *s)
{
    s->function = NULL;
    s->file = NULL;
    s->line = 0;
    /* a shared object's code is looked up in its own DWARF, at the address the DWARF has */
    srcmap_dwarf *d = dwarf_at(m, pc);
    const uint64_t lpc = d ? pc - d->shift : pc;
    const size_t cu = d ? edan_srcmap_cu_at(d, lpc) : SIZE_MAX;
    if (cu != SIZE_MAX) {
        Dwarf_Line *l = dwarf_getsrc_die(&d->cus[cu], lpc);
        if (l) {
            int lineno = 0;
            s->file = dwarf_linesrc(l, NULL, NULL);
            if (dwarf_lineno(l, &lineno) == 0 && lineno > 0)
                s->line = (unsigned)lineno;
        }
        s->function = edan_srcmap_dwarf_function(m, d, cu, lpc, pc);
    }
    if (!s->function) {
        const edan_elf_func *f = edan_elf_func_at(&m->syms, pc);
        if (f)
            s->function = f->name;
    }
    s->state = s->function || s->file ? EDAN_SRCMAP_HIT : EDAN_SRCMAP_MISS;
}

static size_t edan_srcmap_hash(uint64_t pc)
{
    /* Instruction addresses are dense and 2-byte aligned: mix so they spread over all buckets. */
    pc ^= pc >> 33;
    pc *= 0xff51afd7ed558ccdull;
    pc ^= pc >> 33;
    return (size_t)pc;
}

static edan_srcmap_slot *edan_srcmap_probe(edan_srcmap_slot *slots, size_t cap, uint64_t pc)
{
    size_t i = edan_srcmap_hash(pc) & (cap - 1);
    while (slots[i].state != EDAN_SRCMAP_EMPTY && slots[i].pc != pc)
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

/* Double the table; on failure keep the old one (lookups still work, just uncached once it is full). */
static bool edan_srcmap_rehash(edan_srcmap *m)
{
    if (m->cap > SIZE_MAX / 2 / sizeof *m->slots)
        return false;
    size_t nc = m->cap * 2;
    edan_srcmap_slot *ns = calloc(nc, sizeof *ns);
    if (!ns)
        return false;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].state != EDAN_SRCMAP_EMPTY)
            *edan_srcmap_probe(ns, nc, m->slots[i].pc) = m->slots[i];
    free(m->slots);
    m->slots = ns;
    m->cap = nc;
    return true;
}

bool edan_srcmap_lookup(edan_srcmap *m, uint64_t pc, edan_srcloc *out)
{
    edan_srcloc dummy;
    if (!out)
        out = &dummy;
    *out = (edan_srcloc){0};
    if (!m)
        return false;
    edan_srcmap_slot *s = edan_srcmap_probe(m->slots, m->cap, pc);
    if (s->state == EDAN_SRCMAP_EMPTY) {
        /* Keep the load factor at most 1/2 so probe chains stay short. */
        if ((m->used + 1) * 2 > m->cap && edan_srcmap_rehash(m))
            s = edan_srcmap_probe(m->slots, m->cap, pc);
        if ((m->used + 1) * 2 > m->cap) {
            /* Could not grow: answer without caching rather than fill the table (probing needs an empty slot). */
            edan_srcmap_slot tmp = {.pc = pc};
            edan_srcmap_resolve(m, pc, &tmp);
            *out = (edan_srcloc){tmp.function, tmp.file, tmp.line};
            return tmp.state == EDAN_SRCMAP_HIT;
        }
        s->pc = pc;
        edan_srcmap_resolve(m, pc, s);
        m->used++;
    }
    if (s->state != EDAN_SRCMAP_HIT)
        return false;
    *out = (edan_srcloc){s->function, s->file, s->line};
    return true;
}

const char *edan_srcmap_file_name(const char *file)
{
    const char *base = file ? strrchr(file, '/') : NULL;
    return base ? base + 1 : file ? file : "?";
}
