/* matmul.c - dense matrix multiply C = A * B (double, n x n, row-major).
 *
 * Usage: matmul [n]   (matrix dimension, default 8)
 *
 * Data-oblivious: the accumulator lives in a register, so every load is
 * independent of every other load; memory depth D stays constant in n while
 * memory work W grows as 2*n^3 loads + n^2 stores.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) void kernel(int n, const double *restrict A, const double *restrict B,
                                             double *restrict C)
{
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0.0;
            for (int k = 0; k < n; ++k)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 8;
    if (n < 1 || n > 4096) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 4096)\n", argv[0]);
        return 1;
    }
    size_t nn = (size_t)n * (size_t)n;
    double *A = malloc(nn * sizeof *A);
    double *B = malloc(nn * sizeof *B);
    double *C = malloc(nn * sizeof *C);
    if (!A || !B || !C) {
        perror("malloc");
        return 1;
    }
    for (size_t i = 0; i < nn; ++i) {
        A[i] = (double)(i % 11) * 0.5 + 1.0;
        B[i] = (double)(i % 5) * 0.25 - 0.5;
        C[i] = 0.0;
    }
    kernel((int)n, A, B, C);
    double cs = 0.0;
    for (size_t i = 0; i < nn; ++i)
        cs += C[i] * (double)(i % 3 + 1);
    printf("matmul n=%ld checksum=%.6f\n", n, cs);
    free(A);
    free(B);
    free(C);
    return 0;
}
