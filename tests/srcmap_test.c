/*
 * srcmap_test.c - source attribution (util/symbols/srcmap.h) on the example binaries.
 *
 * Usage: srcmap_test [examples_build_dir [examples_source_dir]]
 *   defaults: /work/main/build/examples and the examples/ directory next to
 *   this file's tests/ directory.
 *
 * The expected line numbers are found by searching the example sources, and
 * the load instructions by decoding the kernels, so editing an example does
 * not break the test.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "isa/riscv.h"
#include "util/symbols/symbols.h"

static char build_dir[4096] = "/work/main/build/examples";
static char src_dir[4096];

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool ends_with(const char *s, const char *suffix)
{
    if (!s)
        return false;
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/*
 * Line number (1-based) of the first line containing `needle` inside the
 * definition of `func` in the source file (from the line "... func(" to the
 * next line starting with '}'), or 0.
 */
static unsigned find_source_line(const char *src, const char *func, const char *needle)
{
    FILE *f = fopen(src, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s: %s\n", src, strerror(errno));
        return 0;
    }
    char def[128];
    snprintf(def, sizeof def, " %s(", func);
    char buf[1024];
    unsigned lineno = 0, found = 0;
    bool inside = false;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        if (!inside) {
            inside = strstr(buf, def) != NULL && !strchr(buf, ';');
            continue;
        }
        if (buf[0] == '}')
            break;
        if (strstr(buf, needle)) {
            found = lineno;
            break;
        }
    }
    fclose(f);
    return found;
}

/* Copy of the bytes of [addr, addr+len) from the executable section holding them (malloc'd), or NULL. */
static uint8_t *read_code(const char *path, uint64_t addr, size_t len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    uint8_t *out = NULL;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    Elf_Scn *scn = NULL;
    while (elf && (scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
            continue;
        if (addr < sh.sh_addr || addr + len > sh.sh_addr + sh.sh_size)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !d->d_buf || d->d_size < sh.sh_size)
            break;
        out = malloc(len ? len : 1);
        if (out)
            memcpy(out, (const uint8_t *)d->d_buf + (addr - sh.sh_addr), len);
        break;
    }
    if (elf)
        elf_end(elf);
    close(fd);
    return out;
}

