/* serial.c - the calibration of serializing instructions: a loop whose every iteration reads the
 * floating-point flags (frflags, a CSR access: gem5 executes it only at the head of the reorder buffer
 * and holds the next instruction at rename until it commits) and adds; prints the loop's time in
 * seconds (9 decimals) since its first clock reading.
 *   serial STEPS     (kernel: serial)
 * validation/calibrate.py compares the cycles an iteration takes in gem5 and in the timing model
 * (machine key serialize_cycles), from two loops of different lengths. */
#include <stdlib.h>

#include "calib.h"

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
    double t0 = calib_now();
    long r = serial(steps);
    calib_print(r % 2, t0, calib_now());
    return 0;
}
