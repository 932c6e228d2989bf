/*
 * timed_kernel.c: tests/native_test.py's "validation" category. A kernel called behind
 * validation/thirdparty/kernel_timer.h's timer (-DTIMED: the flush, the clock around the call, the
 * seconds printed) or bare, so the test can check that the timer adds nothing to the region edan
 * traces (--filter=kernel) and that validation/native.py measures and predicts it. Exits with the
 * status its first argument gives (0 without one), as the lists' exit=N says.
 */
#include <stdlib.h>
#ifdef TIMED
#include "kernel_timer.h"
#endif

#define N 4096

static double a[N];

__attribute__((noinline, noclone)) double kernel(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

int main(int argc, char **argv)
{
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
    double s;
#ifdef TIMED
    {
        EDAN_KERNEL_BEGIN
        s = kernel(a, N);
        EDAN_KERNEL_END
    }
#else
    s = kernel(a, N);
#endif
    return (argc > 1 ? atoi(argv[1]) : 0) + (s < 0);
}
