#include "tool/graph/edag_tool.h"

#include <string.h>

#include "report/plot.h"
#include "report/report.h"
#include "tool/base/base.h"

static bool wanted(const edan_options *o)
{
    (void)o;
    return true; /* every report has the eDAG's metrics */
}

static void *create(edan_session *s, edan_error *err)
{
    edan_edag_config cfg;
    if (edan_options_edag_config(edan_session_options(s), &cfg, err))
        return NULL;
    edan_edag *e = edan_edag_new(&cfg, err);
    if (e && !edan_session_source(s)->warm)
        edan_edag_no_warm_records(e); /* the producer sends none (report.h) */
    else if (e && edan_session_source(s)->warm_on_demand)
        edan_edag_warm_batches(e); /* the producer's batches are all warm or none (report.h) */
    return e;
}

static edan_consumer consumer(void *t)
{
    return edan_edag_consumer(t);
}

static const edan_error *error(const void *t)
{
    return edan_edag_error(t);
}

static void report(void *t, const edan_session *s, edan_report_format fmt, FILE *f)
{
    const edan_options *o = edan_session_options(s);
    if (fmt == EDAN_FORMAT_TABLE)
        edan_report_table(f, t, o);
    else
        edan_edag_view(f, t, o, fmt == EDAN_FORMAT_JSON);
}

static int outputs(void *t, const edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    if (o->series_csv[0] && edan_report_series_csv(t, o->series_csv, err))
        return -1;
    if (o->plot_dir[0]) {
        char name[1100];
        edan_session_file_base(s, name, sizeof name);
        char ident[1600];
        edan_session_plot_ident(s, ident, sizeof ident);
        if (edan_plot_analysis(t, o, o->plot_dir, name, ident, err))
            return -1;
    }
    return 0;
}

static void destroy(void *t)
{
    edan_edag_free(t);
}

const edan_tool_def edan_edag_tool = {
    .name = "edag",
    .summary = "eDAG metrics: work, span, W, D, layers, bounds, lambda, Lambda, data movement",
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .report = report,
    .tables = edan_edag_tables,
    .outputs = outputs,
    .destroy = destroy,
    .samples_suffice = true,
};

const edan_edag *edan_edag_tool_analysis(const edan_session *s)
{
    return edan_session_instance(s, &edan_edag_tool);
}
