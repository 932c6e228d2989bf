/* logistic.c - the logistic function y[i] = e / (1 + e), e = exp(x[i]): a transcendental call per element.
 *
 * Usage: logistic [n]   (elements, default 16)
 *
 * Per element: one call of libm's exp, one addition, one division. The instructions exp executes
 * (a table-driven polynomial in glibc) are libm's, not the kernel's arithmetic.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) void kernel(int n, const double *restrict x, double *restrict y)
{
    for (int i = 0; i < n; ++i) {
        const double e = exp(x[i]);
        y[i] = e / (1.0 + e);
    }
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 16;
    if (n < 1 || n > 10000000) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 10000000)\n", argv[0]);
        return 1;
    }
    double *x = malloc((size_t)n * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y);
    if (!x || !y) {
        perror("malloc");
        return 1;
    }
    for (long i = 0; i < n; ++i)
        x[i] = (double)(i % 17) * 0.25 - 2.0;
    kernel((int)n, x, y);
    double cs = 0.0;
    for (long i = 0; i < n; ++i)
        cs += y[i] * (double)(i % 3 + 1);
    printf("logistic n=%ld checksum=%.6f\n", n, cs);
    free(x);
    free(y);
    return 0;
}
