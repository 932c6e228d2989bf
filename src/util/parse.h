/*
 * parse.h - strict number parsing and key/value files, shared by the option
 * parser, the cost-table loader and the plugin's option file.
 */
#ifndef EDAN_UTIL_PARSE_H
#define EDAN_UTIL_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/*
 * Numbers: every number of an option, a cost table or a machine file is read
 * by these three, with one grammar: plain decimal only (no blanks, no
 * hexadecimal such as "0x10", no "inf" or "nan"); a value that does not fit
 * is an error, never a wrapped or rounded one.
 */
/* A whole string of decimal digits (no sign, no spaces) that fits in 64 bits; 0 or -1. */
int edan_parse_u64(const char *s, uint64_t *out);
/* The same of the len characters at s (a list's element). */
int edan_parse_u64_n(const char *s, size_t len, uint64_t *out);
/* A size of len characters: "32K", "32KiB", "32kB", "1M", "2G", "65536" -> bytes (binary units); 0 or -1. */
int edan_parse_size(const char *s, size_t len, uint64_t *out);
/*
 * The next name of a list of function names at p: names are separated by
 * ',' (or a lone ':') outside parentheses, angle and square brackets, so
 * C++ signatures ("f(int, double)", "ns::g<int, 2>") stay whole, and so does
 * a library's function ("libm.so:exp", "libm.so.6:exp"). Returns
 * the name's start and its length in *len, or NULL after the last.
 */
const char *edan_names_next(const char *p, size_t *len);
/* A whole string that is a decimal real number ("-1.5", "2e-3") within +-1e300, not a denormal; 0 or -1. */
int edan_parse_double(const char *s, double *out);
/* The same of the len characters at s (a list's element). */
int edan_parse_double_n(const char *s, size_t len, double *out);
/*
 * Lists: the next element of the list at *p (start with *p = the value),
 * elements separated by any one character of seps. Returns 1 with the
 * element at *elem, *len characters (never 0); 0 after the last; -1 for an
 * empty element (a separator first, last or doubled: "1,,2", ","), which
 * is an error: a list never skips one silently. No length limit.
 */
int edan_list_next(const char **p, const char *seps, const char **elem, size_t *len);

/*
 * Read a file of "key value" or "key=value" lines ('#' starts a comment,
 * blank lines are skipped; a line with only a key passes value NULL). For each
 * line, fn is called; a non-zero return stops the reading, and the message fn
 * left in *line_err is reported as "path:line: message". Returns 0 or -1.
 */
typedef int (*edan_kv_fn)(void *ctx, const char *key, const char *value, edan_error *line_err);
int edan_kv_file_read(const char *path, const char *what, edan_kv_fn fn, void *ctx, edan_error *err);

#endif
