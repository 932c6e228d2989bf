/*
 * critpath_tool.c - the critical-path tool (--critical-path): one critical
 * path of length Tinf and one chain of D memory accesses of the first
 * configuration, attributed to functions and source lines.
 */
#include "tool/graph/critpath_tool.h"
#include "analysis/critpath/critpath.h"
#include "report/critpath_report.h"
#include "tool/base/base.h"

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "critical-path", NULL, NULL) > 0;
}

static void *create(edan_session *s, edan_error *err)
{
    edan_edag_config cfg;
    if (edan_options_edag_config(edan_session_options(s), &cfg, err))
        return NULL;
    return edan_critpath_new(&cfg.lane[0], cfg.false_deps, err);
}

static edan_consumer consumer(void *t)
{
    return edan_critpath_consumer(t);
}

static const edan_error *error(const void *t)
{
    return edan_critpath_error(t);
}

static void report(void *t, const edan_session *s, edan_report_format fmt, FILE *f)
{
    const char *binary = edan_session_source(s)->binary;
    if (fmt == EDAN_FORMAT_TEXT) {
        edan_report_critpath_text(f, t, binary, 10);
    } else if (fmt == EDAN_FORMAT_JSON) {
        fputc(',', f);
        edan_report_critpath_json(f, t, binary, 20);
    }
}

static void destroy(void *t)
{
    edan_critpath_free(t);
}

static const edan_tool_option options[] = {
    {"critical-path", false,
     "  --critical-path     find one critical path (length Tinf) and one chain of D dependent\n"
     "                      memory accesses, and list the source lines (DWARF, -g) that make\n"
     "                      them up (first configuration; spills about 1.6 bytes per\n"
     "                      instruction to a temporary file)\n",
     NULL},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_critpath_tool = {
    .name = "critical-path",
    .summary = "a critical path and a memory chain, by source line",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .report = report,
    .destroy = destroy,
    .reads_program = true,
    .threaded = true,
};

const edan_critpath *edan_critpath_tool_path(const edan_session *s)
{
    return edan_session_instance(s, &edan_critpath_tool);
}
