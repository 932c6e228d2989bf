/*
 * trace_file.c - binary trace writer and reader (format: trace_format.h).
 */
#include "trace/trace_file.h"

#include "trace/outfile.h"
#include "util/thread.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <zstd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "trace/trace_format.h"

#define HEADER_FIXED_LEN 64
#define BLOCK_HEADER_LEN 32
#define TRAILER_LEN 48
/* Metadata is a handful of short strings; anything larger is corruption. */
#define MAX_HEADER_LEN (1u << 20)
/* Raw bytes the writer accumulates before compressing a block. Measured:
 * larger blocks barely improve the ratio once past ~1 MiB. */
#define WRITER_BLOCK_TARGET (2u << 20)
/* Upper bound on the bytes one record can add to a block: a vcpu event
 * (1 + 3), the id (<= 5), pc (10), raw (5) and the address (10). A block
 * ends once its events and addresses reach the target, so both fit in a
 * buffer of the target plus this (and the events_len field before them). */
#define MAX_EVENT_BYTES 64
/* The u32 that starts a block's payload: the length of its events (trace_format.h). */
#define EVENTS_LEN_BYTES 4
/* Producer ids are dense (exec.h); a larger one is a producer bug and would
 * make the id map absurdly large. */
#define MAX_PRODUCER_ID (1u << 28)
#define NO_ID UINT32_MAX
/* zstd frame magic and the frame header descriptor's checksum bit (RFC 8878);
 * checked by hand because ZSTD_getFrameHeader is not in the stable API. */
#define ZSTD_FRAME_MAGIC 0xFD2FB528u
#define ZSTD_FHD_CHECKSUM 0x04u

_Static_assert(sizeof(struct edan_trace_header_fixed) == HEADER_FIXED_LEN, "header layout");
_Static_assert(sizeof(struct edan_trace_block_header) == BLOCK_HEADER_LEN, "block layout");
_Static_assert(sizeof(struct edan_trace_trailer) == TRAILER_LEN, "trailer layout");
_Static_assert(WRITER_BLOCK_TARGET + MAX_EVENT_BYTES <= EDAN_TRACE_MAX_BLOCK_RAW, "block size");
_Static_assert(MAX_EVENT_BYTES >= 4 + 5 + 10 + 5 + 10, "one record's bytes, in both streams, fit past the target");

/* ---- little-endian fields and varints ---------------------------------- */

static void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const uint8_t *p)
{
    return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static inline uint8_t *put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Decode the raw field of an instruction definition, as the reader does, so
 * the writer emits an address exactly when the reader will expect one. */
static int decode_raw(uint64_t pc, uint32_t raw, edan_insn *out)
{
    uint8_t b[4];
    put_u32(b, raw);
    unsigned len = edan_rv_insn_length((uint16_t)raw);
    if (len == 2 && raw > 0xffff)
        return -1;
    edan_insn_clear(out);
    return edan_rv_decode(b, len, pc, out) == EDAN_DECODE_OK ? 0 : -1;
}

/* ---- writer ------------------------------------------------------------ */

/* A full block of events, as handed to compress_block(). */
typedef struct pending_block {
    const uint8_t *raw;
    size_t raw_len;
    uint32_t n_new;
    uint64_t n_records, first_record;
} pending_block;

/*
 * Ownership. The encoder (the caller's thread: edan_trace_writer_consume)
 * owns the encoder state, raw and the block counts. Compressing and writing
 * a block (compress_block: cctx, level, out, file, header_written, n_blocks)
 * runs on a thread of its own, so encoding the next block overlaps it: in
 * the tracer a 2 MiB block took a few milliseconds to compress, during which
 * QEMU filled the few batch buffers between it and the writer and then
 * waited (hydro's recording, docs/benchmarks.md: 2.76 -> 2.44 s with the
 * compressor's thread alone). While busy is set, the compressor owns those
 * fields and zraw; the encoder touches them only after wait_idle(), which
 * also copies file.failed into failed, the encoder's view of the first
 * failure.
 */
struct edan_trace_writer {
    edan_outfile file;
    bool finished;
    bool failed;
    bool header_written;
    bool patchable;     /* the header's record_count can be rewritten in place */
    int64_t header_off; /* file offset of the header */

    uint8_t *header;
    size_t header_len;

    ZSTD_CCtx *cctx;
    int level;
    bool level_dirty;
    size_t block_target;
    uint8_t *raw; /* current block: its events_len field, then its events */
    size_t raw_len;
    uint8_t *addrs; /* current block's address stream, appended to raw when the block ends */
    size_t addrs_len;
    uint8_t *out; /* block header + compressed frame */
    size_t out_cap;

    uint32_t blk_new;
    uint64_t blk_records;
    uint64_t n_records;
    uint64_t n_blocks;

    /* Encoder state, as in trace_format.h. */
    int64_t prev_id;
    uint32_t n_defined;
    uint16_t vcpu;
    uint32_t *map; /* producer id -> file id, NO_ID if not yet seen */
    size_t map_cap;
    uint64_t *last_addr; /* per file id */
    uint8_t *has_mem;    /* per file id: the decoded instruction accesses memory */
    size_t file_cap;

    bool background; /* blocks are compressed by compressor() */
    bool started;    /* its thread runs */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    bool busy, stop; /* under lock */
    uint8_t *zraw;   /* the block being compressed, or the buffer raw swaps with */
    pending_block pending;
};

static size_t meta_entry(uint8_t *p, const char *key, const char *val)
{
    size_t kl = strlen(key), vl = strlen(val);
    if (p) {
        put_u16(p, (uint16_t)kl);
        memcpy(p + 2, key, kl);
        put_u32(p + 2 + kl, (uint32_t)vl);
        memcpy(p + 6 + kl, val, vl);
    }
    return 6 + kl + vl;
}

static int build_header(edan_trace_writer *w, const edan_trace_meta *meta, edan_error *err)
{
    char now[64] = "";
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    const char *keys[] = {"isa", "binary", "args", "filter", "filter_callees", "created_by", "created_at"};
    const char *vals[] = {"riscv64",
                          meta ? meta->binary : NULL,
                          meta ? meta->args : NULL,
                          meta ? meta->filter : NULL,
                          meta ? meta->filter_callees : NULL,
                          "edan",
                          now};
    size_t n = HEADER_FIXED_LEN;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (vals[i])
            n += meta_entry(NULL, keys[i], vals[i]);
    if (n > MAX_HEADER_LEN) {
        edan_error_set(err, "%s: trace metadata is too large (%zu bytes, limit %u)", w->file.path, n, MAX_HEADER_LEN);
        return -1;
    }
    w->header = calloc(1, n);
    if (!w->header) {
        edan_error_set(err, "%s: out of memory", w->file.path);
        return -1;
    }
    uint8_t *h = w->header;
    memcpy(h, EDAN_TRACE_MAGIC, 8);
    put_u32(h + 8, EDAN_TRACE_VERSION);
    put_u32(h + 12, (uint32_t)n);
    put_u32(h + 16, EDAN_TRACE_ISA_RISCV64);
    put_u32(h + 20, 0);
    put_u64(h + 24, 0);
    size_t off = HEADER_FIXED_LEN;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (vals[i])
            off += meta_entry(h + off, keys[i], vals[i]);
    w->header_len = n;
    return 0;
}

static void stop_compressor(edan_trace_writer *w)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_broadcast(&w->changed);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->changed);
    pthread_mutex_destroy(&w->lock);
    w->started = false;
}

