/*
 * read_sum.c - a test program for the memory system calls write
 * (tests/syscall_test.py): it read()s the file named by its first argument
 * into a buffer of its second argument's KiB (larger than an L1, within an
 * L2), readv()s the next bytes into two small buffers, then sums the big
 * buffer in kernel(). It prints every call's buffer and result
 * ("write ADDR LEN", hexadecimal and decimal) for the test's naive count of
 * the lines the kernel wrote, then "read_sum n=BYTES sum=SUM".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

__attribute__((noinline, noipa)) unsigned long kernel(const unsigned long *v, long n)
{
    unsigned long s = 0;
    for (long i = 0; i < n; i++)
        s += v[i];
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const size_t bytes = (size_t)atol(argv[2]) * 1024;
    unsigned long *buf = aligned_alloc(64, bytes); /* its lines: bytes / 64 */
    static char small1[100], small2[300];
    const int fd = open(argv[1], O_RDONLY);
    if (!buf || fd < 0)
        return 2;
    size_t got = 0;
    while (got < bytes) {
        const ssize_t r = read(fd, (char *)buf + got, bytes - got);
        if (r <= 0)
            return 3;
        printf("write %lx %ld\n", (unsigned long)((char *)buf + got), (long)r);
        got += (size_t)r;
    }
    struct iovec iov[2] = {{small1 + 3, 90}, {small2 + 1, 250}};
    const ssize_t r = readv(fd, iov, 2);
    if (r != 340)
        return 4;
    printf("write %lx %ld\n", (unsigned long)(small1 + 3), 90L);
    printf("write %lx %ld\n", (unsigned long)(small2 + 1), 250L);
    close(fd);
    printf("read_sum n=%ld sum=%lu\n", (long)got, kernel(buf, (long)(got / sizeof *buf)) + small1[3] + small2[1]);
    return 0;
}
