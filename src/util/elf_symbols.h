/*
 * elf_symbols.h - function symbols of the traced RISC-V ELF binary (libelf),
 * used to validate the program before tracing and to resolve the function
 * filter to address ranges.
 */
#ifndef EDAN_UTIL_ELF_SYMBOLS_H
#define EDAN_UTIL_ELF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

typedef struct edan_elf_func {
    char *name;
    uint64_t start, end; /* link-time addresses, [start, end) */
} edan_elf_func;

typedef struct edan_elf {
    uint64_t entry; /* e_entry */
    int is_pie;     /* ET_DYN: runtime address = link address + load bias */
    int is_dynamic; /* has a program interpreter (PT_INTERP): linked against shared libraries */
    size_t n_funcs;
    edan_elf_func *funcs; /* sorted by start */
} edan_elf;

/* Open and check: an ELF file, 64-bit, little-endian, RISC-V, executable. */
int edan_elf_open(const char *path, edan_elf *out, edan_error *err);
void edan_elf_close(edan_elf *e);

/*
 * All functions named `name` (a static function may exist several times).
 * Returns the number found (>0) and fills up to cap ranges; on none, sets an
 * error that lists similar names and returns 0.
 */
size_t edan_elf_find(const edan_elf *e, const char *path, const char *name, edan_elf_func *out, size_t cap,
                     edan_error *err);
/* Function containing addr, or NULL. */
const edan_elf_func *edan_elf_func_at(const edan_elf *e, uint64_t addr);

#endif
