#include "config/options.h"

#include "config/machine_file.h"

#include "util/parse.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void edan_options_default(edan_options *o)
{
    memset(o, 0, sizeof *o);
    o->n_cache = 1; /* no cache */
    o->n_alpha = 1;
    o->alpha[0] = 200;
    edan_cost_default(&o->cost);
    edan_metrics_params_default(&o->metrics);
    o->n_tau = 1;
    o->tau[0] = 0;
    o->progress = -1;
    snprintf(o->trace_format, sizeof o->trace_format, "binary");
}

/* Split a list "a,b,c" (also ':' separated) into up to max unsigned values. */
/* Bounds of the list options: m memory issue slots, and a phase length of the series in cycles. */
#define EDAN_MAX_ISSUE_SLOTS (1ull << 32)
#define EDAN_MAX_TAU (1ull << 62)

static int parse_u64_list(const char *key, const char *value, uint64_t *out, int max, bool allow_zero, uint64_t largest,
                          int *n, edan_error *err)
{
    if (!value || !*value) {
        edan_error_set(err, "--%s needs a value", key);
        return -1;
    }
    int count = 0, rc;
    const char *p = value, *tok;
    size_t len;
    while ((rc = edan_list_next(&p, ",:", &tok, &len)) > 0) {
        uint64_t v;
        if (edan_parse_u64_n(tok, len, &v) || (!allow_zero && v == 0) || v > largest) {
            edan_error_set(err, "--%s: '%.*s' is not an integer from %d to %" PRIu64, key, (int)(len > 64 ? 64 : len),
                           tok, allow_zero ? 0 : 1, largest);
            return -1;
        }
        if (count == max) {
            edan_error_set(err, "--%s: at most %d values", key, max);
            return -1;
        }
        out[count++] = v;
    }
    if (rc < 0) {
        edan_error_set(err, "--%s: an empty element in '%s' (values are separated by single ',' or ':')", key, value);
        return -1;
    }
    *n = count;
    return 0;
}

/* The options of this module; what each value is (options.h). */
static const struct {
    const char *name;
    int value;
} known[] = {
    {"cache", true},
    {"alpha", true},
    {"cost", true},
    {"cost-file", EDAN_VALUE_INPUT},
    {"m", true},
    {"alpha0", true},
    {"C", true},
    {"tau", true},
    {"clock", true},
    {"false-deps", false},
    {"threads", true},
    {"bytes", true},
    {"json", false},
    {"series-csv", EDAN_VALUE_OUTPUT},
    {"output", EDAN_VALUE_OUTPUT},
    {"filter", true},
    {"exclude-callees", false},
    {"cold", false},
    {"no-kernel-writes", false},
    {"across-samples", false},
    {"progress", false},
    {"no-progress", false},
    {"plot-dir", EDAN_VALUE_OUTPUT_DIR},
    {"csv-dir", EDAN_VALUE_OUTPUT_DIR},
    {"html", EDAN_VALUE_OUTPUT},
    {"table", false},
    {"wide", false},
};

int edan_options_value_kind(const char *key)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(known[i].name, key))
            return known[i].value;
    return -1;
}

int edan_options_takes_value(const char *key)
{
    const int kind = edan_options_value_kind(key);
    return kind < 0 ? -1 : kind != EDAN_FLAG;
}

const char *edan_options_table(int i, int *kind)
{
    if (i < 0 || (size_t)i >= sizeof known / sizeof known[0])
        return NULL;
    *kind = known[i].value;
    return known[i].name;
}

static int set_filter(edan_options *o, const char *value, edan_error *err)
{
    if (!value || !*value || !edan_names_next(value, &(size_t){0})) {
        edan_error_set(err, "--filter needs function names, e.g. --filter=kernel or --filter=f,g");
        return -1;
    }
    size_t len;
    for (const char *tok = edan_names_next(value, &len); tok; tok = edan_names_next(tok + len, &len)) {
        if (o->n_filter == EDAN_MAX_FILTER || len >= sizeof o->filter[0]) {
            edan_error_set(err, "--filter: at most %d names of at most %zu characters", EDAN_MAX_FILTER,
                           sizeof o->filter[0] - 1);
            return -1;
        }
        memcpy(o->filter[o->n_filter], tok, len);
        o->filter[o->n_filter++][len] = '\0';
    }
    return 0;
}

