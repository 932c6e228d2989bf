/*
 * flush.c: the cache flush the validation programs call just before their kernel.
 *
 * edan traces only the kernel (--filter) and its timing model starts with empty caches; gem5 runs the
 * whole program, so without a flush the kernel would find its data warm from the set-up. Reading and
 * writing 1 MiB (4x the 256 KiB L2 of machines/gem5-validation.ini) evicts the set-up's lines from both
 * cache levels, so gem5's kernel starts cold too. The same size as the flush the PolyBench build makes
 * its timer file do. The flush itself runs outside the kernel: gem5's time for the kernel (the
 * program's timer or its commit trace) and edan's traced region both exclude it.
 *
 * The same data layout under both: glibc's stdio gives stdout a buffer from malloc of the size fstat
 * reports (st_blksize), at the first output. Under QEMU fstat(1) works (4 KiB); gem5 v22.1's SE mode
 * fails fstatat(1, "", AT_EMPTY_PATH) with ENOENT and stdio takes BUFSIZ (8 KiB). A program that
 * prints before it allocates its data (Olden's tsp: "Building tree ...") then has every heap object
 * 0x1090 bytes further in gem5, so at another offset in its cache line: tsp's 56-byte nodes put
 * `left` and `right` in one line in gem5 and in two under QEMU, a second miss per node in edan only
 * (fits.tsp's slope +61 % against +43 % with the same layout, docs/accuracy.md). A static buffer,
 * given before main, makes stdout take nothing from the heap in either.
 */
#include <stddef.h>
#include <stdio.h>

static char edan_stdout_buf[BUFSIZ];

__attribute__((constructor)) static void edan_validation_stdout(void)
{
    setvbuf(stdout, edan_stdout_buf, _IOFBF, sizeof edan_stdout_buf);
}

#define EDAN_FLUSH_BYTES (1u << 20)

static volatile double edan_flush_buf[EDAN_FLUSH_BYTES / sizeof(double)];

void edan_validation_flush(void)
{
    for (size_t i = 0; i < EDAN_FLUSH_BYTES / sizeof(double); i++)
        edan_flush_buf[i] += 1.0;
}
