/*
 * memgaze_test.c - MemGaze's formats and footprint table (src/memgaze/).
 *
 *   - fields: hexadecimal and decimal numbers at and past their limits;
 *   - traces: both forms (with and without the DSO header) read alike; every
 *     bad input (a line cut short, a bad or too large number, a last line
 *     without newline, a header out of place, a NUL byte, a missing file)
 *     is refused with the file and line named;
 *   - load classes: the four classes, SKIPPED in hexadecimal, duplicates,
 *     and the same kinds of bad input;
 *   - function ranges (.hpcstruct): MemGaze's reading of <P> lines, and
 *     which function an address falls in;
 *   - the table: the streaming two-pass build equals the slow reference
 *     (tests/mg_reference.c: MemGaze's own algorithm, every load kept) byte
 *     for byte on random traces made to hit MemGaze's quirks (SAMPLE 0,
 *     constant loads at sample changes, stores, unlisted loads, addresses of
 *     several classes, samples of 1 to hundreds of leaves), and so do the
 *     per-function footprints; and it refuses a
 *     trace without a traced load, a bad period, a trace that changed
 *     between its passes.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "memgaze/mg_classes.h"
#include "memgaze/mg_funcs.h"
#include "memgaze/mg_struct.h"
#include "memgaze/mg_table.h"
#include "memgaze/mg_text.h"
#include "memgaze/mg_trace.h"
#include "mg_reference.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t below(uint64_t n)
{
    return next_rand() % n;
}

static FILE *mem_n(const char *text, size_t n)
{
    return n ? fmemopen((void *)text, n, "rb") : fopen("/dev/null", "rb");
}

static FILE *mem(const char *text)
{
    return mem_n(text, strlen(text));
}

/* ---- fields ---------------------------------------------------------------------------------- */

static void test_fields(void)
{
    uint64_t v;
    CHECK(edan_mg_parse_hex("0x40b21f", &v) == 0 && v == 0x40b21f, "0x40b21f");
    CHECK(edan_mg_parse_hex("e8d", &v) == 0 && v == 0xe8d, "no 0x");
    CHECK(edan_mg_parse_hex("0XABCdef", &v) == 0 && v == 0xabcdef, "upper case");
    CHECK(edan_mg_parse_hex("0xffffffffffffffff", &v) == 0 && v == UINT64_MAX, "64 bits");
    CHECK(edan_mg_parse_hex("0x0000000000000000001", &v) == 0 && v == 1, "leading zeros");
    CHECK(edan_mg_parse_hex("0x10000000000000000", &v) == -1, "65 bits");
    CHECK(edan_mg_parse_hex("0x", &v) == -1, "no digits");
    CHECK(edan_mg_parse_hex("", &v) == -1, "empty");
    CHECK(edan_mg_parse_hex("0x12g4", &v) == -1, "bad digit");
    CHECK(edan_mg_parse_hex("-1", &v) == -1, "sign");
    CHECK(edan_mg_parse_dec("2147483647", 2147483647, &v) == 0 && v == 2147483647, "int max");
    CHECK(edan_mg_parse_dec("2147483648", 2147483647, &v) == -1, "past int max");
    CHECK(edan_mg_parse_dec("18446744073709551615", UINT64_MAX, &v) == 0 && v == UINT64_MAX, "u64 max");
    CHECK(edan_mg_parse_dec("18446744073709551616", UINT64_MAX, &v) == -1, "past u64 max");
    CHECK(edan_mg_parse_dec("12a", 100, &v) == -1 && edan_mg_parse_dec("", 100, &v) == -1, "bad decimal");
    char line[] = "  a\tbb  c ";
    char *f[2];
    CHECK(edan_mg_split(line, f, 2) == 3 && !strcmp(f[0], "a") && !strcmp(f[1], "bb"), "split past max");
}

/* ---- traces -------------------------------------------------------------------------------------- */

/* Read a whole trace given as len bytes: the number of loads, or -1 with err. */
static long read_trace_n(const char *text, size_t len, edan_mg_load *out, size_t cap, edan_error *err)
{
    edan_mg_trace *t = edan_mg_trace_open_file(mem_n(text, len), "t.trace", err);
    if (!t)
        return -1;
    long total = 0, n;
    while ((n = edan_mg_trace_next(t, out + total, cap - (size_t)total > 3 ? 3 : cap - (size_t)total, err)) > 0)
        total += n;
    edan_mg_trace_close(t);
    return n < 0 ? -1 : total;
}

