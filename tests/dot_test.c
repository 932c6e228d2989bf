/*
 * The eDAG picture (src/report/dot.h): the summation kernel of Figure 7 as a
 * golden DOT file, the critical path against the streaming analyzer's T_inf
 * on Figure 6 and on random traces (whose edges are also checked against a
 * naive backwards scan), the vertex limit, write errors, malformed input, and
 * the output fed to Graphviz when it is installed.
 *
 * Usage: dot_test GOLDEN_DIR. With EDAN_UPDATE_GOLDEN=1 in the environment
 * the golden DOT file is rewritten instead of compared (check it by hand).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/edag/edag.h"
#include "check.h"
#include "random_trace.h"
#include "report/dot.h"
#include "trace/trace_file.h"

static const char *dir;

/* ---- helpers ---------------------------------------------------------- */

/* Read a whole golden text trace. Returns the source (records point into its code table) or NULL. */
static edan_trace_source *read_trace(const char *name, edan_exec *recs, size_t cap, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    edan_error err = {0};
    edan_trace_source *src = edan_trace_source_open(path, &err);
    CHECK(src != NULL, "open %s: %s", path, err.msg);
    if (!src)
        return NULL;
    *n = 0;
    long got;
    while (*n < cap && (got = edan_trace_source_next(src, recs + *n, cap - *n, &err)) > 0)
        *n += (size_t)got;
    CHECK(*n > 0 && !err.set, "read %s: %s", path, err.msg);
    return src;
}

static char *dot_text(const edan_dot *d, const char *title, size_t *len)
{
    char *buf = NULL;
    size_t sz = 0;
    FILE *f = open_memstream(&buf, &sz);
    if (!f)
        return NULL;
    int rc = edan_dot_write(d, f, title);
    fclose(f);
    CHECK(rc == 0, "edan_dot_write failed");
    if (len)
        *len = sz;
    return buf;
}

static size_t count_substr(const char *s, const char *needle)
{
    size_t k = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        k++;
    return k;
}

/* The streaming analyzer's lane 0 on the same records. */
static edan_edag *analyze(const edan_exec *recs, size_t n, const edan_lane_config *lane, bool false_deps)
{
    edan_edag_config cfg;
    edan_edag_config_default(&cfg);
    cfg.n_lanes = 1;
    cfg.lane[0] = *lane;
    cfg.false_deps = false_deps;
    edan_error err = {0};
    edan_edag *e = edan_edag_new(&cfg, &err);
    CHECK(e != NULL, "edan_edag_new: %s", err.msg);
    if (!e)
        return NULL;
    edan_edag_consume(e, recs, n);
    CHECK(edan_edag_finish(e) == 0, "edan_edag_finish: %s", edan_edag_error(e)->msg);
    return e;
}

/*
 * The path is a chain of tight edges: it starts at an input time 0, each
 * vertex starts when its predecessor on the path finishes, the edge between
 * them exists, and the last one finishes at T_inf. Returns the number of
 * memory-access vertices on it.
 */
static uint64_t check_path(const edan_dot *d, const char *ctx)
{
    const size_t *path;
    uint64_t length;
    size_t n = edan_dot_critical_path(d, &path, &length);
    const edan_dot_stats *st = edan_dot_stats_get(d);
    CHECK_EQ_U64(length, st->Tinf, ctx);
    if (st->vertices == 0) {
        CHECK_EQ_U64(n, 0, ctx);
        return 0;
    }
    CHECK(n > 0, "%s: empty path", ctx);
    const edan_dot_edge *edges;
    size_t n_e = edan_dot_edges(d, &edges);
    uint64_t mem = 0;
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        edan_dot_vertex_info x;
        ok &= edan_dot_vertex(d, path[i], &x);
        mem += x.memory_access;
        if (i == 0) {
            ok &= x.start == 0;
            continue;
        }
        edan_dot_vertex_info u;
        ok &= edan_dot_vertex(d, path[i - 1], &u);
        ok &= path[i - 1] < path[i] && x.start == u.finish;
        bool found = false;
        for (size_t k = 0; k < n_e && !found; k++)
            found = edges[k].from == path[i - 1] && edges[k].to == path[i];
        ok &= found;
        if (i == n - 1)
            ok &= x.finish == length;
    }
    if (n == 1) {
        edan_dot_vertex_info x;
        ok &= edan_dot_vertex(d, path[0], &x) && x.finish == length;
    }
    CHECK(ok, "%s: the critical path is not a tight chain ending at T_inf", ctx);
    CHECK(mem <= st->D, "%s: %" PRIu64 " memory-access vertices on the path, D = %" PRIu64, ctx, mem, st->D);
    return mem;
}

