/*
 * registry.c - every analysis tool, in the order of their report sections
 * (the list is registry.h's). A new tool: its file, one line in registry.h,
 * its test.
 */
#include "tool/registry.h"

#include <string.h>

#define EDAN_TOOL_ADDRESS(def) &def,
const edan_tool_def *const edan_tools[] = {EDAN_TOOL_LIST(EDAN_TOOL_ADDRESS)};

const int edan_n_tools = (int)(sizeof edan_tools / sizeof edan_tools[0]);

const edan_tool_def *edan_tool_find(const char *name)
{
    for (int i = 0; i < edan_n_tools; i++)
        if (!strcmp(edan_tools[i]->name, name))
            return edan_tools[i];
    return NULL;
}
