#include "tool/graph/functions_tool.h"
#include "isa/native.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/edag/edag.h"
#include "analysis/metrics/metrics.h"
#include "analysis/scopes/scopes.h"
#include "tool/base/base.h"
#include "util/grow.h"
#include "util/parse.h"
#include "util/symbols/symbols.h"

#define NAME_CAP 512

typedef struct functions_tool {
    /* scope (lane) 2i is function i exclusive of its callees, 2i+1 inclusive */
    edan_scopes *fast;   /* the fast path, or (false dependencies) */
    edan_edag *e;        /* the analyzer's scoped lanes */
    edan_consumer inner; /* the one of the two that runs */
    int n;
    char names[EDAN_MAX_FUNCTIONS][NAME_CAP];
    /* A shared library's function: its ranges are added when the stream's objects show where its library is
     * mapped, before that library's code runs (edan_report_source.objects_ahead). */
    bool library[EDAN_MAX_FUNCTIONS], found[EDAN_MAX_FUNCTIONS];
    int n_library;
    const edan_objmap *objects; /* the source's, filled as the stream goes */
    size_t objects_seen;        /* objects[0, objects_seen) were looked up */
    edan_error err;             /* a library's function found in none of them */
} functions_tool;

/* ===================================================================== */
/* Options                                                                */
/* ===================================================================== */

typedef struct name_list {
    int n;
    char (*names)[NAME_CAP];
    bool ok;
} name_list;

/* "f,g:h" into the list (each --functions replaces the previous one). */
static void split_names(void *ctx, const char *value)
{
    name_list *l = ctx;
    l->n = 0;
    l->ok = true;
    size_t len;
    for (const char *tok = edan_names_next(value, &len); tok; tok = edan_names_next(tok + len, &len)) {
        if (l->n == EDAN_MAX_FUNCTIONS || len >= NAME_CAP) {
            l->ok = false;
            return;
        }
        if (l->names) {
            memcpy(l->names[l->n], tok, len);
            l->names[l->n][len] = '\0';
        }
        l->n++;
    }
}

/*
 * The address ranges of the program's function name (at most
 * EDAN_MAX_SCOPE_RANGES into ranges): how many. 0 with *library set for a
 * shared library's function of a dynamically linked program (LIB:NAME, or a
 * name it imports): its ranges are known once the library is mapped (the
 * tool's look_up); else 0 with err set.
 */
static size_t find_scope(const edan_elf *elf, const char *binary, const char *name, edan_elf_func *ranges,
                         bool *library, edan_error *err)
{
    char lib[512];
    const bool named = edan_elf_filter_library(name, lib, sizeof lib) != NULL;
    edan_error sub = {0};
    const size_t found = named ? 0 : edan_elf_find(elf, binary, name, ranges, EDAN_MAX_SCOPE_RANGES, &sub);
    *library = !found && elf->is_dynamic && (named || (binary && *binary && edan_elf_imports(binary, name)));
    if (found || *library)
        return found;
    if (named)
        edan_error_set(err,
                       "--functions: '%s' names a shared library's function, but %s is statically linked: its "
                       "library's functions are its own (name the function alone)",
                       name, binary && *binary ? binary : "the program");
    else
        edan_error_set(err, "--functions: %s%s", sub.msg,
                       elf->is_dynamic ? "; a shared library's function: --functions=LIB:NAME (e.g. libm.so:exp)" : "");
    return 0;
}

int edan_functions_check_names(const edan_options *o, const char *binary, edan_error *err)
{
    char names[EDAN_MAX_FUNCTIONS][NAME_CAP];
    name_list l = {0, names, true};
    edan_options_each(o, "functions", split_names, &l);
    if (!l.n)
        return 0;
    edan_elf elf;
    if (edan_elf_open(binary, &elf, err))
        return -1;
    int rc = 0;
    for (int i = 0; i < l.n && !rc; i++) {
        edan_elf_func ranges[EDAN_MAX_SCOPE_RANGES];
        bool library;
        rc = find_scope(&elf, binary, names[i], ranges, &library, err) || library ? 0 : -1;
    }
    edan_elf_close(&elf);
    return rc;
}

static int check_functions(const char *value, edan_error *err)
{
    name_list l = {0, NULL, true};
    split_names(&l, value);
    if (!l.ok || l.n == 0) {
        edan_error_set(err, "--functions: 1 to %d names of at most %d characters", EDAN_MAX_FUNCTIONS, NAME_CAP - 1);
        return -1;
    }
    return 0;
}

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "per-function", NULL, NULL) || edan_options_each(o, "functions", NULL, NULL);
}