static void writer_free(edan_trace_writer *w)
{
    if (!w)
        return;
    stop_compressor(w);
    ZSTD_freeCCtx(w->cctx);
    if (w->file.path) /* opened but never closed: an error path */
        edan_outfile_close(&w->file, NULL);
    free(w->header);
    free(w->raw);
    free(w->addrs);
    free(w->zraw);
    free(w->out);
    free(w->map);
    free(w->last_addr);
    free(w->has_mem);
    free(w);
}

edan_trace_writer *edan_trace_writer_open(const char *path, const edan_trace_meta *meta, edan_error *err)
{
    edan_trace_writer *w = calloc(1, sizeof *w);
    if (!w) {
        edan_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    w->level = EDAN_TRACE_DEFAULT_LEVEL;
    w->level_dirty = true;
    w->block_target = WRITER_BLOCK_TARGET;
    w->prev_id = -1;
    w->background = true;
    w->out_cap = BLOCK_HEADER_LEN + ZSTD_compressBound(WRITER_BLOCK_TARGET + MAX_EVENT_BYTES);
    w->raw = malloc(WRITER_BLOCK_TARGET + MAX_EVENT_BYTES);
    w->raw_len = EVENTS_LEN_BYTES;
    w->addrs = malloc(WRITER_BLOCK_TARGET + MAX_EVENT_BYTES);
    w->out = malloc(w->out_cap);
    w->cctx = ZSTD_createCCtx();
    if (!w->raw || !w->addrs || !w->out || !w->cctx) {
        edan_error_set(err, "%s: out of memory", path);
        writer_free(w);
        return NULL;
    }
    if (ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_contentSizeFlag, 1))) {
        edan_error_set(err, "%s: cannot configure zstd", path);
        writer_free(w);
        return NULL;
    }
    if (build_header(w, meta, err) != 0) {
        writer_free(w);
        return NULL;
    }
    if (edan_outfile_open(&w->file, path, "trace file", err)) {
        writer_free(w);
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        /* A pipe cannot be patched, and pwrite on an O_APPEND file would
         * append instead of patching. */
        off_t at = lseek(w->file.fd, 0, SEEK_CUR);
        int fl = fcntl(w->file.fd, F_GETFL);
        w->patchable = at >= 0 && fl >= 0 && !(fl & O_APPEND);
        w->header_off = at >= 0 ? (int64_t)at : 0;
    } else {
        w->patchable = true;
    }
    return w;
}

/* The compressor has no block: the encoder may touch what it owns. */
static void wait_idle(edan_trace_writer *w)
{
    if (w->started) {
        pthread_mutex_lock(&w->lock);
        while (w->busy)
            pthread_cond_wait(&w->changed, &w->lock);
        pthread_mutex_unlock(&w->lock);
    }
    w->failed = w->file.failed;
}

/* A failure found by the encoder. */
static void writer_fail(edan_trace_writer *w, const char *what)
{
    wait_idle(w);
    edan_outfile_fail(&w->file, what, 0);
    w->failed = true;
}

void edan_trace_writer_set_level(edan_trace_writer *w, int level)
{
    wait_idle(w);
    w->level = level;
    w->level_dirty = true;
}

void edan_trace_writer_set_block_size(edan_trace_writer *w, size_t bytes)
{
    if (bytes < 256)
        bytes = 256;
    if (bytes > WRITER_BLOCK_TARGET)
        bytes = WRITER_BLOCK_TARGET; /* the buffers are sized for this */
    w->block_target = bytes;
}

void edan_trace_writer_set_background(edan_trace_writer *w, bool on)
{
    if (!w->started && !w->n_records)
        w->background = on;
}

/* Compress and write one block; runs on the compressor's thread when there is one. */
static void compress_block(edan_trace_writer *w, const pending_block *b)
{
    if (w->file.failed)
        return;
    if (w->level_dirty) {
        if (ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, w->level))) {
            edan_outfile_fail(&w->file, "invalid zstd compression level", 0);
            return;
        }
        w->level_dirty = false;
    }
    size_t c = ZSTD_compress2(w->cctx, w->out + BLOCK_HEADER_LEN, w->out_cap - BLOCK_HEADER_LEN, b->raw, b->raw_len);
    if (ZSTD_isError(c)) {
        char what[256];
        snprintf(what, sizeof what, "zstd compression failed: %s", ZSTD_getErrorName(c));
        edan_outfile_fail(&w->file, what, 0);
        return;
    }
    uint8_t *h = w->out;
    put_u32(h, EDAN_TRACE_BLOCK_MAGIC);
    put_u32(h + 4, (uint32_t)c);
    put_u32(h + 8, (uint32_t)b->raw_len);
    put_u32(h + 12, b->n_new);
    put_u64(h + 16, b->n_records);
    put_u64(h + 24, b->first_record);
    if (!w->header_written) {
        edan_outfile_write(&w->file, w->header, w->header_len);
        w->header_written = true;
    }
    edan_outfile_write(&w->file, w->out, BLOCK_HEADER_LEN + c);
    w->n_blocks++;
}

static void *compressor(void *arg)
{
    edan_trace_writer *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->busy && !w->stop)
            pthread_cond_wait(&w->changed, &w->lock);
        if (!w->busy)
            break;
        pthread_mutex_unlock(&w->lock);
        compress_block(w, &w->pending);
        pthread_mutex_lock(&w->lock);
        w->busy = false;
        pthread_cond_broadcast(&w->changed);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* Start the compressor's thread; without one (no memory or no thread), blocks are compressed in place. */
static void start_compressor(edan_trace_writer *w)
{
    w->background = false;
    w->zraw = malloc(WRITER_BLOCK_TARGET + MAX_EVENT_BYTES);
    if (!w->zraw || pthread_mutex_init(&w->lock, NULL) != 0)
        return;
    if (pthread_cond_init(&w->changed, NULL) != 0) {
        pthread_mutex_destroy(&w->lock);
        return;
    }
    if (edan_thread_start(&w->thread, compressor, w) != 0) {
        pthread_cond_destroy(&w->changed);
        pthread_mutex_destroy(&w->lock);
        return;
    }
    w->started = true;
}

/* End the current block: compress it in place, or hand it to the compressor and take its free buffer. */
static void flush_block(edan_trace_writer *w)
{
    if (w->failed || w->blk_records == 0)
        return;
    /* the payload: events_len, the events, the addresses (trace_format.h); the sizes keep it within the buffer */
    put_u32(w->raw, (uint32_t)(w->raw_len - EVENTS_LEN_BYTES));
    memcpy(w->raw + w->raw_len, w->addrs, w->addrs_len);
    pending_block b = {w->raw, w->raw_len + w->addrs_len, w->blk_new, w->blk_records, w->n_records - w->blk_records};
    if (w->background)
        start_compressor(w);
    if (w->started) {
        wait_idle(w);
        if (w->failed)
            return;
        w->pending = b;
        w->raw = w->zraw;
        w->zraw = (uint8_t *)b.raw;
        pthread_mutex_lock(&w->lock);
        w->busy = true;
        pthread_cond_broadcast(&w->changed);
        pthread_mutex_unlock(&w->lock);
    } else {
        compress_block(w, &b);
        w->failed = w->file.failed;
    }
    w->raw_len = EVENTS_LEN_BYTES;
    w->addrs_len = 0;
    w->blk_new = 0;
    w->blk_records = 0;
}

