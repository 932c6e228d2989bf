/* clock.c - a kernel whose length depends on the time the program reads.
 *
 * Usage: clock [n]   (n = base number of elements summed, default 100)
 *
 * The program reads clock_gettime (two clocks) and gettimeofday before its
 * kernel, prints what it read, and sums n plus a few elements more, as many
 * as the readings' low digits say: under a host clock each run traces
 * another kernel; edan's clock (src/plugin/plugin_clock.c) makes every run
 * the same.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

__attribute__((noinline, noipa)) long kernel(const long *a, long n)
{
    long sum = 0;
    for (long i = 0; i < n; ++i)
        sum += a[i];
    return sum;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100;
    if (n < 1 || n > (1L << 24)) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 2^24)\n", argv[0]);
        return 1;
    }
    struct timespec mono, real;
    struct timeval tv;
    if (clock_gettime(CLOCK_MONOTONIC, &mono) || gettimeofday(&tv, NULL) || clock_gettime(CLOCK_REALTIME, &real)) {
        perror("clock");
        return 1;
    }
    printf("monotonic %lld.%09ld gettimeofday %lld.%06ld realtime %lld.%09ld\n", (long long)mono.tv_sec, mono.tv_nsec,
           (long long)tv.tv_sec, (long)tv.tv_usec, (long long)real.tv_sec, real.tv_nsec);
    const long m = n + mono.tv_nsec % 61 + tv.tv_usec % 59 + real.tv_nsec % 53;
    long *a = malloc((size_t)m * sizeof *a);
    if (!a) {
        perror("malloc");
        return 1;
    }
    for (long i = 0; i < m; ++i)
        a[i] = i % 7;
    printf("clock n=%ld m=%ld sum=%ld\n", n, m, kernel(a, m));
    free(a);
    return 0;
}
