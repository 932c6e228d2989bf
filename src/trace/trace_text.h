/*
 * trace_text.h - the text trace format of the original EDAN toolchain.
 *
 * One line per executed instruction, fields separated by ';':
 *
 *     [vcpu;][0xPC;]mnemonic op1,op2,...[ # comment][;0xADDR]...
 *
 * e.g. "0;0x104be;lw a4,0(a5);0x4000800210", "lw a4,0(a5);0x40080290",
 * "0;ret ", "bne a3,a5,-6 # 0x104be". The vCPU is decimal; a 0x field before
 * the disassembly is the pc, 0x fields after it are data addresses. The
 * format records neither access size nor direction: both come from the
 * mnemonic (edan_rv_parse). A memory instruction without an address is
 * EDAN_EXEC_NO_ACCESS; when several addresses are listed (AMOs may repeat
 * theirs) they must agree and the first is used. Empty lines and lines
 * starting with '#' are skipped.
 */
#ifndef EDAN_TRACE_TRACE_TEXT_H
#define EDAN_TRACE_TRACE_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "trace/exec.h"
#include "util/error.h"

/* Longest accepted line, in bytes (without the newline). */
#define EDAN_TEXT_MAX_LINE 4096

typedef struct edan_text_reader edan_text_reader;

/* path "-" reads stdin. */
edan_text_reader *edan_text_reader_open(const char *path, edan_error *err);
/* Read from an open stream; name is used in messages. Takes ownership of f
 * (closed by edan_text_reader_close, or on failure). */
edan_text_reader *edan_text_reader_open_file(FILE *f, const char *name, edan_error *err);
/* Fill up to cap records; returns the number filled, 0 at the end, -1 on
 * error ("file:line: reason"). Records returned before an error are valid. */
long edan_text_reader_next(edan_text_reader *r, edan_exec *out, size_t cap, edan_error *err);
/* One entry per distinct (pc, disassembly); raw is 0 (the text has no encodings). */
const edan_code_table *edan_text_reader_code(const edan_text_reader *r);
void edan_text_reader_close(edan_text_reader *r);

typedef struct edan_text_writer edan_text_writer;

/* Create (truncate) path, "-" for stdout. Lines are "vcpu;disassembly" plus
 * ";0xaddr" for a performed access; with_pc inserts ";0xpc" after the vcpu
 * like the original tracer's files. */
edan_text_writer *edan_text_writer_open(const char *path, bool with_pc, edan_error *err);
/* edan_consumer.consume-compatible; errors are remembered for close. */
void edan_text_writer_consume(void *writer, const edan_exec *recs, size_t n);
/* edan_consumer.finish-compatible: flushes; 0, or -1 if a write failed. */
int edan_text_writer_finish(void *writer);
/* Finish if not done and release; 0, or -1 with err naming the path and cause. */
int edan_text_writer_close(edan_text_writer *w, edan_error *err);
edan_consumer edan_text_writer_consumer(edan_text_writer *w);

#endif