static int grow_u32(uint32_t **a, size_t *cap, size_t need, uint32_t fill)
{
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    uint32_t *p = realloc(*a, n * sizeof *p);
    if (!p)
        return -1;
    for (size_t i = *cap; i < n; i++)
        p[i] = fill;
    *a = p;
    *cap = n;
    return 0;
}

/* Give producer id pid (first seen now) the next file id; its definition is
 * emitted with this record. */
static uint32_t define_insn(edan_trace_writer *w, const edan_exec *r)
{
    if (r->id >= MAX_PRODUCER_ID) {
        char what[128];
        snprintf(what, sizeof what, "instruction id %" PRIu32 " is too large (ids must be dense)", r->id);
        writer_fail(w, what);
        return NO_ID;
    }
    if (w->n_defined >= UINT32_MAX - 1) {
        writer_fail(w, "too many static instructions");
        return NO_ID;
    }
    if (r->id >= w->map_cap && grow_u32(&w->map, &w->map_cap, (size_t)r->id + 1, NO_ID) != 0) {
        writer_fail(w, "out of memory");
        return NO_ID;
    }
    uint32_t fid = w->n_defined;
    if (fid >= w->file_cap) {
        size_t n = w->file_cap ? w->file_cap * 2 : 1024;
        uint64_t *la = realloc(w->last_addr, n * sizeof *la);
        if (la)
            w->last_addr = la;
        uint8_t *hm = realloc(w->has_mem, n);
        if (hm)
            w->has_mem = hm;
        if (!la || !hm) {
            writer_fail(w, "out of memory");
            return NO_ID;
        }
        w->file_cap = n;
    }
    edan_insn d;
    if (!r->insn || decode_raw(r->insn->pc, r->insn->raw, &d) != 0) {
        char what[256];
        snprintf(what, sizeof what,
                 "cannot write the instruction at pc 0x%" PRIx64 ": encoding 0x%" PRIx32
                 " is not a valid RV64GC instruction (text traces carry no encodings and cannot "
                 "be converted to the binary format)",
                 r->insn ? r->insn->pc : 0, r->insn ? r->insn->raw : 0);
        writer_fail(w, what);
        return NO_ID;
    }
    w->last_addr[fid] = 0;
    w->has_mem[fid] = d.mem != EDAN_MEM_NONE;
    w->map[r->id] = fid;
    return fid;
}

void edan_trace_writer_consume(void *writer, const edan_exec *recs, size_t n)
{
    edan_trace_writer *w = writer;
    if (w->failed)
        return;
    if (w->finished) {
        writer_fail(w, "records written after the trace was finished");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        if (w->raw_len + w->addrs_len >= w->block_target) {
            flush_block(w);
            if (w->failed)
                return;
        }
        uint32_t fid;
        if (r->id >= w->map_cap || (fid = w->map[r->id]) == NO_ID) {
            fid = define_insn(w, r);
            if (fid == NO_ID)
                return;
        }
        uint8_t *p = w->raw + w->raw_len;
        if (r->vcpu != w->vcpu) {
            *p++ = (uint8_t)(EDAN_EV_VCPU << 1 | 1);
            p = put_varint(p, r->vcpu);
            w->vcpu = r->vcpu;
        }
        p = put_varint(p, zigzag((int64_t)fid - w->prev_id - 1) << 1);
        if (fid == w->n_defined) {
            p = put_varint(p, r->insn->pc);
            p = put_varint(p, r->insn->raw);
            w->n_defined++;
            w->blk_new++;
        }
        w->raw_len = (size_t)(p - w->raw);
        if (w->has_mem[fid]) {
            uint8_t *a = w->addrs + w->addrs_len;
            if (r->flags & EDAN_EXEC_NO_ACCESS) {
                *a++ = 0;
            } else {
                uint64_t zz = zigzag((int64_t)(r->addr - w->last_addr[fid]));
                if (zz == UINT64_MAX) {
                    /* a = 2^64: the varint needs a 65th bit. */
                    for (int k = 0; k < 9; k++)
                        *a++ = 0x80;
                    *a++ = 0x02;
                } else {
                    a = put_varint(a, zz + 1);
                }
                w->last_addr[fid] = r->addr;
            }
            w->addrs_len = (size_t)(a - w->addrs);
        }
        w->prev_id = fid;
        w->blk_records++;
        w->n_records++;
    }
}

int edan_trace_writer_finish(void *writer)
{
    edan_trace_writer *w = writer;
    if (w->finished)
        return w->file.failed ? -1 : 0;
    w->finished = true;
    flush_block(w);
    wait_idle(w);
    stop_compressor(w);
    if (!w->file.failed && !w->header_written) {
        edan_outfile_write(&w->file, w->header, w->header_len);
        w->header_written = true;
    }
    if (!w->file.failed) {
        uint8_t t[TRAILER_LEN];
        memcpy(t, EDAN_TRACE_TRAILER_MAGIC, 8);
        put_u64(t + 8, w->n_records);
        put_u64(t + 16, w->n_blocks);
        put_u64(t + 24, w->n_defined);
        put_u64(t + 32, w->file.off);
        put_u64(t + 40, fnv1a(t + 8, 32));
        edan_outfile_write(&w->file, t, sizeof t);
    }
    if (!w->file.failed && w->patchable) {
        uint8_t c[8];
        put_u64(c, w->n_records);
        ssize_t k = pwrite(w->file.fd, c, sizeof c, (off_t)(w->header_off + 24));
        /* A terminal or socket cannot be patched; the trailer is authoritative. */
        if (k != (ssize_t)sizeof c && !(k < 0 && (errno == ESPIPE || errno == EINVAL)))
            edan_outfile_fail(&w->file, "cannot patch the header's record count", k < 0 ? errno : EIO);
    }
    return w->file.failed ? -1 : 0;
}

int edan_trace_writer_close(edan_trace_writer *w, edan_error *err)
{
    if (!w)
        return 0;
    edan_trace_writer_finish(w);
    int rc = edan_outfile_close(&w->file, err);
    writer_free(w);
    return rc;
}

edan_consumer edan_trace_writer_consumer(edan_trace_writer *w)
{
    edan_consumer c = {.ctx = w, .consume = edan_trace_writer_consume, .finish = edan_trace_writer_finish};
    return c;
}

/* ---- reader ------------------------------------------------------------ */

enum { RD_OK, RD_DONE, RD_ERROR };

struct edan_trace_reader {
    FILE *f;
    bool own;
    char *name;
    uint64_t off; /* file offset of the next unread byte */
    int state;
    char msg[1024]; /* the error, repeated by later calls */

    edan_trace_meta meta;
    char *meta_str[6];
    uint64_t header_count;

    ZSTD_DCtx *dctx;
    uint8_t *comp;
    size_t comp_cap;
    uint8_t *raw;
    size_t raw_cap;