int edan_functions_to_choose(const edan_options *o)
{
    return edan_options_each(o, "functions", NULL, NULL) ? 0 : edan_options_each(o, "per-function", NULL, NULL) ? 8 : 0;
}

/* ===================================================================== */
/* Choosing the functions that execute the most instructions             */
/* ===================================================================== */

int edan_profile_add(edan_profile *p, const edan_exec *recs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const uint32_t id = recs[i].id;
        if (recs[i].flags & EDAN_EXEC_WARM) /* outside the region (a trace's warm records): not counted */
            continue;
        if (id >= p->n) {
            const size_t cap = edan_grow_cap(p->n, id);
            uint64_t *c = edan_grow_zeroed(p->counts, p->n, cap, sizeof *c);
            if (c)
                p->counts = c;
            const edan_insn **in = c ? edan_grow_zeroed(p->insn, p->n, cap, sizeof *in) : NULL;
            if (!in)
                return -1; /* counts may have grown: p->n stays the size both arrays have */
            p->insn = in;
            p->n = cap;
        }
        p->counts[id]++;
        p->insn[id] = recs[i].insn;
    }
    return 0;
}

void edan_profile_free(edan_profile *p)
{
    free(p->counts);
    free(p->insn);
    memset(p, 0, sizeof *p);
}

typedef struct fn_total {
    const char *name, *lib; /* lib: a shared object's file name (the function is chosen as LIB:NAME), or NULL */
    uint64_t count;
} fn_total;

static int by_count(const void *a, const void *b)
{
    const fn_total *x = a, *y = b;
    return x->count < y->count ? 1 : x->count > y->count ? -1 : strcmp(x->name, y->name);
}

/* The program's symbols; trace names the trace in the message when it does not name its program. */
static int open_binary(const char *binary, const char *trace, edan_elf *elf, edan_error *err)
{
    if (!binary || !*binary) {
        edan_error_set(err, "--per-function: %s does not name its program, whose symbols are needed",
                       trace && *trace ? trace : "the trace");
        return -1;
    }
    edan_error sub = {0};
    if (edan_elf_open(binary, elf, &sub)) {
        edan_error_set(err, "--per-function: %s", sub.msg);
        return -1;
    }
    /* x86-64 and AArch64 records carry link addresses (the plugin rebases a position-independent program) */
    if (!edan_elf_linked_pcs(elf)) {
        edan_elf_close(elf);
        edan_error_set(err, "--per-function: %s is position independent; build it with -static (non-PIE)", binary);
        return -1;
    }
    return 0;
}

int edan_functions_choose(edan_options *o, const char *binary, const char *trace, const edan_objmap *objects,
                          const edan_profile *p, int top, edan_error *err)
{
    edan_elf elf;
    if (open_binary(binary, trace, &elf, err))
        return -1;
    edan_error ignored = {0};
    edan_elf_add_objects(&elf, objects, &ignored); /* unreadable objects: their code is in no function */
    fn_total *t = calloc(elf.n_funcs + 1, sizeof *t);
    if (!t) {
        edan_elf_close(&elf);
        edan_error_set(err, "out of memory");
        return -1;
    }
    /* exclusive instruction counts by function name (a static function may have several ranges) */
    size_t nt = 0;
    uint64_t executed = 0; /* all of the trace's, in the program's functions or not */
    for (size_t id = 0; id < p->n; id++) {
        executed += p->counts[id];
        if (!p->counts[id] || !p->insn[id])
            continue;
        const edan_elf_func *fn = edan_elf_func_at(&elf, p->insn[id]->pc);
        const edan_object *obj = edan_objmap_find(objects, p->insn[id]->pc);
        if (!fn || fn->span) /* a library's code outside its symbols is no function to break down */
            continue;
        /* a library's function by its symbol in its object (LIB:NAME): the tool finds it as the library is mapped */
        const char *name = obj && fn->symbol ? fn->symbol : fn->name;
        const char *lib = obj ? (strrchr(obj->path, '/') ? strrchr(obj->path, '/') + 1 : obj->path) : NULL;
        size_t j = 0;
        while (j < nt && (strcmp(t[j].name, name) || (t[j].lib != lib && (!lib || !t[j].lib || strcmp(t[j].lib, lib)))))
            j++;
        if (j == nt)
            t[nt++] = (fn_total){name, lib, 0};
        t[j].count += p->counts[id];
    }
    qsort(t, nt, sizeof *t, by_count);
    char list[EDAN_MAX_FUNCTIONS * NAME_CAP] = "";
    int n = 0;
    for (size_t j = 0; j < nt && n < top && n < EDAN_MAX_FUNCTIONS; j++, n++) {
        strncat(list, n ? "," : "", sizeof list - strlen(list) - 1);
        if (t[j].lib) {
            strncat(list, t[j].lib, sizeof list - strlen(list) - 1);
            strncat(list, ":", sizeof list - strlen(list) - 1);
        }
        strncat(list, t[j].name, sizeof list - strlen(list) - 1);
    }
    free(t);
    int rc = 0;
    if (!n && executed)
        edan_error_set(err,
                       "--per-function: none of the %" PRIu64
                       " instructions traced is in a function of %s or of its shared libraries (code without "
                       "symbols)",
                       executed, binary);
    else if (!n)
        edan_error_set(err, "--per-function: no function of %s executed in the trace", binary);
    if (!n) {
        rc = -1;
    } else {
        /* as edan_session_option_set() sets this tool's option (tool/session.h, above the tools) */
        rc = check_functions(list, err) || edan_options_add_raw(o, "functions", list, err) ? -1 : 0;
    }
    edan_elf_close(&elf);
    return rc;
}

