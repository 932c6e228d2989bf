/*
 * native_fault.c - the time a thread loses to the fault of its first store to a fresh 4 KiB page (make
 * validate-native, validation/native.py; [machine] page_fault_ns, docs/model.md): the kernel's trap, a frame, its
 * clearing and the return. Each round maps fresh anonymous pages (huge pages refused, as a program's heap gets
 * them under Debian's default `madvise` setting), stores a word to each, then the same stores again to the
 * pages now present; the difference over the pages, timed by the thread's CPU time, which counts the kernel's time
 * on the thread's behalf (as the validated programs' timers do). Prints the median over the rounds, in ns.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define PAGES 512
#define ROUNDS 15

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    double ns[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        volatile char *p = mmap(NULL, (size_t)PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            perror("native_fault: mmap");
            return 2;
        }
        madvise((void *)p, (size_t)PAGES * 4096, MADV_NOHUGEPAGE);
        const double t0 = now();
        for (long i = 0; i < PAGES; i++)
            p[i * 4096] = 1;
        const double t1 = now();
        for (long i = 0; i < PAGES; i++)
            p[i * 4096] = 2;
        const double t2 = now();
        ns[r] = ((t1 - t0) - (t2 - t1)) / PAGES;
        munmap((void *)p, (size_t)PAGES * 4096);
    }
    qsort(ns, ROUNDS, sizeof ns[0], by_value);
    printf("%.0f\n", ns[ROUNDS / 2]);
    return 0;
}
