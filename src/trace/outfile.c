#include "trace/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (o->fd < 0) {
        edan_error_set(err, "%s: cannot create %s: %s", path, what, strerror(errno));
        free(o->path);
        o->path = NULL;
        return -1;
    }
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
    if (o->failed && remove_it && unlink(o->path) == 0) {
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
