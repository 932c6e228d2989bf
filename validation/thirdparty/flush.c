/*
 * flush.c: the cache flush the validation programs call just before their kernel.
 *
 * edan traces only the kernel (--filter) and its timing model starts with empty caches; gem5 runs the
 * whole program, so without a flush the kernel would find its data warm from the set-up. Reading and
 * writing 1 MiB (4x the 256 KiB L2 of machines/gem5-validation.ini) evicts the set-up's lines from both
 * cache levels, so gem5's kernel starts cold too. The same size as the flush the PolyBench build makes
 * its timer file do. The flush itself runs outside the kernel: gem5's time for the kernel (the
 * program's timer or its commit trace) and edan's traced region both exclude it.
 */
#include <stddef.h>

#define EDAN_FLUSH_BYTES (1u << 20)

static volatile double edan_flush_buf[EDAN_FLUSH_BYTES / sizeof(double)];

void edan_validation_flush(void)
{
    for (size_t i = 0; i < EDAN_FLUSH_BYTES / sizeof(double); i++)
        edan_flush_buf[i] += 1.0;
}