static long read_trace(const char *text, edan_mg_load *out, size_t cap, edan_error *err)
{
    return read_trace_n(text, strlen(text), out, cap, err);
}

static void trace_bad(const char *text, const char *where, const char *what)
{
    edan_mg_load l[16];
    edan_error err = {0};
    long n = read_trace(text, l, 16, &err);
    CHECK(n == -1 && strstr(err.msg, where) && strstr(err.msg, what), "%s: got %ld, '%s'", where, n, err.msg);
}

static void test_trace(void)
{
    edan_mg_load a[8], b[8];
    edan_error err = {0};
    const char *plain = "0x40b21f 0x7ffec7780340 0 13963977.121160038 1\n"
                        "\n"
                        "40b1c2\t0X7FFEC7780338 3 13963977.1 2\r\n";
    CHECK(read_trace(plain, a, 8, &err) == 2, "plain: %s", err.msg);
    CHECK(a[0].ip == 0x40b21f && a[0].addr == 0x7ffec7780340 && a[0].time_ns == 13963977121160038ull &&
              a[0].sample == 1 && a[0].dso == -1 && a[0].line == 1,
          "first load");
    CHECK(a[1].ip == 0x40b1c2 && a[1].cpu == 3 && a[1].time_ns == 13963977100000000ull && a[1].line == 3,
          "second load");
    const char *header = "DSO: <name> <id>\n"
                         "/bin/app 0\n"
                         "/lib/libc.so.6 1\n"
                         "TRACE: <IP> <Addrs> <CPU> <time> <sampleID> <DSO_id>\n"
                         "0x40b21f 0x7ffec7780340 0 13963977.121160038 1 0\n"
                         "40b1c2 0x7ffec7780338 3 13963977.1 2 -1\n";
    edan_error_clear(&err);
    edan_mg_trace *t = edan_mg_trace_open_file(mem(header), "h.trace", &err);
    CHECK(t && edan_mg_trace_next(t, b, 8, &err) == 2, "header: %s", err.msg);
    if (t) {
        int32_t id;
        CHECK(edan_mg_trace_dso_count(t) == 2 && !strcmp(edan_mg_trace_dso(t, 1, &id), "/lib/libc.so.6") && id == 1,
              "DSO list");
        CHECK(edan_mg_trace_dso(t, 2, &id) == NULL, "past the DSO list");
        edan_mg_trace_close(t);
    }
    CHECK(b[0].ip == a[0].ip && b[1].addr == a[1].addr && b[0].dso == 0 && b[1].dso == -1, "the header's loads");
    CHECK(read_trace("", a, 8, &err) == 0, "empty trace: no loads");

    trace_bad("0x1 0x2 0 1.5\n", "t.trace:1:", "cut short");
    trace_bad("0x1 0x2 0 1.5 1\n0x1 0x2 0\n", "t.trace:2:", "cut short");
    trace_bad("0x1 0x2 0 1.5 1 0 7\n", "t.trace:1:", "fields or more");
    trace_bad("0xg1 0x2 0 1.5 1\n", "t.trace:1:", "IP '0xg1'");
    trace_bad("0x1 0x12345678901234567 0 1.5 1\n", "t.trace:1:", "ADDR");
    trace_bad("0x1 0x2 -1 1.5 1\n", "t.trace:1:", "CPU");
    trace_bad("0x1 0x2 4294967296 1.5 1\n", "t.trace:1:", "CPU");
    trace_bad("0x1 0x2 0 1.5x 1\n", "t.trace:1:", "TIME");
    trace_bad("0x1 0x2 0 .5 1\n", "t.trace:1:", "TIME");
    trace_bad("0x1 0x2 0 99999999999999999999.5 1\n", "t.trace:1:", "TIME");
    trace_bad("0x1 0x2 0 1.5 2147483648\n", "t.trace:1:", "SAMPLE");
    trace_bad("0x1 0x2 0 1.5 -3\n", "t.trace:1:", "SAMPLE");
    trace_bad("0x1 0x2 0 1.5 1\n0x1 0x2 0 1.5 1", "t.trace:2:", "no newline");
    trace_bad("0x1 0x2 0 1.5 1\nDSO:\n", "t.trace:2:", "after the first load");
    trace_bad("DSO: x\na 0\nTRACE:\n0x1 0x2 0 1.5 1\nTRACE:\n", "t.trace:5:", "after the first load");
    trace_bad("DSO: x\na 0\n0x1 0x2 0 1.5 1\n", "t.trace:3:", "'TRACE:' line must end the list");
    trace_bad("DSO: x\na 0\n", "t.trace", "not followed by a 'TRACE:' line");
    trace_bad("DSO: x\na 0\nb 0\n", "t.trace:3:", "listed twice");
    trace_bad("DSO: x\na 0\nTRACE:\n0x1 0x2 0 1.5 1 3\n", "t.trace:4:", "not in the DSO list");
    trace_bad("0x1 0x2 0 1.5 1 x\n", "t.trace:1:", "DSO 'x'");
    static const char nul[] = "0x1 0x2 0 1.5 1\n0x1 0x2 0 1.5\0 1\n";
    edan_error_clear(&err);
    CHECK(read_trace_n(nul, sizeof nul - 1, a, 8, &err) == -1 && strstr(err.msg, "t.trace:2:") &&
              strstr(err.msg, "NUL"),
          "NUL byte: %s", err.msg);
    static char longline[EDAN_MG_TRACE_MAX_LINE + 64];
    memset(longline, '1', sizeof longline - 2);
    longline[sizeof longline - 2] = '\n';
    trace_bad(longline, "t.trace:1:", "longer than");

    edan_error_clear(&err);
    CHECK(edan_mg_trace_open("/nonexistent/x.trace", &err) == NULL && strstr(err.msg, "/nonexistent/x.trace"),
          "missing file: %s", err.msg);
    edan_error_clear(&err);
    CHECK(edan_mg_trace_open("/tmp", &err) == NULL && strstr(err.msg, "directory"), "directory: %s", err.msg);
    edan_error_clear(&err);
    CHECK(edan_mg_trace_open("-", &err) == NULL && strstr(err.msg, "standard input"), "stdin: %s", err.msg);
}

