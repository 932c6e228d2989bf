#include "util/files.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool edan_same_file(const char *a, const char *b)
{
    struct stat x, y;
    return a && b && !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int edan_file_digest(const char *path, char out[EDAN_DIGEST_LEN], edan_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        edan_error_set(err, "%s: %s", path, fd < 0 ? strerror(errno) : "not a regular file");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 0x100000001b3ull;
    const int e = errno;
    close(fd);
    if (n < 0) {
        edan_error_set(err, "%s: read error: %s", path, strerror(e));
        return -1;
    }
    snprintf(out, EDAN_DIGEST_LEN, "fnv1a64:%016" PRIx64, h);
    return 0;
}

int edan_replace_open(edan_replace *r, const char *path, edan_error *err)
{
    memset(r, 0, sizeof *r);
    if (strlen(path) >= sizeof r->path) {
        edan_error_set(err, "%.100s...: path too long", path);
        return -1;
    }
    strcpy(r->path, path);
    /* a device or a FIFO (/dev/null, a pipe) is written in place: a file renamed over it would replace it */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        r->f = S_ISDIR(st.st_mode) ? NULL : fopen(path, "we");
        if (!r->f) {
            edan_error_set(err, "%s: cannot write: %s", path, S_ISDIR(st.st_mode) ? "a directory" : strerror(errno));
            return -1;
        }
        return 0; /* no tmp: commit only closes it */
    }
    snprintf(r->tmp, sizeof r->tmp, "%s.XXXXXX", path);
    int fd = mkostemp(r->tmp, O_CLOEXEC);
    if (fd < 0) {
        edan_error_set(err, "%s: cannot write: %s", path, strerror(errno));
        r->tmp[0] = '\0';
        return -1;
    }
    /* the permissions a new file would get (mkstemp makes it 0600) */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    r->f = fdopen(fd, "w");
    if (!r->f) {
        edan_error_set(err, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        edan_replace_abort(r);
        return -1;
    }
    return 0;
}

int edan_replace_commit(edan_replace *r, edan_error *err)
{
    int failed = ferror(r->f) | fflush(r->f);
    int errnum = errno;
    if (fclose(r->f) && !failed) {
        failed = 1;
        errnum = errno;
    }
    r->f = NULL;
    if (!failed && r->tmp[0] && rename(r->tmp, r->path)) {
        failed = 1;
        errnum = errno;
    }
    if (failed) {
        edan_error_set(err, "%s: write failed: %s", r->path, strerror(errnum));
        edan_replace_abort(r);
        return -1;
    }
    r->tmp[0] = '\0';
    return 0;
}

void edan_replace_abort(edan_replace *r)
{
    if (r->f)
        fclose(r->f);
    r->f = NULL;
    if (r->tmp[0])
        unlink(r->tmp);
    r->tmp[0] = '\0';
}
