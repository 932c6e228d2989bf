/* linked_list.c - linked-list walk summing payloads.
 *
 * Usage: linked_list [n]   (number of nodes, default 16)
 *
 * n heap nodes are linked in a shuffled order (fixed-seed PRNG). The walk is
 * latency bound: each node's address comes from the previous node's next
 * field, so memory depth D = n (linear in n), W = 2n loads.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    struct node *next;
    long value;
};

__attribute__((noinline, noipa)) long kernel(const struct node *head)
{
    long sum = 0;
    for (const struct node *p = head; p; p = p->next)
        sum += p->value;
    return sum;
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t xorshift64(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 16;
    if (n < 1 || n > (1L << 26)) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 2^26)\n", argv[0]);
        return 1;
    }
    struct node *pool = malloc((size_t)n * sizeof *pool);
    long *order = malloc((size_t)n * sizeof *order);
    if (!pool || !order) {
        perror("malloc");
        return 1;
    }
    /* Fisher-Yates shuffle of the visiting order. */
    for (long i = 0; i < n; ++i)
        order[i] = i;
    for (long i = n - 1; i > 0; --i) {
        long j = (long)(xorshift64() % (uint64_t)(i + 1));
        long t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (long i = 0; i < n; ++i) {
        struct node *cur = &pool[order[i]];
        cur->value = (order[i] * 37) % 101;
        cur->next = i + 1 < n ? &pool[order[i + 1]] : NULL;
    }
    long sum = kernel(&pool[order[0]]);
    printf("linked_list n=%ld checksum=%ld\n", n, sum);
    free(order);
    free(pool);
    return 0;
}