    /* Current block. */
    bool in_block;
    uint64_t blk_off;
    uint32_t blk_raw_len;
    bool split;      /* version 2: a block's addresses follow its events (trace_format.h) */
    uint32_t ev_end; /* where the block's events end: the addresses start here (split) */
    size_t pos;      /* the next event */
    size_t apos;     /* the next address (split) */
    uint32_t blk_new, blk_new_seen;
    uint64_t blk_records, blk_records_seen;

    /* Decoder state, as in trace_format.h. */
    int64_t prev_id;
    uint32_t n_defined;
    uint16_t vcpu;
    uint64_t n_records;
    uint64_t n_blocks;
    uint64_t *last_addr;    /* per id */
    const edan_insn **insn; /* per id, cached from the code table */
    /*
     * Per id: insn[id] with bit 0 set when the instruction accesses memory
     * (an address follows). The decoder's one question about an
     * instruction, answered without reading it: the decoded instructions
     * (48 bytes each) of a large kernel's loop do not fit the first-level
     * cache, and reading their kind missed it for most records (hydro: 8.5M
     * misses in 12.3M records, cachegrind). One array, not two: the decoder's
     * loop has no register to spare for a second base.
     */
    uintptr_t *insn_tagged;
    size_t id_cap;
    edan_code_table *code;
};

static void reader_fail(edan_trace_reader *r, const char *fmt, ...) EDAN_PRINTF(2, 3);

static void reader_fail(edan_trace_reader *r, const char *fmt, ...)
{
    if (r->state == RD_ERROR)
        return;
    r->state = RD_ERROR;
    int k = snprintf(r->msg, sizeof r->msg, "%s: ", r->name);
    if (k < 0 || (size_t)k >= sizeof r->msg)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg + k, sizeof r->msg - (size_t)k, fmt, ap);
    va_end(ap);
}

/* Read up to n bytes; returns how many were read (short only at EOF or on a
 * read error, which is reported). */
static size_t read_some(edan_trace_reader *r, void *buf, size_t n)
{
    size_t got = n ? fread(buf, 1, n, r->f) : 0;
    if (got < n && ferror(r->f))
        reader_fail(r, "byte %" PRIu64 ": read error: %s", r->off + got, strerror(errno));
    r->off += got;
    return got;
}

static const char *meta_keys[6] = {"binary", "args", "filter", "filter_callees", "created_by", "created_at"};

static int parse_meta(edan_trace_reader *r, const uint8_t *p, uint32_t len)
{
    uint32_t i = 0;
    while (i < len) {
        uint64_t at = HEADER_FIXED_LEN + (uint64_t)i;
        if (len - i < 2) {
            reader_fail(r,
                        "byte %" PRIu64 ": metadata entry key length runs past the header end "
                        "(header_len %u)",
                        at, len + HEADER_FIXED_LEN);
            return -1;
        }
        uint32_t kl = get_u16(p + i);
        if (len - i - 2 < kl + 4u) {
            reader_fail(r,
                        "byte %" PRIu64 ": metadata key of %u bytes runs past the header end "
                        "(header_len %u)",
                        at, kl, len + HEADER_FIXED_LEN);
            return -1;
        }
        const uint8_t *key = p + i + 2;
        uint32_t vl = get_u32(p + i + 2 + kl);
        if (len - i - 6 - kl < vl) {
            reader_fail(r,
                        "byte %" PRIu64 ": metadata value of %u bytes runs past the header "
                        "end (header_len %u)",
                        at + 2 + kl, vl, len + HEADER_FIXED_LEN);
            return -1;
        }
        const uint8_t *val = key + kl + 4;
        if (memchr(val, 0, vl)) {
            reader_fail(r, "byte %" PRIu64 ": metadata value contains a NUL byte", at + 6 + kl);
            return -1;
        }
        for (int k = 0; k < 6; k++) {
            if (strlen(meta_keys[k]) == kl && memcmp(key, meta_keys[k], kl) == 0) {
                char *s = malloc((size_t)vl + 1);
                if (!s) {
                    reader_fail(r, "out of memory");
                    return -1;
                }
                memcpy(s, val, vl);
                s[vl] = '\0';
                free(r->meta_str[k]);
                r->meta_str[k] = s;
            }
        }
        i += 6 + kl + vl;
    }
    r->meta.binary = r->meta_str[0];
    r->meta.args = r->meta_str[1];
    r->meta.filter = r->meta_str[2];
    r->meta.filter_callees = r->meta_str[3];
    r->meta.created_by = r->meta_str[4];
    r->meta.created_at = r->meta_str[5];
    return 0;
}

static int read_header(edan_trace_reader *r)
{
    uint8_t h[HEADER_FIXED_LEN];
    size_t got = read_some(r, h, sizeof h);
    if (r->state == RD_ERROR)
        return -1;
    if (got < 8 || memcmp(h, EDAN_TRACE_MAGIC, 8) != 0) {
        reader_fail(r, "byte 0: not an edan binary trace (expected magic \"%s\")", EDAN_TRACE_MAGIC);
        return -1;
    }
    if (got < sizeof h) {
        reader_fail(r, "byte 0: truncated: the header needs %d bytes but the file ends after %zu", HEADER_FIXED_LEN,
                    got);
        return -1;
    }
    uint32_t version = get_u32(h + 8), hlen = get_u32(h + 12), isa = get_u32(h + 16), flags = get_u32(h + 20);
    if (version < EDAN_TRACE_VERSION_OLDEST || version > EDAN_TRACE_VERSION) {
        reader_fail(r, "byte 8: unsupported format version %u (expected %u to %u)", version, EDAN_TRACE_VERSION_OLDEST,
                    EDAN_TRACE_VERSION);
        return -1;
    }
    r->split = version >= 2;
    if (hlen < HEADER_FIXED_LEN || hlen > MAX_HEADER_LEN) {
        reader_fail(r, "byte 12: header_len %u out of range (expected %d..%u)", hlen, HEADER_FIXED_LEN, MAX_HEADER_LEN);
        return -1;
    }
    if (isa != EDAN_TRACE_ISA_RISCV64) {
        reader_fail(r, "byte 16: unsupported ISA %u (expected %u, riscv64)", isa, EDAN_TRACE_ISA_RISCV64);
        return -1;
    }
    if (flags != 0) {
        reader_fail(r, "byte 20: unsupported header flags 0x%x (expected 0)", flags);
        return -1;
    }
    r->header_count = get_u64(h + 24);
    for (int i = 32; i < HEADER_FIXED_LEN; i++) {
        if (h[i] != 0) {
            reader_fail(r, "byte %d: reserved header byte is 0x%02x (expected 0)", i, h[i]);
            return -1;
        }
    }
    uint32_t mlen = hlen - HEADER_FIXED_LEN;
    uint8_t *m = malloc(mlen ? mlen : 1);
    if (!m) {
        reader_fail(r, "out of memory");
        return -1;
    }
    got = read_some(r, m, mlen);
    if (r->state != RD_ERROR && got < mlen)
        reader_fail(r,
                    "byte %d: truncated: header_len says %u bytes of metadata but the file "
                    "ends after %zu",
                    HEADER_FIXED_LEN, mlen, got);
    int rc = r->state == RD_ERROR ? -1 : parse_meta(r, m, mlen);
    free(m);
    return rc;
}