/* ---- load classes ------------------------------------------------------------------------------ */

static edan_mg_classes *classes_from(const char *text, edan_error *err)
{
    return edan_mg_classes_load_file(mem(text), "c.binanlys", err);
}

static void classes_bad(const char *text, const char *where, const char *what)
{
    edan_error err = {0};
    edan_mg_classes *c = classes_from(text, &err);
    CHECK(!c && strstr(err.msg, where) && strstr(err.msg, what), "%s: '%s'", where, err.msg);
    edan_mg_classes_free(c);
}

static void test_classes(void)
{
    edan_error err = {0};
    edan_mg_classes *c = classes_from("0x30062a 1 0x0 0x1 0x0\n"
                                      "e8d 1 0x20117c 0x1 0x10 some_routine [lib]\n"
                                      "0x3000f6 0 0x0 0x0 0x6\n"
                                      "0x300639 2 0xfffffffc 0x4 0x0\n"
                                      "\n"
                                      "0x300700 90 0x8 0x1 0x2\n"
                                      "0x30062a 1 0x0 0x1 0x0\n",
                                      &err);
    CHECK(c != NULL, "classes: %s", err.msg);
    if (c) {
        uint32_t k;
        CHECK(edan_mg_classes_count(c) == 5, "count");
        CHECK(edan_mg_classes_find(c, 0x30062a, &k) == EDAN_MG_STRIDED && k == 0, "strided");
        CHECK(edan_mg_classes_find(c, 0xe8d, &k) == EDAN_MG_STRIDED && k == 16, "SKIPPED is hexadecimal");
        CHECK(edan_mg_classes_find(c, 0x3000f6, &k) == EDAN_MG_CONSTANT && k == 6, "constant");
        CHECK(edan_mg_classes_find(c, 0x300639, &k) == EDAN_MG_IRREGULAR, "irregular");
        CHECK(edan_mg_classes_find(c, 0x300700, &k) == EDAN_MG_STORE && k == 2, "store");
        CHECK(edan_mg_classes_find(c, 0x1234, &k) == EDAN_MG_UNKNOWN && k == 0, "unlisted");
        edan_mg_classes_free(c);
    }
    classes_bad("0x1 1 0x0 0x1\n", "c.binanlys:1:", "cut short");
    classes_bad("0x1 1 0x0 0x1 0x0\n0x2 3 0x0 0x1 0x0\n", "c.binanlys:2:", "CLASS '3'");
    classes_bad("0x1 -1 0x0 0x1 0x0\n", "c.binanlys:1:", "CLASS");
    classes_bad("0xz 1 0x0 0x1 0x0\n", "c.binanlys:1:", "IP");
    classes_bad("0x1 1 0xq 0x1 0x0\n", "c.binanlys:1:", "DISP");
    classes_bad("0x1 1 0x0 0x1q 0x0\n", "c.binanlys:1:", "SCALE");
    classes_bad("0x1 1 0x0 0x1 0x80000000\n", "c.binanlys:1:", "SKIPPED");
    classes_bad("0x1 1 0x0 0x1 0x0\n0x1 2 0x0 0x1 0x0\n", "c.binanlys:2:", "first on line 1");
    classes_bad("0x1 1 0x0 0x1 0x0", "c.binanlys:1:", "no newline");
    classes_bad("", "c.binanlys", "no load classes");
    edan_error_clear(&err);
    CHECK(!edan_mg_classes_load("/nonexistent/c.binanlys", &err) && strstr(err.msg, "/nonexistent/c.binanlys"),
          "missing file: %s", err.msg);
}