static int apply(edan_options *o, const char *key, const char *value, edan_error *err)
{
    int takes = edan_options_takes_value(key);
    if (takes < 0)
        return 1;
    if (takes && (!value || !*value)) {
        edan_error_set(err, "--%s needs a value (it is empty)", key);
        return -1;
    }
    if (!takes && value) {
        edan_error_set(err, "--%s takes no value", key);
        return -1;
    }
    if (!strcmp(key, "cache")) {
        if (!o->cache_given) {
            o->n_cache = 0;
            o->cache_given = true;
        }
        /* Several configurations: "--cache=none --cache=32K" or "--cache='none;32K;64K'". */
        const char *p = value, *tok;
        size_t len;
        int rc;
        while ((rc = edan_list_next(&p, ";", &tok, &len)) > 0) {
            if (o->n_cache == EDAN_MAX_CACHES) {
                edan_error_set(err, "--cache: at most %d configurations", EDAN_MAX_CACHES);
                return -1;
            }
            char *spec = strndup(tok, len); /* one configuration, whatever its length */
            if (!spec) {
                edan_error_set(err, "--cache: out of memory");
                return -1;
            }
            edan_error sub = {0};
            o->cache_of_machine[o->n_cache] = !strcmp(spec, "machine");
            if (o->cache_of_machine[o->n_cache]) {
                memset(&o->cache[o->n_cache], 0, sizeof o->cache[o->n_cache]); /* made from the file later */
            } else if (edan_cache_config_parse(spec, &o->cache[o->n_cache], &sub)) {
                edan_error_set(err, "--cache: %s", sub.msg);
                free(spec);
                return -1;
            }
            free(spec);
            o->n_cache++;
        }
        if (rc < 0) {
            edan_error_set(err, "--cache: an empty configuration in '%s' (configurations are separated by one ';')",
                           value);
            return -1;
        }
        return 0;
    }
    if (!strcmp(key, "alpha"))
        return parse_u64_list(key, value, o->alpha, EDAN_MAX_ALPHAS, true, EDAN_COST_MAX, &o->n_alpha, err);
    if (!strcmp(key, "m")) {
        uint64_t tmp[EDAN_MAX_M];
        int n;
        if (parse_u64_list(key, value, tmp, EDAN_MAX_M, false, EDAN_MAX_ISSUE_SLOTS, &n, err))
            return -1;
        o->metrics.n_m = n;
        memcpy(o->metrics.m, tmp, sizeof tmp);
        return 0;
    }
    if (!strcmp(key, "tau"))
        return parse_u64_list(key, value, o->tau, EDAN_MAX_TAUS, true, EDAN_MAX_TAU, &o->n_tau, err);
    if (!strcmp(key, "alpha0") || !strcmp(key, "C") || !strcmp(key, "clock")) {
        double v;
        const bool clock = !strcmp(key, "clock");
        if (edan_parse_double(value, &v) || v < 0 || (clock && (v < EDAN_CLOCK_GHZ_MIN || v > EDAN_CLOCK_GHZ_MAX))) {
            if (clock)
                edan_error_set(err, "--clock: '%s' is not a clock in GHz, a decimal number from %g to %g", value,
                               EDAN_CLOCK_GHZ_MIN, EDAN_CLOCK_GHZ_MAX);
            else
                edan_error_set(err, "--%s: '%s' is not a non-negative decimal number", key, value);
            return -1;
        }
        if (!strcmp(key, "alpha0"))
            o->metrics.alpha0 = v;
        else if (!strcmp(key, "C")) {
            o->metrics.C = v;
            o->metrics.C_given = true;
        } else
            o->metrics.clock_ghz = v;
        return 0;
    }
    if (!strcmp(key, "cost")) {
        /* "fdiv=20,fsqrt=30" */
        const char *p = value, *tok;
        size_t len;
        int rc;
        while ((rc = edan_list_next(&p, ",", &tok, &len)) > 0) {
            const char *eq = memchr(tok, '=', len);
            if (!eq) {
                edan_error_set(err, "--cost: '%.*s' is not class=cycles, e.g. --cost=fdiv=20,fsqrt=30",
                               (int)(len > 64 ? 64 : len), tok);
                return -1;
            }
            char *pair = strndup(tok, len); /* class=cycles, whatever its length */
            if (!pair) {
                edan_error_set(err, "--cost: out of memory");
                return -1;
            }
            pair[eq - tok] = '\0';
            edan_error sub = {0};
            const int bad = edan_cost_set(&o->cost, pair, pair + (eq - tok) + 1, &sub);
            const bool ram = !strcmp(pair, "ram") || !strcmp(pair, "alpha");
            free(pair);
            if (bad) {
                edan_error_set(err, "--cost: %s", sub.msg);
                return -1;
            }
            if (ram) {
                o->alpha[0] = o->cost.alpha;
                o->n_alpha = 1;
            }
        }
        if (rc < 0) {
            edan_error_set(err, "--cost: an empty element in '%s' (class=cycles pairs are separated by one ',')",
                           value);
            return -1;
        }
        return 0;
    }
    if (!strcmp(key, "cost-file")) {
        edan_cost_model c = o->cost;
        c.alpha = o->alpha[0];
        if (edan_cost_load(&c, value, err))
            return -1;
        o->cost = c;
        if (c.alpha != o->alpha[0]) {
            o->alpha[0] = c.alpha;
            o->n_alpha = 1;
        }
        return 0;
    }
    if (!strcmp(key, "threads")) {
        uint64_t v;
        if (edan_parse_u64(value, &v) || v > 1024) {
            edan_error_set(err, "--threads: '%s' is not a number of threads (0 for one per core)", value);
            return -1;
        }
        o->threads = (int)v;
        return 0;
    }
    if (!strcmp(key, "false-deps")) {
        o->false_deps = true;
        return 0;
    }
    if (!strcmp(key, "bytes")) {
        if (!strcmp(value, "access"))
            o->bytes_mode = EDAN_BYTES_ACCESS;
        else if (!strcmp(value, "line"))
            o->bytes_mode = EDAN_BYTES_LINE;
        else {
            edan_error_set(err, "--bytes: '%s' must be 'access' or 'line'", value);
            return -1;
        }
        return 0;
    }
    if (!strcmp(key, "table")) {
        o->table = true;
        return 0;
    }
    if (!strcmp(key, "json")) {
        o->json = true;
        return 0;
    }
    if (!strcmp(key, "wide")) {
        o->wide = true;
        return 0;
    }
    if (!strcmp(key, "series-csv") || !strcmp(key, "output") || !strcmp(key, "plot-dir") || !strcmp(key, "csv-dir") ||
        !strcmp(key, "html")) {
        char *dst = !strcmp(key, "output")     ? o->output
                    : !strcmp(key, "plot-dir") ? o->plot_dir
                    : !strcmp(key, "csv-dir")  ? o->csv_dir
                    : !strcmp(key, "html")     ? o->html
                                               : o->series_csv;
        if (strlen(value) >= sizeof o->output) {
            edan_error_set(err, "--%s: path too long", key);
            return -1;
        }
        strcpy(dst, value);
        return 0;
    }
    if (!strcmp(key, "filter"))
        return set_filter(o, value, err);
    if (!strcmp(key, "exclude-callees")) {
        o->exclude_callees = true;
        return 0;
    }
    if (!strcmp(key, "cold")) {
        o->cold = true;
        return 0;
    }
    if (!strcmp(key, "no-kernel-writes")) {
        o->no_kernel_writes = true;
        return 0;
    }
    if (!strcmp(key, "across-samples")) {
        o->across_samples = true;
        return 0;
    }
    if (!strcmp(key, "progress") || !strcmp(key, "no-progress")) {
        o->progress = !strcmp(key, "progress");
        return 0;
    }
    return 1;
}

