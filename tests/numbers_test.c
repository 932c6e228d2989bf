/*
 * Numbers and lists (issue 35): the one number grammar (util/parse.h) takes
 * plain decimal only and refuses what strtod and strtoull would take besides
 * (hexadecimal, inf, nan, blanks, signs on integers, values that do not fit);
 * lists have no length limit and no empty element; the session refuses a
 * stream whose totals could wrap, and gives the exact total just below that
 * bound; the annotation of an empty region is made without sorting a NULL
 * table (UBSan, in the sanitizer build).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config/options.h"
#include "isa/riscv.h"
#include "session_report.h"
#include "tool/graph/graph.h"
#include "tool/session.h"
#include "util/parse.h"
#include "util/symbols/symbols.h"

static void numbers(void)
{
    static const char *const u64_good[] = {"0", "7", "0007", "18446744073709551615"};
    static const char *const u64_bad[] = {"",    "0x10", "0X10", "+1",  "-1",  " 1",  "1 ",
                                          "1e3", "1.",   "inf",  "nan", "1,2", "08k", "18446744073709551616"};
    uint64_t u;
    for (size_t i = 0; i < sizeof u64_good / sizeof *u64_good; i++)
        CHECK(edan_parse_u64(u64_good[i], &u) == 0 && u == strtoull(u64_good[i], NULL, 10), "u64 '%s'", u64_good[i]);
    for (size_t i = 0; i < sizeof u64_bad / sizeof *u64_bad; i++)
        CHECK(edan_parse_u64(u64_bad[i], &u) == -1, "u64 '%s' refused", u64_bad[i]);
    static const char *const real_good[] = {"1", "-1.5", "+2", "2e-3", ".5", "5.", "1E+6", "1e300", "1e-300"};
    static const char *const real_bad[] = {"",
                                           "0x10",
                                           "0x1p3",
                                           "inf",
                                           "-inf",
                                           "nan",
                                           "NAN",
                                           "infinity",
                                           " 1",
                                           "1 ",
                                           "1e",
                                           "e3",
                                           ".",
                                           "-",
                                           "1e301",
                                           "1e-310",
                                           /* a denormal: not the number written */ "1,5",
                                           "1..2"};
    double d;
    for (size_t i = 0; i < sizeof real_good / sizeof *real_good; i++)
        CHECK(edan_parse_double(real_good[i], &d) == 0 && d == strtod(real_good[i], NULL), "real '%s'", real_good[i]);
    for (size_t i = 0; i < sizeof real_bad / sizeof *real_bad; i++)
        CHECK(edan_parse_double(real_bad[i], &d) == -1, "real '%s' refused", real_bad[i]);
    /* no length limit: 300 leading zeros */
    char zeros[400];
    memset(zeros, '0', 300);
    strcpy(zeros + 300, "2.5e-1");
    CHECK(edan_parse_double(zeros, &d) == 0 && d == 0.25, "a 306-character real: %g", d);
    /* the length-taking forms read no further than their length ("0x" after "0" is not read as hexadecimal) */
    CHECK(edan_parse_double_n("0x10", 1, &d) == 0 && d == 0, "'0' of '0x10'");
    CHECK(edan_parse_u64_n("12,", 2, &u) == 0 && u == 12, "'12' of '12,'");
    static const struct {
        const char *s;
        uint64_t v;
    } sizes[] = {{"32K", 32768},  {"32KiB", 32768},   {"32kB", 32768},
                 {"1M", 1 << 20}, {"2G", 2ull << 30}, {"64", 64},
                 {"64B", 64},     {"0", 0},           {"16777215G", 16777215ull << 30}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        CHECK(edan_parse_size(sizes[i].s, strlen(sizes[i].s), &u) == 0 && u == sizes[i].v, "size '%s'", sizes[i].s);
    static const char *const size_bad[] = {"",     "K",   "-1K", "+1K", " 1K", "0x10",
                                           "1.5K", "1KK", "1Kx", "1T",  "1iB", "17179869184G"};
    for (size_t i = 0; i < sizeof size_bad / sizeof *size_bad; i++)
        CHECK(edan_parse_size(size_bad[i], strlen(size_bad[i]), &u) == -1, "size '%s' refused", size_bad[i]);
}

