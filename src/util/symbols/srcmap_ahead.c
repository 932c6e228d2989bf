/*
 * srcmap_ahead.c - edan_srcmap_open() on a thread (srcmap_ahead.h).
 */
#include "util/symbols/srcmap_ahead.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/thread.h"

struct edan_srcmap_ahead {
    pthread_t thread;
    bool joined, taken;
    char *path;
    edan_srcmap *map; /* the thread's result, with its error */
    edan_error err;
};

static void *open_map(void *arg)
{
    edan_srcmap_ahead *a = arg;
    a->map = edan_srcmap_open(a->path, &a->err);
    return NULL;
}

edan_srcmap_ahead *edan_srcmap_ahead_begin(const char *path)
{
    if (!path || !*path)
        return NULL;
    edan_srcmap_ahead *a = calloc(1, sizeof *a);
    if (!a || !(a->path = strdup(path)) || edan_thread_start(&a->thread, open_map, a)) {
        if (a)
            free(a->path);
        free(a);
        return NULL;
    }
    return a;
}

static void join(edan_srcmap_ahead *a)
{
    if (!a->joined)
        pthread_join(a->thread, NULL);
    a->joined = true;
}

edan_srcmap *edan_srcmap_ahead_take(edan_srcmap_ahead *a, edan_error *err)
{
    join(a);
    if (a->taken) {
        edan_error_set(err, "%s: source map taken already", a->path);
        return NULL;
    }
    a->taken = true;
    if (!a->map)
        *err = a->err;
    return a->map;
}

void edan_srcmap_ahead_end(edan_srcmap_ahead *a)
{
    if (!a)
        return;
    join(a);
    if (!a->taken)
        edan_srcmap_close(a->map);
    free(a->path);
    free(a);
}
