/*
 * strict_check.h - strict validators of edan's machine-readable outputs, for
 * the fuzz target of the outputs (fuzz_outputs.c) and its self-test.
 *
 * JSON (RFC 8259): one value and whitespace around it; strings of valid
 * UTF-8 (RFC 3629: no overlong forms, no surrogates) without raw control
 * characters, escapes only \" \\ \/ \b \f \n \r \t and \uXXXX with
 * surrogates in pairs; numbers in the RFC's grammar (no NaN, no infinity,
 * no leading zeros, no '+'); no key twice in one object; at most 256 levels.
 *
 * CSV (RFC 4180, with LF accepted as the line break as well as CRLF): a
 * header row, then rows with as many fields; a field is either quoted ('"',
 * anything with '"' doubled, '"') or holds no '"', ',', CR or LF; every row
 * ends with a line break; every byte is valid UTF-8 (the encoding edan's
 * outputs promise, as the JSON's does).
 *
 * Each returns 0, or -1 with why (at least 160 bytes) saying where.
 */
#ifndef EDAN_FUZZ_STRICT_CHECK_H
#define EDAN_FUZZ_STRICT_CHECK_H

#include <stddef.h>

int strict_json(const char *s, size_t n, char *why, size_t cap);
int strict_csv(const char *s, size_t n, char *why, size_t cap);

#endif
