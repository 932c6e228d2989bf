#include "config/machine_file.h"

#include <errno.h>
#include <ini.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/machine_dram.h"
#include "config/machine_prefetch.h"
#include "util/files.h"
#include "util/parse.h"

/* ===================================================================== */
/* The keys                                                               */
/* ===================================================================== */

typedef enum key_type {
    K_NAME,    /* a short printable string */
    K_PRED,    /* bimodal or tournament */
    K_MODEL,   /* o3 or inorder */
    K_PAGES,   /* virtual or first-touch */
    K_ZEROING, /* none or first-store */
    K_FAULT,   /* a page fault's time in ns (real_range), 0 included; optional */
    K_TEXT,    /* a printable string, read and checked, not kept */
    K_GHZ,     /* a clock in GHz (real_range below) */
    K_U32,     /* an integer in [lo, hi] */
    K_TLB,     /* the same, in [dtlb]: the section optional, all its keys when it is given */
    K_LATENCY, /* cycles of one instruction class: [0, 10^6] */
    K_ISSUE,   /* cycles a unit of a class is busy per operation: [lo, hi], optional, at most its latency */
    K_NS,      /* a number of nanoseconds (real_range) */
    K_GBS,     /* a number of GB/s (real_range) */
    K_GFLOPS,  /* a number of Gflop/s (real_range) */
    K_WEIGHT,  /* a weight of weighted flops (real_range) */
    K_C_SIZE,  /* cache keys: the level's geometry and timing */
    K_C_LINE,
    K_C_WAYS,
    K_C_WRITE,
    K_C_ALLOC,
    K_C_HIT,
    K_C_MSHRS,
    K_C_TARGETS,
} key_type;

typedef struct key_def {
    const char *section, *key;
    key_type type;
    size_t offset;   /* into edan_machine (K_U32, K_GHZ, K_NS, K_GBS, K_GFLOPS, K_WEIGHT, K_NAME), or the class
                        (K_LATENCY, K_ISSUE) */
    uint64_t lo, hi; /* K_U32 and the cache's integers: the range, both included */
} key_def;

/*
 * The ranges of the real-valued keys, both ends included: wide enough for
 * any machine, narrow enough that no time, rate or product of the models
 * is absurd (a 10^-300 GHz clock made 9.4e294 seconds) or overflows.
 */
static const struct {
    key_type type;
    double lo, hi;
    const char *what;
} real_range[] = {
    {K_GHZ, EDAN_CLOCK_GHZ_MIN, EDAN_CLOCK_GHZ_MAX, "a clock in GHz"},
    {K_NS, 0.001, 1e6, "a latency in ns"},
    {K_GBS, 0.01, 1e6, "a bandwidth in GB/s"},
    {K_GFLOPS, 0.001, 1e9, "a rate in Gflop/s"},
    {K_WEIGHT, 1, 1e6, "a weight in additions"},
    {K_FAULT, 0, 1e6, "a time in ns"},
};

