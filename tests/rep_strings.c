/*
 * A kernel of x86 rep strings (tests/rep_strings_run_test.py): rep stosb
 * sets n bytes of dst, rep movsb copies them to src's buffer... and back:
 * what glibc's memset and memcpy of large buffers run. Prints a checksum.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) void kernel(unsigned char *dst, unsigned char *src, size_t n)
{
    void *d = dst;
    size_t c = n;
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(c) : "a"(0x5a) : "memory");
    d = src;
    const void *s = dst;
    c = n;
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(c) : : "memory");
}

int main(int argc, char **argv)
{
    const size_t n = argc > 1 ? (size_t)atol(argv[1]) : 65536;
    unsigned char *a = malloc(n + 64), *b = malloc(n + 64);
    if (!a || !b)
        return 1;
    for (size_t i = 0; i < n + 64; i++) /* the pages written before the kernel */
        a[i] = b[i] = (unsigned char)i;
    kernel(a + 3, b + 5, n); /* unaligned: elements at every offset of a line */
    unsigned long sum = 0;
    for (size_t i = 0; i < n + 64; i++)
        sum += b[i];
    printf("sum %lu\n", sum);
    return 0;
}
