/* calib.h - what the calibration programs share (validation/calibrate.py builds each alone: the
 * header is found next to the source): the clock their kernel is timed by, the random sequence
 * their inputs are drawn from, and the two lines they print (the kernel's result, whose use keeps
 * the compiler from dropping the kernel, then its seconds with 9 decimals, validation/sweep.py's
 * time=output: the last line that is only a number). */
#ifndef EDAN_CALIB_H
#define EDAN_CALIB_H
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* The monotonic clock in seconds. */
static inline double calib_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The next of Marsaglia's xorshift64 sequence in *x (nonzero), the same in every run from the same seed. */
static inline uint64_t calib_rand(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

#define CALIB_SEED 88172645463325252ull

/* The kernel's result and its time from t0 to t1. */
static inline void calib_print(long result, double t0, double t1)
{
    printf("%ld\n%.9f\n", result, t1 - t0);
}
#endif
