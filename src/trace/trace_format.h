/*
 * trace_format.h - the edan binary trace format, version 6. This header IS
 * the format: the reader and writer implement exactly what is written here.
 * Readers also read versions 1 to 5. Version 6 is version 5 with
 * EDAN_EV_OBJECT events (the writer writes it for a dynamically linked
 * program: edan_trace_meta.objects) and the header flags
 * EDAN_TRACE_FLAG_COLD and EDAN_TRACE_FLAG_OBJECTS_AHEAD. Version 3 has no EDAN_EV_WARM events
 * (the writer writes it for a trace without warm records, 5 for one that may
 * hold them: edan_trace_meta.warm); version 4 is version 5 without
 * EDAN_EV_KERNEL events; versions 1 and 2 are RISC-V only: version
 * 2 is version 3 of ISA riscv64, version 1 differs from it only in a block's
 * payload.
 *
 * All integers are little-endian. A file is:
 *
 *   header   fixed part (struct edan_trace_header_fixed, 64 bytes) followed by
 *            header_len - 64 bytes of key/value metadata: a sequence of
 *            entries "u16 key_len, key bytes, u32 value_len, value bytes"
 *            (UTF-8, no NUL). Keys written by edan: "isa" ("riscv64",
 *            "x86-64" or "aarch64", as the fixed part's isa field),
 *            "binary" (path of the traced program), "args" (its arguments,
 *            space separated), "filter" (function names, comma separated),
 *            "filter_callees" ("include"/"exclude"), "created_by", "created_at",
 *            "binary_hash" ("fnv1a64:" and 16 hex digits of the program's
 *            bytes when traced). Readers ignore keys they do not know.
 *   blocks   zero or more blocks, each:
 *              struct edan_trace_block_header (32 bytes)
 *              payload: one zstd frame (with content checksum) of raw_len bytes,
 *                       compressed to comp_len bytes: u32 events_len, the
 *                       events (events_len bytes), then the addresses (the
 *                       rest). Version 1: the events alone, each address
 *                       inline after its instruction's event.
 *   trailer  struct edan_trace_trailer (48 bytes), last bytes of the file.
 *
 * A file without a valid trailer, or whose blocks do not add up to the
 * trailer's counts, is truncated; readers report the byte offset where the
 * valid data ends. record_count in the header is patched at close when the
 * output is seekable and is 0 otherwise (a pipe); the trailer is authoritative.
 *
 * Events (the uncompressed block payload) are a stream of LEB128 varints.
 * Decoder state carried across events AND blocks (blocks are decoded in
 * order): prev_id (initially -1, i.e. "next sequential" is id 0), the number
 * of defined ids n_defined (initially 0), last_addr[id] per static instruction
 * (initially 0), and the current vcpu (initially 0).
 *
 *   v = varint
 *   if (v & 1) == 0:  an executed instruction.
 *        id = prev_id + 1 + unzigzag(v >> 1)
 *        if id == n_defined: a new static instruction follows inline:
 *             varint pc, varint raw (the encoding; compressed ones in the low
 *             16 bits). n_defined += 1. The reader decodes it once.
 *             ISAs x86-64 and aarch64 (version 3 on): varint pc, varint len
 *             (1..15), then the encoding's len bytes. An instruction that
 *             accesses two places (isa/native.h: EDAN_NATIVE_TWO_PLACES)
 *             defines two ids, id (its first access) and id + 1 (its
 *             second): n_defined += 2. static_count counts ids.
 *        else id must be < n_defined (otherwise the trace is corrupt).
 *        if the instruction has a memory kind (decoded from raw):
 *             varint a, the next of the block's addresses: 0 means "no
 *             access performed" (EDAN_EXEC_NO_ACCESS); otherwise
 *             addr = last_addr[id] + unzigzag(a - 1) (mod 2^64), and
 *             last_addr[id] = addr.
 *        prev_id = id.
 *   if (v & 1) == 1:  a control event, kind = v >> 1:
 *        EDAN_EV_VCPU (0): varint vcpu; later instructions ran on that vCPU.
 *        EDAN_EV_WARM (1, version 4): varint 1 or 0; later instructions ran
 *             outside the filtered region, recorded only to warm the caches
 *             and predictor (EDAN_EXEC_WARM in trace/exec.h), or inside it
 *             (the state at the start of the stream).
 *        EDAN_EV_KERNEL (2, version 5): varint d; one record: the kernel
 *             wrote the EDAN_KERNEL_LINE (64) bytes at line * 64 for the
 *             program (a read() into its buffer), where line = last_line +
 *             unzigzag(d) (mod 2^58) and last_line (initially 0, carried
 *             like prev_id) becomes line. The record is a warm one whatever
 *             the EDAN_EV_WARM state (EDAN_EXEC_WARM | EDAN_EXEC_KERNEL in
 *             trace/exec.h, on the current vcpu); it counts in the block's,
 *             the header's and the trailer's records, and changes neither
 *             prev_id nor any last_addr.
 *        EDAN_EV_OBJECT (3, version 6): varint lo, varint hi - lo (> 0),
 *             varint base, varint len (1..EDAN_OBJMAP_MAX_PATH), then len
 *             bytes: a shared object the program mapped (util/symbols/objects.h):
 *             its file's path, the addresses [lo, hi) its mappings covered
 *             and where its file offset 0 was mapped. The code of shared
 *             objects keeps its run-time addresses in the records; these
 *             events name it. They are not records and change no decoder
 *             state. With the header flag EDAN_TRACE_FLAG_OBJECTS_AHEAD an
 *             object's event precedes the records of its code (the writer
 *             writes each before the first batch of records after the tracer
 *             learnt it, so a reader knows a library's functions as the
 *             stream goes); without it they may all be at the end. The
 *             writer also writes at the end of the last block (a block of
 *             them alone when the records filled the last one) each object
 *             whose mappings grew after its event; a reader merges events of
 *             the same path and base (their union). At most EDAN_OBJMAP_MAX
 *             distinct objects.
 *        other kinds are reserved: a reader rejects them as corrupt.
 *
 * A block's events are consumed exactly by its records (and control
 * events), and its addresses exactly by its memory instructions.
 *
 * Sequential code then costs one byte per instruction before compression
 * (v == 0) and strided accesses repeat the same delta, which zstd removes.
 * Addresses apart from the events (version 2) are what make zstd fast: the
 * events of a loop repeat exactly however its addresses vary, and an
 * irregular access's delta no longer breaks the events' long matches into
 * short ones around it. Decompression took 0.8 instead of 1.8 ns per
 * record for hydro and 1.6 instead of 3.9 for the pointer chase, and their
 * blocks shrank by 35% and 18% (docs/benchmarks.md).
 */