/* ---- function ranges ---------------------------------------------------------------------------- */

static void struct_bad(const char *text, const char *where, const char *what)
{
    edan_error err = {0};
    edan_mg_struct *st = edan_mg_struct_load_file(mem(text), "s.hpcstruct", &err);
    CHECK(!st && strstr(err.msg, where) && strstr(err.msg, what), "%s: '%s'", where, err.msg);
    edan_mg_struct_free(st);
}

static void test_struct(void)
{
    const char *text =
        "<?xml version=\"1.0\"?>\n"
        "<!ATTLIST HPCToolkitStructure\n"
        "<P i=\"1\" n=\"outside\" ln=\"outside\" v=\"{[0x100-0x200)}\">\n"
        "<HPCToolkitStructure i=\"0\" version=\"4.7\" n=\"\">\n"
        "<LM i=\"2\" n=\"/app\" v=\"{}\">\n"
        "    <P i=\"4\" n=\"b&lt;int&gt; [app]\" ln=\"b\" l=\"0\" v=\"{[0x400042-0x400043)}\">\n"
        "    <P i=\"5\" n=\"a [app]\" ln=\"a\" l=\"0\" v=\"{[0x400000-0x400001) [0x500000-0x500010)}\">\n"
        "    <P i=\"6\" n=\"again\" ln=\"again\" v=\"{[0x400042-0x400050)}\">\n"
        "    <P i=\"7\" n=\"c\" v=\"{[0x400100-0x400200)}\">\n"
        "</HPCToolkitStructure>\n"
        "<P i=\"8\" n=\"after\" ln=\"after\" v=\"{[0x900000-0x900001)}\">\n";
    edan_error err = {0};
    edan_mg_struct *st = edan_mg_struct_load_file(mem(text), "s.hpcstruct", &err);
    CHECK(st != NULL, "structure: %s", err.msg);
    if (!st)
        return;
    CHECK(edan_mg_struct_count(st) == 3, "three functions inside, one start twice: %zu", edan_mg_struct_count(st));
    CHECK(!strcmp(edan_mg_struct_name(st, 0), "a [app]") && edan_mg_struct_start(st, 0) == 0x400000, "a");
    CHECK(!strcmp(edan_mg_struct_name(st, 1), "b&lt;int&gt; [app]"), "the first of one start, escapes as written");
    /* no ' ln="': MemGaze's name runs to the end of the line */
    CHECK(!strcmp(edan_mg_struct_name(st, 2), "c\" v=\"{[0x400100-0x400200)}\">"), "c: '%s'",
          edan_mg_struct_name(st, 2));
    CHECK(edan_mg_struct_find(st, 0x3fffff) == -1, "below the first start");
    CHECK(edan_mg_struct_find(st, 0x400000) == 0 && edan_mg_struct_find(st, 0x400041) == 0, "in a");
    CHECK(edan_mg_struct_find(st, 0x400042) == 1 && edan_mg_struct_find(st, 0x4000ff) == 1, "in b");
    CHECK(edan_mg_struct_find(st, 0x400100) == -1 && edan_mg_struct_find(st, 0x500000) == -1,
          "the last function gets nothing (MemGaze's upper_bound finds no function)");
    edan_mg_struct_free(st);
    struct_bad("<HPCToolkitStructure>\n<P i=\"4\" n=\"x\" ln=\"x\">\n", "s.hpcstruct:2:", "address ranges");
    struct_bad("<HPCToolkitStructure>\n\n<P i=\"4\" v=\"{[0x1-0x2)}\">\n", "s.hpcstruct:3:", "n=");
    struct_bad("<HPCToolkitStructure>\n<P n=\"x\" ln=\"x\" v=\"{[zz-0x2)}\">\n", "s.hpcstruct:2:", "hexadecimal");
    struct_bad("<HPCToolkitStructure>\n</HPCToolkitStructure>\n", "s.hpcstruct", "no procedure");
    struct_bad("<HPCToolkitStructure>\n<P n=\"x\" ln=\"x\" v=\"{[0x1-0x2)}\">", "s.hpcstruct:2:", "no newline");
}