/* ===================================================================== */
/* The tool                                                               */
/* ===================================================================== */

static void *create(edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    functions_tool *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    name_list l = {0, t->names, true};
    edan_options_each(o, "functions", split_names, &l);
    t->n = l.n;
    if (!t->n) {
        edan_error_set(err, "--per-function: no functions were chosen (name them with --functions)");
        free(t);
        return NULL;
    }
    const edan_report_source *src = edan_session_source(s);
    edan_elf elf;
    if (open_binary(src->binary, src->path, &elf, err)) {
        free(t);
        return NULL;
    }
    edan_edag_config cfg, all;
    if (edan_options_edag_config(o, &all, err)) {
        edan_elf_close(&elf);
        free(t);
        return NULL;
    }
    /* the first configuration's cache and costs and the same dependencies; no series */
    edan_edag_config_default(&cfg);
    cfg.false_deps = all.false_deps;
    cfg.bytes_mode = all.bytes_mode;
    cfg.threads = all.threads;
    cfg.n_lanes = 2 * t->n;
    cfg.n_tau = 0;
    for (int i = 0; i < t->n; i++) {
        edan_elf_func ranges[EDAN_MAX_SCOPE_RANGES];
        const size_t found = find_scope(&elf, src->binary, t->names[i], ranges, &t->library[i], err);
        if (t->library[i] && !src->objects_ahead)
            edan_error_set(err,
                           "--functions: '%s' is a shared library's function, and %s names the program's shared "
                           "objects only at its end (an earlier edan recorded it): record it again to break it down",
                           t->names[i], src->path ? src->path : "the stream");
        if (!found && (!t->library[i] || !src->objects_ahead)) {
            edan_elf_close(&elf);
            free(t);
            return NULL;
        }
        t->n_library += t->library[i];
        for (int incl = 0; incl < 2; incl++) {
            edan_lane_config *lane = &cfg.lane[2 * i + incl];
            *lane = all.lane[0];
            lane->scope = incl ? EDAN_SCOPE_INCLUSIVE : EDAN_SCOPE_EXCLUSIVE;
            lane->n_ranges = (int)(found < EDAN_MAX_SCOPE_RANGES ? found : EDAN_MAX_SCOPE_RANGES);
            for (int j = 0; j < lane->n_ranges; j++) {
                lane->range_lo[j] = ranges[j].start;
                lane->range_hi[j] = ranges[j].end;
            }
        }
    }
    edan_elf_close(&elf);
    if (t->n_library)
        cfg.threads = 1; /* lanes in groups on threads take no ranges between batches (edan_edag_add_range) */
    if (edan_scopes_supported(&cfg))
        t->fast = edan_scopes_new(&cfg, err);
    else
        t->e = edan_edag_new(&cfg, err);
    if (!t->fast && !t->e) {
        free(t);
        return NULL;
    }
    t->inner = t->fast ? edan_scopes_consumer(t->fast) : edan_edag_consumer(t->e);
    t->objects = src->objects;
    return t;
}

