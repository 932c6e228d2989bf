/*
 * mg_struct.h - the function ranges of an HPCToolkit structure file
 * (".hpcstruct"), read the way MemGaze's analyzer reads them: inside the
 * <HPCToolkitStructure> element, every line with a procedure
 *
 *     <P i="7" n="distInitLouvain_dyninst [miniVite]" ln="distInitLouvain_dyninst" l="0" v="{[0x400042-0x400043)}">
 *
 * gives a function: its name is the text from n=" to the first '" ln="' of
 * the line (to the end of the line when there is none, as in MemGaze; XML
 * escapes such as &lt; are kept as written), its start the first address of
 * v="{[". Only starts matter: a function extends to the next one's start,
 * and the last one to the end of the address space. Of two functions with
 * one start the first is kept.
 */
#ifndef EDAN_MEMGAZE_MG_STRUCT_H
#define EDAN_MEMGAZE_MG_STRUCT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

typedef struct edan_mg_struct edan_mg_struct;

/* Longest accepted line (C++ names of templates are long). */
#define EDAN_MG_STRUCT_MAX_LINE (1u << 20)

/* NULL with err naming the file (and line) when it cannot be read or lists no function. */
edan_mg_struct *edan_mg_struct_load(const char *path, edan_error *err);
edan_mg_struct *edan_mg_struct_load_file(FILE *f, const char *name, edan_error *err);
void edan_mg_struct_free(edan_mg_struct *s);

/* Functions, in ascending order of their start. */
size_t edan_mg_struct_count(const edan_mg_struct *s);
const char *edan_mg_struct_name(const edan_mg_struct *s, size_t i);
uint64_t edan_mg_struct_start(const edan_mg_struct *s, size_t i);
/*
 * The function MemGaze gives an instruction at ip: the last one starting at
 * or before ip; -1 for an ip below the first start (where MemGaze's lookup
 * is undefined) and for one at or past the last start (MemGaze's lookup
 * finds no function there: the last function gets no loads).
 */
long edan_mg_struct_find(const edan_mg_struct *s, uint64_t ip);

#endif
