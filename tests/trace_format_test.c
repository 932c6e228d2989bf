/*
 * trace_format_test.c - hand-made payloads framed into valid files exercise
 * the event checks the writer never produces; a version 1 file read back;
 * write errors (a full device, a write that fails partway).
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

#include <zstd.h>

#include "trace/trace_internal.h"
#include "trace_test.h"
#include "util/varint.h"

/* Hand-made event payloads, framed into a valid file, exercise the event
 * checks that the writer never produces. */
static size_t frame_events(uint8_t *out, size_t cap, uint32_t version, const uint8_t *ev, size_t evlen, uint32_t n_new,
                           uint64_t n_rec);

/* A file of one block whose payload is ev (version 2: events_len, the events, the addresses); its length. */
static size_t frame_events(uint8_t *out, size_t cap, uint32_t version, const uint8_t *ev, size_t evlen, uint32_t n_new,
                           uint64_t n_rec)
{
    memset(out, 0, 64);
    memcpy(out, EDAN_TRACE_MAGIC, 8);
    edan_put_u32(out + 8, version);
    edan_put_u32(out + 12, 64);
    edan_put_u32(out + 16, 1);
    size_t o = 64;
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    size_t z = ZSTD_compress2(c, out + o + 32, cap - o - 32 - 48, ev, evlen);
    if (ZSTD_isError(z)) {
        fprintf(stderr, "frame_events: %s\n", ZSTD_getErrorName(z));
        exit(2);
    }
    ZSTD_freeCCtx(c);
    edan_put_u32(out + o, EDAN_TRACE_BLOCK_MAGIC);
    edan_put_u32(out + o + 4, (uint32_t)z);
    edan_put_u32(out + o + 8, (uint32_t)evlen);
    edan_put_u32(out + o + 12, n_new);
    edan_put_u64(out + o + 16, n_rec);
    edan_put_u64(out + o + 24, 0);
    o += 32 + z;
    memcpy(out + o, EDAN_TRACE_TRAILER_MAGIC, 8);
    edan_put_u64(out + o + 8, n_rec);
    edan_put_u64(out + o + 16, 1);
    edan_put_u64(out + o + 24, n_new);
    edan_put_u64(out + o + 32, o);
    edan_put_u64(out + o + 40, edan_trace_fnv1a(out + o + 8, 32));
    return o + 48;
}

static void expect_payload_error(uint32_t version, const uint8_t *ev, size_t evlen, uint32_t n_new, uint64_t n_rec,
                                 const char *want, size_t want_records)
{
    uint8_t file[8192];
    size_t len = frame_events(file, sizeof file, version, ev, evlen, n_new, n_rec);
    edan_error err = {0};
    int rc;
    size_t got = read_mem(file, len, "ev.edt", &rc, &err);
    if (!want) {
        CHECK(rc == 0 && got == want_records, "valid events: rc %d got %zu: %s", rc, got, err.msg);
        return;
    }
    CHECK(rc < 0 && strstr(err.msg, want) && strstr(err.msg, "ev.edt: block at byte 64"), "want '%s', got '%s'", want,
          err.msg);
    CHECK(got == want_records, "records before the error: %zu, expected %zu", got, want_records);
}

/* Version 1 events: each address inline after its instruction's event. */
static void expect_event_error(const uint8_t *ev, size_t evlen, uint32_t n_new, uint64_t n_rec, const char *want,
                               size_t want_records)
{
    expect_payload_error(1, ev, evlen, n_new, n_rec, want, want_records);
}

/* Version 2: the events, then the addresses. */
static void expect_split_error(const uint8_t *ev, size_t evlen, const uint8_t *addrs, size_t alen, uint32_t n_new,
                               uint64_t n_rec, const char *want, size_t want_records)
{
    uint8_t payload[4096];
    edan_put_u32(payload, (uint32_t)evlen);
    memcpy(payload + 4, ev, evlen);
    memcpy(payload + 4 + evlen, addrs, alen);
    expect_payload_error(2, payload, 4 + evlen + alen, n_new, n_rec, want, want_records);
}

