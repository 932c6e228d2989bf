#include "util/thread.h"

#include <signal.h>

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