int edan_options_add_raw(edan_options *o, const char *key, const char *value, edan_error *err)
{
    const size_t len = value ? strlen(value) : 0;
    if (o->n_raw == EDAN_MAX_RAW || strlen(key) >= sizeof o->raw_key[0]) {
        edan_error_set(err, "--%s: more than %d options", key, EDAN_MAX_RAW);
        return -1;
    }
    if (len >= EDAN_OPTIONS_TEXT - o->raw_used) {
        edan_error_set(err, "--%s: the options' values are longer than %u characters in all", key,
                       EDAN_OPTIONS_TEXT - 1);
        return -1;
    }
    strcpy(o->raw_key[o->n_raw], key);
    o->raw_at[o->n_raw] = o->raw_used;
    memcpy(o->raw_text + o->raw_used, value ? value : "", len + 1);
    o->raw_used += (uint32_t)len + 1;
    o->raw_flag[o->n_raw] = !value;
    o->n_raw++;
    return 0;
}

const char *edan_options_raw_value(const edan_options *o, int k)
{
    return o->raw_text + o->raw_at[k];
}

int edan_options_set(edan_options *o, const char *key, const char *value, edan_error *err)
{
    int rc = apply(o, key, value, err);
    if (rc == 0 && edan_options_add_raw(o, key, value, err))
        return -1;
    return rc;
}

