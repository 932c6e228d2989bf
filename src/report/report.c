#include "report/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/metrics.h"
#include "config/machine_file.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/table.h"

void edan_report_lane_label(const edan_edag *e, int k, char *buf, size_t cap)
{
    const edan_lane_config *l = &edan_edag_get_config(e)->lane[k];
    char cache[256];
    edan_cache_config_format(&l->cache, cache, sizeof cache);
    snprintf(buf, cap, "cache=%s alpha=%" PRIu64, cache, l->cost.alpha);
}

/* ===================================================================== */
/* The header: the source and the model                                   */
/* ===================================================================== */

#define TEXT (EDAN_NO_JSON | EDAN_NO_CSV)
#define H_COL(m, key, doc) EDAN_COL_FIELD(header_view, m, key, "", doc, 0, NULL, 0, 0)

typedef struct header_view {
    const char *schema, *kind, *path, *binary, *filter, *start, *bytes;
    bool exit_known, ignore_exit, false_deps, C_given;
    uint64_t kernel_lines;
    double alpha0, clock_ghz;
    /* text */
    bool samples; /* --sample-only: MemGaze's samples alone were traced, for their estimates; no eDAG */
    bool kernel;  /* the kernel wrote lines that the caches took */
    const char *start_text, *deps;
} header_view;

