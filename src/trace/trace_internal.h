/*
 * trace_internal.h - what the binary trace's writer (trace_writer.c), reader
 * (trace_reader.c) and event decoder (trace_decode.c) share: the format's
 * sizes and limits, the reader's state, and a few helpers. The format
 * itself is trace_format.h.
 */
#ifndef EDAN_TRACE_TRACE_INTERNAL_H
#define EDAN_TRACE_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <zstd.h>

#include "isa/native.h"
#include "trace/trace_file.h"
#include "trace/trace_format.h"
#include "util/error.h"
#include "util/varint.h"

#define HEADER_FIXED_LEN 64
#define BLOCK_HEADER_LEN 32
#define TRAILER_LEN 48
/* Metadata is a handful of short strings; anything larger is corruption. */
#define MAX_HEADER_LEN (1u << 20)
/* Raw bytes the writer accumulates before compressing a block. Measured:
 * larger blocks barely improve the ratio once past ~1 MiB. */
#define WRITER_BLOCK_TARGET (2u << 20)
/* Upper bound on the bytes one record can add to a block: a vcpu event
 * (1 + 3), a warm event (2), the id (<= 5), pc (10), raw (5) and the address (10). A block
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
_Static_assert(MAX_EVENT_BYTES >= 4 + 5 + 10 + 1 + EDAN_TRACE_MAX_ENC + 10,
               "one record's bytes, in both streams, fit past the target (a native definition the longest)");

static inline uint64_t edan_trace_fnv1a(const uint8_t *p, size_t n)
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
static inline int edan_trace_decode_raw(uint64_t pc, uint32_t raw, edan_insn *out)
{
    uint8_t b[4];
    edan_put_u32(b, raw);
    unsigned len = edan_rv_insn_length((uint16_t)raw);
    if (len == 2 && raw > 0xffff)
        return -1;
    edan_insn_clear(out);
    return edan_rv_decode(b, len, pc, out) == EDAN_DECODE_OK ? 0 : -1;
}

/* ---- the reader's state ----------------------------------------------- */

enum { RD_OK, RD_DONE, RD_ERROR };

struct edan_trace_reader {
    FILE *f;
    bool own;
    char *name;
    uint64_t off; /* file offset of the next unread byte */
    int state;
    char msg[1024]; /* the error, repeated by later calls */

    edan_trace_meta meta;
    char *meta_str[7];
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
    bool split;          /* version 2: a block's addresses follow its events (trace_format.h) */
    bool warm_ok;        /* version 4: EDAN_EV_WARM events may occur */
    bool kernel_ok;      /* version 5: EDAN_EV_KERNEL events may occur */
    bool objects_ok;     /* version 6: EDAN_EV_OBJECT events may occur */
    edan_objmap objects; /* those read so far */
    uint32_t ev_end;     /* where the block's events end: the addresses start here (split) */
    size_t pos;          /* the next event */
    size_t apos;         /* the next address (split) */
    uint32_t blk_new, blk_new_seen;
    uint64_t blk_records, blk_records_seen;

    /* Decoder state, as in trace_format.h. */
    int64_t prev_id;
    uint32_t n_defined;
    uint16_t vcpu;
    uint16_t warm;        /* EDAN_EXEC_WARM after an EDAN_EV_WARM 1 event, else 0: every record's flags have it */
    uint64_t kernel_line; /* the last EDAN_EV_KERNEL's line */
    int isa;              /* edan_isa of the header: riscv64 definitions carry raw, native ones their bytes */
    uint64_t n_records;
    /* of the records the last edan_trace_reader_next() returned: the warm ones, and the kernel's writes among
       them (edan_trace_reader_last_counts()), counted as they are decoded so that no consumer reads a batch
       only to count them */
    uint64_t last_warm, last_kernel;
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

/* Remember the reader's first error (later calls repeat it). */
void edan_trace_reader_fail(edan_trace_reader *r, const char *fmt, ...) EDAN_PRINTF(2, 3);
/* Read and decompress the next block: RD_OK, RD_DONE at the trailer, RD_ERROR. */
int edan_trace_load_block(edan_trace_reader *r);

#endif
