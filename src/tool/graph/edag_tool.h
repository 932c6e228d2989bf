/*
 * edag_tool.h - the eDAG metrics tool (the paper's W, D, T1, Tinf, bounds,
 * lambda, Lambda, data movement), for every cache and cost configuration of
 * the options, as lanes of one streaming analyzer (analysis/edag/edag.h).
 */
#ifndef EDAN_TOOL_GRAPH_EDAG_TOOL_H
#define EDAN_TOOL_GRAPH_EDAG_TOOL_H

#include "analysis/edag/edag.h"
#include "tool/base/base.h"

/* The tool (also listed in tool/registry.h); its readers name it in their uses. */
extern const edan_tool_def edan_edag_tool;

/* The tables of its section (edag_view.c): the report's top-level members, the configurations and theirs. */
extern const edan_table_decl edan_edag_tables[];
/* Its section: every configuration's metrics as text (a summary when there are several) or JSON members. */
void edan_edag_view(FILE *f, const edan_edag *e, const edan_options *o, bool json);

/* The analyzer of a session's eDAG tool (finished after edan_session_finish), or NULL. */
const edan_edag *edan_edag_tool_analysis(const edan_session *s);

#endif
