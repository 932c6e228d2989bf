#include "trace/async.h"
#include "util/thread.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct edan_async {
    edan_consumer inner;
    size_t batch;
    int n;
    edan_exec **buf;
    const edan_exec **recs; /* what the worker reads from each slot: its buffer, or records lent */
    size_t *count;
    bool *full;
    int produce; /* buffer the producer fills */
    int consume; /* buffer the worker takes next */
    bool stop;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
};

static void *worker(void *arg)
{
    edan_async *a = arg;
    pthread_mutex_lock(&a->lock);
    for (;;) {
        while (!a->full[a->consume] && !a->stop)
            pthread_cond_wait(&a->changed, &a->lock);
        if (!a->full[a->consume])
            break; /* stopped and drained */
        int i = a->consume;
        pthread_mutex_unlock(&a->lock);
        a->inner.consume(a->inner.ctx, a->recs[i], a->count[i]);
        pthread_mutex_lock(&a->lock);
        a->full[i] = false;
        a->consume = (i + 1) % a->n;
        pthread_cond_broadcast(&a->changed);
    }
    pthread_mutex_unlock(&a->lock);
    return NULL;
}

edan_async *edan_async_new(edan_consumer inner, size_t batch, int n_buffers)
{
    if (n_buffers < 2 || batch == 0)
        return NULL;
    edan_async *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->inner = inner;
    a->batch = batch;
    a->n = n_buffers;
    a->buf = calloc((size_t)n_buffers, sizeof *a->buf);
    a->recs = calloc((size_t)n_buffers, sizeof *a->recs);
    a->count = calloc((size_t)n_buffers, sizeof *a->count);
    a->full = calloc((size_t)n_buffers, sizeof *a->full);
    bool ok = a->buf && a->recs && a->count && a->full;
    for (int i = 0; ok && i < n_buffers; i++)
        ok = (a->buf[i] = malloc(batch * sizeof(edan_exec))) != NULL;
    if (ok && pthread_mutex_init(&a->lock, NULL) == 0) {
        if (pthread_cond_init(&a->changed, NULL) == 0) {
            if (edan_thread_start(&a->thread, worker, a) == 0)
                return a;
            pthread_cond_destroy(&a->changed);
        }
        pthread_mutex_destroy(&a->lock);
    }
    for (int i = 0; a->buf && i < n_buffers; i++)
        free(a->buf[i]);
    free(a->buf);
    free(a->recs);
    free(a->count);
    free(a->full);
    free(a);
    return NULL;
}

edan_exec *edan_async_buffer(edan_async *a)
{
    return a->buf[a->produce];
}
size_t edan_async_batch(const edan_async *a)
{
    return a->batch;
}

/* Hand slot produce over with recs; return when the next one is free (edan_async_buffer() may be filled). */
static void hand_over(edan_async *a, const edan_exec *recs, size_t n)
{
    pthread_mutex_lock(&a->lock);
    a->recs[a->produce] = recs;
    a->count[a->produce] = n;
    a->full[a->produce] = true;
    a->produce = (a->produce + 1) % a->n;
    pthread_cond_broadcast(&a->changed);
    while (a->full[a->produce])
        pthread_cond_wait(&a->changed, &a->lock);
    pthread_mutex_unlock(&a->lock);
}

void edan_async_submit(edan_async *a, size_t n)
{
    hand_over(a, a->buf[a->produce], n);
}

void edan_async_lend(edan_async *a, const edan_exec *recs, size_t n)
{
    hand_over(a, recs, n);
}

void edan_async_wait_below(edan_async *a, int pending)
{
    pthread_mutex_lock(&a->lock);
    for (;;) {
        int full = 0;
        for (int i = 0; i < a->n; i++)
            full += a->full[i];
        if (full <= pending)
            break;
        pthread_cond_wait(&a->changed, &a->lock);
    }
    pthread_mutex_unlock(&a->lock);
}

void edan_async_wait(edan_async *a)
{
    edan_async_wait_below(a, 0);
}

int edan_async_finish(edan_async *a)
{
    pthread_mutex_lock(&a->lock);
    a->stop = true;
    pthread_cond_broadcast(&a->changed);
    pthread_mutex_unlock(&a->lock);
    pthread_join(a->thread, NULL);
    return a->inner.finish ? a->inner.finish(a->inner.ctx) : 0;
}

void edan_async_free(edan_async *a)
{
    if (!a)
        return;
    pthread_mutex_destroy(&a->lock);
    pthread_cond_destroy(&a->changed);
    for (int i = 0; i < a->n; i++)
        free(a->buf[i]);
    free(a->buf);
    free(a->recs);
    free(a->count);
    free(a->full);
    free(a);
}
