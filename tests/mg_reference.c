/*
 * mg_reference.c - MemGaze's footprint table the slow way (see mg_reference.h).
 *
 * Classes are kept as MemGaze keeps them after reading them with std::hex:
 * 90 (store) becomes 0x90. A window's map is a list of (address, class,
 * count) sorted by address then class, like its std::map of std::maps.
 */
#include "mg_reference.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rload {
    uint64_t addr;
    int type;  /* -1, 1, 2 or 0x90 */
    int extra; /* constant loads folded in */
    int sid;   /* MemGaze's sample number */
} rload;

typedef struct mentry {
    uint64_t addr;
    int type;
    long count;
} mentry;

typedef struct win {
    struct win *left, *right;
    bool head;
    size_t *recs; /* the loads under it (indices), in order */
    size_t n;
    mentry *map;
    size_t nmap;
} win;

/* ---- a window's map -------------------------------------------------------------------- */

static void map_add(win *w, uint64_t addr, int type, long count)
{
    size_t i = 0;
    while (i < w->nmap && (w->map[i].addr < addr || (w->map[i].addr == addr && w->map[i].type < type)))
        i++;
    if (i < w->nmap && w->map[i].addr == addr && w->map[i].type == type) {
        w->map[i].count += count;
        return;
    }
    w->map = realloc(w->map, (w->nmap + 1) * sizeof *w->map);
    memmove(&w->map[i + 1], &w->map[i], (w->nmap - i) * sizeof *w->map);
    w->map[i] = (mentry){addr, type, count};
    w->nmap++;
}

/* Window::addAddress: the load's class, and its constant loads as class 0 when it has some. */
static void add_address(win *w, const rload *ld, size_t idx)
{
    w->recs = realloc(w->recs, (w->n + 1) * sizeof *w->recs);
    w->recs[w->n++] = idx;
    map_add(w, ld[idx].addr, ld[idx].type, 1);
    if (ld[idx].extra > 0)
        map_add(w, ld[idx].addr, 0, ld[idx].extra);
}

/* addLeftChild / addRightChild: Window::addWindow, then the child's loads appended. */
static void add_child(win *w, win *c, const rload *ld)
{
    if (w->nmap == 0) {
        /* an empty map: rebuilt from the loads, classes only */
        for (size_t i = 0; i < w->n; i++)
            map_add(w, ld[w->recs[i]].addr, ld[w->recs[i]].type, 1);
        for (size_t i = 0; i < c->n; i++)
            map_add(w, ld[c->recs[i]].addr, ld[c->recs[i]].type, 1);
    } else {
        for (size_t i = 0; i < c->nmap; i++)
            map_add(w, c->map[i].addr, c->map[i].type, c->map[i].count);
    }
    w->recs = realloc(w->recs, (w->n + c->n) * sizeof *w->recs);
    memcpy(w->recs + w->n, c->recs, c->n * sizeof *w->recs);
    w->n += c->n;
}

static win *new_win(void)
{
    return calloc(1, sizeof(win));
}

/* ---- buildTree ------------------------------------------------------------------------ */

static win *build(win **ws, size_t n, const rload *ld)
{
    if (n == 1)
        return ws[0];
    if (n == 2) {
        win *w = new_win();
        w->left = ws[0];
        w->right = ws[1];
        add_child(w, ws[0], ld);
        add_child(w, ws[1], ld);
        return w;
    }
    size_t m = 0;
    win **up = malloc((n / 2 + 1) * sizeof *up);
    for (size_t i = 0; i < n; i += 2) {
        win *w = new_win();
        w->left = ws[i];
        add_child(w, ws[i], ld);
        if (i + 1 < n) {
            w->right = ws[i + 1];
            add_child(w, ws[i + 1], ld);
        }
        up[m++] = w;
    }
    win *root = build(up, m, ld);
    free(up);
    return root;
}

/* ---- printTree ---------------------------------------------------------------------------- */

enum { KEYS = 70 };
typedef struct row {
    bool used, in_sample;
    double nodes, fp, unknown, constant, strided, indirect, size;
} row;

