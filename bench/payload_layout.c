/*
 * payload_layout.c - what the trace format's payload layout costs zstd: a
 * trace's records re-encoded both ways, version 1 (each address inline after
 * its instruction's event) and version 2 (the events, then the addresses;
 * trace_format.h), in blocks of the writer's size, compressed at the
 * writer's level and decompressed (best of five per block). Prints bytes per
 * record raw and compressed and nanoseconds of decompression per record.
 * (Instruction definitions are left out of both: they are a few bytes per
 * static instruction.)
 *
 * usage: edan_payload_layout TRACE
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

#include "trace/trace_file.h"
#include "util/varint.h"

#define BLOCK (2u << 20)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct layout_totals {
    size_t raw, comp;
    double seconds;
} layout_totals;

static ZSTD_CCtx *cctx;
static ZSTD_DCtx *dctx;
static uint8_t *comp, *back;
static size_t comp_cap;

static int measure(const uint8_t *payload, size_t len, layout_totals *t)
{
    size_t c = ZSTD_compress2(cctx, comp, comp_cap, payload, len);
    if (ZSTD_isError(c))
        return -1;
    double best = 1e9;
    for (int k = 0; k < 5; k++) {
        double t0 = now();
        size_t d = ZSTD_decompressDCtx(dctx, back, 2 * BLOCK, comp, c);
        double dt = now() - t0;
        if (d != len)
            return -1;
        best = dt < best ? dt : best;
    }
    t->raw += len;
    t->comp += c;
    t->seconds += best;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s TRACE\n", argv[0]);
        return 2;
    }
    edan_error err = {0};
    edan_trace_source *src = edan_trace_source_open(argv[1], &err);
    if (!src) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    cctx = ZSTD_createCCtx();
    dctx = ZSTD_createDCtx();
    comp_cap = ZSTD_compressBound(2 * BLOCK);
    comp = malloc(comp_cap);
    back = malloc(2 * BLOCK);
    uint8_t *inline_ev = malloc(BLOCK + 64), *events = malloc(2 * BLOCK + 64), *addrs = malloc(BLOCK + 64);
    size_t last_cap = 1u << 16;
    uint64_t *last = calloc(last_cap, sizeof *last);
    enum { CAP = 8192 };
    edan_exec *recs = malloc(CAP * sizeof *recs);
    if (!cctx || !dctx || !comp || !back || !inline_ev || !events || !addrs || !last || !recs ||
        ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1))) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    layout_totals v1 = {0}, v2 = {0};
    size_t n_inline = 0, n_events = 0, n_addrs = 0;
    uint64_t records = 0;
    int64_t prev = -1;
    long n;
    int rc = 0;
    do {
        n = edan_trace_source_next(src, recs, CAP, &err);
        for (long i = 0; i < n; i++) {
            const edan_exec *r = &recs[i];
            while (r->id >= last_cap) {
                uint64_t *l = realloc(last, 2 * last_cap * sizeof *l);
                if (!l) {
                    fprintf(stderr, "out of memory\n");
                    return 1;
                }
                memset(l + last_cap, 0, last_cap * sizeof *l);
                last = l;
                last_cap *= 2;
            }
            const uint64_t v = edan_zigzag((int64_t)r->id - prev - 1) << 1;
            prev = r->id;
            n_inline = (size_t)(edan_varint_put(inline_ev + n_inline, v) - inline_ev);
            n_events = (size_t)(edan_varint_put(events + n_events, v) - events);
            if (r->insn->mem != EDAN_MEM_NONE) {
                uint64_t a = 0;
                if (!(r->flags & EDAN_EXEC_NO_ACCESS)) {
                    a = edan_zigzag((int64_t)(r->addr - last[r->id])) +
                        1; /* 2^64 - 1 + 1 wraps: rare, and only a size */
                    last[r->id] = r->addr;
                }
                n_inline = (size_t)(edan_varint_put(inline_ev + n_inline, a) - inline_ev);
                n_addrs = (size_t)(edan_varint_put(addrs + n_addrs, a) - addrs);
            }
            records++;
            if (n_inline >= BLOCK) {
                memcpy(events + n_events, addrs, n_addrs);
                if (measure(inline_ev, n_inline, &v1) || measure(events, n_events + n_addrs, &v2))
                    rc = 1;
                n_inline = n_events = n_addrs = 0;
            }
        }
    } while (n > 0);
    if (n < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    if (n_inline) {
        memcpy(events + n_events, addrs, n_addrs);
        if (measure(inline_ev, n_inline, &v1) || measure(events, n_events + n_addrs, &v2))
            rc = 1;
    }
    if (rc || !records) {
        fprintf(stderr, "%s\n", rc ? "zstd failed" : "no records");
        return 1;
    }
    const double k = (double)records;
    printf("%llu records\n", (unsigned long long)records);
    printf("version 1 (inline):   raw %.3f B/record, compressed %.4f B/record, decompression %.2f ns/record\n",
           (double)v1.raw / k, (double)v1.comp / k, v1.seconds * 1e9 / k);
    printf("version 2 (separate): raw %.3f B/record, compressed %.4f B/record, decompression %.2f ns/record\n",
           (double)v2.raw / k, (double)v2.comp / k, v2.seconds * 1e9 / k);
    edan_trace_source_close(src);
    return 0;
}
