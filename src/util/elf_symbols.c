#include "util/elf_symbols.h"
#include "util/files.h"

#include <libiberty/demangle.h>

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static int cmp_func(const void *a, const void *b)
{
    const edan_elf_func *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* ===================================================================== */
/* Names                                                                  */
/* ===================================================================== */

static void free_names(edan_elf_func *f)
{
    if (f->plain != f->name)
        free(f->plain);
    if (f->symbol != f->name)
        free(f->symbol);
    free(f->name);
    f->name = f->plain = f->symbol = NULL;
}

/* name, plain and symbol from the symbol (NULL members when out of memory; a C name is shared by all three). */
static void set_names(edan_elf_func *f, const char *symbol)
{
    char *sig = NULL, *plain = NULL;
    if (symbol[0] == '_' && symbol[1] == 'Z') { /* the Itanium C++ ABI's mangled names */
        sig = cplus_demangle(symbol, DMGL_PARAMS | DMGL_ANSI);
        plain = sig ? cplus_demangle(symbol, DMGL_ANSI) : NULL;
    }
    if (!sig || !plain) {
        free(sig);
        free(plain);
        f->name = f->plain = f->symbol = strdup(symbol);
        return;
    }
    f->name = sig;
    f->plain = plain;
    f->symbol = strdup(symbol);
}

/* Append a named symbol [start, start + size) to *list; -1 when out of memory. */
static int add_symbol(edan_elf_func **list, size_t *n, size_t *cap, const char *name, uint64_t start, uint64_t size)
{
    if (*n == *cap) {
        const size_t room = *cap ? *cap * 2 : 256;
        edan_elf_func *nf = realloc(*list, room * sizeof *nf);
        if (!nf)
            return -1;
        *list = nf;
        *cap = room;
    }
    edan_elf_func *f = &(*list)[*n];
    set_names(f, name);
    f->start = start;
    f->end = start + (size ? size : 2);
    if (!f->name || !f->plain || !f->symbol) {
        free_names(f);
        return -1;
    }
    (*n)++;
    return 0;
}

/* Open and check the program; its functions into out, its objects and segments into data (either may be NULL). */
static int read_elf(const char *path, edan_elf *out, edan_elf_data *data, edan_error *err)
{
    edan_elf ignored;
    if (!out)
        out = &ignored;
    memset(out, 0, sizeof *out);
    if (data)
        memset(data, 0, sizeof *data);
    if (elf_version(EV_CURRENT) == EV_NONE) {
        edan_error_set(err, "libelf is unusable: %s", elf_errmsg(-1));
        return -1;
    }
    /* non-blocking and a regular file only: a FIFO named as the program must not hang the command */
    int fd = edan_input_open(path, "the program", 0, err);
    if (fd < 0)
        return -1;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    int rc = -1;
    GElf_Ehdr eh;
    if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
        edan_error_set(err,
                       "%s: not an ELF executable (expected a 64-bit RISC-V, x86-64 or AArch64 program, "
                       "e.g. built with gcc -g, aarch64-linux-gnu-gcc -g or riscv64-linux-gnu-gcc -g -static)",
                       path);
        goto out;
    }
    if ((eh.e_machine != EM_RISCV && eh.e_machine != EM_X86_64 && eh.e_machine != EM_AARCH64) ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
        edan_error_set(err,
                       "%s: ELF for machine %u, %d-bit; expected a 64-bit little-endian RISC-V (machine %u), x86-64 "
                       "(%u) or AArch64 (%u) program",
                       path, eh.e_machine, eh.e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32, EM_RISCV, EM_X86_64,
                       EM_AARCH64);
        goto out;
    }
    out->machine = eh.e_machine;
    if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
        edan_error_set(err, "%s: ELF type %u is not an executable", path, eh.e_type);
        goto out;
    }
    out->entry = eh.e_entry;
    out->is_pie = eh.e_type == ET_DYN;
    if (data)
        data->is_pie = out->is_pie;
    size_t n_phdr = 0;
    if (!elf_getphdrnum(elf, &n_phdr)) {
        for (size_t i = 0; i < n_phdr; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
                out->is_dynamic = 1;
            if (data && gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && ph.p_memsz &&
                data->n_segments < EDAN_ELF_MAX_SEGMENTS)
                data->segments[data->n_segments++] = (edan_elf_segment){
                    ph.p_vaddr, ph.p_vaddr + ph.p_memsz, (ph.p_flags & PF_W) != 0, (ph.p_flags & PF_X) != 0};
        }
    }
    size_t cap = 0, ocap = 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
            continue;
        Elf_Data *symbols = elf_getdata(scn, NULL);
        if (!symbols)
            continue;
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(symbols, (int)i, &sym) || sym.st_value == 0)
                continue;
            const int type = GELF_ST_TYPE(sym.st_info);
            const int func = out != &ignored && type == STT_FUNC;
            const int object = data && type == STT_OBJECT && sym.st_size > 0 && sym.st_shndx != SHN_UNDEF;
            if (!func && !object)
                continue;
            const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (!name || !*name)
                continue;
            if (func ? add_symbol(&out->funcs, &out->n_funcs, &cap, name, sym.st_value, sym.st_size)
                     : add_symbol(&data->objects, &data->n_objects, &ocap, name, sym.st_value, sym.st_size)) {
                edan_error_set(err, "out of memory reading %s", path);
                goto out;
            }
        }
    }
    if (out->n_funcs)
        qsort(out->funcs, out->n_funcs, sizeof *out->funcs, cmp_func);
    if (data && data->n_objects)
        qsort(data->objects, data->n_objects, sizeof *data->objects, cmp_func);
    rc = 0;