/* ---- the table ---------------------------------------------------------------------------------- */

/*
 * The table of loads through the two passes, fed in random pieces: a malloc'd
 * string, or NULL with err. With st, the per-function lines in *funcs.
 */
static char *table_funcs_of(const edan_mg_load *loads, size_t n, const edan_mg_classes *c, uint64_t period,
                            const edan_mg_struct *st, char **funcs, edan_error *err)
{
    edan_mg_table *t = edan_mg_table_new(c, period, err);
    if (!t)
        return NULL;
    edan_mg_funcs *fs = st ? edan_mg_funcs_new(st, period, err) : NULL;
    edan_mg_table_set_funcs(t, fs);
    for (int pass = 1; pass <= 2; pass++) {
        if (edan_mg_table_begin(t, pass, err))
            goto fail;
        for (size_t i = 0; i < n;) {
            size_t k = 1 + below(64);
            k = k > n - i ? n - i : k;
            if (edan_mg_table_add(t, loads + i, k, err))
                goto fail;
            i += k;
        }
        if (edan_mg_table_end(t, err))
            goto fail;
    }
    char *out;
    size_t len;
    FILE *f = open_memstream(&out, &len);
    CHECK(edan_mg_table_write(t, f) == 0, "write");
    fclose(f);
    if (fs) {
        f = open_memstream(funcs, &len);
        CHECK(edan_mg_funcs_write(fs, f) == 0, "write the functions");
        fclose(f);
    }
    edan_mg_funcs_free(fs);
    edan_mg_table_free(t);
    return out;
fail:
    edan_mg_funcs_free(fs);
    edan_mg_table_free(t);
    return NULL;
}

static char *table_of(const edan_mg_load *loads, size_t n, const edan_mg_classes *c, uint64_t period, edan_error *err)
{
    return table_funcs_of(loads, n, c, period, NULL, NULL, err);
}

/* Random functions over the instructions 0x400000 + 4i: the first starts at the first instruction. */
static edan_mg_struct *random_struct(int nip)
{
    static char text[1 << 14];
    size_t k = (size_t)snprintf(text, sizeof text,
                                "<!ELEMENT HPCToolkitStructure (LM)*>\n"
                                "<HPCToolkitStructure i=\"0\" version=\"4.7\" n=\"\">\n");
    int nf = 1 + (int)below(6);
    for (int i = 0; i < nf; i++) {
        unsigned start = 0x400000 + 4 * (i == 0 ? 0 : (unsigned)below((uint64_t)nip + 2));
        k += (size_t)snprintf(text + k, sizeof text - k,
                              "<P i=\"%d\" n=\"f%d&lt;T&gt; [app]\" ln=\"f%d\" l=\"0\" v=\"{[0x%x-0x%x)}\">\n</P>\n",
                              i + 2, i, i, start, start + 1);
    }
    snprintf(text + k, sizeof text - k, "</HPCToolkitStructure>\n");
    edan_error err = {0};
    edan_mg_struct *st = edan_mg_struct_load_file(mem(text), "s.hpcstruct", &err);
    CHECK(st != NULL, "random structure: %s", err.msg);
    return st;
}

