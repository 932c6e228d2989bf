/*
 * peak_rss.c - runs a command and writes its peak resident set in KiB to a
 * file, for bench/bench_memory.py.
 *
 *   edan_peak_rss OUT_FILE COMMAND [ARG...]
 *
 * The command inherits stdin, stdout and stderr; the exit status is its.
 * Why not Python's wait4(): Linux keeps the largest resident set of every
 * memory image a process had, and a child Python starts had Python's until
 * it exec'd the command, so ru_maxrss is at least Python's (about 14 MiB)
 * whatever the command used. This program is small, and the command it
 * forks starts from its image: the figure is the command's own (plus this
 * program's few hundred KiB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: edan_peak_rss OUT_FILE COMMAND [ARG...]\n");
        return 2;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        perror("edan_peak_rss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("edan_peak_rss: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("edan_peak_rss: wait4");
        return 2;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f || fprintf(f, "%ld\n", ru.ru_maxrss) < 0 || fclose(f)) {
        fprintf(stderr, "edan_peak_rss: cannot write %s\n", argv[1]);
        return 2;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
