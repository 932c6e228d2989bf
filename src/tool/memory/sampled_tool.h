/*
 * sampled_tool.h - what the plugin tells the sampled tool when it traces
 * only the samples (--sample-only, sampled_tool.c): the tool cuts the loads
 * into samples, the plugin counts the loads between them.
 */
#ifndef EDAN_TOOL_MEMORY_SAMPLED_TOOL_H
#define EDAN_TOOL_MEMORY_SAMPLED_TOOL_H

#include <stdint.h>

#include "config/options.h"
#include "tool/base/base.h"
#include "util/error.h"

/* The tool (also listed in tool/registry.h); its readers name it in their uses. */
extern const edan_tool_def edan_sampled_tool;

/* The sampled tool's state (sampled_tool.c). */
typedef struct sampled_tool edan_sampled;

/* The sampled tool of a session, or NULL when it does not run (no --sample-period). */
edan_sampled *edan_sampled_tool_of(const edan_session *s);

/* The sampled tool's period P and window W, in loads (a sample is the first W loads of every P). */
void edan_sampled_tool_params(const edan_sampled *tool, uint64_t *period, uint64_t *window);
/*
 * The functions loads are attributed to: their number (0 when the program's
 * symbols are unknown), and the one of the instruction at pc, from 0 to
 * that number - 1 (the last: code outside every function).
 */
uint32_t edan_sampled_tool_n_functions(const edan_sampled *tool);
uint32_t edan_sampled_tool_function(const edan_sampled *tool, uint64_t pc);
/* The loads of the whole run and of each function (NULL: unknown), counted by the plugin; before the report. */
void edan_sampled_tool_set_loads(edan_sampled *tool, uint64_t loads, const uint64_t *function_loads);
/*
 * Whether a command may take these sampling options, before it runs
 * anything: a window that divides the period; --sample-only only for edan
 * run, with --sample-period, and no tool of tools[n_tools] (the registry's)
 * that needs every instruction. 0, or -1 with err set.
 */
int edan_sampled_tool_check(const edan_options *o, const char *command, const edan_tool_def *const *tools, int n_tools,
                            edan_error *err);

#endif
