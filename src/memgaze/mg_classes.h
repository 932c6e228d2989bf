/*
 * mg_classes.h - MemGaze's load classes (its ".binanlys" files, written by
 * its binary analysis): for each instrumented memory instruction
 *
 *     IP CLASS DISP SCALE SKIPPED [SYMBOL-OFFSET] [ROUTINE...]
 *     0x3005f9 1 0x0 0x4 0x1
 *
 * IP hexadecimal ("0x" optional: MemGaze writes both); CLASS 0 constant
 * (frame or global scalar: not traced, only counted), 1 strided, 2 irregular
 * (indirect), 90 store; DISP and SCALE the address's offset and scale (hex,
 * read and checked, not used); SKIPPED the number of constant loads
 * instrumentation left out next to this one, in hexadecimal as MemGaze reads
 * it (it parses the field with std::hex: "10" is sixteen). Whatever follows
 * is a routine name and is ignored.
 *
 * An IP listed twice with the same class and count is accepted (MemGaze
 * keeps the first); listed twice with different ones it is an error, as is a
 * class other than the four, a line cut short, or a number out of range.
 */
#ifndef EDAN_MEMGAZE_MG_CLASSES_H
#define EDAN_MEMGAZE_MG_CLASSES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

/* A load's class; EDAN_MG_UNKNOWN for an IP the file does not list. */
typedef enum edan_mg_class {
    EDAN_MG_UNKNOWN = -1,
    EDAN_MG_CONSTANT = 0,
    EDAN_MG_STRIDED = 1,
    EDAN_MG_IRREGULAR = 2,
    EDAN_MG_STORE = 90,
} edan_mg_class;

/* Largest SKIPPED count accepted (MemGaze keeps it in an int). */
#define EDAN_MG_MAX_SKIPPED 0x7fffffffu
/* Longest accepted line (routine names of C++ programs are long). */
#define EDAN_MG_CLASSES_MAX_LINE 65536

typedef struct edan_mg_classes edan_mg_classes;

/* Read a .binanlys file; NULL with err naming the file and line. */
edan_mg_classes *edan_mg_classes_load(const char *path, edan_error *err);
/* Read from f (named name in messages); takes ownership of f. */
edan_mg_classes *edan_mg_classes_load_file(FILE *f, const char *name, edan_error *err);
/* The class of the instruction at ip, and its SKIPPED count in *skipped (0 when unknown). */
edan_mg_class edan_mg_classes_find(const edan_mg_classes *c, uint64_t ip, uint32_t *skipped);
/* Number of distinct instructions listed. */
size_t edan_mg_classes_count(const edan_mg_classes *c);
void edan_mg_classes_free(edan_mg_classes *c);

#endif
