#include "util/files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool edan_same_file(const char *a, const char *b)
{
    struct stat x, y;
    return a && b && !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int edan_replace_open(edan_replace *r, const char *path, edan_error *err)
{
    memset(r, 0, sizeof *r);
    if (strlen(path) >= sizeof r->path) {
        edan_error_set(err, "%.100s...: path too long", path);
        return -1;
    }
    strcpy(r->path, path);
    snprintf(r->tmp, sizeof r->tmp, "%s.XXXXXX", path);
    int fd = mkstemp(r->tmp);
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
    if (!failed && rename(r->tmp, r->path)) {
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
