/* fork.c - a program that forks: the child sums the array too and exits,
 * the parent waits for it, then runs the kernel. edan traces the first
 * process only (the eDAG model is sequential) and warns that it forked.
 *
 * Usage: fork [n]   (n ints, default 64)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline, noipa)) long kernel(const long *a, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += a[i];
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 64;
    if (n < 1 || n > (1L << 24)) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 2^24)\n", argv[0]);
        return 1;
    }
    long *a = malloc((size_t)n * sizeof *a);
    if (!a)
        return 1;
    for (long i = 0; i < n; i++)
        a[i] = i;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0)
        _exit(kernel(a, n) == n * (n - 1) / 2 ? 0 : 1);
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "fork: the child failed\n");
        return 1;
    }
    printf("sum %ld\n", kernel(a, n));
    free(a);
    return 0;
}