out:
    if (elf)
        elf_end(elf);
    close(fd);
    if (rc || out == &ignored)
        edan_elf_close(out);
    if (rc && data)
        edan_elf_data_close(data);
    return rc;
}

int edan_elf_open(const char *path, edan_elf *out, edan_error *err)
{
    return read_elf(path, out, NULL, err);
}

int edan_elf_data_open(const char *path, edan_elf_data *out, edan_error *err)
{
    return read_elf(path, NULL, out, err);
}

void edan_elf_data_close(edan_elf_data *d)
{
    for (size_t i = 0; i < d->n_objects; i++)
        free_names(&d->objects[i]);
    free(d->objects);
    memset(d, 0, sizeof *d);
}

void edan_elf_close(edan_elf *e)
{
    for (size_t i = 0; i < e->n_funcs; i++)
        free_names(&e->funcs[i]);
    free(e->funcs);
    memset(e, 0, sizeof *e);
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (up + 1 < best)
                best = up + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* a equals b, spaces ignored ("f(int, double)" is "f(int,double)"). */
static bool same_ignoring_spaces(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ')
            a++;
        while (*b == ' ')
            b++;
        if (*a != *b)
            return false;
        if (!*a)
            return true;
        a++;
        b++;
    }
}

/* The last part of a plain name: "f" of "ns::C::f", "g<int>" of "ns::g<int>" (":: " inside <> skipped). */
static const char *last_part(const char *plain)
{
    const char *last = plain;
    int depth = 0;
    for (const char *p = plain; *p; p++) {
        if (*p == '<' || *p == '(')
            depth++;
        else if ((*p == '>' || *p == ')') && depth > 0)
            depth--;
        else if (!depth && p[0] == ':' && p[1] == ':')
            last = p + 2;
    }
    return last;
}

/* a equals b once b's template arguments are left out: "ns::total" names "ns::total<double>". */
static bool same_without_templates(const char *a, const char *b)
{
    int depth = 0;
    for (; *b; b++) {
        if (*b == '<' && !(b[1] == '<' || (b > a && b[-1] == '<')))
            depth++;
        else if (*b == '>' && depth > 0)
            depth--;
        else if (!depth && *a++ != *b)
            return false;
    }
    return !*a;
}

static bool matches(const edan_elf_func *f, const char *name, int how)
{
    switch (how) {
    case 0:
        return !strcmp(f->symbol, name);
    case 1:
        return same_ignoring_spaces(f->name, name);
    case 2:
        return !strcmp(f->plain, name);
    case 3:
        return !strstr(name, "::") && !strcmp(last_part(f->plain), name);
    case 4:
        return same_without_templates(name, f->plain);
    default:
        return !strstr(name, "::") && same_without_templates(name, last_part(f->plain));
    }
}

size_t edan_elf_find(const edan_elf *e, const char *path, const char *name, edan_elf_func *out, size_t cap,
                     edan_error *err)
{
    for (int how = 0; how < 6; how++) {
        size_t found = 0;
        for (size_t i = 0; i < e->n_funcs; i++) {
            if (!matches(&e->funcs[i], name, how))
                continue;
            if (found < cap)
                out[found] = e->funcs[i];
            found++;
        }
        if (found)
            return found;
    }
    /* suggestions: the demangled plain names nearest to name, each once, closest first */
    enum { N = 8 };
    size_t best[N], dist[N], listed = 0;
    for (size_t i = 0; i < e->n_funcs; i++) {
        const char *f = e->funcs[i].plain;
        if (strlen(f) < 2)
            continue;
        size_t d = edit_distance(name, f);
        const size_t dl = edit_distance(name, last_part(f));
        if (dl < d)
            d = dl;
        const size_t limit = strlen(name) / 3 > 2 ? strlen(name) / 3 : 2;
        if (strstr(f, name) && d > limit)
            d = limit; /* "CG" in "CG_ref" */
        if (d > limit)
            continue;
        bool dup = false;
        for (size_t k = 0; k < listed && !dup; k++)
            dup = !strcmp(e->funcs[best[k]].plain, f);
        if (dup)
            continue;
        size_t at = listed < N ? listed++ : N;
        while (at > 0 && dist[at - 1] > d) {
            if (at < N) {
                best[at] = best[at - 1];
                dist[at] = dist[at - 1];
            }
            at--;
        }
        if (at < N) {
            best[at] = i;
            dist[at] = d;
        }
    }
    char similar[1200] = "";
    size_t used = 0;
    for (size_t k = 0; k < listed; k++) {
        int n = snprintf(similar + used, sizeof similar - used, "%s%s", k ? ", " : "", e->funcs[best[k]].name);
        if (n < 0 || (size_t)n >= sizeof similar - used)
            break;
        used += (size_t)n;
    }
    if (listed)
        edan_error_set(err, "%s: no function named '%s'; similar names: %s", path, name, similar);
    else
        edan_error_set(err,
                       "%s: no function named '%s' (%zu functions in the symbol table; was it inlined, "
                       "or built without symbols?)",
                       path, name, e->n_funcs);
    return 0;
}

const edan_elf_func *edan_elf_func_at(const edan_elf *e, uint64_t addr)
{
    size_t lo = 0, hi = e->n_funcs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (e->funcs[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const edan_elf_func *f = &e->funcs[lo - 1];
    return addr < f->end ? f : NULL;
}
