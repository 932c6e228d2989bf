/*
 * native_clock.c - the core clock the host runs a thread at (make validate-native, validation/native.py):
 * a chain of dependent integer adds, one a cycle on any x86-64 or AArch64 core, timed by the thread's
 * CPU time (so time the thread was not running does not count). Prints GHz.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>

int main(void)
{
    struct timespec a, b;
    const long n = 400000000;
    unsigned long x = 0;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    for (long i = 0; i < n; i += 8)
#if defined(__x86_64__)
        __asm__ volatile("add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\t"
                         "add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0"
                         : "+r"(x));
#else
        __asm__ volatile("add %0,%0,#1\n\tadd %0,%0,#1\n\tadd %0,%0,#1\n\tadd %0,%0,#1\n\t"
                         "add %0,%0,#1\n\tadd %0,%0,#1\n\tadd %0,%0,#1\n\tadd %0,%0,#1"
                         : "+r"(x));
#endif
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    const double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("%.4f\n", (double)n / s / 1e9);
    return x == 1;
}