#ifndef EDAN_TRACE_FORMAT_H
#define EDAN_TRACE_FORMAT_H

#include <stdint.h>

#define EDAN_TRACE_MAGIC "EDANTRC1"        /* 8 bytes, no NUL */
#define EDAN_TRACE_BLOCK_MAGIC 0x4b4c4245u /* "EBLK" read as u32 LE */
#define EDAN_TRACE_TRAILER_MAGIC "EDANEND1"
#define EDAN_TRACE_VERSION 6u         /* written when the trace may hold shared objects, read */
#define EDAN_TRACE_VERSION_5 5u       /* written when it may hold warm records but no objects (else 3) */
#define EDAN_TRACE_VERSION_COLD 3u    /* written for a trace without warm records */
#define EDAN_TRACE_VERSION_WARM 4u    /* the first with EDAN_EV_WARM events */
#define EDAN_TRACE_VERSION_KERNEL 5u  /* the first with EDAN_EV_KERNEL events */
#define EDAN_TRACE_VERSION_OBJECTS 6u /* the first with EDAN_EV_OBJECT events and header flags */
/* Header flag (version 6 on): the trace holds no warm records and no kernel writes (a --cold run), as version 3. */
#define EDAN_TRACE_FLAG_COLD 1u
/* Header flag (version 6 on): each EDAN_EV_OBJECT event precedes the records of its object's code. */
#define EDAN_TRACE_FLAG_OBJECTS_AHEAD 2u
#define EDAN_TRACE_VERSION_OLDEST 1u /* read, with EDAN_TRACE_VERSION */
#define EDAN_TRACE_VERSION_ISAS 3u   /* the first with ISAs other than riscv64 */
/* The fixed part's isa field: edan_isa (isa/riscv.h) + 1. */
#define EDAN_TRACE_ISA_RISCV64 1u
#define EDAN_TRACE_ISA_X86_64 2u
#define EDAN_TRACE_ISA_AARCH64 3u
/* Bytes of a native encoding in a definition. */
#define EDAN_TRACE_MAX_ENC 15u

/* Raw (uncompressed) payload of one block is at most this large. */
#define EDAN_TRACE_MAX_BLOCK_RAW (16u << 20)

enum { EDAN_EV_VCPU = 0, EDAN_EV_WARM = 1, EDAN_EV_KERNEL = 2, EDAN_EV_OBJECT = 3 };

struct edan_trace_header_fixed {
    char magic[8];         /* EDAN_TRACE_MAGIC */
    uint32_t version;      /* EDAN_TRACE_VERSION */
    uint32_t header_len;   /* total header bytes including this fixed part */
    uint32_t isa;          /* EDAN_TRACE_ISA_* */
    uint32_t flags;        /* 0, or (version 6) EDAN_TRACE_FLAG_COLD | EDAN_TRACE_FLAG_OBJECTS_AHEAD */
    uint64_t record_count; /* executed instructions, or 0 if unknown */
    uint8_t reserved[32];  /* 0 */
};

struct edan_trace_block_header {
    uint32_t magic;        /* EDAN_TRACE_BLOCK_MAGIC */
    uint32_t comp_len;     /* bytes of the zstd frame that follows */
    uint32_t raw_len;      /* bytes of events once decompressed (<= EDAN_TRACE_MAX_BLOCK_RAW) */
    uint32_t n_new_insns;  /* static instructions defined in this block */
    uint64_t n_records;    /* executed instructions in this block */
    uint64_t first_record; /* index of the block's first executed instruction */
};

struct edan_trace_trailer {
    char magic[8];         /* EDAN_TRACE_TRAILER_MAGIC */
    uint64_t record_count; /* executed instructions in the whole file */
    uint64_t block_count;
    uint64_t static_count; /* distinct static instructions defined */
    uint64_t blocks_end;   /* file offset where the trailer starts */
    uint64_t checksum;     /* FNV-1a 64 of the four fields above */
};

#endif