#define M(field) offsetof(edan_machine, field)
static const key_def plain_keys[] = {
    {"machine", "name", K_NAME, M(name), 0, 0},
    {"machine", "description", K_TEXT, 0, 0, 0},
    {"machine", "clock_ghz", K_GHZ, M(clock_ghz), 0, 0},
    {"machine", "pages", K_PAGES, M(pages), 0, 0},
    {"machine", "page_zeroing", K_ZEROING, M(page_zeroing), 0, 0},
    {"machine", "page_fault_ns", K_FAULT, M(page_fault_ns), 0, 0},
    {"core", "model", K_MODEL, M(core_model), 0, 0},
    {"core", "fetch_width", K_U32, M(fetch_width), 1, 64},
    {"core", "dispatch_width", K_U32, M(dispatch_width), 1, 64},
    {"core", "issue_width", K_U32, M(issue_width), 1, 64},
    {"core", "commit_width", K_U32, M(commit_width), 1, 64},
    {"core", "rob_entries", K_U32, M(rob_entries), 1, 1u << 16},
    {"core", "lq_entries", K_U32, M(lq_entries), 1, 1u << 16},
    {"core", "sq_entries", K_U32, M(sq_entries), 1, 1u << 16},
    {"core", "iq_entries", K_U32, M(iq_entries), 1, 1u << 16},
    {"core", "frontend_cycles", K_U32, M(frontend_cycles), 0, 1000},
    {"core", "fetch_taken_limit", K_U32, M(fetch_taken_limit), 0, 64},
    {"core", "fetch_block_bytes", K_U32, M(fetch_block_bytes), 0, 4096},
    {"core", "int_div_units", K_U32, M(int_div_units), 1, 64},
    {"core", "fp_div_units", K_U32, M(fp_div_units), 1, 64},
    {"core", "store_set_bytes", K_U32, M(store_set_bytes), 0, 4096},
    {"core", "mispredict_penalty", K_U32, M(mispredict_penalty), 0, 1000},
    {"core", "serialize_cycles", K_U32, M(serialize_cycles), 0, 1000},
    {"core", "predictor", K_PRED, M(predictor), 0, 0},
    {"core", "predictor_entries", K_U32, M(predictor_entries), 4, 1u << 24},
    {"dtlb", "entries", K_TLB, M(dtlb.entries), 1, 1u << 20},
    {"dtlb", "ways", K_TLB, M(dtlb.ways), 1, 1u << 20},
    {"dtlb", "l2_entries", K_TLB, M(dtlb.l2_entries), 1, 1u << 24},
    {"dtlb", "l2_ways", K_TLB, M(dtlb.l2_ways), 1, 1u << 24},
    {"dtlb", "l2_hit_cycles", K_TLB, M(dtlb.l2_hit_cycles), 0, 1000},
    {"dtlb", "walk_cycles", K_TLB, M(dtlb.walk_cycles), 0, 100000},
    {"latency", "int", K_LATENCY, EDAN_CLASS_INT, 0, 0},
    {"latency", "mul", K_LATENCY, EDAN_CLASS_MUL, 0, 0},
    {"latency", "div", K_LATENCY, EDAN_CLASS_DIV, 0, 0},
    {"latency", "fadd", K_LATENCY, EDAN_CLASS_FADD, 0, 0},
    {"latency", "fmul", K_LATENCY, EDAN_CLASS_FMUL, 0, 0},
    {"latency", "ffma", K_LATENCY, EDAN_CLASS_FFMA, 0, 0},
    {"latency", "fdiv", K_LATENCY, EDAN_CLASS_FDIV, 0, 0},
    {"latency", "fsqrt", K_LATENCY, EDAN_CLASS_FSQRT, 0, 0},
    {"latency", "branch", K_LATENCY, EDAN_CLASS_BRANCH, 0, 0},
    /* the classes whose units are not fully pipelined (int_div_units, fp_div_units) */
    {"issue_interval", "div", K_ISSUE, EDAN_CLASS_DIV, 1, 1000000},
    {"issue_interval", "fdiv", K_ISSUE, EDAN_CLASS_FDIV, 1, 1000000},
    {"issue_interval", "fsqrt", K_ISSUE, EDAN_CLASS_FSQRT, 1, 1000000},
    {"memory", "latency_ns", K_NS, M(mem_latency_ns), 0, 0},
    {"memory", "bandwidth_gbs", K_GBS, M(mem_bandwidth_gbs), 0, 0},
    {"projection", "peak_gflops", K_GFLOPS, M(peak_gflops), 0, 0},
    {"projection", "cores", K_U32, M(cores), 1, 1u << 20},
    {"projection", "div_weight", K_WEIGHT, M(div_weight), 0, 0},
    {"projection", "sqrt_weight", K_WEIGHT, M(sqrt_weight), 0, 0},
    {"projection", "transcendental_weight", K_WEIGHT, M(transcendental_weight), 0, 0},
};
#undef M
#define N_PLAIN (sizeof plain_keys / sizeof plain_keys[0])

