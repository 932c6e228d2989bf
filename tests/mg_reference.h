/*
 * mg_reference.h - MemGaze's footprint table computed the way memgaze-analyze
 * (commit 5545a59) computes it: every load kept, the tree built as a tree of
 * windows with the recursion of its buildTree, each window's map of
 * address -> class -> count filled by its addAddress / addWindow rules, and
 * printTree's recursive visit. Slow and simple, for comparing with the
 * streaming two-pass build of src/memgaze/ on random traces.
 */
#ifndef EDAN_TESTS_MG_REFERENCE_H
#define EDAN_TESTS_MG_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "memgaze/mg_classes.h"
#include "memgaze/mg_struct.h"
#include "memgaze/mg_trace.h"

/* The table as MemGaze writes it, in a malloc'd string (NULL when no load is traced). */
char *mg_reference_table(const edan_mg_load *loads, size_t n, const edan_mg_classes *classes, uint64_t period);
/* The per-function lines of its printout (" StartIP: "), from a Function per function of st with its loads. */
char *mg_reference_functions(const edan_mg_load *loads, size_t n, const edan_mg_classes *classes,
                             const edan_mg_struct *st, uint64_t period);

#endif