/* The DOT text must show exactly the graph: every edge once, bold edges and vertices only on the path. */
static void check_text(const edan_dot *d, const char *ctx)
{
    char *text = dot_text(d, NULL, NULL);
    CHECK(text != NULL, "%s: no text", ctx);
    if (!text)
        return;
    const edan_dot_stats *st = edan_dot_stats_get(d);
    const size_t *path;
    size_t n_path = edan_dot_critical_path(d, &path, NULL);
    CHECK_EQ_U64(count_substr(text, " -> "), st->edges, ctx);
    CHECK_EQ_U64(count_substr(text, "style=dashed"), st->false_edges, ctx);
    CHECK_EQ_U64(count_substr(text, "#e34a33"), st->W, ctx);
    CHECK_EQ_U64(count_substr(text, "penwidth=3"), n_path ? 2 * n_path - 1 : 0, ctx);
    CHECK(strncmp(text, "digraph edag {\n", 15) == 0 && strstr(text, "\n}\n") != NULL, "%s: not a digraph", ctx);
    free(text);
}

/* ---- (1) the summation kernel, Figure 7 --------------------------------- */

static void test_summation_golden(void)
{
    static edan_exec recs[256];
    size_t n = 0;
    edan_trace_source *src = read_trace("summation.txt", recs, 256, &n);
    if (!src)
        return;
    edan_lane_config lane;
    memset(&lane, 0, sizeof lane);
    edan_cost_default(&lane.cost);
    lane.cost.alpha = 200;
    edan_error err = {0};
    edan_dot *d = edan_dot_new(&lane, false, 5000, &err);
    CHECK(d != NULL, "edan_dot_new: %s", err.msg);
    if (!d) {
        edan_trace_source_close(src);
        return;
    }
    edan_dot_consume(d, recs, n);
    CHECK(edan_dot_finish(d) == 0, "finish: %s", edan_dot_error(d)->msg);
    edan_edag *e = analyze(recs, n, &lane, false);
    /* the picture outlives the trace: instructions are copied */
    edan_trace_source_close(src);

    const edan_dot_stats *st = edan_dot_stats_get(d);
    CHECK_EQ_U64(st->vertices, 22, "summation");
    CHECK_EQ_U64(st->W, 4, "summation: the four lw");
    CHECK_EQ_U64(st->D, 1, "summation");
    CHECK_EQ_U64(st->T1, 18 + 4 * 200, "summation");
    if (e) {
        const edan_lane_stats *ls = edan_edag_lane(e, 0);
        CHECK_EQ_U64(st->Tinf, ls->Tinf, "summation");
        CHECK_EQ_U64(st->T1, ls->T1, "summation");
        CHECK_EQ_U64(st->W, ls->W, "summation");
        CHECK_EQ_U64(st->D, ls->D, "summation");
        edan_edag_free(e);
    }
    CHECK_EQ_U64(check_path(d, "summation"), 1, "summation: one memory access on the critical path");
    check_text(d, "summation");

    size_t len = 0;
    char *text = dot_text(d, "summation kernel, n = 4 (Figure 7), no cache, alpha = 200", &len);
    char path[1024];
    snprintf(path, sizeof path, "%s/summation.dot", dir);
    if (text && getenv("EDAN_UPDATE_GOLDEN")) {
        FILE *f = fopen(path, "w");
        CHECK(f && fwrite(text, 1, len, f) == len && fclose(f) == 0, "cannot write %s", path);
        printf("wrote %s\n", path);
    } else if (text) {
        FILE *f = fopen(path, "r");
        CHECK(f != NULL, "cannot open %s (EDAN_UPDATE_GOLDEN=1 writes it)", path);
        if (f) {
            char *want = calloc(len + 2, 1);
            size_t got = want ? fread(want, 1, len + 1, f) : 0;
            fclose(f);
            CHECK(got == len && memcmp(want, text, len) == 0, "%s differs from the output:\n%s", path, text);
            free(want);
        }
    }
    /* exactly 4 red vertices in the picture, one of them bold */
    if (text) {
        CHECK_EQ_U64(count_substr(text, "fillcolor=\"#e34a33\""), 4, "summation: red vertices");
        CHECK_EQ_U64(count_substr(text, "fillcolor=\"#e34a33\", fontcolor=white, penwidth=3"), 1,
                     "summation: red vertices on the bold path");
    }
    free(text);
    edan_dot_free(d);
}

