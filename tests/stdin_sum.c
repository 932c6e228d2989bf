/*
 * stdin_sum.c - a test program for edan run --per-function, which runs a
 * program twice: it sums the integers it reads from standard input, so both
 * runs must read the same input. Prints "stdin_sum n=<count> checksum=<sum>".
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) long kernel(const long *v, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += v[i];
    return s;
}

int main(void)
{
    long cap = 1024, n = 0, x;
    long *v = malloc((size_t)cap * sizeof *v);
    while (v && scanf("%ld", &x) == 1) {
        if (n == cap) {
            long *w = realloc(v, (size_t)(cap *= 2) * sizeof *v);
            if (!w)
                break;
            v = w;
        }
        v[n++] = x;
    }
    printf("stdin_sum n=%ld checksum=%ld\n", n, v ? kernel(v, n) : 0);
    free(v);
    return 0;
}
