/* serial.c - the calibration of serializing instructions: a loop whose every iteration reads the
 * floating-point flags (frflags, a CSR access: gem5 executes it only at the head of the reorder buffer
 * and holds the next instruction at rename until it commits) and adds; prints the loop's time in
 * seconds (9 decimals) since its first clock reading.
 *   serial STEPS     (kernel: serial)
 * validation/calibrate.py compares the cycles an iteration takes in gem5 and in the timing model
 * (machine key serialize_cycles), from two loops of different lengths. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) long serial(long steps)
{
    long acc = 0;
    for (long s = 0; s < steps; s++) {
        long flags;
        __asm__ volatile("frflags %0" : "=r"(flags));
        acc += flags + s;
    }
    return acc;
}

int main(int argc, char **argv)
{
    long steps = argc > 1 ? atol(argv[1]) : 10000;
    if (steps < 1)
        return 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long r = serial(steps);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%ld\n%0.9f\n", r % 2, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return 0;
}