const char *edan_options_last(const edan_options *o, const char *key)
{
    for (int i = o->n_raw - 1; i >= 0; i--)
        if (!strcmp(o->raw_key[i], key))
            return edan_options_raw_value(o, i);
    return NULL;
}

int edan_options_each(const edan_options *o, const char *key, void (*fn)(void *ctx, const char *value), void *ctx)
{
    int n = 0;
    for (int i = 0; i < o->n_raw; i++) {
        if (strcmp(o->raw_key[i], key))
            continue;
        n++;
        if (fn)
            fn(ctx, o->raw_flag[i] ? NULL : edan_options_raw_value(o, i));
    }
    return n;
}

int edan_options_edag_config(const edan_options *o, edan_edag_config *cfg, edan_error *err)
{
    edan_edag_config_default(cfg);
    int lanes = o->n_cache * o->n_alpha;
    if (lanes > EDAN_MAX_LANES) {
        edan_error_set(err, "%d cache configurations x %d alpha values = %d lanes; at most %d in one pass", o->n_cache,
                       o->n_alpha, lanes, EDAN_MAX_LANES);
        return -1;
    }
    cfg->n_lanes = 0;
    /* --machine without --cache: one cache assumption in the report, the machine's (docs/model.md) */
    const bool machine_default = !o->cache_given && edan_options_last(o, "machine");
    for (int c = 0; c < o->n_cache; c++) {
        edan_cache_config cache = o->cache[c];
        if (o->cache_of_machine[c] || machine_default) {
            /* the one description of the machine: its data caches (l1d, l2 and l3) */
            const char *path = edan_options_last(o, "machine");
            edan_machine m;
            if (!path) {
                edan_error_set(err, "--cache=machine needs --machine=FILE");
                return -1;
            }
            if (edan_machine_load(path, &m, err))
                return -1;
            cache = edan_machine_data_caches(&m);
        }
        for (int a = 0; a < o->n_alpha; a++) {
            edan_lane_config *l = &cfg->lane[cfg->n_lanes++];
            l->cache = cache;
            l->cost = o->cost;
            l->cost.alpha = o->alpha[a];
        }
    }
    cfg->false_deps = o->false_deps;
    cfg->threads = o->threads;
    cfg->bytes_mode = o->bytes_mode;
    cfg->n_tau = o->n_tau;
    memcpy(cfg->tau, o->tau, sizeof cfg->tau);
    return 0;
}

/*
 * The options file between edan and its plugin: a line per option, "key"
 * or "key=value", the value percent-encoded (every byte outside a safe set
 * as %XX), so a value holding a newline, '#', '%' or blanks reads back as
 * it was written and can never become a second option.
 */
static bool safe_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_-.,;:/+=@", c);
}

int edan_options_write(const edan_options *o, FILE *f)
{
    for (int i = 0; i < o->n_raw; i++) {
        fputs(o->raw_key[i], f);
        if (!o->raw_flag[i]) {
            fputc('=', f);
            for (const unsigned char *p = (const unsigned char *)edan_options_raw_value(o, i); *p; p++)
                if (safe_byte(*p))
                    fputc(*p, f);
                else
                    fprintf(f, "%%%02X", *p);
        }
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                  : -1;
}

/* Decode a percent-encoded value in place; false when malformed. */
static bool percent_decode(char *v)
{
    char *out = v;
    for (const char *p = v; *p; p++) {
        if (*p != '%') {
            if (!safe_byte((unsigned char)*p))
                return false;
            *out++ = *p;
            continue;
        }
        const int hi = hex_digit(p[1]), lo = hi < 0 ? -1 : hex_digit(p[2]);
        if (lo < 0 || (hi == 0 && lo == 0))
            return false;
        *out++ = (char)(hi << 4 | lo);
        p += 2;
    }
    *out = '\0';
    return true;
}

int edan_options_read(edan_options *o, const char *path, edan_option_setter set, edan_error *err)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        edan_error_set(err, "%s: cannot open the options file: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        char *eq = strchr(line, '=');
        char *value = NULL;
        if (eq) {
            *eq = '\0';
            value = eq + 1;
        }
        edan_error sub = {0};
        if (!*line || (value && !percent_decode(value))) {
            edan_error_set(err, "%s:%d: not an option line", path, lineno);
            rc = -1;
        } else if ((rc = (set ? set : edan_options_set)(o, line, value, &sub)) != 0) {
            edan_error_set(err, "%s:%d: %s", path, lineno, rc > 0 ? "unknown option" : sub.msg);
            rc = -1;
        }
    }
    if (rc == 0 && ferror(f)) {
        edan_error_set(err, "%s: cannot read the options file", path);
        rc = -1;
    }
    free(line);
    fclose(f);
    return rc;
}