static void reader_free(edan_trace_reader *r)
{
    if (!r)
        return;
    if (r->own && r->f)
        fclose(r->f);
    for (int k = 0; k < 6; k++)
        free(r->meta_str[k]);
    ZSTD_freeDCtx(r->dctx);
    free(r->comp);
    free(r->raw);
    free(r->last_addr);
    free(r->insn_tagged);
    free(r->insn);
    edan_code_table_free(r->code);
    free(r->name);
    free(r);
}

edan_trace_reader *edan_trace_reader_open_file(FILE *f, const char *name, edan_error *err)
{
    edan_trace_reader *r = calloc(1, sizeof *r);
    if (!r) {
        if (f)
            fclose(f);
        edan_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    r->f = f;
    r->own = true;
    r->prev_id = -1;
    r->name = strdup(name);
    r->code = edan_code_table_new();
    r->dctx = ZSTD_createDCtx();
    if (!r->name || !r->code || !r->dctx) {
        edan_error_set(err, "%s: out of memory", name);
        reader_free(r);
        return NULL;
    }
    if (read_header(r) != 0) {
        edan_error_set(err, "%s", r->msg);
        reader_free(r);
        return NULL;
    }
    return r;
}

edan_trace_reader *edan_trace_reader_open(const char *path, edan_error *err)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        edan_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    edan_trace_reader *r = edan_trace_reader_open_file(f, name, err);
    if (r && f == stdin)
        r->own = false;
    return r;
}

const edan_trace_meta *edan_trace_reader_meta(const edan_trace_reader *r)
{
    return &r->meta;
}

const edan_code_table *edan_trace_reader_code(const edan_trace_reader *r)
{
    return r->code;
}

uint64_t edan_trace_reader_header_count(const edan_trace_reader *r)
{
    return r->header_count;
}

void edan_trace_reader_close(edan_trace_reader *r)
{
    reader_free(r);
}

static int read_trailer(edan_trace_reader *r, const uint8_t *first, size_t got, uint64_t at)
{
    uint8_t t[TRAILER_LEN];
    memcpy(t, first, got);
    size_t more = read_some(r, t + got, TRAILER_LEN - got);
    if (r->state == RD_ERROR)
        return -1;
    if (got + more < TRAILER_LEN) {
        reader_fail(r,
                    "byte %" PRIu64 ": truncated: the trailer needs %d bytes but the file "
                    "ends after %zu",
                    at, TRAILER_LEN, got + more);
        return -1;
    }
    uint64_t count = get_u64(t + 8), blocks = get_u64(t + 16), statics = get_u64(t + 24), end = get_u64(t + 32),
             sum = get_u64(t + 40);
    if (sum != fnv1a(t + 8, 32)) {
        reader_fail(r,
                    "byte %" PRIu64 ": trailer checksum mismatch (stored 0x%016" PRIx64 ", computed 0x%016" PRIx64 ")",
                    at + 40, sum, fnv1a(t + 8, 32));
        return -1;
    }
    if (end != at) {
        reader_fail(r,
                    "byte %" PRIu64 ": trailer says the blocks end at byte %" PRIu64 " but it starts at byte %" PRIu64,
                    at + 32, end, at);
        return -1;
    }
    if (count != r->n_records) {
        reader_fail(r, "byte %" PRIu64 ": trailer says %" PRIu64 " records but the blocks hold %" PRIu64, at + 8, count,
                    r->n_records);
        return -1;
    }
    if (blocks != r->n_blocks) {
        reader_fail(r, "byte %" PRIu64 ": trailer says %" PRIu64 " blocks but the file has %" PRIu64, at + 16, blocks,
                    r->n_blocks);
        return -1;
    }
    if (statics != r->n_defined) {
        reader_fail(r,
                    "byte %" PRIu64 ": trailer says %" PRIu64 " static instructions but the "
                    "blocks define %" PRIu32,
                    at + 24, statics, r->n_defined);
        return -1;
    }
    if (r->header_count != 0 && r->header_count != count) {
        reader_fail(r, "byte 24: header record_count %" PRIu64 " disagrees with the trailer's %" PRIu64,
                    r->header_count, count);
        return -1;
    }
    uint8_t extra;
    if (read_some(r, &extra, 1) != 0) {
        reader_fail(r, "byte %" PRIu64 ": unexpected data after the trailer", at + TRAILER_LEN);
        return -1;
    }
    return r->state == RD_ERROR ? -1 : 0;
}

/* Read the next block (or the trailer). Returns 0 with a block loaded, 1 at
 * a valid trailer, -1 on error. */
