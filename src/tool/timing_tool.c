/*
 * timing_tool.c - the prediction tool (--machine=FILE, --mem-latency=LIST):
 * the run time of the traced region on a described machine at each memory
 * latency, from the timing model (analysis/timing.h), with the slope of run
 * time against memory latency and the relative slowdown.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing.h"
#include "config/machine_file.h"
#include "report/json.h"
#include "tool/session.h"
#include "tool/tool.h"
#include "util/parse.h"

typedef struct timing_tool {
    edan_timing *model;
    char path[512];
} timing_tool;

/* ===================================================================== */
/* Options                                                                */
/* ===================================================================== */

/* "50,100,300" -> ns values; 0 or -1 with err set. */
static int parse_latencies(const char *value, double *out, int *n, edan_error *err)
{
    char buf[1024];
    if (!value || !*value || strlen(value) >= sizeof buf) {
        edan_error_set(err, "--mem-latency: a list of latencies in ns, like 50,100,300");
        return -1;
    }
    strcpy(buf, value);
    *n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        double d;
        if (*n == EDAN_TIMING_MAX_LATENCIES || edan_parse_double(tok, &d) || !(d >= 0) || d > 1e7) {
            edan_error_set(err, "--mem-latency: '%s' is not a list of 1 to %d latencies in ns from 0 to 10^7",
                           value, EDAN_TIMING_MAX_LATENCIES);
            return -1;
        }
        out[(*n)++] = d;
    }
    if (*n == 0) {
        edan_error_set(err, "--mem-latency: a list of latencies in ns, like 50,100,300");
        return -1;
    }
    return 0;
}

static int check_latencies(const char *value, edan_error *err)
{
    double l[EDAN_TIMING_MAX_LATENCIES];
    int n;
    return parse_latencies(value, l, &n, err);
}

static int check_machine(const char *value, edan_error *err)
{
    edan_machine m;
    return edan_machine_load(value, &m, err);
}

static bool wanted(const edan_options *o)
{
    return edan_options_last(o, "machine") != NULL;
}

/* ===================================================================== */
/* The tool                                                               */
/* ===================================================================== */

static void destroy(void *tool)
{
    timing_tool *t = tool;
    if (!t)
        return;
    edan_timing_free(t->model);
    free(t);
}

static void *create(edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    const char *path = edan_options_last(o, "machine");
    const char *lats = edan_options_last(o, "mem-latency");
    edan_machine m;
    if (!path || edan_machine_load(path, &m, err))
        return NULL;
    double lat[EDAN_TIMING_MAX_LATENCIES];
    int n = 1;
    lat[0] = m.mem_latency_ns;
    if (lats && parse_latencies(lats, lat, &n, err))
        return NULL;
    timing_tool *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    snprintf(t->path, sizeof t->path, "%s", path);
    if (!(t->model = edan_timing_new(&m, lat, n, err))) {
        destroy(t);
        return NULL;
    }
    return t;
}

static edan_consumer consumer(void *tool)
{
    return edan_timing_consumer(((timing_tool *)tool)->model);
}

static const edan_error *error(const void *tool)
{
    return edan_timing_error(((const timing_tool *)tool)->model);
}

/* ===================================================================== */
/* Report                                                                 */
/* ===================================================================== */

static void report_text(const timing_tool *t, FILE *f)
{
    const edan_timing *m = t->model;
    const edan_machine *mc = edan_timing_machine(m);
    const edan_timing_counts *c = edan_timing_counts_get(m);
    fprintf(f, "\nprediction on machine %s (%s)\n", mc->name, t->path);
    fprintf(f, "  %14s %16s %16s %12s\n", "mem latency ns", "cycles", "seconds", "mem stall");
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        edan_timing_lane l = edan_timing_lane_get(m, k);
        fprintf(f, "  %14g %16.0f %16.6g %11.1f%%\n", l.mem_latency_ns, l.cycles, l.seconds,
                l.cycles > 0 ? 100.0 * l.mem_stall_cycles / l.cycles : 0.0);
    }
    if (edan_timing_lanes(m) > 1) {
        fprintf(f, "  slope                     %.4g ns of run time per ns of memory latency\n", edan_timing_slope(m));
        fprintf(f, "  slowdown                  %.4gx (highest latency against lowest)\n", edan_timing_slowdown(m));
    }
    fprintf(f, "  instructions              %" PRIu64 " (%" PRIu64 " loads, %" PRIu64 " stores)\n", c->instructions,
            c->loads, c->stores);
    fprintf(f, "  L1i misses                %" PRIu64 "\n", c->l1i_misses);
    static const char *const names[] = {"L1d", "L2", "L3"};
    for (int l = 0; l < mc->n_data_levels; l++)
        fprintf(f, "  %-4s hits / misses        %" PRIu64 " / %" PRIu64 "\n", names[l], c->level_hits[l],
                c->level_misses[l]);
    fprintf(f, "  memory lines read         %" PRIu64 " (%" PRIu64 " bytes moved)\n", c->ram_lines, c->ram_bytes);
    fprintf(f, "  branches / mispredicted   %" PRIu64 " / %" PRIu64 "\n", c->branches, c->mispredicts);
    if (c->unaddressed)
        fprintf(f, "  note: %" PRIu64 " instructions have no address (a text trace): instruction fetch and branch\n"
                   "        prediction are not modelled for them\n",
                c->unaddressed);
}

