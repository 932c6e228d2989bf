// guest_throw.cpp - a filtered function left by a C++ exception, called in a loop (issue 35).
//
// Usage: guest_throw n mode   (n calls of kernel; mode: throw or return)
//
// kernel(x, k) sums k elements and leaves by finish(): throw throws an exception main catches, return returns.
// With --filter=kernel the region of each call ends where control is back in main: the regions of throw hold
// kernel, finish and the unwinder, never main's loop or its catch.
#include <cstdlib>
#include <cstring>

static int throwing;

struct done {
    long s;
};

__attribute__((noinline, noipa)) void finish(long s)
{
    if (throwing)
        throw done{s};
}

__attribute__((noinline, noipa)) long kernel(const long *x, long k)
{
    long s = 0;
    for (long i = 0; i < k; i++)
        s += x[i];
    finish(s);
    return s;
}

int main(int argc, char **argv)
{
    const long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 10;
    throwing = argc > 2 && !std::strcmp(argv[2], "throw");
    long x[16];
    for (int i = 0; i < 16; i++)
        x[i] = i;
    long caught = 0;
    for (long i = 0; i < n; i++) {
        try {
            kernel(x, 1 + i % 16);
        } catch (const done &d) {
            caught += d.s >= 0;
        }
    }
    // after the loop: work that must not be counted in kernel's region
    long s = 0;
    for (long i = 0; i < 20000; i++)
        s += x[i & 15] * i;
    return s == 0 || caught != (throwing ? n : 0);
}
