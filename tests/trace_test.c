/*
 * trace_test.c - tests of the trace I/O stage: code table, binary writer and
 * reader (round trips, truncation, corruption, write errors), text reader
 * golden cases and text round trips. Prints "N passed, N failed".
 *
 * Usage: trace_test [tmpdir]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/riscv.h"
#include "trace/exec.h"
#include "trace/trace_file.h"
#include "trace/trace_format.h"
#include "trace/trace_text.h"
#include "trace_test.h"
#include "util/files.h"

int n_pass, n_fail;
char tmpdir[512] = "/tmp";

char *tmp_path(const char *name)
{
    static char buf[8][768];
    static int k;
    char *p = buf[k++ & 7];
    snprintf(p, sizeof buf[0], "%s/edan_trace_test_%d_%s", tmpdir, (int)getpid(), name);
    return p;
}

/* ---- deterministic random numbers -------------------------------------- */

static uint64_t rng_state = 0x123456789abcdefull;

uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t rnd_below(uint64_t n)
{
    return rnd() % n;
}

/* ---- RISC-V encodings --------------------------------------------------- */

static uint32_t enc_i(uint32_t opc, uint32_t f3, uint32_t rd, uint32_t rs1, int32_t imm)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

static uint32_t enc_s(uint32_t opc, uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm)
{
    uint32_t u = (uint32_t)imm & 0xfff;
    return (u >> 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 31) << 7 | opc;
}

static uint32_t enc_r(uint32_t opc, uint32_t f7, uint32_t f3, uint32_t rd, uint32_t rs1, uint32_t rs2)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