static void json_array(FILE *f, const char *key, const edan_timing *m, int what)
{
    fprintf(f, ",\"%s\":[", key);
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        edan_timing_lane l = edan_timing_lane_get(m, k);
        double v = what == 0   ? l.mem_latency_ns
                   : what == 1 ? l.cycles
                   : what == 2 ? l.seconds
                               : (l.cycles > 0 ? l.mem_stall_cycles / l.cycles : 0);
        fputs(k ? "," : "", f);
        edan_json_num(f, v);
    }
    fputc(']', f);
}

static void report_json(const timing_tool *t, FILE *f)
{
    const edan_timing *m = t->model;
    const edan_machine *mc = edan_timing_machine(m);
    const edan_timing_counts *c = edan_timing_counts_get(m);
    fputs(",\"prediction\":{\"machine\":{\"name\":", f);
    edan_json_str(f, mc->name);
    fputs(",\"file\":", f);
    edan_json_str(f, t->path);
    fputs(",\"clock_ghz\":", f);
    edan_json_num(f, mc->clock_ghz);
    fputc('}', f);
    json_array(f, "mem_latency_ns", m, 0);
    json_array(f, "cycles", m, 1);
    json_array(f, "seconds", m, 2);
    json_array(f, "mem_stall_share", m, 3);
    fputs(",\"slope_ns_per_ns\":", f);
    edan_json_num(f, edan_timing_slope(m));
    fputs(",\"slowdown\":", f);
    edan_json_num(f, edan_timing_slowdown(m));
    fprintf(f,
            ",\"counts\":{\"instructions\":%" PRIu64 ",\"loads\":%" PRIu64 ",\"stores\":%" PRIu64
            ",\"l1i_misses\":%" PRIu64 ",\"levels\":[",
            c->instructions, c->loads, c->stores, c->l1i_misses);
    for (int l = 0; l < mc->n_data_levels; l++)
        fprintf(f, "%s{\"hits\":%" PRIu64 ",\"misses\":%" PRIu64 "}", l ? "," : "", c->level_hits[l],
                c->level_misses[l]);
    fprintf(f,
            "],\"memory_lines\":%" PRIu64 ",\"memory_bytes\":%" PRIu64 ",\"branches\":%" PRIu64
            ",\"mispredicts\":%" PRIu64 ",\"unaddressed\":%" PRIu64 "}}",
            c->ram_lines, c->ram_bytes, c->branches, c->mispredicts, c->unaddressed);
}

static void report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    (void)s;
    const timing_tool *t = tool;
    if (fmt == EDAN_FORMAT_JSON)
        report_json(t, f);
    else
        report_text(t, f); /* the table form is the same rows */
}

static const edan_tool_option options[] = {
    {"machine", true,
     "  --machine=FILE      predict the region's run time on the machine FILE describes\n"
     "                      (machines/*.ini, docs/machines.md): an out-of-order core, its\n"
     "                      caches and memory, scheduled by the timing model (docs/model.md)\n",
     check_machine},
    {"mem-latency", true,
     "  --mem-latency=LIST  memory latencies in ns to predict at, in one pass, with the\n"
     "                      slope and slowdown between them [the machine file's]\n",
     check_latencies},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_timing_tool = {
    .name = "prediction",
    .summary = "run time on a described machine at each memory latency (timing model)",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .report = report,
    .destroy = destroy,
    .threaded = true,
};
