/*
 * The threaded consumer hands every record over exactly once and in order,
 * whatever the batch sizes, and calls finish once at the end; records lent
 * (edan_async_lend) are read where they are, in order with the buffers
 * submitted, and all of them before edan_async_wait() returns; after
 * edan_async_wait_below(k) at most the last k batches lent are left, so a
 * ring of k + 1 arrays lent in turn is never rewritten while it is read.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"
#include "trace/async.h"

typedef struct sink {
    uint64_t records, order_errors, finishes, next;
    _Atomic uint64_t done; /* records consumed, read by the producer while the worker runs */
    int slow;              /* a busy loop per record: the worker falls behind */
} sink;

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    sink *s = ctx;
    for (size_t i = 0; i < n; i++) {
        if (recs[i].addr != s->next)
            s->order_errors++;
        s->next = recs[i].addr + 1;
        for (volatile int k = 0; k < s->slow; k++)
            ;
    }
    s->records += n;
    s->done += n;
}

static int finish(void *ctx)
{
    ((sink *)ctx)->finishes++;
    return 7;
}

int main(void)
{
    for (int trial = 0; trial < 20; trial++) {
        sink s = {0};
        edan_consumer c = {&s, consume, finish, NULL, false};
        size_t batch = 1 + (size_t)(rand() % 300);
        edan_async *a = edan_async_new(c, batch, 2 + trial % 3);
        CHECK(a != NULL, "edan_async_new");
        if (!a)
            break;
        uint64_t total = 0;
        for (int round = 0; round < 500; round++) {
            size_t n = (size_t)rand() % (batch + 1);
            edan_exec *buf = edan_async_buffer(a);
            for (size_t i = 0; i < n; i++)
                buf[i].addr = total++;
            edan_async_submit(a, n);
        }
        CHECK(edan_async_finish(a) == 7, "finish returns the inner consumer's result");
        edan_async_free(a);
        CHECK_EQ_U64(s.records, total, "records handed over");
        CHECK_EQ_U64(s.order_errors, 0, "records in order");
        CHECK_EQ_U64(s.finishes, 1, "finish once");
    }
    /* lending: one buffer of the caller's, rewritten after each wait; submitted buffers interleaved */
    for (int trial = 0; trial < 20; trial++) {
        sink s = {0};
        edan_consumer c = {&s, consume, finish, NULL, false};
        edan_async *a = edan_async_new(c, 16, 2 + trial % 3);
        CHECK(a != NULL, "edan_async_new");
        if (!a)
            break;
        static edan_exec mine[4096];
        uint64_t total = 0;
        bool waited_short = false;
        for (int round = 0; round < 300; round++) {
            const int lends = 1 + rand() % 3; /* parts of mine, lent one after another, then one wait */
            size_t at = 0;
            for (int l = 0; l < lends; l++) {
                size_t n = (size_t)rand() % 1200;
                for (size_t i = 0; i < n; i++)
                    mine[at + i].addr = total++;
                edan_async_lend(a, mine + at, n);
                at += n;
            }
            if (rand() % 4 == 0) {
                size_t n = (size_t)rand() % 17;
                edan_exec *buf = edan_async_buffer(a);
                for (size_t i = 0; i < n; i++)
                    buf[i].addr = total++;
                edan_async_submit(a, n);
            }
            edan_async_wait(a);
            waited_short |= s.records != total; /* everything handed over is consumed once wait returns */
        }
        CHECK(!waited_short, "edan_async_wait returns after the lent records are consumed");
        CHECK(edan_async_finish(a) == 7, "finish returns the inner consumer's result");
        edan_async_free(a);
        CHECK_EQ_U64(s.records, total, "records lent and handed over");
        CHECK_EQ_U64(s.order_errors, 0, "lent records read in order");
    }
    /* a ring of lag + 1 arrays, each lent in turn and rewritten once at most lag batches are left */
    for (int trial = 0; trial < 12; trial++) {
        sink s = {0};
        s.slow = trial % 2 ? 200 : 0;
        edan_consumer c = {&s, consume, finish, NULL, false};
        const int lag = 1 + trial % 3;
        edan_async *a = edan_async_new(c, 1, lag + 2);
        CHECK(a != NULL, "edan_async_new");
        if (!a)
            break;
        static edan_exec ring[4][512];
        size_t sizes[4] = {0};
        uint64_t total = 0;
        bool too_many_left = false;
        for (int round = 0; round < 400; round++) {
            const int at = round % (lag + 1);
            size_t n = (size_t)rand() % 513;
            for (size_t i = 0; i < n; i++)
                ring[at][i].addr = total++;
            sizes[at] = n;
            edan_async_lend(a, ring[at], n);
            edan_async_wait_below(a, lag);
            uint64_t left = 0; /* the records of the last lag batches, this one's too: at most these are unread */
            for (int b = 0; b < lag && b <= round; b++)
                left += sizes[(at + lag + 1 - b) % (lag + 1)];
            too_many_left |= total - s.done > left;
        }
        edan_async_wait(a);
        CHECK(!too_many_left, "edan_async_wait_below leaves at most the last lag batches");
        CHECK(edan_async_finish(a) == 7, "finish returns the inner consumer's result");
        edan_async_free(a);
        CHECK_EQ_U64(s.records, total, "records lent from the ring");
        CHECK_EQ_U64(s.order_errors, 0, "ring records read in order, none rewritten while read");
    }
    return check_summary();
}