/* ---- (2) Figure 6 ---------------------------------------------------------- */

static void test_figure6(void)
{
    static edan_exec recs[256];
    size_t n = 0;
    edan_trace_source *src = read_trace("figure6.txt", recs, 256, &n);
    if (!src)
        return;
    for (int fd = 0; fd < 2; fd++) {
        const char *ctx = fd ? "figure 6, false deps" : "figure 6, true deps";
        edan_lane_config lane;
        memset(&lane, 0, sizeof lane);
        edan_cost_default(&lane.cost);
        lane.cost.alpha = 1;
        edan_error err = {0};
        edan_dot *d = edan_dot_new(&lane, fd, 5000, &err);
        CHECK(d != NULL, "edan_dot_new: %s", err.msg);
        if (!d)
            continue;
        edan_dot_consume(d, recs, n);
        CHECK(edan_dot_finish(d) == 0, "finish: %s", edan_dot_error(d)->msg);
        const size_t *path;
        uint64_t length = 0;
        edan_dot_critical_path(d, &path, &length);
        CHECK_EQ_U64(length, fd ? 6 : 5, ctx);
        CHECK_EQ_U64(edan_dot_stats_get(d)->T1, 10, ctx);
        edan_edag *e = analyze(recs, n, &lane, fd);
        if (e) {
            CHECK_EQ_U64(length, edan_edag_lane(e, 0)->Tinf, ctx);
            CHECK_EQ_U64(edan_dot_stats_get(d)->D, edan_edag_lane(e, 0)->D, ctx);
            edan_edag_free(e);
        }
        check_path(d, ctx);
        check_text(d, ctx);
        if (fd)
            CHECK(edan_dot_stats_get(d)->false_edges > 0, "%s: no dashed edges", ctx);
        else
            CHECK_EQ_U64(edan_dot_stats_get(d)->false_edges, 0, ctx);
        edan_dot_free(d);
    }
    edan_trace_source_close(src);
}

/* ---- (2) random traces ------------------------------------------------------ */

/* The generator of tests/edag_property_test.c. */

static bool accessed(const edan_exec *r)
{
    return r->insn->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS);
}
static bool reads_byte(const edan_exec *r, uint64_t b)
{
    return accessed(r) && r->insn->mem != EDAN_MEM_STORE && b - r->addr < r->insn->mem_size;
}
static bool writes_byte(const edan_exec *r, uint64_t b)
{
    return accessed(r) && r->insn->mem != EDAN_MEM_LOAD && b - r->addr < r->insn->mem_size;
}
static bool reads_reg(const edan_insn *in, uint8_t reg)
{
    for (int i = 0; i < in->n_src; i++)
        if (in->src[i] == reg)
            return true;
    return false;
}
static bool writes_reg(const edan_insn *in, uint8_t reg)
{
    return in->n_dst && in->dst == reg;
}

