#include "util/elf_symbols.h"

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

int edan_elf_open(const char *path, edan_elf *out, edan_error *err)
{
    memset(out, 0, sizeof *out);
    if (elf_version(EV_CURRENT) == EV_NONE) {
        edan_error_set(err, "libelf is unusable: %s", elf_errmsg(-1));
        return -1;
    }
    /* non-blocking and a regular file only: a FIFO named as the program must not hang the command */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        edan_error_set(err, "%s: cannot open program: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        edan_error_set(err, "%s: not a regular file, so not a program", path);
        close(fd);
        return -1;
    }
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    int rc = -1;
    GElf_Ehdr eh;
    if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
        edan_error_set(err,
                       "%s: not an ELF executable (expected a RISC-V program built with "
                       "riscv64-linux-gnu-gcc -static)",
                       path);
        goto out;
    }
    if (eh.e_machine != EM_RISCV || eh.e_ident[EI_CLASS] != ELFCLASS64) {
        edan_error_set(err, "%s: ELF for machine %u, %d-bit; expected 64-bit RISC-V (machine %u)", path, eh.e_machine,
                       eh.e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32, EM_RISCV);
        goto out;
    }
    if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
        edan_error_set(err, "%s: ELF type %u is not an executable", path, eh.e_type);
        goto out;
    }
    out->entry = eh.e_entry;
    out->is_pie = eh.e_type == ET_DYN;
    size_t n_phdr = 0;
    if (!elf_getphdrnum(elf, &n_phdr)) {
        for (size_t i = 0; i < n_phdr; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
                out->is_dynamic = 1;
        }
    }
    size_t cap = 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data)
            continue;
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0)
                continue;
            const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (!name || !*name)
                continue;
            if (out->n_funcs == cap) {
                cap = cap ? cap * 2 : 256;
                edan_elf_func *nf = realloc(out->funcs, cap * sizeof *nf);
                if (!nf) {
                    edan_error_set(err, "out of memory reading %s", path);
                    goto out;
                }
                out->funcs = nf;
            }
            edan_elf_func *f = &out->funcs[out->n_funcs++];
            f->name = strdup(name);
            f->start = sym.st_value;
            f->end = sym.st_value + (sym.st_size ? sym.st_size : 2);
            if (!f->name) {
                edan_error_set(err, "out of memory reading %s", path);
                out->n_funcs--;
                goto out;
            }
        }
    }
    if (out->n_funcs)
        qsort(out->funcs, out->n_funcs, sizeof *out->funcs, cmp_func);
    rc = 0;
out:
    if (elf)
        elf_end(elf);
    close(fd);
    if (rc)
        edan_elf_close(out);
    return rc;
}

void edan_elf_close(edan_elf *e)
{
    for (size_t i = 0; i < e->n_funcs; i++)
        free(e->funcs[i].name);
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

size_t edan_elf_find(const edan_elf *e, const char *path, const char *name, edan_elf_func *out, size_t cap,
                     edan_error *err)
{
    size_t found = 0;
    for (size_t i = 0; i < e->n_funcs; i++) {
        if (!strcmp(e->funcs[i].name, name)) {
            if (found < cap)
                out[found] = e->funcs[i];
            found++;
        }
    }
    if (found)
        return found;
    char similar[600] = "";
    size_t used = 0, listed = 0;
    for (int pass = 0; pass < 2 && listed < 8; pass++) {
        for (size_t i = 0; i < e->n_funcs && listed < 8; i++) {
            const char *f = e->funcs[i].name;
            size_t d = edit_distance(name, f);
            bool close = pass == 0 ? d <= 2 : (d <= 4 || strstr(f, name) || strstr(name, f));
            if (pass == 1 && (d <= 2))
                close = false; /* already listed in pass 0 */
            if (!close || strlen(f) < 2)
                continue;
            bool dup = false;
            for (size_t j = 0; j < i; j++)
                if (!strcmp(e->funcs[j].name, f)) {
                    dup = true;
                    break;
                }
            if (dup)
                continue;
            int n = snprintf(similar + used, sizeof similar - used, "%s%s", listed ? ", " : "", f);
            if (n < 0 || (size_t)n >= sizeof similar - used)
                break;
            used += (size_t)n;
            listed++;
        }
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
