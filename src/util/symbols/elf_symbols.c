#include "util/symbols/elf_symbols.h"
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
    /* a span before the functions at its start: the search for an address finds a function that holds it first */
    return x->start != y->start ? (x->start < y->start ? -1 : 1) : (int)y->span - (int)x->span;
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
    /* a shared object's symbol table names versions ("exp@@GLIBC_2.29"): the function is "exp" */
    const char *at = strchr(name, '@');
    char unversioned[512];
    if (at && at > name && (size_t)(at - name) < sizeof unversioned) {
        memcpy(unversioned, name, (size_t)(at - name));
        unversioned[at - name] = '\0';
        name = unversioned;
    }
    set_names(f, name);
    f->start = start;
    f->end = start + (size ? size : 2);
    f->span = false;
    if (!f->name || !f->plain || !f->symbol) {
        free_names(f);
        return -1;
    }
    (*n)++;
    return 0;
}

/* Where read_symbols() appends: functions, and data objects when objects is not NULL. */
typedef struct symbol_lists {
    edan_elf_func **funcs;
    size_t *n_funcs, cap;
    edan_elf_func **objects;
    size_t *n_objects, ocap;
} symbol_lists;

/*
 * Append elf's function symbols (and data objects with a size) of the sections of type type (SHT_SYMTAB or
 * SHT_DYNSYM), their addresses + shift; 0, or -1 when out of memory. Returns 1 when elf has no such section.
 */
static int read_symbols(Elf *elf, Elf64_Word type, uint64_t shift, symbol_lists *l)
{
    int seen = 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || sh.sh_entsize == 0)
            continue;
        Elf_Data *symbols = elf_getdata(scn, NULL);
        if (!symbols)
            continue;
        seen = 1;
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(symbols, (int)i, &sym) || sym.st_value == 0)
                continue;
            const int kind = GELF_ST_TYPE(sym.st_info);
            const int func = l->funcs && kind == STT_FUNC && sym.st_shndx != SHN_UNDEF;
            const int object = l->objects && kind == STT_OBJECT && sym.st_size > 0 && sym.st_shndx != SHN_UNDEF;
            if (!func && !object)
                continue;
            const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (!name || !*name)
                continue;
            if (func ? add_symbol(l->funcs, l->n_funcs, &l->cap, name, sym.st_value + shift, sym.st_size)
                     : add_symbol(l->objects, l->n_objects, &l->ocap, name, sym.st_value + shift, sym.st_size))
                return -1;
        }
    }
    return seen ? 0 : 1;
}

/* The program's PLT stubs (.plt, .plt.sec, ...: code without symbols) as spans named after their section. */
static int add_plt_spans(Elf *elf, edan_elf *out)
{
    size_t shstrndx, cap = out->n_funcs;
    if (elf_getshdrstrndx(elf, &shstrndx))
        return 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size || !sh.sh_addr ||
            !(name = elf_strptr(elf, shstrndx, sh.sh_name)) || strncmp(name, ".plt", 4))
            continue;
        char span[64];
        snprintf(span, sizeof span, "(%s)", name);
        if (add_symbol(&out->funcs, &out->n_funcs, &cap, span, sh.sh_addr, sh.sh_size))
            return -1;
        out->funcs[out->n_funcs - 1].span = true;
    }
    return 0;
}

/*
 * A function symbol without a size (assembly without .size: _init, _fini, a C runtime's helpers) covers its
 * code up to the next symbol or span, within its section, not 2 bytes of it. funcs is sorted.
 */
static void size_unsized(Elf *elf, edan_elf *e)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx))
        return;
    for (size_t i = 0; i < e->n_funcs; i++) {
        edan_elf_func *f = &e->funcs[i];
        if (f->span || f->end != f->start + 2)
            continue;
        uint64_t end = f->end;
        Elf_Scn *scn = NULL;
        while ((scn = elf_nextscn(elf, scn))) {
            GElf_Shdr sh;
            if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) && f->start >= sh.sh_addr &&
                f->start < sh.sh_addr + sh.sh_size) {
                end = sh.sh_addr + sh.sh_size;
                break;
            }
        }
        for (size_t j = i + 1; j < e->n_funcs; j++)
            if (e->funcs[j].start > f->start) {
                end = e->funcs[j].start < end ? e->funcs[j].start : end;
                break;
            }
        f->end = end > f->start + 2 ? end : f->start + 2;
    }
}

/* e->spans: the indices of the spans among e->funcs (sorted). */
static int index_spans(edan_elf *e)
{
    size_t n = 0;
    for (size_t i = 0; i < e->n_funcs; i++)
        n += e->funcs[i].span;
    free(e->spans);
    e->spans = NULL;
    e->n_spans = 0;
    if (!n)
        return 0;
    if (!(e->spans = malloc(n * sizeof *e->spans)))
        return -1;
    for (size_t i = 0; i < e->n_funcs; i++)
        if (e->funcs[i].span)
            e->spans[e->n_spans++] = i;
    return 0;
}