enum { H_STATUS = 7, H_SIGNAL, H_IGNORE, H_KERNEL, H_M };
static const edan_column header_cols[] = {
    H_COL(schema, "schema", "the report's schema: edan.analysis/1"),
    H_COL(kind, "source.kind", "online (a program run under the plugin), trace, sampled, ..."),
    H_COL(path, "source.path", "the trace (\"\": none)"),
    H_COL(binary, "source.binary", "the traced program (\"\": unknown)"),
    H_COL(filter, "source.filter", "the functions the region is (\"\": the whole program)"),
    EDAN_COL_FIELD(header_view, start, "source.start", "", "with a filter: warm or cold caches and predictor",
                   EDAN_COL_OPTIONAL, NULL, 0, 0),
    EDAN_COL_GROUP_FIELD(header_view, exit_known, "source.program_exit", "online: how the traced program ended",
                         EDAN_COL_OPTIONAL),
    {"source.program_exit.status", EDAN_T_OPT_U64, "", "its exit status (null: a signal killed it)", 0, NULL, 0, 0,
     NULL, EDAN_CELL},
    {"source.program_exit.signal", EDAN_T_OPT_U64, "", "the signal that killed it (null: none)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    H_COL(ignore_exit, "source.program_exit.ignore_exit", "--ignore-exit: edan exits 0 even when it failed"),
    EDAN_COL_FIELD(header_view, kernel_lines, "source.kernel_lines", "lines",
                   "warm state: the 64-byte lines system calls (read, pread64, readv, preadv, recvfrom, recvmsg) "
                   "wrote into the program's memory, which the caches took as written (not the program's stores)",
                   EDAN_COL_OPTIONAL, NULL, 0, 0),
    {"model.m", EDAN_T_U64S, "", "--m: the memory accesses in flight", 0, NULL, 0, 0, NULL, EDAN_CELL},
    EDAN_COL_FIELD(header_view, alpha0, "model.alpha0", "cycles", "alpha0 (--alpha0)", EDAN_COL_G, NULL, 0, 6),
    EDAN_COL_FIELD(header_view, clock_ghz, "model.clock_ghz", "GHz", "the clock (--clock)", EDAN_COL_G, NULL, 0, 6),
    H_COL(false_deps, "model.false_deps", "--false-deps: false dependencies too"),
    H_COL(bytes, "model.bytes", "w(v): access or line bytes (--bytes)"),
    H_COL(C_given, "model.C_given", "--C gave the non-memory cost"),
    /* text */
    EDAN_COL_FIELD(header_view, samples, "samples", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(header_view, kernel, "kernel", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(header_view, start_text, "start_text", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(header_view, deps, "deps", "", "text", TEXT, NULL, 0, 0),
};

static const char header_form[] =
    "{?samples}edan: MemGaze's samples alone (online)\n"
    "{!samples}edan: eDAG analysis ({source.kind}{?source.path} {source.path}{;})\n"
    "{?source.binary}  program     {source.binary}\n"
    "{?source.filter}  functions   {source.filter}\n"
    "{!samples}{?source.filter}  start       {start_text}\n"
    "{!samples}{?kernel}  kernel      {source.kernel_lines} lines written by system calls, warm in the caches\n"
    "{!samples}  model       {deps} dependencies, w(v) = {model.bytes} bytes, clock {model.clock_ghz} GHz, alpha0 "
    "{model.alpha0}\n";

/* The header's values. */
static header_view header_of(const edan_options *o, const edan_report_source *src)
{
    const bool warm = src->warm && !o->cold;
    header_view v = {.schema = EDAN_JSON_SCHEMA, .kind = src->kind, .path = src->path ? src->path : ""};
    v.binary = src->binary ? src->binary : "";
    v.filter = src->filter ? src->filter : "";
    v.start = warm ? "warm" : "cold";
    v.kernel_lines = src->kernel_lines;
    v.kernel = warm && src->kernel_lines;
    v.bytes = o->bytes_mode == EDAN_BYTES_LINE ? "line" : "access";
    v.exit_known = src->exit.known;
    v.ignore_exit = src->exit.ignore_exit;
    v.false_deps = o->false_deps;
    v.C_given = o->metrics.C_given;
    v.alpha0 = o->metrics.alpha0;
    v.clock_ghz = o->metrics.clock_ghz;
    v.samples = !strcmp(src->kind, "sampled");
    v.start_text = warm ? "warm (caches and branch predictor follow the whole program)"
                        : "cold (caches and branch predictor see the region alone)";
    v.deps = o->false_deps ? "true+false" : "true (RAW)";
    return v;
}

void edan_report_header(FILE *f, const edan_options *o, const edan_report_source *src, bool json)
{
    header_view v = header_of(o, src);
    edan_table t;
    edan_table_init(&t, &edan_report_tables[0]);
    edan_value *r = edan_table_row_of(&t, 0, &v, NULL);
    if (r) {
        r[H_STATUS] = (edan_value){.opt = {(uint64_t)src->exit.status, !src->exit.signal}};
        r[H_SIGNAL] = (edan_value){.opt = {(uint64_t)src->exit.signal, src->exit.signal != 0}};
        r[H_M] = (edan_value){.a = {o->metrics.m, (size_t)o->metrics.n_m}};
    }
    if (!src->filter || !*src->filter)
        edan_table_omit(&t, "source.start");
    if (!src->warm || o->cold)
        edan_table_omit(&t, "source.kernel_lines");
    if (!src->exit.known)
        edan_table_omit_group(&t, "source.program_exit");
    if (json) { /* the report's object opened, its members to follow */
        fputc('{', f);
        edan_table_json(f, &t, 0);
    } else {
        edan_table_form(f, &t, header_form);
    }
    edan_table_free(&t);
}

/* ===================================================================== */
/* The caches each section assumed (with --machine)                       */
/* ===================================================================== */

#define CAP 256
typedef struct caches_view {
    const char *machine, *edag_from, *proj_from, *pred_from;
    bool edag, prediction, projection;
    const char *edag_list[EDAN_MAX_LANES], *pred_list[1], *proj_list[EDAN_MAX_LANES];
    size_t n_edag, n_pred, n_proj;
    /* text */
    const char *edag_note, *proj_note, *pred_label, *proj_label, *proj_text, *pages, *pages_note, *zeroing,
        *zeroing_note;
    char names[EDAN_MAX_LANES][CAP], mc[CAP], edag_text[EDAN_MAX_LANES * (CAP + 2)];
    edan_machine m;
} caches_view;

#define SECTION(name, m, from, list, n, what)                                                                          \
    EDAN_COL_GROUP_FIELD(caches_view, m, name, "the caches " what " assumed", EDAN_COL_OPTIONAL),                      \
        EDAN_COL_FIELD(caches_view, from, name ".from", "", "machine (its data caches) or cache (--cache)", 0, NULL,   \
                       0, 0),                                                                                          \
        EDAN_COL_ARRAY(caches_view, list, n, name ".caches", "", "the distinct caches, as canonical --cache texts", 0)
static const edan_column caches_cols[] = {
    EDAN_COL_FIELD(caches_view, machine, "machine", "", "the machine's name (--machine)", 0, NULL, 0, 0),
    SECTION("edag", edag, edag_from, edag_list, n_edag, "the eDAG's configurations"),
    SECTION("prediction", prediction, pred_from, pred_list, n_pred, "the timing model"),
    EDAN_COL_FIELD(caches_view, pages, "prediction.pages", "",
                   "the addresses the timing model's caches are indexed by ([machine] pages): virtual, or first-touch "
                   "(each page the next free frame at its first access)",
                   0, NULL, 0, 0),
    EDAN_COL_FIELD(caches_view, zeroing, "prediction.page_zeroing", "",
                   "the pages the kernel zeroes through the timing model's caches ([machine] page_zeroing): "
                   "first-store (each page at the program's first store to it), or none (also with a machine "
                   "that zeroes, when the stream is a --cold region's alone)",
                   0, NULL, 0, 0),
    SECTION("projection", projection, proj_from, proj_list, n_proj, "the projection's traffic"),
    /* text */
    EDAN_COL_FIELD(caches_view, edag_text, "edag_text", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(caches_view, edag_note, "edag_note", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(caches_view, mc, "mc", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(caches_view, pred_label, "pred_label", "", "text", TEXT | EDAN_COL_LEFT, NULL, 11, 0),
    EDAN_COL_FIELD(caches_view, pages_note, "pages_note", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(caches_view, zeroing_note, "zeroing_note", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(caches_view, proj_label, "proj_label", "", "text", TEXT | EDAN_COL_LEFT, NULL, 11, 0),
    EDAN_COL_FIELD(caches_view, proj_text, "proj_text", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(caches_view, proj_note, "proj_note", "", "text", TEXT, NULL, 0, 0),
};
const edan_table_decl edan_report_tables[] = {
    EDAN_TABLE_DECL("", NULL, true, "the report's header: its schema, its source and the model's options", header_cols),
    EDAN_TABLE_DECL("caches", NULL, true, "with --machine: the caches each section assumed", caches_cols),
    {NULL}};

static const char caches_form[] =
    "{?edag}  caches      eDAG: {edag_text} ({edag_note})\n"
    "{?prediction}  {pred_label} prediction: {mc} (machine {machine}'s data caches{pages_note}{zeroing_note})\n"
    "{?projection}  {proj_label} projection: {proj_text} ({proj_note})\n";

/* The caches of the sections the report has (false: no machine, or a bad one, whose tool says why). */
static bool caches_of(caches_view *v, const edan_options *o, const edan_report_source *src, bool edag, bool prediction,
                      bool projection)
{
    const char *path = edan_options_last(o, "machine");
    edan_error err = {0};
    edan_edag_config cfg;
    memset(v, 0, sizeof *v);
    if (!path || edan_machine_load(path, &v->m, &err) || edan_options_edag_config(o, &cfg, &err))
        return false; /* no machine: the configurations name their caches */
    const edan_cache_config data = edan_machine_data_caches(&v->m);
    edan_cache_config_format(&data, v->mc, sizeof v->mc);
    for (int k = 0; k < cfg.n_lanes; k++) { /* the distinct caches of the eDAG's configurations */
        edan_cache_config_format(&cfg.lane[k].cache, v->names[v->n_edag], CAP);
        bool dup = false;
        for (size_t i = 0; i < v->n_edag && !dup; i++)
            dup = !strcmp(v->names[i], v->names[v->n_edag]);
        if (!dup) {
            v->edag_list[v->n_edag] = v->names[v->n_edag];
            snprintf(v->edag_text + strlen(v->edag_text), sizeof v->edag_text - strlen(v->edag_text), "%s%s",
                     v->n_edag ? "; " : "", v->names[v->n_edag]);
            v->n_edag++;
        }
    }
    v->machine = v->m.name;
    /* the projection counts traffic in --cache's configurations when given, else in the machine's caches */
    v->edag_from = v->proj_from = o->cache_given ? "cache" : "machine";
    v->pred_from = "machine";
    v->pages = v->m.pages == EDAN_PAGES_FIRST_TOUCH ? "first-touch" : "virtual";
    v->pages_note = v->m.pages == EDAN_PAGES_FIRST_TOUCH ? ", physical pages by first touch" : "";
    const bool zeroes = v->m.page_zeroing == EDAN_ZEROING_FIRST_STORE, whole = edan_report_whole_stream(o, src);
    v->zeroing = zeroes && whole ? "first-store" : "none";
    v->zeroing_note = !zeroes ? ""
                      : whole ? ", each page zeroed at its first store"
                              : ", no page zeroing: a --cold region's stream does not say which pages were written";
    v->edag = edag, v->prediction = prediction, v->projection = projection;
    v->pred_list[0] = v->mc;
    v->n_pred = 1;
    v->n_proj = o->cache_given ? v->n_edag : 1;
    memcpy(v->proj_list, o->cache_given ? v->edag_list : v->pred_list, v->n_proj * sizeof *v->proj_list);
    v->edag_note = o->cache_given ? "--cache"
                   : v->m.pages == EDAN_PAGES_FIRST_TOUCH
                       ? "the machine's data caches at virtual addresses; --cache to change"
                       : "the machine's data caches; --cache to change";
    v->proj_note = o->cache_given ? "--cache" : "the machine's data caches";
    v->pred_label = edag ? "" : "caches";
    v->proj_label = edag || prediction ? "" : "caches";
    v->proj_text = o->cache_given ? v->edag_text : v->mc;
    return true;
}

void edan_report_caches(FILE *f, const edan_options *o, const edan_report_source *src, bool json, bool edag,
                        bool prediction, bool projection)
{
    caches_view *v = malloc(sizeof *v);
    if (!v || !caches_of(v, o, src, edag, prediction, projection)) {
        free(v);
        return;
    }
    edan_table t;
    edan_table_of(&t, &edan_report_tables[1], v, 1, sizeof *v);
    for (int i = 0; i < 3; i++)
        if (!(i == 0 ? edag : i == 1 ? prediction : projection))
            edan_table_omit_group(&t, i == 0 ? "edag" : i == 1 ? "prediction" : "projection");
    if (json)
        edan_table_json_object(f, &t);
    else
        edan_table_form(f, &t, caches_form);
    edan_table_free(&t);
    free(v);
}

/* ===================================================================== */
/* --series-csv: each configuration's data-movement series                */
/* ===================================================================== */

typedef struct series_row {
    uint64_t configuration, alpha, tau, phase, time, U, started;
    const char *cache;
} series_row;

#define S_COL(m, key, unit, doc, flags) EDAN_COL_FIELD(series_row, m, key, unit, doc, flags, NULL, 0, 0)
static const edan_column series_cols[] = {
    S_COL(configuration, "configuration", "", "the eDAG's configuration, from 1 (the --cache order)", 0),
    S_COL(cache, "cache", "", "its cache, the canonical --cache text", EDAN_COL_CSV_QUOTED),
    S_COL(alpha, "alpha", "cycles", "its alpha", 0),
    S_COL(tau, "tau", "cycles", "the series' phase length", 0),
    S_COL(phase, "phase", "", "the phase i, from 0", 0),
    S_COL(time, "time", "cycles", "the phase's start, i * tau", 0),
    S_COL(U, "U", "bytes", "U_i: the bytes moved by the vertices that finish in phase i", 0),
    S_COL(started, "started", "vertices", "the vertices that start in phase i", 0),
};
static const edan_table_decl series_table =
    EDAN_CSV_TABLE_DECL("configurations.series", NULL, "a phase of a configuration's series", series_cols);

int edan_report_series_csv(const edan_edag *e, const char *path, edan_error *err)
{
    edan_table t;
    edan_csv c;
    edan_table_init(&t, &series_table);
    if (edan_table_csv_open(&c, &t, path, "--series-csv", err))
        return -1;
    for (int k = 0; k < edan_edag_n_lanes(e); k++) {
        const edan_lane_stats *st = edan_edag_lane(e, k);
        const edan_lane_config *lc = &edan_edag_get_config(e)->lane[k];
        char cache[256];
        edan_cache_config_format(&lc->cache, cache, sizeof cache);
        for (int j = 0; j < st->n_series; j++) {
            const edan_series *s = &st->series[j];
            for (size_t i = 0; i < s->n; i++) { /* a row at a time: a series has a row per phase */
                const series_row x = {k + 1, lc->cost.alpha, s->tau, i, i * s->tau, s->U[i], s->started[i], cache};
                edan_table_row_of(&t, 0, &x, NULL);
                edan_table_csv_rows(&c, &t);
                edan_table_clear(&t);
            }
        }
    }
    const bool failed = t.failed;
    edan_table_free(&t);
    if (!failed)
        return edan_csv_close(&c, err);
    edan_output_abort(&c.out); /* out of memory for the row: no file rather than one short of rows */
    edan_error_set(err, "out of memory for --series-csv");
    return -1;
}

/* A configuration's label in the table: its cache (or "No cache"), and its alpha where the lanes differ. */
static void table_label(const edan_edag *e, int k, char *label, size_t cap)
{
    const edan_lane_config *lc = &edan_edag_get_config(e)->lane[k];
    char cache[256];
    edan_cache_config_format(&lc->cache, cache, sizeof cache);
    snprintf(label, cap, "%s", lc->cache.n_levels == 0 ? "No cache" : cache);
    if (edan_edag_n_lanes(e) > 1 && lc->cost.alpha != edan_edag_get_config(e)->lane[0].cost.alpha)
        snprintf(label + strlen(label), cap - strlen(label), " a=%" PRIu64, lc->cost.alpha);
}

void edan_report_table(FILE *f, const edan_edag *e, const edan_options *o)
{
    const int n = edan_edag_n_lanes(e);
    /* the configuration without a cache, the reductions' base (-1: none); the Cache column holds the longest label
     * whole (at least the paper's 44 characters) */
    int base = -1, width = 44;
    char label[EDAN_MAX_LANES][300];
    double v[EDAN_MAX_LANES][5]; /* each configuration's W, D, lambda, Lambda and B: the columns */
    for (int k = 0; k < n; k++) {
        const edan_lane_stats *st = edan_edag_lane(e, k);
        edan_metrics mt;
        edan_metrics_compute(st, edan_edag_get_config(e)->lane[k].cost.alpha, &o->metrics, &mt);
        const double row[5] = {(double)st->W, (double)st->D, mt.per_m[0].lambda, mt.per_m[0].Lambda, mt.bw_gbs};
        memcpy(v[k], row, sizeof row);
        base = base < 0 && edan_edag_get_config(e)->lane[k].cache.n_levels == 0 ? k : base;
        table_label(e, k, label[k], sizeof label[k]);
        width = (int)strlen(label[k]) > width ? (int)strlen(label[k]) : width;
    }
    fprintf(f, "m = %" PRIu64 ", alpha0 = %g, clock %g GHz%s\n", o->metrics.m[0], o->metrics.alpha0,
            o->metrics.clock_ghz, base < 0 ? " (no configuration without a cache: no reductions)" : "");
    fprintf(f, "%-*s %22s %18s %22s %18s %16s\n", width, "Cache", "W", "D", "lambda", "Lambda", "B [GB/s]");
    static const char *const format[5] = {"", "", "%.0f", "%.4f", "%.1f"};
    static const int cols[5] = {22, 18, 22, 18, 16};
    for (int k = 0; k < n; k++) {
        const edan_lane_stats *st = edan_edag_lane(e, k);
        fprintf(f, "%-*s", width, label[k]);
        for (int c = 0; c < 5; c++) { /* a count as it is (exact past 2^53), with its reduction against the base */
            char cell[64];
            const int at = c < 2 ? snprintf(cell, sizeof cell, "%" PRIu64, c ? st->D : st->W)
                                 : snprintf(cell, sizeof cell, format[c], v[k][c]);
            if (base >= 0 && k != base && v[base][c] > 0)
                snprintf(cell + at, sizeof cell - (size_t)at, " (%.1f%%)", 100.0 * (v[base][c] - v[k][c]) / v[base][c]);
            fprintf(f, " %*s", cols[c], cell);
        }
        fputc('\n', f);
    }
}
