/* branch.c - the calibration of a branch misprediction's cost: a loop whose branch follows either a bit of
 * a linear congruential sequence (random: a predictor misses about half of them) or always the same way,
 * the two loops the same instructions but for the branch's direction; prints the loop's time in seconds
 * (9 decimals) since its first clock reading.
 *   branch RANDOM STEPS     (kernel: branch; RANDOM 1 or 0)
 * validation/calibrate.py compares the extra cycles a step of the random loop takes over the predictable
 * one, in gem5 and in the timing model (machine key mispredict_penalty), per mispredicted branch as each
 * counts them. */
#include <stdlib.h>

#include "calib.h"

__attribute__((noinline)) long branch(long steps, unsigned long mask)
{
    unsigned long x = 12345;
    long acc = 0;
    for (long s = 0; s < steps; s++) {
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        if ((x >> 33) & mask) /* mask 0: never taken */
            acc += s;
        else
            acc ^= s;
    }
    return acc;
}

int main(int argc, char **argv)
{
    unsigned long mask = argc > 1 && atoi(argv[1]) ? 1 : 0;
    long steps = argc > 2 ? atol(argv[2]) : 10000;
    if (steps < 1)
        return 1;
    double t0 = calib_now();
    long r = branch(steps, mask);
    calib_print(r % 2, t0, calib_now());
    return 0;
}