static void lists(void)
{
    static const struct {
        const char *list;
        int elements; /* before the end, or before an empty one */
        bool empty;   /* an empty element */
    } cases[] = {{"1", 1, false}, {"1,2,3", 3, false}, {"1,,2", 1, true}, {",", 0, true},
                 {"1,", 1, true}, {",1", 0, true},     {"", 0, true},     {"a:b,c", 3, false}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *p = cases[i].list, *e;
        size_t len;
        int n = 0, rc;
        while ((rc = edan_list_next(&p, ",:", &e, &len)) > 0)
            n++;
        CHECK(n == cases[i].elements && (rc < 0) == cases[i].empty, "list '%s': %d elements, rc %d", cases[i].list, n,
              rc);
    }
    /* function names: ',' or a lone ':' separate them, except after a library (LIB:NAME) and inside C++ names */
    static const struct {
        const char *list, *names;
    } names[] = {{"f:g", "f|g"},
                 {"libm.so:exp", "libm.so:exp"},
                 {"libm.so.6:exp,kernel:g", "libm.so.6:exp|kernel|g"},
                 {"ns::f(int, double),libsome.so:ns::g", "ns::f(int, double)|libsome.so:ns::g"},
                 {"also:so:x", "also|so|x"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char got[200] = "";
        size_t len;
        for (const char *t = edan_names_next(names[i].list, &len); t; t = edan_names_next(t + len, &len))
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s%.*s", *got ? "|" : "", (int)len, t);
        CHECK(!strcmp(got, names[i].names), "names '%s': '%s', expected '%s'", names[i].list, got, names[i].names);
    }
    static const struct {
        const char *name, *lib, *function; /* lib NULL: no library part */
    } libs[] = {{"libm.so:exp", "libm.so", "exp"},
                {"libm.so.6:__exp", "libm.so.6", "__exp"},
                {"libx.so:ns::f(int)", "libx.so", "ns::f(int)"},
                {"ns::f", NULL, NULL},
                {"a:b", NULL, NULL},
                {"libm.so:", NULL, NULL},
                {":exp", NULL, NULL},
                {"exp", NULL, NULL}};
    for (size_t i = 0; i < sizeof libs / sizeof *libs; i++) {
        char lib[100] = "";
        const char *f = edan_elf_filter_library(libs[i].name, lib, sizeof lib);
        CHECK(libs[i].lib ? f && !strcmp(f, libs[i].function) && !strcmp(lib, libs[i].lib) : !f,
              "'%s': library '%s', function '%s'", libs[i].name, f ? lib : "(none)", f ? f : "(none)");
    }
}

/* o with key=value set; the error's message in msg ("" when it was accepted). */
static int set(edan_options *o, const char *key, const char *value, char *msg, size_t cap)
{
    edan_error err = {0};
    int rc = edan_session_option_set(o, key, value, &err);
    snprintf(msg, cap, "%s", rc ? err.msg : "");
    return rc;
}

static void options(void)
{
    edan_options o;
    char msg[1024];
    /* a list longer than any fixed buffer: 2000 characters of leading zeros are one valid value */
    char *long_alpha = malloc(2100);
    memset(long_alpha, '0', 2000);
    strcpy(long_alpha + 2000, "300,100");
    edan_options_default(&o);
    CHECK(set(&o, "alpha", long_alpha, msg, sizeof msg) == 0 && o.n_alpha == 2 && o.alpha[0] == 300 &&
              o.alpha[1] == 100 && !strcmp(edan_options_last(&o, "alpha"), long_alpha),
          "a 2007-character --alpha: %s", msg);
    /* a cache configuration and a cost longer than any fixed buffer */
    char *spec = malloc(2100);
    strcpy(spec, "32K,line=");
    memset(spec + 9, '0', 1000);
    strcpy(spec + 1009, "64,ways=2;none");
    edan_options_default(&o);
    CHECK(set(&o, "cache", spec, msg, sizeof msg) == 0 && o.n_cache == 2 && o.cache[0].level[0].line == 64,
          "a 1023-character --cache: %s", msg);
    strcpy(spec, "fdiv=");
    memset(spec + 5, '0', 1000);
    strcpy(spec + 1005, "20,int=3");
    edan_options_default(&o);
    CHECK(set(&o, "cost", spec, msg, sizeof msg) == 0 && o.cost.cls[EDAN_CLASS_FDIV] == 20 &&
              o.cost.cls[EDAN_CLASS_INT] == 3,
          "a 1013-character --cost: %s", msg);
    free(spec);
    /* 1000 values: the count is what is wrong, not the length */
    char *many = malloc(2100);
    for (int i = 0; i < 1000; i++)
        memcpy(many + 2 * i, "1,", 2);
    many[1999] = '\0';
    edan_options_default(&o);
    CHECK(set(&o, "alpha", many, msg, sizeof msg) == -1 && strstr(msg, "at most 8 values"), "1000 alphas: %s", msg);
    free(many);
    static const struct {
        const char *key, *value, *needle;
    } bad[] = {
        {"cost", ",", "empty element"},
        {"cost", "int=2,", "empty element"},
        {"cost", "int=0x10", "not a number of cycles"},
        {"alpha", "1,,2", "empty element"},
        {"alpha", "0x10", "not an integer"},
        {"alpha", "1099511627777", "not an integer"},
        {"m", "4:", "empty element"},
        {"tau", "1e3", "not an integer"},
        {"cache", "none;;32K", "empty configuration"},
        {"cache", "0x8000", "cache"},
        {"clock", "1e-300", "from 0.001 to 100"},
        {"clock", "inf", "clock"},
        {"alpha0", "nan", "non-negative decimal"},
        {"C", "0x1p4", "non-negative decimal"},
        {"mem-latency", "1,,2", "empty element"},
        {"mem-latency", "50,inf", "--mem-latency"},
        {"reuse-sizes", "32K,,1M", "--reuse-sizes"},
        {"reuse-sizes", "32K,", "--reuse-sizes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        edan_options_default(&o);
        CHECK(set(&o, bad[i].key, bad[i].value, msg, sizeof msg) == -1 && strstr(msg, bad[i].needle),
              "--%s=%s: '%s' (expected '%s')", bad[i].key, bad[i].value, msg, bad[i].needle);
    }
    /* values have no limit of their own, only all together: 64 KiB */
    edan_options_default(&o);
    char *huge = malloc(EDAN_OPTIONS_TEXT + 1);
    memset(huge, '0', EDAN_OPTIONS_TEXT);
    huge[EDAN_OPTIONS_TEXT - 1] = '1';
    huge[EDAN_OPTIONS_TEXT] = '\0';
    CHECK(set(&o, "alpha", huge, msg, sizeof msg) == -1 && strstr(msg, "characters in all"), "64 KiB: %s", msg);
    huge[EDAN_OPTIONS_TEXT - 2] = '\0';
    huge[EDAN_OPTIONS_TEXT - 3] = '7';
    CHECK(set(&o, "alpha", huge, msg, sizeof msg) == 0 && o.alpha[0] == 7, "64 KiB - 2: %s", msg);
    free(huge);
    free(long_alpha);
}

/*
 * The totals' bound: n instructions of one class that costs `cost` each make
 * T1 = Tinf = n x cost (a chain of adds). n x cost fits: the exact totals;
 * n x (cost + 1) does not: the session refuses the stream.
 */
static void totals(void)
{
    edan_insn add;
    char why[128];
    CHECK(edan_rv_parse("addi a0,a0,1", 0x10000, &add, why, sizeof why) == 0, "addi: %s", why);
    enum { BATCH = 8192 };
    static edan_exec recs[BATCH];
    for (size_t i = 0; i < BATCH; i++)
        recs[i] = (edan_exec){.insn = &add, .id = 0};
    const uint64_t n = 2048ull * BATCH + 100; /* past 2^24: a cost of at most 2^40 can overflow */
    const uint64_t cost = UINT64_MAX / n;
    CHECK(cost <= EDAN_COST_MAX, "the largest cost that fits, %" PRIu64 ", is one the options take", cost);
    for (int over = 0; over <= 1; over++) {
        edan_options o;
        edan_options_default(&o);
        char value[64], msg[1024];
        snprintf(value, sizeof value, "int=%" PRIu64, cost + (uint64_t)over);
        CHECK(set(&o, "cost", value, msg, sizeof msg) == 0, "--cost=%s: %s", value, msg);
        edan_error err = {0};
        const edan_report_source src = {"trace", "numbers", NULL, "", false, {0}, false, 0, NULL, false};
        edan_session *s = edan_session_new(&o, NULL, &src, &err);
        CHECK(s != NULL, "session: %s", err.msg);
        if (!s)
            return;
        edan_consumer k = edan_session_consumer(s);
        for (uint64_t done = 0; done < n; done += BATCH)
            k.consume(k.ctx, recs, n - done < BATCH ? (size_t)(n - done) : BATCH);
        const int rc = edan_session_finish(s, &err);
        if (!over) {
            const edan_lane_stats *st = edan_edag_lane(edan_edag_tool_analysis(s), 0);
            CHECK(rc == 0 && st->T1 == n * cost && st->Tinf == n * cost && st->vertices == n,
                  "just below the bound: T1 %" PRIu64 ", Tinf %" PRIu64 ", expected %" PRIu64 " (%s)", st->T1, st->Tinf,
                  n * cost, err.msg);
        } else {
            CHECK(rc == -1 && strstr(err.msg, "cannot be represented") && strstr(err.msg, "2^64"),
                  "one cycle more a vertex wraps T1: refused, not %s", rc ? err.msg : "accepted");
        }
        edan_session_free(s);
    }
}

/* An empty region annotated: totals of 0 and no line, made without qsort on a NULL table (UBSan). */
static void empty_annotation(void)
{
    edan_options o;
    edan_options_default(&o);
    char msg[1024];
    CHECK(set(&o, "annotate", NULL, msg, sizeof msg) == 0, "--annotate: %s", msg);
    static const char *const only[] = {"annotate", NULL};
    char *text = test_session_report(&o, only, NULL, NULL, 0, 1, false);
    CHECK(text && strstr(text, "totals: Ir 0, Mem 0"), "an empty region's annotation: %s", text ? text : "(none)");
    free(text);
    CHECK(set(&o, "json", NULL, msg, sizeof msg) == 0, "--json: %s", msg);
    text = test_session_report(&o, only, NULL, NULL, 0, 1, false);
    CHECK(text && strstr(text, "\"lines\":[]"), "an empty region's annotation in JSON: %s", text ? text : "(none)");
    free(text);
}

int main(void)
{
    numbers();
    lists();
    options();
    totals();
    empty_annotation();
    return check_summary();
}