/* Every cache section has these keys; the instruction cache has no write policy. */
static const key_def cache_keys[] = {
    {NULL, "size", K_C_SIZE, 0, 0, 0},        {NULL, "line", K_C_LINE, 0, 4, 1u << 20},
    {NULL, "ways", K_C_WAYS, 0, 1, 1u << 10}, {NULL, "write", K_C_WRITE, 0, 0, 0},
    {NULL, "alloc", K_C_ALLOC, 0, 0, 0},      {NULL, "hit_latency", K_C_HIT, 0, 0, 1000},
    {NULL, "mshrs", K_C_MSHRS, 0, 1, 1024},   {NULL, "mshr_targets", K_C_TARGETS, 0, 1, 1024},
};
#define N_CACHE_KEYS (sizeof cache_keys / sizeof cache_keys[0])
#define GEOMETRY_KEYS 5 /* size, line, ways, write, alloc: cache_keys[0..4] */

/* The cache sections: index 0 is l1i, then the data levels. */
static const char *const cache_sections[] = {"l1i", "l1d", "l2", "l3"};
#define N_CACHES 4

typedef struct cache_state {
    bool present;
    unsigned seen; /* bit i: cache_keys[i] given */
    char size[32];
    uint64_t line, ways;
    bool write_back, alloc;
    edan_machine_cache *out;
} cache_state;

typedef struct parse_state {
    edan_machine *m;
    bool seen[N_PLAIN];
    cache_state cache[N_CACHES];
    edan_error msg; /* what is wrong with the line ini_parse reports */
    /*
     * Where each key was given, for the checks across keys after the
     * parse: libinih calls on_key once per key line, in order, so the n-th
     * call is key_line[n] (read_text finds them).
     */
    const int *key_line;
    int n_key_lines, calls;
    int plain_line[N_PLAIN];
    int cache_line[N_CACHES][N_CACHE_KEYS];
    edan_dram_parse dram;   /* [dram], in place of [memory] (machine_dram.h) */
    edan_prefetch_parse pf; /* the prefetcher sections (machine_prefetch.h) */
} parse_state;

/* ===================================================================== */
/* Values                                                                 */
/* ===================================================================== */

