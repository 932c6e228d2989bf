/*
 * two_threads.c - a second thread that executes far more instructions than
 * the main one: --per-function chooses among the main thread's functions
 * (the one edan traces), so spin must not be chosen however long it runs.
 *
 * Usage: two_threads [n]   (the main thread's kernel sums n longs)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline, noipa)) static void *spin(void *arg)
{
    long s = 0;
    for (long i = 0; i < (long)(size_t)arg; i++)
        s += i ^ (s >> 3);
    sink = s;
    return NULL;
}

__attribute__((noinline, noipa)) static long kernel(const long *a, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += a[i];
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
    if (n < 1 || n > (1L << 20))
        return 1;
    long *a = malloc((size_t)n * sizeof *a);
    if (!a)
        return 1;
    for (long i = 0; i < n; i++)
        a[i] = i;
    pthread_t t;
    if (pthread_create(&t, NULL, spin, (void *)(size_t)(50 * n)))
        return 1;
    long s = kernel(a, n);
    pthread_join(t, NULL);
    printf("%ld\n", s);
    return s == n * (n - 1) / 2 ? 0 : 1;
}
