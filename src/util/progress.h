/*
 * progress.h - the one progress line edan and its plugin print on stderr
 * (--progress, or when stderr is a terminal): the phase, and with a known
 * total (a trace's record count, the instructions a first run counted) the
 * percentage and the time left; without one, the count and the rate.
 */
#ifndef EDAN_UTIL_PROGRESS_H
#define EDAN_UTIL_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/*
 * "tracing 42% of 29.1M instructions, 45.2M/s, 0:01 left" (total > 0), or
 * "tracing 12.3M instructions, 45.2M/s" (total 0), into buf; seconds since
 * the phase began.
 */
void edan_progress_format(char *buf, size_t cap, const char *phase, uint64_t done, uint64_t total, double seconds);
/* The phase's last line: "tracing done: 29.1M instructions in 0.6 s". */
void edan_progress_done(char *buf, size_t cap, const char *phase, uint64_t done, double seconds);

#endif
