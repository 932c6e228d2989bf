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
 *
 * Completeness. edan's writer starts a trace with a header line and ends it,
 * when it closes the trace cleanly, with an end line counting the
 * instructions:
 *
 *     # edan text trace 1
 *     0;lw a4,0(a5);0x4000800210
 *     # edan end: 1 instructions
 *
 * Both are comments without ';', which the original EDAN tool skips (its
 * parser ignores every line without a ';'). A trace whose header was read
 * (before its first instruction) must have the end line, with the right
 * count, and nothing but blanks and comments after it: a trace cut at a
 * line boundary (a killed record, a truncated copy) is an error naming the
 * file and its last line. A trace without the header (the original tool's)
 * is read as before, with a warning (edan_text_reader_warning) that its
 * completeness cannot be checked.
 */
#ifndef EDAN_TRACE_TRACE_TEXT_H
#define EDAN_TRACE_TRACE_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "trace/exec.h"
#include "util/error.h"

/* edan's header line, and the end line "# edan end: N instructions". */
#define EDAN_TEXT_HEADER_PREFIX "# edan text trace"
#define EDAN_TEXT_HEADER EDAN_TEXT_HEADER_PREFIX " 1"
#define EDAN_TEXT_END_PREFIX "# edan end: "
#define EDAN_TEXT_END_SUFFIX " instructions"

/* Longest accepted line, in bytes (without the newline). */
#define EDAN_TEXT_MAX_LINE 4096

typedef struct edan_text_reader edan_text_reader;

/* path "-" reads stdin. */
edan_text_reader *edan_text_reader_open(const char *path, edan_error *err);
/* Read from an open stream; name is used in messages. Takes ownership of f
 * (closed by edan_text_reader_close, or on failure). */
edan_text_reader *edan_text_reader_open_file(FILE *f, const char *name, edan_error *err);
/* Fill up to cap records; returns the number filled, 0 at the end, -1 on
 * error ("file:line: reason"; a trace with edan's header and without its end
 * line is one). Records returned before an error are valid. */
long edan_text_reader_next(edan_text_reader *r, edan_exec *out, size_t cap, edan_error *err);
/* Once next() returned 0: NULL, or a one-line warning naming the file when
 * the trace had neither edan's header nor its end line, so that whether it
 * is complete could not be checked. For the command line to show. */
const char *edan_text_reader_warning(const edan_text_reader *r);
/* One entry per distinct (pc, disassembly); raw is 0 (the text has no encodings). */
const edan_code_table *edan_text_reader_code(const edan_text_reader *r);
void edan_text_reader_close(edan_text_reader *r);

typedef struct edan_text_writer edan_text_writer;

/* Create (truncate) path, "-" for stdout. The header line, then lines
 * "vcpu;disassembly" plus ";0xaddr" for a performed access; with_pc inserts
 * ";0xpc" after the vcpu like the original tracer's files. finish() writes
 * the end line; nothing else does. */
edan_text_writer *edan_text_writer_open(const char *path, bool with_pc, edan_error *err);
/* edan_consumer.consume-compatible; errors are remembered for close. */
void edan_text_writer_consume(void *writer, const edan_exec *recs, size_t n);
/* edan_consumer.finish-compatible: writes the end line and flushes; 0, or
 * -1 if a write failed. */
int edan_text_writer_finish(void *writer);
/* Finish if not done and release; 0, or -1 with err naming the path and cause. */
int edan_text_writer_close(edan_text_writer *w, edan_error *err);
/* Release without finishing (the input broke off): no end line, and the file
 * being written is removed; a file that had the name before is untouched. */
void edan_text_writer_abandon(edan_text_writer *w);
edan_consumer edan_text_writer_consumer(edan_text_writer *w);

#endif
