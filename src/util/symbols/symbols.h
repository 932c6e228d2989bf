/*
 * symbols.h - the contract of util/symbols/: what names a program's code
 * and data. The traced program's ELF symbols and the shared objects it
 * mapped (elf_symbols.h, objects.h), their functions as a stream names the
 * objects (libfuncs.h), and its DWARF source lines (srcmap.h; opened on a
 * thread of its own while a stream runs: srcmap_ahead.h).
 */
#ifndef EDAN_UTIL_SYMBOLS_SYMBOLS_H
#define EDAN_UTIL_SYMBOLS_SYMBOLS_H

#include "util/symbols/elf_symbols.h"
#include "util/symbols/libfuncs.h"
#include "util/symbols/objects.h"
#include "util/symbols/srcmap.h"
#include "util/symbols/srcmap_ahead.h"

#endif
