/* guest_fds.c - a traced program that writes into, then closes, every descriptor 0..1023 (issue 35).
 *
 * Usage: guest_fds [n [fork]]   (the kernel's steps, default 64; with "fork", a child that exits at once after
 * the descriptors are closed, so that the plugin has a warning to print after the run)
 *
 * Run under edan, it must not reach edan's files: not the report edan writes (--output), not the trace the
 * plugin writes (record), not standard error as edan prints its warnings after the run. The kernel runs
 * after the descriptors are closed, so its eDAG shows that tracing went on: W = n loads.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline, noipa)) long kernel(const long *x, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += x[i];
    return s;
}

int main(int argc, char **argv)
{
    const long n = argc > 1 ? strtol(argv[1], NULL, 10) : 64;
    static const char msg[] = "INJECTED-BY-GUEST\n";
    for (int fd = 0; fd < 1024; fd++)
        (void)!write(fd, msg, strlen(msg));
    for (int fd = 0; fd < 1024; fd++)
        close(fd);
    if (argc > 2 && !strcmp(argv[2], "fork")) {
        const pid_t child = fork();
        if (child == 0)
            _exit(0);
        if (child > 0)
            (void)waitpid(child, NULL, 0);
    }
    long *x = malloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    if (!x)
        return 1;
    for (long i = 0; i < n; i++)
        x[i] = i;
    return kernel(x, n) == n * (n - 1) / 2 ? 0 : 1;
}
