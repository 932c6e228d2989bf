/*
 * trace_reader.c - the binary trace reader: header, metadata, blocks and
 * trailer (format: trace_format.h); trace_decode.c decodes a block's events.
 */
#include "trace/trace_internal.h"
#include "util/files.h"

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

void edan_trace_reader_fail(edan_trace_reader *r, const char *fmt, ...)
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
        edan_trace_reader_fail(r, "byte %" PRIu64 ": read error: %s", r->off + got, strerror(errno));
    r->off += got;
    return got;
}

static const char *meta_keys[7] = {"binary",     "args",       "filter",     "filter_callees",
                                   "created_by", "created_at", "binary_hash"};

static int parse_meta(edan_trace_reader *r, const uint8_t *p, uint32_t len)
{
    uint32_t i = 0;
    while (i < len) {
        uint64_t at = HEADER_FIXED_LEN + (uint64_t)i;
        if (len - i < 2) {
            edan_trace_reader_fail(r,
                                   "byte %" PRIu64 ": metadata entry key length runs past the header end "
                                   "(header_len %u)",
                                   at, len + HEADER_FIXED_LEN);
            return -1;
        }
        uint32_t kl = edan_get_u16(p + i);
        if (len - i - 2 < kl + 4u) {
            edan_trace_reader_fail(r,
                                   "byte %" PRIu64 ": metadata key of %u bytes runs past the header end "
                                   "(header_len %u)",
                                   at, kl, len + HEADER_FIXED_LEN);
            return -1;
        }
        const uint8_t *key = p + i + 2;
        uint32_t vl = edan_get_u32(p + i + 2 + kl);
        if (len - i - 6 - kl < vl) {
            edan_trace_reader_fail(r,
                                   "byte %" PRIu64 ": metadata value of %u bytes runs past the header "
                                   "end (header_len %u)",
                                   at + 2 + kl, vl, len + HEADER_FIXED_LEN);
            return -1;
        }
        const uint8_t *val = key + kl + 4;
        if (memchr(val, 0, vl)) {
            edan_trace_reader_fail(r, "byte %" PRIu64 ": metadata value contains a NUL byte", at + 6 + kl);
            return -1;
        }
        for (int k = 0; k < 7; k++) {
            if (strlen(meta_keys[k]) == kl && memcmp(key, meta_keys[k], kl) == 0) {
                char *s = malloc((size_t)vl + 1);
                if (!s) {
                    edan_trace_reader_fail(r, "out of memory");
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
    r->meta.binary_hash = r->meta_str[6];
    return 0;
}

static int read_header(edan_trace_reader *r)
{
    uint8_t h[HEADER_FIXED_LEN];
    size_t got = read_some(r, h, sizeof h);
    if (r->state == RD_ERROR)
        return -1;
    if (got < 8 || memcmp(h, EDAN_TRACE_MAGIC, 8) != 0) {
        edan_trace_reader_fail(r, "byte 0: not an edan binary trace (expected magic \"%s\")", EDAN_TRACE_MAGIC);
        return -1;
    }
    if (got < sizeof h) {
        edan_trace_reader_fail(r, "byte 0: truncated: the header needs %d bytes but the file ends after %zu",
                               HEADER_FIXED_LEN, got);
        return -1;
    }
    uint32_t version = edan_get_u32(h + 8), hlen = edan_get_u32(h + 12), isa = edan_get_u32(h + 16),
             flags = edan_get_u32(h + 20);
    if (version < EDAN_TRACE_VERSION_OLDEST || version > EDAN_TRACE_VERSION) {
        edan_trace_reader_fail(r, "byte 8: unsupported format version %u (expected %u to %u)", version,
                               EDAN_TRACE_VERSION_OLDEST, EDAN_TRACE_VERSION);
        return -1;
    }
    r->split = version >= 2;
    const bool cold = version >= EDAN_TRACE_VERSION_OBJECTS && (flags & EDAN_TRACE_FLAG_COLD);
    r->warm_ok = r->meta.warm = version >= EDAN_TRACE_VERSION_WARM && !cold;
    r->kernel_ok = version >= EDAN_TRACE_VERSION_KERNEL && !cold;
    r->objects_ok = r->meta.objects = version >= EDAN_TRACE_VERSION_OBJECTS;
    r->meta.objects_ahead = r->objects_ok && (flags & EDAN_TRACE_FLAG_OBJECTS_AHEAD);
    if (hlen < HEADER_FIXED_LEN || hlen > MAX_HEADER_LEN) {
        edan_trace_reader_fail(r, "byte 12: header_len %u out of range (expected %d..%u)", hlen, HEADER_FIXED_LEN,
                               MAX_HEADER_LEN);
        return -1;
    }
    if (isa < EDAN_TRACE_ISA_RISCV64 || isa > EDAN_TRACE_ISA_AARCH64 ||
        (isa != EDAN_TRACE_ISA_RISCV64 && version < EDAN_TRACE_VERSION_ISAS)) {
        edan_trace_reader_fail(r, "byte 16: unsupported ISA %u in a version %u trace (expected %u, riscv64%s)", isa,
                               version, EDAN_TRACE_ISA_RISCV64,
                               version < EDAN_TRACE_VERSION_ISAS ? "" : "; 2, x86-64; 3, aarch64");
        return -1;
    }
    r->isa = (int)(isa - EDAN_TRACE_ISA_RISCV64);
    r->meta.isa = edan_isa_name(r->isa);
    if (flags & ~(version >= EDAN_TRACE_VERSION_OBJECTS ? EDAN_TRACE_FLAG_COLD | EDAN_TRACE_FLAG_OBJECTS_AHEAD : 0u)) {
        edan_trace_reader_fail(r, "byte 20: unsupported header flags 0x%x (expected 0%s)", flags,
                               version >= EDAN_TRACE_VERSION_OBJECTS ? " to 0x3" : "");
        return -1;
    }
    r->header_count = edan_get_u64(h + 24);
    for (int i = 32; i < HEADER_FIXED_LEN; i++) {
        if (h[i] != 0) {
            edan_trace_reader_fail(r, "byte %d: reserved header byte is 0x%02x (expected 0)", i, h[i]);
            return -1;
        }
    }
    uint32_t mlen = hlen - HEADER_FIXED_LEN;
    uint8_t *m = malloc(mlen ? mlen : 1);
    if (!m) {
        edan_trace_reader_fail(r, "out of memory");
        return -1;
    }
    got = read_some(r, m, mlen);
    if (r->state != RD_ERROR && got < mlen)
        edan_trace_reader_fail(r,
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
    for (int k = 0; k < 7; k++)
        free(r->meta_str[k]);
    ZSTD_freeDCtx(r->dctx);
    free(r->comp);
    free(r->raw);
    free(r->last_addr);
    free(r->insn_tagged);
    free(r->insn);
    edan_code_table_free(r->code);
    edan_objmap_free(&r->objects);
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
    FILE *f = strcmp(path, "-") == 0 ? stdin : edan_input_fopen(path, "the trace", EDAN_INPUT_STREAM, err);
    if (!f)
        return NULL;
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

const edan_objmap *edan_trace_reader_objects(const edan_trace_reader *r)
{
    return &r->objects;
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
        edan_trace_reader_fail(r,
                               "byte %" PRIu64 ": truncated: the trailer needs %d bytes but the file "
                               "ends after %zu",
                               at, TRAILER_LEN, got + more);
        return -1;
    }
    uint64_t count = edan_get_u64(t + 8), blocks = edan_get_u64(t + 16), statics = edan_get_u64(t + 24),
             end = edan_get_u64(t + 32), sum = edan_get_u64(t + 40);
    if (sum != edan_trace_fnv1a(t + 8, 32)) {
        edan_trace_reader_fail(
            r, "byte %" PRIu64 ": trailer checksum mismatch (stored 0x%016" PRIx64 ", computed 0x%016" PRIx64 ")",
            at + 40, sum, edan_trace_fnv1a(t + 8, 32));
        return -1;
    }
    if (end != at) {
        edan_trace_reader_fail(
            r, "byte %" PRIu64 ": trailer says the blocks end at byte %" PRIu64 " but it starts at byte %" PRIu64,
            at + 32, end, at);
        return -1;
    }
    if (count != r->n_records) {
        edan_trace_reader_fail(r, "byte %" PRIu64 ": trailer says %" PRIu64 " records but the blocks hold %" PRIu64,
                               at + 8, count, r->n_records);
        return -1;
    }
    if (blocks != r->n_blocks) {
        edan_trace_reader_fail(r, "byte %" PRIu64 ": trailer says %" PRIu64 " blocks but the file has %" PRIu64,
                               at + 16, blocks, r->n_blocks);
        return -1;
    }
    if (statics != r->n_defined) {
        edan_trace_reader_fail(r,
                               "byte %" PRIu64 ": trailer says %" PRIu64 " static instructions but the "
                               "blocks define %" PRIu32,
                               at + 24, statics, r->n_defined);
        return -1;
    }
    if (r->header_count != 0 && r->header_count != count) {
        edan_trace_reader_fail(r, "byte 24: header record_count %" PRIu64 " disagrees with the trailer's %" PRIu64,
                               r->header_count, count);
        return -1;
    }
    uint8_t extra;
    if (read_some(r, &extra, 1) != 0) {
        edan_trace_reader_fail(r, "byte %" PRIu64 ": unexpected data after the trailer", at + TRAILER_LEN);
        return -1;
    }
    return r->state == RD_ERROR ? -1 : 0;
}

/* Read the next block (or the trailer). Returns 0 with a block loaded, 1 at
 * a valid trailer, -1 on error. */
int edan_trace_load_block(edan_trace_reader *r)
{
    uint64_t at = r->off;
    uint8_t h[BLOCK_HEADER_LEN];
    size_t got = read_some(r, h, sizeof h);
    if (r->state == RD_ERROR)
        return -1;
    if (got == 0) {
        edan_trace_reader_fail(r, "truncated at byte %" PRIu64 " (no trailer; the tracer did not finish)", at);
        return -1;
    }
    if (got >= 8 && memcmp(h, EDAN_TRACE_TRAILER_MAGIC, 8) == 0)
        return read_trailer(r, h, got, at) == 0 ? 1 : -1;
    if (got < 4 || edan_get_u32(h) != EDAN_TRACE_BLOCK_MAGIC) {
        edan_trace_reader_fail(r,
                               "byte %" PRIu64 ": expected a block (magic \"EBLK\") or the trailer "
                               "(magic \"%s\")%s",
                               at, EDAN_TRACE_TRAILER_MAGIC, got < 8 ? "; the file ends here: truncated" : "");
        return -1;
    }
    if (got < sizeof h) {
        edan_trace_reader_fail(r,
                               "byte %" PRIu64 ": truncated: a block header needs %d bytes but the file "
                               "ends after %zu",
                               at, BLOCK_HEADER_LEN, got);
        return -1;
    }
    uint32_t comp_len = edan_get_u32(h + 4), raw_len = edan_get_u32(h + 8), n_new = edan_get_u32(h + 12);
    uint64_t n_rec = edan_get_u64(h + 16), first = edan_get_u64(h + 24);
    if (raw_len > EDAN_TRACE_MAX_BLOCK_RAW) {
        edan_trace_reader_fail(r, "byte %" PRIu64 ": block raw_len %u exceeds the limit %u", at + 8, raw_len,
                               EDAN_TRACE_MAX_BLOCK_RAW);
        return -1;
    }
    size_t bound = ZSTD_compressBound(raw_len);
    if (comp_len < 5 || comp_len > bound) {
        edan_trace_reader_fail(r,
                               "byte %" PRIu64 ": block comp_len %u is impossible for raw_len %u "
                               "(expected 5..%zu)",
                               at + 4, comp_len, raw_len, bound);
        return -1;
    }
    if (n_new > raw_len / 3) {
        edan_trace_reader_fail(r,
                               "byte %" PRIu64 ": block claims %u new instructions in only %u bytes of "
                               "events",
                               at + 12, n_new, raw_len);
        return -1;
    }
    if (n_rec > raw_len) {
        edan_trace_reader_fail(r,
                               "byte %" PRIu64 ": block claims %" PRIu64 " records in only %u bytes of "
                               "events",
                               at + 16, n_rec, raw_len);
        return -1;
    }
    if (first != r->n_records) {
        edan_trace_reader_fail(r,
                               "byte %" PRIu64 ": block first_record is %" PRIu64 " but %" PRIu64 " records precede it",
                               at + 24, first, r->n_records);
        return -1;
    }
    if (comp_len > r->comp_cap) {
        uint8_t *c = realloc(r->comp, comp_len);
        if (!c) {
            edan_trace_reader_fail(r, "out of memory");
            return -1;
        }
        r->comp = c;
        r->comp_cap = comp_len;
    }
    got = read_some(r, r->comp, comp_len);
    if (r->state == RD_ERROR)
        return -1;
    if (got < comp_len) {
        edan_trace_reader_fail(r,
                               "byte %" PRIu64 ": truncated: block header says %u compressed bytes but "
                               "the file ends after %zu",
                               at, comp_len, got);
        return -1;
    }
    uint64_t p_off = at + BLOCK_HEADER_LEN;
    if (edan_get_u32(r->comp) != ZSTD_FRAME_MAGIC) {
        edan_trace_reader_fail(r, "byte %" PRIu64 ": block payload is not a zstd frame (bad magic)", p_off);
        return -1;
    }
    if (!(r->comp[4] & ZSTD_FHD_CHECKSUM)) {
        edan_trace_reader_fail(r, "byte %" PRIu64 ": block's zstd frame has no content checksum", p_off);
        return -1;
    }
    unsigned long long csize = ZSTD_getFrameContentSize(r->comp, comp_len);
    if (csize != raw_len) {
        if (csize == ZSTD_CONTENTSIZE_ERROR || csize == ZSTD_CONTENTSIZE_UNKNOWN)
            edan_trace_reader_fail(r,
                                   "byte %" PRIu64 ": block's zstd frame header is invalid or does not "
                                   "state its size (expected %u bytes)",
                                   p_off, raw_len);
        else
            edan_trace_reader_fail(r,
                                   "byte %" PRIu64 ": block's zstd frame holds %llu bytes but the block "
                                   "header says raw_len %u",
                                   p_off, csize, raw_len);
        return -1;
    }
    size_t fsize = ZSTD_findFrameCompressedSize(r->comp, comp_len);
    if (ZSTD_isError(fsize) || fsize != comp_len) {
        if (ZSTD_isError(fsize))
            edan_trace_reader_fail(r, "byte %" PRIu64 ": corrupt zstd frame: %s", p_off, ZSTD_getErrorName(fsize));
        else
            edan_trace_reader_fail(r,
                                   "byte %" PRIu64 ": block's zstd frame is %zu bytes but the block "
                                   "header says comp_len %u",
                                   p_off, fsize, comp_len);
        return -1;
    }
    if (raw_len > r->raw_cap || !r->raw) {
        size_t cap = raw_len > 64 ? raw_len : 64;
        uint8_t *b = realloc(r->raw, cap);
        if (!b) {
            edan_trace_reader_fail(r, "out of memory");
            return -1;
        }
        r->raw = b;
        r->raw_cap = cap;
    }
    size_t d = ZSTD_decompressDCtx(r->dctx, r->raw, r->raw_cap, r->comp, comp_len);
    if (ZSTD_isError(d)) {
        edan_trace_reader_fail(r, "byte %" PRIu64 ": corrupt block: zstd: %s", p_off, ZSTD_getErrorName(d));
        return -1;
    }
    if (d != raw_len) {
        edan_trace_reader_fail(r, "byte %" PRIu64 ": block decompressed to %zu bytes, expected raw_len %u", p_off, d,
                               raw_len);
        return -1;
    }
    r->pos = 0;
    r->ev_end = raw_len;
    if (r->split) {
        uint32_t ev_len = raw_len >= EVENTS_LEN_BYTES ? edan_get_u32(r->raw) : 0;
        if (raw_len < EVENTS_LEN_BYTES || ev_len > raw_len - EVENTS_LEN_BYTES) {
            edan_trace_reader_fail(r,
                                   "block at byte %" PRIu64
                                   ": its events_len %u does not fit its %u decompressed bytes "
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
