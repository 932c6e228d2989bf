/*
 * mg_exec.h - MemGaze's load traces (memgaze/mg_trace.h) as an instruction
 * stream (exec.h), so that every analysis of edan's own stream reads them.
 *
 * Each load of the trace is one record: a load of one byte at its address
 * (MemGaze records an address per load, not its size, and counts distinct
 * addresses), by a static instruction per distinct IP (pc = the IP, no
 * registers: the other ISA is not decoded, the trace carries the addresses),
 * on vCPU 0 (MemGaze's CPU column is the core a sample ran on, not a thread).
 * The first record of each sample (a change of the SAMPLE id, and the first
 * load) carries EDAN_EXEC_SAMPLE_START. Errors name the file and line.
 */
#ifndef EDAN_TRACE_MG_EXEC_H
#define EDAN_TRACE_MG_EXEC_H

#include <stdint.h>
#include <stdio.h>

#include "trace/exec.h"
#include "util/error.h"

typedef struct edan_mg_exec edan_mg_exec;

/* Read from f (named name in messages); takes ownership of f, also on failure. */
edan_mg_exec *edan_mg_exec_open_file(FILE *f, const char *name, edan_error *err);
/* Fill up to cap records: their number, 0 at the end, -1 with err ("file:line: ..."). */
long edan_mg_exec_next(edan_mg_exec *m, edan_exec *out, size_t cap, edan_error *err);
/* The static instructions so far (one per distinct IP). */
const edan_code_table *edan_mg_exec_code(const edan_mg_exec *m);
void edan_mg_exec_close(edan_mg_exec *m);

#endif
