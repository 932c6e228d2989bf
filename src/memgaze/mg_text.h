/*
 * mg_text.h - the text files MemGaze writes, read line by line: a buffered
 * line reader (no allocation per line) and strict field parsers shared by
 * the load trace (mg_trace), the load classes (mg_classes) and the function
 * ranges (mg_struct).
 *
 * Every error names the file and the line ("path:line: what was wrong").
 * A last line without a newline is refused: MemGaze's tools end every line
 * with one, so such a line was cut off, and parsing what is left of it would
 * silently change the last number.
 */
#ifndef EDAN_MEMGAZE_MG_TEXT_H
#define EDAN_MEMGAZE_MG_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

typedef struct edan_mg_lines {
    FILE *f;
    char name[1024]; /* the file as messages name it */
    char *buf;       /* bytes read, [pos, len) not yet returned */
    size_t len, pos, cap;
    size_t max_line; /* longest accepted line, without its newline */
    uint64_t line;   /* number of the line last returned (1 = first) */
    bool eof;
} edan_mg_lines;

/* Open path for reading ("-" is refused: every reader here needs a file). 0, or -1 with err naming the file. */
int edan_mg_lines_open(edan_mg_lines *l, const char *path, size_t max_line, edan_error *err);
/* Read from f, named name in messages; takes ownership of f (closed by close, or on failure). 0 or -1. */
int edan_mg_lines_open_file(edan_mg_lines *l, FILE *f, const char *name, size_t max_line, edan_error *err);
/*
 * The next line in *line (NUL-terminated in place, without its newline and a
 * '\r' before it) of *len bytes: 1, 0 at the end of the file, or -1 with err
 * ("name:line: ..."). The line stays valid until the next call.
 */
int edan_mg_lines_next(edan_mg_lines *l, char **line, size_t *len, edan_error *err);
/* err = "name:line: " and the message, for the line last returned. */
void edan_mg_lines_fail(const edan_mg_lines *l, edan_error *err, const char *fmt, ...) EDAN_PRINTF(3, 4);
void edan_mg_lines_close(edan_mg_lines *l);

/* ---- fields ---------------------------------------------------------------- */

/*
 * Split a line at runs of blanks (spaces and tabs) into at most max fields,
 * each NUL-terminated in place. Returns the number of fields, or max + 1 when
 * more follow (fields[0] .. fields[max - 1] are split; the rest is left as it is).
 */
int edan_mg_split(char *line, char **fields, int max);
/* A hexadecimal number, "0x" optional (MemGaze's files use both), at most 64 bits; 0 or -1. */
int edan_mg_parse_hex(const char *s, uint64_t *out);
/* A decimal number without sign of at most max; 0 or -1. */
int edan_mg_parse_dec(const char *s, uint64_t max, uint64_t *out);
/* A field for a message: at most 40 bytes of it, and "..." when longer. */
const char *edan_mg_quote(const char *s, char buf[48]);

#endif