static int load_block(edan_trace_reader *r)
{
    uint64_t at = r->off;
    uint8_t h[BLOCK_HEADER_LEN];
    size_t got = read_some(r, h, sizeof h);
    if (r->state == RD_ERROR)
        return -1;
    if (got == 0) {
        reader_fail(r, "truncated at byte %" PRIu64 " (no trailer; the tracer did not finish)", at);
        return -1;
    }
    if (got >= 8 && memcmp(h, EDAN_TRACE_TRAILER_MAGIC, 8) == 0)
        return read_trailer(r, h, got, at) == 0 ? 1 : -1;
    if (got < 4 || get_u32(h) != EDAN_TRACE_BLOCK_MAGIC) {
        reader_fail(r,
                    "byte %" PRIu64 ": expected a block (magic \"EBLK\") or the trailer "
                    "(magic \"%s\")%s",
                    at, EDAN_TRACE_TRAILER_MAGIC, got < 8 ? "; the file ends here: truncated" : "");
        return -1;
    }
    if (got < sizeof h) {
        reader_fail(r,
                    "byte %" PRIu64 ": truncated: a block header needs %d bytes but the file "
                    "ends after %zu",
                    at, BLOCK_HEADER_LEN, got);
        return -1;
    }
    uint32_t comp_len = get_u32(h + 4), raw_len = get_u32(h + 8), n_new = get_u32(h + 12);
    uint64_t n_rec = get_u64(h + 16), first = get_u64(h + 24);
    if (raw_len > EDAN_TRACE_MAX_BLOCK_RAW) {
        reader_fail(r, "byte %" PRIu64 ": block raw_len %u exceeds the limit %u", at + 8, raw_len,
                    EDAN_TRACE_MAX_BLOCK_RAW);
        return -1;
    }
    size_t bound = ZSTD_compressBound(raw_len);
    if (comp_len < 5 || comp_len > bound) {
        reader_fail(r,
                    "byte %" PRIu64 ": block comp_len %u is impossible for raw_len %u "
                    "(expected 5..%zu)",
                    at + 4, comp_len, raw_len, bound);
        return -1;
    }
    if (n_new > raw_len / 3) {
        reader_fail(r,
                    "byte %" PRIu64 ": block claims %u new instructions in only %u bytes of "
                    "events",
                    at + 12, n_new, raw_len);
        return -1;
    }
    if (n_rec > raw_len) {
        reader_fail(r,
                    "byte %" PRIu64 ": block claims %" PRIu64 " records in only %u bytes of "
                    "events",
                    at + 16, n_rec, raw_len);
        return -1;
    }
    if (first != r->n_records) {
        reader_fail(r, "byte %" PRIu64 ": block first_record is %" PRIu64 " but %" PRIu64 " records precede it",
                    at + 24, first, r->n_records);
        return -1;
    }
    if (comp_len > r->comp_cap) {
        uint8_t *c = realloc(r->comp, comp_len);
        if (!c) {
            reader_fail(r, "out of memory");
            return -1;
        }
        r->comp = c;
        r->comp_cap = comp_len;
    }
    got = read_some(r, r->comp, comp_len);
    if (r->state == RD_ERROR)
        return -1;
    if (got < comp_len) {
        reader_fail(r,
                    "byte %" PRIu64 ": truncated: block header says %u compressed bytes but "
                    "the file ends after %zu",
                    at, comp_len, got);
        return -1;
    }
    uint64_t p_off = at + BLOCK_HEADER_LEN;
    if (get_u32(r->comp) != ZSTD_FRAME_MAGIC) {
        reader_fail(r, "byte %" PRIu64 ": block payload is not a zstd frame (bad magic)", p_off);
        return -1;
    }
    if (!(r->comp[4] & ZSTD_FHD_CHECKSUM)) {
        reader_fail(r, "byte %" PRIu64 ": block's zstd frame has no content checksum", p_off);
        return -1;
    }
    unsigned long long csize = ZSTD_getFrameContentSize(r->comp, comp_len);
    if (csize != raw_len) {
        if (csize == ZSTD_CONTENTSIZE_ERROR || csize == ZSTD_CONTENTSIZE_UNKNOWN)
            reader_fail(r,
                        "byte %" PRIu64 ": block's zstd frame header is invalid or does not "
                        "state its size (expected %u bytes)",
                        p_off, raw_len);
        else
            reader_fail(r,
                        "byte %" PRIu64 ": block's zstd frame holds %llu bytes but the block "
                        "header says raw_len %u",
                        p_off, csize, raw_len);
        return -1;
    }
    size_t fsize = ZSTD_findFrameCompressedSize(r->comp, comp_len);
    if (ZSTD_isError(fsize) || fsize != comp_len) {
        if (ZSTD_isError(fsize))
            reader_fail(r, "byte %" PRIu64 ": corrupt zstd frame: %s", p_off, ZSTD_getErrorName(fsize));
        else
            reader_fail(r,
                        "byte %" PRIu64 ": block's zstd frame is %zu bytes but the block "
                        "header says comp_len %u",
                        p_off, fsize, comp_len);
        return -1;
    }
    if (raw_len > r->raw_cap || !r->raw) {
        size_t cap = raw_len > 64 ? raw_len : 64;
        uint8_t *b = realloc(r->raw, cap);
        if (!b) {
            reader_fail(r, "out of memory");
            return -1;
        }
        r->raw = b;
        r->raw_cap = cap;
    }
    size_t d = ZSTD_decompressDCtx(r->dctx, r->raw, r->raw_cap, r->comp, comp_len);
    if (ZSTD_isError(d)) {
        reader_fail(r, "byte %" PRIu64 ": corrupt block: zstd: %s", p_off, ZSTD_getErrorName(d));
        return -1;
    }
    if (d != raw_len) {
        reader_fail(r, "byte %" PRIu64 ": block decompressed to %zu bytes, expected raw_len %u", p_off, d, raw_len);
        return -1;
    }
    r->pos = 0;
    r->ev_end = raw_len;
    if (r->split) {
        uint32_t ev_len = raw_len >= EVENTS_LEN_BYTES ? get_u32(r->raw) : 0;
        if (raw_len < EVENTS_LEN_BYTES || ev_len > raw_len - EVENTS_LEN_BYTES) {
            reader_fail(r,
                        "block at byte %" PRIu64 ": its events_len %u does not fit its %u decompressed bytes "
                        "(expected at most %u)",
                        at, ev_len, raw_len, raw_len >= EVENTS_LEN_BYTES ? raw_len - EVENTS_LEN_BYTES : 0);
            return -1;
        }
        r->pos = EVENTS_LEN_BYTES;
        r->ev_end = EVENTS_LEN_BYTES + ev_len;
        r->apos = r->ev_end;
    }
    r->in_block = true;
    r->blk_off = at;
    r->blk_raw_len = raw_len;
    r->blk_new = n_new;
    r->blk_new_seen = 0;
    r->blk_records = n_rec;
    r->blk_records_seen = 0;
    r->n_blocks++;
    return 0;
}

#define EV_FAIL(at, ...)                                                                                               \
    do {                                                                                                               \
        char why_[512];                                                                                                \
        snprintf(why_, sizeof why_, __VA_ARGS__);                                                                      \
        reader_fail(r, "block at byte %" PRIu64 ", offset %zu of its %u decompressed bytes: %s", r->blk_off,           \
                    (size_t)(at), r->blk_raw_len, why_);                                                               \
    } while (0)

/* Slow path of varint decoding. Returns the length, 0 if it runs past end,
 * -1 if longer than 10 bytes, -2 if the value needs more than 64 bits. When
 * allow_2_64 is set, the value 2^64 is accepted and reported via *big. */
static int varint_slow(const uint8_t *p, const uint8_t *end, uint64_t *out, bool allow_2_64, bool *big)
{
    uint64_t v = 0;
    for (int i = 0; i < 10; i++) {
        if (p + i >= end)
            return 0;
        uint8_t b = p[i];
        if (i == 9) {
            if (b & 0x80)
                return -1;
            if (b > 1) {
                if (allow_2_64 && b == 2 && v == 0) {
                    *big = true;
                    *out = 0;
                    return 10;
                }
                return -2;
            }
        }
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *out = v;
            return i + 1;
        }
    }
    return -1; /* not reached */
}

static bool get_varint(edan_trace_reader *r, const uint8_t **pp, const uint8_t *end, uint64_t *v, const char *what)
{
    const uint8_t *p = *pp;
    if (p < end && *p < 0x80) {
        *v = *p;
        *pp = p + 1;
        return true;
    }
    bool big = false;
    int n = varint_slow(p, end, v, false, &big);
    size_t at = (size_t)(p - r->raw);
    if (n == 0)
        EV_FAIL(at, "the %s varint runs past the end of the block", what);
    else if (n == -1)
        EV_FAIL(at, "the %s varint is longer than 10 bytes", what);
    else if (n < 0)
        EV_FAIL(at, "the %s varint overflows 64 bits", what);
    if (n <= 0)
        return false;
    *pp = p + n;
    return true;
}

static int add_insn(edan_trace_reader *r, uint64_t pc, uint64_t raw, size_t at)
{
    if (raw > UINT32_MAX) {
        EV_FAIL(at, "instruction encoding 0x%" PRIx64 " at pc 0x%" PRIx64 " exceeds 32 bits", raw, pc);
        return -1;
    }
    edan_insn in;
    if (decode_raw(pc, (uint32_t)raw, &in) != 0) {
        EV_FAIL(at, "illegal instruction encoding 0x%" PRIx64 " at pc 0x%" PRIx64, raw, pc);
        return -1;
    }
    in.pc = pc;
    in.raw = (uint32_t)raw;
    if (r->n_defined >= UINT32_MAX - 1) {
        EV_FAIL(at, "too many static instructions");
        return -1;
    }
    if (r->n_defined >= r->id_cap) {
        size_t n = r->id_cap ? r->id_cap * 2 : 1024;
        uint64_t *la = realloc(r->last_addr, n * sizeof *la);
        if (la)
            r->last_addr = la;
        const edan_insn **ip = realloc(r->insn, n * sizeof *ip);
        if (ip)
            r->insn = ip;
        uintptr_t *it = realloc(r->insn_tagged, n * sizeof *it);
        if (it)
            r->insn_tagged = it;
        if (!la || !ip || !it) {
            reader_fail(r, "out of memory");
            return -1;
        }
        r->id_cap = n;
    }
    uint32_t id = edan_code_table_add(r->code, &in);
    r->insn[id] = edan_code_table_get(r->code, id);
    r->last_addr[id] = 0;
    _Static_assert(_Alignof(edan_insn) > 1, "bit 0 of an instruction's address is free");
    r->insn_tagged[id] = (uintptr_t)r->insn[id] | (in.mem != EDAN_MEM_NONE);
    r->n_defined = id + 1;
    r->blk_new_seen++;
    return 0;
}

