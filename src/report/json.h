/*
 * json.h - the JSON writing every report section shares: strings escaped,
 * numbers as integers when they are whole, non-finite values as null.
 */
#ifndef EDAN_REPORT_JSON_H
#define EDAN_REPORT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The length of the well-formed UTF-8 sequence at s (1 to 4), or 0 (RFC 3629: no overlongs, no surrogates); the
 * JSON and the CSV writers replace a byte that starts none with U+FFFD. */
int edan_utf8_len(const unsigned char *s);
/* A JSON string (escaped; bytes that are not UTF-8 become U+FFFD, so the report stays valid JSON), or null for NULL. */
void edan_json_str(FILE *f, const char *s);
/* A number: whole values below 9e15 without a fraction, others with 17 digits, NaN and infinities as null. */
void edan_json_num(FILE *f, double v);
/* [a0,a1,...] */
void edan_json_u64_array(FILE *f, const uint64_t *a, size_t n);
/* [a0,a1,...] as edan_json_num writes each. */
void edan_json_num_array(FILE *f, const double *a, size_t n);

#endif
