/*
 * async.h - run a stream consumer on its own thread.
 *
 * The producer (the QEMU plugin's instruction callbacks) writes records
 * straight into a buffer it gets from edan_async_buffer() and hands it over
 * with edan_async_submit(); a worker thread feeds the buffers, in order, to
 * the wrapped consumer. With a ring of a few buffers, tracing and analysis
 * (or compression) overlap on two cores. Synchronisation happens once per
 * buffer, never per record. Records point at static instructions that the
 * producer may keep adding to its code table: the table never moves entries,
 * and the hand-over through the mutex orders the writes before the reads.
 */
#ifndef EDAN_TRACE_ASYNC_H
#define EDAN_TRACE_ASYNC_H

#include <stddef.h>

#include "trace/exec.h"

typedef struct edan_async edan_async;

/* NULL when out of memory or when the thread cannot start. */
edan_async *edan_async_new(edan_consumer inner, size_t batch, int n_buffers);
/* The buffer to fill next; it holds edan_async_batch() records. */
edan_exec *edan_async_buffer(edan_async *a);
size_t edan_async_batch(const edan_async *a);
/* Hand over the current buffer holding n records; blocks only while every buffer is in use. */
void edan_async_submit(edan_async *a, size_t n);
/*
 * Lend the worker records instead of copying them (several consumers of one
 * batch on threads of their own): it reads recs itself, after every batch
 * handed over before. The caller must keep them unchanged until
 * edan_async_wait() returns; blocks only while every slot is in use.
 */
void edan_async_lend(edan_async *a, const edan_exec *recs, size_t n);
/* Wait until the worker has consumed every batch handed over or lent. */
void edan_async_wait(edan_async *a);
/* Wait until at most `pending` of them are left to consume (0: edan_async_wait()). */
void edan_async_wait_below(edan_async *a, int pending);
/* Wait for the worker to drain everything, stop it, and return inner.finish(). */
int edan_async_finish(edan_async *a);
void edan_async_free(edan_async *a);

#endif