/*
 * The common case, kept in registers: an executed instruction that is
 * already defined, with varints of at most 9 bytes. Anything else
 * (definitions, control events, long varints, the block's tail, errors)
 * returns to the general loop below, which checks everything. Returns the
 * records decoded; *pp (and *pa, the address stream's cursor, when split)
 * advance past them. The next instruction in sequence (a zero byte), most
 * records, skips the varint and its zigzag.
 *
 * A record here takes at most FAST_RECORD_MAX bytes of each stream (two
 * 9-byte varints), so while FAST_TAIL bytes remain in each, the next
 * (room - FAST_TAIL) / FAST_RECORD_MAX + 1 records can be read with no
 * bounds check at all: the inner loop tests only its record count.
 */
#define FAST_RECORD_MAX 18
#define FAST_TAIL 20

/* The 7-bit groups of the bytes of x (high bits clear), packed into 56 bits. */
static inline uint64_t varint_pack(uint64_t x)
{
    x = (x & 0x007f007f007f007full) | (x & 0x7f007f007f007f00ull) >> 1;
    x = (x & 0x00003fff00003fffull) | (x & 0x3fff00003fff0000ull) >> 2;
    return (x & 0x000000000fffffffull) | (x & 0x0fffffff00000000ull) >> 4;
}

/*
 * A varint of at most 9 bytes whose first byte (high bit set) is at *pq - 1,
 * already read by the caller; false if longer. Its bytes are read as one
 * word, without a branch per byte: the irregular addresses of a pointer
 * chase have varints of every length in turn, which a loop per byte
 * mispredicts. 8 bytes from *pq - 1 must be readable (9 if they are all
 * continuation bytes).
 */
static inline bool fast_varint_tail(const uint8_t **pq, uint64_t *out)
{
    const uint8_t *const start = *pq - 1;
    const uint64_t x = get_u64(start);
    const uint64_t stop = ~x & 0x8080808080808080ull; /* the high bit of the bytes that end a varint */
    if (__builtin_expect(!stop, 0)) {
        if (start[8] >= 0x80)
            return false;
        *out = varint_pack(x & 0x7f7f7f7f7f7f7f7full) | (uint64_t)start[8] << 56;
        *pq = start + 9;
        return true;
    }
    const unsigned bits = (unsigned)__builtin_ctzll(stop) + 1; /* through the last byte: 8, 16, ..., 64 */
    *out = varint_pack(x & ((2ull << (bits - 1)) - 1) & 0x7f7f7f7f7f7f7f7full);
    *pq = start + bits / 8;
    return true;
}

/*
 * The address of a record of an instruction with one, from the varint at
 * *pa (which advances past it), with last its previous address (updated);
 * false, with nothing consumed, for a varint longer than 9 bytes.
 */
static inline __attribute__((always_inline)) bool fast_address(const uint8_t **pa, uint64_t *last, uint64_t *addr,
                                                               uint16_t *flags)
{
    const uint8_t *q = *pa;
    uint64_t av = *q++;
    if (av >= 0x80 && !fast_varint_tail(&q, &av))
        return false;
    if (__builtin_expect(av != 0, 1)) {
        *addr = *last + (uint64_t)unzigzag(av - 1);
        *last = *addr;
    } else {
        *flags = EDAN_EXEC_NO_ACCESS;
    }
    *pa = q;
    return true;
}

/*
 * The zero bytes at p, up to 16: the next instructions in sequence. 16
 * bytes at p must be readable. With the addresses apart (version 2), a run
 * of them is read without looking at each byte.
 */
static inline unsigned zero_run(const uint8_t *p)
{
#ifdef __SSE2__
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    const unsigned zero = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
    return (unsigned)__builtin_ctz(~zero); /* bits 16 and up of ~zero are set */
#else
    unsigned z = 0;
    while (z < 16 && !p[z])
        z++;
    return z;
#endif
}

static inline __attribute__((always_inline)) size_t decode_fast(edan_trace_reader *r, const uint8_t **pp,
                                                                const uint8_t *end, const uint8_t **pa,
                                                                const uint8_t *aend, edan_exec *out, size_t cap,
                                                                const bool split)
{
    const uint8_t *p = *pp, *a = split ? *pa : NULL;
    const uint64_t room = r->blk_records - r->blk_records_seen;
    const size_t lim = cap < room ? cap : (size_t)room;
    const uint64_t n_defined = (uint64_t)r->n_defined;
    const uintptr_t *insn_tagged = r->insn_tagged;
    uint64_t *last_addr = r->last_addr;
    const uint16_t vcpu = r->vcpu;
    int64_t prev = r->prev_id;
    edan_exec *o = out;
    edan_exec *const o_lim = out + lim;
    while (o < o_lim && end - p >= FAST_TAIL && (!split || aend - a >= FAST_TAIL)) {
        size_t k = (size_t)(end - p - FAST_TAIL) / FAST_RECORD_MAX + 1;
        if (split) {
            const size_t ka = (size_t)(aend - a - FAST_TAIL) / FAST_RECORD_MAX + 1;
            k = ka < k ? ka : k;
        }
        edan_exec *const o_stop = (size_t)(o_lim - o) < k ? o_lim : o + k;
        for (; o < o_stop; o++) {
            if (split) {
                /* a run of next-in-sequence instructions, ids below n_defined, records within o_stop */
                size_t z = zero_run(p);
                if (z > (size_t)(o_stop - o))
                    z = (size_t)(o_stop - o);
                if ((uint64_t)prev + z >= n_defined)
                    z = (size_t)(n_defined - 1 - (uint64_t)prev); /* prev + 1 <= n_defined always */
                if (z) {
                    for (const uint8_t *const z_end = p + z; p < z_end; p++, o++) {
                        const int64_t id = prev + 1;
                        const uintptr_t tagged = insn_tagged[id];
                        uint64_t addr = 0;
                        uint16_t flags = 0;
                        if ((tagged & 1) && !fast_address(&a, &last_addr[id], &addr, &flags))
                            goto out;
                        *o = (edan_exec){.insn = (const edan_insn *)(tagged & ~(uintptr_t)1),
                                         .addr = addr,
                                         .id = (uint32_t)id,
                                         .vcpu = vcpu,
                                         .flags = flags};
                        prev = id;
                    }
                    if (o == o_stop)
                        break;
                }
            }
            const uint8_t *q = p, *qa = a;
            uint64_t v = *q++;
            int64_t id = prev + 1;
            if (v) {
                if (v >= 0x80 && !fast_varint_tail(&q, &v))
                    goto out;
                if (v & 1)
                    goto out;
                const uint64_t x = v >> 1;
                id += (int64_t)((x >> 1) ^ -(x & 1));
            }
            if ((uint64_t)id >= n_defined)
                goto out;
            const uintptr_t tagged = insn_tagged[id];
            const edan_insn *in = (const edan_insn *)(tagged & ~(uintptr_t)1);
            uint64_t addr = 0;
            uint16_t flags = 0;
            if ((tagged & 1) && !fast_address(split ? &qa : &q, &last_addr[id], &addr, &flags))
                goto out;
            *o = (edan_exec){.insn = in, .addr = addr, .id = (uint32_t)id, .vcpu = vcpu, .flags = flags};
            prev = id;
            p = q;
            a = qa;
        }
    }
out:;
    const size_t n = (size_t)(o - out);
    r->prev_id = prev;
    r->blk_records_seen += n;
    r->n_records += n;
    *pp = p;
    if (split)
        *pa = a;
    return n;
}