void test_event_checks(void)
{
    /* lw a4,0(a5) at pc 0x1000: v=0 (id 0 new), pc varint, raw varint, addr. */
    uint8_t lw[] = {0x00, 0x80, 0x20, 0x83, 0xce, 0x1e, 0x00};
    uint8_t ok[32];
    memcpy(ok, lw, sizeof lw);
    ok[6] = 0x11; /* addr delta +8 */
    ok[7] = 0x02; /* id 0 again: v = edan_zigzag(-1) << 1 = 2 */
    ok[8] = 0x11;
    expect_event_error(ok, 9, 1, 2, NULL, 2);
    uint8_t bad_id[] = {0x00, 0x80, 0x20, 0x83, 0xce, 0x1e, 0x00, 0x04};
    expect_event_error(bad_id, sizeof bad_id, 1, 2, "out of range", 1);
    uint8_t reserved[] = {0x03, 0x00};
    expect_event_error(reserved, sizeof reserved, 0, 0, "reserved control event kind 1", 0);
    uint8_t vcpu_big[] = {0x01, 0x80, 0x80, 0x04};
    expect_event_error(vcpu_big, sizeof vcpu_big, 0, 0, "vcpu 65536 out of range", 0);
    uint8_t long_varint[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
    expect_event_error(long_varint, sizeof long_varint, 0, 1, "longer than 10 bytes", 0);
    uint8_t past_end[] = {0x00, 0x80, 0x20, 0x83, 0xce, 0x1e};
    expect_event_error(past_end, sizeof past_end, 1, 1, "runs past the end of the block", 0);
    uint8_t illegal[] = {0x00, 0x80, 0x20, 0x00};
    expect_event_error(illegal, sizeof illegal, 1, 1, "illegal instruction encoding 0x0", 0);
    uint8_t count[] = {0x00, 0x80, 0x20, 0x83, 0xce, 0x1e, 0x00};
    expect_event_error(count, sizeof count, 1, 2, "header says 2 records", 1);
    uint8_t ovf[] = {0x00, 0x80, 0x20, 0x83, 0xce, 0x1e, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
    expect_event_error(ovf, sizeof ovf, 1, 1, "overflows 64 bits", 0);

    /* Version 2: the same lw twice, its addresses apart. */
    const uint8_t lw_twice[] = {0x00, 0x80, 0x20, 0x83, 0xce, 0x1e, 0x02}, two_addrs[] = {0x11, 0x11};
    expect_split_error(lw_twice, sizeof lw_twice, two_addrs, 2, 1, 2, NULL, 2);
    expect_split_error(lw_twice, sizeof lw_twice, two_addrs, 1, 1, 2,
                       "the address varint runs past the end of the block's addresses", 1);
    const uint8_t three_addrs[] = {0x11, 0x11, 0x00};
    expect_split_error(lw_twice, sizeof lw_twice, three_addrs, 3, 1, 2,
                       "1 bytes of addresses (from offset 13 of its 14 decompressed bytes) belong to no memory access",
                       2);
    const uint8_t long_addr[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
    expect_split_error(lw_twice, 6, long_addr, sizeof long_addr, 1, 1, "the address varint is longer than 10 bytes", 0);
    uint8_t short_payload[] = {0x05, 0x00, 0x00, 0x00, 0x00};
    expect_payload_error(2, short_payload, sizeof short_payload, 0, 0,
                         "its events_len 5 does not fit its 5 decompressed bytes (expected at most 1)", 0);
    expect_payload_error(2, short_payload, 3, 0, 0,
                         "its events_len 0 does not fit its 3 decompressed bytes (expected at most 0)", 0);
}

/* A version 1 file of one block holding v[0..n) (the format's previous layout, still read). */
static size_t write_version1(uint8_t *out, size_t cap, const edan_exec *v, size_t n)
{
    uint8_t *ev = malloc(n * 40 + 64), *p = ev;
    uint32_t *fid_of = calloc(1u << 20, sizeof *fid_of); /* producer id -> file id + 1 */
    uint64_t *last = calloc(1u << 20, sizeof *last);
    uint32_t n_defined = 0;
    int64_t prev = -1;
    uint16_t vcpu = 0;
    for (size_t k = 0; k < n; k++) {
        const edan_exec *r = &v[k];
        if (r->vcpu != vcpu) {
            *p++ = 1; /* EDAN_EV_VCPU << 1 | 1 */
            p = edan_varint_put(p, r->vcpu);
            vcpu = r->vcpu;
        }
        const bool is_new = !fid_of[r->id];
        const uint32_t fid = is_new ? n_defined : fid_of[r->id] - 1;
        p = edan_varint_put(p, edan_zigzag((int64_t)fid - prev - 1) << 1);
        if (is_new) {
            fid_of[r->id] = ++n_defined;
            p = edan_varint_put(edan_varint_put(p, r->insn->pc), r->insn->raw);
        }
        if (r->insn->mem != EDAN_MEM_NONE) {
            const uint64_t zz = edan_zigzag((int64_t)(r->addr - last[fid]));
            if (r->flags & EDAN_EXEC_NO_ACCESS) {
                *p++ = 0;
            } else if (zz == UINT64_MAX) { /* a = 2^64 */
                memset(p, 0x80, 9);
                p[9] = 0x02;
                p += 10;
            } else {
                p = edan_varint_put(p, zz + 1);
            }
            if (!(r->flags & EDAN_EXEC_NO_ACCESS))
                last[fid] = r->addr;
        }
        prev = fid;
    }
    size_t len = frame_events(out, cap, 1, ev, (size_t)(p - ev), n_defined, n);
    free(ev);
    free(fid_of);
    free(last);
    return len;
}

/* Version 1 files still read: every record as written, through the same decoder's other layout. */
void test_version1_round_trip(void)
{
    synth s = make_code(300);
    size_t n = 200000;
    edan_exec *v = make_stream(&s, n, 70);
    size_t cap = n * 40 + (1u << 16);
    uint8_t *file = malloc(cap);
    size_t len = write_version1(file, cap, v, n);
    const char *path = tmp_path("v1.edt");
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(file, 1, len, f) == len, "write %s", path);
    if (f)
        fclose(f);
    edan_error err = {0};
    edan_trace_source *src = edan_trace_source_open(path, &err);
    CHECK(src && compare_source(src, v, n, true, &err) == 0, "version 1 round trip: %s", err.msg);
    edan_trace_source_close(src);
    unlink(path);
    free(file);
    free(v);
    edan_code_table_free(s.code);
}

void test_write_errors(void)
{
    edan_error err = {0};
    edan_trace_writer *w = edan_trace_writer_open("/nonexistent-dir/x.edt", NULL, &err);
    CHECK(!w && strstr(err.msg, "/nonexistent-dir/x.edt") && strstr(err.msg, "No such file"), "unwritable path: %s",
          err.msg);

    synth s = make_code(30);
    size_t n = 200000;
    edan_exec *v = make_stream(&s, n, 70);
    edan_error_clear(&err);
    w = edan_trace_writer_open("/dev/full", NULL, &err);
    CHECK(w != NULL, "open /dev/full: %s", err.msg);
    if (w) {
        edan_trace_writer_consume(w, v, n);
        int rc = edan_trace_writer_close(w, &err);
        CHECK(rc != 0 && strstr(err.msg, "/dev/full") && strstr(err.msg, "No space left"), "/dev/full: %s", err.msg);
    }
    /* small blocks: the compressor fails first, the encoder sees it at the next block and stops */
    edan_error_clear(&err);
    w = edan_trace_writer_open("/dev/full", NULL, &err);
    if (w) {
        edan_trace_writer_set_block_size(w, 1024);
        for (size_t i = 0; i < n; i += 1000)
            edan_trace_writer_consume(w, v + i, 1000);
        int rc = edan_trace_writer_close(w, &err);
        CHECK(rc != 0 && strstr(err.msg, "/dev/full") && strstr(err.msg, "No space left"),
              "/dev/full, small blocks: %s", err.msg);
    }
    edan_error_clear(&err);
    edan_text_writer *tw = edan_text_writer_open("/dev/full", true, &err);
    CHECK(tw != NULL, "text open /dev/full: %s", err.msg);
    if (tw) {
        edan_text_writer_consume(tw, v, 1000);
        int rc = edan_text_writer_close(tw, &err);
        CHECK(rc != 0 && strstr(err.msg, "/dev/full") && strstr(err.msg, "No space left"), "text /dev/full: %s",
              err.msg);
    }
    edan_error_clear(&err);
    CHECK(edan_text_writer_open("/nonexistent-dir/x.txt", false, &err) == NULL &&
              strstr(err.msg, "/nonexistent-dir/x.txt"),
          "text unwritable: %s", err.msg);

    /* Records from a text trace have no encodings: the binary writer says so. */
    edan_insn fake;
    edan_insn_clear(&fake);
    fake.pc = 0x100;
    fake.mem = EDAN_MEM_LOAD;
    edan_exec rec = {.insn = &fake, .id = 0};
    const char *path = tmp_path("noenc.edt");
    edan_error_clear(&err);
    w = edan_trace_writer_open(path, NULL, &err);
    edan_trace_writer_consume(w, &rec, 1);
    CHECK(edan_trace_writer_close(w, &err) != 0 && strstr(err.msg, "pc 0x100"), "no encoding: %s", err.msg);
    unlink(path);

    edan_error_clear(&err);
    CHECK(edan_trace_detect("/nonexistent-dir/y", &err) == -1 && strstr(err.msg, "y"), "detect missing: %s", err.msg);
    free(v);
    edan_code_table_free(s.code);
}

/*
 * The kernel's writes (version 5): records of edan_exec_kernel_write() among a
 * stream's measured and warm records, on two vCPUs, at lines near and far
 * (deltas of both signs, the top line), read back exactly and in place; a
 * version 4 file with the event is corrupt, and a writer opened without warm
 * records refuses them.
 */
void test_kernel_writes(void)
{
    synth s = make_code(100);
    const size_t n = 200000;
    edan_exec *prog = make_stream(&s, n, 60);
    edan_exec *v = malloc(2 * n * sizeof *v);
    size_t m = 0, kernel = 0;
    uint64_t line = 0x40000;
    bool warm = false;
    for (size_t i = 0; i < n; i++) {
        warm ^= rnd_below(1000) == 0;
        v[m] = prog[i];
        v[m++].flags |= warm ? EDAN_EXEC_WARM : 0;
        if (rnd_below(500))
            continue;
        /* a call's lines, ascending from a buffer anywhere (the last one at the top of the address space) */
        line = rnd_below(8) ? line + rnd_below(1u << 20) - (1u << 19) : UINT64_MAX / EDAN_KERNEL_LINE - 3;
        for (uint64_t k = 0, lines = 1 + rnd_below(300); k < lines && m < 2 * n && line + k <= UINT64_MAX / 64; k++) {
            v[m++] = edan_exec_kernel_write((line + k) * EDAN_KERNEL_LINE, (uint16_t)(i > n / 2));
            kernel++;
        }
    }
    const char *path = tmp_path("kernel.edt");
    edan_error err = {0};
    edan_trace_meta meta = {.binary = "/bin/prog", .warm = true};
    edan_trace_writer *w = edan_trace_writer_open(path, &meta, &err);
    CHECK(w != NULL, "open: %s", err.msg);
    if (w) {
        edan_trace_writer_set_block_size(w, 32 * 1024);
        edan_consumer c = edan_trace_writer_consumer(w);
        for (size_t i = 0; i < m; i += 3001)
            c.consume(c.ctx, v + i, m - i < 3001 ? m - i : 3001);
        CHECK(c.finish(c.ctx) == 0 && edan_trace_writer_close(w, &err) == 0, "write: %s", err.msg);
    }
    edan_trace_source *src = edan_trace_source_open(path, &err);
    CHECK(src && kernel > 1000 && compare_source(src, v, m, true, &err) == 0,
          "%zu kernel writes among %zu records round trip: %s", kernel, m, err.msg);
    edan_trace_source_close(src);
    unlink(path);
    /* a writer opened without warm records refuses one */
    edan_error_clear(&err);
    w = edan_trace_writer_open(path, NULL, &err);
    edan_exec k = edan_exec_kernel_write(4096, 0);
    edan_trace_writer_consume(w, &k, 1);
    CHECK(edan_trace_writer_close(w, &err) != 0 && strstr(err.msg, "kernel write"), "refused: %s", err.msg);
    unlink(path);
    /* hand-made: kind 2, d = zigzag(64) (line 64, byte 4096), then d = zigzag(-1); version 5 reads two records */
    uint8_t payload[] = {5, 0, 0, 0, EDAN_EV_KERNEL << 1 | 1, 0x80, 0x01, EDAN_EV_KERNEL << 1 | 1, 0x01};
    expect_payload_error(5, payload, sizeof payload, 0, 2, NULL, 2);
    expect_payload_error(4, payload, sizeof payload, 0, 2, "reserved control event kind 2", 0);
    expect_payload_error(5, payload, sizeof payload, 0, 1, "more records than the block header's 1", 1);
    free(v);
    free(prog);
    edan_code_table_free(s.code);
}

/*
 * edan_exec_run() against a record-by-record reference: runs of warm and measured records of every length
 * around its eight-record step, with the other flags set at random (they must not end a run).
 */
void test_exec_runs(void)
{
    static const uint16_t other[] = {0, EDAN_EXEC_NO_ACCESS, EDAN_EXEC_SAMPLE_START, EDAN_EXEC_KERNEL};
    edan_exec v[200];
    long bad = 0;
    for (int trial = 0; trial < 3000; trial++) {
        const size_t n = 1 + rnd_below(200);
        uint16_t warm = rnd_below(2) ? EDAN_EXEC_WARM : 0;
        for (size_t i = 0, left = 0; i < n; i++, left--) {
            if (!left) { /* a new run: short ones often, around 8 and 16, and long ones */
                left = 1 + rnd_below(rnd_below(2) ? 20 : 200);
                warm ^= EDAN_EXEC_WARM;
            }
            v[i] = (edan_exec){.flags = (uint16_t)(warm | other[rnd_below(4)])};
        }
        for (size_t i = 0; i < n; i++) {
            size_t ref = 1;
            while (i + ref < n && (v[i + ref].flags & EDAN_EXEC_WARM) == (v[i].flags & EDAN_EXEC_WARM))
                ref++;
            bad += edan_exec_run(v + i, n - i) != ref;
        }
    }
    CHECK(bad == 0, "edan_exec_run() against the reference: %ld runs differ", bad);
}

/* The shared objects of a dynamically linked program (EDAN_EV_OBJECT, version 6): written at the end, read back. */
void test_objects(void)
{
    synth s = make_code(50);
    const size_t n = 20000;
    edan_exec *v = make_stream(&s, n, 70);
    static char long_path[EDAN_OBJMAP_MAX_PATH + 1];
    memset(long_path, 'x', EDAN_OBJMAP_MAX_PATH);
    long_path[0] = '/';
    edan_object objs[] = {{"/lib/ld-linux-x86-64.so.2", 0x4002806000, 0x400283b000, 0x4002806000},
                          {long_path, 0x7f0000000000, 0x7f0000001000, 0x7effffff0000},
                          {"/usr/lib/libm.so.6", UINT64_MAX - 0x2000, UINT64_MAX, 1}};
    const edan_objmap map = {3, objs};
    for (int cold = 0; cold < 2; cold++)
        for (size_t block = 256; block <= 65536; block *= 256) { /* small blocks: the objects in blocks of theirs */
            const char *path = tmp_path("objects.edt");
            edan_error err = {0};
            edan_trace_meta meta = {.binary = "/bin/prog", .warm = !cold, .objects = true};
            edan_trace_writer *w = edan_trace_writer_open(path, &meta, &err);
            CHECK(w != NULL, "open: %s", err.msg);
            if (!w)
                continue;
            edan_trace_writer_set_block_size(w, block);
            edan_trace_writer_set_objects(w, &map);
            edan_consumer c = edan_trace_writer_consumer(w);
            c.consume(c.ctx, v, n);
            CHECK(c.finish(c.ctx) == 0 && edan_trace_writer_close(w, &err) == 0, "write: %s", err.msg);
            size_t len;
            uint8_t *b = slurp(path, &len);
            CHECK(b && len > 64 && b[8] == 6 && b[20] == cold, "version %u, flags %u", b ? b[8] : 0, b ? b[20] : 0);
            free(b);
            edan_trace_reader *r = edan_trace_reader_open(path, &err);
            CHECK(r != NULL, "reopen: %s", err.msg);
            if (!r)
                continue;
            const edan_trace_meta *m = edan_trace_reader_meta(r);
            CHECK(m->objects && m->warm == !cold, "meta: objects %d warm %d", m->objects, m->warm);
            static edan_exec got[4096];
            long k, total = 0;
            while ((k = edan_trace_reader_next(r, got, 4096, &err)) > 0)
                total += k;
            CHECK(k == 0 && total == (long)n, "records: %ld of %zu (%s)", total, n, err.msg);
            const edan_objmap *o = edan_trace_reader_objects(r);
            CHECK(o->n == 3, "%zu objects read, 3 written", o->n);
            for (size_t i = 0; i < o->n && i < 3; i++)
                CHECK(!strcmp(o->objs[i].path, objs[i].path) && o->objs[i].lo == objs[i].lo &&
                          o->objs[i].hi == objs[i].hi && o->objs[i].base == objs[i].base,
                      "object %zu: %s [%#" PRIx64 ", %#" PRIx64 ") base %#" PRIx64, i, o->objs[i].path, o->objs[i].lo,
                      o->objs[i].hi, o->objs[i].base);
            edan_trace_reader_close(r);
            unlink(path);
        }
    /* hand-made: one object "/a" [0x1000, 0x3000) at 0x1000; refused before version 6; impossible ones */
    uint8_t ok[] = {10, 0, 0, 0, EDAN_EV_OBJECT << 1 | 1, 0x80, 0x20, 0x80, 0x40, 0x80, 0x20, 2, '/', 'a'};
    expect_payload_error(6, ok, sizeof ok, 0, 0, NULL, 0);
    expect_payload_error(5, ok, sizeof ok, 0, 0, "reserved control event kind 3", 0);
    uint8_t empty[] = {9, 0, 0, 0, EDAN_EV_OBJECT << 1 | 1, 0x80, 0x20, 0, 0x80, 0x20, 2, '/', 'a'};
    expect_payload_error(6, empty, sizeof empty, 0, 0, "is impossible", 0);
    uint8_t past[] = {10, 0, 0, 0, EDAN_EV_OBJECT << 1 | 1, 0x80, 0x20, 0x80, 0x40, 0x80, 0x20, 9, '/', 'a'};
    expect_payload_error(6, past, sizeof past, 0, 0, "runs past the block's events", 0);
    uint8_t nul[] = {10, 0, 0, 0, EDAN_EV_OBJECT << 1 | 1, 0x80, 0x20, 0x80, 0x40, 0x80, 0x20, 2, '/', 0};
    expect_payload_error(6, nul, sizeof nul, 0, 0, "holds a NUL byte", 0);
    /* at most EDAN_OBJMAP_MAX distinct objects; an object written again (grown) is no new one */
    static uint8_t many[4 + (EDAN_OBJMAP_MAX + 1) * 16];
    for (int extra = 0; extra < 2; extra++) {
        uint8_t *q = many + 4;
        for (uint64_t i = 0; i <= EDAN_OBJMAP_MAX; i++) {
            const uint64_t at = extra && i == EDAN_OBJMAP_MAX ? 0 : i; /* the last: object 0 again, or a new one */
            *q++ = EDAN_EV_OBJECT << 1 | 1;
            q = edan_varint_put(q, 0x1000 * (at + 1));
            q = edan_varint_put(q, 0x10 + (i == EDAN_OBJMAP_MAX ? 0x10 : 0));
            q = edan_varint_put(q, 0x1000 * (at + 1));
            *q++ = 5;
            q += sprintf((char *)q, "/o%03x", (unsigned)at);
        }
        const uint32_t evlen = (uint32_t)(q - many - 4);
        memcpy(many, &evlen, 4);
        expect_payload_error(6, many, (size_t)(q - many), 0, 0, extra ? NULL : "more than 1024 shared objects", 0);
    }
    /* the cold flag is version 6's */
    uint8_t file[8192];
    size_t len = frame_events(file, sizeof file, 5, ok, 4, 0, 0);
    file[20] = EDAN_TRACE_FLAG_COLD;
    edan_error err = {0};
    int rc;
    read_mem(file, len, "flags.edt", &rc, &err);
    CHECK(rc < 0 && strstr(err.msg, "byte 20: unsupported header flags 0x1"), "flags in version 5: %s", err.msg);
    free(v);
    edan_code_table_free(s.code);
}

/*
 * The tracer's map as the program maps objects (edan_trace_meta.objmap): each object's event before the records
 * consumed after it was added, so a reader knows it before its code's records (EDAN_TRACE_FLAG_OBJECTS_AHEAD); an
 * object whose mappings grew later is written again at the end, and read back as one object, grown.
 */
void test_objects_ahead(void)
{
    synth s = make_code(50);
    const size_t n = 30000, third = n / 3;
    edan_exec *v = make_stream(&s, n, 70);
    for (size_t block = 256; block <= 65536; block *= 256) {
        const char *path = tmp_path("ahead.edt");
        edan_objmap map = {0};
        edan_error err = {0};
        edan_trace_meta meta = {.binary = "/bin/prog", .warm = true, .objects = true, .objmap = &map};
        edan_trace_writer *w = edan_trace_writer_open(path, &meta, &err);
        CHECK(w != NULL, "open: %s", err.msg);
        if (!w)
            continue;
        edan_trace_writer_set_block_size(w, block);
        edan_consumer c = edan_trace_writer_consumer(w);
        c.consume(c.ctx, v, third);
        edan_objmap_add(&map, "/lib/liba.so", 0x7f0000000000, 0x7f0000001000, 0x7f0000000000);
        c.consume(c.ctx, v + third, third);
        edan_objmap_add(&map, "/lib/libb.so", 0x7f0000100000, 0x7f0000101000, 0x7f0000100000);
        edan_objmap_add(&map, "/lib/liba.so", 0x7f0000001000, 0x7f0000003000, 0x7f0000000000); /* grown */
        c.consume(c.ctx, v + 2 * third, n - 2 * third);
        CHECK(c.finish(c.ctx) == 0 && edan_trace_writer_close(w, &err) == 0, "write: %s", err.msg);
        size_t len;
        uint8_t *b = slurp(path, &len);
        CHECK(b && len > 64 && b[20] == EDAN_TRACE_FLAG_OBJECTS_AHEAD, "flags %u", b ? b[20] : 0);
        free(b);
        edan_trace_reader *r = edan_trace_reader_open(path, &err);
        CHECK(r != NULL, "reopen: %s", err.msg);
        if (!r) {
            edan_objmap_free(&map);
            continue;
        }
        CHECK(edan_trace_reader_meta(r)->objects_ahead, "the reader sees the flag");
        /* in batches that end where objects were added: the objects known when each batch is returned */
        const edan_objmap *o = edan_trace_reader_objects(r);
        static edan_exec got[10000];
        long k1 = edan_trace_reader_next(r, got, third, &err);
        const size_t after1 = edan_objmap_published(o);
        long k2 = edan_trace_reader_next(r, got, 1, &err);
        const size_t after2 = edan_objmap_published(o);
        long k, total = k1 + k2;
        while ((k = edan_trace_reader_next(r, got, 10000, &err)) > 0)
            total += k;
        CHECK(k1 == (long)third && after1 == 0 && k2 == 1 && after2 == 1,
              "block %zu: %zu objects after the first third, %zu with the next record", block, after1, after2);
        CHECK(k == 0 && total == (long)n, "records: %ld of %zu (%s)", total, n, err.msg);
        CHECK(o->n == 2 && !strcmp(o->objs[0].path, "/lib/liba.so") && o->objs[0].lo == 0x7f0000000000 &&
                  o->objs[0].hi == 0x7f0000003000 && !strcmp(o->objs[1].path, "/lib/libb.so"),
              "%zu objects, the first [%#" PRIx64 ", %#" PRIx64 ")", o->n, o->n ? o->objs[0].lo : 0,
              o->n ? o->objs[0].hi : 0);
        edan_trace_reader_close(r);
        edan_objmap_free(&map);
        unlink(path);
    }
    free(v);
    edan_code_table_free(s.code);
}