/*
 * Open and check the program; its functions into out, its objects (when objects) and segments into data (either may
 * be NULL).
 */
static int read_elf(const char *path, edan_elf *out, edan_elf_data *data, bool objects, edan_error *err)
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
    symbol_lists lists = {out != &ignored ? &out->funcs : NULL,
                          &out->n_funcs,
                          0,
                          data && objects ? &data->objects : NULL,
                          data ? &data->n_objects : NULL,
                          0};
    /* no list wanted (the segments alone): no symbol read, no C++ name demangled */
    if ((lists.funcs || lists.objects) && read_symbols(elf, SHT_SYMTAB, 0, &lists)) {
        edan_error_set(err, "out of memory reading %s", path);
        goto out;
    }
    if (out != &ignored && add_plt_spans(elf, out)) {
        edan_error_set(err, "out of memory reading %s", path);
        goto out;
    }
    if (out->n_funcs)
        qsort(out->funcs, out->n_funcs, sizeof *out->funcs, cmp_func);
    if (out != &ignored)
        size_unsized(elf, out);
    if (out != &ignored && index_spans(out)) {
        edan_error_set(err, "out of memory reading %s", path);
        goto out;
    }
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
    return read_elf(path, out, NULL, false, err);
}

/* ===================================================================== */
/* Shared objects                                                         */
/* ===================================================================== */

/* elf's separate debug file, where Debian's -dbg packages put it (/usr/lib/debug/.build-id/), opened; or -1. */
static int open_debug_file(Elf *elf)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        Elf_Data *d;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
            continue;
        GElf_Nhdr nh;
        size_t off = 0, name_at, desc_at;
        while ((off = gelf_getnote(d, off, &nh, &name_at, &desc_at)) > 0) {
            if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
                memcmp((const char *)d->d_buf + name_at, "GNU", 4) || nh.n_descsz < 2 || nh.n_descsz > 64)
                continue;
            const unsigned char *id = (const unsigned char *)d->d_buf + desc_at;
            char path[64 + 2 * 64 + 16];
            int n = snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%02x/", id[0]);
            for (size_t i = 1; i < nh.n_descsz; i++)
                n += snprintf(path + n, sizeof path - (size_t)n, "%02x", id[i]);
            snprintf(path + n, sizeof path - (size_t)n, ".debug");
            return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        }
    }
    return -1;
}

/* Where elf's link addresses are at run time when its file offset 0 is mapped at base: + *shift (base minus its first
 * loaded segment's page); false without a loaded segment. */
static bool load_shift(Elf *elf, uint64_t base, uint64_t *shift)
{
    size_t n_phdr = 0;
    if (elf_getphdrnum(elf, &n_phdr))
        return false;
    uint64_t first = UINT64_MAX;
    for (size_t i = 0; i < n_phdr; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && ph.p_vaddr < first)
            first = ph.p_vaddr & ~(uint64_t)0xfff;
    }
    *shift = base - first;
    return first != UINT64_MAX;
}

bool edan_elf_has_dwarf(struct Elf *elf)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return false;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
            continue;
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (name && (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")))
            return true;
    }
    return false;
}

int edan_object_dwarf_open(const edan_object *o, uint64_t *shift)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    int fd = open(o->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), dfd = -1;
    struct stat st;
    if (fd < 0)
        return -1;
    Elf *elf = NULL, *debug = NULL;
    GElf_Ehdr eh;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(elf = elf_begin(fd, ELF_C_READ, NULL)) ||
        elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) || !load_shift(elf, o->base, shift))
        goto out;
    if (edan_elf_has_dwarf(elf)) { /* built with -g, not stripped */
        elf_end(elf);
        return fd;
    }
    if ((dfd = open_debug_file(elf)) >= 0 &&
        (!(debug = elf_begin(dfd, ELF_C_READ, NULL)) || elf_kind(debug) != ELF_K_ELF || !edan_elf_has_dwarf(debug))) {
        close(dfd);
        dfd = -1;
    }
    if (debug)
        elf_end(debug);
out:
    if (elf)
        elf_end(elf);
    close(fd);
    return dfd;
}

/* Append the function symbols of the object o, at its run-time addresses; -1 when out of memory. */
static int add_object(symbol_lists *l, const edan_object *o)
{
    const char *file = strrchr(o->path, '/') ? strrchr(o->path, '/') + 1 : o->path;
    char span[300];
    snprintf(span, sizeof span, "(%s)", file);
    if (add_symbol(l->funcs, l->n_funcs, &l->cap, span, o->lo, o->hi - o->lo))
        return -1;
    (*l->funcs)[*l->n_funcs - 1].span = true;
    int fd = open(o->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0)
        return 0; /* gone since the run: its code is named by its span alone */
    Elf *elf = NULL;
    int rc = 0;
    GElf_Ehdr eh;
    uint64_t shift;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(elf = elf_begin(fd, ELF_C_READ, NULL)) ||
        elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) || !load_shift(elf, o->base, &shift))
        goto out;
    rc = read_symbols(elf, SHT_SYMTAB, shift, l);
    if (rc == 1) { /* stripped, as a distribution's libraries are: its debug file's, else its exported ones */
        const int dfd = open_debug_file(elf);
        Elf *debug = dfd >= 0 ? elf_begin(dfd, ELF_C_READ, NULL) : NULL;
        rc = debug && elf_kind(debug) == ELF_K_ELF ? read_symbols(debug, SHT_SYMTAB, shift, l) : 1;
        if (debug)
            elf_end(debug);
        if (dfd >= 0)
            close(dfd);
        if (rc == 1)
            rc = read_symbols(elf, SHT_DYNSYM, shift, l);
    }
    rc = rc < 0 ? -1 : 0;
