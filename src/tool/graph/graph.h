/*
 * graph.h - the contract of tool/graph/: the tools of the eDAG and its
 * schedule (the eDAG metrics, the critical path, per function, the timing
 * model's prediction, the projection, the annotation and DOT), and their
 * results for other tools and commands as typed getters. Below the registry
 * and the session (tool/registry.h, tool/session.h), above tool/base/.
 */
#ifndef EDAN_TOOL_GRAPH_H
#define EDAN_TOOL_GRAPH_H

#include "tool/graph/critpath_tool.h"
#include "tool/graph/edag_tool.h"
#include "tool/graph/functions_tool.h"
#include "tool/graph/timing_tool.h"

#endif