static uint32_t enc_b(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t off)
{
    uint32_t u = (uint32_t)off;
    return ((u >> 12) & 1) << 31 | ((u >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | ((u >> 1) & 0xf) << 8 |
           ((u >> 11) & 1) << 7 | 0x63;
}

static uint32_t enc_amo(uint32_t f5, uint32_t f3, uint32_t rd, uint32_t rs1, uint32_t rs2)
{
    return f5 << 27 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x2f;
}

/* A pool of real encodings: loads, stores, AMOs, lr/sc, FP memory, ALU,
 * branches and compressed forms. */
static uint32_t pool_enc(unsigned k)
{
    switch (k % 22) {
    case 0:
        return enc_i(0x03, 2, 14, 15, 0); /* lw a4,0(a5) */
    case 1:
        return enc_i(0x03, 3, 10, 2, 8); /* ld a0,8(sp) */
    case 2:
        return enc_i(0x03, 4, 11, 12, -3); /* lbu a1,-3(a2) */
    case 3:
        return enc_s(0x23, 3, 2, 10, 16); /* sd a0,16(sp) */
    case 4:
        return enc_s(0x23, 2, 15, 14, -4); /* sw a4,-4(a5) */
    case 5:
        return enc_s(0x23, 0, 11, 12, 1); /* sb a2,1(a1) */
    case 6:
        return enc_i(0x13, 0, 15, 15, 4); /* addi a5,a5,4 */
    case 7:
        return enc_r(0x33, 0, 0, 10, 11, 12); /* add a0,a1,a2 */
    case 8:
        return enc_b(1, 13, 15, -8); /* bne a3,a5,-8 */
    case 9:
        return enc_amo(0x00, 2, 10, 12, 11); /* amoadd.w a0,a1,(a2) */
    case 10:
        return enc_amo(0x01, 3, 10, 12, 11); /* amoswap.d a0,a1,(a2) */
    case 11:
        return enc_amo(0x02, 2, 10, 12, 0); /* lr.w a0,(a2) */
    case 12:
        return enc_amo(0x03, 2, 13, 12, 11); /* sc.w a3,a1,(a2) */
    case 13:
        return enc_i(0x07, 3, 10, 11, 24); /* fld fa0,24(a1) */
    case 14:
        return enc_s(0x27, 3, 11, 10, 32); /* fsd fa0,32(a1) */
    case 15:
        return 0x41c8; /* c.lw a0,4(a1) */
    case 16:
        return 0xc588; /* c.sw a0,8(a1) */
    case 17:
        return 0x0505; /* c.addi a0,1 */
    case 18:
        return 0x6588; /* c.ld a0,8(a1) */
    case 19:
        return enc_r(0x33, 1, 0, 10, 11, 12); /* mul a0,a1,a2 */
    case 20:
        return 0x8082; /* c.jr ra (ret) */
    default:
        return enc_i(0x03, 1, 9, 8, 2); /* lh s1,2(s0) */
    }
}

synth make_code(unsigned n)
{
    synth s = {edan_code_table_new(), 0};
    uint64_t pc = 0x10000;
    for (unsigned i = 0; i < n; i++) {
        uint32_t raw = pool_enc(i);
        uint8_t b[4] = {(uint8_t)raw, (uint8_t)(raw >> 8), (uint8_t)(raw >> 16), (uint8_t)(raw >> 24)};
        edan_insn in;
        edan_insn_clear(&in);
        unsigned len = edan_rv_insn_length((uint16_t)raw);
        edan_decode_status st = edan_rv_decode(b, len, pc, &in);
        if (st != EDAN_DECODE_OK) {
            fprintf(stderr, "test encoding %u (0x%x) does not decode\n", i % 22, raw);
            exit(2);
        }
        in.pc = pc;
        in.raw = raw;
        edan_code_table_add(s.code, &in);
        pc += len;
        s.n++;
    }
    return s;
}

/* A random stream: sequential runs (seq percent of the records continue one)
 * with strided addresses, random jumps, random and extreme addresses,
 * NO_ACCESS, vcpu switches. */
edan_exec *make_stream(const synth *s, size_t n, unsigned seq)
{
    edan_exec *v = calloc(n, sizeof *v);
    uint64_t *stride = calloc(s->n, sizeof *stride), *cur = calloc(s->n, sizeof *cur);
    for (uint32_t i = 0; i < s->n; i++) {
        stride[i] = (rnd_below(4) == 0) ? rnd() : 8 * rnd_below(5);
        cur[i] = rnd_below(2) ? 0x4000800000ull + rnd_below(1 << 20) : rnd();
    }
    uint32_t id = 0;
    uint16_t vcpu = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t c = rnd_below(100);
        if (c < seq)
            id = (id + 1) % s->n;
        else if (c < seq + (100 - seq) * 5 / 6)
            id = (uint32_t)rnd_below(s->n);
        if (rnd_below(500) == 0)
            vcpu = rnd_below(10) == 0 ? 65535 : (uint16_t)rnd_below(4);
        const edan_insn *in = edan_code_table_get(s->code, id);
        edan_exec *e = &v[k];
        e->insn = in;
        e->id = id;
        e->vcpu = vcpu;
        if (in->mem != EDAN_MEM_NONE) {
            uint64_t m = rnd_below(1000);
            if (m < 30) {
                e->flags = EDAN_EXEC_NO_ACCESS;
            } else if (m < 40) {
                e->addr = rnd();
            } else if (m < 45) {
                /* the one delta whose zigzag needs 65 bits */
                e->addr = cur[id] + 0x8000000000000000ull;
                cur[id] = e->addr;
            } else if (m < 47) {
                e->addr = m & 1 ? UINT64_MAX : 0;
            } else {
                cur[id] += stride[id];
                e->addr = cur[id];
            }
        }
    }
    free(stride);
    free(cur);
    return v;
}

bool same_record(const edan_exec *a, const edan_exec *b, bool check_raw, char *why, size_t cap)
{
    if (a->insn->pc != b->insn->pc) {
        snprintf(why, cap, "pc 0x%" PRIx64 " vs 0x%" PRIx64, a->insn->pc, b->insn->pc);
        return false;
    }
    if (check_raw && a->insn->raw != b->insn->raw) {
        snprintf(why, cap, "raw 0x%x vs 0x%x", a->insn->raw, b->insn->raw);
        return false;
    }
    if (a->insn->mem != b->insn->mem || a->insn->mem_size != b->insn->mem_size) {
        snprintf(why, cap, "mem %u/%u vs %u/%u", a->insn->mem, a->insn->mem_size, b->insn->mem, b->insn->mem_size);
        return false;
    }
    if (a->vcpu != b->vcpu) {
        snprintf(why, cap, "vcpu %u vs %u", a->vcpu, b->vcpu);
        return false;
    }
    if (a->insn->mem != EDAN_MEM_NONE) {
        if (a->flags != b->flags) {
            snprintf(why, cap, "flags %u vs %u", a->flags, b->flags);
            return false;
        }
        if (!(a->flags & EDAN_EXEC_NO_ACCESS) && a->addr != b->addr) {
            snprintf(why, cap, "addr 0x%" PRIx64 " vs 0x%" PRIx64, a->addr, b->addr);
            return false;
        }
    } else if (b->flags != (a->flags & EDAN_EXEC_WARM)) {
        snprintf(why, cap, "flags %u on a non-memory instruction", b->flags);
        return false;
    }
    return true;
}

/* write_binary() compresses blocks on the writer's thread (the default); its trace may hold warm records */
static bool write_in_background = true, write_warm = false;

int write_binary(const char *path, const edan_exec *v, size_t n, size_t block, int level, edan_error *err)
{
    edan_trace_meta meta = {
        .binary = "/bin/prog", .args = "a b c", .filter = "main,foo", .filter_callees = "include", .warm = write_warm};
    edan_files_forget(); /* a new command: the file it read before may be written now */
    edan_trace_writer *w = edan_trace_writer_open(path, &meta, err);
    if (!w)
        return -1;
    edan_trace_writer_set_background(w, write_in_background);
    if (block)
        edan_trace_writer_set_block_size(w, block);
    if (level)
        edan_trace_writer_set_level(w, level);
    edan_consumer c = edan_trace_writer_consumer(w);
    size_t i = 0;
    while (i < n) {
        size_t k = 1 + rnd_below(5000);
        if (k > n - i)
            k = n - i;
        c.consume(c.ctx, v + i, k);
        i += k;
    }
    if (c.finish(c.ctx) != 0) {
        edan_trace_writer_close(w, err);
        return -1;
    }
    return edan_trace_writer_close(w, err);
}

/* Read a whole source and compare with v[0..n). Returns the number of
 * mismatches (reporting the first); -1 if reading failed. */
long compare_source(edan_trace_source *s, const edan_exec *v, size_t n, bool check_raw, edan_error *err)
{
    edan_exec buf[777];
    size_t k = 0;
    long bad = 0;
    long got;
    while ((got = edan_trace_source_next(s, buf, 1 + rnd_below(777), err)) > 0) {
        for (long j = 0; j < got; j++, k++) {
            char why[256];
            if (k >= n) {
                if (!bad++)
                    fprintf(stderr, "extra record %zu\n", k);
                continue;
            }
            if (!same_record(&v[k], &buf[j], check_raw, why, sizeof why) && !bad++)
                fprintf(stderr, "record %zu differs: %s\n", k, why);
        }
    }
    if (got < 0)
        return -1;
    if (k != n) {
        fprintf(stderr, "read %zu records, expected %zu\n", k, n);
        bad++;
    }
    return bad;
}

/* ---- tests ---------------------------------------------------------------- */

static void test_code_table(void)
{
    synth s = make_code(10000);
    bool ok = true;
    for (uint32_t i = 0; i < s.n && ok; i++) {
        const edan_insn *in = edan_code_table_get(s.code, i);
        ok = edan_code_table_find(s.code, in->pc, in->raw) == i;
    }
    CHECK(ok, "find returns the added id");
    CHECK(edan_code_table_find(s.code, 0x1, 0x13) == -1, "absent");
    CHECK(edan_code_table_size(s.code) == 10000, "size");
    CHECK(edan_code_table_get(s.code, 10000) == NULL, "get out of range");
    edan_code_table_free(s.code);
}

static void test_round_trip(void)
{
    synth s = make_code(300);
    size_t n = 1500000;
    edan_exec *v = make_stream(&s, n, 70);
    const char *path = tmp_path("rt.edt");
    edan_error err = {0};
    int rc = write_binary(path, v, n, 256 * 1024, 0, &err);
    CHECK(rc == 0, "write: %s", err.msg);
    CHECK(edan_trace_detect(path, &err) == EDAN_TRACE_BINARY, "detect binary");
    edan_trace_source *src = edan_trace_source_open(path, &err);
    CHECK(src != NULL, "open: %s", err.msg);
    if (src) {
        const edan_trace_meta *m = edan_trace_source_meta(src);
        CHECK(m->binary && strcmp(m->binary, "/bin/prog") == 0, "meta binary");
        CHECK(m->args && strcmp(m->args, "a b c") == 0, "meta args");
        CHECK(m->filter && strcmp(m->filter, "main,foo") == 0, "meta filter");
        CHECK(m->filter_callees && strcmp(m->filter_callees, "include") == 0, "meta callees");
        CHECK(m->created_by && m->created_at, "meta created");
        long bad = compare_source(src, v, n, true, &err);
        CHECK(bad == 0, "round trip mismatches: %ld %s", bad, err.msg);
        CHECK(edan_code_table_size(edan_trace_source_code(src)) <= s.n, "static count");
        edan_trace_source_close(src);
    }
    edan_trace_reader *r = edan_trace_reader_open(path, &err);
    CHECK(r && edan_trace_reader_header_count(r) == n, "header record_count patched");
    edan_trace_reader_close(r);

    /* Producer ids arriving out of first-seen order, and sparse. */
    edan_exec *w = malloc(n / 10 * sizeof *w);
    for (size_t i = 0; i < n / 10; i++) {
        w[i] = v[i];
        w[i].id = (s.n - 1 - v[i].id) * 7;
    }
    rc = write_binary(path, w, n / 10, 0, 1, &err);
    CHECK(rc == 0, "write permuted ids: %s", err.msg);
    src = edan_trace_source_open(path, &err);
    CHECK(src && compare_source(src, w, n / 10, true, &err) == 0, "permuted ids: %s", err.msg);
    edan_trace_source_close(src);

    /* Empty trace. */
    rc = write_binary(path, v, 0, 0, 0, &err);
    CHECK(rc == 0, "write empty: %s", err.msg);
    src = edan_trace_source_open(path, &err);
    edan_exec one;
    CHECK(src && edan_trace_source_next(src, &one, 1, &err) == 0, "empty trace: %s", err.msg);
    edan_trace_source_close(src);

    /* Long runs of the next instruction in sequence, which the reader takes 16 at a time. */
    edan_exec *runs = make_stream(&s, n / 3, 97);
    rc = write_binary(path, runs, n / 3, 0, 0, &err);
    CHECK(rc == 0, "write long runs: %s", err.msg);
    src = edan_trace_source_open(path, &err);
    CHECK(src && compare_source(src, runs, n / 3, true, &err) == 0, "long runs: %s", err.msg);
    edan_trace_source_close(src);

    free(runs);
    free(w);
    free(v);
    unlink(path);
    edan_code_table_free(s.code);
}

/* Warm records (version 4 on): their flag survives, in runs long and short; a trace opened without them refuses one. */
static void test_warm_records(void)
{
    synth s = make_code(200);
    size_t n = 300000;
    edan_exec *v = make_stream(&s, n, 70);
    bool warm = false;
    for (size_t i = 0; i < n; i++) {
        warm ^= rnd_below(i < n / 2 ? 3000 : 3) == 0;
        v[i].flags = (uint16_t)(v[i].flags | (warm ? EDAN_EXEC_WARM : 0));
    }
    const char *path = tmp_path("warm.edt");
    edan_error err = {0};
    write_warm = true;
    CHECK(write_binary(path, v, n, 64 * 1024, 0, &err) == 0, "write warm records: %s", err.msg);
    write_warm = false;
    size_t len = 0;
    uint8_t *b = slurp(path, &len);
    CHECK(b && len > 12 && b[8] == 5, "a trace with warm records is version 5");
    free(b);
    edan_trace_source *src = edan_trace_source_open(path, &err);
    CHECK(src && edan_trace_source_meta(src)->warm, "its meta says warm: %s", err.msg);
    CHECK(src && compare_source(src, v, n, true, &err) == 0, "warm records round trip: %s", err.msg);
    edan_trace_source_close(src);
    err.set = false;
    CHECK(write_binary(path, v, n, 0, 0, &err) != 0 && strstr(err.msg, "warm record"), "refused: %s", err.msg);
    unlink(path);
    free(v);
    edan_code_table_free(s.code);
}

/* The header_len field of a binary trace's fixed header (little-endian). */
uint32_t header_len_of(const uint8_t *b)
{
    const uint8_t *p = b + offsetof(struct edan_trace_header_fixed, header_len);
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    *n = fread(b, 1, (size_t)len, f);
    fclose(f);
    return b;
}

/* Compressing on the writer's thread or in the caller's gives the same file (past the header's creation time). */
static void test_background_same_bytes(void)
{
    synth s = make_code(200);
    size_t n = 400000;
    edan_exec *v = make_stream(&s, n, 70);
    const char *names[2] = {"bg1.edt", "bg0.edt"};
    uint8_t *bytes[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    edan_error err = {0};
    for (int k = 0; k < 2; k++) {
        const char *path = tmp_path(names[k]);
        write_in_background = k == 0;
        CHECK(write_binary(path, v, n, 4096, 0, &err) == 0, "write %s: %s", names[k], err.msg);
        bytes[k] = slurp(path, &len[k]);
        unlink(path);
    }
    write_in_background = true;
    size_t header = bytes[0] && len[0] >= sizeof(struct edan_trace_header_fixed) ? header_len_of(bytes[0]) : 0;
    CHECK(bytes[0] && bytes[1] && len[0] == len[1] && len[0] > header + 100 * 4096 / 8 &&
              memcmp(bytes[0] + header, bytes[1] + header, len[0] - header) == 0,
          "the same blocks and trailer with and without the compressor's thread (%zu, %zu bytes)", len[0], len[1]);
    free(bytes[0]);
    free(bytes[1]);
    free(v);
    edan_code_table_free(s.code);
}

/* Read a memory image as a binary trace to the end. Returns records read;
 * *rc = 0 clean end, -1 error (message in err). */
size_t read_mem(const uint8_t *b, size_t n, const char *name, int *rc, edan_error *err)
{
    edan_error_clear(err);
    FILE *f = fmemopen((void *)b, n ? n : 1, "rb");
    if (n == 0) {
        fclose(f);
        f = fopen("/dev/null", "rb");
    }
    edan_trace_reader *r = edan_trace_reader_open_file(f, name, err);
    if (!r) {
        *rc = -1;
        return 0;
    }
    edan_exec buf[512];
    size_t total = 0;
    long got;
    while ((got = edan_trace_reader_next(r, buf, 512, err)) > 0)
        total += (size_t)got;
    *rc = got < 0 ? -1 : 0;
    edan_trace_reader_close(r);
    return total;
}

static void test_truncation_and_flips(void)
{
    synth s = make_code(40);
    size_t n = 3000;
    edan_exec *v = make_stream(&s, n, 70);
    const char *path = tmp_path("small.edt");
    edan_error err = {0};
    CHECK(write_binary(path, v, n, 2048, 0, &err) == 0, "write small: %s", err.msg);
    size_t len;
    uint8_t *b = slurp(path, &len);
    int rc;
    size_t total = read_mem(b, len, "small.edt", &rc, &err);
    CHECK(rc == 0 && total == n, "full small file reads back: %s", err.msg);

    int bad_trunc = 0, no_offset = 0;
    for (size_t k = 0; k < len; k += (k < 200 ? 1 : 7)) {
        read_mem(b, k, "small.edt", &rc, &err);
        if (rc == 0)
            bad_trunc++;
        if (!strstr(err.msg, "small.edt") || !strstr(err.msg, "byte")) {
            if (!no_offset++)
                fprintf(stderr, "truncated at %zu: message lacks name/offset: %s\n", k, err.msg);
        }
    }
    CHECK(bad_trunc == 0, "%d truncations went undetected", bad_trunc);
    CHECK(no_offset == 0, "%d truncation messages lack the file name or offset", no_offset);
    read_mem(b, len - 1, "small.edt", &rc, &err);
    CHECK(strstr(err.msg, "truncated") != NULL, "last byte missing: %s", err.msg);

    /* Cut exactly before the trailer: "truncated at byte N (no trailer...)" */
    read_mem(b, len - 48, "small.edt", &rc, &err);
    char want[128];
    snprintf(want, sizeof want, "truncated at byte %zu (no trailer", len - 48);
    CHECK(rc < 0 && strstr(err.msg, want), "no trailer: %s", err.msg);

    /* Trailing garbage. */
    uint8_t *g = malloc(len + 1);
    memcpy(g, b, len);
    g[len] = 0;
    read_mem(g, len + 1, "small.edt", &rc, &err);
    CHECK(rc < 0 && strstr(err.msg, "after the trailer"), "trailing garbage: %s", err.msg);

    /* Bit flips: detected or harmless, never a crash (ASan/UBSan watch). */
    int undetected = 0, flips = 0;
    for (int t = 0; t < 3000; t++) {
        memcpy(g, b, len);
        size_t at = rnd_below(len);
        g[at] ^= (uint8_t)(1u << rnd_below(8));
        read_mem(g, len, "small.edt", &rc, &err);
        flips++;
        if (rc == 0 && getenv("EDAN_TEST_VERBOSE"))
            fprintf(stderr, "undetected flip at byte %zu of %zu (header_len %u)\n", at, len,
                    (unsigned)header_len_of(b));
        if (rc == 0)
            undetected++;
        else if (!strstr(err.msg, "small.edt"))
            CHECK(0, "flip error lacks the file name: %s", err.msg);
    }
    /* Undetected: flips in the free-form metadata text, and flips in zstd
     * bits that do not change the decompressed events (harmless). */
    printf("bit flips: %d of %d undetected (metadata text or no effect on the events)\n", undetected, flips);
    CHECK(undetected < flips / 10, "too many undetected flips: %d", undetected);

    /* Specific corruptions name the offset. */
    memcpy(g, b, len);
    uint32_t hlen = header_len_of(b);
    g[hlen] ^= 0xff; /* first block's magic */
    read_mem(g, len, "small.edt", &rc, &err);
    snprintf(want, sizeof want, "small.edt: byte %u: expected a block", hlen);
    CHECK(rc < 0 && strstr(err.msg, want), "block magic: %s", err.msg);
    memcpy(g, b, len);
    g[8] = 7; /* version */
    read_mem(g, len, "small.edt", &rc, &err);
    CHECK(rc < 0 && strstr(err.msg, "byte 8: unsupported format version 7 (expected 1 to 6)"), "version: %s", err.msg);
    g[8] = 2; /* a version before ISAs other than riscv64 */
    g[16] = 2;
    read_mem(g, len, "small.edt", &rc, &err);
    CHECK(rc < 0 && strstr(err.msg, "byte 16: unsupported ISA 2 in a version 2 trace"), "ISA in version 2: %s",
          err.msg);
    g[8] = 3;
    g[16] = 4;
    read_mem(g, len, "small.edt", &rc, &err);
    CHECK(rc < 0 && strstr(err.msg, "byte 16: unsupported ISA 4 in a version 3 trace"), "ISA 4: %s", err.msg);
    g[16] = 1;
    g[8] = 0;
    read_mem(g, len, "small.edt", &rc, &err);
    CHECK(rc < 0 && strstr(err.msg, "byte 8: unsupported format version 0"), "version 0: %s", err.msg);
    memcpy(g, b, len);
    g[hlen + 8 + 3] = 0x7f; /* raw_len far beyond the limit */
    read_mem(g, len, "small.edt", &rc, &err);
    CHECK(rc < 0 && strstr(err.msg, "exceeds the limit"), "raw_len: %s", err.msg);
    memcpy(g, b, len);
    g[hlen + 32 + 20] ^= 0x10; /* inside the first zstd frame */
    read_mem(g, len, "small.edt", &rc, &err);
    CHECK(rc < 0 && strstr(err.msg, "small.edt: byte"), "payload flip: %s", err.msg);
    memcpy(g, b, len);
    g[len - 48 + 9] ^= 1; /* trailer record_count */
    read_mem(g, len, "small.edt", &rc, &err);
    CHECK(rc < 0 && strstr(err.msg, "checksum"), "trailer flip: %s", err.msg);

    free(g);
    free(b);
    free(v);
    unlink(path);
    edan_code_table_free(s.code);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

static void test_text_golden(void)
{
    const char *path = tmp_path("golden.txt");
    write_file(path, "# a comment line\n"
                     "0;0x104be;lw a4,0(a5);0x4000800210\n"
                     "lw a4,0(a5);0x40080290\n"
                     "\n"
                     "0;ret \n"
                     "1;bne a3,a5,-6 # 0x104be\n"
                     "3;amoadd.w a0,a1,(a2);0x1000;0x1000\r\n"
                     "2;sd a0,16(sp)\n"
                     "  lw a4,0(a5) ; 0x40080298  \n"
                     "0;0x104c2;sd a0,16(sp);0x7ffc0;\n"
                     "sw a4,-4(a5);0xABCDEF\n");
    CHECK(edan_trace_detect(path, NULL) == EDAN_TRACE_TEXT, "detect text");
    edan_error err = {0};
    edan_trace_source *s = edan_trace_source_open(path, &err);
    CHECK(s != NULL, "open text: %s", err.msg);
    if (!s)
        return;
    edan_exec r[32];
    long n = edan_trace_source_next(s, r, 32, &err);
    CHECK(n == 9, "9 records, got %ld: %s", n, err.msg);
    if (n == 9) {
        CHECK(r[0].vcpu == 0 && r[0].insn->pc == 0x104be && r[0].addr == 0x4000800210 &&
                  r[0].insn->mem == EDAN_MEM_LOAD && r[0].insn->mem_size == 4 && r[0].flags == 0,
              "line with vcpu, pc, address");
        CHECK(r[1].insn->pc == 0 && r[1].addr == 0x40080290 && r[1].id != r[0].id, "line without vcpu and pc");
        CHECK(r[2].insn->mem == EDAN_MEM_NONE && r[2].insn->flow == EDAN_FLOW_RETURN, "ret with trailing space");
        CHECK(r[3].vcpu == 1 && r[3].insn->flow == EDAN_FLOW_BRANCH, "branch with comment");
        CHECK(r[4].vcpu == 3 && r[4].insn->mem == EDAN_MEM_AMO && r[4].addr == 0x1000 && r[4].insn->mem_size == 4,
              "amo with a repeated address, CRLF");
        CHECK(r[5].insn->mem == EDAN_MEM_STORE && r[5].insn->mem_size == 8 && r[5].flags == EDAN_EXEC_NO_ACCESS &&
                  r[5].vcpu == 2,
              "store without an address");
        CHECK(r[6].id == r[1].id && r[6].addr == 0x40080298, "same text, spaces, same id");
        CHECK(r[7].insn->pc == 0x104c2 && r[7].addr == 0x7ffc0, "trailing ';'");
        CHECK(r[8].addr == 0xabcdef && r[8].insn->mem_size == 4, "upper hex");
    }
    CHECK(edan_trace_source_next(s, r, 32, &err) == 0, "clean end");
    CHECK(edan_code_table_size(edan_trace_source_code(s)) == 8, "distinct static: %u",
          edan_code_table_size(edan_trace_source_code(s)));
    edan_trace_source_close(s);

    struct {
        const char *text;
        const char *want;
    } bad[] = {
        {"0;lw a4,0(a5);0x10\n\nlx a4,0(a5)\n", ":3: unknown mnemonic 'lx'"},
        {"0;amoadd.w a0,a1,(a2);0x10;0x18\n", ":1: 'amoadd.w a0,a1,(a2)' lists different "
                                              "data addresses 0x10 and 0x18"},
        {"0;lw a4,0(a5);zz\n", ":1: expected a 0x data address, got 'zz'"},
        /* a trace cut in the middle of its last line (kill -9, Ctrl-C): an error, not a changed last record */
        {"0;lw a4,0(a5);0x10\n0;lw a4,0(a5);0x1", ":2: the last line has no newline"},
        {"0;lw a4,0(a5);0x\n", ":1: expected a 0x data address, got '0x'"},
        {"0;lw a4,0(a5);0x12345678123456789\n", ":1: expected a 0x data address"},
        {"0;0x100;0x200\n", ":1: expected the disassembly, got '0x200'"},
        {"7\n", ":1: missing disassembly"},
        {"99999;ret\n", ":1: vcpu 99999 out of range"},
        {"0;0x10g;ret\n", ":1: bad program counter '0x10g'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        write_file(path, bad[i].text);
        edan_error_clear(&err);
        s = edan_trace_source_open(path, &err);
        long k;
        while ((k = edan_trace_source_next(s, r, 32, &err)) > 0) {
        }
        CHECK(k < 0 && strstr(err.msg, path) && strstr(err.msg, bad[i].want), "want '%s', got '%s'", bad[i].want,
              err.msg);
        edan_trace_source_close(s);
    }

    /* A line over the limit. */
    FILE *f = fopen(path, "wb");
    fputs("0;ret\n0;ret\n", f);
    for (int i = 0; i < 5000; i++)
        fputc('x', f);
    fputs("\n", f);
    fclose(f);
    edan_error_clear(&err);
    s = edan_trace_source_open(path, &err);
    long k, total = 0;
    while ((k = edan_trace_source_next(s, r, 32, &err)) > 0)
        total += k;
    CHECK(k < 0 && total == 2 && strstr(err.msg, ":3: line is longer than 4096 bytes"), "long line: %s", err.msg);
    edan_trace_source_close(s);
    unlink(path);
}

/* Binary -> text (with and without pc) -> text reader keeps every record's
 * pc (with_pc), address, memory kind and size, flags and vcpu. */
static void test_text_round_trips(void)
{
    synth s = make_code(220);
    size_t n = 100000;
    edan_exec *v = make_stream(&s, n, 70);
    const char *bin = tmp_path("tr.edt"), *txt = tmp_path("tr.txt");
    edan_error err = {0};
    CHECK(write_binary(bin, v, n, 4096, 0, &err) == 0, "write: %s", err.msg);
    for (int with_pc = 1; with_pc >= 0; with_pc--) {
        edan_trace_source *src = edan_trace_source_open(bin, &err);
        edan_files_forget(); /* a new command: the file it read before may be written now */
        edan_text_writer *tw = edan_text_writer_open(txt, with_pc, &err);
        CHECK(src && tw, "open: %s", err.msg);
        if (!src || !tw)
            break;
        edan_consumer c = edan_text_writer_consumer(tw);
        CHECK(edan_trace_source_run(src, &c, &err) == 0, "bin -> text: %s", err.msg);
        CHECK(edan_text_writer_close(tw, &err) == 0, "close: %s", err.msg);
        edan_trace_source_close(src);

        src = edan_trace_source_open(txt, &err);
        CHECK(src && edan_trace_source_format(src) == EDAN_TRACE_TEXT, "text detected");
        if (!src)
            break;
        if (with_pc) {
            long bad = compare_source(src, v, n, false, &err);
            CHECK(bad == 0, "bin -> text -> records: %ld mismatches: %s", bad, err.msg);
        } else {
            /* Without a pc field every record reads back with pc 0. */
            edan_exec buf[1000];
            long got;
            size_t k = 0, bad = 0;
            while ((got = edan_trace_source_next(src, buf, 1000, &err)) > 0) {
                for (long j = 0; j < got; j++, k++) {
                    edan_insn copy = *v[k].insn;
                    copy.pc = 0;
                    edan_exec e = v[k];
                    e.insn = &copy;
                    char why[256];
                    if (k < n && !same_record(&e, &buf[j], false, why, sizeof why) && !bad++)
                        fprintf(stderr, "record %zu: %s\n", k, why);
                }
            }
            CHECK(got == 0 && k == n && bad == 0, "no-pc text: %zu records, %zu bad: %s", k, bad, err.msg);
        }
        edan_trace_source_close(src);
    }

    /* text -> text is stable: the second generation equals the first. */
    edan_trace_source *src = edan_trace_source_open(txt, &err);
    const char *txt2 = tmp_path("tr2.txt");
    edan_files_forget(); /* a new command: the file it read before may be written now */
    edan_text_writer *tw = edan_text_writer_open(txt2, false, &err);
    edan_consumer c = edan_text_writer_consumer(tw);
    CHECK(src && edan_trace_source_run(src, &c, &err) == 0, "text -> text: %s", err.msg);
    edan_text_writer_close(tw, &err);
    edan_trace_source_close(src);
    size_t l1, l2;
    uint8_t *a = slurp(txt, &l1), *b = slurp(txt2, &l2);
    CHECK(a && b && l1 == l2 && memcmp(a, b, l1) == 0, "text -> text identical");
    free(a);
    free(b);
    unlink(bin);
    unlink(txt);
    unlink(txt2);
    free(v);
    edan_code_table_free(s.code);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        snprintf(tmpdir, sizeof tmpdir, "%s", argv[1]);
    else if (getenv("TMPDIR"))
        snprintf(tmpdir, sizeof tmpdir, "%s", getenv("TMPDIR"));
    test_code_table();
    test_exec_runs();
    test_round_trip();
    test_warm_records();
    test_background_same_bytes();
    test_truncation_and_flips();
    test_event_checks();
    test_version1_round_trip();
    test_write_errors();
    test_kernel_writes();
    test_objects();
    test_objects_ahead();
    test_text_golden();
    test_text_round_trips();
    printf("%d passed, %d failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
