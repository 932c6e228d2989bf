/*
 * timing_tool.h - the prediction tool's results for other tools (the
 * projection puts the timing model's prediction beside its bounds).
 */
#ifndef EDAN_TOOL_GRAPH_TIMING_TOOL_H
#define EDAN_TOOL_GRAPH_TIMING_TOOL_H

#include "analysis/timing/timing.h"
#include "tool/base/base.h"

/* The tool (also listed in tool/registry.h); its readers name it in their uses. */
extern const edan_tool_def edan_timing_tool;

/* The timing model of a session's prediction tool (finished after edan_session_finish), or NULL. */
const edan_timing *edan_timing_tool_model(const edan_session *s);

#endif
