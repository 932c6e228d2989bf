/*
 * mg_funcs.c - MemGaze's per-function footprints (see mg_funcs.h).
 *
 * Each traced load is counted for its function in a table keyed by
 * (function, address) with its loads per class; at the end the table is
 * sorted by function and address, so each function's class shares add up
 * in ascending address order, as MemGaze's std::map visits them.
 */
#include "memgaze/mg_funcs.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A (function, address) and its loads per class; func is the function's index + 1, 0 for an empty slot. */
typedef struct fentry {
    uint64_t addr;
    uint32_t func;
    uint32_t n[EDAN_MG_SLOTS];
} fentry;

/* A function's own count of loads and sample changes (MemGaze's Function::getMultiplier). */
typedef struct fstate {
    uint64_t loads;   /* traced loads */
    uint64_t total;   /* traced + skipped */
    uint64_t windows; /* changes of sample between its consecutive loads */
    uint32_t prev;
} fstate;

struct edan_mg_funcs {
    const edan_mg_struct *s;
    uint64_t period;
    fstate *fs;
    fentry *tab; /* open addressing, power-of-two capacity, at most half full */
    size_t cap, n;
    /* the whole trace, as MemGaze's main loop counts it */
    bool started;
    uint32_t prev;
    uint64_t windows, total, in_window;
    double *wm; /* period / loads, for each window ended */
    size_t nwm, capwm;
};

edan_mg_funcs *edan_mg_funcs_new(const edan_mg_struct *s, uint64_t period, edan_error *err)
{
    edan_mg_funcs *f = calloc(1, sizeof *f);
    if (f) {
        f->s = s;
        f->period = period;
        f->fs = calloc(edan_mg_struct_count(s), sizeof *f->fs);
        f->cap = 1024;
        f->tab = calloc(f->cap, sizeof *f->tab);
    }
    if (!f || !f->fs || !f->tab) {
        edan_mg_funcs_free(f);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    return f;
}

void edan_mg_funcs_free(edan_mg_funcs *f)
{
    if (!f)
        return;
    free(f->fs);
    free(f->tab);
    free(f->wm);
    free(f);
}

/* ---- counting --------------------------------------------------------------------------------- */

static size_t hash(uint64_t addr, uint32_t func)
{
    uint64_t h = (addr ^ ((uint64_t)func << 47)) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h ^ (h >> 29));
}

