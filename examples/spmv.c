/* spmv.c - sparse matrix-vector product y = A*x, A in CSR format.
 *
 * Usage: spmv [n]   (n x n matrix, default 16; NNZ_PER_ROW nonzeros per row)
 *
 * Data-dependent (indirect) access: x[col[k]] needs col[k] loaded first, so
 * memory depth D is a small constant (col -> x -> y chain), not data-oblivious
 * but without long chains; W = 2n rowptr loads + 3*nnz loads + n stores.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NNZ_PER_ROW 4

__attribute__((noinline, noipa)) void kernel(long n, const long *restrict rowptr, const long *restrict col,
                                             const double *restrict val, const double *restrict x, double *restrict y)
{
    for (long i = 0; i < n; ++i) {
        double s = 0.0;
        for (long k = rowptr[i]; k < rowptr[i + 1]; ++k)
            s += val[k] * x[col[k]];
        y[i] = s;
    }
}

static uint64_t rng_state = 0xD1B54A32D192ED03ull;

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
    if (n < 1 || n > (1L << 22)) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 2^22)\n", argv[0]);
        return 1;
    }
    long per_row = n < NNZ_PER_ROW ? n : NNZ_PER_ROW;
    size_t nnz = (size_t)(n * per_row);
    long *rowptr = malloc((size_t)(n + 1) * sizeof *rowptr);
    long *col = malloc(nnz * sizeof *col);
    double *val = malloc(nnz * sizeof *val);
    double *x = malloc((size_t)n * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y);
    if (!rowptr || !col || !val || !x || !y) {
        perror("malloc");
        return 1;
    }
    /* Each row: the diagonal plus (per_row - 1) distinct random columns,
     * stored in ascending column order. */
    size_t k = 0;
    for (long i = 0; i < n; ++i) {
        rowptr[i] = (long)k;
        size_t first = k;
        col[k++] = i;
        while ((long)(k - first) < per_row) {
            long c = (long)(xorshift64() % (uint64_t)n);
            int dup = 0;
            for (size_t t = first; t < k; ++t)
                dup |= col[t] == c;
            if (!dup)
                col[k++] = c;
        }
        for (size_t a = first + 1; a < k; ++a) /* insertion sort */
            for (size_t b = a; b > first && col[b - 1] > col[b]; --b) {
                long t = col[b];
                col[b] = col[b - 1];
                col[b - 1] = t;
            }
        for (size_t t = first; t < k; ++t)
            val[t] = (double)(xorshift64() % 100) / 10.0 + 0.1;
    }
    rowptr[n] = (long)k;
    for (long i = 0; i < n; ++i) {
        x[i] = (double)(i % 9) + 1.0;
        y[i] = 0.0;
    }
    kernel(n, rowptr, col, val, x, y);
    double cs = 0.0;
    for (long i = 0; i < n; ++i)
        cs += y[i] * (double)(i % 5 + 1);
    printf("spmv n=%ld nnz=%zu checksum=%.6f\n", n, nnz, cs);
    free(rowptr);
    free(col);
    free(val);
    free(x);
    free(y);
    return 0;
}