/* A random load-class file of nip instructions at 0x400000 + 4i (some left out: unknown). */
static edan_mg_classes *random_classes(int nip)
{
    static char text[1 << 14];
    size_t k = 0;
    static const int classes[] = {0, 0, 1, 1, 2, 2, 90};
    static const int skipped[] = {0, 0, 0, 1, 2, 5, 0x11};
    for (int i = 0; i < nip; i++)
        if (i == 0 || below(7))
            k += (size_t)snprintf(text + k, sizeof text - k, "0x%x %d 0x0 0x1 0x%x\n", 0x400000 + 4 * i,
                                  classes[below(7)], skipped[below(7)]);
    edan_error err = {0};
    edan_mg_classes *c = classes_from(text, &err);
    CHECK(c != NULL, "random classes: %s", err.msg);
    return c;
}

/* A random trace hitting MemGaze's quirks; n loads in out. */
static void random_trace(edan_mg_load *out, size_t n, int nip)
{
    int32_t sample = (int32_t)below(3);
    uint64_t change = 1 + below(300), pool = 1 + below(below(2) ? 40 : 4000);
    for (size_t i = 0; i < n; i++) {
        if (below(change) == 0) {
            uint64_t r = below(10);
            sample = r == 0 ? 0 : r == 1 && sample > 0 ? sample - 1 : sample + 1 + (int32_t)below(3);
        }
        out[i] = (edan_mg_load){.ip = 0x400000 + 4 * below((uint64_t)nip),
                                .addr = 0x7f0000 + 8 * below(pool),
                                .time_ns = i,
                                .line = i + 1,
                                .sample = sample};
    }
}

static void test_table_random(int rounds)
{
    enum { MAX = 3000 };
    static edan_mg_load loads[MAX];
    int compared = 0, with_functions = 0;
    for (int r = 0; r < rounds; r++) {
        int nip = 1 + (int)below(25);
        edan_mg_classes *c = random_classes(nip);
        if (!c)
            continue;
        size_t n = 1 + below(r % 3 == 0 ? 40 : r % 3 == 1 ? 600 : MAX);
        random_trace(loads, n, nip);
        static const uint64_t periods[] = {1, 3, 1000, 100000, 10000000};
        uint64_t period = periods[below(5)];
        char *want = mg_reference_table(loads, n, c, period);
        edan_error err = {0};
        edan_mg_struct *st = random_struct(nip);
        char *funcs = NULL;
        char *got = table_funcs_of(loads, n, c, period, st, &funcs, &err);
        if (!want) {
            CHECK(!got && strstr(err.msg, "constant"), "round %d: a trace of constant loads: '%s'", r, err.msg);
        } else {
            compared++;
            CHECK(got && !strcmp(got, want),
                  "round %d (%zu loads, period %llu): %s\n--- streaming\n%s--- reference\n%s", r, n,
                  (unsigned long long)period, err.msg, got ? got : "", want);
        }
        if (want && st) {
            char *fwant = mg_reference_functions(loads, n, c, st, period);
            with_functions += fwant[0] != '\0';
            CHECK(funcs && !strcmp(funcs, fwant), "round %d: functions\n--- streaming\n%s--- reference\n%s", r,
                  funcs ? funcs : "", fwant);
            free(fwant);
        }
        free(funcs);
        edan_mg_struct_free(st);
        free(want);
        free(got);
        edan_mg_classes_free(c);
    }
    CHECK(compared > rounds / 2, "only %d of %d random traces had traced loads", compared, rounds);
    CHECK(with_functions > rounds / 3, "only %d of %d random traces had loads in functions", with_functions, rounds);
}

