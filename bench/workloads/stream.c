/*
 * stream.c - STREAM triad benchmark workload for edan.
 *
 *   stream N [REPS]
 *
 * Computes a[i] = b[i] + s * c[i] over N doubles, REPS times (default 10),
 * in the kernel function triad() (trace it with --filter=triad). Setup and
 * the checksum are outside the kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) void triad(double *restrict a, const double *restrict b, const double *restrict c,
                                            double s, size_t n, long reps)
{
    for (long r = 0; r < reps; r++) {
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
        /* Compiler barrier (no instruction): without it GCC sees that every
         * repetition stores the same values and runs the loop only once. */
        __asm__ volatile("" ::: "memory");
    }
}

static long parse_arg(const char *s, const char *what, long min)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min) {
        fprintf(stderr, "stream: bad %s '%s' (integer >= %ld expected)\n", what, s, min);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: stream N [REPS]\n");
        return 2;
    }
    size_t n = (size_t)parse_arg(argv[1], "N", 1);
    long reps = argc > 2 ? parse_arg(argv[2], "REPS", 1) : 10;

    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (!a || !b || !c) {
        fprintf(stderr, "stream: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = 1.0 + (double)(i % 7);
        c[i] = 0.5 * (double)(i % 5);
    }

    const double s = 3.0;
    triad(a, b, c, s, n, reps);

    double sum = 0.0;
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        sum += a[i];
        if (a[i] != b[i] + s * c[i])
            bad = 1;
    }
    printf("stream: n=%zu reps=%ld checksum=%.6f %s\n", n, reps, sum, bad ? "FAILED" : "ok");
    free(a);
    free(b);
    free(c);
    return bad;
}
