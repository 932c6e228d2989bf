/*
 * outfile.h - an output file for the trace writers: the path, the file
 * descriptor, the byte offset, and the first failure, which is remembered
 * (every later write is skipped) and reported once, at close, naming the path,
 * the byte offset and the reason. The file is opened by util/files.h's
 * edan_output_open: written under a temporary name and put in place only
 * when every write succeeded, so a failed writer leaves nothing under the
 * name, and an existing trace of that name stays as it was.
 */
#ifndef EDAN_TRACE_OUTFILE_H
#define EDAN_TRACE_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "util/files.h"

typedef struct edan_outfile {
    char *path;      /* for messages; "<stdout>" for "-" */
    edan_output out; /* the file, unless it is standard output */
    int fd;
    bool own_fd;
    bool failed;
    bool remove_on_failure; /* the message says the incomplete trace was removed (it always is) */
    uint64_t off;           /* bytes written so far */
    char msg[1024];         /* the first failure */
} edan_outfile;

/*
 * Create a file for path (edan_output_open: a temporary beside it renamed
 * at close; a device or a pipe written directly); "-" is standard output.
 * 0, or -1 with err set.
 */
int edan_outfile_open(edan_outfile *o, const char *path, const char *what, edan_error *err);
/* Remember a failure (errnum 0: no system error); the first one wins. */
void edan_outfile_fail(edan_outfile *o, const char *what, int errnum);
/* Write everything, retrying short writes; skipped after a failure. */
void edan_outfile_write(edan_outfile *o, const void *p, size_t n);
/* Close a file we opened, put it in place unless a write failed, report the first failure: 0, or -1. */
int edan_outfile_close(edan_outfile *o, edan_error *err);

#endif
