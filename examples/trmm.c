/* trmm.c - triangular matrix multiply in PolyBench style (EDAN paper, Fig 14).
 *
 * Usage: trmm [n]   (matrix dimension, default 4 as in the paper's example)
 *
 * Data-oblivious, but B[i][j] and B[j][k] may alias (same array), so the
 * compiler keeps reloading/storing B[i][j] inside the k loop: the
 * load->store->load chains make memory depth D grow with n (the paper's
 * fastest-growing D among PolyBench linear-algebra kernels).
 */
#include <stdio.h>
#include <stdlib.h>

/* trmm: B := alpha*A*B, A triangular */
__attribute__((noinline, noipa)) void kernel(int n, double alpha, double A[n][n], double B[n][n])
{
    int i, j, k;
    for (i = 1; i < n; i++)
        for (j = 0; j < n; j++)
            for (k = 0; k < i; k++)
                B[i][j] += alpha * A[i][k] * B[j][k];
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 4;
    if (n < 1 || n > 4096) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 4096)\n", argv[0]);
        return 1;
    }
    double(*A)[n] = malloc(sizeof(double[n][n]));
    double(*B)[n] = malloc(sizeof(double[n][n]));
    if (!A || !B) {
        perror("malloc");
        return 1;
    }
    /* PolyBench-style deterministic initialisation */
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            A[i][j] = (double)((i * j) % n) / (double)n;
            B[i][j] = (double)((i + j) % n) / (double)n;
        }
    kernel((int)n, 1.5, A, B);
    double cs = 0.0;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++)
            cs += B[i][j] * (double)((i + 2 * j) % 7 + 1);
    printf("trmm n=%ld checksum=%.10g\n", n, cs);
    free(A);
    free(B);
    return 0;
}
