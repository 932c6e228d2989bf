/*
 * critpath_tool.h - the critical-path tool (--critical-path) and its
 * results for other tools (the annotation's Span and Chain per line).
 */
#ifndef EDAN_TOOL_GRAPH_CRITPATH_TOOL_H
#define EDAN_TOOL_GRAPH_CRITPATH_TOOL_H

#include "analysis/critpath/critpath.h"
#include "tool/base/base.h"

/* The tool (also listed in tool/registry.h); its readers name it in their uses. */
extern const edan_tool_def edan_critpath_tool;

/* The critical path and memory chain of a session's critical-path tool (complete after edan_session_finish), or
 * NULL when it does not run. */
const edan_critpath *edan_critpath_tool_path(const edan_session *s);

#endif
