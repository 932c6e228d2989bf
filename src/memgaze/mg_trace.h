/*
 * mg_trace.h - MemGaze's load traces (pnnl/memgaze, collected with Intel PT
 * ptwrite on x86), read as a stream.
 *
 * One load a line, fields separated by blanks:
 *
 *     IP ADDR CPU TIME SAMPLE [DSO]
 *     0x40b21f 0x7ffec7780340 0 13963977.121160038 1
 *
 * IP and ADDR hexadecimal ("0x" optional), CPU decimal, TIME "sec.nsec",
 * SAMPLE a decimal id: consecutive loads with one id form one sample
 * (MemGaze's sampled window). Later MemGaze versions (memgaze-xtrace-normalize)
 * put a list of DSOs before the loads and a sixth column, the DSO's id:
 *
 *     DSO: <name> <id>
 *     /path/to/app 0
 *     TRACE: <IP> <Addrs> <CPU> <time> <sampleID> <DSO_id>
 *     0x40b21f 0x7ffec7780340 0 13963977.121160038 1 0
 *
 * Both forms are read. Blank lines are skipped; anything else that is not a
 * load is an error naming the file and line (a field that is not a number, a
 * number over its range, a line cut short, a header after the first load).
 * Reading streams through a fixed buffer: memory does not grow with the trace.
 */
#ifndef EDAN_MEMGAZE_MG_TRACE_H
#define EDAN_MEMGAZE_MG_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

/* One load of a MemGaze trace. */
typedef struct edan_mg_load {
    uint64_t ip;      /* address of the load instruction */
    uint64_t addr;    /* address loaded from */
    uint64_t time_ns; /* TIME in nanoseconds (digits past the ninth decimal are dropped) */
    uint64_t line;    /* line of the trace file, for messages */
    int32_t sample;   /* SAMPLE, 0 .. 2^31-1 */
    int32_t dso;      /* DSO id (sixth column), -1 when the line has none */
    uint32_t cpu;
} edan_mg_load;

/* Longest accepted line of a trace (a DSO name is a path). */
#define EDAN_MG_TRACE_MAX_LINE 8192

typedef struct edan_mg_trace edan_mg_trace;

/* Open a trace file; NULL with err naming the file. */
edan_mg_trace *edan_mg_trace_open(const char *path, edan_error *err);
/* Read from f (named name in messages); takes ownership of f. */
edan_mg_trace *edan_mg_trace_open_file(FILE *f, const char *name, edan_error *err);
/*
 * Fill up to cap loads: their number, 0 at the end of the trace, or -1 with
 * err ("file:line: reason"). Loads returned before an error are valid.
 */
long edan_mg_trace_next(edan_mg_trace *t, edan_mg_load *out, size_t cap, edan_error *err);
/* The DSO list of the header: how many, and the name and id of the i-th (NULL past the end). */
size_t edan_mg_trace_dso_count(const edan_mg_trace *t);
const char *edan_mg_trace_dso(const edan_mg_trace *t, size_t i, int32_t *id);
void edan_mg_trace_close(edan_mg_trace *t);
/*
 * Whether the first bytes of a file, buf[0 .. n), look like a MemGaze trace:
 * its first line that is not blank starts with "DSO:" or "TRACE:", or is a
 * load (IP and ADDR hexadecimal, CPU decimal, TIME, SAMPLE and an optional
 * DSO; no ';', which every line of edan's text format has). A first line
 * longer than buf is not recognised.
 */
bool edan_mg_trace_sniff(const char *buf, size_t n);

#endif
