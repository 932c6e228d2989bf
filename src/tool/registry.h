/*
 * registry.h - every analysis tool, in the order of their report sections:
 * the one line a new tool adds. Above the tools' folders (tool/graph/,
 * tool/memory/), beside the session that runs them. A command or the session names a tool by
 * its definition declared here; what a tool's results are for other tools
 * is in its own header, as typed getters (tool/base/base.h).
 */
#ifndef EDAN_TOOL_REGISTRY_H
#define EDAN_TOOL_REGISTRY_H

#include "tool/base/base.h"

/* X(definition) for every tool, in report order (registry.c makes edan_tools[] of it). */
#define EDAN_TOOL_LIST(X)                                                                                              \
    X(edan_edag_tool)       /* eDAG metrics of every configuration */                                                  \
    X(edan_critpath_tool)   /* --critical-path */                                                                      \
    X(edan_functions_tool)  /* --per-function, --functions */                                                          \
    X(edan_footprint_tool)  /* --footprint */                                                                          \
    X(edan_timing_tool)     /* --machine, --mem-latency */                                                             \
    X(edan_projection_tool) /* --projection (with --machine) */                                                        \
    X(edan_reuse_tool)      /* --reuse */                                                                              \
    X(edan_classes_tool)    /* --classes */                                                                            \
    X(edan_zoom_tool)       /* --zoom */                                                                               \
    X(edan_sampled_tool)    /* --sample-period */                                                                      \
    X(edan_widths_tool)     /* --access-widths */                                                                      \
    X(edan_annotate_tool)   /* --annotate, edan annotate */                                                            \
    X(edan_dot_tool)        /* --dot, edan dot */

#define EDAN_TOOL_EXTERN(def) extern const edan_tool_def def;
EDAN_TOOL_LIST(EDAN_TOOL_EXTERN)
#undef EDAN_TOOL_EXTERN

/* The registry: every tool, in the order of their report sections. */
extern const edan_tool_def *const edan_tools[];
extern const int edan_n_tools;

/* A tool by the name a command selects it by (edan_session_new's only), or NULL. */
const edan_tool_def *edan_tool_find(const char *name);

#endif