static void visit(win *w, const rload *ld, row *rows, bool in_sample)
{
    if (!w)
        return;
    double diag[3] = {0, 0, 0}; /* unknown, strided, indirect */
    for (size_t i = 0; i < w->nmap;) {
        size_t j = i;
        double total = 0;
        while (j < w->nmap && w->map[j].addr == w->map[i].addr)
            total += (double)w->map[j++].count;
        for (size_t k = i; k < j; k++) {
            int t = w->map[k].type;
            double share = j - i == 1 ? 1.0 : (double)w->map[k].count / total;
            if (t == -1)
                diag[0] += share;
            else if (t == 1)
                diag[1] += share;
            else if (t == 2)
                diag[2] += share;
        }
        i = j;
    }
    size_t fp = 0;
    for (size_t i = 0; i < w->nmap; i++)
        fp += i == 0 || w->map[i].addr != w->map[i - 1].addr;
    long constant = 0;
    for (size_t i = 0; i < w->n; i++)
        constant += ld[w->recs[i]].extra;
    long size = (long)w->n + constant;
    int key = (int)log2((double)size);
    if (key < 3)
        key = 3;
    if (size > pow(2, key))
        key++;
    row *r = &rows[key];
    r->used = true;
    r->nodes += 1;
    r->fp += (double)fp;
    r->unknown += diag[0];
    r->constant += (double)constant;
    r->strided += diag[1];
    r->indirect += diag[2];
    r->size += (double)size;
    r->in_sample = in_sample;
    bool below = w->head || in_sample;
    visit(w->left, ld, rows, below);
    visit(w->right, ld, rows, below);
}

static void free_win(win *w)
{
    if (!w)
        return;
    free_win(w->left);
    free_win(w->right);
    free(w->recs);
    free(w->map);
    free(w);
}

/* ---- the reading loop, the main loop, the table ------------------------------------------------ */

static void cell(FILE *f, double v)
{
    char b[40];
    snprintf(b, sizeof b, "%g", v);
    fprintf(f, "%-16s", b);
}

char *mg_reference_table(const edan_mg_load *loads, size_t n, const edan_mg_classes *classes, uint64_t period)
{
    rload *ld = malloc((n + 1) * sizeof *ld);
    size_t nl = 0;
    int prev = 0, sid = 0, missing = 0;
    long ip_to_add = -1;
    for (size_t i = 0; i < n; i++) {
        uint32_t xtr;
        int type = edan_mg_classes_find(classes, loads[i].ip, &xtr);
        if (type == 90)
            type = 0x90;
        int in = loads[i].sample;
        if (type == 0) {
            if (prev != 0 && prev != in) {
                if (ip_to_add >= 0) {
                    ld[ip_to_add].extra += missing;
                    ip_to_add = -1;
                }
                missing = (int)xtr + 1;
            } else {
                missing += (int)xtr + 1;
            }
            continue;
        }
        if (prev == 0) {
            prev = in;
        } else if (prev != in) {
            sid++;
            prev = in;
        }
        ld[nl] = (rload){loads[i].addr, type, (int)xtr + missing, sid};
        missing = 0;
        ip_to_add = (long)nl++;
    }
    if (nl == 0) {
        free(ld);
        return NULL;
    }
    /* the main loop: leaves of 8 loads, a tree per sample */
    win **forest = malloc(nl * sizeof *forest), **leaves = malloc(nl * sizeof *leaves), *w = NULL;
    size_t nforest = 0, nleaves = 0, windows = 0;
    int in_w = 0, prev_sid = ld[0].sid;
    long total = 0;
    for (size_t i = 0; i < nl; i++) {
        total += 1 + ld[i].extra;
        if (ld[i].sid != prev_sid) {
            windows++;
            leaves[nleaves++] = w;
            forest[nforest] = build(leaves, nleaves, ld);
            forest[nforest++]->head = true;
            nleaves = 0;
            w = new_win();
            add_address(w, ld, i);
            in_w = 0;
        } else if (!w) {
            w = new_win();
            add_address(w, ld, i);
        } else if (in_w == 7) {
            leaves[nleaves++] = w;
            w = new_win();
            add_address(w, ld, i);
            in_w = 0;
        } else {
            add_address(w, ld, i);
            in_w++;
        }
        prev_sid = ld[i].sid;
    }
    leaves[nleaves++] = w;
    forest[nforest] = build(leaves, nleaves, ld);
    forest[nforest++]->head = true;
    win *root = build(forest, nforest, ld);
    row rows[KEYS] = {0};
    visit(root, ld, rows, false);

    double m = windows ? (double)windows * (double)period / (double)total : 0;
    if (m < 1)
        m = 1;
    char *out;
    size_t len;
    FILE *f = open_memstream(&out, &len);
    const char *cols[] = {"LVL",
                          "Number_of_Nodes",
                          "Multiplier",
                          "Window_Size",
                          "FP",
                          "Strided_FP",
                          "Indirect_FP",
                          "Constant_Loads",
                          "Unknown",
                          "Total_Loads",
                          "Cont2Load_ratio",
                          "NPF_Rate",
                          "NPF_Growth_Rate",
                          "Growth_Rate"};
    for (int i = 0; i < 14; i++)
        fprintf(f, "%-16s", cols[i]);
    fprintf(f, "\n");
    for (int k = 0; k < KEYS; k++) {
        const row *r = &rows[k];
        if (!r->used)
            continue;
        int nn = (int)r->nodes;
        fprintf(f, "%-16d%-16d", k, nn);
        double s = r->in_sample ? 1 : m;
        if (r->in_sample)
            fprintf(f, "%-16d", 1);
        else
            cell(f, m);
        double v[] = {r->size, r->fp, r->strided, r->indirect, r->constant, r->unknown, r->size + r->constant};
        for (int i = 0; i < 7; i++)
            cell(f, r->in_sample ? v[i] / nn : (v[i] / nn) * s);
        cell(f, ((r->constant / nn) * m) / (((r->size + r->constant) / nn) * m));
        cell(f, r->indirect / r->fp);
        cell(f, ((r->indirect / nn) * m) / ((r->size / nn) * m));
        cell(f, ((r->fp / nn) * m) / ((r->size / nn) * m));
        fprintf(f, "\n");
    }
    fclose(f);
    free_win(root);
    free(forest);
    free(leaves);
    free(ld);
    return out;
}

