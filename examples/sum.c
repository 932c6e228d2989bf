/* sum.c - the summation kernel of the EDAN paper (Figure 4).
 *
 * Usage: sum [n]   (n = number of ints summed, default 4 as in the paper)
 *
 * The kernel is a leaf: for n elements it executes exactly n loads (lw) and
 * no stores, so its eDAG has memory work W = n and memory depth D = 1.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) int kernel(int *arr, int n)
{
    int i, sum = 0;
    // Perform summation
    for (i = 0; i < n; ++i)
        sum += arr[i];
    return sum;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 4;
    if (n < 1 || n > (1L << 28)) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 2^28)\n", argv[0]);
        return 1;
    }
    int *arr = malloc((size_t)n * sizeof *arr);
    if (!arr) {
        perror("malloc");
        return 1;
    }
    for (long i = 0; i < n; ++i)
        arr[i] = (int)(i % 7) + 1;
    int sum = kernel(arr, (int)n);
    printf("sum n=%ld checksum=%d\n", n, sum);
    free(arr);
    return 0;
}
