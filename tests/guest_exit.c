/*
 * guest_exit.c - a traced program that ends as told (tests/exit_status_test.py):
 *   guest_exit STATUS [N]   sums N numbers in kernel() and exits with STATUS
 *   guest_exit sigS [N]     ... then raises signal S
 *   guest_exit fault [N]    ... then stores through a null pointer (SIGSEGV from the hardware)
 *   guest_exit inside [N]   stores through a null pointer inside kernel(), its region left open
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int *volatile nowhere;

__attribute__((noinline)) long kernel(long n, int die)
{
    volatile long s = 0;
    for (long i = 0; i < n; i++)
        s += i;
    if (die)
        *nowhere = 1;
    return s;
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "0";
    const long n = argc > 2 ? atol(argv[2]) : 100;
    printf("sum %ld\n", kernel(n, !strcmp(how, "inside")));
    fflush(stdout);
    if (!strncmp(how, "sig", 3))
        raise(atoi(how + 3));
    if (!strcmp(how, "fault"))
        *nowhere = 1;
    return atoi(how);
}
