/*
 * functions_tool.h - the per-function tool (--per-function, --functions):
 * W, D, lambda, Lambda and instructions of chosen functions, exclusive and
 * inclusive of their callees, in the same pass as every other tool (two
 * scoped lanes of the analyzer per function, analysis/edag/edag.h).
 *
 * --functions names the functions. --per-function asks for the N that
 * execute the most instructions, which only a profile of the whole run can
 * tell: edan analyze first counts executions per static instruction over the
 * trace (a read of it, no analysis), edan run over a first run of the
 * program under the plugin's profile mode (plugin/plugin_profile.c), and
 * both name them with edan_functions_choose().
 */
#ifndef EDAN_TOOL_GRAPH_FUNCTIONS_TOOL_H
#define EDAN_TOOL_GRAPH_FUNCTIONS_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include "tool/base/base.h"
#include "trace/exec.h"
#include "util/symbols/symbols.h"

/* The tool (also listed in tool/registry.h); its readers name it in their uses. */
extern const edan_tool_def edan_functions_tool;

#define EDAN_MAX_FUNCTIONS 16

/*
 * Before the program runs: each name --functions gives is a function of the
 * program at binary, or of a dynamically linked program's shared library
 * (LIB:NAME, or a name it imports: the tool finds it when the library is
 * mapped), else -1 with err saying why. 0 without --functions.
 */
int edan_functions_check_names(const edan_options *o, const char *binary, edan_error *err);

/* How many functions --per-function asks the command to choose: 0 when --functions names them or neither is given. */
int edan_functions_to_choose(const edan_options *o);

/*
 * Executions per static instruction of a trace (ids dense from 0): counts[id]
 * and insn[id]. edan_functions_choose() names the top functions of binary
 * and of the shared objects it mapped (objects, or NULL: a library's as
 * LIB:NAME, LIB its file's name) by executed instructions and sets them as
 * --functions in o.
 */
typedef struct edan_profile {
    size_t n;
    uint64_t *counts;
    const edan_insn **insn;
} edan_profile;

/* Add a batch to a profile; -1 when out of memory. */
int edan_profile_add(edan_profile *p, const edan_exec *recs, size_t n);
void edan_profile_free(edan_profile *p);
int edan_functions_choose(edan_options *o, const char *binary, const char *trace, const edan_objmap *objects,
                          const edan_profile *p, int top, edan_error *err);

/*
 * After the stream: lambda of the function the breakdown names exactly
 * name (as --functions gave it, or --per-function chose it), exclusive
 * ([0]) and inclusive ([1]) of its callees, at the first --m. False when
 * the session has no breakdown or it names no such function.
 */
bool edan_functions_tool_lambda(const edan_session *s, const char *name, double lambda[2]);

#endif
