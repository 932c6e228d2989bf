/*
 * srcmap.h - source attribution: guest program counter -> function and
 * source file:line, from the DWARF of the traced RISC-V ELF (elfutils libdw).
 *
 * Reports attribute every distinct static instruction of a trace (up to
 * ~1e5), so lookups are cached per pc: the DWARF is walked once per pc.
 * Addresses are the program's link-time addresses (the plugin rebases a PIE's code to them) and the
 * shared objects' run-time ones (edan_srcmap_add_objects).
 */
#ifndef EDAN_UTIL_SRCMAP_H
#define EDAN_UTIL_SRCMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"
#include "util/symbols/elf_symbols.h"

typedef struct edan_srcmap edan_srcmap;

/*
 * Open the RISC-V ELF at path. It must carry DWARF line information:
 * otherwise this fails with a message saying to rebuild with -g. Returns NULL
 * and fills err on any failure.
 */
edan_srcmap *edan_srcmap_open(const char *path, edan_error *err);

typedef struct edan_srcloc {
    const char *function; /* innermost function name (inlined code: the inlined one), or NULL */
    const char *file;     /* source file path as recorded in DWARF, or NULL */
    unsigned line;        /* 0 if unknown */
} edan_srcloc;

/*
 * Look up a link-time pc. Returns true if anything (function or file) was
 * found; on false *out is all NULL/0. The function name comes from the DWARF
 * subprogram (or inlined subroutine) containing pc, else from the ELF symbol
 * table (code without debug info, e.g. the static C library). Strings stay
 * valid until edan_srcmap_close. Not thread-safe (the cache is updated).
 */
bool edan_srcmap_lookup(edan_srcmap *m, uint64_t pc, edan_srcloc *out);

/* The ELF's function symbols the map read (its fallback names), valid until edan_srcmap_close: a caller that
 * needs them too reads the file once. */
const edan_elf *edan_srcmap_elf(const edan_srcmap *m);
/*
 * Name the code of the shared objects the program mapped too: their functions (edan_elf_add_objects) and
 * lines, from each object's DWARF (its own when built with -g, else its debug file's: edan_object_dwarf_open),
 * read at the first lookup of its code, at the run-time address minus the object's shift. Code of an object
 * without DWARF has its function alone. Once, right after edan_srcmap_open, before any lookup. 0, or -1
 * with err set.
 */
int edan_srcmap_add_objects(edan_srcmap *m, const edan_objmap *objects, edan_error *err);

/* Release everything; NULL is a no-op. */
void edan_srcmap_close(edan_srcmap *m);

/* A source file's name without its directories, as reports show it ("?" when file is NULL). */
const char *edan_srcmap_file_name(const char *file);

#endif
