/*
 * trace_file.h - the binary trace (trace_format.h) writer and reader, format
 * detection, and a unified source that reads either a binary or a text trace.
 *
 * Readers validate everything they read: a corrupt or truncated file yields
 * an error naming the file, the byte offset and what was expected; it never
 * crashes the reader or makes it allocate more than the format's limits.
 */
#ifndef EDAN_TRACE_TRACE_FILE_H
#define EDAN_TRACE_TRACE_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "trace/exec.h"
#include "util/error.h"
#include "util/symbols/symbols.h"

/* Metadata stored in the header. Any field may be NULL (absent). */
typedef struct edan_trace_meta {
    const char *binary;         /* path of the traced program */
    const char *args;           /* its arguments, space separated */
    const char *filter;         /* function names, comma separated */
    const char *filter_callees; /* "include" or "exclude" */
    const char *binary_hash;    /* "fnv1a64:" and 16 hex digits of the program's bytes when it was traced */
    const char *isa;            /* "riscv64" (also when NULL), "x86-64" or "aarch64" (isa/native.h) */
    /* The trace may hold warm records (EDAN_EXEC_WARM, trace/exec.h): the records a filtered region's
     * caches and predictor follow outside it (format version 3). Readers fill it from the version. */
    bool warm;
    /* The trace may carry the shared objects a dynamically linked program mapped (EDAN_EV_OBJECT, version 6):
     * the writer then writes those edan_trace_writer_set_objects() gave it. Readers fill it from the version. */
    bool objects;
    /* The writer: the map the tracer fills as the program maps objects (or NULL: edan_trace_writer_set_objects
     * at the end); it writes each object before the records of its code (EDAN_TRACE_FLAG_OBJECTS_AHEAD).
     * Readers leave it NULL. */
    const edan_objmap *objmap;
    /* Readers: the trace's objects precede their code's records (EDAN_TRACE_FLAG_OBJECTS_AHEAD). */
    bool objects_ahead;
    /* Filled by readers from the file; ignored by the writer, which writes
     * its own. */
    const char *created_by;
    const char *created_at;
} edan_trace_meta;

/* ---- writer ------------------------------------------------------------ */

typedef struct edan_trace_writer edan_trace_writer;

/* Measured on 6M-record streams: level 3 saves under 3% over level 1 (e.g.
 * 0.637 vs 0.640 bytes per instruction with a pointer-chasing load) but
 * writes 2-3x slower, and the writer runs inside the tracer. */
#define EDAN_TRACE_DEFAULT_LEVEL 1

/* Create (truncate) path, "-" for stdout. Nothing is written until the first
 * block is full or the writer is closed, so write errors show up at close. */
edan_trace_writer *edan_trace_writer_open(const char *path, const edan_trace_meta *meta, edan_error *err);
/* zstd compression level for blocks compressed from now on (default
 * EDAN_TRACE_DEFAULT_LEVEL). */
void edan_trace_writer_set_level(edan_trace_writer *w, int level);
/* Raw bytes of events per block (default and maximum 2 MiB, minimum 256).
 * Small blocks are for tests. */
void edan_trace_writer_set_block_size(edan_trace_writer *w, size_t bytes);
/* Compress and write blocks on a thread of the writer's own, overlapping
 * the encoding of the next block (the default), or in the caller's thread.
 * The file is the same byte for byte. Only before the first record. */
void edan_trace_writer_set_background(edan_trace_writer *w, bool on);
/* edan_consumer.consume-compatible. Errors are remembered and reported by close. */
void edan_trace_writer_consume(void *writer, const edan_exec *recs, size_t n);
/* The shared objects to write when the trace is finished (edan_trace_meta.objects, without an objmap): the
 * map must stay valid until then. The producer sets it before it finishes the trace, from any thread, as long as
 * finishing is ordered after it (a thread that finishes it was joined or signalled after the call). */
void edan_trace_writer_set_objects(edan_trace_writer *w, const edan_objmap *objects);
/* edan_consumer.finish-compatible: flushes the last block and writes the
 * trailer; returns 0, or -1 if any write failed (close() says why). */
