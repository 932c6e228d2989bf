/* guest_longjmp.c - a filtered function left by longjmp, called in a loop (issue 35).
 *
 * Usage: guest_longjmp n mode   (n calls of kernel; mode: jump, return or never)
 *
 * kernel(x, k) sums k elements and leaves by finish(): jump longjmps to main's setjmp, return returns; both do
 * the same work in kernel. never calls kernel not at all. With --filter=kernel the region of each call ends where
 * control is back in main, however it gets there: the regions of jump hold kernel, finish and longjmp, never
 * main's loop.
 */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf back;
static int jump;

__attribute__((noinline, noipa)) void finish(long s)
{
    if (jump)
        longjmp(back, (int)(s & 1) + 1);
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
    const long n = argc > 1 ? strtol(argv[1], NULL, 10) : 10;
    const char *mode = argc > 2 ? argv[2] : "jump";
    jump = !strcmp(mode, "jump");
    long x[16];
    for (int i = 0; i < 16; i++)
        x[i] = i;
    volatile long done = 0;
    for (volatile long i = 0; i < n && strcmp(mode, "never"); i++) {
        if (setjmp(back) == 0)
            kernel(x, 1 + i % 16);
        done++;
    }
    /* after the loop: work that must not be counted in kernel's region */
    long s = 0;
    for (long i = 0; i < 20000; i++)
        s += x[i & 15] * i;
    return s == 0 || done != (strcmp(mode, "never") ? n : 0);
}