/* Range of the (only) function `name` in the binary; false if absent. */
static bool func_range(const char *bin, const char *name, edan_elf_func *out)
{
    edan_elf e;
    edan_error err = {0};
    if (edan_elf_open(bin, &e, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    edan_elf_func f;
    size_t n = edan_elf_find(&e, bin, name, &f, 1, &err);
    if (n)
        *out = (edan_elf_func){.name = NULL, .start = f.start, .end = f.end};
    else
        fprintf(stderr, "%s\n", err.msg);
    edan_elf_close(&e);
    return n > 0;
}

/*
 * Decode function `func` of binary `bin`, find its first load whose mnemonic
 * width is `mem_size`, and check the lookup of that pc gives `want_func`,
 * a file ending in `src_name` and the source line containing `needle`.
 * Also checks every instruction of func is attributed to the same file.
 */
static void check_load(const char *bin, const char *src, const char *func, const char *needle, unsigned mem_size,
                       const char *want_func)
{
    const char *src_name = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
    unsigned want_line = find_source_line(src, want_func, needle);
    CHECK(want_line > 0, "%s: no line containing '%s' in %s()", src, needle, want_func);
    edan_elf_func r;
    bool have = func_range(bin, func, &r);
    CHECK(have, "%s: no function %s", bin, func);
    if (!have || !want_line)
        return;
    size_t len = (size_t)(r.end - r.start);
    uint8_t *code = read_code(bin, r.start, len);
    CHECK(code != NULL, "%s: cannot read the code of %s", bin, func);
    if (!code)
        return;
    edan_error err = {0};
    edan_srcmap *m = edan_srcmap_open(bin, &err);
    CHECK(m != NULL, "%s", err.msg);
    uint64_t load_pc = 0;
    bool found_load = false, all_attributed = true;
    for (size_t off = 0; m && off + 2 <= len;) {
        edan_insn insn;
        uint64_t pc = r.start + off;
        if (edan_rv_decode(code + off, len - off, pc, &insn) != EDAN_DECODE_OK)
            break;
        if (!found_load && insn.mem == EDAN_MEM_LOAD && insn.mem_size == mem_size) {
            found_load = true;
            load_pc = pc;
        }
        edan_srcloc loc;
        if (!edan_srcmap_lookup(m, pc, &loc) || !ends_with(loc.file, src_name) || !loc.function) {
            all_attributed = false;
            fprintf(stderr, "  %s+0x%zx: %s %s:%u\n", func, off, loc.function ? loc.function : "(null)",
                    loc.file ? loc.file : "(null)", loc.line);
        }
        off += insn.size;
    }
    CHECK(found_load, "%s: no %u-byte load in %s", bin, mem_size, func);
    CHECK(all_attributed, "%s: some instructions of %s are not attributed to %s", bin, func, src_name);
    if (m && found_load) {
        edan_srcloc loc;
        bool ok = edan_srcmap_lookup(m, load_pc, &loc);
        CHECK(ok, "%s: lookup of 0x%" PRIx64 " failed", bin, load_pc);
        CHECK(loc.function && !strcmp(loc.function, want_func), "%s: function at 0x%" PRIx64 " is %s, expected %s", bin,
              load_pc, loc.function ? loc.function : "(null)", want_func);
        CHECK(ends_with(loc.file, src_name), "%s: file at 0x%" PRIx64 " is %s, expected *%s", bin, load_pc,
              loc.file ? loc.file : "(null)", src_name);
        CHECK(loc.line == want_line, "%s: line at 0x%" PRIx64 " is %u, expected %u", bin, load_pc, loc.line, want_line);
        printf("%s: load at 0x%" PRIx64 " -> %s %s:%u\n", bin, load_pc, loc.function ? loc.function : "(null)",
               loc.file ? loc.file : "(null)", loc.line);
        /* The second lookup comes from the cache and must agree. */
        edan_srcloc again;
        CHECK(edan_srcmap_lookup(m, load_pc, &again) && again.function == loc.function && again.file == loc.file &&
                  again.line == loc.line,
              "%s: cached lookup differs", bin);
    }
    edan_srcmap_close(m);
    free(code);
}

/* pcs that belong to no function: lookups return false, clear *out, and do not crash. */
static void check_outside(const char *bin)
{
    edan_error err = {0};
    edan_srcmap *m = edan_srcmap_open(bin, &err);
    CHECK(m != NULL, "%s", err.msg);
    if (!m)
        return;
    const uint64_t pcs[] = {0, 1, 0x1000, 0x7fffffff00000000ull, UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof pcs / sizeof pcs[0]; i++) {
        edan_srcloc loc = {"junk", "junk", 7};
        for (int rep = 0; rep < 2; rep++) { /* the second time hits the cached miss */
            bool ok = edan_srcmap_lookup(m, pcs[i], &loc);
            CHECK(!ok && !loc.function && !loc.file && loc.line == 0, "0x%" PRIx64 " should not be found", pcs[i]);
        }
    }
    CHECK(!edan_srcmap_lookup(NULL, 0x10000, NULL), "NULL map");
    CHECK(!edan_srcmap_lookup(m, 0, NULL), "NULL out");
    /* Code without DWARF (the static C library) still gets its symbol name, but no file. */
    edan_elf_func r;
    if (func_range(bin, "exit", &r)) {
        edan_srcloc loc;
        bool ok = edan_srcmap_lookup(m, r.start, &loc);
        CHECK(ok && loc.function && !loc.file && loc.line == 0, "exit: %s %s:%u",
              loc.function ? loc.function : "(null)", loc.file ? loc.file : "(null)", loc.line);
    }
    edan_srcmap_close(m);
    edan_srcmap_close(NULL);
}

static void check_open_fails(const char *path, const char *want_substr)
{
    edan_error err = {0};
    edan_srcmap *m = edan_srcmap_open(path, &err);
    CHECK(m == NULL, "%s: open should fail", path ? path : "(null)");
    CHECK(err.set && err.msg[0], "%s: no error message", path ? path : "(null)");
    CHECK(!want_substr || strstr(err.msg, want_substr), "%s: message '%s' should mention '%s'", path ? path : "(null)",
          err.msg, want_substr);
    printf("expected error: %s\n", err.msg);
    edan_srcmap_close(m);
}

/* Copy the first `len` bytes of src to dst (a truncated ELF). */
static bool copy_prefix(const char *src, const char *dst, long len)
{
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    bool ok = in && out;
    char buf[4096];
    while (ok && len > 0) {
        size_t n = fread(buf, 1, len < (long)sizeof buf ? (size_t)len : sizeof buf, in);
        if (n == 0)
            break;
        ok = fwrite(buf, 1, n, out) == n;
        len -= (long)n;
    }
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = false;
    return ok;
}

static void check_errors(const char *bin, const char *src)
{
    check_open_fails(NULL, NULL);
    check_open_fails("/nonexistent/edan-srcmap-missing", "No such file");
    check_open_fails(src, "not an ELF");
    char tmp[256];
    snprintf(tmp, sizeof tmp, "/tmp/edan_srcmap_test_%d", (int)getpid());
    char cmd[16640];
    snprintf(cmd, sizeof cmd, "riscv64-linux-gnu-strip -g -o '%s' '%s'", tmp, bin);
    if (system(cmd) == 0) {
        check_open_fails(tmp, "-g");
    } else {
        fprintf(stderr, "riscv64-linux-gnu-strip unavailable: stripped-binary check skipped\n");
    }
    /* Truncated copies: must fail cleanly or succeed, never crash. */
    const long cuts[] = {0, 16, 64, 4096, 200000, 400000};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        if (!copy_prefix(bin, tmp, cuts[i]))
            continue;
        edan_error err = {0};
        edan_srcmap *m = edan_srcmap_open(tmp, &err);
        CHECK(m || (err.set && err.msg[0]), "truncated at %ld: failure without message", cuts[i]);
        if (m) {
            edan_srcloc loc;
            for (uint64_t pc = 0x10000; pc < 0x10000 + 4096; pc += 2)
                edan_srcmap_lookup(m, pc, &loc);
        }
        edan_srcmap_close(m);
    }
    unlink(tmp);
}

/* Inlined code reports the inlined function's name (needs the cross compiler; skipped without it). */
static void check_inline(void)
{
    char dir[] = "/tmp/edan_srcmap_inline_XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "mkdtemp failed: inline check skipped\n");
        return;
    }
    char src[300], bin[300];
    snprintf(src, sizeof src, "%s/inl.c", dir);
    snprintf(bin, sizeof bin, "%s/inl", dir);
    FILE *f = fopen(src, "w");
    if (!f)
        return;
    fputs("static inline __attribute__((always_inline)) long helper(const long *p, long i)\n"
          "{\n"
          "    return p[i] * 3; /* helper body */\n"
          "}\n"
          "__attribute__((noinline, noipa)) long outer(const long *p, long n)\n"
          "{\n"
          "    long s = 0;\n"
          "    for (long i = 0; i < n; ++i)\n"
          "        s += helper(p, i);\n"
          "    return s;\n"
          "}\n"
          "int main(int argc, char **argv)\n"
          "{\n"
          "    (void)argv;\n"
          "    long a[4] = {argc, 2, 3, 4};\n"
          "    return (int)outer(a, argc);\n"
          "}\n",
          f);
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "riscv64-linux-gnu-gcc -O2 -g -static -o '%s' '%s' 2>/dev/null", bin, src);
    if (system(cmd) == 0)
        check_load(bin, src, "outer", "helper body", 8, "helper");
    else
        fprintf(stderr, "riscv64-linux-gnu-gcc unavailable: inline check skipped\n");
    unlink(bin);
    unlink(src);
    rmdir(dir);
}

