#include "util/thread.h"

#include <sched.h>
#include <signal.h>
#include <unistd.h>

int edan_thread_start(pthread_t *thread, void *(*start)(void *), void *arg)
{
    /* a new thread inherits its creator's signal mask: block everything around the creation only */
    sigset_t all, old;
    sigfillset(&all);
    int rc = pthread_sigmask(SIG_SETMASK, &all, &old);
    if (rc != 0)
        return rc;
    rc = pthread_create(thread, NULL, start, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

int edan_available_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