/* ---- the functions: Function::calcFP, getFPDiag, getMultiplier, and main's five lines ------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_ulong(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return x < y ? -1 : x > y;
}

/* Function::getMultiplier over the loads idx[0..m) of one function (a float, as it returns). */
static float function_multiplier(const rload *ld, const size_t *idx, size_t m, uint64_t period)
{
    int windows = 0, current_ws = 0, prev = 0, total = 0;
    unsigned long *wsize = malloc((m + 1) * sizeof *wsize);
    for (size_t k = 0; k < m; k++) {
        const rload *r = &ld[idx[k]];
        total += 1 + r->extra;
        current_ws++;
        if (k == 0)
            prev = r->sid;
        if (prev != r->sid) {
            wsize[windows++] = (unsigned long)current_ws;
            current_ws = 0;
        }
        prev = r->sid;
    }
    double from_totals = windows ? ((double)windows * (double)period) / (double)total : 0;
    qsort(wsize, (size_t)windows, sizeof *wsize, cmp_ulong);
    int median = 0;
    if (windows)
        median = windows % 2 ? (int)wsize[windows / 2] : (int)((wsize[windows / 2] + wsize[windows / 2 - 1]) / 2);
    free(wsize);
    if (median)
        return (float)from_totals;
    return from_totals ? (float)from_totals : 1.0f;
}

