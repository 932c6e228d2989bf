/*
 * outfile.h - an output file for the trace writers: the path, the file
 * descriptor, the byte offset, and the first failure, which is remembered
 * (every later write is skipped) and reported once, at close, naming the path,
 * the byte offset and the reason. A writer that failed leaves no trailer, so
 * its file is recognisably truncated; a format without a trailer (the text
 * format) asks for its file to be removed instead, so that a cut-off trace
 * is never taken for a whole one.
 */
#ifndef EDAN_TRACE_OUTFILE_H
#define EDAN_TRACE_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

typedef struct edan_outfile {
    char *path; /* for messages; "<stdout>" for "-" */
    char *tmp;  /* a regular file is written here, beside path, and renamed to path at close */
    int fd;
    bool own_fd;
    bool failed;
    bool remove_on_failure; /* a regular file we created is removed at close if a write failed */
    uint64_t off;           /* bytes written so far */
    char msg[1024];         /* the first failure */
} edan_outfile;

/*
 * Create a file for path: written under a temporary name beside it
 * (path.XXXXXX) and renamed to path at close, so an existing file of that
 * name is untouched until then and a symbolic link is replaced, not
 * followed; a device or a pipe is written directly; "-" is standard
 * output. 0, or -1 with err set.
 */
int edan_outfile_open(edan_outfile *o, const char *path, const char *what, edan_error *err);
/* Remember a failure (errnum 0: no system error); the first one wins. */
void edan_outfile_fail(edan_outfile *o, const char *what, int errnum);
/* Write everything, retrying short writes; skipped after a failure. */
void edan_outfile_write(edan_outfile *o, const void *p, size_t n);
/* Close a file we opened and report the first failure: 0, or -1 with err set. */
int edan_outfile_close(edan_outfile *o, edan_error *err);

#endif
