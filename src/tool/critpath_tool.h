/*
 * critpath_tool.h - the critical-path tool (--critical-path) and its
 * results for other tools (the annotation's Span and Chain per line).
 */
#ifndef EDAN_TOOL_CRITPATH_TOOL_H
#define EDAN_TOOL_CRITPATH_TOOL_H

#include "analysis/critpath/critpath.h"
#include "tool/registry.h"
#include "tool/tool.h"

/* The critical path and memory chain of a session's critical-path tool (complete after edan_session_finish), or
 * NULL when it does not run. */
const edan_critpath *edan_critpath_tool_path(const edan_session *s);

#endif