int edan_trace_writer_finish(void *writer);
/* Finish if not done, release everything; 0 on success, -1 with err set. */
int edan_trace_writer_close(edan_trace_writer *w, edan_error *err);
/* Give up a trace being written (its input broke off): nothing takes its name, a file already there stays. */
void edan_trace_writer_abandon(edan_trace_writer *w);
/* A consumer feeding this writer (finish = edan_trace_writer_finish). */
edan_consumer edan_trace_writer_consumer(edan_trace_writer *w);

/* ---- reader ------------------------------------------------------------ */

typedef struct edan_trace_reader edan_trace_reader;

edan_trace_reader *edan_trace_reader_open(const char *path, edan_error *err);
/* Read from an open stream (need not be seekable); name is used in error
 * messages. The reader takes ownership of f and closes it, also on failure. */
edan_trace_reader *edan_trace_reader_open_file(FILE *f, const char *name, edan_error *err);
const edan_trace_meta *edan_trace_reader_meta(const edan_trace_reader *r);
/* Fill up to cap records; returns the number filled, 0 at the clean end (a
 * valid trailer), -1 on error. Records returned before an error are valid.
 * record.id is the file's id, equal to the id in edan_trace_reader_code. */
long edan_trace_reader_next(edan_trace_reader *r, edan_exec *out, size_t cap, edan_error *err);
/* Of the records the last edan_trace_reader_next() returned: how many are warm (EDAN_EXEC_WARM), and how many
 * of those are the kernel's writes (EDAN_EXEC_KERNEL). */
void edan_trace_reader_last_counts(const edan_trace_reader *r, size_t *warm, size_t *kernel);
/* The shared objects the trace named so far (EDAN_EV_OBJECT): all of them once next() returned 0. */
const edan_objmap *edan_trace_reader_objects(const edan_trace_reader *r);
/* Static instructions defined so far (it grows as the file is read). */
const edan_code_table *edan_trace_reader_code(const edan_trace_reader *r);
/* The header's record_count (0 if the writer could not patch it). */
uint64_t edan_trace_reader_header_count(const edan_trace_reader *r);
void edan_trace_reader_close(edan_trace_reader *r);

/* ---- detection and unified source ------------------------------------- */

enum { EDAN_TRACE_BINARY = 1, EDAN_TRACE_TEXT = 2, EDAN_TRACE_MEMGAZE = 3 };

/* 1 (EDAN_TRACE_BINARY) if path starts with the binary magic, 2
 * (EDAN_TRACE_TEXT) otherwise (and for "-"), -1 with err set if it cannot be
 * read. */
int edan_trace_detect(const char *path, edan_error *err);

typedef struct edan_trace_source edan_trace_source;

/* Open a binary, text or MemGaze load trace (trace/mg_exec.h), told by its first bytes ("-": stdin). */
edan_trace_source *edan_trace_source_open(const char *path, edan_error *err);
int edan_trace_source_format(const edan_trace_source *s);
/* Metadata; all fields NULL for a text trace. */
const edan_trace_meta *edan_trace_source_meta(const edan_trace_source *s);
long edan_trace_source_next(edan_trace_source *s, edan_exec *out, size_t cap, edan_error *err);
/* The warm records and kernel writes among those the last next() returned (edan_trace_reader_last_counts()):
 * true for a binary trace, whose reader counts them as it decodes; false, nothing set, for the others. */
bool edan_trace_source_last_counts(const edan_trace_source *s, size_t *warm, size_t *kernel);
/* The instructions the trace holds, as its header says (a binary trace); 0 when unknown. */
uint64_t edan_trace_source_count(const edan_trace_source *s);
const edan_code_table *edan_trace_source_code(const edan_trace_source *s);
/* A binary trace's shared objects (edan_trace_reader_objects()); NULL for the other formats. */
const edan_objmap *edan_trace_source_objects(const edan_trace_source *s);
/* Once next() returned 0: NULL, or a warning for the user (a text trace
 * whose completeness could not be checked: edan_text_reader_warning). */
const char *edan_trace_source_warning(const edan_trace_source *s);
void edan_trace_source_close(edan_trace_source *s);
/* Feed the whole source to c in batches, then call c->finish. Returns 0, or
 * -1 with err set when reading fails (c->finish is still called) or finish
 * returns non-zero (err then says the consumer failed). */
int edan_trace_source_run(edan_trace_source *s, const edan_consumer *c, edan_error *err);

#endif
