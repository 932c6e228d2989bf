/*
 * kernel_timer.h: the timer the validation programs' patched copies put around their kernel's call
 * (npb.sh, gapbs.sh, olden.sh, xsbench.sh add `#include "kernel_timer.h"` and compile with -I on this
 * directory; C and C++).
 *
 *   EDAN_KERNEL_BEGIN   the cache flush (flush.c), then the clock's first reading
 *   the kernel's call(s)
 *   EDAN_KERNEL_END     the clock's second reading, and the seconds between the two printed with 9
 *                       decimals on a line of their own (validation/sweep.py's and native.py's
 *                       time=output: the last line that is only a number)
 *
 * The flush and the printing are outside the two readings, and outside the kernel, so neither
 * edan's traced region (--filter=KERNEL) nor the time contains them. EDAN_KERNEL_CLOCK is the clock
 * (CLOCK_MONOTONIC: gem5's simulated time; validation/native.py builds with
 * -DEDAN_KERNEL_CLOCK=CLOCK_THREAD_CPUTIME_ID, the thread's CPU time, since on a shared host other
 * processes take turns on the CPU and wall time would count their turns). The macros declare two
 * variables and open no block: a call site that is an if's or a loop's body wraps them in braces;
 * a kernel whose result is declared at the call (GAPBS's `auto result = kernel(g);`) keeps it in scope.
 */
#ifndef EDAN_KERNEL_TIMER_H
#define EDAN_KERNEL_TIMER_H
#include <stdio.h>
#include <time.h>

#ifndef EDAN_KERNEL_CLOCK
#define EDAN_KERNEL_CLOCK CLOCK_MONOTONIC
#endif

#ifdef __cplusplus
extern "C" {
#endif
void edan_validation_flush(void);
#ifdef __cplusplus
}
#endif

#define EDAN_KERNEL_BEGIN                                                                                              \
    struct timespec edan_t0_, edan_t1_;                                                                                \
    edan_validation_flush();                                                                                           \
    clock_gettime(EDAN_KERNEL_CLOCK, &edan_t0_);

#define EDAN_KERNEL_END                                                                                                \
    clock_gettime(EDAN_KERNEL_CLOCK, &edan_t1_);                                                                       \
    printf("%.9f\n",                                                                                                   \
           (double)(edan_t1_.tv_sec - edan_t0_.tv_sec) + 1e-9 * (double)(edan_t1_.tv_nsec - edan_t0_.tv_nsec));

#endif
