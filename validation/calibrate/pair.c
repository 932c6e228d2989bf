/* pair.c - the calibration's two misses a step: two loads at random places in two 8 MiB arrays, their
 * addresses computed before both, with (USE = 1) or without (USE = 0) an addition that uses the first
 * between them; prints the kernel's time in seconds (9 decimals) as the other calibration programs do.
 *   pair USE STEPS     (kernel: pair)
 * Out of order, and in order where the core keeps two misses in flight, a step costs about one memory
 * latency without the use; validation/calibrate.py compares gem5's step with the timing model's. The
 * loads and the additions are one asm block so that the compiler keeps their order. RISC-V only. */
#include <stdlib.h>

#include "calib.h"

#define N (1 << 20)

__attribute__((noinline)) long pair(const long *a, const long *b, const int *i1, const int *i2, long steps, int use)
{
    long y = 0;
    for (long s = 0; s < steps; s++) {
        const long *pa = a + i1[s], *pb = b + i2[s];
        long x, z;
        if (use)
            __asm__ volatile("ld %0, 0(%3)\n\tadd %2, %2, %0\n\tld %1, 0(%4)\n\tadd %2, %2, %1"
                             : "=&r"(x), "=&r"(z), "+r"(y)
                             : "r"(pa), "r"(pb)
                             : "memory");
        else
            __asm__ volatile("ld %0, 0(%3)\n\tld %1, 0(%4)\n\tadd %2, %2, %0\n\tadd %2, %2, %1"
                             : "=&r"(x), "=&r"(z), "+r"(y)
                             : "r"(pa), "r"(pb)
                             : "memory");
    }
    return y;
}

int main(int argc, char **argv)
{
    int use = argc > 1 ? atoi(argv[1]) : 0;
    long steps = argc > 2 ? atol(argv[2]) : 1000;
    long *a = calloc(N, sizeof *a), *b = calloc(N, sizeof *b);
    int *i1 = malloc((size_t)steps * sizeof *i1), *i2 = malloc((size_t)steps * sizeof *i2);
    if (steps < 1 || !a || !b || !i1 || !i2)
        return 1;
    uint64_t x = CALIB_SEED;
    for (long s = 0; s < steps; s++) {
        i1[s] = (int)(calib_rand(&x) % N);
        i2[s] = (int)(calib_rand(&x) % N);
    }
    double t0 = calib_now();
    long y = pair(a, b, i1, i2, steps, use);
    calib_print(y, t0, calib_now());
    return 0;
}
