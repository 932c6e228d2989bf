/*
 * memory.h - the contract of tool/memory/: the tools of the data accesses
 * (footprint, reuse, load classes, zoom, MemGaze's sampled estimates, access
 * widths), and what the plugin tells the sampled tool. Below the registry
 * and the session (tool/registry.h, tool/session.h), above tool/base/.
 */
#ifndef EDAN_TOOL_MEMORY_H
#define EDAN_TOOL_MEMORY_H

#include "tool/memory/sampled_tool.h"

#endif
