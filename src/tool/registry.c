/*
 * registry.c - every analysis tool, in the order of their report sections.
 * A new tool: its file, one line here, its test.
 */
#include <string.h>

#include "tool/tool.h"

extern const edan_tool_def edan_edag_tool, edan_critpath_tool, edan_functions_tool, edan_footprint_tool, edan_dot_tool,
    edan_timing_tool, edan_projection_tool, edan_reuse_tool, edan_classes_tool, edan_zoom_tool, edan_sampled_tool,
    edan_annotate_tool;

const edan_tool_def *const edan_tools[] = {
    &edan_edag_tool,       /* eDAG metrics of every configuration */
    &edan_critpath_tool,   /* --critical-path */
    &edan_functions_tool,  /* --per-function, --functions */
    &edan_footprint_tool,  /* --footprint */
    &edan_timing_tool,     /* --machine, --mem-latency */
    &edan_projection_tool, /* --projection (with --machine) */
    &edan_reuse_tool,      /* --reuse */
    &edan_classes_tool,    /* --classes */
    &edan_zoom_tool,       /* --zoom */
    &edan_sampled_tool,    /* --sample-period */
    &edan_annotate_tool,   /* --annotate, edan annotate */
    &edan_dot_tool,        /* --dot, edan dot */
};

const int edan_n_tools = (int)(sizeof edan_tools / sizeof edan_tools[0]);

const edan_tool_def *edan_tool_find(const char *name)
{
    for (int i = 0; i < edan_n_tools; i++)
        if (!strcmp(edan_tools[i]->name, name))
            return edan_tools[i];
    return NULL;
}
