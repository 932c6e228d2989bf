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
    if (edan_output_open(&o->out, path, what, err)) {
        free(o->path);
        o->path = NULL;
        return -1;
    }
    o->out.fd = edan_fd_lift(o->out.fd); /* in the plugin: out of the traced program's reach (util/fdfloor.h) */
    o->fd = o->out.fd;
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
    if (o->own_fd) {
        /*
         * Until now a file of that name was untouched: a failed trace (cut
         * off, without its trailer or end line) is removed, never put in its
         * place.
         */
        const bool removed = o->out.tmp[0] != '\0';
        edan_error sub = {0};
        if (o->failed)
            edan_output_abort(&o->out);
        else if (edan_output_commit(&o->out, &sub)) {
            o->failed = true;
            snprintf(o->msg, sizeof o->msg, "%s", sub.msg);
        }
        if (o->failed && removed) {
            size_t len = strlen(o->msg);
            snprintf(o->msg + len, sizeof o->msg - len, " (the incomplete trace was removed)");
        }
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