/* The edges by definition, scanning backwards: m[u*n+v] = 1 for a true dependency, 2 for only a false one. */
static void naive_edges(const edan_exec *recs, size_t n, bool fd, unsigned char *m)
{
    memset(m, 0, n * n);
    for (size_t v = 0; v < n; v++) {
        const edan_exec *rv = &recs[v];
        const edan_insn *in = rv->insn;
        for (int s = 0; s < in->n_src; s++)
            for (size_t u = v; u-- > 0;)
                if (writes_reg(recs[u].insn, in->src[s])) {
                    m[u * n + v] = 1;
                    break;
                }
        if (accessed(rv) && in->mem != EDAN_MEM_STORE)
            for (uint64_t b = rv->addr; b < rv->addr + in->mem_size; b++)
                for (size_t u = v; u-- > 0;)
                    if (writes_byte(&recs[u], b)) {
                        m[u * n + v] = 1;
                        break;
                    }
        if (!fd)
            continue;
        if (in->n_dst)
            for (size_t u = v; u-- > 0;) {
                bool w = writes_reg(recs[u].insn, in->dst);
                if ((w || reads_reg(recs[u].insn, in->dst)) && !m[u * n + v])
                    m[u * n + v] = 2;
                if (w)
                    break;
            }
        if (accessed(rv) && in->mem != EDAN_MEM_LOAD)
            for (uint64_t b = rv->addr; b < rv->addr + in->mem_size; b++)
                for (size_t u = v; u-- > 0;) {
                    bool w = writes_byte(&recs[u], b);
                    if ((w || reads_byte(&recs[u], b)) && !m[u * n + v])
                        m[u * n + v] = 2;
                    if (w)
                        break;
                }
    }
}

static void test_random(int trials)
{
    enum { MAXN = 160 };
    static unsigned char want[MAXN * MAXN];
    int failed = 0;
    for (int trial = 0; trial < trials && failed < 5; trial++) {
        unsigned long before = check_failed;
        char ctx[64];
        snprintf(ctx, sizeof ctx, "random trace %d", trial);
        edan_insn table[24];
        size_t n = trial % 50 == 0 ? 0 : 1 + rt_below(MAXN); /* a few empty streams */
        edan_exec recs[MAXN];
        rt_random_records(table, recs, n);
        edan_lane_config lane;
        rt_random_lane(&lane);
        bool fd = rt_below(2);
        edan_error err = {0};
        edan_dot *d = edan_dot_new(&lane, fd, MAXN, &err);
        CHECK(d != NULL, "%s: edan_dot_new: %s", ctx, err.msg);
        if (!d)
            return;
        /* random batch boundaries must not matter */
        for (size_t i = 0; i < n;) {
            size_t b = 1 + rt_below(17);
            if (b > n - i)
                b = n - i;
            edan_dot_consume(d, recs + i, b);
            i += b;
        }
        CHECK(edan_dot_finish(d) == 0, "%s: finish: %s", ctx, edan_dot_error(d)->msg);
        const edan_dot_stats *st = edan_dot_stats_get(d);
        edan_edag *e = analyze(recs, n, &lane, fd);
        if (e) {
            const edan_lane_stats *ls = edan_edag_lane(e, 0);
            uint64_t length = 0;
            edan_dot_critical_path(d, NULL, &length);
            CHECK_EQ_U64(length, ls->Tinf, ctx);
            CHECK_EQ_U64(st->T1, ls->T1, ctx);
            CHECK_EQ_U64(st->W, ls->W, ctx);
            CHECK_EQ_U64(st->D, ls->D, ctx);
            CHECK_EQ_U64(st->vertices, ls->vertices, ctx);
            edan_edag_free(e);
        }
        check_path(d, ctx);
        check_text(d, ctx);
        /* the edges, exactly */
        naive_edges(recs, n, fd, want);
        const edan_dot_edge *edges;
        size_t n_e = edan_dot_edges(d, &edges), n_want = 0;
        for (size_t i = 0; i < n * n; i++)
            n_want += want[i] != 0;
        bool ok = n_e == n_want;
        for (size_t k = 0; ok && k < n_e; k++) {
            ok = edges[k].from < edges[k].to && edges[k].to < n &&
                 want[edges[k].from * n + edges[k].to] == (edges[k].false_dep ? 2 : 1);
            ok &= k == 0 || edges[k - 1].to < edges[k].to ||
                  (edges[k - 1].to == edges[k].to && edges[k - 1].from < edges[k].from);
        }
        CHECK(ok, "%s: edges differ from the definition (%zu, expected %zu)", ctx, n_e, n_want);
        edan_dot_free(d);
        if (check_failed != before)
            failed++;
    }
    printf("%d random traces compared\n", trials);
}

