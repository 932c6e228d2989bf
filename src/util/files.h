/*
 * files.h - outputs that never destroy an input: whether two paths name the
 * same file, and a file written under a temporary name in its directory
 * and renamed over its final name only when complete.
 */
#ifndef EDAN_UTIL_FILES_H
#define EDAN_UTIL_FILES_H

#include <stdbool.h>
#include <stdio.h>

#include "util/error.h"

/* Both paths exist and name the same file (device and inode: links and other spellings included). */
bool edan_same_file(const char *a, const char *b);

/*
 * The digest of a program's bytes, "fnv1a64:" and 16 hex digits, in out
 * (room for EDAN_DIGEST_LEN): a trace records it, so a rebuilt program is
 * noticed. The path must name a regular file (a FIFO would block). 0, or
 * -1 with err naming the path.
 */
#define EDAN_DIGEST_LEN 32
int edan_file_digest(const char *path, char out[EDAN_DIGEST_LEN], edan_error *err);

/*
 * A file being replaced: written at tmp (path.XXXXXX beside it), renamed to
 * path by edan_replace_commit(); edan_replace_abort() removes tmp. Until the
 * commit, an existing file at path is untouched. A path that names a device
 * or a FIFO (/dev/null, a pipe) is written in place, never replaced.
 */
typedef struct edan_replace {
    char path[4096];
    char tmp[4110];
    FILE *f;
} edan_replace;

/* 0 and r->f open for writing, or -1 with err naming path. */
int edan_replace_open(edan_replace *r, const char *path, edan_error *err);
/* Flush, close and rename: 0, or -1 with err (tmp removed). */
int edan_replace_commit(edan_replace *r, edan_error *err);
void edan_replace_abort(edan_replace *r);

#endif