static fentry *slot_of(fentry *tab, size_t cap, uint64_t addr, uint32_t func)
{
    size_t i = hash(addr, func) & (cap - 1);
    while (tab[i].func && (tab[i].func != func || tab[i].addr != addr))
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

static int grow(edan_mg_funcs *f)
{
    size_t cap = 2 * f->cap;
    fentry *tab = calloc(cap, sizeof *tab);
    if (!tab)
        return -1;
    for (size_t i = 0; i < f->cap; i++)
        if (f->tab[i].func)
            *slot_of(tab, cap, f->tab[i].addr, f->tab[i].func) = f->tab[i];
    free(f->tab);
    f->tab = tab;
    f->cap = cap;
    return 0;
}

int edan_mg_funcs_add(edan_mg_funcs *f, uint64_t ip, const edan_mg_rec *r, uint32_t sample, edan_error *err)
{
    uint64_t loads = 1 + r->skipped;
    f->total += loads;
    f->in_window += loads;
    if (!f->started) {
        f->started = true;
    } else if (sample != f->prev) {
        /* a window's loads include the first load of the next one (MemGaze counts before it looks) */
        if (f->nwm == f->capwm) {
            size_t cap = f->capwm ? 2 * f->capwm : 1024;
            double *wm = realloc(f->wm, cap * sizeof *wm);
            if (!wm) {
                edan_error_set(err, "out of memory");
                return -1;
            }
            f->wm = wm;
            f->capwm = cap;
        }
        f->wm[f->nwm++] = (double)f->period / (double)f->in_window;
        f->windows++;
        f->in_window = 0;
    }
    f->prev = sample;
    long func = edan_mg_struct_find(f->s, ip);
    if (func < 0)
        return 0; /* no function: MemGaze counts it for none */
    fstate *fs = &f->fs[func];
    if (fs->loads && sample != fs->prev)
        fs->windows++;
    fs->prev = sample;
    fs->loads++;
    fs->total += loads;
    if ((f->n + 1) * 2 > f->cap && grow(f)) {
        edan_error_set(err, "out of memory for the functions' addresses");
        return -1;
    }
    fentry *e = slot_of(f->tab, f->cap, r->addr, (uint32_t)func + 1);
    if (!e->func) {
        e->func = (uint32_t)func + 1;
        e->addr = r->addr;
        f->n++;
    }
    if (e->n[r->slot] == UINT32_MAX) {
        edan_error_set(err, "more than %u loads of address 0x%llx in one function", UINT32_MAX,
                       (unsigned long long)r->addr);
        return -1;
    }
    e->n[r->slot]++;
    return 0;
}

/* ---- the lines ----------------------------------------------------------------------------------- */

static int by_func_addr(const void *a, const void *b)
{
    const fentry *x = a, *y = b;
    if (x->func != y->func)
        return x->func < y->func ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One line: MemGaze multiplies an int by a float for FP, and doubles by the float for the classes. */
static void line(FILE *out, const char *name, const char *label, uint64_t start, uint64_t size, uint64_t fp,
                 const double share[EDAN_MG_SLOTS], float m)
{
    float fpm = (float)fp * m;
    fprintf(out,
            "%s%s StartIP: %llx Size: %llu FP: %g lds: 0 Strided: %g Indirect: %g Constant: %g Unknown: %g Local "
            "multiplier = %g\n",
            name, label, (unsigned long long)start, (unsigned long long)size, (double)fpm,
            share[EDAN_MG_SLOT_STRIDED] * m, share[EDAN_MG_SLOT_IRREGULAR] * m, 0.0 * m,
            share[EDAN_MG_SLOT_UNKNOWN] * m, (double)m);
}

int edan_mg_funcs_write(const edan_mg_funcs *f, FILE *out)
{
    /* the multipliers of the whole trace */
    const double P = (double)f->period, total = (double)f->total, nw = (double)f->windows;
    double m2 = (nw * P - total) / total, median = 0, mean = 0, totals = 0;
    double *wm = NULL;
    if (f->nwm) {
        wm = malloc(f->nwm * sizeof *wm);
        if (!wm)
            return -1;
        memcpy(wm, f->wm, f->nwm * sizeof *wm);
        qsort(wm, f->nwm, sizeof *wm, by_value);
        size_t k = f->nwm;
        median = k % 2 ? wm[k / 2] : (wm[k / 2] + wm[k / 2 - 1]) / 2;
        double sum = 0;
        for (size_t i = 0; i < k; i++)
            sum += wm[i]; /* in ascending order, as MemGaze sums its sorted list */
        mean = sum / nw;
        totals = nw * P / total;
        free(wm);
    }
    fentry *e = malloc((f->n ? f->n : 1) * sizeof *e);
    if (!e)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < f->cap; i++)
        if (f->tab[i].func)
            e[n++] = f->tab[i];
    qsort(e, n, sizeof *e, by_func_addr);
    for (size_t i = 0; i < n;) {
        const uint32_t fi = e[i].func - 1;
        const fstate *fs = &f->fs[fi];
        double share[EDAN_MG_SLOTS] = {0};
        uint64_t fp = 0;
        for (; i < n && e[i].func == fi + 1; i++, fp++) {
            /* the class shares of MemGaze's getFPDiag: 1 for an address's only class, else fractions */
            int classes = 0;
            double all = 0;
            for (int s = 0; s < EDAN_MG_SLOTS; s++)
                if (e[i].n[s]) {
                    classes++;
                    all += (double)e[i].n[s];
                }
            for (int s = 0; s < EDAN_MG_SLOTS; s++)
                if (e[i].n[s])
                    share[s] += classes == 1 ? 1.0 : (double)e[i].n[s] / all;
        }
        const char *name = edan_mg_struct_name(f->s, fi);
        const uint64_t start = edan_mg_struct_start(f->s, fi);
        float own = fs->windows ? (float)((double)fs->windows * P / (double)fs->total) : 1.0f;
        line(out, name, "", start, fs->loads, fp, share, own);
        line(out, name, " M2", start, fs->loads, fp, share, (float)m2);
        line(out, name, " Med", start, fs->loads, fp, share, (float)median);
        line(out, name, " Mean", start, fs->loads, fp, share, (float)mean);
        line(out, name, " tot", start, fs->loads, fp, share, (float)totals);
    }
    free(e);
    return ferror(out) ? -1 : 0;
}
