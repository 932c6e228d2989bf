/*
 * elf_symbols.h - function symbols of the traced ELF binary (libelf) and of the
 * shared objects it mapped,
 * used to validate the program before tracing and to resolve the function
 * filter to address ranges; its data objects and loaded segments
 * (edan_elf_data), for analyses that name the memory an access touches.
 */
#ifndef EDAN_UTIL_ELF_SYMBOLS_H
#define EDAN_UTIL_ELF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "util/symbols/objects.h"

/*
 * Names: C++ symbols are demangled (libiberty's demangler) once, when the
 * file is read. `name` is what reports print: the demangled signature
 * ("ns::f(int)"), or the symbol itself for C. `plain` is the demangled name
 * without parameters or return type ("ns::f", "ns::g<int>"), `symbol` the
 * symbol as in the file ("_ZN2ns1fEi").
 */
typedef struct edan_elf_func {
    char *name, *plain, *symbol;
    uint64_t start, end; /* link-time addresses, [start, end) */
    bool span; /* a shared object's whole span, named "(libc.so.6)", or the program's PLT section, "(.plt)": its code
                  outside every symbol (edan_elf_func_at) */
} edan_elf_func;

typedef struct edan_elf {
    uint64_t entry; /* e_entry */
    int is_pie;     /* ET_DYN: runtime address = link address + load bias */
    int is_dynamic; /* has a program interpreter (PT_INTERP): linked against shared libraries */
    size_t n_funcs;
    edan_elf_func *funcs; /* sorted by start */
    unsigned machine;     /* e_machine: EM_RISCV, EM_X86_64 or EM_AARCH64 */
    size_t n_spans;       /* the spans among funcs (PLT sections, shared objects: edan_elf_add_objects), */
    size_t *spans;        /* their indices */
} edan_elf;

/* Open and check: an ELF file, 64-bit, little-endian, RISC-V, x86-64 or AArch64, executable. */
int edan_elf_open(const char *path, edan_elf *out, edan_error *err);
/*
 * Add the functions of the shared objects the program mapped (util/symbols/objects.h)
 * at their run-time addresses: each object's symbol table, else its debug
 * file's (/usr/lib/debug/.build-id/, Debian's -dbg packages), else its
 * exported (dynamic) symbols; and the object's span, named after its file
 * ("(libc.so.6)"), which edan_elf_func_at() gives for its code outside every
 * symbol. An object whose file is gone or unreadable adds its span alone.
 * 0, or -1 with err set when out of memory.
 */
int edan_elf_add_objects(edan_elf *e, const edan_objmap *m, edan_error *err);
void edan_elf_close(edan_elf *e);
/*
 * The ELF file that holds the shared object o's DWARF, opened read-only: the object itself when it has
 * .debug_info (built with -g), else its debug file (/usr/lib/debug/.build-id/, Debian's -dbg packages) when
 * that has; -1 when neither has. *shift: run-time address = the DWARF's address + shift.
 */
int edan_object_dwarf_open(const edan_object *o, uint64_t *shift);
/* Whether an ELF (libelf's) has DWARF debug information (.debug_info, or .zdebug_info compressed). */
struct Elf;
bool edan_elf_has_dwarf(struct Elf *elf);

/*
 * What every report calls code outside the ELF's function symbols (a shared
 * library, the dynamic loader, code without a symbol): one name for one thing.
 */
#define EDAN_NO_FUNCTION "(outside known functions)"

#define EDAN_ELF_MAX_SEGMENTS 16

/* A loaded segment (PT_LOAD): [start, end) in memory, end = start + p_memsz (.bss included). */
typedef struct edan_elf_segment {
    uint64_t start, end;
    int writable, executable;
} edan_elf_segment;

/* The program's data: its objects and loaded segments (link-time addresses). */
typedef struct edan_elf_data {
    int is_pie; /* as edan_elf's: the segments' runtime addresses are the link-time ones + a load bias */
    size_t n_objects;
    edan_elf_func *objects; /* STT_OBJECT symbols with a size, named as functions are, sorted by start; aliases
                               (one address, several names) repeat */
    size_t n_segments;      /* the first EDAN_ELF_MAX_SEGMENTS PT_LOAD segments, in file order */
    edan_elf_segment segments[EDAN_ELF_MAX_SEGMENTS];
} edan_elf_data;

/* Open and check as edan_elf_open, reading the data objects and segments. */
int edan_elf_data_open(const char *path, edan_elf_data *out, edan_error *err);
/* As edan_elf_data_open, the segments alone (no objects: no symbol is read). */
int edan_elf_segments_open(const char *path, edan_elf_data *out, edan_error *err);
void edan_elf_data_close(edan_elf_data *d);

/*
 * The functions a user means by `name`, tried in this order, the first that
 * names any: the symbol ("_ZN2ns1fEi"); the demangled signature, spaces
 * ignored ("ns::f(int)"); the plain name ("ns::f", "CG", "ns::g<int>"),
 * which names every overload; without "::" in name, the last part of the
 * plain name ("f" for "ns::f"); then the same without template arguments
 * ("ns::total", "total" for "ns::total<double>"). A static function may
 * exist several times.
 * Returns the number found (>0) and fills up to cap ranges; on none, sets an
 * error that lists the most similar demangled names and returns 0.
 */
size_t edan_elf_find(const edan_elf *e, const char *path, const char *name, edan_elf_func *out, size_t cap,
                     edan_error *err);
/*
 * A filter name as "LIB:NAME" (libm.so:exp, libm.so.6:exp): NAME, and in lib the library's part, which names
 * the shared objects whose file name starts with it; NULL for a name without one (a C++ name's "::" is no
 * library's colon).
 */
const char *edan_elf_filter_library(const char *name, char *lib, size_t cap);
/*
 * The ranges of a filter's name (NAME, or LIB:NAME for the objects whose file
 * name starts with LIB) in the shared object o, at their run-time addresses:
 * how many, at most cap into out, their names NULL (the object's symbols are
 * read and freed here). 0 when o has no such function or cannot be read. The
 * one lookup of --filter's and --functions' library functions.
 */
size_t edan_elf_find_in_object(const edan_object *o, const char *name, edan_elf_func *out, size_t cap);
/* Whether the dynamically linked program at path imports a function of this name from a shared object. */
bool edan_elf_imports(const char *path, const char *name);
/* Function containing addr (a shared object's span when no symbol of it does), or NULL. */
const edan_elf_func *edan_elf_func_at(const edan_elf *e, uint64_t addr);

#endif
