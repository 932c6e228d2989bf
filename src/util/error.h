/*
 * error.h - error reporting shared by all stages.
 *
 * Library code never prints and never exits: it fills an edan_error with one
 * line saying what went wrong and where (file, byte offset or line, what was
 * expected) and returns a failure value. Only the command line decides how to
 * show it and which exit status to use (2 for bad input or options).
 */
#ifndef EDAN_UTIL_ERROR_H
#define EDAN_UTIL_ERROR_H

#include <stdbool.h>

typedef struct edan_error {
    bool set;
    char msg[1024];
} edan_error;

#if defined(__GNUC__)
#define EDAN_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define EDAN_PRINTF(a, b)
#endif

/* Record an error (the first one wins: later calls do not overwrite it). */
void edan_error_set(edan_error *e, const char *fmt, ...) EDAN_PRINTF(2, 3);
void edan_error_clear(edan_error *e);

#endif