/* The library functions' ranges in the objects mapped since the last look (both lanes of each). */
static void look_up(functions_tool *t)
{
    const size_t n = edan_objmap_published(t->objects);
    for (; t->objects_seen < n; t->objects_seen++) {
        const edan_object o = edan_objmap_get(t->objects, t->objects_seen);
        for (int i = 0; i < t->n; i++) {
            if (!t->library[i])
                continue;
            edan_elf_func r[EDAN_MAX_SCOPE_RANGES];
            const size_t found = edan_elf_find_in_object(&o, t->names[i], r, EDAN_MAX_SCOPE_RANGES);
            for (size_t j = 0; j < found; j++) /* as many as a lane takes, as for the program's functions */
                for (int k = 2 * i; k < 2 * i + 2; k++) {
                    if (t->fast)
                        edan_scopes_add_range(t->fast, k, r[j].start, r[j].end);
                    else
                        edan_edag_add_range(t->e, k, r[j].start, r[j].end);
                }
            t->found[i] |= found > 0;
        }
    }
}

static void consume(void *tool, const edan_exec *recs, size_t n)
{
    functions_tool *t = tool;
    /* the objects mapped before these records were made: those whose code they may hold */
    if (t->n_library && edan_objmap_published(t->objects) != t->objects_seen)
        look_up(t);
    t->inner.consume(t->inner.ctx, recs, n);
}

static int finish(void *tool)
{
    functions_tool *t = tool;
    const int rc = t->inner.finish(t->inner.ctx);
    if (t->n_library)
        look_up(t);
    for (int i = 0; i < t->n && !t->err.set; i++)
        if (t->library[i] && !t->found[i])
            edan_error_set(&t->err,
                           "--functions: no function named '%s' in the program or in the %zu shared objects whose code "
                           "ran (a library's function: LIB:NAME, e.g. libm.so:exp)",
                           t->names[i], t->objects_seen);
    return t->err.set ? -1 : rc;
}

static edan_exec *buffer(void *tool, size_t *cap)
{
    functions_tool *t = tool;
    return t->inner.buffer(t->inner.ctx, cap);
}

static edan_consumer consumer(void *tool)
{
    functions_tool *t = tool;
    return (edan_consumer){t, consume, finish, t->inner.buffer ? buffer : NULL, t->inner.warms};
}

static const edan_error *error(const void *tool)
{
    const functions_tool *t = tool;
    return t->err.set ? &t->err : t->fast ? edan_scopes_error(t->fast) : edan_edag_error(t->e);
}

/* Scope k's numbers as a lane's (the metrics read vertices, W, D and C; no layers, no times). */
static edan_lane_stats lane_of(const functions_tool *t, int k)
{
    if (!t->fast)
        return *edan_edag_lane(t->e, k);
    const edan_scope_stats *sc = edan_scopes_get(t->fast, k);
    edan_lane_stats st;
    memset(&st, 0, sizeof st);
    st.vertices = sc->vertices;
    st.W = sc->W;
    st.D = sc->D;
    st.C = sc->C;
    return st;
}

static void numbers(const edan_lane_stats *st, const edan_options *o, double *lambda, double *Lambda)
{
    edan_edag_config cfg;
    edan_error ignored = {0};
    edan_options_edag_config(o, &cfg, &ignored); /* checked when the tool was created */
    edan_metrics mt;
    edan_metrics_compute(st, cfg.lane[0].cost.alpha, &o->metrics, &mt);
    *lambda = mt.per_m[0].lambda;
    *Lambda = mt.per_m[0].Lambda;
}

bool edan_functions_tool_lambda(const edan_session *s, const char *name, double lambda[2])
{
    const functions_tool *t = edan_session_instance(s, &edan_functions_tool);
    for (int i = 0; t && name && i < t->n; i++) {
        if (strcmp(t->names[i], name))
            continue;
        for (int incl = 0; incl < 2; incl++) {
            const edan_lane_stats st = lane_of(t, 2 * i + incl);
            double Lambda;
            numbers(&st, edan_session_options(s), &lambda[incl], &Lambda);
        }
        return true;
    }
    return false;
}

/* ===================================================================== */
/* Its table                                                              */
/* ===================================================================== */

/* One scope's numbers, exclusive or inclusive, at the first --m. */
typedef struct fn_scope {
    uint64_t instructions, W, D, C;
    double lambda, Lambda;
} fn_scope;

/* A function's row: its name, its exclusive and its inclusive numbers; text's rule between them, and the m. */
typedef struct fn_row {
    const char *name, *sep;
    fn_scope excl, incl;
    uint64_t m;
} fn_row;

