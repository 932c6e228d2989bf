/*
 * A kernel that writes an array for the first time (tests/zeroing_test.py):
 * out, 256 KiB from malloc (an mmap of fresh pages), is first written by
 * kernel()'s first call and written again by its second; in is initialised
 * before. Prints out's address and length, for a naive count of its pages.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) void kernel(double *restrict out, const double *restrict in, long n)
{
    for (long i = 0; i < n; i++)
        out[i] = 2.0 * in[i];
}

int main(void)
{
    const long n = 32768; /* 256 KiB of doubles */
    double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    if (!in || !out)
        return 1;
    for (long i = 0; i < n; i++)
        in[i] = (double)(i % 7);
    kernel(out, in, n);
    kernel(out, in, n);
    double s = 0;
    for (long i = 0; i < n; i++)
        s += out[i];
    printf("out %p %ld\nsum %.1f\n", (void *)out, (long)(n * sizeof *out), s);
    return 0;
}