static void check_speed(const char *bin)
{
    edan_error err = {0};
    edan_srcmap *m = edan_srcmap_open(bin, &err);
    CHECK(m != NULL, "%s", err.msg);
    if (!m)
        return;
    edan_elf_func r = {0};
    if (!func_range(bin, "kernel", &r)) {
        edan_srcmap_close(m);
        return;
    }
    /* Distinct pcs, as a trace with a large static footprint would bring: every halfword from the start of .text. */
    edan_srcloc loc;
    uint64_t base = r.start & ~(uint64_t)0xffff;
    double t0 = now_sec();
    unsigned long hits = 0;
    for (uint64_t i = 0; i < 100000; i++)
        hits += edan_srcmap_lookup(m, base + 2 * i, &loc);
    double t1 = now_sec();
    /* Repeated lookups of a small working set: what the report does per dynamic instruction. */
    unsigned long rep_hits = 0;
    uint64_t span = (r.end - r.start) / 2;
    for (uint64_t i = 0; i < 100000; i++)
        rep_hits += edan_srcmap_lookup(m, r.start + 2 * (i % span), &loc);
    double t2 = now_sec();
    printf("speed: 100000 distinct pcs (first lookup, %lu found) in %.1f ms (%.2f us each); "
           "100000 repeated lookups in %.2f ms (%.1f ns each)\n",
           hits, (t1 - t0) * 1e3, (t1 - t0) * 1e6 / 1e5, (t2 - t1) * 1e3, (t2 - t1) * 1e9 / 1e5);
    CHECK(rep_hits == 100000, "repeated lookups in kernel: %lu of 100000 found", rep_hits);
    CHECK(t2 - t1 < 0.5, "100000 repeated lookups took %.3f s", t2 - t1);
    CHECK(t1 - t0 < 20.0, "100000 distinct lookups took %.3f s", t1 - t0);
    edan_srcmap_close(m);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        snprintf(build_dir, sizeof build_dir, "%s", argv[1]);
    if (argc > 2) {
        snprintf(src_dir, sizeof src_dir, "%s", argv[2]);
    } else {
        /* __FILE__ is .../tests/srcmap_test.c when built from the repo: the sources are in ../examples. */
        snprintf(src_dir, sizeof src_dir, "%s", __FILE__);
        char *slash = strrchr(src_dir, '/');
        if (slash) {
            *slash = '\0';
            slash = strrchr(src_dir, '/');
        }
        if (slash)
            strcpy(slash, "/examples");
        else
            snprintf(src_dir, sizeof src_dir, "/work/main/examples");
    }
    if (elf_version(EV_CURRENT) == EV_NONE) {
        fprintf(stderr, "libelf unusable\n");
        return 1;
    }
    char bin[8192], src[8192];
    snprintf(bin, sizeof bin, "%s/pointer_chase", build_dir);
    snprintf(src, sizeof src, "%s/pointer_chase.c", src_dir);
    check_load(bin, src, "kernel", "next[", 8, "kernel");

    char sum_bin[8192], sum_src[8192];
    snprintf(sum_bin, sizeof sum_bin, "%s/sum", build_dir);
    snprintf(sum_src, sizeof sum_src, "%s/sum.c", src_dir);
    check_load(sum_bin, sum_src, "kernel", "sum += arr[i];", 4, "kernel");

    check_outside(bin);
    check_errors(sum_bin, sum_src);
    check_inline();
    check_speed(bin);
    return check_summary();
}