out:
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}

int edan_elf_add_objects(edan_elf *e, const edan_objmap *m, edan_error *err)
{
    if (!m || !m->n)
        return 0;
    if (elf_version(EV_CURRENT) == EV_NONE) {
        edan_error_set(err, "libelf is unusable: %s", elf_errmsg(-1));
        return -1;
    }
    symbol_lists l = {&e->funcs, &e->n_funcs, e->n_funcs, NULL, NULL, 0};
    for (size_t i = 0; i < m->n; i++)
        if (add_object(&l, &m->objs[i])) {
            edan_error_set(err, "out of memory reading %s", m->objs[i].path);
            return -1;
        }
    if (e->n_funcs)
        qsort(e->funcs, e->n_funcs, sizeof *e->funcs, cmp_func);
    if (index_spans(e)) {
        edan_error_set(err, "out of memory naming the shared objects");
        return -1;
    }
    return 0;
}

const char *edan_elf_filter_library(const char *name, char *lib, size_t cap)
{
    const char *colon = strchr(name, ':');
    while (colon && colon[1] == ':') /* "ns::f": C++ */
        colon = strchr(colon + 2, ':');
    if (!colon || colon == name || !colon[1] || colon[-1] == ':' || (size_t)(colon - name) >= cap)
        return NULL;
    memcpy(lib, name, (size_t)(colon - name));
    lib[colon - name] = '\0';
    return strstr(lib, ".so") ? colon + 1 : NULL;
}

size_t edan_elf_find_in_object(const edan_object *o, const char *name, edan_elf_func *out, size_t cap)
{
    char lib[512];
    const char *plain = edan_elf_filter_library(name, lib, sizeof lib);
    const char *file = strrchr(o->path, '/') ? strrchr(o->path, '/') + 1 : o->path;
    if (plain && strncmp(file, lib, strlen(lib)))
        return 0;
    edan_objmap one = {1, (edan_object *)o};
    edan_elf syms = {0};
    edan_error ignored = {0};
    size_t kept = 0;
    if (!edan_elf_add_objects(&syms, &one, &ignored)) {
        const size_t found = edan_elf_find(&syms, o->path, plain ? plain : name, out, cap, &ignored);
        for (size_t k = 0; k < found && k < cap; k++)
            if (!out[k].span) /* the object's code outside every symbol is no function */
                out[kept++] = (edan_elf_func){NULL, NULL, NULL, out[k].start, out[k].end, false};
    }
    edan_elf_close(&syms);
    return kept;
}

bool edan_elf_imports(const char *path, const char *name)
{
    edan_error ignored = {0};
    if (elf_version(EV_CURRENT) == EV_NONE)
        return false;
    int fd = edan_input_open(path, "the program", 0, &ignored);
    if (fd < 0)
        return false;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    bool found = false;
    Elf_Scn *scn = NULL;
    while (elf && !found && (scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        Elf_Data *d;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
            continue;
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize && !found; i++) {
            GElf_Sym sym;
            const char *s;
            found = gelf_getsym(d, (int)i, &sym) && sym.st_shndx == SHN_UNDEF &&
                    (GELF_ST_TYPE(sym.st_info) == STT_FUNC || GELF_ST_TYPE(sym.st_info) == STT_NOTYPE) &&
                    (s = elf_strptr(elf, sh.sh_link, sym.st_name)) && !strcmp(s, name);
        }
    }
    if (elf)
        elf_end(elf);
    close(fd);
    return found;
}

int edan_elf_data_open(const char *path, edan_elf_data *out, edan_error *err)
{
    return read_elf(path, NULL, out, true, err);
}

int edan_elf_segments_open(const char *path, edan_elf_data *out, edan_error *err)
{
    return read_elf(path, NULL, out, false, err);
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
    free(e->spans);
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
    if (lo > 0 && addr < e->funcs[lo - 1].end)
        return &e->funcs[lo - 1];
    for (size_t i = 0; i < e->n_spans; i++) { /* a shared object's code outside its symbols */
        const edan_elf_func *s = &e->funcs[e->spans[i]];
        if (addr >= s->start && addr < s->end)
            return s;
    }
    return NULL;
}