static void test_table_cases(void)
{
    edan_error err = {0};
    edan_mg_classes *c = classes_from("0x400000 1 0x0 0x1 0x0\n0x400004 0 0x0 0x1 0x2\n", &err);
    if (!c)
        return;
    edan_mg_load l[3] = {{.ip = 0x400004, .sample = 1, .line = 1}, {.ip = 0x400004, .sample = 1, .line = 2}};
    CHECK(!table_of(l, 2, c, 100, &err) && strstr(err.msg, "every load of the trace is a constant one"),
          "only constant loads: %s", err.msg);
    edan_error_clear(&err);
    CHECK(!table_of(l, 0, c, 100, &err) && strstr(err.msg, "no loads"), "no loads: %s", err.msg);
    edan_error_clear(&err);
    CHECK(!edan_mg_table_new(c, 0, &err) && strstr(err.msg, "period"), "period 0: %s", err.msg);
    edan_error_clear(&err);
    CHECK(!edan_mg_table_new(c, EDAN_MG_MAX_PERIOD + 1, &err), "period over 2^53");

    /* one load at 0x10 in sample 1, two at 0x20 in sample 2: the second pass sees a third sample */
    l[0] = (edan_mg_load){.ip = 0x400000, .addr = 0x10, .sample = 1, .line = 1};
    l[1] = (edan_mg_load){.ip = 0x400000, .addr = 0x20, .sample = 2, .line = 2};
    l[2] = (edan_mg_load){.ip = 0x400000, .addr = 0x20, .sample = 3, .line = 3};
    edan_error_clear(&err);
    edan_mg_table *t = edan_mg_table_new(c, 100, &err);
    CHECK(t && !edan_mg_table_begin(t, 1, &err) && !edan_mg_table_add(t, l, 2, &err) && !edan_mg_table_end(t, &err),
          "pass 1: %s", err.msg);
    CHECK(!edan_mg_table_begin(t, 2, &err) && !edan_mg_table_add(t, l, 3, &err) && edan_mg_table_end(t, &err) &&
              strstr(err.msg, "changed between the two passes"),
          "pass 2 with another trace: '%s'", err.msg);
    edan_mg_table_stats st = edan_mg_table_get_stats(t);
    CHECK(st.traced == 3, "pass 2 counted its loads");
    edan_mg_table_free(t);
    edan_mg_classes_free(c);
}

/* A trace file with and without MemGaze's DSO header: the same table, through edan_mg_table_run. */
static void test_table_files(void)
{
    edan_error err = {0};
    edan_mg_classes *c = random_classes(12);
    if (!c)
        return;
    enum { N = 2500 };
    static edan_mg_load loads[N];
    random_trace(loads, N, 12);
    char plain[] = "/tmp/edan_mg_plain_XXXXXX", header[] = "/tmp/edan_mg_header_XXXXXX";
    int fp = mkstemp(plain), fh = mkstemp(header);
    FILE *a = fdopen(fp, "w"), *b = fdopen(fh, "w");
    fprintf(b, "DSO: <name> <id>\n/bin/app 0\nTRACE: <IP> <Addrs> <CPU> <time> <sampleID> <DSO_id>\n");
    for (size_t i = 0; i < N; i++) {
        fprintf(a, "0x%llx 0x%llx 0 1.%09llu %d\n", (unsigned long long)loads[i].ip, (unsigned long long)loads[i].addr,
                (unsigned long long)i, loads[i].sample);
        fprintf(b, "%llx %llx 0 1.%09llu %d 0\n", (unsigned long long)loads[i].ip, (unsigned long long)loads[i].addr,
                (unsigned long long)i, loads[i].sample);
    }
    fclose(a);
    fclose(b);
    char *text[2] = {NULL, NULL};
    const char *paths[2] = {plain, header};
    for (int k = 0; k < 2; k++) {
        edan_mg_table *t = edan_mg_table_new(c, 10000, &err);
        CHECK(t && edan_mg_table_run(t, paths[k], &err) == 0, "%s: %s", paths[k], err.msg);
        size_t len;
        FILE *f = open_memstream(&text[k], &len);
        if (t)
            edan_mg_table_write(t, f);
        fclose(f);
        edan_mg_table_free(t);
    }
    char *want = mg_reference_table(loads, N, c, 10000);
    CHECK(want && !strcmp(text[0], want), "the file's table equals the reference");
    CHECK(!strcmp(text[0], text[1]), "with and without the DSO header: the same table");
    free(want);
    free(text[0]);
    free(text[1]);

    /* an error of the trace names the file and the line */
    FILE *f = fopen(plain, "a");
    fprintf(f, "0x400000 0x10 0 1.5\n");
    fclose(f);
    edan_error_clear(&err);
    edan_mg_table *t = edan_mg_table_new(c, 10000, &err);
    CHECK(t && edan_mg_table_run(t, plain, &err) == -1 && strstr(err.msg, plain) && strstr(err.msg, ":2501:"),
          "a bad last line: %s", err.msg);
    edan_mg_table_free(t);
    unlink(plain);
    unlink(header);
    edan_mg_classes_free(c);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 300;
    test_fields();
    test_trace();
    test_classes();
    test_struct();
    test_table_cases();
    test_table_files();
    test_table_random(rounds);
    return check_summary();
}
