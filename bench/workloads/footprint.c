/*
 * footprint.c - memory-footprint benchmark workload for edan: how much
 * analysis memory a program needs for the bytes it touches (issue 25).
 *
 *   footprint dense BYTES [ROUNDS]    write, then read, every 8-byte word of BYTES (ROUNDS times)
 *   footprint strided SPAN STRIDE     the same for one 8-byte word every STRIDE bytes of SPAN
 *   footprint scattered SPAN COUNT    COUNT distinct 8-byte words spread over SPAN, in a
 *                                     scrambled order (a bijection, so none is touched twice)
 *   footprint recurse DEPTH           a recursion DEPTH calls deep, each frame 64 bytes, on a
 *                                     stack of its own, in the main thread (QEMU's main stack
 *                                     is 8 MiB, and edan traces only the main thread)
 *
 * The memory comes from one anonymous mapping made with MAP_NORESERVE, so a
 * span of gigabytes costs the host only the pages touched. Everything is
 * done in the kernel function touch() (or recurse()): trace it with
 * --filter=touch (or --filter=recurse). The program prints the bytes the
 * kernel touched (each byte counted once, however many rounds), the figure
 * the analysis memory is compared with, as "touched N".
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

static uint64_t parse_arg(const char *s, const char *what, uint64_t min)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || v < min) {
        fprintf(stderr, "footprint: bad %s '%s' (integer >= %llu expected)\n", what, s, (unsigned long long)min);
        exit(2);
    }
    return v;
}

/*
 * Word i of count goes to word ((i * mul) & mask) * step of the mapping:
 * with mul odd and mask + 1 a power of two at least count, distinct i give
 * distinct words. mul = 1 walks in order; a large odd mul scatters.
 */
__attribute__((noinline, noipa)) uint64_t touch(uint64_t *mem, uint64_t count, uint64_t step, uint64_t mul,
                                                uint64_t mask)
{
    for (uint64_t i = 0; i < count; i++)
        mem[((i * mul) & mask) * step] = i;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < count; i++)
        sum += mem[((i * mul) & mask) * step];
    return sum;
}

__attribute__((noinline, noipa)) uint64_t recurse(uint64_t depth)
{
    volatile uint64_t frame[6];
    frame[0] = depth;
    if (depth == 0)
        return 0;
    uint64_t r = recurse(depth - 1);
    return r + frame[0];
}

static uint64_t recurse_depth, recurse_sum;
static void recurse_entry(void)
{
    recurse_sum = recurse(recurse_depth);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr,
                "usage: footprint dense BYTES [ROUNDS] | strided SPAN STRIDE | scattered SPAN COUNT | recurse DEPTH\n");
        return 2;
    }
    const char *mode = argv[1];
    if (!strcmp(mode, "recurse")) {
        uint64_t depth = parse_arg(argv[2], "DEPTH", 1), r;
        size_t bytes = (size_t)(depth + 1) * 64 + (1u << 20);
        static ucontext_t back, deep;
        void *stack = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (stack == MAP_FAILED || getcontext(&deep)) {
            fprintf(stderr, "footprint: cannot make the recursion's stack\n");
            return 1;
        }
        deep.uc_stack.ss_sp = stack;
        deep.uc_stack.ss_size = bytes;
        deep.uc_link = &back;
        recurse_depth = depth;
        makecontext(&deep, recurse_entry, 0);
        if (swapcontext(&back, &deep)) {
            fprintf(stderr, "footprint: cannot switch to the recursion's stack\n");
            return 1;
        }
        r = recurse_sum;
        printf("sum %llu touched %llu\n", (unsigned long long)r, (unsigned long long)(depth + 1) * 64);
        return r == depth * (depth + 1) / 2 ? 0 : 1;
    }
    if (argc != 4 && strcmp(mode, "dense")) {
        fprintf(stderr, "footprint: %s takes two arguments\n", mode);
        return 2;
    }
    uint64_t span, count, step = 1, mul = 1, mask, rounds = 1;
    if (!strcmp(mode, "dense")) {
        span = parse_arg(argv[2], "BYTES", 8);
        count = span / 8;
        if (argc == 4)
            rounds = parse_arg(argv[3], "ROUNDS", 1);
    } else if (!strcmp(mode, "strided")) {
        span = parse_arg(argv[2], "SPAN", 8);
        uint64_t stride = parse_arg(argv[3], "STRIDE", 8);
        if (stride % 8) {
            fprintf(stderr, "footprint: STRIDE must be a multiple of 8\n");
            return 2;
        }
        step = stride / 8;
        count = span / stride;
    } else if (!strcmp(mode, "scattered")) {
        span = parse_arg(argv[2], "SPAN", 8);
        count = parse_arg(argv[3], "COUNT", 1);
        /* count words at the slots of a power-of-two grid over the span, visited scrambled */
        uint64_t slots = 1;
        while (slots < count)
            slots <<= 1;
        step = span / 8 / slots;
        if (!step) {
            fprintf(stderr, "footprint: SPAN holds fewer than COUNT words\n");
            return 2;
        }
        mul = 0x9E3779B97F4A7C15ull; /* odd: i -> (i * mul) & mask is a bijection of the slots */
    } else {
        fprintf(stderr, "footprint: unknown mode '%s'\n", mode);
        return 2;
    }
    mask = 1;
    while (mask < count)
        mask <<= 1;
    mask -= 1;
    if (count == 0) {
        fprintf(stderr, "footprint: nothing to touch\n");
        return 2;
    }
    uint64_t *mem =
        mmap(NULL, (mask + 1) * step * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) {
        perror("footprint: mmap");
        return 1;
    }
    uint64_t sum = 0;
    for (uint64_t r = 0; r < rounds; r++)
        sum += touch(mem, count, step, mul, mask);
    printf("sum %llu touched %llu\n", (unsigned long long)sum, (unsigned long long)count * 8);
    return sum == rounds * (count * (count - 1) / 2) ? 0 : 1;
}