void edan_options_help(FILE *f)
{
    fputs("Analysis options (numbers are plain decimal; lists are comma separated, without an empty\n"
          "element; an option is given once, but --cache, --cost, --env, --filter and --functions\n"
          "add up when repeated; defaults in brackets):\n"
          "  --cache=SPEC        cache model; repeat, or separate with ';', to analyse several\n"
          "                      configurations in one pass. SPEC is 'none' or levels joined by\n"
          "                      '+', each SIZE[,line=B][,ways=N][,write=through|back][,alloc=no|yes]\n"
          "                      e.g. 32K (the paper's: 64-byte lines, 2-way, LRU, write-through,\n"
          "                      no write-allocate) or 32K,ways=8,write=back,alloc=yes+1M,ways=16\n"
          "                      or 'machine': the data caches of the --machine file\n"
          "                      Presets: 'paper' = 32K (as above); 'server' = a write-back,\n"
          "                      write-allocate hierarchy 32K,ways=8 + 1M,ways=16 + 32M,ways=16.\n"
          "                      Every level joined by '+' takes the paper's defaults unless\n"
          "                      told otherwise: write-through without allocation, so an added\n"
          "                      L2 sees every store and keeps no stored line; give write=back,\n"
          "                      alloc=yes per level (or 'server') for a real core's hierarchy\n"
          "                      [none: every load and store reaches RAM; with --machine, 'machine']\n"
          "  --alpha=LIST        cycles of a memory-access vertex (RAM latency) [200]\n"
          "  --cost=K=V,...      per-class costs in cycles: int mul div fadd fmul ffma fdiv fsqrt\n"
          "                      branch hit load store atomic ram [all 1, ram = alpha]\n"
          "  --cost-file=FILE    the same as 'key value' lines\n"
          "  --m=LIST            memory issue slots for the bounds, lambda and Lambda [4]\n"
          "  --alpha0=X          baseline latency of Lambda [1]\n"
          "  --C=X               cost of non-memory-access work in the bounds and Lambda\n"
          "                      [total cost of the non-memory-access vertices]\n"
          "  --tau=LIST          phase length in cycles of the data-movement series\n"
          "                      [0 = automatic: at most 4096 phases]\n"
          "  --clock=GHZ         clock for bandwidth in GB/s [1]\n"
          "  --bytes=access|line what w(v) counts: the bytes of the access that reach RAM, or\n"
          "                      all line fills and write-backs [access]\n"
          "  --false-deps        also keep write-after-read and write-after-write dependencies\n"
          "  --threads=N         threads that share the configurations of a sweep (configurations\n"
          "                      with the same cache stay on one thread) and --exact's timing\n"
          "                      model's memory latencies (four a thread at least); 0 is one\n"
          "                      per core the process may use, 1 analyses on the calling thread\n"
          "                      alone [0]\n"
          "  --across-samples    a sampled trace (MemGaze's) as one stream: reuses and windows of\n"
          "                      consecutive accesses span its samples [each sample on its own]\n"
          "Output options:\n"
          "  --json              JSON instead of text (schema: docs/json-schema.md)\n"
          "  --table             the case-study table of the EDAN paper's Tables 1 and 2: a row per\n"
          "                      configuration, columns W, D, lambda, Lambda, B with the reduction\n"
          "                      against the configuration without a cache (add --cache=none)\n"
          "  --wide              names whole in text tables [shortened to the column: parameter\n"
          "                      lists, then templates, then qualifiers become '…']\n"
          "  --series-csv=FILE   write the data-movement series as CSV\n"
          "  --plot-dir=DIR      plot with gnuplot (PNG and SVG): data movement over time of every\n"
          "                      configuration, and the runtime bounds against alpha for every m\n"
          "  --csv-dir=DIR       write the locality tools' tables (--reuse, --classes, --zoom,\n"
          "                      --sample-period) and the prediction's (--machine: per latency, and\n"
          "                      its prefetchers) as CSV files <name>-<table>.csv in DIR\n"
          "  --html=FILE         also write one self-contained HTML report (no network): identity,\n"
          "                      predicted time, metrics, sortable tables (docs/json-schema.md#html-report)\n"
          "  --output=FILE       write the report to FILE [standard output]\n"
          "  --progress, --no-progress  progress on stderr [when stderr is a terminal]\n",
          f);
}
