/* regions.c - accesses to every kind of memory a program has, in a pseudo-random order.
 *
 * Usage: regions [n]   (steps, default 16; also the seed of the order)
 *
 * Per step i (r a xorshift value): one load of the heap array x[r % n], one of the read-only global
 * table coef[r % 256], a load and a store of the global histogram hist[(r >> 8) % 64], a store to
 * the local array buf[i % 32] (on the stack), a load of buf[(r >> 16) % 32], a store of the global
 * out[i] (written once), and one load through a pointer taken from the local array from[] (on the
 * stack), into x, coef, hist or out: one instruction, four regions. So x, coef, hist and out are
 * each one region of the projection's (--projection, docs/projection.md), with 4n loads among
 * them, n stores to hist and n to out.
 */
#include <stdio.h>
#include <stdlib.h>

#define OUT_MAX (1L << 16)

static const double coef[256] = {
#define C4(k) (k) * 0.5, (k)*0.5 + 0.125, (k)*0.5 + 0.25, (k)*0.5 + 0.375
#define C16(k) C4(4 * (k)), C4(4 * (k) + 1), C4(4 * (k) + 2), C4(4 * (k) + 3)
    C16(0), C16(1), C16(2),  C16(3),  C16(4),  C16(5),  C16(6),  C16(7),
    C16(8), C16(9), C16(10), C16(11), C16(12), C16(13), C16(14), C16(15),
};
long hist[64];
double out[OUT_MAX];

/* Keeps buf in memory: the kernel hands its address out. */
__attribute__((noinline, noipa)) void sink(double *buf)
{
    (void)buf;
}

__attribute__((noinline, noipa)) double kernel(const double *restrict x, long n)
{
    double buf[32];
    const double *from[4] = {x, coef, (const double *)hist, out};
    sink(buf);
    sink((double *)from);
    unsigned long r = 88172645463325252UL ^ (unsigned long)n;
    double s = 0.0;
    for (long i = 0; i < n; ++i) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        const double v = x[r % (unsigned long)n] + coef[r & 255];
        hist[(r >> 8) & 63]++;
        buf[i & 31] = v;
        s += buf[(r >> 16) & 31];
        out[i] = v;
        s += from[(r >> 24) & 3][(r >> 26) & 7];
    }
    sink(buf);
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 16;
    if (n < 1 || n > OUT_MAX) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= %ld)\n", argv[0], OUT_MAX);
        return 1;
    }
    double *x = malloc((size_t)n * sizeof *x);
    if (!x) {
        perror("malloc");
        return 1;
    }
    for (long i = 0; i < n; ++i)
        x[i] = (double)(i % 17) * 0.25;
    const double s = kernel(x, n);
    double cs = s;
    for (long i = 0; i < n; ++i)
        cs += out[i];
    for (int i = 0; i < 64; ++i)
        cs += (double)hist[i];
    printf("regions n=%ld checksum=%.6f\n", n, cs);
    free(x);
    return 0;
}