/* ---- (3) the vertex limit, errors, malformed input ---------------------- */

static void test_limit(void)
{
    static edan_exec recs[256];
    size_t n = 0;
    edan_trace_source *src = read_trace("summation.txt", recs, 256, &n);
    if (!src)
        return;
    edan_lane_config lane;
    memset(&lane, 0, sizeof lane);
    edan_cost_default(&lane.cost);
    edan_error err = {0};

    /* through the consumer interface, as the command line would use it */
    edan_dot *d = edan_dot_new(&lane, false, 10, &err);
    CHECK(d != NULL, "edan_dot_new: %s", err.msg);
    if (d) {
        edan_consumer c = edan_dot_consumer(d);
        for (size_t i = 0; i < n; i += 5)
            c.consume(c.ctx, recs + i, n - i < 5 ? n - i : 5);
        CHECK(c.finish(c.ctx) != 0, "a 22-instruction region must exceed --max-vertices=10");
        const char *msg = edan_dot_error(d)->msg;
        CHECK(strstr(msg, "22 instructions") && strstr(msg, "--max-vertices=10") && strstr(msg, "--filter="),
              "message: %s", msg);
        const size_t *path = NULL;
        uint64_t length = 1;
        CHECK_EQ_U64(edan_dot_critical_path(d, &path, &length), 0, "limit");
        CHECK(path == NULL && length == 0, "no path after a failure");
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            CHECK(edan_dot_write(d, f, NULL) == -1, "write after a failed finish must fail");
            fclose(f);
        }
        edan_dot_free(d);
    }
    /* exactly at the limit is fine */
    d = edan_dot_new(&lane, false, n, &err);
    if (d) {
        edan_dot_consume(d, recs, n);
        CHECK(edan_dot_finish(d) == 0, "finish at the limit: %s", edan_dot_error(d)->msg);
        CHECK_EQ_U64(edan_dot_stats_get(d)->vertices, n, "at the limit");
        /* a write error is reported */
        FILE *f = fopen("/dev/full", "w");
        if (f) {
            CHECK(edan_dot_write(d, f, "x") == -1, "a write to /dev/full must fail");
            fclose(f);
        }
        edan_dot_free(d);
    }
    /* max_vertices 0: any instruction is too many, an empty stream is an empty picture */
    d = edan_dot_new(&lane, false, 0, &err);
    if (d) {
        CHECK(edan_dot_finish(d) == 0, "empty stream: %s", edan_dot_error(d)->msg);
        char *text = dot_text(d, "empty \"quoted\"\nsecond line \\", NULL);
        CHECK(text && strstr(text, "label=\"empty \\\"quoted\\\"\\nsecond line \\\\\\n"), "escaping: %s",
              text ? text : "");
        free(text);
        edan_dot_free(d);
    }
    d = edan_dot_new(&lane, false, 0, &err);
    if (d) {
        edan_dot_consume(d, recs, 1);
        CHECK(edan_dot_finish(d) != 0, "one instruction exceeds --max-vertices=0");
        edan_dot_free(d);
    }
    /* a bad cache configuration is refused by new */
    edan_lane_config bad = lane;
    bad.cache.n_levels = 1;
    bad.cache.level[0] = (edan_cache_level_config){1000, 48, 3, false, false};
    edan_error err2 = {0};
    d = edan_dot_new(&bad, false, 10, &err2);
    CHECK(d == NULL && err2.set, "a bad cache must be refused");
    edan_dot_free(d);
    CHECK(edan_dot_new(NULL, false, 10, &err2) == NULL, "no lane");
    edan_trace_source_close(src);

    /* malformed records never crash: bad class, registers out of range, size 0, no instruction, address wrap */
    edan_insn weird[4];
    memset(weird, 0, sizeof weird);
    weird[0] = (edan_insn){.cls = 250, .n_src = 9, .src = {0, 77, 200}, .n_dst = 1, .dst = 99};
    weird[1] = (edan_insn){.cls = EDAN_CLASS_LOAD, .mem = EDAN_MEM_LOAD, .mem_size = 0, .n_dst = 1, .dst = 5};
    weird[2] = (edan_insn){.cls = EDAN_CLASS_STORE, .mem = EDAN_MEM_STORE, .mem_size = 255, .n_src = 1, .src = {5}};
    weird[3] = (edan_insn){.cls = EDAN_CLASS_ATOMIC, .mem = EDAN_MEM_AMO, .mem_size = 8, .n_dst = 1, .dst = 5};
    edan_exec w[6] = {{.insn = &weird[0]},
                      {.insn = &weird[1]},
                      {.insn = &weird[2], .addr = UINT64_MAX - 3},
                      {.insn = &weird[3], .addr = UINT64_MAX - 1},
                      {.insn = NULL},
                      {.insn = &weird[1]}};
    for (int c = 0; c < 2; c++) {
        edan_lane_config l2 = lane;
        if (c) {
            l2.cache.n_levels = 1;
            l2.cache.level[0] = edan_cache_level_default(1024);
        }
        d = edan_dot_new(&l2, c == 1, 100, &err);
        if (d) {
            edan_dot_consume(d, w, 6);
            CHECK(edan_dot_finish(d) == 0, "malformed: %s", edan_dot_error(d)->msg);
            check_path(d, "malformed");
            free(dot_text(d, NULL, NULL));
            edan_dot_free(d);
        }
    }
}

