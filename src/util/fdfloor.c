/*
 * fdfloor.c - descriptors out of the traced program's reach (fdfloor.h).
 */
#include "util/fdfloor.h"

#include <fcntl.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <unistd.h>

/* The highest descriptor number the floor is put under (the kernel's table grows to it: 512 KiB). */
#define FLOOR_TOP 65536
/* Room for the few files the plugin keeps open at once. */
#define FLOOR_ROOM 64

static int floor_fd; /* 0: no floor */

int edan_fd_set_floor(void)
{
    struct rlimit rl;
    floor_fd = 0;
    if (getrlimit(RLIMIT_NOFILE, &rl))
        return 0;
    const rlim_t top = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > FLOOR_TOP ? FLOOR_TOP : rl.rlim_max;
    /* below the soft limit too, when there is no room above it: a program that closes the first 1024 still misses it */
    if (top > 2 * FLOOR_ROOM)
        floor_fd = (int)(top - FLOOR_ROOM);
    return floor_fd;
}

int edan_fd_lift(int fd)
{
    if (fd < 0 || !floor_fd || fd >= floor_fd)
        return fd;
    /* F_DUPFD refuses a number at or above the soft limit: raise it to the hard one for this call only (a
     * descriptor above the soft limit stays valid when it is lowered again, and the program sees its own) */
    struct rlimit rl, raised;
    const bool have = getrlimit(RLIMIT_NOFILE, &rl) == 0;
    raised = rl;
    raised.rlim_cur = rl.rlim_max;
    const bool raise = have && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur <= (rlim_t)floor_fd;
    if (raise && setrlimit(RLIMIT_NOFILE, &raised))
        return fd;
    const int high = fcntl(fd, F_DUPFD_CLOEXEC, floor_fd);
    if (raise)
        setrlimit(RLIMIT_NOFILE, &rl);
    if (high < 0)
        return fd;
    close(fd);
    return high;
}
