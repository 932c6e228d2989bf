/*
 * trace_writer.c - the binary trace writer and its compressor thread
 * (format: trace_format.h).
 */
#include "trace/trace_internal.h"

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

#include "trace/outfile.h"
#include "util/thread.h"

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
    int isa; /* edan_isa of every instruction written (meta's isa) */
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
    uint16_t warm;              /* EDAN_EXEC_WARM while the records are warm ones (EDAN_EV_WARM), else 0 */
    bool warm_ok;               /* version 5: the trace may hold warm records, the kernel's writes among them */
    uint64_t kernel_line;       /* the last EDAN_EV_KERNEL's line (addr / EDAN_KERNEL_LINE) */
    bool objects_ok;            /* version 6: the trace may carry shared objects (EDAN_EV_OBJECT) */
    const edan_objmap *objects; /* meta's objmap (each written ahead of its code), or set at the end */
    size_t objects_written;     /* objects[0, objects_written) have their event, spanning span[i] */
    uint64_t (*span)[2];        /* EDAN_OBJMAP_MAX, allocated at the first object */
    uint32_t *map;              /* producer id -> file id, NO_ID if not yet seen */
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
        edan_put_u16(p, (uint16_t)kl);
        memcpy(p + 2, key, kl);
        edan_put_u32(p + 2 + kl, (uint32_t)vl);
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
    const char *keys[] = {"isa",        "binary",     "args",       "filter", "filter_callees",
                          "created_by", "created_at", "binary_hash"};
    const char *vals[] = {edan_isa_name(w->isa),
                          meta ? meta->binary : NULL,
                          meta ? meta->args : NULL,
                          meta ? meta->filter : NULL,
                          meta ? meta->filter_callees : NULL,
                          "edan",
                          now,
                          meta ? meta->binary_hash : NULL};
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
    w->warm_ok = meta && meta->warm;
    w->objects_ok = meta && meta->objects;
    w->objects = w->objects_ok ? meta->objmap : NULL;
    edan_put_u32(h + 8, w->objects_ok ? EDAN_TRACE_VERSION
                        : w->warm_ok  ? EDAN_TRACE_VERSION_5
                                      : EDAN_TRACE_VERSION_COLD);
    edan_put_u32(h + 12, (uint32_t)n);
    edan_put_u32(h + 16, (uint32_t)w->isa + EDAN_TRACE_ISA_RISCV64);
    edan_put_u32(h + 20, (w->objects_ok && !w->warm_ok ? EDAN_TRACE_FLAG_COLD : 0) |
                             (w->objects ? EDAN_TRACE_FLAG_OBJECTS_AHEAD : 0));
    edan_put_u64(h + 24, 0);
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
    free(w->span);
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
    w->isa = meta && meta->isa ? edan_isa_by_name(meta->isa) : EDAN_ISA_RISCV64;
    if (w->isa < 0) {
        edan_error_set(err, "%s: unknown ISA '%s' for a trace", path, meta->isa);
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
    edan_put_u32(h, EDAN_TRACE_BLOCK_MAGIC);
    edan_put_u32(h + 4, (uint32_t)c);
    edan_put_u32(h + 8, (uint32_t)b->raw_len);
    edan_put_u32(h + 12, b->n_new);
    edan_put_u64(h + 16, b->n_records);
    edan_put_u64(h + 24, b->first_record);
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
    if (w->failed || (w->blk_records == 0 && w->raw_len == EVENTS_LEN_BYTES)) /* nothing; or objects alone */
        return;
    /* the payload: events_len, the events, the addresses (trace_format.h); the sizes keep it within the buffer */
    edan_put_u32(w->raw, (uint32_t)(w->raw_len - EVENTS_LEN_BYTES));
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
    if (w->n_defined >= UINT32_MAX - 2) {
        writer_fail(w, "too many static instructions");
        return NO_ID;
    }
    if (r->id >= w->map_cap && grow_u32(&w->map, &w->map_cap, (size_t)r->id + 1, NO_ID) != 0) {
        writer_fail(w, "out of memory");
        return NO_ID;
    }
    uint32_t fid = w->n_defined;
    if (fid + 1 >= w->file_cap) { /* room for a second part too */
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
    if (r->insn && r->insn->isa != w->isa) {
        char what[160];
        snprintf(what, sizeof what, "an instruction of ISA %s at pc 0x%" PRIx64 " in a trace of ISA %s",
                 edan_isa_name(r->insn->isa) ? edan_isa_name(r->insn->isa) : "?", r->insn->pc, edan_isa_name(w->isa));
        writer_fail(w, what);
        return NO_ID;
    }
    if (r->insn && w->isa != EDAN_ISA_RISCV64) {
        /* the reader decodes the bytes as the tracer did (isa/native.h) */
        if (!r->insn->size || r->insn->size > EDAN_TRACE_MAX_ENC || (r->insn->native & EDAN_NATIVE_SECOND)) {
            writer_fail(w, (r->insn->native & EDAN_NATIVE_SECOND)
                               ? "the second part of a two-place instruction without its first"
                               : "a native instruction without its encoding");
            return NO_ID;
        }
        d = *r->insn;
        if (d.native & EDAN_NATIVE_TWO_PLACES) {
            /* one definition, two ids: the producer's next id is the second part (isa/native.h) */
            if (r->id + 1 >= MAX_PRODUCER_ID ||
                (r->id + 1 >= w->map_cap && grow_u32(&w->map, &w->map_cap, (size_t)r->id + 2, NO_ID) != 0)) {
                writer_fail(w, "out of memory");
                return NO_ID;
            }
            w->last_addr[fid + 1] = 0;
            w->has_mem[fid + 1] = 1;
            w->map[r->id + 1] = fid + 1;
        }
    } else if (!r->insn || edan_trace_decode_raw(r->insn->pc, r->insn->raw, &d) != 0) {
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

static void write_objects(edan_trace_writer *w, bool all);

void edan_trace_writer_consume(void *writer, const edan_exec *recs, size_t n)
{
    edan_trace_writer *w = writer;
    if (w->failed)
        return;
    if (w->finished) {
        writer_fail(w, "records written after the trace was finished");
        return;
    }
    /* an object the tracer learnt before these records: its event goes first (EDAN_TRACE_FLAG_OBJECTS_AHEAD) */
    if (w->objects && edan_objmap_published(w->objects) != w->objects_written)
        write_objects(w, false);
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        if (w->raw_len + w->addrs_len >= w->block_target) {
            flush_block(w);
            if (w->failed)
                return;
        }
        if (r->flags & EDAN_EXEC_KERNEL) {
            if (!w->warm_ok || r->addr % EDAN_KERNEL_LINE) {
                writer_fail(w, !w->warm_ok ? "a kernel write in a trace opened without warm records"
                                           : "a kernel write at an address that is not line-aligned");
                return;
            }
            uint8_t *p = w->raw + w->raw_len;
            if (r->vcpu != w->vcpu) {
                *p++ = (uint8_t)(EDAN_EV_VCPU << 1 | 1);
                p = edan_varint_put(p, r->vcpu);
                w->vcpu = r->vcpu;
            }
            const uint64_t line = r->addr / EDAN_KERNEL_LINE;
            *p++ = (uint8_t)(EDAN_EV_KERNEL << 1 | 1);
            p = edan_varint_put(p, edan_zigzag((int64_t)(line - w->kernel_line)));
            w->kernel_line = line;
            w->raw_len = (size_t)(p - w->raw);
            w->blk_records++;
            w->n_records++;
            continue;
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
            p = edan_varint_put(p, r->vcpu);
            w->vcpu = r->vcpu;
        }
        if ((r->flags & EDAN_EXEC_WARM) != w->warm) {
            if (!w->warm_ok) {
                writer_fail(w, "a warm record in a trace opened without warm records (edan_trace_meta.warm)");
                return;
            }
            *p++ = (uint8_t)(EDAN_EV_WARM << 1 | 1);
            *p++ = (r->flags & EDAN_EXEC_WARM) != 0;
            w->warm = r->flags & EDAN_EXEC_WARM;
        }
        p = edan_varint_put(p, edan_zigzag((int64_t)fid - w->prev_id - 1) << 1);
        if (fid == w->n_defined) {
            p = edan_varint_put(p, r->insn->pc);
            if (w->isa == EDAN_ISA_RISCV64) {
                p = edan_varint_put(p, r->insn->raw);
            } else {
                p = edan_varint_put(p, r->insn->size);
                memcpy(p, r->insn->enc, r->insn->size);
                p += r->insn->size;
            }
            w->n_defined += r->insn->native & EDAN_NATIVE_TWO_PLACES ? 2 : 1;
            w->blk_new++;
        }
        w->raw_len = (size_t)(p - w->raw);
        if (w->has_mem[fid]) {
            uint8_t *a = w->addrs + w->addrs_len;
            if (r->flags & EDAN_EXEC_NO_ACCESS) {
                *a++ = 0;
            } else {
                uint64_t zz = edan_zigzag((int64_t)(r->addr - w->last_addr[fid]));
                if (zz == UINT64_MAX) {
                    /* a = 2^64: the varint needs a 65th bit. */
                    for (int k = 0; k < 9; k++)
                        *a++ = 0x80;
                    *a++ = 0x02;
                } else {
                    a = edan_varint_put(a, zz + 1);
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

void edan_trace_writer_set_objects(edan_trace_writer *w, const edan_objmap *objects)
{
    w->objects = objects;
}

/*
 * The shared objects (EDAN_EV_OBJECT) not yet written, and at the end (all)
 * those whose mappings grew since: into the current block, or blocks of
 * their own when it is full. The tracer may be adding objects on another
 * thread: those it published (util/symbols/objects.h).
 */
static void write_objects(edan_trace_writer *w, bool all)
{
    if (!w->objects || !w->objects_ok)
        return;
    const size_t n = edan_objmap_published(w->objects);
    if (!w->span && n && !(w->span = calloc(EDAN_OBJMAP_MAX, sizeof *w->span))) {
        writer_fail(w, "out of memory for the shared objects");
        return;
    }
    for (size_t i = all ? 0 : w->objects_written; i < n && i < EDAN_OBJMAP_MAX && !w->failed; i++) {
        const edan_object obj = edan_objmap_get(w->objects, i), *o = &obj;
        const size_t len = strlen(o->path);
        if (i < w->objects_written && w->span[i][0] == o->lo && w->span[i][1] == o->hi)
            continue;
        w->span[i][0] = o->lo;
        w->span[i][1] = o->hi;
        if (!len || len > EDAN_OBJMAP_MAX_PATH || o->hi <= o->lo)
            continue;
        /* the buffers hold WRITER_BLOCK_TARGET bytes and more, whatever the block size set: one event always fits */
        if (w->raw_len + w->addrs_len + len + 4 * 10 + 1 > w->block_target)
            flush_block(w);
        uint8_t *p = w->raw + w->raw_len;
        *p++ = (uint8_t)(EDAN_EV_OBJECT << 1 | 1);
        p = edan_varint_put(p, o->lo);
        p = edan_varint_put(p, o->hi - o->lo);
        p = edan_varint_put(p, o->base);
        p = edan_varint_put(p, len);
        memcpy(p, o->path, len);
        w->raw_len = (size_t)(p + len - w->raw);
    }
    w->objects_written = n < EDAN_OBJMAP_MAX ? n : EDAN_OBJMAP_MAX;
}

int edan_trace_writer_finish(void *writer)
{
    edan_trace_writer *w = writer;
    if (w->finished)
        return w->file.failed ? -1 : 0;
    w->finished = true;
    write_objects(w, true);
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
        edan_put_u64(t + 8, w->n_records);
        edan_put_u64(t + 16, w->n_blocks);
        edan_put_u64(t + 24, w->n_defined);
        edan_put_u64(t + 32, w->file.off);
        edan_put_u64(t + 40, edan_trace_fnv1a(t + 8, 32));
        edan_outfile_write(&w->file, t, sizeof t);
    }
    if (!w->file.failed && w->patchable) {
        uint8_t c[8];
        edan_put_u64(c, w->n_records);
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

void edan_trace_writer_abandon(edan_trace_writer *w)
{
    if (!w)
        return;
    stop_compressor(w);
    w->finished = true;
    w->file.remove_on_failure = true; /* its temporary file goes; a file already of that name stays */
    edan_outfile_fail(&w->file, "abandoned", 0);
    edan_outfile_close(&w->file, NULL);
    writer_free(w);
}

edan_consumer edan_trace_writer_consumer(edan_trace_writer *w)
{
    edan_consumer c = {
        .ctx = w, .consume = edan_trace_writer_consume, .finish = edan_trace_writer_finish, .warms = w->warm_ok};
    return c;
}