/* One scope's columns (m: excl or incl; obj: the JSON object), text between "|" */
#define FN_SCOPE(m, obj, what)                                                                                         \
    EDAN_COL_FIELD(fn_row, m.instructions, obj ".instructions", "instructions", "instructions " what, 0, "insns", 12,  \
                   0),                                                                                                 \
        EDAN_COL_FIELD(fn_row, m.W, obj ".W", "accesses", "memory work W " what, 0, "W", 10, 0),                       \
        EDAN_COL_FIELD(fn_row, m.D, obj ".D", "layers", "memory depth D " what, 0, "D", 8, 0),                         \
        EDAN_COL_FIELD(fn_row, m.C, obj ".C", "cycles", "non-memory cost C " what, EDAN_NO_TEXT, NULL, 0, 0),          \
        EDAN_COL_FIELD(fn_row, m.lambda, obj ".lambda", "cycles", "lambda at the first --m " what, EDAN_COL_G,         \
                       "lambda", 12, 6),                                                                               \
        EDAN_COL_FIELD(fn_row, m.Lambda, obj ".Lambda", "ratio", "Lambda at the first --m " what, EDAN_COL_G,          \
                       "Lambda", 9, 4)

static const edan_column fn_cols[] = {
    EDAN_COL_FIELD(fn_row, name, "name", "", "the function's name, as --functions names it", EDAN_COL_NAME, "function",
                   40, 0),
    FN_SCOPE(excl, "exclusive", "of the function alone"),
    EDAN_COL_FIELD(fn_row, sep, "|", "", "text: the rule between the exclusive and the inclusive numbers",
                   EDAN_NO_JSON | EDAN_NO_CSV, NULL, 1, 0),
    FN_SCOPE(incl, "inclusive", "of the function and its callees"),
    EDAN_COL_FIELD(fn_row, m, "m", "", "text: the first --m, the title's", EDAN_NO_TEXT | EDAN_NO_JSON | EDAN_NO_CSV,
                   NULL, 0, 0),
};

static const edan_table_decl tables[] = {
    EDAN_TABLE_DECL("functions", NULL, false, "per function, in the order --functions names them", fn_cols), {NULL}};

/* A row per function, its exclusive and inclusive numbers at the first --m (rows holds t->n). */
static void rows_of(const functions_tool *t, const edan_options *o, fn_row *rows)
{
    for (int i = 0; i < t->n; i++) {
        rows[i] = (fn_row){.name = t->names[i], .sep = "|", .m = o->metrics.m[0]};
        for (int incl = 0; incl < 2; incl++) {
            const edan_lane_stats st = lane_of(t, 2 * i + incl);
            fn_scope *v = incl ? &rows[i].incl : &rows[i].excl;
            *v = (fn_scope){st.vertices, st.W, st.D, st.C, 0, 0};
            numbers(&st, o, &v->lambda, &v->Lambda);
        }
    }
}

/* What the session renders: the rows, their table and its result (text's title, then the rows; JSON's array). */
typedef struct fn_results {
    fn_row rows[EDAN_MAX_FUNCTIONS];
    edan_table tab;
    edan_result r;
} fn_results;

static int results(void *tool, const edan_session *s, edan_tool_results *x)
{
    const functions_tool *t = tool;
    fn_results *w = malloc(sizeof *w);
    if (!w)
        return -1;
    rows_of(t, edan_session_options(s), w->rows);
    edan_table_of(&w->tab, &tables[0], w->rows, (size_t)t->n, sizeof *w->rows);
    w->r = (edan_result){.t = &w->tab,
                         .view = {.title = "\nper function (m = {m}; exclusive: the function's own instructions, "
                                           "inclusive: with its callees)"}};
    *x = (edan_tool_results){&w->r, 1, w};
    return 0;
}

static void free_results(void *own)
{
    edan_table_free(&((fn_results *)own)->tab);
    free(own);
}

static void destroy(void *tool)
{
    functions_tool *t = tool;
    if (t) {
        edan_scopes_free(t->fast);
        edan_edag_free(t->e);
    }
    free(t);
}

static const edan_tool_option options[] = {
    {"per-function", false,
     "  --per-function      W, D, lambda, Lambda and instructions of the 8 functions that execute\n"
     "                      the most instructions, exclusive and inclusive of their callees\n"
     "                      (a first read of the trace counts them; edan run first runs the\n"
     "                      program under a counting plugin, its standard output discarded)\n",
     NULL},
    {"functions", true, "  --functions=F,G     the same for these functions, in the same pass as the analysis\n",
     check_functions},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_functions_tool = {
    .name = "functions",
    .summary = "W, D, lambda and Lambda per function, exclusive and inclusive of callees",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .results = results,
    .free_results = free_results,
    .tables = tables,
    .destroy = destroy,
    .reads_program = true,
    .threaded = true,
};