/* noinline: one copy of the loop per layout, each with its registers */
static __attribute__((noinline)) size_t decode_fast_split(edan_trace_reader *r, const uint8_t **pp, const uint8_t *end,
                                                          const uint8_t **pa, const uint8_t *aend, edan_exec *out,
                                                          size_t cap)
{
    return decode_fast(r, pp, end, pa, aend, out, cap, true);
}

static __attribute__((noinline)) size_t decode_fast_inline(edan_trace_reader *r, const uint8_t **pp, const uint8_t *end,
                                                           edan_exec *out, size_t cap)
{
    return decode_fast(r, pp, end, NULL, NULL, out, cap, false);
}

/*
 * Decode records of the current block into out[0..cap); returns how many.
 * Events come from [pos, ev_end); addresses from [apos, blk_raw_len) when
 * split (version 2), else inline after their event (version 1).
 */
static size_t decode_events(edan_trace_reader *r, edan_exec *out, size_t cap)
{
    const uint8_t *p = r->raw + r->pos, *end = r->raw + r->ev_end;
    const uint8_t *a = r->raw + (r->split ? r->apos : r->pos), *const aend = r->raw + r->blk_raw_len;
    size_t n = 0;
    while (n < cap && p < end) {
        n += r->split ? decode_fast_split(r, &p, end, &a, aend, out + n, cap - n)
                      : decode_fast_inline(r, &p, end, out + n, cap - n);
        if (n == cap || p >= end)
            break;
        const uint8_t *ev = p;
        uint64_t v;
        if (!get_varint(r, &p, end, &v, "event"))
            break;
        if (v & 1) {
            uint64_t kind = v >> 1;
            if (kind != EDAN_EV_VCPU) {
                EV_FAIL(ev - r->raw, "reserved control event kind %" PRIu64, kind);
                break;
            }
            uint64_t vcpu;
            if (!get_varint(r, &p, end, &vcpu, "vcpu"))
                break;
            if (vcpu > UINT16_MAX) {
                EV_FAIL(ev - r->raw, "vcpu %" PRIu64 " out of range (at most %u)", vcpu, UINT16_MAX);
                break;
            }
            r->vcpu = (uint16_t)vcpu;
            continue;
        }
        int64_t delta = unzigzag(v >> 1);
        int64_t base = r->prev_id + 1;
        if (delta < -base || delta > (int64_t)r->n_defined - base) {
            EV_FAIL(ev - r->raw,
                    "instruction id delta %" PRId64 " after id %" PRId64 " is out of range (%" PRIu32 " ids defined)",
                    delta, r->prev_id, r->n_defined);
            break;
        }
        uint32_t id = (uint32_t)(base + delta);
        if (id == r->n_defined) {
            uint64_t pc, raw;
            if (!get_varint(r, &p, end, &pc, "pc") || !get_varint(r, &p, end, &raw, "encoding"))
                break;
            if (add_insn(r, pc, raw, (size_t)(ev - r->raw)) != 0)
                break;
        }
        const edan_insn *in = r->insn[id];
        edan_exec *o = &out[n];
        o->insn = in;
        o->id = id;
        o->vcpu = r->vcpu;
        o->flags = 0;
        o->addr = 0;
        if (r->insn_tagged[id] & 1) {
            const uint8_t **ap = r->split ? &a : &p, *const a_end = r->split ? aend : end;
            uint64_t av;
            bool big = false;
            if (*ap < a_end && **ap < 0x80) {
                av = *(*ap)++;
            } else {
                int k = varint_slow(*ap, a_end, &av, true, &big);
                if (k <= 0) {
                    EV_FAIL(*ap - r->raw, "the address varint %s",
                            k == 0    ? (r->split ? "runs past the end of the block's addresses"
                                                  : "runs past the end of the block")
                            : k == -1 ? "is longer than 10 bytes"
                                      : "overflows 64 bits");
                    break;
                }
                *ap += k;
            }
            if (!big && av == 0) {
                o->flags = EDAN_EXEC_NO_ACCESS;
            } else {
                /* av == 2^64 (big) encodes the one delta, -2^63, whose zigzag is 2^64 - 1. */
                o->addr = r->last_addr[id] + (uint64_t)unzigzag(big ? UINT64_MAX : av - 1);
                r->last_addr[id] = o->addr;
            }
        }
        if (r->blk_records_seen == r->blk_records) {
            EV_FAIL(ev - r->raw, "more records than the block header's %" PRIu64, r->blk_records);
            break;
        }
        r->blk_records_seen++;
        r->n_records++;
        r->prev_id = id;
        n++;
    }
    r->pos = (size_t)(p - r->raw);
    if (r->split)
        r->apos = (size_t)(a - r->raw);
    return n;
}

long edan_trace_reader_next(edan_trace_reader *r, edan_exec *out, size_t cap, edan_error *err)
{
    size_t n = 0;
    while (n < cap && r->state == RD_OK) {
        if (!r->in_block) {
            int rc = load_block(r);
            if (rc == 1)
                r->state = RD_DONE;
            continue;
        }
        if (r->pos < r->ev_end) {
            n += decode_events(r, out + n, cap - n);
            continue;
        }
        /* End of the block: the header's counts must match what it held. */
        if (r->blk_records_seen != r->blk_records) {
            reader_fail(r,
                        "block at byte %" PRIu64 ": header says %" PRIu64 " records but its "
                        "events hold %" PRIu64,
                        r->blk_off, r->blk_records, r->blk_records_seen);
            break;
        }
        if (r->blk_new_seen != r->blk_new) {
            reader_fail(r,
                        "block at byte %" PRIu64 ": header says %" PRIu32 " new instructions "
                        "but its events define %" PRIu32,
                        r->blk_off, r->blk_new, r->blk_new_seen);
            break;
        }
        if (r->split && r->apos != r->blk_raw_len) {
            reader_fail(r,
                        "block at byte %" PRIu64 ": %zu bytes of addresses (from offset %zu of its %u "
                        "decompressed bytes) belong to no memory access",
                        r->blk_off, r->blk_raw_len - r->apos, r->apos, r->blk_raw_len);
            break;
        }
        r->in_block = false;
    }
    if (n > 0)
        return (long)n;
    if (r->state == RD_ERROR) {
        edan_error_set(err, "%s", r->msg);
        return -1;
    }
    return 0;
}