char *mg_reference_functions(const edan_mg_load *loads, size_t n, const edan_mg_classes *classes,
                             const edan_mg_struct *st, uint64_t period)
{
    /* the same reading loop as the table's */
    rload *ld = malloc((n + 1) * sizeof *ld);
    size_t nl = 0;
    int prev = 0, sid = 0, missing = 0;
    long ip_to_add = -1;
    uint64_t *ips = malloc((n + 1) * sizeof *ips);
    for (size_t i = 0; i < n; i++) {
        uint32_t xtr;
        int type = edan_mg_classes_find(classes, loads[i].ip, &xtr);
        int in = loads[i].sample;
        if (type == 0) {
            if (prev != 0 && prev != in) {
                if (ip_to_add >= 0)
                    ld[ip_to_add].extra += missing;
                ip_to_add = -1;
                missing = (int)xtr + 1;
            } else {
                missing += (int)xtr + 1;
            }
            continue;
        }
        if (prev == 0) {
            prev = in;
        } else if (prev != in) {
            sid++;
            prev = in;
        }
        ld[nl] = (rload){loads[i].addr, type == 90 ? 0x90 : type, (int)xtr + missing, sid};
        ips[nl] = loads[i].ip;
        missing = 0;
        ip_to_add = (long)nl++;
    }
    /* main's loop: the whole trace's windows, and each load to its function */
    size_t nf = edan_mg_struct_count(st);
    size_t **fv = calloc(nf, sizeof *fv), *fn = calloc(nf, sizeof *fn);
    double *wm = malloc((nl + 1) * sizeof *wm);
    int windows = 0, in_window = 0, total = 0, prev_sid = nl ? ld[0].sid : 0;
    for (size_t i = 0; i < nl; i++) {
        total += 1 + ld[i].extra;
        in_window += 1 + ld[i].extra;
        long f = edan_mg_struct_find(st, ips[i]);
        if (f >= 0) {
            fv[f] = realloc(fv[f], (fn[f] + 1) * sizeof **fv);
            fv[f][fn[f]++] = i;
        }
        if (ld[i].sid != prev_sid) {
            wm[windows++] = (double)period / (double)in_window;
            in_window = 0;
        }
        prev_sid = ld[i].sid;
    }
    double median = 0, mean = 0, totals = 0;
    if (windows) {
        qsort(wm, (size_t)windows, sizeof *wm, cmp_double);
        median = windows % 2 ? wm[windows / 2] : (wm[windows / 2] + wm[windows / 2 - 1]) / 2;
        double sum = 0;
        for (int i = 0; i < windows; i++)
            sum += wm[i];
        mean = sum / windows;
        totals = ((double)windows * (double)period) / (double)total;
    }
    double m2 = (((double)windows * (double)period) - (double)total) / (double)total;
    char *out;
    size_t len;
    FILE *o = open_memstream(&out, &len);
    for (size_t f = 0; f < nf; f++) {
        if (!fn[f])
            continue;
        /* calcFP: a window's map without constant loads; getFPDiag as the table's */
        win w = {0};
        for (size_t k = 0; k < fn[f]; k++)
            map_add(&w, ld[fv[f][k]].addr, ld[fv[f][k]].type, 1);
        double diag[3] = {0, 0, 0};
        int fp = 0;
        for (size_t i = 0; i < w.nmap;) {
            size_t j = i;
            double all = 0;
            while (j < w.nmap && w.map[j].addr == w.map[i].addr)
                all += (double)w.map[j++].count;
            for (size_t k = i; k < j; k++) {
                double share = j - i == 1 ? 1.0 : (double)w.map[k].count / all;
                int t = w.map[k].type;
                if (t == -1 || t == 1 || t == 2)
                    diag[t == -1 ? 0 : t] += share;
            }
            fp++;
            i = j;
        }
        free(w.map);
        float ms[5] = {function_multiplier(ld, fv[f], fn[f], period), (float)m2, (float)median, (float)mean,
                       (float)totals};
        const char *labels[5] = {"", " M2", " Med", " Mean", " tot"};
        for (int k = 0; k < 5; k++) {
            float lm = ms[k];
            fprintf(o,
                    "%s%s StartIP: %llx Size: %zu FP: %g lds: %g Strided: %g Indirect: %g Constant: %g Unknown: %g "
                    "Local multiplier = %g\n",
                    edan_mg_struct_name(st, f), labels[k], (unsigned long long)edan_mg_struct_start(st, f), fn[f],
                    (double)(fp * lm), 0.0, diag[1] * lm, diag[2] * lm, 0.0 * lm, diag[0] * lm, (double)lm);
        }
        free(fv[f]);
    }
    fclose(o);
    free(fv);
    free(fn);
    free(wm);
    free(ips);
    free(ld);
    return out;
}