static bool printable(const char *v)
{
    for (const unsigned char *p = (const unsigned char *)v; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

/* An enumerated key of two values: *second says which one v names. The one form of every such key's
 * error, "key = 'v': first or second". */
static int two_valued(parse_state *st, const char *key, const char *v, const char *first, const char *second,
                      bool *is_second)
{
    if (strcmp(v, first) && strcmp(v, second)) {
        edan_error_set(&st->msg, "%s = '%s': %s or %s", key, v, first, second);
        return -1;
    }
    *is_second = !strcmp(v, second);
    return 0;
}

static int set_plain(parse_state *st, const key_def *k, const char *v)
{
    edan_machine *m = st->m;
    uint64_t u;
    double d;
    bool second;
    switch (k->type) {
    case K_NAME:
        if (!*v || strlen(v) >= sizeof m->name || !printable(v)) {
            edan_error_set(&st->msg, "%s: 1 to %zu printable characters", k->key, sizeof m->name - 1);
            return -1;
        }
        strcpy(m->name, v);
        return 0;
    case K_PRED:
        if (two_valued(st, "predictor", v, "bimodal", "tournament", &second))
            return -1;
        m->predictor = second ? EDAN_PRED_TOURNAMENT : EDAN_PRED_BIMODAL;
        return 0;
    case K_MODEL:
        if (two_valued(st, "model", v, "o3", "inorder", &second))
            return -1;
        m->core_model = second ? EDAN_CORE_INORDER : EDAN_CORE_O3;
        return 0;
    case K_PAGES:
        if (two_valued(st, "pages", v, "virtual", "first-touch", &second))
            return -1;
        m->pages = second ? EDAN_PAGES_FIRST_TOUCH : EDAN_PAGES_VIRTUAL;
        return 0;
    case K_ZEROING:
        if (two_valued(st, "page_zeroing", v, "none", "first-store", &second))
            return -1;
        m->page_zeroing = second ? EDAN_ZEROING_FIRST_STORE : EDAN_ZEROING_NONE;
        return 0;
    case K_TEXT:
        if (!printable(v)) {
            edan_error_set(&st->msg, "%s: control characters", k->key);
            return -1;
        }
        return 0;
    case K_U32:
    case K_TLB:
        if (edan_parse_u64(v, &u) || u < k->lo || u > k->hi) {
            edan_error_set(&st->msg, "%s = '%s': an integer from %llu to %llu", k->key, v, (unsigned long long)k->lo,
                           (unsigned long long)k->hi);
            return -1;
        }
        *(uint32_t *)((char *)m + k->offset) = (uint32_t)u;
        return 0;
    case K_LATENCY:
        if (edan_parse_u64(v, &u) || u > 1000000) {
            edan_error_set(&st->msg, "%s = '%s': cycles, an integer from 0 to 1000000", k->key, v);
            return -1;
        }
        m->latency[k->offset] = (uint32_t)u;
        return 0;
    case K_ISSUE: /* at most the class's latency: check_across(), once both are read */
        if (edan_parse_u64(v, &u) || u < k->lo || u > k->hi) {
            edan_error_set(&st->msg, "%s = '%s': cycles a unit is busy per operation, an integer from %llu to %llu",
                           k->key, v, (unsigned long long)k->lo, (unsigned long long)k->hi);
            return -1;
        }
        m->issue_interval[k->offset] = (uint32_t)u;
        return 0;
    case K_GHZ:
    case K_NS:
    case K_GBS:
    case K_GFLOPS:
    case K_WEIGHT:
    case K_FAULT:
        for (size_t i = 0; i < sizeof real_range / sizeof real_range[0]; i++) {
            if (real_range[i].type != k->type)
                continue;
            if (edan_parse_double(v, &d) || !(d >= real_range[i].lo) || d > real_range[i].hi) {
                edan_error_set(&st->msg, "%s = '%s': %s, a decimal number from %g to %g", k->key, v, real_range[i].what,
                               real_range[i].lo, real_range[i].hi);
                return -1;
            }
            *(double *)((char *)m + k->offset) = d;
            return 0;
        }
        return -1;
    default:
        return -1;
    }
}

/* The geometry keys of a cache section are all given: check them as the cache model does. */
static int check_geometry(parse_state *st, const char *section, cache_state *c)
{
    char text[128];
    snprintf(text, sizeof text, "%s,line=%llu,ways=%llu,write=%s,alloc=%s", c->size, (unsigned long long)c->line,
             (unsigned long long)c->ways, c->write_back ? "back" : "through", c->alloc ? "yes" : "no");
    edan_cache_config cfg;
    edan_error e = {0};
    if (edan_cache_config_parse(text, &cfg, &e) || cfg.n_levels != 1) {
        /* "cache level 1: ..." from the cache model's own check */
        const char *why = strncmp(e.msg, "cache level 1: ", 15) ? e.msg : e.msg + 15;
        edan_error_set(&st->msg, "[%s]: %s", section, why);
        return -1;
    }
    c->out->geo = cfg.level[0];
    return 0;
}

static int set_cache(parse_state *st, int ci, const key_def *k, const char *v)
{
    cache_state *c = &st->cache[ci];
    const char *section = cache_sections[ci];
    uint64_t u;
    bool second;
    switch (k->type) {
    case K_C_SIZE:
        /* the number now, at its line; the geometry with the other keys (check_geometry) */
        if (strlen(v) >= sizeof c->size || edan_parse_size(v, strlen(v), &u) || !u) {
            edan_error_set(&st->msg, "size = '%s': a size like 32K, 1M or 65536", v);
            return -1;
        }
        strcpy(c->size, v);
        break;
    case K_C_LINE:
    case K_C_WAYS:
    case K_C_HIT:
    case K_C_MSHRS:
    case K_C_TARGETS:
        if (edan_parse_u64(v, &u) || u < k->lo || u > k->hi) {
            edan_error_set(&st->msg, "%s = '%s': an integer from %llu to %llu", k->key, v, (unsigned long long)k->lo,
                           (unsigned long long)k->hi);
            return -1;
        }
        if (k->type == K_C_LINE)
            c->line = u;
        else if (k->type == K_C_WAYS)
            c->ways = u;
        else if (k->type == K_C_HIT)
            c->out->hit_latency = (uint32_t)u;
        else if (k->type == K_C_MSHRS)
            c->out->mshrs = (uint32_t)u;
        else
            c->out->mshr_targets = (uint32_t)u;
        break;
    case K_C_WRITE:
        if (two_valued(st, "write", v, "back", "through", &second))
            return -1;
        c->write_back = !second;
        break;
    case K_C_ALLOC:
        if (two_valued(st, "alloc", v, "yes", "no", &second))
            return -1;
        c->alloc = !second;
        break;
    default:
        return -1;
    }
    c->seen |= 1u << (k - cache_keys);
    /* the instruction cache is read only: its geometry is complete without a write policy */
    const unsigned geometry = ci == 0 ? 0x7u : (1u << GEOMETRY_KEYS) - 1;
    if ((c->seen & geometry) == geometry && k - cache_keys < GEOMETRY_KEYS)
        return check_geometry(st, section, c);
    return 0;
}

/* libinih's handler: 1 to go on, 0 for an error at this line (st->msg says what). */
static int on_key(void *user, const char *section, const char *key, const char *value)
{
    parse_state *st = user;
    if (st->msg.set) /* only the first error is reported; ini_parse returns its line */
        return 0;
    const int line = st->calls < st->n_key_lines ? st->key_line[st->calls] : 0;
    st->calls++;
    if (!strcmp(section, "dram"))
        return edan_dram_key(&st->dram, &st->m->dram, key, value, line, &st->msg) ? 0 : 1;
    for (size_t i = 0; i < N_PLAIN; i++) {
        const key_def *k = &plain_keys[i];
        if (strcmp(k->section, section) || strcmp(k->key, key))
            continue;
        if (st->seen[i]) {
            edan_error_set(&st->msg, "[%s] %s given twice", section, key);
            return 0;
        }
        st->seen[i] = true;
        st->plain_line[i] = line;
        return set_plain(st, k, value) ? 0 : 1;
    }
    for (int ci = 0; ci < N_CACHES; ci++) {
        if (strcmp(cache_sections[ci], section))
            continue;
        for (size_t i = 0; i < N_CACHE_KEYS; i++) {
            const key_def *k = &cache_keys[i];
            if (strcmp(k->key, key) || (ci == 0 && (k->type == K_C_WRITE || k->type == K_C_ALLOC)))
                continue;
            if (st->cache[ci].seen & (1u << i)) {
                edan_error_set(&st->msg, "[%s] %s given twice", section, key);
                return 0;
            }
            st->cache[ci].present = true;
            st->cache_line[ci][i] = line;
            return set_cache(st, ci, k, value) ? 0 : 1;
        }
        edan_error_set(&st->msg, "[%s]: unknown key '%s' (keys: size, line, ways,%s hit_latency, mshrs, mshr_targets)",
                       section, key, ci == 0 ? "" : " write, alloc,");
        return 0;
    }
    const int pf = edan_machine_prefetch_key(&st->pf, st->m, section, key, value, line, &st->msg);
    if (pf)
        return pf > 0;
    bool known_section = false;
    for (size_t i = 0; i < N_PLAIN; i++)
        known_section |= !strcmp(plain_keys[i].section, section);
    if (!strcmp(section, "issue_interval"))
        edan_error_set(&st->msg,
                       "[%s]: unknown key '%s' (keys: div, fdiv, fsqrt, the classes of int_div_units and "
                       "fp_div_units)",
                       section, key);
    else if (known_section)
        edan_error_set(&st->msg, "[%s]: unknown key '%s'", section, key);
    else if (!*section)
        edan_error_set(&st->msg, "'%s' before any [section]", key);
    else
        edan_error_set(&st->msg,
                       "unknown section [%s] (sections: machine, core, latency, issue_interval, l1i, l1d, l2, l3, "
                       "memory or dram, projection, l1d.prefetcher, l2.prefetcher, l3.prefetcher, dtlb)",
                       section);
    return 0;
}

/* ===================================================================== */
/* The file                                                               */
/* ===================================================================== */

/*
 * A blank or comment line (0), "[section]" (1) or "key = value" (2,
 * comments after it allowed), or -1 for any other line. libinih would go
 * on past a bad line and report the first one while the message was
 * another's: bad shapes are found before it reads.
 */
static int line_kind(const char *s, size_t len)
{
    while (len && (*s == ' ' || *s == '\t' || *s == '\r')) {
        s++;
        len--;
    }
    size_t end = 0;
    while (end < len && s[end] != '#' && s[end] != ';')
        end++;
    while (end && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\r'))
        end--;
    if (end == 0)
        return 0;
    if (s[0] == '[')
        return end >= 3 && s[end - 1] == ']' && !memchr(s + 1, ']', end - 2) ? 1 : -1;
    const char *eq = memchr(s, '=', end);
    return eq && eq != s ? 2 : -1;
}

/* The whole file as a string: bounded, no NUL bytes, lines short enough for the parser. */
static char *read_text(const char *path, int **key_line, int *n_key_lines, edan_error *err)
{
    FILE *f = edan_input_fopen(path, "the machine file", 0, err);
    if (!f)
        return NULL;
    char *text = malloc(EDAN_MACHINE_FILE_MAX + 1);
    size_t n = text ? fread(text, 1, EDAN_MACHINE_FILE_MAX + 1, f) : 0;
    bool read_error = ferror(f);
    fclose(f);
    if (!text || read_error || n > EDAN_MACHINE_FILE_MAX) {
        edan_error_set(err, "%s: %s", path,
                       !text        ? "out of memory"
                       : read_error ? "cannot read the machine file"
                                    : "larger than 64 KiB: not a machine file");
        free(text);
        return NULL;
    }
    text[n] = '\0';
    /* a key line holds at least "k=" and a newline: at most n / 3 + 1 of them */
    *key_line = malloc((n / 3 + 1) * sizeof **key_line);
    *n_key_lines = 0;
    if (!*key_line) {
        edan_error_set(err, "%s: out of memory", path);
        free(text);
        return NULL;
    }
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && text[i] == '\0') {
            edan_error_set(err, "%s:%d: a NUL byte: not a text file", path, line);
            free(text);
            free(*key_line);
            return NULL;
        }
        if (i == n || text[i] == '\n') {
            const int kind = line_kind(text + line_start, i - line_start);
            if (kind < 0) {
                edan_error_set(err, "%s:%d: not a [section] or key = value line", path, line);
                free(text);
                free(*key_line);
                return NULL;
            }
            if (kind == 2)
                (*key_line)[(*n_key_lines)++] = line;
            /* libinih reads lines of at most INI_MAX_LINE (200) bytes and would split a longer one */
            if (i - line_start >= 199) {
                edan_error_set(err, "%s:%d: a line longer than 198 characters", path, line);
                free(text);
                free(*key_line);
                return NULL;
            }
            line++;
            line_start = i + 1;
        }
    }
    return text;
}

/*
 * The first required key the file does not give, or NULL. [core] model is
 * optional (o3): files from before it; so are [machine] pages (virtual), page_zeroing (none), page_fault_ns (0),
 * the [dtlb] section (all its keys when it is given) and each [issue_interval]
 * key (the class's latency: a unit not pipelined at all, as before the section).
 */
static const char *missing_key(const parse_state *st, char *buf, size_t cap)
{
    bool tlb = false; /* [dtlb] given: all its keys */
    for (size_t i = 0; i < N_PLAIN; i++)
        tlb |= plain_keys[i].type == K_TLB && st->seen[i];
    for (size_t i = 0; i < N_PLAIN; i++)
        if (!st->seen[i] && !(st->dram.present && !strcmp(plain_keys[i].section, "memory")) &&
            !(plain_keys[i].type == K_TLB && !tlb) && plain_keys[i].type != K_MODEL && plain_keys[i].type != K_PAGES &&
            plain_keys[i].type != K_ZEROING && plain_keys[i].type != K_FAULT && plain_keys[i].type != K_ISSUE) {
            snprintf(buf, cap, "[%s] %s", plain_keys[i].section, plain_keys[i].key);
            return buf;
        }
    for (int ci = 0; ci < N_CACHES; ci++) {
        const cache_state *c = &st->cache[ci];
        if (!c->present && ci == 3) /* an l3 is optional */
            continue;
        for (size_t i = 0; i < N_CACHE_KEYS; i++) {
            if (ci == 0 && (cache_keys[i].type == K_C_WRITE || cache_keys[i].type == K_C_ALLOC))
                continue;
            if (!(c->seen & (1u << i))) {
                snprintf(buf, cap, "[%s] %s", cache_sections[ci], cache_keys[i].key);
                return buf;
            }
        }
    }
    return st->dram.present ? edan_dram_missing(&st->dram, buf, cap) : NULL;
}

/* The line of a plain key (its index in plain_keys found by name). */
static int plain_key_line(const parse_state *st, const char *key)
{
    for (size_t i = 0; i < N_PLAIN; i++)
        if (!strcmp(plain_keys[i].key, key))
            return st->plain_line[i];
    return 0;
}

/*
 * The checks across keys, once every key is read: 0, or -1 with err naming
 * the file, the line and the key.
 */
static int check_across(const char *path, const parse_state *st, edan_error *err)
{
    const edan_machine *m = st->m;
    enum { SIZE = 0, LINE = 1 }; /* cache_keys[] */
    /* the faults are the first stores to pages, which only the zeroing finds */
    if (m->page_fault_ns > 0 && m->page_zeroing != EDAN_ZEROING_FIRST_STORE) {
        edan_error_set(err,
                       "%s:%d: [machine] page_fault_ns = %g needs page_zeroing = first-store (which finds the faults)",
                       path, plain_key_line(st, "page_fault_ns"), m->page_fault_ns);
        return -1;
    }
    /* the TLB's levels are caches of 4 KiB pages: a power-of-two number of sets each, the second the larger */
    if (m->dtlb.entries) {
        edan_cache_config cc;
        edan_error e = {0};
        if (edan_machine_dtlb_caches(m, &cc, &e)) {
            edan_error_set(err, "%s:%d: [dtlb] entries = %u, ways = %u, l2_entries = %u, l2_ways = %u: %s", path,
                           plain_key_line(st, "entries"), m->dtlb.entries, m->dtlb.ways, m->dtlb.l2_entries,
                           m->dtlb.l2_ways, e.msg);
            return -1;
        }
    }
    /* one line size for every cache, as gem5 has (system.cache_line_size) */
    for (int i = 0; i < m->n_data_levels; i++) {
        if (m->data[i].geo.line != m->l1i.geo.line) {
            edan_error_set(err, "%s:%d: [%s] line = %u differs from [l1i] line = %u (one line size for every cache)",
                           path, st->cache_line[i + 1][LINE], cache_sections[i + 1], m->data[i].geo.line,
                           m->l1i.geo.line);
            return -1;
        }
    }
    /* a level farther from the core is never smaller than the one before it */
    for (int i = 1; i < m->n_data_levels; i++) {
        if (m->data[i].geo.size < m->data[i - 1].geo.size) {
            edan_error_set(err,
                           "%s:%d: [%s] size = %s is smaller than [%s] size = %s (each data cache at least as large as "
                           "the level before it)",
                           path, st->cache_line[i + 1][SIZE], cache_sections[i + 1], st->cache[i + 1].size,
                           cache_sections[i], st->cache[i].size);
            return -1;
        }
    }
    /* a unit that takes a new operation before its result is out, not one busy after it */
    for (size_t i = 0; i < N_PLAIN; i++) {
        const key_def *k = &plain_keys[i];
        if (k->type == K_ISSUE && st->seen[i] && m->issue_interval[k->offset] > m->latency[k->offset]) {
            edan_error_set(err,
                           "%s:%d: [issue_interval] %s = %u is above [latency] %s = %u (a unit is busy at most "
                           "an operation's latency)",
                           path, st->plain_line[i], k->key, m->issue_interval[k->offset], k->key,
                           m->latency[k->offset]);
            return -1;
        }
    }
    if (m->store_set_bytes & (m->store_set_bytes - 1)) {
        edan_error_set(err, "%s:%d: [core] store_set_bytes = %u is not 0 or a power of two", path,
                       plain_key_line(st, "store_set_bytes"), m->store_set_bytes);
        return -1;
    }
    if (m->fetch_block_bytes & (m->fetch_block_bytes - 1) || (m->fetch_block_bytes && m->fetch_block_bytes < 2)) {
        edan_error_set(err, "%s:%d: [core] fetch_block_bytes = %u is not 0 or a power of two of at least 2", path,
                       plain_key_line(st, "fetch_block_bytes"), m->fetch_block_bytes);
        return -1;
    }
    if (m->predictor_entries & (m->predictor_entries - 1)) {
        edan_error_set(err, "%s:%d: [core] predictor_entries = %u is not a power of two", path,
                       plain_key_line(st, "predictor_entries"), m->predictor_entries);
        return -1;
    }
    return 0;
}

int edan_machine_load(const char *path, edan_machine *m, edan_error *err)
{
    int *key_line = NULL, n_key_lines = 0;
    char *text = read_text(path, &key_line, &n_key_lines, err);
    if (!text)
        return -1;
    parse_state st;
    memset(&st, 0, sizeof st);
    memset(m, 0, sizeof *m);
    st.m = m;
    st.key_line = key_line;
    st.n_key_lines = n_key_lines;
    st.cache[0].out = &m->l1i;
    for (int i = 1; i < N_CACHES; i++)
        st.cache[i].out = &m->data[i - 1];
    /* Debian's libinih reads these at run time: '#' starts a comment after a value too, and no continuation lines */
    ini_inline_comment_prefixes = ";#";
    ini_allow_multiline = false;
    int line = ini_parse_string(text, on_key, &st);
    free(text);
    free(key_line);
    st.key_line = NULL;
    if (line != 0) {
        if (line < 0)
            edan_error_set(err, "%s: out of memory reading the machine file", path);
        else
            edan_error_set(err, "%s:%d: %s", path, line,
                           st.msg.set ? st.msg.msg : "not a [section] or key = value line");
        return -1;
    }
    char buf[64];
    const char *missing = missing_key(&st, buf, sizeof buf);
    if (missing) {
        edan_error_set(err, "%s: %s is missing (every key is required: docs/machines.md)", path, missing);
        return -1;
    }
    m->n_data_levels = st.cache[3].present ? 3 : 2;
    if (edan_machine_prefetch_check(&st.pf, m, path, err))
        return -1;
    if (check_across(path, &st, err))
        return -1;
    if (!st.dram.present)
        return 0;
    /* one memory model: [dram] in place of [memory], never both */
    if (plain_key_line(&st, "latency_ns") || plain_key_line(&st, "bandwidth_gbs")) {
        edan_error_set(err, "%s:%d: [dram] and [memory] both given (one memory model: docs/machines.md)", path,
                       st.dram.first_line);
        return -1;
    }
    return edan_dram_finish(path, &st.dram, m, err);
}