/* ---- (4) Graphviz ----------------------------------------------------------- */

static void test_graphviz(void)
{
    if (system("command -v dot >/dev/null 2>&1") != 0) {
        printf("graphviz 'dot' not installed: rendering not checked\n");
        return;
    }
    static edan_exec recs[256];
    size_t n = 0;
    edan_trace_source *src = read_trace("figure6.txt", recs, 256, &n);
    if (!src)
        return;
    edan_lane_config lane;
    memset(&lane, 0, sizeof lane);
    edan_cost_default(&lane.cost);
    edan_error err = {0};
    edan_dot *d = edan_dot_new(&lane, true, 100, &err);
    if (d)
        edan_dot_consume(d, recs, n);
    edan_trace_source_close(src);
    if (!d)
        return;
    CHECK(edan_dot_finish(d) == 0, "finish: %s", edan_dot_error(d)->msg);
    char in[] = "/tmp/edan_dot_test_XXXXXX";
    int fdn = mkstemp(in);
    CHECK(fdn >= 0, "mkstemp");
    if (fdn >= 0) {
        FILE *f = fdopen(fdn, "w");
        CHECK(f && edan_dot_write(d, f, "figure 6 \"with\" false dependencies") == 0, "write %s", in);
        if (f)
            fclose(f);
        char out[sizeof in + 8], cmd[3 * sizeof in + 64];
        snprintf(out, sizeof out, "%s.svg", in);
        snprintf(cmd, sizeof cmd, "dot -Tsvg '%s' -o '%s'", in, out);
        CHECK(system(cmd) == 0, "%s failed", cmd);
        FILE *g = fopen(out, "r");
        char head[6] = {0};
        size_t got = g ? fread(head, 1, 5, g) : 0;
        if (g)
            fclose(g);
        CHECK(got == 5 && (memcmp(head, "<?xml", 5) == 0 || memcmp(head, "<svg", 4) == 0), "%s: not SVG", out);
        unlink(out);
        unlink(in);
    }
    edan_dot_free(d);
}

int main(int argc, char **argv)
{
    rt_seed(0x2545F4914F6CDD1Dull);
    dir = argc > 1 ? argv[1] : "tests/golden";
    test_summation_golden();
    test_figure6();
    test_random(argc > 2 ? atoi(argv[2]) : 500);
    test_limit();
    test_graphviz();
    return check_summary();
}
