#include "trace/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fdfloor.h"

int edan_outfile_open(edan_outfile *o, const char *path, const char *what, edan_error *err)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->path = strdup(strcmp(path, "-") == 0 ? "<stdout>" : path);
    if (!o->path) {
        edan_error_set(err, "%s: out of memory", path);
        return -1;
    }
    if (strcmp(path, "-") == 0) {
        o->fd = STDOUT_FILENO;
        return 0;
    }
    /* a device or a pipe the user named is written as it is; a file is written beside itself and renamed */
    struct stat st;
    const bool special = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    if (!special && asprintf(&o->tmp, "%s.XXXXXX", path) < 0)
        o->tmp = NULL;
    if (special)
        o->fd = open(path, O_WRONLY | O_CLOEXEC);
    else if (o->tmp && (o->fd = mkostemp(o->tmp, O_CLOEXEC)) >= 0) {
        mode_t mask = umask(0);
        umask(mask);
        fchmod(o->fd, 0666 & ~mask); /* what a new file would get (mkstemp makes it 0600) */
    }
    if (o->fd < 0) {
        edan_error_set(err, "%s: cannot create %s: %s", path, what,
                       o->tmp || special ? strerror(errno) : "out of memory");
        free(o->tmp);
        o->tmp = NULL;
        free(o->path);
        o->path = NULL;
        return -1;
    }
    o->fd = edan_fd_lift(o->fd); /* in the plugin: out of the traced program's reach (util/fdfloor.h) */
    o->own_fd = true;
    return 0;
}

void edan_outfile_fail(edan_outfile *o, const char *what, int errnum)
{
    if (o->failed)
        return;
    o->failed = true;
    if (errnum)
        snprintf(o->msg, sizeof o->msg, "%s: %s at byte %" PRIu64 ": %s", o->path, what, o->off, strerror(errnum));
    else
        snprintf(o->msg, sizeof o->msg, "%s: %s", o->path, what);
}

void edan_outfile_write(edan_outfile *o, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0 && !o->failed) {
        ssize_t k = write(o->fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            edan_outfile_fail(o, "write failed", errno);
            return;
        }
        if (k == 0) {
            edan_outfile_fail(o, "write failed", EIO);
            return;
        }
        p += k;
        n -= (size_t)k;
        o->off += (uint64_t)k;
    }
}

int edan_outfile_close(edan_outfile *o, edan_error *err)
{
    /* only a regular file: never unlink a device (/dev/full) or a pipe the user named */
    struct stat st;
    const bool remove_it = o->own_fd && o->remove_on_failure && fstat(o->fd, &st) == 0 && S_ISREG(st.st_mode);
    if (o->own_fd && close(o->fd) != 0)
        edan_outfile_fail(o, "close failed", errno);
    if (o->tmp) {
        /*
         * The file was written beside its name: until now a file of that
         * name was untouched. A failed write is removed where the format
         * cannot show the cut (text); a binary trace without its trailer
         * reads as truncated, so it takes the name.
         */
        if (o->failed && remove_it) {
            unlink(o->tmp);
        } else if (rename(o->tmp, o->path) != 0) {
            const int e = errno;
            unlink(o->tmp);
            edan_outfile_fail(o, "cannot be put in place", e);
        }
        free(o->tmp);
        o->tmp = NULL;
    } else if (o->failed && remove_it) {
        unlink(o->path);
    }
    if (o->failed && remove_it) {
        size_t len = strlen(o->msg);
        snprintf(o->msg + len, sizeof o->msg - len, " (the incomplete trace was removed)");
    }
    o->own_fd = false;
    o->fd = -1;
    int rc = 0;
    if (o->failed) {
        edan_error_set(err, "%s", o->msg);
        rc = -1;
    }
    free(o->path);
    o->path = NULL;
    return rc;
}
